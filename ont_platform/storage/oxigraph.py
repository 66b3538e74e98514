"""The embedded default store: Oxigraph (pyoxigraph), in memory or on disk.

Why Oxigraph: on a million transfers a bounded 3-hop query takes well under a millisecond, against seconds in
rdflib, and an on-disk store reopens in about a second. Writes go through ``Store.load``, which pyoxigraph
applies in one transaction, so a batch is all or nothing (a killed process never leaves half a batch).

What a killed process leaves in an on-disk store's folder, and what the next open does about it (only once it
holds the store's lock, so never while another process uses the store):

* ``ont-bulk-load-in-progress`` (:data:`BULK_MARKER`): a bulk load into the empty store did not finish; the
  store is emptied again.
* ``bulk-<number>.sst``: the sorted files a bulk load writes before handing them to RocksDB; removed.
* ``ont-store-open`` (:data:`OPEN_MARKER`): the store was not closed. Opening it replays RocksDB's write-ahead
  log, which after a kill in the middle of a large write takes tens of seconds (24 s after a kill during a
  600k-triple write, against 0.1 s after a clean close), so a warning says so before the open starts.

Two more things live in the folder: ``ont-stamp.json``, the token that names the state of the data
(:mod:`ont_platform.storage.stamp`), and ``ont-index/``, the indexes derived from the data and tagged with
that token (:mod:`ont_platform.qa.names`).
"""

from __future__ import annotations

import contextlib
import dataclasses
import functools
import io
import json
import logging
import math
import os
import re
import threading
import time
import weakref
from collections.abc import Callable, Iterable, Iterator, Sequence
from pathlib import Path
from typing import Any

import pyoxigraph as ox
from rdflib.term import Node

from ont_platform.errors import (
    InputError,
    QueryError,
    QueryTimeout,
    RDFSyntaxError,
    StoreError,
    StoreLockedError,
)
from ont_platform.storage import stamp as stamps
from ont_platform.storage._query_worker import (
    FORK_AVAILABLE,
    Form,
    QueryWorker,
    Request,
    WorkerDidNotStart,
    lower_priority,
)
from ont_platform.storage._terms import from_oxigraph, from_parts, parts_from_oxigraph, to_oxigraph
from ont_platform.storage.base import RdfFormat, Rows, Store, check_max_rows
from ont_platform.storage.rdf_io import convert, refuse_dtd

TURTLE_PREFIXES = {
    "ont": "https://w3id.org/ont-platform/core#",
    "oc": "https://w3id.org/ont-platform/onchain#",
    "kg": "https://w3id.org/ont-platform/kg#",
    "pg": "https://w3id.org/ont-platform/pages#",
    "rdfs": "http://www.w3.org/2000/01/rdf-schema#",
    "skos": "http://www.w3.org/2004/02/skos/core#",
    "xsd": "http://www.w3.org/2001/XMLSchema#",
}

_READ_BUFFER = 1 << 16

_LONGEST_WAIT_S = 1e6
"""Longest wait for the query worker (11.6 days): a larger time limit is as good as none, and longer waits
overflow ``poll`` (milliseconds in a 32-bit int) or the platform's timestamps."""

BULK_MARKER = "ont-bulk-load-in-progress"
"""File written into an on-disk store's folder while a bulk load fills it (see ``add_ntriples_stream``)."""

OPEN_MARKER = "ont-store-open"
"""File in an on-disk store's folder while a process has the store open: written at open, removed by a clean
:meth:`OxigraphStore.close`. It names the process (pid and start time), so that finding it at the next open,
left by a process that is gone, means the store was not closed cleanly."""

INDEX_FOLDER = "ont-index"
"""Folder inside an on-disk store where indexes derived from its data are kept (:attr:`Store.index_folder`)."""

BULK_FILE = re.compile(r"bulk-[0-9]+\.sst")
"""Names of the files Oxigraph's bulk loader writes into the store's folder before RocksDB takes them in."""

log = logging.getLogger(__name__)

_FORMATS = {
    RdfFormat.TURTLE: ox.RdfFormat.TURTLE,
    RdfFormat.NTRIPLES: ox.RdfFormat.N_TRIPLES,
}


class _Lane:
    """One query worker, the lock that serialises its requests, and the state of the store it was forked at (the
    write generation and the derived graphs' version)."""

    def __init__(self) -> None:
        self.worker: QueryWorker | None = None
        self.generation = (0, 0)
        self.lock = threading.Lock()


