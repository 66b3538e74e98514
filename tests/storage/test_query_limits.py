"""Bounded work on the embedded store: a timed query runs in a worker process that is killed at the limit, and a
SELECT can be capped at a number of rows, with the cut reported.

The pathological queries here (an unbounded ``p*`` over a 10k-edge graph, a cross product) run for minutes if
nothing stops them; every test asserts that the library stopped them at its limit, by the library's own report
(:class:`QueryTimeout` naming the limit, its worker killed), never by timing the call: no test depends on timing
(docs/architecture.md).
"""

from __future__ import annotations

import contextlib
import multiprocessing
import os
import random
import signal
import subprocess
import sys
import threading
import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from rdflib import BNode, Literal, URIRef

from ont_platform import KnowledgeGraph
from ont_platform.errors import InputError, QueryError, QueryTimeout, StoreError
from ont_platform.limits import Limits
from ont_platform.storage import Rows
from ont_platform.storage.oxigraph import OxigraphStore
from tests.benchmarks import generate

P = "urn:p"
N_NODES = 3_333
N_EDGES = 10_000
CLOSURE = f"SELECT ?s ?o WHERE {{ ?s <{P}>* ?o }} LIMIT 1"
CROSS = "SELECT (COUNT(*) AS ?n) WHERE { ?a ?b ?c . ?d ?e ?f . ?g ?h ?i }"
MARGIN = 5.0  # a time limit ample for a one-triple ASK however loaded the machine
BIG = "123456789012345678901234567890"


def _random_graph() -> str:
    rnd = random.Random(7)
    lines = {f"<urn:n{rnd.randrange(N_NODES)}> <{P}> <urn:n{rnd.randrange(N_NODES)}> .\n" for _ in range(N_EDGES)}
    lines.add(f"<urn:n0> <{P}> <urn:n1> .\n")
    return "".join(sorted(lines))


@pytest.fixture(params=["memory", "disk"])
def store(request: pytest.FixtureRequest, tmp_path: Path) -> Iterator[OxigraphStore]:
    s = OxigraphStore(tmp_path / "db" if request.param == "disk" else None)
    s.add_ntriples(_random_graph())
    yield s
    s.close()


def _gone(pid: int) -> bool:
    """True when no process (not even a zombie) has this pid."""
    return not Path(f"/proc/{pid}").exists()


def _gone_soon(pid: int, within: float = 10.0) -> bool:
    """True once the process is gone: after a write the stale worker is killed at once and reaped in the
    background."""
    deadline = time.monotonic() + within
    while not _gone(pid):
        if time.monotonic() > deadline:
            return False
        time.sleep(0.01)
    return True


def _worker_pid(s: OxigraphStore) -> int:
    assert s.worker_pid() is not None
    return s.worker_pid()


def test_unbounded_path_is_stopped_and_the_store_still_answers(store: OxigraphStore) -> None:
    assert store.ask(f"ASK {{ <urn:n0> <{P}> <urn:n1> }}", timeout=5) is True
    pid = _worker_pid(store)
    with pytest.raises(QueryTimeout, match=r"time limit of 1 s") as info:
        store.select(CLOSURE, timeout=1)
    assert info.value.limit == 1
    assert _gone(pid)  # killed and reaped, no zombie
    assert store.worker_pid() is None
    # the next query, timed or not, answers correctly (a fresh worker for the timed one)
    rows = store.select(f"SELECT ?o WHERE {{ <urn:n0> <{P}> ?o }} ORDER BY ?o", timeout=5)
    assert rows == store.select(f"SELECT ?o WHERE {{ <urn:n0> <{P}> ?o }} ORDER BY ?o")
    assert {"o": URIRef("urn:n1")} in rows
    assert _worker_pid(store) != pid
    with pytest.raises(QueryTimeout):
        store.ask(f"ASK {{ ?s <{P}>* ?o . ?o <{P}>* ?s . FILTER(?s = <urn:none>) }}", timeout=0.5)
    assert store.ask(f"ASK {{ <urn:n0> <{P}> <urn:n1> }}", timeout=5) is True


