"""The stored neighbourhood an ingest reads (validation/facts.py): split over threads on disk, it is the same
set of triples as read in one thread from an in-memory copy of the same data."""

from __future__ import annotations

from pathlib import Path

from hypothesis import given, settings
from hypothesis import strategies as st
from rdflib import Literal, URIRef

from ont_platform.namespaces import ONT
from ont_platform.storage.oxigraph import OxigraphStore
from ont_platform.validation.facts import _VALUES_BATCH, Facts, _batches, neighbourhood


@given(st.sets(st.integers(0, 2_000), max_size=900), st.integers(1, 8))
def test_batches_cover_every_item_once_in_enough_small_batches(items: set[int], parts: int) -> None:
    iris = [URIRef(f"urn:x:{i:05d}") for i in items]
    batches = list(_batches(iris, parts))
    assert [i for b in batches for i in b] == sorted(set(iris))
    assert all(0 < len(b) <= _VALUES_BATCH for b in batches)
    assert len(batches) >= min(parts, len(iris))


@settings(max_examples=10, deadline=None)
@given(st.sets(st.integers(0, 300), min_size=1, max_size=120), st.sets(st.integers(0, 300), max_size=60))
def test_the_neighbourhood_read_in_threads_is_the_one_read_in_one(stored: set[int], asked: set[int]) -> None:
    import tempfile

    text = "".join(
        f'<urn:x:n{i}> <{ONT.id}> "n{i}" .\n<urn:x:n{i}> <{ONT.source}> <urn:x:n{(i * 7) % 301}> .\n' for i in stored
    )
    memory = OxigraphStore()
    memory.add_ntriples(text)
    with tempfile.TemporaryDirectory() as folder:
        disk = OxigraphStore(Path(folder) / "db")
        disk.add_ntriples(text)
        assert disk.read_parallelism > 1 and memory.read_parallelism == 1
        facts = Facts(domain="kg")
        for i in asked | set(list(stored)[:5]):
            node = URIRef(f"urn:x:n{i}")
            facts.paths[node] = f"entities[{i}]"
            facts.add(node, URIRef(str(ONT.id)), Literal(f"n{i}"))
        assert set(neighbourhood(disk, facts)) == set(neighbourhood(memory, facts))
        disk.close()
