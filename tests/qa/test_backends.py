"""The same questions give the same answers on every backend: Oxigraph embedded (memory and disk), rdflib,
and remote SPARQL endpoints (the Oxigraph server and Virtuoso, started on loopback)."""

from __future__ import annotations

import csv
import json
import random
import uuid
from collections.abc import Iterator
from pathlib import Path

import pytest

from ont_platform import KnowledgeGraph
from ont_platform.sparql.common import node_names
from tests.benchmarks import generate
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
    return KnowledgeGraph.open(
        backend="remote",
        endpoint=ep.query_url,
        update_endpoint=ep.update_url,
        graph_iri=f"https://w3id.org/ont-platform/graph/test/{uuid.uuid4().hex}",
    )


@pytest.fixture(scope="module", params=["onchain", "kg"])
def reference(request: pytest.FixtureRequest) -> Iterator[tuple[str, dict[str, dict]]]:
    name = request.param
    with KnowledgeGraph.open() as kg:
        kg.load(EXAMPLES / name)
        yield name, {qid: kg.ask(q, qid=qid).to_json() for qid, q in _questions(name)}


@pytest.mark.remote
@pytest.mark.parametrize("backend", BACKENDS)
def test_same_answers_on_every_backend(
    backend: str, reference: tuple[str, dict[str, dict]], request: pytest.FixtureRequest, tmp_path: Path
) -> None:
    name, expected = reference
    kg = _open(backend, request, tmp_path)
    try:
        kg.load(EXAMPLES / name)
        for qid, question in _questions(name):
            assert kg.ask(question, qid=qid).to_json() == expected[qid], (backend, qid)
    finally:
        kg.store.clear()
        kg.close()


# --- a generated graph larger than Virtuoso's 10,000-row result cut ----------------------------------------------


# Virtuoso gets 31,000 transfers over 10,333 addresses, so that reading the lexicon crosses its 10,000-row cut;
# the Oxigraph server has no cut and loads over SPARQL UPDATE more slowly, so it gets a smaller graph.
GENERATED_SIZE = {"remote-virtuoso": 31_000, "remote-oxigraph": 6_000}


@pytest.fixture(scope="module")
def generated_cache() -> dict[int, tuple[Path, list[tuple[str, int, str]], list[dict]]]:
    return {}


def _generated(
    n: int,
    tmp_path_factory: pytest.TempPathFactory,
    cache: dict[int, tuple[Path, list[tuple[str, int, str]], list[dict]]],
) -> tuple[Path, list[tuple[str, int, str]], list[dict]]:
    """A generated dataset of ``n`` transfers, the questions of the scale benchmark from 20 seeded start nodes,
    and the embedded store's answers, each one checked against a networkx breadth-first search first."""
    if n in cache:
        return cache[n]
    import networkx as nx

    folder = tmp_path_factory.mktemp("generated")
    generate(n, 11, folder)
    deposits = {row["node_id"] for row in _rows(folder / "onchain_nodes.csv") if row["onto_class"] == "ExchangeDeposit"}
    graph = nx.DiGraph()
    graph.add_edges_from(
        (row["from"], row["to"]) for row in _rows(folder / "onchain_edges.csv") if row["rel"] == "transfer"
    )
    senders = sorted((n for n in graph if graph.out_degree(n) > 0), key=lambda n: int(n[2:]))
    starts = random.Random(11).sample(senders, 20)
    questions = [(s, k, f"{s} 에서 {k}-hop 안에 거래소 입금주소에 닿나요?") for k in (1, 2, 3) for s in starts]
    with KnowledgeGraph.open() as kg:
        kg.load(folder, shacl=False)
        answers = [kg.ask(q).to_json() for _, _, q in questions]
    yes = 0
    for (start, k, _), got in zip(questions, answers, strict=True):
        dist = nx.single_source_shortest_path_length(graph, start, cutoff=k)
        shortest = min((d for n, d in dist.items() if n in deposits and n != start), default=None)
        if shortest is None:
            assert got["intent"] != "path_exists", (start, k, got)
        else:
            yes += 1
            assert got["intent"] == "path_exists" and len(got["path"]) == shortest, (start, k, got, shortest)
    assert 0 < yes < len(questions)  # both kinds of answer are compared below
    cache[n] = folder, questions, answers
    return cache[n]


def test_generated_graph_embedded_answers_agree_with_networkx_and_sparql_alone(
    generated_cache: dict, tmp_path_factory: pytest.TempPathFactory
) -> None:
    """The scale benchmark's graph shape (hubs, deposits, mixers) at 3,000 transfers, without any server: the
    embedded answers (transfer mirror on) match a networkx search, and SPARQL alone gives the same JSON."""
    from dataclasses import replace

    from ont_platform.limits import DEFAULT_LIMITS

    folder, questions, expected = _generated(3_000, tmp_path_factory, generated_cache)
    with KnowledgeGraph.open(limits=replace(DEFAULT_LIMITS, walk_max_edges=0)) as plain:
        plain.load(folder, shacl=False)
        alone = [plain.ask(q).to_json() for _, _, q in questions]
    differing = [(q[0], q[1]) for q, a, b in zip(questions, expected, alone, strict=True) if a != b]
    assert not differing, differing


@pytest.mark.remote
@pytest.mark.parametrize("backend", ["remote-oxigraph", "remote-virtuoso"])
def test_generated_graph_same_answers_on_servers(
    backend: str,
    generated_cache: dict,
    request: pytest.FixtureRequest,
    tmp_path_factory: pytest.TempPathFactory,
    tmp_path: Path,
) -> None:
    folder, questions, expected = _generated(GENERATED_SIZE[backend], tmp_path_factory, generated_cache)
    kg = _open(backend, request, tmp_path)
    try:
        kg.load(folder, shacl=False)
        got = [kg.ask(q).to_json() for _, _, q in questions]
        if backend == "remote-virtuoso":
            assert len(kg.store.select(node_names(20_000))) > 10_000  # the lexicon read really was paged
    finally:
        kg.store.clear()
        kg.close()
    differing = [(q[0], q[1]) for q, a, b in zip(questions, expected, got, strict=True) if a != b]
    assert not differing, differing


def _rows(path: Path) -> list[dict[str, str]]:
    """A generated table's rows by column name (the same reader the loader's CSV format calls for)."""
    with path.open(newline="", encoding="utf-8") as fh:
        return list(csv.DictReader(fh))