def test_a_tiny_limit_on_a_fresh_worker_is_the_query_s_time_out(store: OxigraphStore) -> None:
    """Starting the worker has its own allowance, so even a millisecond limit stops the query, not the start."""
    assert store.worker_pid() is None
    with pytest.raises(QueryTimeout, match="time limit of 0.001 s"):
        store.select(CLOSURE, timeout=0.001)
    assert store.ask(f"ASK {{ <urn:n0> <{P}> <urn:n1> }}", timeout=0.001 + MARGIN) is True


def test_timed_and_untimed_reads_agree_on_every_kind_of_term(store: OxigraphStore) -> None:
    store.add_ntriples(
        f'<urn:t> <urn:int> "{BIG}"^^<http://www.w3.org/2001/XMLSchema#integer> .\n'
        '<urn:t> <urn:ko> "서울"@ko .\n'
        '<urn:t> <urn:str> "plain \\"quoted\\"" .\n'
        '<urn:t> <urn:dec> "0010.50"^^<http://www.w3.org/2001/XMLSchema#decimal> .\n'
        "<urn:t> <urn:b> _:b1 .\n"
    )
    query = "SELECT ?p ?o ?none WHERE { <urn:t> ?p ?o OPTIONAL { ?o <urn:nothing> ?none } } ORDER BY ?p"
    timed, untimed = store.select(query, timeout=5), store.select(query)
    assert timed == untimed and len(timed) == 5
    got = {str(r["p"]): r["o"] for r in timed}
    assert str(got["urn:int"]) == BIG and got["urn:ko"] == Literal("서울", lang="ko")
    assert str(got["urn:dec"].datatype).endswith("#decimal")  # type: ignore[union-attr]
    assert isinstance(got["urn:b"], BNode) and all(r["none"] is None for r in timed)
    assert not timed.truncated and isinstance(timed, Rows)


@pytest.mark.parametrize("timeout", [None, 5.0])
def test_row_cap_reports_the_cut(store: OxigraphStore, timeout: float | None) -> None:
    rows = store.select(f"SELECT ?s WHERE {{ ?s <{P}> ?o }}", timeout=timeout, max_rows=7)
    assert len(rows) == 7 and rows.truncated
    exact = store.select(f"SELECT ?s WHERE {{ ?s <{P}> ?o }} LIMIT 7", timeout=timeout, max_rows=7)
    assert len(exact) == 7 and not exact.truncated
    for bad in (0, -1, True, 2.5):
        with pytest.raises(InputError, match="max_rows"):
            store.select("SELECT * WHERE { ?s ?p ?o }", timeout=timeout, max_rows=bad)  # type: ignore[arg-type]


def test_bad_timeouts_are_refused(store: OxigraphStore) -> None:
    for bad in (0, -1, float("nan"), float("inf"), "1", True):
        with pytest.raises(InputError, match="timeout"):
            store.ask("ASK {}", timeout=bad)  # type: ignore[arg-type]


def test_bad_queries_in_the_worker_are_query_errors_and_it_keeps_serving(store: OxigraphStore) -> None:
    assert store.ask("ASK {}", timeout=5) is True
    pid = _worker_pid(store)
    with pytest.raises(QueryError, match="syntax") as info:
        store.select("SELECT * WHERE { ?s ?p }", timeout=5)
    assert not isinstance(info.value, QueryTimeout)
    with pytest.raises(QueryError, match="not a SELECT"):
        store.select("ASK {}", timeout=5)
    with pytest.raises(QueryError, match="not an ASK"):
        store.ask("SELECT * WHERE { ?s ?p ?o }", timeout=5)
    with pytest.raises(QueryError, match="failed"):
        store.select("SELECT * WHERE { ?s ?p ?o FILTER(<urn:f>(?s)) }", timeout=5)
    assert _worker_pid(store) == pid  # the same worker answered all of them


