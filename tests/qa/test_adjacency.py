"""The transfer mirror (qa/adjacency.py) decides path questions exactly as SPARQL alone would: the same answers
with the mirror on, off, or over its walk budget, on random graphs and after random ingests; every list it
holds is what the store holds; it follows every write (a guarded ingest hands it the triples it wrote, any
other write makes it stale), and stores whose data can change behind the process get none."""

from __future__ import annotations

from dataclasses import replace
from pathlib import Path
from typing import Any

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from rdflib import Graph

from ont_platform import KnowledgeGraph
from ont_platform.limits import DEFAULT_LIMITS
from ont_platform.namespaces import OC, mint
from ont_platform.qa.adjacency import Adjacency
from ont_platform.storage.remote import RemoteStore
from ont_platform.validation import RuleConfig
from tests.qa.test_properties import CLASSES, TARGETS, _labels, _write, graphs

EXAMPLES = Path(__file__).resolve().parents[2] / "examples"
OFF = replace(DEFAULT_LIMITS, walk_max_edges=0)
TINY = replace(DEFAULT_LIMITS, walk_max_edges=2)  # most walks go over it and fall back to SPARQL
LENIENT = RuleConfig(id_prefix_severity="warning")
TEMPLATES = [
    "{s} 에서 {n}-hop 안에 {c}에 자금이 닿나요?",
    "{n}-hop 안에 {c}에서 {s} 로 들어온 경로가 있나요?",
    "{s} 에서 {t} 까지 {n}-hop 안에 경로가 있나요?",
]


def _questions(data: st.DataObject, ids: list[str], count: int) -> list[str]:
    out = []
    for _ in range(count):
        template = data.draw(st.sampled_from(TEMPLATES))
        target = data.draw(st.sampled_from(TARGETS))
        out.append(
            template.format(
                s=data.draw(st.sampled_from(ids)),
                t=data.draw(st.sampled_from(ids)),
                n=data.draw(st.integers(1, 4)),
                c=data.draw(st.sampled_from(_labels(target))),
            )
        )
    return out


def _answers(kg: KnowledgeGraph, questions: list[str]) -> list[dict[str, Any]]:
    return [kg.ask(q).to_json() for q in questions]


def _as_store_holds(adj: Adjacency, store: Any) -> None:
    """Every list and class set the mirror holds equals a fresh read of the store now (a new mirror)."""
    fresh = Adjacency(store, adj.predicate, adj.generation)
    for backward in (False, True):
        for node, held in adj.held_lists(backward=backward).items():
            read = fresh.predecessors(node) if backward else fresh.successors(node)
            assert sorted(held) == sorted(read), (node, backward)
            assert len(held) == len(set(held))
    held_types = adj.held_types()
    assert held_types == fresh.classes(held_types)


def _mirror(kg: KnowledgeGraph) -> Adjacency:
    held = kg.context("onchain").mirrors.held(OC.transfer)
    assert held is not None
    return held


