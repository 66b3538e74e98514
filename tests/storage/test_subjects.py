"""The keys of an on-disk store's subjects (storage/subjects.py): an IRI said to be absent is never the subject of
a stored triple, whatever sequence of writes, closes and outside writes came before; and the keys are there to
be used after a bulk load and the N-Triples writes that follow it."""

from __future__ import annotations

import shutil
import tempfile
from pathlib import Path

import numpy as np
import pyoxigraph as ox
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from ont_platform.storage import subjects
from ont_platform.storage.base import RdfFormat
from ont_platform.storage.oxigraph import INDEX_FOLDER, OxigraphStore
from ont_platform.validation.facts import Facts, neighbourhood

POOL = [f"urn:x:s{i}" for i in range(12)] + ["urn:x:é", "http://example.org/a_b"]


def _line(iri: str, n: int, *, escaped: bool = False, lead: str = "", end: str = "\n") -> str:
    text = "".join(f"\\u{ord(c):04X}" if escaped and not c.isascii() else c for c in iri)
    return f'{lead}<{text}> <urn:x:p> "{n}" .{end}'


def _stored(store: OxigraphStore, iri: str) -> bool:
    return store.ask(f"ASK {{ <{iri}> ?p ?o }}")


def _check(store: OxigraphStore) -> set[str]:
    absent = store.absent_subjects(POOL)
    for iri in absent:
        assert not _stored(store, iri), f"{iri} said absent but stored"
    return absent


lines = st.builds(
    _line,
    st.sampled_from(POOL),
    st.integers(0, 5),
    escaped=st.booleans(),
    lead=st.sampled_from(["", " ", "\t "]),
    end=st.sampled_from(["\n", "\r\n", "\r"]),
)
writes = st.one_of(
    st.tuples(st.just("stream"), st.lists(lines, max_size=6), st.integers(1, 40)),
    st.tuples(st.just("add"), st.lists(lines, min_size=1, max_size=4), st.just(0)),
    st.tuples(st.just("update"), st.sampled_from(POOL), st.just(0)),
    st.tuples(st.just("turtle"), st.sampled_from(POOL), st.just(0)),
    st.tuples(st.just("clear"), st.just(""), st.just(0)),
    st.tuples(st.just("reopen"), st.just(""), st.just(0)),
    st.tuples(st.just("outside"), st.sampled_from(POOL), st.just(0)),
)