@pytest.mark.parametrize("write", ["add_ntriples", "load_rdf", "update", "clear"])
def test_every_write_is_seen_by_the_next_timed_query(store: OxigraphStore, write: str) -> None:
    ask_new = "ASK { <urn:new> <urn:q> <urn:x> }"
    assert store.ask(ask_new, timeout=5) is False
    old = _worker_pid(store)
    triple = "<urn:new> <urn:q> <urn:x> .\n"
    if write == "add_ntriples":
        store.add_ntriples(triple)
    elif write == "load_rdf":
        from ont_platform.storage import RdfFormat

        store.load_rdf(triple.encode(), RdfFormat.NTRIPLES)
    elif write == "update":
        store.update("INSERT DATA { <urn:new> <urn:q> <urn:x> }")
    else:
        store.clear()
    assert _gone_soon(old)  # the stale snapshot was dropped at the write, not left running
    assert store.ask(ask_new, timeout=5) is (write != "clear")
    assert store.ask(f"ASK {{ <urn:n0> <{P}> <urn:n1> }}", timeout=5) is (write != "clear")


class _Running:
    """A timed query that never ends by itself (a cross product of the graph), run by another thread; it ends
    when the test kills its worker."""

    def __init__(self, store: OxigraphStore) -> None:
        self.store = store
        self.outcome: list[BaseException] = []
        self.thread = threading.Thread(target=self._run)
        self.thread.start()
        deadline = time.monotonic() + 120  # a bound on waiting for it to start, not a measurement
        while not store.timed_query_running() and self.thread.is_alive() and time.monotonic() < deadline:
            time.sleep(0.01)
        assert store.timed_query_running(), "the query did not start"
        pid = store.worker_pid()
        assert pid is not None
        self.pid = pid

    def _run(self) -> None:
        try:
            self.store.select(CROSS, timeout=600)
        except BaseException as exc:  # noqa: BLE001 - handed to the test thread
            self.outcome.append(exc)

    def end(self) -> BaseException:
        os.kill(self.pid, signal.SIGKILL)
        self.thread.join(120)
        assert not self.thread.is_alive() and len(self.outcome) == 1
        return self.outcome[0]


def test_a_write_does_not_wait_for_another_thread_s_timed_query(store: OxigraphStore) -> None:
    """The write returns while a timed query still runs on the old snapshot; the busy worker is left to the
    query, goes when the query ends, and the next timed query runs on a new worker that sees the write."""
    store.ask(f"ASK {{ <urn:n0> <{P}> <urn:n1> }}", timeout=5)
    query = _Running(store)
    write = threading.Thread(target=store.add_ntriples, args=(f"<urn:new> <{P}> <urn:n0> .\n",), daemon=True)
    write.start()
    write.join(120)
    assert not write.is_alive(), "the write waited for the query"
    assert query.thread.is_alive() and store.timed_query_running()  # the query only ends when killed below
    assert store.worker_pid() == query.pid  # not dropped: it was busy
    assert isinstance(query.end(), StoreError)
    assert _gone_soon(query.pid)
    assert store.ask(f"ASK {{ <urn:new> <{P}> <urn:n0> }}", timeout=5) is True
    assert _worker_pid(store) != query.pid


