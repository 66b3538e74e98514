"""Running an answer's ``generated_query``: untrusted text, inspected before it runs, run with a time limit.

The text comes from whoever wrote the answer (an external LLM, a person), so it is treated like any other
hostile input:

1. **Inspected** with rdflib's SPARQL parser (pyoxigraph exposes none), by the library's one query inspector
   (:func:`ont_platform.sparql.inspect.check_read_query`). Refused before anything runs: text that
   does not parse, updates (``INSERT``, ``DELETE``, ``LOAD``, ``DROP``...), anything but ``SELECT`` and ``ASK``,
   ``SERVICE``, ``FROM``/``FROM NAMED``, ``GRAPH`` (the data lives in the default graph), unbounded property
   paths (``p*``, ``p+``), and ``\\u`` escapes (which parsers apply differently, so what was inspected might not
   be what runs). rdflib's parser is pure Python and slow on purpose-built text (9.5 KB of ``FILTER(?o = 1 ||
   ...)`` takes about 2 s, 90 KB over 40 s), so with a ``timeout`` the parse runs in a worker process that is
   killed at the deadline (:class:`_Inspector`): a hostile text costs its sender the time limit, and nobody else
   anything.
2. **Run** with a time limit and a row cap, where it can be stopped (see :class:`QueryRunner`): on the embedded
   Oxigraph store in a worker process that is killed at the limit
   (:class:`~ont_platform.errors.QueryTimeout`), on a remote endpoint with the limit as HTTP timeout. Only the
   rdflib backend's engine cannot be stopped: there ``isolation="thread"`` abandons a query that runs out of
   time (asked to stop at its next row; no new query starts while two abandoned ones still run), and
   ``isolation="process"`` runs it on an Oxigraph copy of the graph instead, killable like any other.
"""

from __future__ import annotations

import threading
import time
from collections.abc import Container
from dataclasses import dataclass, field
from typing import Any, Literal, Self
from urllib.parse import unquote

from rdflib import Literal as RDFLiteral
from rdflib import URIRef
from rdflib.term import Node

from ont_platform.errors import QueryError, QueryRefused, QueryTimeout, StoreError
from ont_platform.namespaces import ID
from ont_platform.sparql.inspect import MAX_QUERY_CHARS as MAX_QUERY_CHARS  # re-exported: kg.py reads it here
from ont_platform.sparql.inspect import TriplePattern, read_query, walk
from ont_platform.storage import FORK_AVAILABLE, QueryWorker, RdfFormat, Store, lower_priority

Isolation = Literal["thread", "process"]
MAX_ABANDONED = 2
"""Queries that ran out of time and may still be running in this process, at most (across all runners)."""
_abandoned: list[threading.Thread] = []
_abandoned_lock = threading.Lock()


@dataclass(frozen=True)
class InspectedQuery:
    """A query that passed inspection: its form, the IRIs and literals written in it, and its triple patterns
    (:func:`ont_platform.sparql.inspect.triple_patterns`)."""

    text: str
    form: Literal["SELECT", "ASK"]
    constants: frozenset[Node]
    patterns: tuple[TriplePattern, ...] = ()


@dataclass
class QueryOutcome:
    """What a query returned: the rows (at most the cap) or the boolean, and whether rows were cut off."""

    form: str
    rows: list[dict[str, Node | None]] = field(default_factory=list)
    boolean: bool | None = None
    truncated: bool = False


def inspect_query(text: object, *, timeout: float | None = None) -> InspectedQuery:
    """Parse ``text`` and refuse what must never run (see the module documentation).

    With ``timeout`` (seconds) the parse runs in the inspection worker and is stopped at the limit with
    :class:`QueryTimeout`; without it, it runs in this thread, unbounded. Raises :class:`QueryRefused` with the
    reason.
    """
    if timeout is not None and isinstance(text, str) and FORK_AVAILABLE:
        return _INSPECTOR.inspect(text, timeout)
    return _inspect_here(text)


def inspection_worker_pid() -> int | None:
    """The process id of the worker that parses callers' queries with a time limit, or None when none runs (for
    tests and diagnostics: it runs at a lower priority than questions)."""
    return _INSPECTOR.pid()


