"""Derived graphs (reasoning's entailments) kept beside the stated graph of the embedded store: never counted,
dumped or read as stated, current only for the data they were computed from."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path

import pytest
from rdflib import BNode, Literal, URIRef

from ont_platform.errors import InputError, StoreError
from ont_platform.storage import RdfFormat, open_store
from ont_platform.storage.oxigraph import OxigraphStore

G = "https://w3id.org/ont-platform/id/t/entailed"
V = "rules/1"
STATED = '<urn:a> <urn:p> <urn:b> .\n_:x <urn:p> "v"@en .\n'


def _blank(store: OxigraphStore) -> str:
    rows = store.select_nt('SELECT ?s WHERE { ?s <urn:p> "v"@en }')
    assert rows[0][0] is not None
    return rows[0][0]


def test_a_derived_graph_is_read_only_with_it_asked_for() -> None:
    store = OxigraphStore()
    store.add_ntriples(STATED)
    blank = _blank(store)
    assert store.replace_derived(G, V, [("<urn:b>", "<urn:q>", "<urn:a>"), (blank, "<urn:q>", '"w"')]) == 2
    assert len(store) == 2  # the stated graph only
    assert b"urn:q" not in store.dump(RdfFormat.NTRIPLES)
    assert not store.select("SELECT ?s WHERE { ?s <urn:q> ?o }")
    both = store.select_derived("SELECT ?s ?o WHERE { ?s <urn:q> ?o }", [G], timeout=5)
    assert {(r["s"], r["o"]) for r in both} == {(URIRef("urn:b"), URIRef("urn:a")), (BNode(blank[2:]), Literal("w"))}
    assert store.ask_derived("ASK { ?x <urn:q> <urn:a> . ?x <urn:p> ?z }", [G]) is False
    assert store.ask_derived('ASK { ?x <urn:q> "w" ; <urn:p> "v"@en }', [G], timeout=5) is True  # the same blank node
    assert store.in_derived([G], [(URIRef("urn:b"), URIRef("urn:q"), URIRef("urn:a"))]) == [True]
    assert store.in_derived([G], [(URIRef("urn:a"), URIRef("urn:p"), URIRef("urn:b"))]) == [False]  # stated
    found, more = store.triples((URIRef("urn:b"), None, None), derived=[G])
    assert found == [(URIRef("urn:b"), URIRef("urn:q"), URIRef("urn:a"))] and not more


def test_current_until_the_stated_graph_changes() -> None:
    store = OxigraphStore()
    store.add_ntriples(STATED)
    assert not store.derived_current(G, V)
    store.replace_derived(G, V, [("<urn:b>", "<urn:q>", "<urn:a>")])
    assert store.derived_current(G, V)
    assert not store.derived_current(G, "rules/2")
    generation = store.generation
    store.replace_derived(G, V, [("<urn:b>", "<urn:q>", "<urn:a>")])
    assert store.generation == generation  # a derived graph is no write of the data
    store.add_ntriples("<urn:c> <urn:p> <urn:d> .\n")
    assert not store.derived_current(G, V)


def test_a_timed_query_sees_a_derived_graph_written_after_its_worker_started() -> None:
    store = OxigraphStore()
    store.add_ntriples(STATED)
    assert not store.select_derived("SELECT ?s WHERE { ?s <urn:q> ?o }", [G], timeout=5)  # forks a worker
    store.replace_derived(G, V, [("<urn:b>", "<urn:q>", "<urn:a>")])
    assert len(store.select_derived("SELECT ?s WHERE { ?s <urn:q> ?o }", [G], timeout=5)) == 1


def test_clear_drops_derived_graphs() -> None:
    store = OxigraphStore()
    store.add_ntriples(STATED)
    store.replace_derived(G, V, [("<urn:b>", "<urn:q>", "<urn:a>")])
    store.clear()
    assert len(store) == 0 and not store.derived_current(G, V)
    assert not store.select_derived("SELECT * WHERE { ?s ?p ?o }", [G])


def test_a_failed_write_leaves_the_graph_not_current() -> None:
    store = OxigraphStore()
    store.add_ntriples(STATED)
    store.replace_derived(G, V, [("<urn:b>", "<urn:q>", "<urn:a>")])

    def broken() -> Iterator[tuple[str, str, str]]:
        yield ("<urn:b>", "<urn:q>", "<urn:a>")
        raise RuntimeError("the closure failed")

    with pytest.raises(RuntimeError):
        store.replace_derived(G, V, broken())
    assert not store.derived_current(G, V)
    with pytest.raises(StoreError):
        store.replace_derived(G, V, [("<urn:b>", "<urn:q>", "not a term")])
    assert not store.derived_current(G, V)


def test_graph_names_are_checked() -> None:
    store = OxigraphStore()
    with pytest.raises(InputError):
        store.select_derived("SELECT * WHERE { ?s ?p ?o }", ["> } DROP ALL"])


def test_on_disk_current_across_opens_until_written(tmp_path: Path) -> None:
    path = tmp_path / "db"
    store = OxigraphStore(path)
    store.add_ntriples(STATED)
    store.replace_derived(G, V, [("<urn:b>", "<urn:q>", "<urn:a>")])
    store.close()
    again = OxigraphStore(path)
    assert again.derived_current(G, V) and len(again) == 2
    reader = OxigraphStore(path, read_only=True)
    assert reader.derived_current(G, V)
    assert len(reader.select_derived("SELECT ?s WHERE { ?s <urn:q> ?o }", [G])) == 1
    reader.close()
    again.add_ntriples("<urn:c> <urn:p> <urn:d> .\n")
    assert not again.derived_current(G, V)
    again.close()
    assert not OxigraphStore(path).derived_current(G, V)


def test_other_backends_keep_no_derived_graphs() -> None:
    store = open_store("rdflib")
    assert not store.derived_current(G, V)
    with pytest.raises(StoreError, match="derived graphs"):
        store.replace_derived(G, V, [])
    with pytest.raises(StoreError, match="derived graphs"):
        store.select_derived("SELECT * WHERE { ?s ?p ?o }", [G])