def test_a_stale_worker_goes_when_its_query_ends(store: OxigraphStore) -> None:
    """A write that finds the worker busy leaves it to the query; when the query ends normally, it answers from
    the snapshot it started on and the stale worker is dropped."""
    two_hops = f"SELECT (COUNT(*) AS ?n) WHERE {{ ?a <{P}> ?b . ?b <{P}> ?c }}"
    before = list(store.select(two_hops, timeout=60))[0]["n"]
    pid = _worker_pid(store)
    os.kill(pid, signal.SIGSTOP)  # the worker cannot answer until it is continued: the query stays under way
    try:
        answers: list[Any] = []
        query = threading.Thread(target=lambda: answers.append(list(store.select(two_hops, timeout=600))[0]["n"]))
        query.start()
        deadline = time.monotonic() + 120  # a bound on waiting for it to start, not a measurement
        while not store.timed_query_running() and time.monotonic() < deadline:
            time.sleep(0.01)
        assert store.timed_query_running()
        store.add_ntriples(f"<urn:new> <{P}> <urn:n0> .\n<urn:n0> <{P}> <urn:new> .\n")
        assert store.worker_pid() == pid  # not dropped: it was busy
    finally:
        os.kill(pid, signal.SIGCONT)
    query.join(120)
    assert answers == [before]  # the snapshot the query started on
    assert _gone_soon(pid)
    assert list(store.select(two_hops, timeout=60))[0]["n"] != before  # a new worker, on the new data
    assert _worker_pid(store) != pid


def test_a_worker_that_dies_is_reported_and_replaced(store: OxigraphStore) -> None:
    assert store.ask("ASK {}", timeout=5)
    pid = _worker_pid(store)
    os.kill(pid, signal.SIGKILL)
    with pytest.raises(StoreError, match="worker died"):
        store.ask("ASK {}", timeout=5)
    assert _gone(pid)
    assert store.ask(f"ASK {{ <urn:n0> <{P}> <urn:n1> }}", timeout=5) is True


def test_fork_beside_other_threads_and_concurrent_callers(store: OxigraphStore) -> None:
    """Timed queries from several threads share the one worker in turn; a busy thread elsewhere (as in the
    HTTP service) does not stop the worker from starting."""
    idle = threading.Event()
    bystander = threading.Thread(target=idle.wait, daemon=True)
    bystander.start()
    results: list[Any] = []

    def ask() -> None:
        try:
            results.append(store.ask(f"ASK {{ <urn:n0> <{P}> <urn:n1> }}", timeout=10))
        except Exception as exc:  # noqa: BLE001 - collected and asserted below
            results.append(exc)

    callers = [threading.Thread(target=ask) for _ in range(4)]
    for t in callers:
        t.start()
    for t in callers:
        t.join(30)
    idle.set()
    assert results == [True] * 4


_INTERRUPTED = """
import signal, threading, time
from ont_platform.storage.oxigraph import OxigraphStore
signal.signal(signal.SIGINT, signal.default_int_handler)  # a test runner's worker may pass SIGINT on ignored
s = OxigraphStore()
s.add_ntriples(''.join(f'<urn:n{i}> <urn:p> <urn:n{i + 1}> .\\n' for i in range(3000)))
assert s.ask('ASK {}', timeout=30)
pid = s.worker_pid()
main = threading.get_ident()

def interrupt():
    deadline = time.monotonic() + 120  # a bound on waiting for the query to start, not a measurement
    while not s.timed_query_running() and time.monotonic() < deadline:
        time.sleep(0.01)
    signal.pthread_kill(main, signal.SIGINT)  # Ctrl-C while the query waits for its reply

threading.Thread(target=interrupt, daemon=True).start()
try:
    s.select('SELECT (COUNT(*) AS ?n) WHERE { ?a ?b ?c . ?d ?e ?f . ?g ?h ?i }', timeout=600)  # never ends
except KeyboardInterrupt:
    print('interrupted', s.worker_pid(), pid, flush=True)
print(s.ask('ASK { <urn:n0> <urn:p> <urn:n1> }', timeout=30), s.worker_pid() not in (None, pid), flush=True)
"""


