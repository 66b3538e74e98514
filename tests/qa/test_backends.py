"""The same questions give the same answers on every backend: Oxigraph embedded (memory and disk), rdflib,
and remote SPARQL endpoints (the Oxigraph server and Virtuoso, started on loopback)."""

from __future__ import annotations

import json
import uuid
from collections.abc import Iterator
from pathlib import Path

import pytest

from ont_platform import KnowledgeGraph
from tests.servers import Endpoint

EXAMPLES = Path(__file__).resolve().parents[2] / "examples"
BACKENDS = ["oxigraph-disk", "rdflib", "remote-oxigraph", "remote-virtuoso"]


def _questions(name: str) -> list[tuple[str, str]]:
    lines = (EXAMPLES / name / "questions.jsonl").read_text(encoding="utf-8").splitlines()
    return [(d["id"], d["question"]) for d in map(json.loads, filter(str.strip, lines))]


def _open(backend: str, request: pytest.FixtureRequest, tmp: Path) -> KnowledgeGraph:
    if backend == "oxigraph-disk":
        return KnowledgeGraph.open(tmp / "db")
    if backend == "rdflib":
        return KnowledgeGraph.open(backend="rdflib")
    ep: Endpoint = request.getfixturevalue(backend.replace("remote-", "") + "_endpoint")
    return KnowledgeGraph.open(backend="remote", endpoint=ep.query_url, update_endpoint=ep.update_url,
                               graph_iri=f"https://w3id.org/ont-platform/graph/test/{uuid.uuid4().hex}")


@pytest.fixture(scope="module", params=["onchain", "kg"])
def reference(request: pytest.FixtureRequest) -> Iterator[tuple[str, dict[str, dict]]]:
    name = request.param
    with KnowledgeGraph.open() as kg:
        kg.load(EXAMPLES / name)
        yield name, {qid: kg.ask(q, qid=qid).to_json() for qid, q in _questions(name)}


@pytest.mark.remote
@pytest.mark.parametrize("backend", BACKENDS)
def test_same_answers_on_every_backend(backend: str, reference: tuple[str, dict[str, dict]],
                                       request: pytest.FixtureRequest, tmp_path: Path) -> None:
    name, expected = reference
    kg = _open(backend, request, tmp_path)
    try:
        kg.load(EXAMPLES / name)
        for qid, question in _questions(name):
            assert kg.ask(question, qid=qid).to_json() == expected[qid], (backend, qid)
    finally:
        kg.store.clear()
        kg.close()
