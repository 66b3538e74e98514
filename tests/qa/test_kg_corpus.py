"""The knowledge-graph question corpus: questions with their gold decision, answer, factors and path.

The gold labels were written against examples/kg; every cited hop is also checked here against the CSV
tables (the edge exists, and an answer only walks hops whose chunk mentions both ends).
"""

from __future__ import annotations

import csv
import json
from pathlib import Path

import pytest

from ont_platform import KnowledgeGraph
from ont_platform.answer import schema_errors

HERE = Path(__file__).resolve().parent
DATA = HERE.parents[1] / "examples" / "kg"
CORPUS = [json.loads(x) for x in (HERE / "corpus" / "kg.jsonl").read_text(encoding="utf-8").splitlines() if x]


def _table(name: str) -> list[dict[str, str]]:
    with (DATA / name).open(encoding="utf-8", newline="") as fh:
        return list(csv.DictReader(fh))


NODES = {r["node_id"]: r for r in _table("kg_nodes.csv")}
CHUNKS = {r["chunk_id"]: r["text"] for r in _table("kg_chunks.csv")}
EDGES = {(r["src"], r["rel"], r["dst"]): r for r in _table("kg_edges.csv")}


def _mentions(chunk: str, node: str) -> bool:
    text = CHUNKS.get(chunk, "").replace(" ", "").casefold()
    names = [NODES[node]["label"], *filter(None, NODES[node]["aliases"].split("|"))]
    return any(n.replace(" ", "").casefold() in text for n in names)


@pytest.mark.parametrize("item", CORPUS, ids=[c["id"] for c in CORPUS])
def test_kg_corpus(kg_kg: KnowledgeGraph, item: dict) -> None:
    got = kg_kg.ask(item["question"], qid=item["id"]).to_json()
    assert schema_errors(got, "hop_decision") == []
    want = item["expect"]
    assert got["decision"] == want["decision"], got["reason"]
    assert got["factors"] == want["factors"]
    if want["answer"] is None:
        assert got["answer"] is None
    else:
        assert sorted(got["answer"].split(", ")) == want["answer"]
    if want["path"] is not None:
        assert [[h["src"], h["rel"], h["dst"]] for h in got["path"]] == want["path"]
    for hop in got["path"]:
        edge = EDGES[(hop["src"], hop["rel"], hop["dst"])]
        assert hop["chunk_id"] == (edge["chunk_id"] or None)
    if got["decision"] == "answer":
        for hop in got["path"]:
            edge = EDGES[(hop["src"], hop["rel"], hop["dst"])]
            assert (
                edge["grounded"] == "true"
                and _mentions(edge["chunk_id"], hop["src"])
                and _mentions(edge["chunk_id"], hop["dst"])
            )
        assert got["hedge"] is None
    else:
        assert got["hedge"]