def test_an_interrupted_call_drops_the_worker() -> None:
    """An exception between request and reply (Ctrl-C) may leave a reply in the pipe: the worker is dropped, so
    the next query never reads an answer that was not its own. (In a process of its own: Ctrl-C reaches the
    main thread, and a test runner may run tests in another.)"""
    done = subprocess.run([sys.executable, "-c", _INTERRUPTED], capture_output=True, text=True, timeout=600)
    assert done.returncode == 0, done.stderr
    first, second = done.stdout.splitlines()
    word, now, old = first.split()
    assert word == "interrupted" and now == "None"
    assert _gone_soon(int(old))
    assert second == "True True"  # the next query ran, on a new worker


def test_a_worker_does_not_outlive_a_killed_owner() -> None:
    """When the process that owns the store is killed (SIGKILL, the OOM killer), its worker exits too."""
    script = (
        "import sys\n"
        "from ont_platform.storage.oxigraph import OxigraphStore\n"
        "s = OxigraphStore()\n"
        "s.add_ntriples('<urn:a> <urn:p> <urn:b> .\\n')\n"
        "assert s.ask('ASK {}', timeout=30)\n"
        "print(s.worker_pid(), flush=True)\n"
        "sys.stdin.read()\n"
    )
    with subprocess.Popen(
        [sys.executable, "-c", script], stdin=subprocess.PIPE, stdout=subprocess.PIPE, text=True
    ) as owner:
        worker = 0
        try:
            assert owner.stdout is not None
            worker = int(owner.stdout.readline())
            assert not _gone(worker)
            owner.kill()
            owner.wait(10)
            assert _gone_soon(worker), "the worker outlived its owner"
        finally:
            if owner.poll() is None:
                owner.kill()
            if worker and not _gone(worker):  # never leave an orphan behind, even when the test fails
                with contextlib.suppress(ProcessLookupError):
                    os.kill(worker, signal.SIGKILL)


def test_a_worker_keeps_no_copy_of_the_owner_s_sockets() -> None:
    """A server's sockets are not held open by a worker forked inside it."""
    import socket

    with socket.socket() as listening:
        listening.bind(("127.0.0.1", 0))
        listening.listen()
        inode = os.fstat(listening.fileno()).st_ino
        store = OxigraphStore()
        try:
            assert store.ask("ASK {}", timeout=30)
            held = {
                os.stat(f"/proc/{_worker_pid(store)}/fd/{fd}").st_ino
                for fd in os.listdir(f"/proc/{_worker_pid(store)}/fd")
            }
            assert inode not in held
            assert store.ask("ASK {}", timeout=30)  # and its own pipe still works
        finally:
            store.close()


def test_closing_the_store_leaves_no_process(tmp_path: Path) -> None:
    s = OxigraphStore()
    s.add_ntriples(f"<urn:a> <{P}> <urn:b> .\n")
    assert s.ask("ASK {}", timeout=5)
    pid = _worker_pid(s)
    s.close()
    assert _gone(pid) and pid not in {p.pid for p in multiprocessing.active_children()}
    with pytest.raises(StoreError, match="closed"):
        s.ask("ASK {}", timeout=5)


# --- through the knowledge graph ------------------------------------------------------------------------------


@pytest.fixture(scope="module")
def onchain10k(tmp_path_factory: pytest.TempPathFactory) -> Iterator[KnowledgeGraph]:
    folder = generate(10_000, 7, tmp_path_factory.mktemp("onchain-10k"))
    kg = KnowledgeGraph.open(limits=Limits(query_timeout_s=1.0, max_result_rows=50))
    kg.load(folder, shacl=False)
    yield kg
    kg.close()


def test_kg_select_stops_a_slow_query_and_caps_rows(onchain10k: KnowledgeGraph) -> None:
    with pytest.raises(QueryTimeout, match=r"time limit of 1 s") as info:
        onchain10k.select(CROSS)
    assert info.value.limit == onchain10k.limits.query_timeout_s
    rows = onchain10k.select("SELECT ?s ?p ?o WHERE { ?s ?p ?o }")
    assert len(rows) == 50 and rows.truncated
    few = onchain10k.select("SELECT ?s WHERE { ?s ?p ?o } LIMIT 3")
    assert len(few) == 3 and not few.truncated
    assert onchain10k.select("ASK { ?s ?p ?o }") == [{"result": Literal(True)}]


