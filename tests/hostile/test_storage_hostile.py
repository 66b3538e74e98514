"""Hostile conditions for the storage layer, found by an attack run: an owner killed in the middle of a query, a
killed bulk load, a store reopened after a kill, and RDF input the parsers mishandle (a DTD-looking literal, a
JSON-LD ``@id`` rdflib drops without a word, a literal whose length made rdflib's N-Triples parser quadratic).

Processes are killed for real (SIGKILL, SIGSTOP) in child processes started here; every wait is a poll with a
generous bound, never a tight timing, and every process a test starts is killed in ``finally``.
"""

from __future__ import annotations

import contextlib
import json
import logging
import os
import signal
import subprocess
import sys
import threading
import time
from collections.abc import Iterator
from pathlib import Path

import pytest
from rdflib import Literal, URIRef

from ont_platform import InputError, KnowledgeGraph, RDFSyntaxError
from ont_platform.errors import StoreLockedError
from ont_platform.storage import Store
from ont_platform.storage.base import RdfFormat
from ont_platform.storage.oxigraph import OxigraphStore
from ont_platform.storage.rdflib_store import RdflibStore
from tests.hostile.meters import Parses, Steps

ROOT = Path(__file__).resolve().parents[2]
LINUX = sys.platform.startswith("linux")
needs_proc = pytest.mark.skipif(not LINUX, reason="reads process state from /proc")

CROSS = "SELECT (COUNT(*) AS ?n) WHERE { ?a ?b ?c . ?d ?e ?f . ?g ?h ?i }"
"""A cross product: 10^9 solutions over the 1,000-triple graph below, minutes of work for Oxigraph."""

OWNER = """
import sys
from ont_platform.storage.oxigraph import OxigraphStore
s = OxigraphStore()
s.add_ntriples("".join(f"<urn:n{i}> <urn:p> <urn:n{(i * 7) % 1000}> .\\n" for i in range(1000)))
print("ready", flush=True)
s.select(sys.argv[1], timeout=float(sys.argv[2]))
print("finished", flush=True)
"""
"""A process that owns a store and runs one long query in its query worker."""

HOLDER = """
import sys
from ont_platform.storage.oxigraph import OxigraphStore
s = OxigraphStore(sys.argv[1])
s.add_ntriples('<urn:a> <urn:p> "held" .\\n')
print("ready", flush=True)
sys.stdin.read()
"""
"""A process that opens an on-disk store, writes to it, and keeps it open until its stdin closes."""

BULK = """
import itertools, sys
from ont_platform.storage.oxigraph import OxigraphStore
s = OxigraphStore(sys.argv[1])
print("ready", flush=True)
s.add_ntriples_stream(f'<urn:n{i}> <urn:p> "a literal of some length, number {i}" .\\n'.encode()
                      for i in itertools.count())
"""
"""A bulk load into an empty on-disk store that never ends on its own."""


def _env() -> dict[str, str]:
    env = dict(os.environ)
    env["PYTHONPATH"] = os.pathsep.join(p for p in (str(ROOT), env.get("PYTHONPATH", "")) if p)
    return env


def _python(script: str, *args: str, stdin: int | None = None) -> subprocess.Popen[str]:
    return subprocess.Popen(
        [sys.executable, "-c", script, *args], stdout=subprocess.PIPE, stdin=stdin, text=True, env=_env(), cwd=ROOT
    )


def _state(pid: int) -> str | None:
    """The process state letter from /proc (``Z`` for a zombie), or ``None`` when there is no such process."""
    try:
        return Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()[0]
    except (OSError, IndexError):
        return None


def _exit_signal(pid: int) -> int | None:
    """The signal that ended a zombie (its exit code as ``waitpid`` would give it, from /proc), or None: the
    process still runs, is gone, or exited by itself."""
    try:
        fields = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()
    except (OSError, IndexError):
        return None
    if fields[0] != "Z" or len(fields) < 50:
        return None
    status = int(fields[49])  # field 52 of stat, exit_code (Linux 3.5 and later)
    return status & 0x7F or None