@settings(max_examples=40, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(st.lists(writes, min_size=1, max_size=8))
def test_an_iri_said_absent_is_never_a_stored_subject(steps: list[tuple[str, object, int]]) -> None:
    folder = Path(tempfile.mkdtemp(prefix="ont-subjects-"))
    try:
        store = OxigraphStore(folder / "db")
        for kind, arg, size in steps:
            if kind == "stream":  # a bulk load when the store is empty; the text cut anywhere, lines too
                data = "".join(arg).encode()  # type: ignore[arg-type]
                store.add_ntriples_stream([data[i : i + size] for i in range(0, len(data), size)])
            elif kind == "add":
                store.add_ntriples("".join(arg))  # type: ignore[arg-type]
            elif kind == "update":
                store.update(f"INSERT DATA {{ <{arg}> <urn:x:p> 9 }}")
            elif kind == "turtle":
                store.load_rdf(f"<{arg}> <urn:x:p> 8 .".encode(), RdfFormat.TURTLE)
            elif kind == "clear":
                store.clear()
            elif kind == "reopen":
                store.close()
                store = OxigraphStore(folder / "db")
            else:  # another program writes into the folder: nothing kept from before may be used
                store.close()
                engine = ox.Store(str(folder / "db"))
                engine.update(f"INSERT DATA {{ <{arg}> <urn:x:p> 7 }}")
                del engine
                store = OxigraphStore(folder / "db")
            _check(store)
        store.close()
    finally:
        shutil.rmtree(folder, ignore_errors=True)


def test_the_keys_are_made_by_a_bulk_load_followed_and_kept_across_a_close(tmp_path: Path) -> None:
    store = OxigraphStore(tmp_path / "db")
    store.add_ntriples_stream([_line("urn:x:s1", 1).encode(), _line("urn:x:é", 2, escaped=True).encode()])
    assert _check(store) == set(POOL) - {"urn:x:s1", "urn:x:é"}
    kept = list((tmp_path / "db" / INDEX_FOLDER / subjects.FOLDER).iterdir())
    assert [p.name for p in kept] == [f"keys-{store.stamp}.npy"]
    store.add_ntriples(_line("urn:x:s2", 3))
    assert "urn:x:s2" not in _check(store) and "urn:x:s3" in _check(store)
    store.close()
    again = OxigraphStore(tmp_path / "db")
    assert _check(again) == set(POOL) - {"urn:x:s1", "urn:x:é", "urn:x:s2"}
    again.update("INSERT DATA { <urn:x:s3> <urn:x:p> 1 }")  # not followed: nothing is said absent any more
    assert again.absent_subjects(POOL) == set()
    again.close()
    assert OxigraphStore(tmp_path / "db").absent_subjects(POOL) == set()


def test_a_key_file_of_another_token_or_shape_is_not_used(tmp_path: Path) -> None:
    store = OxigraphStore(tmp_path / "db")
    store.add_ntriples_stream([_line("urn:x:s1", 1).encode()])
    store.close()
    folder = tmp_path / "db" / INDEX_FOLDER / subjects.FOLDER
    (kept,) = folder.iterdir()
    np.save(kept, np.zeros((2, 2), dtype=np.uint64))  # same token, not a flat key array
    assert OxigraphStore(tmp_path / "db").absent_subjects(POOL) == set()


@given(st.lists(lines, max_size=12), st.lists(st.integers(1, 60), min_size=1, max_size=6))
def test_keys_of_a_text_cut_anywhere_are_the_keys_of_the_whole(parts: list[str], cuts: list[int]) -> None:
    data = "".join(parts).encode()
    chunks, at = [], 0
    for n in cuts * (len(data) // max(1, sum(cuts)) + 1):
        chunks.append(data[at : at + n])
        at += n
        if at >= len(data):
            break
    collector = subjects.KeyCollector()
    assert b"".join(collector.watch(chunks)) == data[: sum(len(c) for c in chunks)]
    whole = np.unique(subjects.ntriples_keys(data))
    assert np.array_equal(collector.finish().merged(), whole)
    stored = ox.Store()
    stored.load(data, format=ox.RdfFormat.N_TRIPLES)
    expected = {subjects.key_of(q.subject.value) for q in stored if isinstance(q.subject, ox.NamedNode)}
    assert set(whole.tolist()) == expected


def test_the_neighbourhood_is_the_same_with_and_without_the_keys(tmp_path: Path) -> None:
    from rdflib import Literal, URIRef

    text = "".join(_line(f"urn:x:s{i}", i) for i in range(6)) + "<urn:x:s1> <urn:x:link> <urn:x:s2> .\n"
    disk = OxigraphStore(tmp_path / "db")
    disk.add_ntriples_stream([text.encode()])
    memory = OxigraphStore()
    memory.add_ntriples(text)
    facts = Facts(domain="kg")
    for i in (1, 3, 7, 8):
        node = URIRef(f"urn:x:s{i}")
        facts.paths[node] = f"entities[{i}]"
        facts.add(node, URIRef("urn:x:p"), Literal(str(i)))
    assert disk.absent_subjects(str(n) for n in facts.focus) == {"urn:x:s7", "urn:x:s8"}
    assert memory.absent_subjects(str(n) for n in facts.focus) == set()
    assert set(neighbourhood(disk, facts)) == set(neighbourhood(memory, facts))
    disk.close()
