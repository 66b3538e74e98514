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
"""

from __future__ import annotations

import gc
import multiprocessing
import os
import signal
import stat
import threading
import time
import warnings
from collections.abc import Callable
from multiprocessing.connection import Connection
from typing import Any, Literal

from ont_platform.errors import QueryError, QueryTimeout, StoreError

Form = Literal["SELECT", "ASK"]
Request = tuple[str, Form, int | None]
"""Query text, expected form, row cap (``None``: every row)."""
Execute = Callable[[str, Form, int | None], Any]
"""Runs one request in the child and returns a picklable reply; raises :class:`QueryError` for a bad query."""

FORK_AVAILABLE = "fork" in multiprocessing.get_all_start_methods()
"""Whether this platform can fork (not on Windows); without it timed queries run in-process, unbounded."""

STARTUP_S = 30.0
"""How long a new worker may take to answer its first probe, apart from any query's own time limit."""

_FORK_WARNING = r".*multi-threaded, use of fork\(\) may lead to deadlocks"


class QueryWorker:
    """A child process forked from this one that runs ``execute`` for one request at a time until closed.

    Not thread-safe: the owner serialises calls (one request is in flight at a time).
    """

    def __init__(self, execute: Execute, probe: Callable[[], object]) -> None:
        ctx = multiprocessing.get_context("fork")
        self._conn, child_end = ctx.Pipe(duplex=True)
        self._proc = ctx.Process(target=_serve, args=(child_end, execute, probe, self._conn), name="ont-query-worker",
                                 daemon=True)
        self._started = time.monotonic()
        with warnings.catch_warnings():
            # Python 3.12+ warns on every fork of a process with threads (rocksdb keeps some for an on-disk
            # store). The hazard is handled: the child touches only the store, and a hung child is reported.
            warnings.filterwarnings("ignore", message=_FORK_WARNING, category=DeprecationWarning)
            self._proc.start()
        child_end.close()
        self._ready = False
        self._closed = False

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
                raise StoreError(
                    f"the query worker did not start within {STARTUP_S:g} s, so the query was not run (a "
                    "process forked while another thread held a lock can hang; the next query starts a new one)"
                )
            self._receive()
            self._ready = True
        deadline = time.monotonic() + timeout
        try:
            self._conn.send(request)
        except (OSError, ValueError) as exc:
            self.close()
            raise StoreError(f"the query worker stopped: {exc}") from exc
        if not self._conn.poll(max(0.0, deadline - time.monotonic())):
            self.close()
            raise QueryTimeout(
                f"query stopped: it did not finish within its time limit of {limit:g} s", limit=limit
            )
        status, value = self._receive()
        if status == "error":
            raise QueryError(str(value))
        return value

    def _receive(self) -> tuple[str, Any]:
        try:
            reply: tuple[str, Any] = self._conn.recv()
        except (EOFError, OSError) as exc:
            self._proc.join(1.0)
            code = self._proc.exitcode
            self.close()
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


def _serve(conn: Connection, execute: Execute, probe: Callable[[], object], parent_end: Connection) -> None:
    """The child's loop. It exits through multiprocessing's ``os._exit``: no destructor of the inherited store
    runs, so an on-disk store's files are never written by the child.

    The fork copied the parent's end of the pipe too; it is closed first, so that when the parent dies (even by
    SIGKILL) the child reads end-of-file and exits instead of waiting forever as an orphan. (Not
    ``PR_SET_PDEATHSIG``: it fires when the forking *thread* ends, which in a thread pool is any time.)
    """
    parent_end.close()
    _close_inherited_sockets(keep=conn.fileno())
    gc.disable()  # a collection would touch every object and copy the parent's pages for nothing
    signal.signal(signal.SIGINT, signal.SIG_IGN)  # Ctrl-C reaches the whole group; the parent decides
    probe()  # touch the store once, so a lock inherited in a locked state shows as "not ready"
    conn.send(("ready", None))
    while True:
        try:
            request: Request = conn.recv()
        except (EOFError, OSError):
            return
        try:
            reply: tuple[str, Any] = ("ok", execute(*request))
        except QueryError as exc:
            reply = ("error", str(exc))
        except Exception as exc:  # noqa: BLE001 - anything else is reported, the worker keeps serving
            reply = ("error", f"query failed: {type(exc).__name__}: {str(exc)[:300]}")
        conn.send(reply)


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


__all__ = ["FORK_AVAILABLE", "Execute", "Form", "QueryWorker", "Request"]