def _dead(pid: int) -> bool:
    """Gone, or a zombie (it has stopped running; reaping it is its parent's business)."""
    return _state(pid) in (None, "Z", "X")


def _wait(condition: object, within: float) -> bool:
    deadline = time.monotonic() + within
    while not condition():  # type: ignore[operator]
        if time.monotonic() > deadline:
            return False
        time.sleep(0.05)
    return True


def _children(pid: int) -> set[int]:
    found: set[int] = set()
    with contextlib.suppress(OSError):
        for task in os.listdir(f"/proc/{pid}/task"):
            with contextlib.suppress(OSError):
                found |= {int(c) for c in Path(f"/proc/{pid}/task/{task}/children").read_text().split()}
    return found


def _cpu_seconds(pid: int) -> float:
    try:
        fields = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()
    except (OSError, IndexError):
        return 0.0
    return (int(fields[11]) + int(fields[12])) / os.sysconf("SC_CLK_TCK")


def _busy_worker(owner: subprocess.Popen[str], cpu: float) -> int:
    """The owner's query worker, once it has spent ``cpu`` seconds on the query (so it is mid-query)."""
    assert owner.stdout is not None
    assert owner.stdout.readline().strip() == "ready"
    busy: list[int] = []

    def found() -> bool:
        busy[:] = [c for c in _children(owner.pid) if _cpu_seconds(c) >= cpu]
        return bool(busy)

    assert _wait(found, 60), f"no child of the owner got busy; children: {_children(owner.pid)}"
    return busy[0]


@contextlib.contextmanager
def _reaped(*procs: subprocess.Popen[str]) -> Iterator[list[int]]:
    """Kill the given processes, and every pid the test adds to the yielded list, however the test ends."""
    extra: list[int] = []
    try:
        yield extra
    finally:
        for p in procs:
            with contextlib.suppress(ProcessLookupError):
                p.kill()
            with contextlib.suppress(subprocess.TimeoutExpired):
                p.wait(10)
            if p.stdout is not None:
                p.stdout.close()
            if p.stdin is not None:
                p.stdin.close()
        for pid in extra:
            if not _dead(pid):
                with contextlib.suppress(ProcessLookupError):
                    os.kill(pid, signal.SIGKILL)


# -- 1. the query worker never outlives its owner nor its deadline ------------------------------------------------


@pytest.mark.slow
@needs_proc
def test_a_worker_dies_with_an_owner_killed_in_the_middle_of_a_query() -> None:
    """The attack: the owner was SIGKILLed while its worker computed; the worker ran on at 100 % CPU for 30 s
    and more, past the 10 s query limit. It must go at once (PR_SET_PDEATHSIG; a watchdog as fallback)."""
    owner = _python(OWNER, CROSS, "600")
    with _reaped(owner) as leftovers:
        worker = _busy_worker(owner, cpu=1.0)
        leftovers.append(worker)
        owner.kill()
        owner.wait(10)
        # at once, by PR_SET_PDEATHSIG (or the watchdog within WATCHDOG_S); the bound only tells that apart from
        # the query's own 600 s deadline, and is not a measure of how fast
        assert _wait(lambda: _dead(worker), 120), "the query worker outlived its killed owner"


@pytest.mark.slow
@needs_proc
def test_a_worker_ends_itself_at_its_deadline_when_the_owner_cannot_kill_it() -> None:
    """A stopped (or hopelessly busy) owner cannot kill its worker at the deadline; the worker's own timer
    does, shortly after: the query never runs unbounded."""
    owner = _python(OWNER, CROSS, "5")
    with _reaped(owner) as leftovers:
        worker = _busy_worker(owner, cpu=0.2)
        leftovers.append(worker)
        os.kill(owner.pid, signal.SIGSTOP)
        # The stopped owner cannot reap it, so the worker stays a zombie that says what ended it: SIGALRM is the
        # timer it armed for the query's 5 s (plus a grace second), the library's own deadline. The bound on the
        # wait only keeps a broken timer from hanging the test (the cross product runs for minutes).
        assert _wait(lambda: _dead(worker), 300), "the worker ran on past its deadline"
        assert _exit_signal(worker) == signal.SIGALRM, f"the worker ended by signal {_exit_signal(worker)}"