@pytest.mark.slow
@settings(max_examples=40, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(g=graphs(), data=st.data())
def test_the_mirror_answers_as_sparql_alone(tmp_path_factory, g, data) -> None:  # type: ignore[no-untyped-def]
    nodes, edges = g
    folder = tmp_path_factory.mktemp("g")
    _write(folder, nodes, edges)
    questions = _questions(data, [x for x, _ in nodes], 6)
    graphs_ = [KnowledgeGraph.open(limits=limits) for limits in (DEFAULT_LIMITS, OFF, TINY)]
    try:
        for kg in graphs_:
            kg.load(folder, shacl=False)
        mirrored, alone, over_budget = (_answers(kg, questions) for kg in graphs_)
        assert mirrored == alone == over_budget
        assert graphs_[1].context("onchain").mirrors.held(OC.transfer) is None  # off: never read
        if questions:
            mirror = _mirror(graphs_[0])
            stored = {(f"<{mint('onchain', 'node', a)}>", f"<{mint('onchain', 'node', b)}>") for _, a, b in edges}
            for node, out in mirror.held_lists().items():
                assert {(node, o) for o in out} == {e for e in stored if e[0] == node}
            _as_store_holds(mirror, graphs_[0].store)
    finally:
        for kg in graphs_:
            kg.close()


def _transfer_batch(data: st.DataObject, ids: list[str], classes: dict[str, str], k: int) -> dict[str, Any]:
    """Transfers among stored nodes and one new node per batch (each end listed with its stored class)."""
    new = f"w_new{k}"
    pool = [*ids, new]
    pairs = data.draw(
        st.lists(
            st.tuples(st.sampled_from(pool), st.sampled_from(pool)).filter(lambda p: p[0] != p[1]),
            min_size=1,
            max_size=4,
        ),
        label=f"batch {k}",
    )
    new_class = data.draw(st.sampled_from(CLASSES), label=f"class of {new}")
    ends = sorted({x for pair in pairs for x in pair})
    entities = [
        {"id": x, "label": f"지갑 {x}", "type": "individual", "ontology_class": new_class if x == new else classes[x]}
        for x in ends
    ]
    for entity in entities:
        if entity["id"] == new:
            entity["attributes"] = {"addressNorm": "0xab" + f"{k:038x}"}
    relations = [
        {
            "id": f"R_{k}_{i}",
            "source_id": a,
            "predicate": "transfer",
            "target_id": b,
            "attributes": {"txHash": "0x" + f"{k:02x}{i:02x}".rjust(64, "0")},
            "evidence": [{"chunk_text": f"{a} 가 {b} 로 보냈다."}],
        }
        for i, (a, b) in enumerate(pairs)
    ]
    return {"entities": entities, "relations": relations}


@pytest.mark.slow
@settings(max_examples=15, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(g=graphs().filter(lambda g: len(g[0]) > 1), data=st.data())
def test_after_ingests_the_mirror_equals_a_fresh_read(tmp_path_factory, g, data) -> None:  # type: ignore[no-untyped-def]
    nodes, edges = g
    folder = tmp_path_factory.mktemp("g")
    _write(folder, nodes, edges)
    ids = [x for x, _ in nodes]
    classes = dict(nodes)
    with KnowledgeGraph.open() as kg, KnowledgeGraph.open(limits=OFF) as plain:
        for graph in (kg, plain):
            graph.load(folder, shacl=False)
        first = [f"{ids[0]} 에서 1-hop 안에 거래소에 자금이 닿나요?", *_questions(data, ids, 2)]
        assert _answers(kg, first) == _answers(plain, first)  # the first one makes the mirror
        mirror = _mirror(kg)
        ingests = data.draw(st.integers(1, 3), label="ingests")
        _ingest(kg, plain, data, ids, classes, ingests)
        assert _mirror(kg) is mirror  # every ingest was followed, none made the mirror start again
        assert mirror.generation == kg.store.generation
        _as_store_holds(mirror, kg.store)


def _ingest(
    kg: KnowledgeGraph,
    plain: KnowledgeGraph,
    data: st.DataObject,
    ids: list[str],
    classes: dict[str, str],
    ingests: int,
) -> None:
    """The same batches into both graphs; after each, random questions get the same answers from both."""
    for k in range(ingests):
        batch = _transfer_batch(data, ids, classes, k)
        reports = [graph.ingest(batch, domain="onchain", config=LENIENT) for graph in (kg, plain)]
        assert reports[0].accepted == reports[1].accepted
        assert reports[0].accepted, reports[0].as_dict()
        for entity in batch["entities"]:
            if entity["id"] not in classes:
                ids.append(entity["id"])
                classes[entity["id"]] = entity["ontology_class"]
        questions = _questions(data, ids, 4)
        assert _answers(kg, questions) == _answers(plain, questions)


def test_any_other_write_makes_the_mirror_read_again() -> None:
    question = "n_w9 에서 1-hop 안에 믹서에 닿나요?"
    with KnowledgeGraph.open() as kg:
        kg.load(EXAMPLES / "onchain")
        assert kg.ask(question).to_json()["intent"] == "no_path"
        before = _mirror(kg)
        mixer = next(
            str(r["n"])
            for r in kg.select("SELECT ?n WHERE { ?n a <https://w3id.org/ont-platform/onchain#Mixer> } LIMIT 1")
        )
        kg.store.add_ntriples(f"<{mint('onchain', 'node', 'n_w9')}> <{OC.transfer}> <{mixer}> .\n")
        answer = kg.ask(question).to_json()
        assert _mirror(kg) is not before and _mirror(kg).generation == kg.store.generation
        # the path query then wants the edge resource the plain triple lacks: SPARQL alone decides, as before
        with KnowledgeGraph.open(limits=OFF) as plain:
            plain.load(EXAMPLES / "onchain")
            plain.store.add_ntriples(f"<{mint('onchain', 'node', 'n_w9')}> <{OC.transfer}> <{mixer}> .\n")
            assert plain.ask(question).to_json() == answer


def test_a_walk_over_budget_goes_to_sparql(monkeypatch: pytest.MonkeyPatch) -> None:
    with KnowledgeGraph.open(limits=TINY) as kg:
        kg.load(EXAMPLES / "onchain")
        answer, queries = kg.trace("n_a1 에서 3-hop 안에 거래소 입금주소에 닿나요?")
    with KnowledgeGraph.open() as kg:
        kg.load(EXAMPLES / "onchain")
        mirrored, fewer = kg.trace("n_a1 에서 3-hop 안에 거래소 입금주소에 닿나요?")
    assert answer.to_json() == mirrored.to_json()
    assert len(fewer) < len(queries)  # the mirror skipped the reachability query and the shorter path queries


def test_a_no_from_the_mirror_runs_no_query_and_its_query_finds_nothing() -> None:
    with KnowledgeGraph.open() as kg:
        kg.load(EXAMPLES / "onchain")
        answer, queries = kg.trace("n_ex1 에서 2-hop 안에 믹서에 닿나요?")
        got = answer.to_json()
        assert got["intent"] == "no_path" and queries == []
        assert list(kg.select(got["generated_query"])) == []


def test_stores_that_can_change_behind_the_process_get_no_mirror(tmp_path: Path) -> None:
    assert RemoteStore("http://127.0.0.1:9/sparql").generation is None
    with KnowledgeGraph.open(backend="rdflib", graph=Graph()) as kg:
        kg.load(EXAMPLES / "onchain")
        assert kg.store.generation is None
        answer, queries = kg.trace("n_ex1 에서 2-hop 안에 믹서에 닿나요?")
        assert answer.to_json()["intent"] == "no_path" and queries  # SPARQL decided
    with KnowledgeGraph.open(backend="rdflib") as kg:  # a graph the store made itself is counted
        kg.load(EXAMPLES / "onchain")
        assert kg.store.generation is not None
        answer, queries = kg.trace("n_ex1 에서 2-hop 안에 믹서에 닿나요?")
        assert answer.to_json()["intent"] == "no_path" and queries == []


def test_following_a_write_on_a_stale_mirror_drops_it() -> None:
    with KnowledgeGraph.open() as kg:
        kg.load(EXAMPLES / "onchain")
        kg.ask("n_ex1 에서 2-hop 안에 믹서에 닿나요?")
        mirrors = kg.context("onchain").mirrors
        kg.store.add_ntriples('<urn:x> <urn:p> "1" .\n')  # a write the mirror is not told about
        after = kg.store.generation
        kg.store.add_ntriples('<urn:x> <urn:p> "2" .\n')
        mirrors.follow(kg.store, [("<urn:x>", "<urn:p>", '"2"')], after)  # told about the second write only
        assert mirrors.held(OC.transfer) is None


def test_writes_move_the_generation(tmp_path: Path) -> None:
    for kg in (KnowledgeGraph.open(), KnowledgeGraph.open(backend="rdflib")):
        with kg:
            seen = [kg.store.generation]
            kg.store.add_ntriples('<urn:a> <urn:p> "1" .\n')
            seen.append(kg.store.generation)
            kg.store.update('INSERT DATA { <urn:a> <urn:p> "2" }')
            seen.append(kg.store.generation)
            kg.store.clear()
            seen.append(kg.store.generation)
            assert len(set(seen)) == 4, seen
            kg.store.select("SELECT * WHERE { ?s ?p ?o }")
            assert kg.store.generation == seen[-1]  # reads do not count


def test_a_walk_reads_only_the_nodes_it_reaches() -> None:
    with KnowledgeGraph.open() as kg:
        kg.load(EXAMPLES / "onchain")
        start = f"<{mint('onchain', 'node', 'n_a1')}>"
        kg.ask("n_a1 에서 1-hop 안에 믹서에 닿나요?")
        mirror = _mirror(kg)
        assert set(mirror.held_lists()) == {start}
        first = set(mirror.held_lists()[start])
        kg.ask("n_a1 에서 2-hop 안에 믹서에 닿나요?")
        assert set(mirror.held_lists()) <= {start} | first
        assert _mirror(kg) is mirror  # the second question used what the first one read
        assert len(mirror) < len(list(kg.store.triples((None, OC.transfer, None))[0]))


def test_a_full_cache_starts_again_and_answers_the_same(monkeypatch: pytest.MonkeyPatch) -> None:
    import ont_platform.qa.adjacency as adjacency

    questions = [
        f"{s} 에서 {k}-hop 안에 거래소 입금주소에 닿나요?" for s in ("n_a1", "n_w9", "n_h1") for k in (1, 2, 3)
    ]
    with KnowledgeGraph.open() as kg:
        kg.load(EXAMPLES / "onchain")
        expected = _answers(kg, questions)
    monkeypatch.setattr(adjacency, "CACHED_EDGES", 2)
    with KnowledgeGraph.open() as kg:
        kg.load(EXAMPLES / "onchain")
        assert _answers(kg, questions) == expected
        assert len(_mirror(kg)) <= 2  # each read past the cap emptied it