def _inspect_here(text: object) -> InspectedQuery:
    form, constants, patterns = read_query(text)  # the shared inspector, rdflib's parser (sparql/inspect.py)
    assert isinstance(text, str)  # checked there
    return InspectedQuery(text, form, constants, patterns)


class _Inspector:
    """One worker process per process that parses untrusted query text, killed when a parse overruns.

    A thread cannot be interrupted in the middle of pyparsing, and holding one busy for 40 s would hold whatever
    its caller holds. The worker is forked on first use (the parser is already imported in the parent, so the
    child starts at once) and reused; parses are serialised, so hostile texts sent together use one core at
    most, and a caller waits for the worker no longer than its own time limit.
    """

    def __init__(self) -> None:
        self._lock = threading.Lock()
        self._worker: QueryWorker | None = None

    def inspect(self, text: str, timeout: float) -> InspectedQuery:
        started = time.monotonic()
        if not self._lock.acquire(timeout=timeout):
            raise QueryTimeout(
                f"query not checked: other queries kept the query checker busy for the whole time "
                f"limit of {timeout:g} s",
                limit=timeout,
            )
        try:
            if self._worker is None:
                import rdflib.plugins.sparql.algebra  # noqa: F401 - imported once here, inherited by every fork
                import rdflib.plugins.sparql.parser  # noqa: F401

                self._worker = QueryWorker(_inspect_reply, lower_priority)  # yields the CPU to questions
            left = max(0.0, timeout - (time.monotonic() - started))
            try:
                status, value = self._worker.call((text, "SELECT", None), left, limit=timeout)
            except QueryTimeout as exc:
                self._worker = None  # killed by call(); the next check forks a fresh one
                raise QueryTimeout(
                    f"query not checked: parsing it took longer than the time limit of {timeout:g} s", limit=timeout
                ) from exc
            except StoreError:
                self._worker = None
                raise
        finally:
            self._lock.release()
        if status == "refused":
            raise QueryRefused(value)
        return value  # type: ignore[no-any-return]  # an InspectedQuery, unpickled

    def close(self) -> None:
        with self._lock:
            if self._worker is not None:
                self._worker.close()
                self._worker = None

    def pid(self) -> int | None:
        worker = self._worker
        return worker.pid if worker is not None else None


def _inspect_reply(text: str, _form: str, _rows: int | None) -> tuple[str, object]:
    """The worker's side: a refusal travels as a value (the worker's error channel keeps only the message)."""
    try:
        return "ok", _inspect_here(text)
    except QueryRefused as exc:
        return "refused", str(exc)


_INSPECTOR = _Inspector()


def node_ids(terms: object, domain: str, known: Container[str]) -> set[str]:
    """Ids of the domain's entity nodes among ``terms``: node IRIs, and literals equal to a known node id."""
    prefix = f"{ID}{domain}/node/"
    out: set[str] = set()
    for t in walk(terms):
        if isinstance(t, URIRef):
            if str(t).startswith(prefix):
                out.add(unquote(str(t)[len(prefix) :]))
        elif isinstance(t, RDFLiteral) and str(t) in known:
            out.add(str(t))
    return out


# -- running ---------------------------------------------------------------------------------------------------


def abandoned_queries() -> int:
    """How many queries that ran out of time are still running in threads of this process (rdflib only)."""
    with _abandoned_lock:
        _abandoned[:] = [t for t in _abandoned if t.is_alive()]
        return len(_abandoned)