class OxigraphStore(Store):
    """Oxigraph store; ``path=None`` keeps it in memory, a path opens (or creates) an on-disk store.

    Only one process may hold an on-disk store for writing; a second one gets :class:`StoreLockedError`.

    Reads with a ``timeout`` run in a query worker (:mod:`ont_platform.storage._query_worker`): a process forked
    from this one, which sees the store as it was at the fork, is killed at the limit, and is dropped after
    every write so the next timed read sees the new data. Every write method calls :meth:`_written` for that.

    >>> s = OxigraphStore()
    >>> s.add_ntriples('<urn:a> <urn:p> "1" .\\n')
    >>> len(s)
    1
    """

    backend = "oxigraph"

    def __init__(self, path: str | Path | None = None, *, read_only: bool = False) -> None:
        self.path = Path(path) if path is not None else None
        self.read_only = read_only
        """Opened with ``read_only=True``: a view of an existing on-disk store as it was when opened, beside the
        process that holds it for writing; every write raises :class:`StoreError` before touching anything."""
        self._held = _Held()
        """The store's token, writes under way and engine (see :class:`_Held`)."""
        self._release: weakref.finalize[Any, Any] | None = None
        self._length: tuple[int, int] | None = None
        """(write generation, triples) of the last count (see ``__len__``)."""
        self._stamp_lock = threading.Lock()
        self._derived_version = 0
        """Changes with every write of a derived graph (which leaves the stated graph, its generation and its
        stamp as they were): a query worker forked before one is stale."""
        self._derived: dict[str, tuple[int, str]] = {}
        """Derived graph → (write generation, code version) it was computed at, in this process."""
        if read_only:
            self._open_read_only()
            return
        unclean = self.path is not None and _left_open_by_a_dead_process(self.path)
        trusted = False
        if self.path is not None and self.path.is_dir() and not unclean:
            # compared before the engine opens the folder (opening starts a new log and manifest)
            prior = stamps.read(self.path)
            trusted = (
                prior is not None
                and prior.state == "clean"
                and prior.files is not None
                and prior.files == stamps.data_files(self.path)
                and not (self.path / BULK_MARKER).exists()
            )
        if unclean:
            log.warning(
                "recovering the store at %s after an unclean shutdown (the process that had it open was "
                "killed or crashed before closing it); this can take a while",
                self.path,
            )
        started = time.monotonic()
        try:
            self._store = ox.Store(str(self.path)) if self.path is not None else ox.Store()
        except OSError as exc:
            text = str(exc)
            if "lock" in text.lower():
                raise StoreLockedError(
                    f"store at {self.path} is locked: another process has it open for writing (open it with "
                    "read_only=True, or --read-only, to read it beside that process)"
                ) from exc
            raise StoreError(f"cannot open store at {self.path}: {text}") from exc
        if unclean:
            log.info("recovered the store at %s in %.1f s", self.path, time.monotonic() - started)
        self._lanes = {False: _Lane(), True: _Lane()}
        """The query workers by whether the query text is a caller's (``untrusted``): a caller's slow query
        holds its own worker, never the one the library's questions run in."""
        if self.path is not None:
            # This process holds the store's lock now: nothing else writes to the folder.
            _remove_bulk_leftovers(self.path)
            if (self.path / BULK_MARKER).exists():
                self._undo_bulk_load()
            _write_open_marker(self.path)
            # a store nobody closes is closed all the same when it is collected or the interpreter ends
            self._release = weakref.finalize(
                self, _release_quietly, self.path, self._held, self._stamp_lock, os.getpid()
            )
            prior = stamps.read(self.path) if trusted else None
            self._token = prior.token if prior is not None else stamps.new_token()
            stamps.write(self.path, stamps.Stamp(self._token, "clean"), sync=False)

    def _open_read_only(self) -> None:
        """Open the store read-only (pyoxigraph ``Store.read_only``): no lock is taken and nothing on disk is
        touched (no open marker, no recovery of an interrupted bulk load: those are the writer's to do).

        What it sees is the store as of opening; a writer's later commits are not seen until it is opened
        again. pyoxigraph calls reading beside a writing process undefined, because the writer may compact
        and delete files the reader still expects: a read that fails that way is a :class:`StoreError` saying
        to open it again, never a partial answer."""
        if self.path is None:
            raise InputError("read_only=True needs the path of an on-disk store")
        if not self.path.is_dir():
            raise StoreError(f"no store at {self.path} to open read-only")
        before, files = stamps.read(self.path), stamps.data_files(self.path)
        writer = (self.path / OPEN_MARKER).exists() and not _left_open_by_a_dead_process(self.path)
        self._store = _open_read_only_engine(self.path)
        self._lanes = {False: _Lane(), True: _Lane()}
        # The token names what this view sees only if no write began or ended while it was opened, and the
        # data files are the ones the last clean close recorded (or a live writer of this library, holding the
        # lock, keeps the token itself).
        if (
            before is not None
            and before == stamps.read(self.path)
            and before.state == "clean"
            and (writer or before.files == files)
        ):
            self._token = before.token

    @property
    def _store(self) -> ox.Store | None:
        return self._held.store

    @_store.setter
    def _store(self, value: ox.Store | None) -> None:
        self._held.store = value

    @property
    def _token(self) -> str | None:
        return self._held.token

    @_token.setter
    def _token(self, value: str | None) -> None:
        self._held.token = value

    @property
    def _writes(self) -> int:
        return self._held.writes

    @_writes.setter
    def _writes(self, value: int) -> None:
        self._held.writes = value

    @property
    def stamp(self) -> str | None:
        """See :attr:`Store.stamp`: kept in the store's folder (:mod:`ont_platform.storage.stamp`); ``None`` in
        memory and while a write is under way."""
        with self._stamp_lock:
            return self._token if not self._writes else None

    @property
    def index_folder(self) -> Path | None:
        return self.path / INDEX_FOLDER if self.path is not None else None

    @property
    def index_writable(self) -> bool:
        return self.path is not None and not self.read_only

    @property
    def read_parallelism(self) -> int:
        """4 on disk: reads of blocks not in memory wait on the disk, and the engine runs queries from several
        threads at once (at 10M transfers, 180 stored nodes read cold: 330 / 280 ms in one thread, 168 / 167 ms
        in 4, 170 / 148 ms in 8, two runs each; docs/performance.md); 1 in memory, where nothing waits."""
        return _DISK_READERS if self.path is not None else 1

    @contextlib.contextmanager
    def _changing(self) -> Iterator[None]:
        """Around every write of the data: refuse it on a read-only store; on disk, replace the token by a new
        one marked ``writing`` (synced before the data is touched) and, when the last write under way is over,
        done or failed, by a new clean one."""
        self._writable()
        if self.path is None:
            yield
            return
        with self._stamp_lock:
            self._writes += 1
            if self._writes == 1:
                try:
                    self._token = stamps.new_token()
                    stamps.write(self.path, stamps.Stamp(self._token, "writing"), sync=True)
                except OSError as exc:
                    self._writes -= 1
                    raise StoreError(f"cannot record a write in {self.path}, nothing was written: {exc}") from exc
        try:
            yield
        finally:
            with self._stamp_lock:
                self._writes -= 1
                if not self._writes:
                    self._token = stamps.new_token()
                    with contextlib.suppress(OSError):  # left as "writing": indexes are rebuilt, never misused
                        stamps.write(self.path, stamps.Stamp(self._token, "clean"), sync=False)

    def _writable(self) -> None:
        if self.read_only:
            raise StoreError(
                f"the store at {self.path} is open read-only: nothing was written (open it without "
                "read_only, in the process that may write, to change it)"
            )

    @property
    def _s(self) -> ox.Store:
        if self._store is None:
            raise StoreError("store is closed")
        return self._store

    def _run(self, query: str) -> object:
        return _query(self._s, query)

    def select(
        self, query: str, *, timeout: float | None = None, max_rows: int | None = None, untrusted: bool = False
    ) -> Rows:
        """Run a SELECT; with a ``timeout`` it runs in a query worker and is stopped at the limit.

        Without one it runs here, unbounded in time: for the library's own bounded queries only (see
        :class:`~ont_platform.storage.base.Store`). ``max_rows`` stops reading solutions after that many.
        ``untrusted`` (query text a caller wrote) runs it in a worker of its own.
        """
        return self._select(query, (), timeout=timeout, max_rows=max_rows, untrusted=untrusted)

    def _select(
        self, query: str, graphs: Sequence[str], *, timeout: float | None, max_rows: int | None, untrusted: bool
    ) -> Rows:
        check_max_rows(max_rows)
        if _in_process(timeout):
            names, rows, truncated = _solutions(self._s, query, max_rows, from_oxigraph, tuple(graphs))
        else:
            assert timeout is not None
            names, rows, truncated = self._in_worker((query, "SELECT", max_rows, tuple(graphs)), timeout, untrusted)
            rows = [tuple(from_parts(t) for t in row) for row in rows]
        return Rows((dict(zip(names, row, strict=True)) for row in rows), truncated=truncated)

    def worker_pid(self, *, untrusted: bool = False) -> int | None:
        """The process id of the lane's query worker, or None when none is running (for tests and diagnostics)."""
        worker = self._lanes[untrusted].worker
        return worker.pid if worker is not None else None

    def timed_query_running(self, *, untrusted: bool = False) -> bool:
        """Whether a timed query holds the lane's worker now, from any thread (for tests and diagnostics: a
        write does not wait for it, and drops the worker only once it ends)."""
        return self._lanes[untrusted].lock.locked()

    def select_nt(self, query: str) -> list[tuple[str | None, ...]]:
        """See :meth:`Store.select_nt`: read here, without building rdflib terms (~7x faster)."""
        return _solutions(self._s, query, None, _nt)[1]

    def iter_values(self, query: str) -> Iterator[tuple[str | None, ...]]:
        """See :meth:`Store.iter_values`: solutions are read from the engine one at a time."""
        result = _query(self._s, query)
        if not isinstance(result, ox.QuerySolutions):
            raise QueryError("not a SELECT query")
        try:
            for solution in result:
                yield tuple(None if t is None else t.value for t in solution)
        except (OSError, RuntimeError, ValueError) as exc:
            raise QueryError(f"query failed: {exc}") from exc

    def ask(self, query: str, *, timeout: float | None = None, untrusted: bool = False) -> bool:
        """Run an ASK; with a ``timeout`` it runs in a query worker and is stopped at the limit."""
        return self._ask(query, (), timeout=timeout, untrusted=untrusted)

    def _ask(self, query: str, graphs: Sequence[str], *, timeout: float | None, untrusted: bool) -> bool:
        if _in_process(timeout):
            return _boolean(self._s, query, tuple(graphs))
        assert timeout is not None
        return bool(self._in_worker((query, "ASK", None, tuple(graphs)), timeout, untrusted))

    # -- derived graphs (see Store.replace_derived) --------------------------------------------------------------

    def select_derived(
        self,
        query: str,
        graphs: Sequence[str],
        *,
        timeout: float | None = None,
        max_rows: int | None = None,
        untrusted: bool = False,
    ) -> Rows:
        """:meth:`select` with the derived ``graphs`` read as part of the default graph (pyoxigraph's
        ``default_graph``: the union of the stated graph and these)."""
        return self._select(query, _graph_names(graphs), timeout=timeout, max_rows=max_rows, untrusted=untrusted)

    def ask_derived(
        self, query: str, graphs: Sequence[str], *, timeout: float | None = None, untrusted: bool = False
    ) -> bool:
        return self._ask(query, _graph_names(graphs), timeout=timeout, untrusted=untrusted)

    @property
    def derived_writable(self) -> bool:
        return not self.read_only

    def derived_current(self, graph: str, version: str) -> bool:
        """In this process: computed at the present write generation. Across processes (on disk): recorded in
        :data:`DERIVED_FILE` with the stamp the stated data still has (a write through the library, or by another
        program, gives the data a new stamp: :mod:`ont_platform.storage.stamp`)."""
        if self._derived.get(graph) == (self._generation, version):
            return True
        if self.path is None:
            return False
        token = self.stamp
        return token is not None and _read_derived(self.path).get(graph) == {"stamp": token, "version": version}

    def replace_derived(self, graph: str, version: str, triples: Iterable[tuple[str, str, str]]) -> int:
        """See :meth:`Store.replace_derived`. Not one transaction, and need not be: the graph's record is
        removed first (on disk, synced) and written again only once the graph is whole, so a graph left half
        written by a failure or a kill is never current, and is computed again when next needed. The stated graph
        is not touched: its generation and stamp stay as they are."""
        self._writable()
        _graph_names((graph,))
        name = ox.NamedNode(graph)
        generation, token = self._generation, self.stamp
        self._forget_derived(graph)
        count = [0]
        linked: list[tuple[str, str, str]] = []

        def chunks() -> Iterator[bytes]:
            lines: list[str] = []
            for s, p, o in triples:
                if s.startswith("_:") or o.startswith("_:"):
                    linked.append((s, p, o))  # a blank node keeps its label only through extend (below)
                    continue
                lines.append(f"{s} {p} {o} .\n")
                count[0] += 1
                if len(lines) >= 4096:
                    yield "".join(lines).encode("utf-8")
                    lines = []
            if lines:
                yield "".join(lines).encode("utf-8")

        try:
            with _engine_errors("writing a derived graph"):
                self._s.remove_graph(name)
                reader = _ChunkReader(chunks())
                try:
                    self._s.load(io.BufferedReader(reader, _READ_BUFFER), format=ox.RdfFormat.N_TRIPLES, to_graph=name)
                except BaseException as exc:
                    if reader.error is not None:
                        raise reader.error from None
                    if isinstance(exc, (SyntaxError, ValueError)):
                        raise StoreError(f"a derived triple could not be written: {exc}") from exc
                    raise
                if linked:
                    self._s.extend(_with_blank_nodes(linked, name))
                    count[0] += len(linked)
        finally:
            self._derived_changed()
        if self._generation == generation:  # no write of the stated graph came in meanwhile
            self._derived[graph] = (generation, version)
            if self.path is not None and token is not None and token == self.stamp:
                with self._stamp_lock:
                    records = _read_derived(self.path)
                    records[graph] = {"stamp": token, "version": version}
                    _write_derived(self.path, records)
        return count[0]

    def drop_derived(self, graph: str) -> None:
        self._writable()
        self._forget_derived(graph)
        with _engine_errors("removing a derived graph"):
            self._s.remove_graph(ox.NamedNode(graph))
        self._derived_changed()

    def in_derived(self, graphs: Sequence[str], triples: Sequence[tuple[Node, Node, Node]]) -> list[bool]:
        """Each triple looked up in the derived ``graphs`` (blank nodes by label: ``extend`` kept them)."""
        names = [ox.NamedNode(g) for g in _graph_names(graphs)]
        seen: dict[Node, Any] = {}

        def term(node: Node) -> Any:
            found = seen.get(node)
            if found is None:
                found = seen[node] = to_oxigraph(node)
            return found

        out: list[bool] = []
        for s, p, o in triples:
            try:
                terms = (term(s), term(p), term(o))
            except (TypeError, ValueError):
                out.append(False)
                continue
            out.append(any(ox.Quad(*terms, g) in self._s for g in names))
        return out

    def _forget_derived(self, graph: str) -> None:
        """Take the graph's record away before it is changed (on disk: synced before the graph is touched)."""
        self._derived.pop(graph, None)
        if self.path is not None:
            with self._stamp_lock:
                records = _read_derived(self.path)
                if graph in records:
                    del records[graph]
                    _write_derived(self.path, records)

    def _derived_changed(self) -> None:
        self._derived_version += 1
        self._drop_workers()

    def _in_worker(self, request: Request, timeout: float, untrusted: bool = False) -> Any:
        """Run one request in the lane's query worker, starting one (a snapshot of the store as it is now) if
        needed. A new worker that does not start is replaced once (the query was not run): a fork that landed
        while another thread held a lock hangs, and the next fork, at another moment, does not."""
        lane = self._lanes[untrusted]
        started = time.monotonic()
        limit, timeout = timeout, min(timeout, _LONGEST_WAIT_S)
        if not lane.lock.acquire(timeout=timeout):
            raise QueryTimeout(
                f"query stopped: another query held the worker for the whole time limit of {limit:g} s", limit=limit
            )
        try:
            if lane.worker is not None and lane.generation != self._snapshot:
                lane.worker.close(wait=False)  # forked before a write that could not drop it (it was busy)
                lane.worker = None
            restarts = 1
            while True:
                if lane.worker is None:
                    store = self._s
                    lane.generation = self._snapshot
                    lane.worker = QueryWorker(
                        functools.partial(_execute, store), functools.partial(_probe, store, yielding=untrusted)
                    )
                worker = lane.worker
                attempt = time.monotonic()
                try:
                    return worker.call(request, max(0.0, timeout - (attempt - started)), limit=limit)
                except WorkerDidNotStart:
                    lane.worker = None  # it was killed before the query was sent
                    if restarts == 0:
                        raise
                    restarts -= 1
                    started += time.monotonic() - attempt  # a start has its own allowance, not the query's time
                except (QueryTimeout, StoreError):
                    lane.worker = None  # it killed itself; the next timed query forks a fresh one
                    raise
                except QueryError:
                    raise  # a bad query: the worker answered and keeps serving
                except BaseException:
                    # interrupted between request and reply (Ctrl-C, a signal handler's exception): a reply may
                    # be left in the pipe, and the next query must not read it as its own
                    worker.close(wait=False)
                    lane.worker = None
                    raise
        finally:
            if lane.worker is not None and lane.generation != self._snapshot:
                lane.worker.close(wait=False)  # a write came while it ran: its snapshot holds old data
                lane.worker = None
            lane.lock.release()

    @property
    def _snapshot(self) -> tuple[int, int]:
        """What a query worker's copy of the store must match: the write generation and the derived graphs'
        version."""
        return (self._generation, self._derived_version)

    def _written(self, *, wait: bool = False) -> None:
        """Drop the query workers after a write: their snapshots are stale. Every write method calls this. A
        worker is killed now and reaped in the background, unless another thread's timed query is using it: then
        the write does not wait for that query (up to its whole time limit), and the next timed query, seeing the
        worker's generation behind the store's, replaces it. Closing the store (``wait``) waits and reaps."""
        self._bump()
        self._drop_workers(wait=wait)

    def _drop_workers(self, *, wait: bool = False) -> None:
        for lane in self._lanes.values():
            if not lane.lock.acquire(blocking=wait):
                continue
            try:
                if lane.worker is not None:
                    lane.worker.close(wait=wait)
                    lane.worker = None
            finally:
                lane.lock.release()

    def add_ntriples(self, data: str) -> None:
        self._load(data.encode("utf-8"), ox.RdfFormat.N_TRIPLES)

    def add_ntriples_stream(self, chunks: Iterable[bytes], *, before_commit: Callable[[], None] | None = None) -> None:
        """Add N-Triples read from ``chunks`` in one ``Store.load``: one transaction, all or nothing.

        pyoxigraph reads the chunks through a file-like object as it parses, so the batch never exists in
        memory as one document. Into an empty on-disk store the chunks go through ``bulk_load`` instead (see
        :meth:`_bulk_load`: same all-or-nothing outcome, a sixth of the memory). A syntax error in any chunk, or an exception raised by the iterator itself
        (a loader that finds a bad row late raises it there), aborts the transaction: the store keeps exactly
        what it held, in memory and on disk. The iterator's own exception is re-raised unchanged.

        ``before_commit`` is called once every chunk has been read, before the write is kept (in a transaction:
        after the last chunk, before the commit; in a bulk load: once its files are written, before its marker
        goes); an exception from it undoes the write and is re-raised unchanged.
        """
        with self._changing():
            counted = self._add_stream(chunks, before_commit)
        before = self._generation
        self._written()
        if counted is not None and self._generation == before + 1:  # no other write came in meanwhile
            self._length = (self._generation, counted)

    def _add_stream(self, chunks: Iterable[bytes], before_commit: Callable[[], None] | None) -> int | None:
        """Returns the store's size when a bulk load counted it."""
        verdict = _Verdict(before_commit)
        bulk = self.path is not None and self._is_empty()
        reader = _ChunkReader(chunks, at_end=None if bulk else verdict)
        try:
            # buffered: pyoxigraph reads ~2 KB at a time, the buffer calls back into Python once per 64 KB
            stream = io.BufferedReader(reader, _READ_BUFFER)
            if bulk:
                return self._bulk_load(stream, verdict)
            self._s.load(stream, format=ox.RdfFormat.N_TRIPLES, to_graph=ox.DefaultGraph())
            return None
        except BaseException as exc:
            if reader.error is not None:
                raise reader.error from None
            if verdict.error is not None:
                raise verdict.error from None
            if isinstance(exc, SyntaxError):
                raise RDFSyntaxError(f"RDF syntax error: {exc}") from exc
            if isinstance(exc, (OSError, ValueError)):
                raise StoreError(f"write failed, nothing was written: {exc}") from exc
            raise

    def _is_empty(self) -> bool:
        return next(iter(self._s.quads_for_pattern(None, None, None)), None) is None

    def _bulk_load(self, stream: io.BufferedReader[_ChunkReader], verdict: _Verdict) -> int:
        """Fill an EMPTY on-disk store with ``bulk_load`` and compact it, all or nothing; returns the number of
        triples it then holds, counted in a thread while the compaction runs (a load reports what it added, and
        at 10M transfers the count alone is 16-43 s of one core, and a compaction can take minutes).

        A transactional load into an on-disk store keeps the whole transaction in memory (about 10 GB for
        12M triples); ``bulk_load`` writes sorted files as it goes (1.7 GB peak for the same) but is not one
        transaction. Because the store was empty, "nothing" is easy to restore: a marker file says a bulk load
        is under way; a failure clears the store, and a store opened with the marker still there (the process
        was killed) is cleared on open. The marker is removed only once the data is flushed.
        """
        assert self.path is not None
        marker = self.path / BULK_MARKER
        with open(marker, "w", encoding="utf-8") as f:
            f.write("a bulk load into this empty store did not finish; the store is cleared when opened\n")
            f.flush()
            os.fsync(f.fileno())
        try:
            started = time.perf_counter()
            self._s.bulk_load(stream, format=ox.RdfFormat.N_TRIPLES, to_graph=ox.DefaultGraph())
            self._s.flush()
            loaded = time.perf_counter()
            counted: list[int] = []
            counting = threading.Thread(target=lambda: counted.append(len(self._s)), name="ont-count", daemon=True)
            counting.start()
            try:
                self._compact()  # queries right after a bulk load are slow until the files are compacted
            finally:
                counting.join()  # also before a failed load is undone: no count runs beside the clearing
            log.info(
                "bulk load into %s: %.1f s reading and writing, %.1f s compacting (and counting beside)",
                self.path,
                loaded - started,
                time.perf_counter() - loaded,
            )
            if not counted:
                raise StoreError(f"could not count the triples of {self.path} after its bulk load")
            verdict()
        except BaseException:
            self._undo_bulk_load()
            raise
        marker.unlink()
        return counted[0]

    def _undo_bulk_load(self) -> None:
        """Empty a store whose bulk load failed or was interrupted (it was empty before), then drop the marker."""
        assert self.path is not None
        log.warning("clearing %s: a bulk load into it did not finish", self.path)
        self._s.clear()
        self._s.flush()
        self._written()  # a worker forked meanwhile saw part of the load
        (self.path / BULK_MARKER).unlink(missing_ok=True)

    def _load(self, data: bytes, fmt: ox.RdfFormat) -> None:
        self._writable()
        refuse_dtd(data)
        with self._changing():
            try:
                self._s.load(data, format=fmt, to_graph=ox.DefaultGraph())
            except SyntaxError as exc:
                raise RDFSyntaxError(f"RDF syntax error: {exc}") from exc
            except (OSError, ValueError) as exc:
                raise StoreError(f"write failed, nothing was written: {exc}") from exc
        self._written()

    def update(self, sparql_update: str) -> None:
        with self._changing():
            try:
                self._s.update(sparql_update)
            except SyntaxError as exc:
                raise QueryError(f"SPARQL update syntax error: {exc}") from exc
            except (OSError, ValueError, RuntimeError) as exc:
                raise StoreError(f"update failed, nothing was written: {exc}") from exc
        self._written()

    def dump(self, fmt: RdfFormat = RdfFormat.NTRIPLES) -> bytes:
        if fmt in _FORMATS:
            prefixes = TURTLE_PREFIXES if fmt is RdfFormat.TURTLE else None
            with _engine_errors("dump"):
                out = self._s.dump(format=_FORMATS[fmt], from_graph=ox.DefaultGraph(), prefixes=prefixes)
            assert out is not None  # pyoxigraph returns bytes when no output is given
            return out
        with _engine_errors("dump"):
            nt = self._s.dump(format=ox.RdfFormat.N_TRIPLES, from_graph=ox.DefaultGraph()) or b""
        return convert(nt, RdfFormat.NTRIPLES, fmt)

    def load_rdf(self, data: bytes, fmt: RdfFormat) -> None:
        if fmt in _FORMATS:
            self._load(data, _FORMATS[fmt])
            return
        refuse_dtd(data)
        self._load(convert(data, fmt, RdfFormat.NTRIPLES), ox.RdfFormat.N_TRIPLES)

    def __len__(self) -> int:
        """The number of triples (only the default graph is ever written, so the quad count). Counting walks
        every quad (~4 s per 10M triples on disk), so the count is kept with the write generation it was taken
        at: no write goes past this object (on disk, it holds the store's lock; read-only, it sees the store as
        opened), so the same generation means the same count."""
        generation = self._generation  # read before counting: a write during the count makes it stale at once
        kept = self._length
        if kept is not None and kept[0] == generation:
            return kept[1]
        count = len(self._s)
        if next(iter(self._s.named_graphs()), None) is not None:  # derived graphs are not the store's graph
            result = _query(self._s, "SELECT (COUNT(*) AS ?n) WHERE { GRAPH ?g { ?s ?p ?o } }")
            assert isinstance(result, ox.QuerySolutions)
            count -= int(next(iter(result))[0].value)
        self._length = (generation, count)
        return count

    def clear(self) -> None:
        with self._changing():
            try:
                for graph in list(self._derived):
                    self._forget_derived(graph)
                if self.path is not None:
                    with self._stamp_lock:
                        _write_derived(self.path, {})
                with _engine_errors("clear"):
                    self._s.clear()  # the derived graphs too: they were computed from what is removed
            finally:
                self._written()  # a failed clear may have removed part of the data: the worker's snapshot is stale

    def optimize(self) -> None:
        """Compact an on-disk store; queries right after a large load are faster once this has run."""
        if self.path is not None:
            self._writable()
            with _engine_errors("optimize"):
                self._compact()

    def _compact(self) -> None:
        """Compact until a pass leaves the sorted tables as they were (at most a few passes).

        Once, a 10M-transfer store whose load had compacted it once was compacted again by a later process for
        153 s (278 table files to 178). A reproduction did not show that: the engine's own bulk load of the same
        123M triples left 500 table files, its ``flush()`` waited 220 s while the engine compacted in the
        background (writes stop at 36 level-0 files), and ``optimize()`` then found nothing to do, in the same
        process and in a later one (274 files). So a second pass is rarely needed; the store's table files are
        compared before and after each pass, and a pass that changed them is followed by another (one directory
        listing a pass, bounded). See docs/performance.md, "Compaction after a 10M load"."""
        assert self.path is not None
        for _ in range(_COMPACTION_PASSES):
            before = _tables(self.path)
            self._s.optimize()
            if _tables(self.path) == before:
                return

    def close(self) -> None:
        """Stop the query worker, flush an on-disk store and release it. Idempotent.

        Only a close that gets this far is clean: the marker that says the store is open is removed last, after
        the flush, so that a process killed before that is reported at the next open.
        """
        self._written(wait=True)
        if self._store is not None and self.read_only:
            self._store = None  # nothing to flush, and the open marker is the writer's
            return
        if self._store is not None:
            release = self._release.detach() if self._release is not None else None
            if release is not None:  # on disk and not released yet
                with _engine_errors("close"):
                    _release(*release[2])
            self._store = None  # in memory: dropped with its data


