"""Queries that can be stopped: a worker process forked from this one, killed when a query runs out of time.

pyoxigraph has no query timeout, and a query running in a thread of this process cannot be interrupted (an
unbounded ``p*`` computes its whole closure even under ``LIMIT 1``). A process can be killed. The worker is
forked, not spawned, because fork hands it a copy-on-write snapshot of the store as it is at that moment at
no copying cost; a spawned process would have to load a dump of the whole graph first.

One worker serves many queries over a pipe: forking a process that holds a large store costs tens of
milliseconds (page tables), while a round trip to a running worker costs tens of microseconds, which a
question of three to six sub-millisecond queries can afford (docs/performance.md, point 7). The owner throws
the worker away after every write (:meth:`QueryWorker.close`) so that the next one sees the new data, and
after a time-out, when it is killed.

Forking a process that has other threads is allowed but delicate: a lock another thread held at that moment
stays locked in the child. The child only touches the store and the pipe. Should it hang anyway, it never
says it is ready, and that is reported as a :class:`StoreError` about the worker, not as the query's time-out.

A worker never outlives its owner, nor its query's deadline, even in the middle of a query:

* **Parent death, at once (Linux).** The child asks the kernel for SIGKILL when its parent goes
  (``prctl(PR_SET_PDEATHSIG, SIGKILL)``). That signal fires when the *thread* that forked the child ends, not
  the process: a worker forked from a thread of a pool (an HTTP server's request threads) would be killed
  whenever the pool retires that thread. So every worker is forked by one long-lived daemon thread of this
  process (:class:`_Forker`), which ends only with the process.
* **Parent death, elsewhere or should that fail.** A watchdog thread in the child checks every
  :data:`WATCHDOG_S` seconds that its parent is still the process that forked it (``os.getppid()``) and
  kills the child when it is not. pyoxigraph releases the GIL while it evaluates, so the watchdog runs
  during a query; between queries the child also sees end-of-file on its pipe.
* **Deadline.** The parent kills the worker when a query's time runs out. In case the parent cannot (it is
  stopped, or busy past the limit), the child arms a real-time timer for each request, the query's time
  plus :data:`DEADLINE_GRACE_S`, whose SIGALRM keeps its default action: the kernel ends the child even
  while it runs native code.
"""

from __future__ import annotations

import ctypes
import gc
import multiprocessing
import os
import queue
import signal
import stat
import sys
import threading
import time
import warnings
from collections.abc import Callable
from multiprocessing.connection import Connection
from typing import Any, Literal

from ont_platform.errors import QueryError, QueryTimeout, StoreError

Form = Literal["SELECT", "ASK"]
Request = tuple[str, Form, int | None] | tuple[str, Form, int | None, tuple[str, ...]]
"""Query text, expected form, row cap (``None``: every row), and optionally the IRIs of named graphs the query
reads as part of its default graph (the embedded store's derived graphs: reasoning's entailments)."""
Execute = Callable[..., Any]
"""Runs one request in the child (called with the request's items) and returns a picklable reply; raises
:class:`QueryError` for a bad query."""

FORK_AVAILABLE = "fork" in multiprocessing.get_all_start_methods()
"""Whether this platform can fork (not on Windows); without it timed queries run in-process, unbounded."""

STARTUP_S = 30.0
"""How long a new worker may take to answer its first probe, apart from any query's own time limit."""

WATCHDOG_S = 0.5
"""How often a worker checks that its parent is alive (the fallback to ``PR_SET_PDEATHSIG``)."""

DEADLINE_GRACE_S = 1.0
"""How long after its query's deadline a worker ends itself if its parent has not killed it by then."""

_FORK_WARNING = r".*multi-threaded, use of fork\(\) may lead to deadlocks"


class WorkerDidNotStart(StoreError):
    """A new worker did not answer its first probe within :data:`STARTUP_S`: the query was not run, and a worker
    forked again may well start (a fork that landed while another thread held a lock hangs; the next one,
    at another moment, does not)."""