@needs_proc
def test_a_worker_outlives_the_thread_that_started_it() -> None:
    """PR_SET_PDEATHSIG fires when the *thread* that forked goes: a worker started by a query from a short-lived
    thread (a server's request thread) must not die with that thread."""
    store = OxigraphStore()
    store.add_ntriples("<urn:a> <urn:p> <urn:b> .\n")
    try:
        before = _children(os.getpid())
        answers: list[bool] = []
        caller = threading.Thread(target=lambda: answers.append(store.ask("ASK { ?s ?p ?o }", timeout=30)))
        caller.start()
        caller.join(60)
        assert answers == [True]
        new = _children(os.getpid()) - before
        assert len(new) == 1
        (worker,) = new
        # once the caller's thread is gone from the kernel, a worker tied to it has been sent its SIGKILL; the
        # next query would then find it dead (a StoreError) or be answered by another worker
        assert _wait(lambda: not Path(f"/proc/self/task/{caller.native_id}").exists(), 120), "the thread lingers"
        assert not _dead(worker)
        assert store.ask("ASK { <urn:a> <urn:p> <urn:b> }", timeout=30) is True
        assert worker in _children(os.getpid())  # the same worker answered
    finally:
        store.close()


def test_a_huge_time_limit_is_no_limit() -> None:
    """A limit of years once overflowed the waits (``OverflowError`` from a lock, ``poll`` or the timer)."""
    store = OxigraphStore()
    try:
        store.add_ntriples("<urn:a> <urn:p> <urn:b> .\n")
        assert store.ask("ASK { <urn:a> <urn:p> <urn:b> }", timeout=1e300) is True
        assert len(store.select("SELECT * WHERE { ?s ?p ?o }", timeout=1e12)) == 1
    finally:
        store.close()


# -- 2. files a killed bulk load leaves -----------------------------------------------------------------------------


def _store_with_one_triple(path: Path) -> None:
    s = OxigraphStore(path)
    s.add_ntriples('<urn:a> <urn:p> "kept" .\n')
    s.close()


def test_bulk_load_leftovers_are_removed_at_the_next_open(tmp_path: Path, caplog: pytest.LogCaptureFixture) -> None:
    path = tmp_path / "db"
    _store_with_one_triple(path)
    leftover = path / "bulk-159168549006526184095609921175387591307.sst"
    leftover.write_bytes(os.urandom(1 << 20))
    unrelated = [path / "bulk-notes.txt", path / "my-bulk-1.sst", path / "bulk-12.sst.bak", path / "bulk-x.sst"]
    for f in unrelated:
        f.write_bytes(b"not the bulk loader's")
    caplog.set_level(logging.WARNING, logger="ont_platform")
    s = OxigraphStore(path)
    try:
        assert not leftover.exists()
        assert all(f.exists() for f in unrelated)
        assert len(s) == 1
        assert "interrupted bulk load" in caplog.text
    finally:
        s.close()


@pytest.mark.slow
@needs_proc
def test_a_killed_bulk_load_leaves_nothing_behind_after_the_next_open(tmp_path: Path) -> None:
    path = tmp_path / "db"
    loader = _python(BULK, str(path))
    with _reaped(loader):
        assert loader.stdout is not None and loader.stdout.readline().strip() == "ready"
        assert _wait(lambda: any(path.glob("bulk-*.sst")), 120), "the bulk load wrote no sorted file"
        loader.kill()
        loader.wait(10)
    assert any(path.glob("bulk-*.sst"))
    s = OxigraphStore(path)
    try:
        assert not any(path.glob("bulk-*.sst"))
        assert len(s) == 0  # the interrupted bulk load is undone as a whole
    finally:
        s.close()