def test_a_huge_hop_count_is_capped_at_the_limit_and_said_so(onchain10k: KnowledgeGraph) -> None:
    answer = onchain10k.ask("n_1 에서 500-hop 안에 거래소 입금주소에 닿나요?").to_json()
    limit = onchain10k.limits.max_hops
    assert f"요청한 500-hop 은 한도 {limit}-hop" in answer["answer_ko"]
    assert len(answer["path"]) <= limit


# --- a remote endpoint: the same refusal, through the HTTP timeout ----------------------------------------------


@pytest.mark.remote
def test_remote_query_over_its_time_limit_is_a_query_timeout(oxigraph_endpoint: Any) -> None:
    from ont_platform.errors import EndpointError
    from ont_platform.storage.remote import RemoteStore

    graph = f"https://w3id.org/ont-platform/graph/test/limits-{os.getpid()}"
    s = RemoteStore(oxigraph_endpoint.query_url, oxigraph_endpoint.update_url, graph=graph)
    try:
        s.add_ntriples("".join(f'<urn:n{i}> <{P}> "{i}" .\n' for i in range(3_000)))
        slow = f'SELECT (COUNT(*) AS ?n) WHERE {{ ?a <{P}> ?x . ?b <{P}> ?y FILTER(CONCAT(?x, ?y) = "none") }}'
        with pytest.raises(QueryTimeout, match=r"within 0.2 s") as info:
            s.select(slow, timeout=0.2)
        assert isinstance(info.value, EndpointError) and info.value.limit == 0.2
        assert s.ask(f"ASK {{ <urn:n0> <{P}> ?x }}", timeout=30) is True
        rows = s.select(f"SELECT ?x WHERE {{ ?s <{P}> ?x }}", timeout=30, max_rows=5)
        assert len(rows) == 5 and rows.truncated
    finally:
        s.clear()
        s.close()


def test_a_worker_that_does_not_start_is_replaced_once(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """A fork that hangs (here: the probe of the first `hangs` workers sleeps) costs a restart, not the query;
    a second hang in a row is reported, with the query not run."""
    from ont_platform.storage import _query_worker, oxigraph

    store = OxigraphStore()
    store.add_ntriples("<urn:a> <urn:p> <urn:b> .\n")
    real = oxigraph._probe
    started = tmp_path / "started"

    def hanging(s: Any, *, yielding: bool = False) -> None:
        with started.open("a") as f:  # each child appends one line as it starts
            f.write("x\n")
        if len(started.read_text().splitlines()) <= int((tmp_path / "hangs").read_text()):
            time.sleep(3600)  # killed by the parent once its start-up allowance is over
        real(s, yielding=yielding)

    monkeypatch.setattr(oxigraph, "_probe", hanging)
    monkeypatch.setattr(_query_worker, "STARTUP_S", 5.0)  # ample for a tiny store: only the hung ones miss it
    (tmp_path / "hangs").write_text("1")
    # a limit shorter than the hung start: the start's allowance is its own, the replacement has the whole limit
    assert store.ask("ASK { <urn:a> ?p ?o }", timeout=3) is True
    assert len(started.read_text().splitlines()) == 2  # the hung worker and its replacement
    store.add_ntriples("<urn:c> <urn:p> <urn:d> .\n")  # drops the worker: the next query forks again
    started.write_text("")
    (tmp_path / "hangs").write_text("2")
    with pytest.raises(StoreError, match="did not start"):
        store.ask("ASK { <urn:c> ?p ?o }", timeout=30)
    assert len(started.read_text().splitlines()) == 2  # one replacement, not more
    (tmp_path / "hangs").write_text("0")
    assert store.ask("ASK { <urn:c> ?p ?o }", timeout=30) is True  # the next query starts a new one
    store.close()