@dataclasses.dataclass
class _Held:
    """The part of an on-disk store's state that closing it needs (the stamp's token, the writes under way, the
    engine), kept apart from the store object so that the store can be closed after that object is gone."""

    token: str | None = None
    writes: int = 0
    store: ox.Store | None = None
    """The engine's store: its only reference, so that dropping it here closes the engine."""


def _release(path: Path, held: _Held, lock: threading.Lock, pid: int) -> None:
    """Flush an on-disk store, close the engine, and record that it was closed cleanly: the stamp with the
    files as the engine left them once closed (closing may still change them; the next open compares them
    before opening), then the open marker removed, last, so that a process killed before that is reported at
    the next open."""
    if os.getpid() != pid:
        return  # a forked child never closes its parent's store
    store, held.store = held.store, None
    if store is None:
        return
    try:
        store.flush()
    finally:
        del store  # the last reference: the engine closes here
    with contextlib.suppress(OSError):  # the folder may be gone; the store is closed all the same
        with lock:
            if not held.writes and held.token is not None:
                stamps.write(path, stamps.Stamp(held.token, "clean", stamps.data_files(path)), sync=True)
        (path / OPEN_MARKER).unlink()


_READ_ONLY_OPENS = 5


def _open_read_only_engine(path: Path) -> ox.Store:
    """Open the engine read-only, again if a live writer compacted the store while it was being opened.

    Opening reads the list of table files, then opens them; a writer that finishes a compaction in between
    has deleted a listed file and the engine reports corruption (``No such file or directory``), though
    nothing on disk is wrong. A new open reads the new list, so the open is tried up to five times; other
    errors, and a store that keeps failing (files really missing), are a :class:`StoreError` with the engine's
    message."""
    for attempt in range(_READ_ONLY_OPENS):
        try:
            return ox.Store.read_only(str(path))
        except (OSError, RuntimeError) as exc:
            moved = "No such file or directory" in str(exc)
            if not moved or attempt + 1 == _READ_ONLY_OPENS:
                hint = f" (tried {_READ_ONLY_OPENS} times: a file it listed was gone each time)" if moved else ""
                raise StoreError(f"cannot open the store at {path} read-only: {exc}{hint}") from exc
    raise AssertionError("unreachable")


