"""Retraction: a relation taken back is never walked or cited again, with who, when and why kept as PROV-O.

The property test retracts random sets of on-chain transfers in sequence and checks, after every step, path
answers against a networkx walk over the transfers still live (the model), and that a refused step (an id
retracted already) changes nothing.
"""

from __future__ import annotations

import csv
from collections.abc import Iterator

import networkx as nx
import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from rdflib import RDF, RDFS, Literal, Namespace

from ont_platform import KnowledgeGraph
from ont_platform.errors import InputError
from ont_platform.namespaces import KG, ONT, mint
from ont_platform.resources import example_dataset

PROV = Namespace("http://www.w3.org/ns/prov#")


def _csv(domain: str, name: str) -> list[dict[str, str]]:
    with (example_dataset(domain) / name).open(encoding="utf-8") as fh:
        return list(csv.DictReader(fh))


@pytest.fixture
def kg() -> Iterator[KnowledgeGraph]:
    with KnowledgeGraph.open() as graph:
        graph.load(example_dataset("kg"))
        yield graph


def _employer_edge(person: str) -> dict[str, str]:
    (edge,) = [e for e in _csv("kg", "kg_edges.csv") if e["src"] == person and e["rel"] == "worksFor"]
    return edge


def test_a_retracted_relation_is_not_walked_and_its_retraction_is_recorded(kg: KnowledgeGraph) -> None:
    edge = _employer_edge("p_hong")
    assert kg.ask("홍길동이 다니는 회사는?").answer == edge["dst"]
    report = kg.retract([edge["edge_id"]], reason="spot check: wrong employer", by="reviewer")
    answer = kg.ask("홍길동이 다니는 회사는?")
    assert answer.decision == "refuse" and answer.answer is None
    node = mint("kg", "node", "p_hong")
    assert (node, KG.worksFor, mint("kg", "node", edge["dst"])) not in kg
    e = mint("kg", "edge", edge["edge_id"])
    assert (e, RDF.type, ONT.RetractedRelation) in kg and not list(kg.triples((e, ONT.source, None)))
    (activity,) = [o for _, _, o in kg.triples((e, PROV.wasInvalidatedBy, None))]
    assert str(activity) == report.activity
    assert (activity, RDFS.comment, Literal("spot check: wrong employer")) in kg
    assert list(kg.triples((activity, PROV.endedAtTime, None)))
    (agent,) = [o for _, _, o in kg.triples((activity, PROV.wasAssociatedWith, None))]
    assert (agent, RDFS.label, Literal("reviewer")) in kg


def test_a_triple_another_relation_asserts_stays(kg: KnowledgeGraph) -> None:
    edge = _employer_edge("p_hong")
    text = next(c["text"] for c in _csv("kg", "kg_chunks.csv") if c["chunk_id"] == edge["chunk_id"])
    report = kg.ingest(
        {
            "entities": [  # resolved to the stored nodes by the ids after E_
                {"id": "E_p_hong", "label": "홍길동", "type": "individual", "ontology_class": "Person"},
                {"id": "E_" + edge["dst"], "label": "에이크미", "type": "individual", "ontology_class": "Company"},
            ],
            "relations": [
                {
                    "id": "R_again",
                    "source_id": "E_p_hong",
                    "predicate": "worksFor",
                    "target_id": "E_" + edge["dst"],
                    "evidence": {"chunk_text": text},
                }
            ],
        },
        domain="kg",
    )
    assert report.accepted, report.errors
    done = kg.retract([edge["edge_id"]], reason="duplicate of R_again")
    assert done.triples_removed == 0
    assert kg.ask("홍길동이 다니는 회사는?").answer == edge["dst"]


def test_a_node_is_retracted_with_its_relations(kg: KnowledgeGraph) -> None:
    touching = {e["edge_id"] for e in _csv("kg", "kg_edges.csv") if "c_beta" in (e["src"], e["dst"])}
    report = kg.retract(node_ids=["c_beta"], reason="not a real company")
    assert set(report.edges) == touching and report.nodes == ["c_beta"]
    assert kg.ask("베타는 어디에 있어?").decision == "refuse"
    assert not list(kg.triples((None, ONT.target, mint("kg", "node", "c_beta"))))


@pytest.mark.parametrize(
    ("edges", "nodes", "reason"),
    [
        (["r_nowhere"], [], "x"),
        ([], ["p_nobody"], "x"),
        (["r01"], [], "  "),
        ([], [], "x"),
        (["r01", "r_nowhere"], [], "one bad id refuses the whole retraction"),
    ],
)
def test_bad_retractions_change_nothing(kg: KnowledgeGraph, edges: list[str], nodes: list[str], reason: str) -> None:
    before = sorted(kg)
    with pytest.raises(InputError):
        kg.retract(edges, node_ids=nodes, reason=reason)
    assert sorted(kg) == before


TRANSFERS = [e for e in _csv("onchain", "onchain_edges.csv") if e["rel"] == "transfer"]
DEPOSITS = {n["node_id"] for n in _csv("onchain", "onchain_nodes.csv") if n["onto_class"] == "ExchangeDeposit"}
STARTS = sorted({e["from"] for e in TRANSFERS})


def _shortest(live: list[dict[str, str]], start: str) -> int | None:
    g = nx.DiGraph((e["from"], e["to"]) for e in live)
    if start not in g:
        return None
    dist = nx.single_source_shortest_path_length(g, start, cutoff=3)
    hits = [d for n, d in dist.items() if n in DEPOSITS and n != start and d > 0]
    return min(hits) if hits else None


@settings(max_examples=10, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(
    steps=st.lists(
        st.lists(st.sampled_from([e["edge_id"] for e in TRANSFERS]), min_size=1, max_size=4, unique=True),
        min_size=1,
        max_size=3,
    ),
    starts=st.lists(st.sampled_from(STARTS), min_size=1, max_size=4, unique=True),
)
def test_retractions_keep_path_answers_equal_to_a_walk_over_the_live_transfers(
    steps: list[list[str]], starts: list[str]
) -> None:
    gone: set[str] = set()
    with KnowledgeGraph.open() as kg:
        kg.load(example_dataset("onchain"))
        for ids in steps:
            if gone & set(ids):
                before = len(kg)
                with pytest.raises(InputError):
                    kg.retract(ids, reason="review")
                assert len(kg) == before
            else:
                kg.retract(ids, reason="review")
                gone |= set(ids)
            live = [e for e in TRANSFERS if e["edge_id"] not in gone]
            for start in starts:
                got = kg.ask(f"{start}에서 거래소 입금주소까지 3홉 안에 닿아?").model_dump(by_alias=True)
                want = _shortest(live, start)
                if want is None:
                    assert got["intent"] == "no_path", (start, got["answer_ko"])
                else:
                    assert got["intent"] == "path_exists" and len(got["path"]) == want, (start, got["answer_ko"])
                    assert not gone & {h["edge_id"] for h in got["path"]}  # never cites a retracted transfer
