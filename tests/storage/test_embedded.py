"""The embedded backends (Oxigraph in memory and on disk, rdflib) keep the Store contract."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from rdflib import Graph, Literal, URIRef
from rdflib.compare import isomorphic

from ont_platform.errors import InputError, QueryError, RDFSyntaxError, StoreError, StoreLockedError
from ont_platform.rdf_terms import iri, literal, triple
from ont_platform.storage import RdfFormat, Store, open_store
from ont_platform.storage.oxigraph import OxigraphStore

BIG = "123456789012345678901234567890"  # 30 digits: far above 2^63


@pytest.fixture(params=["oxigraph", "oxigraph-disk", "rdflib"])
def store(request: pytest.FixtureRequest, tmp_path: Path) -> Store:
    if request.param == "oxigraph-disk":
        s = open_store("oxigraph", path=tmp_path / "db")
    else:
        s = open_store(request.param)
    yield s
    s.close()


def _nt(*lines: tuple[str, str, str]) -> str:
    return "".join(triple(*t) for t in lines)


def test_add_select_ask_roundtrip(store: Store) -> None:
    store.add_ntriples(
        _nt(
            (iri("urn:a"), iri("urn:p"), iri("urn:b")),
            (iri("urn:a"), iri("urn:v"), literal(BIG, "integer")),
            (iri("urn:a"), iri("urn:l"), literal("서울", lang="ko")),
        )
    )
    assert len(store) == 3
    rows = store.select("SELECT ?p ?o WHERE { <urn:a> ?p ?o } ORDER BY ?p")
    got = {str(r["p"]): r["o"] for r in rows}
    assert got["urn:p"] == URIRef("urn:b")
    assert str(got["urn:v"]) == BIG  # lexical form kept exactly, no int64/float on the way
    assert got["urn:l"] == Literal("서울", lang="ko")
    assert store.ask("ASK { <urn:a> <urn:p> <urn:b> }") is True
    assert store.ask("ASK { <urn:b> <urn:p> <urn:a> }") is False


def test_unbound_variables_are_none(store: Store) -> None:
    store.add_ntriples(_nt((iri("urn:a"), iri("urn:p"), iri("urn:b"))))
    rows = store.select("SELECT ?s ?x WHERE { ?s <urn:p> ?o OPTIONAL { ?s <urn:q> ?x } }")
    assert rows == [{"s": URIRef("urn:a"), "x": None}]


def test_bad_batch_changes_nothing(store: Store) -> None:
    store.add_ntriples(_nt((iri("urn:a"), iri("urn:p"), iri("urn:b"))))
    before = store.dump()
    with pytest.raises(RDFSyntaxError):
        store.add_ntriples(_nt((iri("urn:c"), iri("urn:p"), iri("urn:d"))) + "this is not a triple\n")
    assert store.dump() == before


def test_query_errors_are_translated(store: Store) -> None:
    with pytest.raises(QueryError):
        store.select("SELECT WHERE {")
    with pytest.raises(QueryError):
        store.ask("SELECT * WHERE { ?s ?p ?o }")


@pytest.mark.parametrize("fmt", list(RdfFormat))
def test_dump_and_reload_unchanged(store: Store, fmt: RdfFormat) -> None:
    store.add_ntriples(
        _nt(
            (iri("urn:a"), iri("urn:p"), iri("urn:b")),
            (iri("urn:a"), iri("urn:v"), literal(BIG, "integer")),
            (iri("urn:a"), iri("urn:t"), literal('quote " backslash \\ newline \n tab \t', None)),
            (iri("urn:a"), iri("urn:l"), literal("서울", lang="ko")),
        )
    )
    data = store.dump(fmt)
    other = open_store("oxigraph")
    other.load_rdf(data, fmt)
    a, b = Graph(), Graph()
    a.parse(data=store.dump(RdfFormat.NTRIPLES), format="nt")
    b.parse(data=other.dump(RdfFormat.NTRIPLES), format="nt")
    assert isomorphic(a, b)
    assert any(str(o) == BIG for o in b.objects())


@pytest.mark.parametrize(
    "payload",
    [
        b'<?xml version="1.0"?><!DOCTYPE lolz [<!ENTITY lol "lol">]><rdf:RDF/>',
        b'<!ENTITY x SYSTEM "file:///etc/passwd">',
    ],
)
def test_dtd_refused_before_parsing(store: Store, payload: bytes) -> None:
    with pytest.raises(RDFSyntaxError, match="DOCTYPE or ENTITY"):
        store.load_rdf(payload, RdfFormat.TURTLE)
    assert len(store) == 0


def test_jsonld_remote_context_refused(store: Store) -> None:
    doc = b'{"@context": "https://example.org/ctx.jsonld", "@id": "urn:a", "p": "x"}'
    with pytest.raises(RDFSyntaxError, match="remote @context"):
        store.load_rdf(doc, RdfFormat.JSONLD)


def test_clear_and_close(store: Store) -> None:
    store.add_ntriples(_nt((iri("urn:a"), iri("urn:p"), iri("urn:b"))))
    store.clear()
    assert len(store) == 0
    store.close()
    store.close()  # idempotent


def test_unknown_backend_and_bad_args() -> None:
    with pytest.raises(InputError):
        open_store("nope")  # type: ignore[arg-type]
    with pytest.raises(InputError):
        open_store("rdflib", path="x")
    with pytest.raises(InputError):
        open_store("remote")
    with pytest.raises(InputError):
        RdfFormat.parse("hdt")


def test_on_disk_store_reopens_with_its_data(tmp_path: Path) -> None:
    path = tmp_path / "db"
    s = open_store("oxigraph", path=path)
    s.add_ntriples(_nt((iri("urn:a"), iri("urn:v"), literal(BIG))))
    s.close()
    s = open_store("oxigraph", path=path)
    assert [str(r["o"]) for r in s.select("SELECT ?o WHERE { ?s ?p ?o }")] == [BIG]
    s.close()


def test_second_writer_gets_a_clear_lock_error(tmp_path: Path) -> None:
    path = tmp_path / "db"
    s = open_store("oxigraph", path=path)
    code = (
        "import sys\n"
        "from ont_platform.storage import open_store\n"
        "from ont_platform.errors import StoreLockedError\n"
        f"try:\n    open_store('oxigraph', path={str(path)!r})\n"
        "except StoreLockedError as e:\n    print('LOCKED', e); sys.exit(0)\n"
        "sys.exit(1)\n"
    )
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, timeout=60)
    s.close()
    assert out.returncode == 0, out.stderr
    assert "LOCKED" in out.stdout and "locked" in out.stdout
    assert StoreLockedError.__mro__[1].__name__ == "StoreError"


_text = st.text(st.characters(blacklist_categories=("Cs",)), max_size=40)


@settings(max_examples=60, deadline=None)
@given(
    values=st.lists(st.one_of(_text, st.integers().map(str)), min_size=1, max_size=8),
    fmt=st.sampled_from(list(RdfFormat)),
)
def test_any_literal_survives_a_round_trip(values: list[str], fmt: RdfFormat) -> None:
    s = open_store("oxigraph")
    s.add_ntriples("".join(triple(iri(f"urn:s{i}"), iri("urn:p"), literal(v)) for i, v in enumerate(values)))
    t = open_store("oxigraph")
    t.load_rdf(s.dump(fmt), fmt)
    assert sorted(s.dump().splitlines()) == sorted(t.dump().splitlines())


# --- streamed writes ----------------------------------------------------------------------------------------------


def _chunks(n_chunks: int, per_chunk: int) -> list[bytes]:
    return [
        "".join(triple(iri(f"urn:s{c}-{i}"), iri("urn:p"), literal(f'v{i} "ü" 🦀')) for i in range(per_chunk)).encode(
            "utf-8"
        )
        for c in range(n_chunks)
    ]


class _LateProblem(Exception):
    """Raised by a chunk iterator after it has handed over several chunks."""


def test_stream_adds_every_chunk(store: Store) -> None:
    store.add_ntriples_stream(iter(_chunks(4, 2_000)))
    assert len(store) == 8_000


def test_a_syntax_error_in_a_late_chunk_changes_nothing(store: Store, tmp_path: Path) -> None:
    store.add_ntriples(_nt((iri("urn:a"), iri("urn:p"), iri("urn:b"))))
    before = store.dump()
    with pytest.raises(RDFSyntaxError):
        store.add_ntriples_stream(iter([*_chunks(6, 5_000), b"<urn:x> <urn:p> this is not a term .\n"]))
    assert store.dump() == before
    if store.backend == "oxigraph" and getattr(store, "path", None) is not None:
        store.close()
        again = open_store("oxigraph", path=tmp_path / "db")
        assert again.dump() == before
        again.close()


def test_an_error_raised_by_the_chunks_changes_nothing_and_comes_out_as_it_was(store: Store) -> None:
    store.add_ntriples(_nt((iri("urn:a"), iri("urn:p"), iri("urn:b"))))
    before = store.dump()
    taken = []

    def chunks():
        for chunk in _chunks(6, 5_000):
            taken.append(chunk)
            yield chunk
        raise _LateProblem("found a bad row at the end")

    with pytest.raises(_LateProblem, match="bad row at the end"):
        store.add_ntriples_stream(chunks())
    assert len(taken) == 6
    assert store.dump() == before


def test_chunks_that_are_not_bytes_are_refused(store: Store) -> None:
    with pytest.raises(InputError, match="must be bytes"):
        store.add_ntriples_stream(iter([b"<urn:a> <urn:p> <urn:b> .\n", "<urn:c> <urn:p> <urn:d> .\n"]))  # type: ignore[list-item]
    assert len(store) == 0
    with pytest.raises(RDFSyntaxError):
        store.add_ntriples_stream(iter([b'<urn:a> <urn:p> "\xff" .\n']))
    assert len(store) == 0


@settings(max_examples=60, deadline=None)
@given(values=st.lists(_text, min_size=1, max_size=12), cuts=st.lists(st.integers(0, 2_000), max_size=6))
def test_a_stream_cut_anywhere_stores_what_the_document_stores(values: list[str], cuts: list[int]) -> None:
    """Chunks may split a line or even a UTF-8 character: only their concatenation matters."""
    data = "".join(triple(iri(f"urn:s{i}"), iri("urn:p"), literal(v)) for i, v in enumerate(values)).encode("utf-8")
    points = sorted({min(c, len(data)) for c in cuts})
    pieces = [data[a:b] for a, b in zip([0, *points], [*points, len(data)], strict=True)]
    whole, streamed = open_store("oxigraph"), open_store("oxigraph")
    whole.add_ntriples(data.decode("utf-8"))
    streamed.add_ntriples_stream(iter(pieces))
    assert whole.dump() == streamed.dump()
    assert [str(r["o"]) for r in streamed.select("SELECT ?o WHERE { ?s ?p ?o } ORDER BY ?s")] == [
        values[i] for i in sorted(range(len(values)), key=lambda i: f"urn:s{i}")
    ]


class _FailingEngine:
    """Stands in for the pyoxigraph store: every call fails the way a full disk does."""

    def __getattr__(self, name: str) -> Any:
        def fail(*args: Any, **kwargs: Any) -> None:
            raise OSError(28, "No space left on device")

        return fail


@pytest.mark.parametrize("call", ["clear", "dump", "dump_jsonld", "optimize"])
def test_engine_io_errors_are_store_errors(tmp_path: Path, call: str) -> None:
    store = OxigraphStore(tmp_path / "db")
    engine = store._store
    store._store = _FailingEngine()  # type: ignore[assignment]
    try:
        action = {
            "clear": store.clear,
            "dump": store.dump,
            "optimize": store.optimize,
            "dump_jsonld": lambda: store.dump(RdfFormat.JSONLD),
        }[call]
        with pytest.raises(StoreError, match="No space left on device"):
            action()
    finally:
        store._store = engine
        store.close()