def _release_quietly(*args: Any) -> None:
    """:func:`_release` for an on-disk store nobody closed, when it is collected or the interpreter ends.

    Such a store used to be found "left open by a dead process" at its next open: recovered, and every index
    kept beside it (names, transfers) distrusted and rebuilt, minutes at 10M transfers, only because a program
    did not call ``close``. A failure here is left to the next open to see."""
    with contextlib.suppress(Exception):
        _release(*args)


# -- what a killed process leaves behind -------------------------------------------------------------------


def _remove_bulk_leftovers(path: Path) -> None:
    """Remove the sorted files of a bulk load that was killed before RocksDB took them in (a finished or failed
    bulk load leaves none). Only called while this process holds the store's lock."""
    removed, size = 0, 0
    for entry in path.iterdir():
        if BULK_FILE.fullmatch(entry.name) and entry.is_file() and not entry.is_symlink():
            try:
                size += entry.stat().st_size
                entry.unlink()
                removed += 1
            except OSError as exc:
                log.warning("could not remove %s, left by an interrupted bulk load: %s", entry, exc)
    if removed:
        log.warning("removed %d file(s) (%.1f MB) left in %s by an interrupted bulk load", removed, size / 1e6, path)


def _write_open_marker(path: Path) -> None:
    try:
        (path / OPEN_MARKER).write_text(
            f"{os.getpid()} {_process_start(os.getpid()) or '-'}\n"
            "this store is open (pid, start time); the file is removed when it is closed cleanly\n",
            encoding="utf-8",
        )
    except OSError as exc:  # the store itself opened, so this is unlikely; it only costs the warning
        log.debug("cannot write %s: %s", path / OPEN_MARKER, exc)


