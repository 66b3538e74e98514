"""import_rdf is checked like a load: classes, disjointness and shapes, all or nothing; check=False opts out."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path

import pytest
from rdflib import OWL, RDF, Graph, URIRef

from ont_platform import KnowledgeGraph
from ont_platform.domains import get_domain
from ont_platform.errors import DatasetError
from ont_platform.namespaces import KG, mint
from ont_platform.resources import example_dataset

NODE = mint("kg", "node", "p_hong")


def _write(tmp_path: Path, triples: list[tuple[URIRef, URIRef, URIRef]]) -> Path:
    g = Graph()
    for t in triples:
        g.add(t)
    path = tmp_path / "data.nt"
    g.serialize(path, format="nt", encoding="utf-8")
    return path


@pytest.fixture
def kg() -> Iterator[KnowledgeGraph]:
    with KnowledgeGraph.open() as graph:
        graph.load(example_dataset("kg"))
        yield graph


def test_a_node_given_a_second_class_is_refused_and_nothing_changes(kg: KnowledgeGraph, tmp_path: Path) -> None:
    before = sorted(kg)
    with pytest.raises(DatasetError, match="p_hong"):
        kg.import_rdf(_write(tmp_path, [(NODE, RDF.type, KG.Company)]))
    assert sorted(kg) == before


def test_a_class_the_ontology_lacks_is_refused(kg: KnowledgeGraph, tmp_path: Path) -> None:
    with pytest.raises(DatasetError, match="not a class of the kg ontology"):
        kg.import_rdf(_write(tmp_path, [(mint("kg", "node", "x"), RDF.type, KG.Persn)]))


def test_disjoint_classes_are_refused(kg: KnowledgeGraph, tmp_path: Path) -> None:
    assert (KG.City, OWL.disjointWith, KG.Country) in get_domain("kg").ontology.graph
    city = next(s for s, _, _ in kg.triples((None, RDF.type, KG.City)))
    with pytest.raises(DatasetError, match="disjoint"):
        kg.import_rdf(_write(tmp_path, [(URIRef(str(city)), RDF.type, KG.Country)]))


def test_the_export_of_a_valid_graph_imports_cleanly_and_check_false_opts_out(
    kg: KnowledgeGraph, tmp_path: Path
) -> None:
    out = tmp_path / "all.nt"
    kg.serialize(out, format="nt")
    with KnowledgeGraph.open() as fresh:
        assert fresh.import_rdf(out) == len(kg)
        assert fresh.ask("홍길동이 다니는 회사는?").decision == "answer"
    added = kg.import_rdf(_write(tmp_path, [(NODE, RDF.type, KG.Company)]), check=False)
    assert added == 1