def test_bulk_files_of_a_store_in_use_are_left_alone(tmp_path: Path, caplog: pytest.LogCaptureFixture) -> None:
    path = tmp_path / "db"
    _store_with_one_triple(path)
    holder = _python(HOLDER, str(path), stdin=subprocess.PIPE)
    with _reaped(holder):
        assert holder.stdout is not None and holder.stdout.readline().strip() == "ready"
        in_use = path / "bulk-42.sst"
        in_use.write_bytes(b"x" * 1000)
        caplog.set_level(logging.INFO, logger="ont_platform")
        with pytest.raises(StoreLockedError):
            OxigraphStore(path)
        assert in_use.exists()
        assert "recovering" not in caplog.text  # held by a live process: nothing to recover


# -- 3. a store reopened after its owner was killed says why it is slow -------------------------------------------


def test_reopening_after_a_kill_warns_that_recovery_can_take_a_while(
    tmp_path: Path, caplog: pytest.LogCaptureFixture
) -> None:
    path = tmp_path / "db"
    holder = _python(HOLDER, str(path), stdin=subprocess.PIPE)
    with _reaped(holder):
        assert holder.stdout is not None and holder.stdout.readline().strip() == "ready"
        holder.kill()
        holder.wait(10)
    caplog.set_level(logging.INFO, logger="ont_platform")
    s = OxigraphStore(path)
    try:
        assert "recovering the store" in caplog.text
        assert "unclean shutdown" in caplog.text and "can take a while" in caplog.text
        assert s.ask('ASK { <urn:a> <urn:p> "held" }')
    finally:
        s.close()
    caplog.clear()
    OxigraphStore(path).close()  # closed cleanly last time: no warning now
    assert "recovering" not in caplog.text


def test_a_clean_close_gives_no_recovery_warning(tmp_path: Path, caplog: pytest.LogCaptureFixture) -> None:
    path = tmp_path / "db"
    _store_with_one_triple(path)
    caplog.set_level(logging.INFO, logger="ont_platform")
    s = OxigraphStore(path)
    s.close()
    assert "recovering" not in caplog.text
    left = {p.name for p in path.iterdir() if p.name.startswith("ont-")}
    assert left == {"ont-stamp.json"}  # no marker is left after a clean close; the stamp stays (storage/stamp.py)


# -- 4. a DTD is refused by the structure of the document, not by words inside a literal --------------------------


@pytest.fixture(params=["oxigraph", "rdflib"])
def store(request: pytest.FixtureRequest) -> Iterator[Store]:
    s: Store = OxigraphStore() if request.param == "oxigraph" else RdflibStore()
    yield s
    s.close()


def test_a_doctype_inside_a_turtle_literal_is_data(store: Store) -> None:
    html = "<!DOCTYPE html><html><!ENTITY x 'y'></html>"
    store.load_rdf(f'<urn:page> <urn:html> "{html}" .\n'.encode(), RdfFormat.TURTLE)
    store.load_rdf(f'<urn:page> <urn:nt> "{html}" .\n'.encode(), RdfFormat.NTRIPLES)
    store.load_rdf(json.dumps({"@id": "urn:page", "urn:json": html}).encode(), RdfFormat.JSONLD)
    store.add_ntriples(f'<urn:page> <urn:plain> "{html}" .\n')
    rows = store.select("SELECT ?p ?o WHERE { <urn:page> ?p ?o }")
    assert {(str(r["p"]), str(r["o"])) for r in rows} == {
        ("urn:html", html),
        ("urn:nt", html),
        ("urn:json", html),
        ("urn:plain", html),
    }


BOMB = b"""<?xml version="1.0"?>
<!-- a comment before the declaration -->
<!DOCTYPE lolz [<!ENTITY lol "lol"><!ENTITY lol2 "&lol;&lol;&lol;&lol;&lol;&lol;&lol;&lol;&lol;&lol;">]>
<rdf:RDF xmlns:rdf="http://www.w3.org/1999/02/22-rdf-syntax-ns#"><rdf:Description rdf:about="urn:a">
<rdf:value>&lol2;</rdf:value></rdf:Description></rdf:RDF>"""