def _left_open_by_a_dead_process(path: Path) -> bool:
    """Whether ``path`` holds an open marker whose process is gone. A marker of a live process means the store
    is in use (the open will fail on its lock), not that it needs recovering."""
    try:
        first = (path / OPEN_MARKER).read_text(encoding="utf-8").split("\n", 1)[0].split()
    except FileNotFoundError:
        return False
    except (OSError, UnicodeDecodeError):
        return True
    try:
        pid = int(first[0])
    except (IndexError, ValueError):
        return True
    recorded = first[1] if len(first) > 1 else "-"
    return not _alive(pid, recorded)


def _alive(pid: int, start: str) -> bool:
    """Whether process ``pid`` runs and, where /proc tells start times, is the one that started at ``start``
    (not a later process that was given the same pid)."""
    if pid == os.getpid():
        return True
    if Path("/proc/self/stat").exists():
        now = _process_start(pid)
        return now is not None and (start == "-" or now == start)
    try:
        os.kill(pid, 0)
    except ProcessLookupError:
        return False
    except OSError:
        return True  # exists, owned by someone else
    return True


def _process_start(pid: int) -> str | None:
    """The start time of a live process from /proc (clock ticks since boot), or ``None`` (gone, a zombie, or no
    /proc)."""
    try:
        fields = Path(f"/proc/{pid}/stat").read_text(encoding="utf-8", errors="replace").rsplit(")", 1)[1].split()
    except (OSError, IndexError):
        return None
    if len(fields) < 20 or fields[0] in ("Z", "X"):
        return None
    return fields[19]