class QueryRunner:
    """Runs inspected queries on one store, each with a time limit and a row cap.

    How a query is stopped depends on the store, not on ``isolation``, wherever the store can stop it itself:
    the embedded Oxigraph store runs every timed query in a worker process it kills at the limit, and a
    remote endpoint gets the limit as its HTTP timeout. ``isolation`` matters for the rdflib backend only,
    whose pure-Python engine cannot be stopped: ``"thread"`` runs the query there in a daemon thread that is
    abandoned at the limit; ``"process"`` copies the graph once into an in-memory Oxigraph store and runs
    the query in that store's killable worker.

    Use as a context manager (or call :meth:`close`) so a copy, if any, is released.
    """

    def __init__(
        self, store: Store, *, timeout: float = 10.0, max_rows: int = 10_000, isolation: Isolation = "thread"
    ) -> None:
        if isolation not in ("thread", "process"):
            raise ValueError(f"isolation must be 'thread' or 'process', not {isolation!r}")
        self.store = store
        self.timeout = float(timeout)
        self.max_rows = int(max_rows)
        self.isolation: Isolation = isolation
        self._copy: Store | None = None

    @property
    def holds_copy(self) -> bool:
        """Whether a killable copy of an rdflib store is open (``isolation="process"``; closed with the runner)."""
        return self._copy is not None

    def run(self, query: InspectedQuery) -> QueryOutcome:
        """Run ``query`` (from :func:`inspect_query`); raises :class:`QueryError` on failure,
        :class:`~ont_platform.errors.QueryTimeout` when it runs out of time."""
        if self.store.backend != "rdflib":
            return self._run_on(self.store, query)
        if self.isolation == "process":
            return self._run_on(self._oxigraph_copy(), query)
        return self._run_thread(query)

    def _run_on(self, store: Store, query: InspectedQuery) -> QueryOutcome:
        if query.form == "ASK":
            return QueryOutcome("ASK", boolean=store.ask(query.text, timeout=self.timeout, untrusted=True))
        rows = store.select(query.text, timeout=self.timeout, max_rows=self.max_rows, untrusted=True)
        return QueryOutcome("SELECT", [dict(r) for r in rows], truncated=rows.truncated)

    def _oxigraph_copy(self) -> Store:
        if self._copy is None:
            from ont_platform.storage.oxigraph import OxigraphStore

            copy = OxigraphStore()
            copy.load_rdf(self.store.dump(RdfFormat.NTRIPLES), RdfFormat.NTRIPLES)
            self._copy = copy
        return self._copy

    # -- thread (rdflib) -------------------------------------------------------------------------------------

    def _run_thread(self, query: InspectedQuery) -> QueryOutcome:
        with _abandoned_lock:
            _abandoned[:] = [t for t in _abandoned if t.is_alive()]
            if len(_abandoned) >= MAX_ABANDONED:
                raise QueryError("earlier queries that ran out of time are still running; no new query is started")
        box: dict[str, Any] = {}
        stop = threading.Event()

        def work() -> None:
            try:
                box["out"] = self._execute(query, stop)
            except BaseException as exc:  # noqa: BLE001 - handed to the caller below
                box["err"] = exc

        worker = threading.Thread(target=work, name="ont-verify-query", daemon=True)
        worker.start()
        worker.join(self.timeout)
        if worker.is_alive():
            stop.set()
            with _abandoned_lock:
                _abandoned.append(worker)
            raise QueryTimeout(
                f"query did not finish within {self.timeout:g} s (left running in a thread: rdflib cannot stop it)",
                limit=self.timeout,
            )
        if "err" in box:
            err = box["err"]
            if isinstance(err, QueryError):
                raise err
            raise QueryError(f"query failed: {type(err).__name__}: {str(err)[:300]}") from err
        return box["out"]  # type: ignore[no-any-return]

    def _execute(self, query: InspectedQuery, stop: threading.Event) -> QueryOutcome:
        graph = self.store._g  # type: ignore[attr-defined]
        try:
            result = graph.query(query.text)
        except Exception as exc:
            raise QueryError(f"query failed: {type(exc).__name__}: {str(exc)[:300]}") from exc
        if query.form == "ASK":
            return QueryOutcome("ASK", boolean=bool(result.askAnswer))
        names = [str(v) for v in (result.vars or [])]
        out = QueryOutcome("SELECT")
        try:
            for sol in result:
                if stop.is_set():
                    break
                if len(out.rows) >= self.max_rows:
                    out.truncated = True
                    break
                out.rows.append({n: sol[i] for i, n in enumerate(names)})
        except Exception as exc:
            raise QueryError(f"query failed: {type(exc).__name__}: {str(exc)[:300]}") from exc
        return out

    def close(self) -> None:
        """Release the Oxigraph copy of an rdflib graph, if one was made. Idempotent."""
        if self._copy is not None:
            self._copy.close()
            self._copy = None

    def __enter__(self) -> Self:
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()


__all__ = [
    "MAX_ABANDONED",
    "MAX_QUERY_CHARS",
    "InspectedQuery",
    "Isolation",
    "QueryOutcome",
    "QueryRunner",
    "abandoned_queries",
    "inspect_query",
    "node_ids",
]