REAL_DTDS = [
    pytest.param(BOMB, id="rdfxml-bomb"),
    pytest.param(b'<!DOCTYPE x SYSTEM "file:///etc/passwd">\n<urn:a> <urn:b> <urn:c> .\n', id="doctype-first"),
    pytest.param(b'\xef\xbb\xbf\n  <!doctype x [<!entity e SYSTEM "file:///etc/passwd">]><x/>', id="bom-lowercase"),
    pytest.param(b'<! ENTITY x "y">\n<urn:a> <urn:b> <urn:c> .\n', id="entity-first"),
    pytest.param(b"# a comment\n<!DOCTYPE x>\n", id="after-a-comment-line"),
    pytest.param(BOMB.decode().encode("utf-16"), id="rdfxml-utf16"),
]


@pytest.mark.parametrize("data", REAL_DTDS)
@pytest.mark.parametrize("fmt", list(RdfFormat))
def test_a_real_dtd_is_still_refused(store: Store, data: bytes, fmt: RdfFormat) -> None:
    with pytest.raises(RDFSyntaxError, match="DOCTYPE or ENTITY"):
        store.load_rdf(data, fmt)
    assert len(store) == 0


# -- 5. JSON-LD that rdflib would drop without a word is refused, naming the value --------------------------------


def test_import_refuses_a_jsonld_id_with_spaces(tmp_path: Path) -> None:
    """The attack: ``"@id": "urn:a b"`` gave 0 new triples and no error."""
    kg = KnowledgeGraph.open()
    try:
        before = kg.dumps("nt")
        doc = tmp_path / "bad.jsonld"
        doc.write_text(json.dumps({"@id": "urn:bad id", "urn:p": "v"}))
        with pytest.raises(InputError, match=r"'urn:bad id' is not a valid IRI \(it contains a space\)"):
            kg.import_rdf(doc)
        assert kg.dumps("nt") == before
    finally:
        kg.close()


DROPPED = [
    pytest.param({"@id": "urn:a", "urn:p": {"@id": "urn:o p"}}, "'urn:o p'", id="object-id"),
    pytest.param({"@id": "urn:a", "@type": ["urn:T", "urn:t t"]}, "'urn:t t'", id="type"),
    pytest.param({"@context": {"id": "@id"}, "id": "urn:a b", "urn:p": "v"}, "'urn:a b'", id="aliased-id"),
    pytest.param(
        {"@context": {"k": {"@id": "urn:k", "@type": "@id"}}, "@id": "urn:a", "k": "urn:x y"},
        "'urn:x y'",
        id="coerced-reference",
    ),
    pytest.param({"@id": "urn:a\tb", "urn:p": "v"}, "U\\+0009", id="tab"),
    pytest.param({"@id": "urn:a", "urn:p": {"@value": "v", "@language": "en US"}}, "'en US'", id="language"),
    pytest.param(
        {"@id": "urn:g", "@graph": [{"@id": "urn:a", "urn:p": "v"}]}, "named graphs: 'urn:g'", id="named-graph"
    ),
]


@pytest.mark.parametrize(("doc", "named"), DROPPED)
def test_jsonld_that_would_lose_triples_is_refused(store: Store, doc: object, named: str) -> None:
    with pytest.raises(RDFSyntaxError, match=named):
        store.load_rdf(json.dumps(doc).encode(), RdfFormat.JSONLD)
    assert len(store) == 0