# -- reading, here or in the query worker ------------------------------------------------------------------


class _Verdict:
    """A write's ``before_commit`` check, called at most once; its exception is kept in ``error`` (so the caller
    can re-raise it as it was, not as the engine wrapped it) and raised."""

    def __init__(self, check: Callable[[], None] | None) -> None:
        self._check = check
        self.error: BaseException | None = None

    def __call__(self) -> None:
        check, self._check = self._check, None
        if check is None:
            return
        try:
            check()
        except BaseException as exc:
            self.error = exc
            raise


class _ChunkReader(io.RawIOBase):
    """A read-only binary stream over an iterator of ``bytes`` chunks, for ``Store.load``.

    pyoxigraph asks for about 2 KB at a time; a chunk is served from a memoryview without copying the rest.
    An exception from the iterator is kept in ``error`` (so the caller can re-raise it as it was) and raised.
    ``at_end`` runs when the iterator is exhausted, before the end of the stream is reported.
    """

    def __init__(self, chunks: Iterable[bytes], at_end: Callable[[], None] | None = None) -> None:
        self._at_end = at_end
        self._chunks: Iterator[bytes] = iter(chunks)
        self._view = memoryview(b"")
        self._pos = 0
        self.error: BaseException | None = None

    def readable(self) -> bool:
        return True

    def readinto(self, buffer: Any) -> int:
        while self._pos >= len(self._view):
            try:
                chunk = next(self._chunks)
            except StopIteration:
                if self._at_end is not None:
                    at_end, self._at_end = self._at_end, None
                    at_end()  # a _Verdict keeps its own exception
                return 0
            except BaseException as exc:
                self.error = exc
                raise
            if not isinstance(chunk, bytes | bytearray | memoryview):
                self.error = InputError(f"N-Triples chunks must be bytes, got {type(chunk).__name__}")
                raise self.error
            self._view, self._pos = memoryview(chunk), 0
        n = min(len(buffer), len(self._view) - self._pos)
        buffer[:n] = self._view[self._pos : self._pos + n]
        self._pos += n
        return n


