"""Entity resolution on ingest: extracted entities that name stored nodes become those nodes.

Expected nodes come from the bundled kg tables, never written down here.
"""

from __future__ import annotations

import csv
from collections.abc import Iterator

import pytest
from rdflib import RDFS, SKOS

from ont_platform import KnowledgeGraph
from ont_platform.namespaces import mint
from ont_platform.resources import example_dataset


def _node(label: str) -> dict[str, str]:
    with (example_dataset("kg") / "kg_nodes.csv").open(encoding="utf-8") as fh:
        (row,) = [r for r in csv.DictReader(fh) if r["label"] == label]
    return row


@pytest.fixture
def kg() -> Iterator[KnowledgeGraph]:
    with KnowledgeGraph.open() as graph:
        graph.load(example_dataset("kg"))
        yield graph


def _entity(eid: str, label: str, cls: str) -> dict[str, str]:
    return {"id": eid, "label": label, "type": "individual", "ontology_class": cls}


def _named(kg: KnowledgeGraph, label: str) -> set[str]:
    return {str(s) for s, _, o in kg.triples((None, RDFS.label, None)) if str(o) == label}


def test_the_extraction_of_a_known_text_adds_no_second_person(kg: KnowledgeGraph) -> None:
    """The service's extraction ids (E_ + the node id) and a new relation: one 홍길동, the relation walked, its
    chunk the evidence."""
    hong, beta = _node("홍길동"), _node("베타")
    text = "홍길동은 베타에 자문으로 일한다."
    report = kg.ingest(
        {
            "entities": [_entity("E_" + hong["node_id"], "홍길동", "Person"), _entity("E_9", "베타", "Company")],
            "relations": [
                {
                    "id": "R_1",
                    "source_id": "E_" + hong["node_id"],
                    "predicate": "worksFor",
                    "target_id": "E_9",
                    "evidence": {"chunk_text": text},
                }
            ],
        },
        domain="kg",
    )
    assert report.accepted, report.errors
    assert report.linked == {"E_" + hong["node_id"]: hong["node_id"], "E_9": beta["node_id"]}
    assert report.created == []
    assert len(_named(kg, "홍길동")) == 1
    answer = kg.ask("홍길동이 다니는 회사는?")
    assert answer.decision == "answer" and beta["node_id"] in answer.answer.split(", "), answer.reason


def test_a_name_written_differently_links_and_is_learned_as_an_alias(kg: KnowledgeGraph) -> None:
    hong = _node("홍길동")
    report = kg.ingest({"entities": [_entity("E_1", "홍 길동", "Person")]}, domain="kg")
    assert report.accepted and report.linked == {"E_1": hong["node_id"]} and report.aliases_added == 1
    aliases = {str(o) for _, _, o in kg.triples((mint("kg", "node", hong["node_id"]), SKOS.altLabel, None))}
    assert "홍 길동" in aliases
    assert not list(kg.triples((mint("kg", "node", "E_1"), None, None)))  # no second node


def test_a_name_of_several_nodes_is_an_error_listing_them(kg: KnowledgeGraph) -> None:
    first = kg.ingest(
        {"entities": [_entity("E_a", "김민수", "Person"), _entity("E_b", "김 민수", "Person")]}, domain="kg"
    )
    assert first.accepted and sorted(first.created) == ["E_a", "E_b"]
    size = len(kg)
    again = kg.ingest({"entities": [_entity("E_c", "김민수", "Person")]}, domain="kg")
    assert not again.accepted and len(kg) == size
    (err,) = [e for e in again.errors if e.code == "ambiguous_entity"]
    assert "E_a" in err.message and "E_b" in err.message


def test_a_name_of_a_node_of_another_class_is_an_error(kg: KnowledgeGraph) -> None:
    acme = _node("에이크미")
    size = len(kg)
    report = kg.ingest({"entities": [_entity("E_1", "에이크미", "Person")]}, domain="kg")
    assert not report.accepted and len(kg) == size
    (err,) = [e for e in report.errors if e.code == "class_mismatch"]
    assert acme["node_id"] in err.message


def test_a_new_name_is_a_new_node(kg: KnowledgeGraph) -> None:
    report = kg.ingest({"entities": [_entity("E_1", "감마 로보틱스", "Company")]}, domain="kg")
    assert report.accepted and report.created == ["E_1"] and report.linked == {}
    assert list(kg.triples((mint("kg", "node", "E_1"), RDFS.label, None)))