class QueryWorker:
    """A child process forked from this one that runs ``execute`` for one request at a time until closed.

    Not thread-safe: the owner serialises calls (one request is in flight at a time).
    """

    def __init__(self, execute: Execute, probe: Callable[[], object]) -> None:
        ctx = multiprocessing.get_context("fork")
        self._conn, child_end = ctx.Pipe(duplex=True)
        self._proc = ctx.Process(
            target=_serve,
            args=(child_end, execute, probe, self._conn, os.getpid()),
            name="ont-query-worker",
            daemon=True,
        )
        self._started = time.monotonic()
        try:
            _forker().run(self._start)
        except BaseException as exc:
            child_end.close()
            self._conn.close()
            if self._proc.pid is not None:  # started, but the caller was interrupted meanwhile
                self._proc.kill()
                self._proc.join()
            if isinstance(exc, (OSError, RuntimeError)):  # fork refused (EAGAIN, ENOMEM), no thread at shutdown
                raise StoreError(f"cannot start the query worker: {exc}") from exc
            raise
        child_end.close()
        self._ready = False
        self._closed = False

    def _start(self) -> None:
        """Fork the worker; runs on the forker thread (see the module docstring: PR_SET_PDEATHSIG)."""
        with warnings.catch_warnings():
            # Python 3.12+ warns on every fork of a process with threads (rocksdb keeps some for an on-disk
            # store). The hazard is handled: the child touches only the store, and a hung child is reported.
            warnings.filterwarnings("ignore", message=_FORK_WARNING, category=DeprecationWarning)
            self._proc.start()

    @property
    def pid(self) -> int | None:
        """The worker's process id (for tests and diagnostics)."""
        return self._proc.pid

    def call(self, request: Request, timeout: float, *, limit: float | None = None) -> Any:
        """Send one request and wait at most ``timeout`` seconds (counted from now) for its reply.

        ``limit`` is the time limit to name in messages, when part of it was spent before this call.

        Raises :class:`QueryTimeout` when the query runs out of time (the worker is then killed), the
        :class:`QueryError` the child raised for a bad query, or :class:`StoreError` when the worker itself
        failed: it never became ready, or it died.
        """
        limit = timeout if limit is None else limit
        if not self._ready:
            # Starting has its own allowance: a tight query limit must not be spent on the fork.
            if not self._conn.poll(STARTUP_S):
                self.close()
                raise WorkerDidNotStart(
                    f"the query worker did not start within {STARTUP_S:g} s, so the query was not run (a "
                    "process forked while another thread held a lock can hang; the next query starts a new one)"
                )
            self._receive()
            self._ready = True
        deadline = time.monotonic() + timeout
        try:
            self._conn.send((request, timeout))
        except (OSError, ValueError) as exc:
            self.close()
            raise StoreError(f"the query worker stopped: {exc}") from exc
        if not self._conn.poll(max(0.0, deadline - time.monotonic())):
            self.close()
            raise QueryTimeout(f"query stopped: it did not finish within its time limit of {limit:g} s", limit=limit)
        status, value = self._receive(limit)
        if status == "error":
            raise QueryError(str(value))
        return value

    def _receive(self, limit: float | None = None) -> tuple[str, Any]:
        try:
            reply: tuple[str, Any] = self._conn.recv()
        except (EOFError, OSError) as exc:
            self._proc.join(1.0)
            code = self._proc.exitcode
            self.close()
            if limit is not None and code == -signal.SIGALRM:
                # the worker's own timer ended it: this process was too late to see the deadline itself
                raise QueryTimeout(
                    f"query stopped: it did not finish within its time limit of {limit:g} s", limit=limit
                ) from exc
            raise StoreError(
                f"the query worker died (exit code {code}; killed for memory?); the next query starts a new one"
            ) from exc
        return reply

    def close(self, *, wait: bool = True) -> None:
        """Kill the worker and reap it (no zombie is left). Idempotent.

        ``wait=False`` reaps it in a background thread: the kernel tearing down a large copy-on-write snapshot
        takes tens of milliseconds (35 ms at 1.2M triples), which a write that only makes the snapshot stale
        should not wait for.
        """
        if self._closed:
            return
        self._closed = True
        if self._proc.exitcode is None:
            self._proc.kill()
        self._conn.close()
        if wait:
            self._reap()
        else:
            threading.Thread(target=self._reap, name="ont-query-worker-reaper", daemon=True).start()

    def _reap(self) -> None:
        self._proc.join()
        try:
            self._proc.close()
        except ValueError:
            # Another thread's waitpid took the exit status first (multiprocessing polls its children whenever
            # it starts a process, e.g. the next worker): the child is reaped, there is nothing left to free.
            pass