@contextlib.contextmanager
def _engine_errors(what: str) -> Iterator[None]:
    """The engine's I/O errors (disk full, a store folder removed underneath) as :class:`StoreError`."""
    try:
        yield
    except OSError as exc:
        raise StoreError(f"{what} failed: {exc}") from exc


def _query(store: ox.Store, query: str, graphs: tuple[str, ...] = ()) -> object:
    try:
        if graphs:
            default: list[ox.NamedNode | ox.BlankNode | ox.DefaultGraph] = [
                ox.DefaultGraph(),
                *map(ox.NamedNode, graphs),
            ]
            return store.query(query, default_graph=default)
        return store.query(query)
    except SyntaxError as exc:
        raise QueryError(f"SPARQL syntax error: {exc}") from exc
    except (OSError, RuntimeError, ValueError) as exc:
        raise QueryError(f"query failed: {exc}") from exc


def _solutions(
    store: ox.Store, query: str, max_rows: int | None, convert: Callable[[Any], Any], graphs: tuple[str, ...] = ()
) -> tuple[list[str], list[tuple[Any, ...]], bool]:
    """Variable names, at most ``max_rows`` solutions (terms passed through ``convert``), and whether more
    were left unread. Solutions are read lazily, so the cap also bounds memory. ``graphs``: derived graphs read
    together with the stated one."""
    result = _query(store, query, graphs)
    if not isinstance(result, ox.QuerySolutions):
        raise QueryError("not a SELECT query")
    names = [v.value for v in result.variables]
    rows: list[tuple[Any, ...]] = []
    try:
        for solution in result:
            if max_rows is not None and len(rows) >= max_rows:
                return names, rows, True
            rows.append(tuple(map(convert, solution)))  # a solution iterates its terms in variable order
    except (OSError, RuntimeError, ValueError) as exc:
        raise QueryError(f"query failed: {exc}") from exc
    return names, rows, False