def test_good_jsonld_still_loads_and_ignored_keys_are_reported(store: Store, caplog: pytest.LogCaptureFixture) -> None:
    doc = {
        "@context": {
            "Person": "urn:Person",
            "label": {"@id": "urn:label", "@container": "@language"},
            "knows": {"@id": "urn:knows", "@type": "@id"},
        },
        "@graph": [
            {
                "@id": "urn:a",
                "@type": "Person",
                "label": {"en": "A", "ko": "에이"},
                "knows": "urn:b",
                "nickname": "not defined anywhere",
            },
            {"@id": "_:b1", "urn:p": {"@value": "v", "@language": "en-US"}},
        ],
    }
    caplog.set_level(logging.WARNING, logger="ont_platform")
    store.load_rdf(json.dumps(doc).encode(), RdfFormat.JSONLD)
    assert len(store) == 5  # type, two labels, knows, and the blank node's literal
    assert store.ask("ASK { <urn:a> <urn:knows> <urn:b> ; a <urn:Person> }")
    assert "'nickname'" in caplog.text and "label" not in caplog.text.split("ignored", 1)[-1]


# -- 6. a long literal costs linear time ------------------------------------------------------------------------

LONG_LITERAL_STEPS = 100_000
"""Most Python lines reading and writing a store holding one 3 MB literal may take (about 3,500 now): work that
went over the literal's characters in Python would take millions."""


@pytest.mark.parametrize("path", ["rdflib", "oxigraph-jsonld-export"])
def test_a_3_mb_literal_loads_in_linear_time(path: str) -> None:
    """The attack: a 4 MB literal took 112 s to import on the rdflib backend (rdflib's N-Triples reader re-scans
    its growing line buffer); the same reader made the embedded store's JSON-LD export quadratic.

    Counted, not timed (docs/architecture.md): the document is handed to pyoxigraph's linear parser once and never
    to rdflib's (a meter stops the test at once if it is), and the Python work does not grow with the literal."""
    n = 3_000_000
    data = ('<urn:a> <urn:p> "' + "x" * n + '" .\n').encode()
    with Parses(forbid=("rdflib",)) as parses, Steps(LONG_LITERAL_STEPS) as steps:
        if path == "rdflib":
            s: Store = RdflibStore()
            s.load_rdf(data, RdfFormat.NTRIPLES)
            assert len(s) == 1 and len(str(next(iter(s.graph))[2])) == n  # type: ignore[attr-defined]
            assert len(s.dump(RdfFormat.NTRIPLES)) > n
        else:
            s = OxigraphStore()
            s.add_ntriples(data.decode())
            assert len(s.dump(RdfFormat.JSONLD)) > n  # JSON-LD goes through rdflib from N-Triples
    s.close()
    assert [(c.parser, c.size) for c in parses.calls] == [("pyoxigraph", len(data))], parses.calls
    assert steps.count <= LONG_LITERAL_STEPS


def test_ntriples_on_the_rdflib_backend_keep_their_meaning() -> None:
    """The N-Triples reader of the rdflib backend is pyoxigraph's now: lexical forms stay as written, blank nodes
    of two documents stay apart, syntax errors and RDF 1.2 terms are refused."""
    s = RdflibStore()
    doc = b'_:b <urn:p> "0123"^^<http://www.w3.org/2001/XMLSchema#integer> .\n_:b <urn:q> "x"@en .\n'
    s.load_rdf(doc, RdfFormat.NTRIPLES)
    s.load_rdf(doc, RdfFormat.NTRIPLES)
    assert len(s) == 4 and len(set(s.graph.subjects())) == 2  # type: ignore[union-attr]
    assert Literal("0123", datatype=URIRef("http://www.w3.org/2001/XMLSchema#integer"), normalize=False) in set(
        s.graph.objects()
    )  # type: ignore[union-attr]
    for bad, match in [
        (b'<urn:a> <urn:p> "x" ', "cannot parse ntriples"),
        (b'<urn:a b> <urn:p> "x" .\n', "cannot parse ntriples"),
        (b'<urn:a> <urn:p> "x"@en--ltr .\n', "base direction"),
        (b"<urn:a> <urn:p> <<( <urn:a> <urn:b> <urn:c> )>> .\n", "triple term"),
    ]:
        with pytest.raises(RDFSyntaxError, match=match):
            s.load_rdf(bad, RdfFormat.NTRIPLES)
    assert len(s) == 4