def _serve(
    conn: Connection, execute: Execute, probe: Callable[[], object], parent_end: Connection, parent: int
) -> None:
    """The child's loop. It exits through multiprocessing's ``os._exit``: no destructor of the inherited store
    runs, so an on-disk store's files are never written by the child.

    It first ties its life to its parent's (``parent`` is the parent's pid): see the module docstring. The fork
    copied the parent's end of the pipe too; it is closed, so that when the parent dies while the child waits
    for a request, the child reads end-of-file and exits.
    """
    _die_with_parent(parent)
    parent_end.close()
    _close_inherited_sockets(keep=conn.fileno())
    gc.disable()  # a collection would touch every object and copy the parent's pages for nothing
    signal.signal(signal.SIGINT, signal.SIG_IGN)  # Ctrl-C reaches the whole group; the parent decides
    signal.signal(signal.SIGALRM, signal.SIG_DFL)  # the deadline timer ends the process, native code or not
    threading.Thread(target=_watch_parent, args=(parent,), name="ont-query-worker-watchdog", daemon=True).start()
    _arm(STARTUP_S)
    probe()  # touch the store once, so a lock inherited in a locked state shows as "not ready"
    _arm(0)
    conn.send(("ready", None))
    while True:
        try:
            request, budget = conn.recv()
        except (EOFError, OSError):
            return
        _arm(budget)
        try:
            reply: tuple[str, Any] = ("ok", execute(*request))
        except QueryError as exc:
            reply = ("error", str(exc))
        except Exception as exc:  # noqa: BLE001 - anything else is reported, the worker keeps serving
            reply = ("error", f"query failed: {type(exc).__name__}: {str(exc)[:300]}")
        _arm(0)  # the work is done; sending may wait for a slow reader, which is no reason to die
        conn.send(reply)


def _arm(budget: float) -> None:
    """Set (``budget`` > 0) or clear (0) this worker's deadline timer: SIGALRM ``DEADLINE_GRACE_S`` after the
    budget, which ends the process (default action)."""
    signal.setitimer(signal.ITIMER_REAL, min(budget + DEADLINE_GRACE_S, _TIMER_MAX_S) if budget > 0 else 0.0)


_TIMER_MAX_S = 1e8
"""setitimer overflows past the platform's time_t; a limit of years is no limit anyway."""


def _die_with_parent(parent: int) -> None:
    """Ask the kernel to SIGKILL this process when its parent (the forker thread) goes; exit at once if the
    parent is already gone (it died between the fork and this call)."""
    if _PRCTL is not None:
        _PRCTL(
            _PR_SET_PDEATHSIG, ctypes.c_ulong(signal.SIGKILL), ctypes.c_ulong(0), ctypes.c_ulong(0), ctypes.c_ulong(0)
        )
    if os.getppid() != parent:
        os._exit(1)


def _watch_parent(parent: int) -> None:
    """The watchdog thread: kill this process once it is no longer its parent's child (the parent died and the
    child was handed to init or a subreaper)."""
    while True:
        time.sleep(WATCHDOG_S)
        if os.getppid() != parent:
            os.kill(os.getpid(), signal.SIGKILL)