def _nt(term: Any) -> str | None:
    return None if term is None else str(term)


def _boolean(store: ox.Store, query: str, graphs: tuple[str, ...] = ()) -> bool:
    result = _query(store, query, graphs)
    if not isinstance(result, ox.QueryBoolean):
        raise QueryError("not an ASK query")
    return bool(result)


def _execute(store: ox.Store, query: str, form: Form, max_rows: int | None, graphs: tuple[str, ...] = ()) -> object:
    """One request in the query worker; terms travel back as plain tuples."""
    if form == "ASK":
        return _boolean(store, query, graphs)
    return _solutions(store, query, max_rows, parts_from_oxigraph, graphs)


def _probe(store: ox.Store, *, yielding: bool = False) -> None:
    """The worker's first act. A worker for callers' queries (``yielding``) then lowers its CPU priority: on a
    machine with few cores a caller's slow query takes what the library's questions leave, not half. The probe
    itself runs first, at the parent's priority: a lowered child on a busy machine could miss the start-up
    limit and be reported as not starting."""
    store.query("ASK { ?s ?p ?o }")
    if yielding:
        lower_priority()


def _in_process(timeout: float | None) -> bool:
    """Whether a read runs in this process: no time limit asked for, or no fork on this platform."""
    if timeout is None:
        return True
    if isinstance(timeout, bool) or not isinstance(timeout, (int, float)) or not math.isfinite(timeout) or timeout <= 0:
        raise InputError(f"timeout must be a positive number of seconds or None, not {timeout!r}")
    return not FORK_AVAILABLE


_COMPACTION_PASSES = 4
_DISK_READERS = 4
"""Threads worth splitting one bound read of an on-disk store over (see ``read_parallelism``)."""


def _tables(folder: Path) -> frozenset[str]:
    """The names of the engine's sorted table files in ``folder``."""
    try:
        return frozenset(e.name for e in os.scandir(folder) if e.name.endswith(".sst"))
    except OSError:
        return frozenset()


# -- derived graphs ----------------------------------------------------------------------------------------

DERIVED_FILE = "ont-derived.json"
"""File in an on-disk store's folder naming, for each derived graph, the stamp of the stated data it was computed
from and the version of the code that computed it (see ``OxigraphStore.replace_derived``)."""

_PLACEHOLDER = "urn:ont-platform:blank:"


def _graph_names(graphs: Sequence[str]) -> tuple[str, ...]:
    """The graph IRIs, checked: a derived graph is named by the library, never by a caller's text."""
    out = tuple(graphs)
    for g in out:
        if not isinstance(g, str) or not re.fullmatch(r"[A-Za-z][A-Za-z0-9+.\-]*:[^\s<>\"{}|^`\\]*", g):
            raise InputError(f"not the IRI of a derived graph: {g!r}")
    return out


def _with_blank_nodes(triples: list[tuple[str, str, str]], graph: ox.NamedNode) -> list[ox.Quad]:
    """Quads of N-Triples terms whose blank nodes keep their labels (``load`` would give them new ones): each
    blank node is parsed as a placeholder IRI and put back as ``BlankNode(label)``."""

    def placeholder(term: str) -> str:
        return f"<{_PLACEHOLDER}{term[2:]}>" if term.startswith("_:") else term

    text = "".join(f"{placeholder(s)} {p} {placeholder(o)} .\n" for s, p, o in triples)

    def back(term: Any) -> Any:
        if isinstance(term, ox.NamedNode) and term.value.startswith(_PLACEHOLDER):
            return ox.BlankNode(term.value[len(_PLACEHOLDER) :])
        return term

    try:
        parsed = list(ox.parse(text.encode("utf-8"), format=ox.RdfFormat.N_TRIPLES))
    except SyntaxError as exc:
        raise StoreError(f"a derived triple is not valid N-Triples: {exc}") from exc
    return [ox.Quad(back(t.subject), t.predicate, back(t.object), graph) for t in parsed]


def _read_derived(folder: Path) -> dict[str, dict[str, str]]:
    try:
        data = json.loads((folder / DERIVED_FILE).read_text(encoding="utf-8"))
    except (OSError, ValueError):
        return {}
    if not isinstance(data, dict):
        return {}
    return {k: v for k, v in data.items() if isinstance(k, str) and isinstance(v, dict)}


def _write_derived(folder: Path, records: dict[str, dict[str, str]]) -> None:
    """Replace the record file atomically (written aside, synced, renamed)."""
    target = folder / DERIVED_FILE
    aside = folder / f"{DERIVED_FILE}.tmp"
    try:
        with open(aside, "w", encoding="utf-8") as f:
            json.dump(records, f, sort_keys=True)
            f.flush()
            os.fsync(f.fileno())
        os.replace(aside, target)
    except OSError as exc:
        raise StoreError(f"cannot record the derived graphs in {folder}: {exc}") from exc