# -- the forker thread -----------------------------------------------------------------------------------------

_PR_SET_PDEATHSIG = 1


def _load_prctl() -> Callable[..., int] | None:
    """libc's ``prctl``, looked up in the parent (a child should not load libraries); ``None`` off Linux."""
    if not sys.platform.startswith("linux"):
        return None
    try:
        prctl: Callable[..., int] = ctypes.CDLL(None, use_errno=True).prctl
    except (OSError, AttributeError):
        return None
    return prctl


_PRCTL = _load_prctl()


class _Job:
    def __init__(self, fn: Callable[[], None]) -> None:
        self.fn = fn
        self.done = threading.Event()
        self.error: BaseException | None = None


class _Forker:
    """The one thread of this process that forks query workers.

    ``PR_SET_PDEATHSIG`` ties a worker to the thread that forked it. This daemon thread runs as long as the
    process does, so a worker dies with the process and never because some other thread (a pool's worker
    thread that called a query) ended. A fork costs tens of milliseconds; handing it to this thread costs
    microseconds.
    """

    def __init__(self) -> None:
        self._jobs: queue.SimpleQueue[_Job] = queue.SimpleQueue()
        threading.Thread(target=self._serve, name="ont-query-worker-forker", daemon=True).start()

    def run(self, fn: Callable[[], None]) -> None:
        """Run ``fn`` on the forker thread, wait for it, and raise what it raised."""
        job = _Job(fn)
        self._jobs.put(job)
        try:
            job.done.wait()
        except BaseException:
            job.done.wait()  # interrupted (Ctrl-C): let the fork finish, so the caller can undo what it made
            raise
        if job.error is not None:
            raise job.error

    def _serve(self) -> None:
        while True:
            job = self._jobs.get()
            try:
                job.fn()
            except BaseException as exc:  # noqa: BLE001 - handed to the caller; this thread must live on
                job.error = exc
            finally:
                job.done.set()


_FORKER: _Forker | None = None
_FORKER_LOCK = threading.Lock()


def _forker() -> _Forker:
    global _FORKER
    with _FORKER_LOCK:
        if _FORKER is None:
            _FORKER = _Forker()
        return _FORKER


def _forget_forker() -> None:
    """In a forked child the forker thread does not exist (only the forking thread is copied), and the lock
    may have been copied held: start afresh."""
    global _FORKER, _FORKER_LOCK
    _FORKER = None
    _FORKER_LOCK = threading.Lock()


if hasattr(os, "register_at_fork"):
    os.register_at_fork(after_in_child=_forget_forker)


YIELDING_NICENESS = 10
"""How much a worker for untrusted work lowers its scheduling priority (see :func:`lower_priority`)."""


def lower_priority() -> None:
    """Lower this process's CPU priority by :data:`YIELDING_NICENESS` (a worker's probe calls it in the child).

    For workers that run what callers send (their query text, a query to parse): under a flood of such work
    the process answering questions keeps its share of a small machine. Where ``os.nice`` is missing or
    refused, nothing changes."""
    try:
        os.nice(YIELDING_NICENESS)
    except (AttributeError, OSError):
        pass


def _close_inherited_sockets(keep: int) -> None:
    """Close every socket the fork copied except the worker's own pipe.

    A worker forked inside a server holds copies of its listening socket and client connections: a connection
    the server closes would stay open (no end-of-file for the client) until the worker goes. The store needs
    files, never sockets, so closing sockets is safe. Linux lists open descriptors in /proc; elsewhere nothing
    is closed.
    """
    try:
        fds = [int(name) for name in os.listdir("/proc/self/fd")]
    except OSError:
        return
    for fd in fds:
        if fd == keep:
            continue
        try:
            if stat.S_ISSOCK(os.fstat(fd).st_mode):
                os.close(fd)
        except OSError:
            pass


__all__ = ["FORK_AVAILABLE", "YIELDING_NICENESS", "Execute", "Form", "QueryWorker", "Request", "lower_priority"]
