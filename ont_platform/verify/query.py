"""Running an answer's ``generated_query``: untrusted text, inspected before it runs, run with a time limit.

The text comes from whoever wrote the answer (an external LLM, a person), so it is treated like any other
hostile input:

1. **Inspected** with rdflib's SPARQL parser (pyoxigraph exposes none). Refused before anything runs: text that
   does not parse, updates (``INSERT``, ``DELETE``, ``LOAD``, ``DROP``...), anything but ``SELECT`` and ``ASK``,
   ``SERVICE``, ``FROM``/``FROM NAMED``, ``GRAPH`` (the data lives in the default graph), unbounded property
   paths (``p*``, ``p+``), and ``\\u`` escapes (which parsers apply differently, so what was inspected might not
   be what runs).
2. **Run** in a worker with a time limit and a row cap. ``isolation="thread"`` runs it in a daemon thread of this
   process (pyoxigraph releases the GIL, so waiting works); a query that runs out of time is abandoned, asked to
   stop at its next row, and no new query starts while two abandoned ones are still running.
   ``isolation="process"`` runs it in a child process holding a copy of the graph, killed when it runs out of
   time: the choice for a long-running service that verifies answers from strangers.
"""

from __future__ import annotations

import json
import os
import queue
import re
import subprocess
import sys
import tempfile
import threading
from collections.abc import Container, Iterator
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, Literal, Self
from urllib.parse import unquote

from rdflib import BNode, URIRef
from rdflib import Literal as RDFLiteral
from rdflib.term import Node

from ont_platform.errors import QueryError, QueryRefused
from ont_platform.namespaces import ID
from ont_platform.storage import RdfFormat, Store

Isolation = Literal["thread", "process"]
MAX_QUERY_CHARS = 100_000
MAX_ABANDONED = 2
"""Queries that ran out of time and may still be running in this process, at most (across all runners)."""
_abandoned: list[threading.Thread] = []
_abandoned_lock = threading.Lock()
_ESCAPE = re.compile(r"\\[uU]")


@dataclass(frozen=True)
class InspectedQuery:
    """A query that passed inspection: its form and the IRIs and literals written in it."""

    text: str
    form: Literal["SELECT", "ASK"]
    constants: frozenset[Node]


@dataclass
class QueryOutcome:
    """What a query returned: the rows (at most the cap) or the boolean, and whether rows were cut off."""

    form: str
    rows: list[dict[str, Node | None]] = field(default_factory=list)
    boolean: bool | None = None
    truncated: bool = False


def _walk(value: object) -> Iterator[object]:
    """Every value inside a parse tree or algebra (dicts, lists, pyparsing results), depth first."""
    stack = [value]
    while stack:
        item = stack.pop()
        yield item
        if isinstance(item, dict):
            stack.extend(item.values())
        elif isinstance(item, (list, tuple, set, frozenset)):
            stack.extend(item)
        elif type(item).__name__ == "ParseResults":
            stack.extend(list(item))  # type: ignore[call-overload]


def inspect_query(text: object) -> InspectedQuery:
    """Parse ``text`` and refuse what must never run (see the module documentation).

    Raises :class:`QueryRefused` with the reason.
    """
    from rdflib.plugins.sparql.algebra import translateQuery
    from rdflib.plugins.sparql.parser import parseQuery, parseUpdate
    from rdflib.plugins.sparql.parserutils import CompValue

    if not isinstance(text, str) or not text.strip():
        raise QueryRefused("no query text")
    if len(text) > MAX_QUERY_CHARS:
        raise QueryRefused(f"query is {len(text)} characters, over the limit of {MAX_QUERY_CHARS}")
    if _ESCAPE.search(text):
        raise QueryRefused("\\u escapes are refused: parsers apply them differently")
    try:
        parsed = parseQuery(text)
    except Exception as exc:
        try:
            parseUpdate(text)
        except Exception:  # noqa: BLE001 - pyparsing and rdflib raise many unrelated types
            raise QueryRefused(f"not a SPARQL query that can be checked: {str(exc)[:200]}") from exc
        raise QueryRefused("a SPARQL update; only SELECT and ASK queries are run") from exc
    form_node = parsed[1]
    name = getattr(form_node, "name", "")
    if name not in ("SelectQuery", "AskQuery"):
        raise QueryRefused(f"a {name.removesuffix('Query').upper() or 'non-query'} query; only SELECT and ASK are run")
    for node in _walk(parsed):
        if not isinstance(node, CompValue):
            continue
        keys = dict.keys(node)
        if node.name == "ServiceGraphPattern":
            raise QueryRefused("SERVICE is refused: a query must not reach other endpoints")
        if node.name == "GraphGraphPattern":
            raise QueryRefused("GRAPH is refused: the data is in the default graph")
        if node.name == "DatasetClause" or ("datasetClause" in keys and dict.__getitem__(node, "datasetClause")):
            raise QueryRefused("FROM / FROM NAMED is refused: a query runs on the loaded graph only")
        if node.name == "PathElt" and "mod" in keys and dict.__getitem__(node, "mod") in ("*", "+"):
            mod = dict.__getitem__(node, "mod")
            raise QueryRefused(f"unbounded property path ({mod}) is refused; write bounded steps (p/p?/p?)")
    try:
        algebra = translateQuery(parsed).algebra
    except Exception as exc:
        raise QueryRefused(f"query cannot be translated: {str(exc)[:200]}") from exc
    constants = frozenset(v for v in _walk(algebra) if isinstance(v, (URIRef, RDFLiteral)))
    return InspectedQuery(text, "SELECT" if name == "SelectQuery" else "ASK", constants)


def node_ids(terms: object, domain: str, known: Container[str]) -> set[str]:
    """Ids of the domain's entity nodes among ``terms``: node IRIs, and literals equal to a known node id."""
    prefix = f"{ID}{domain}/node/"
    out: set[str] = set()
    for t in _walk(terms):
        if isinstance(t, URIRef):
            if str(t).startswith(prefix):
                out.add(unquote(str(t)[len(prefix):]))
        elif isinstance(t, RDFLiteral) and str(t) in known:
            out.add(str(t))
    return out


# -- running ---------------------------------------------------------------------------------------------------


def abandoned_queries() -> int:
    """How many queries that ran out of time are still running in threads of this process."""
    with _abandoned_lock:
        _abandoned[:] = [t for t in _abandoned if t.is_alive()]
        return len(_abandoned)


def _encode(term: object) -> list[str | None] | None:
    """A pyoxigraph or rdflib term as ``[kind, value, datatype, language]``."""
    if term is None:
        return None
    if isinstance(term, RDFLiteral):
        return ["lit", str(term), str(term.datatype) if term.datatype else None, term.language]
    kind = type(term).__name__
    if kind in ("NamedNode", "URIRef"):
        return ["iri", str(getattr(term, "value", term)), None, None]
    if kind in ("BlankNode", "BNode"):
        return ["bnode", str(getattr(term, "value", term)), None, None]
    if kind == "Literal":
        value = str(getattr(term, "value", term))
        dtype = getattr(term, "datatype", None)
        lang = getattr(term, "language", None)
        dvalue = getattr(dtype, "value", dtype)
        return ["lit", value, str(dvalue) if dvalue is not None else None, str(lang) if lang else None]
    return ["lit", str(term), None, None]


def _decode(item: list[str | None] | None) -> Node | None:
    if item is None:
        return None
    kind, value, dtype, lang = item
    if kind == "iri":
        return URIRef(str(value))
    if kind == "bnode":
        return BNode(str(value))
    return RDFLiteral(str(value), datatype=URIRef(dtype) if dtype and not lang else None, lang=lang or None)


class QueryRunner:
    """Runs inspected queries on one store, each with a time limit and a row cap.

    Use as a context manager (or call :meth:`close`) so a worker process, if any, is stopped.
    """

    def __init__(self, store: Store, *, timeout: float = 10.0, max_rows: int = 10_000,
                 isolation: Isolation = "thread") -> None:
        if isolation not in ("thread", "process"):
            raise ValueError(f"isolation must be 'thread' or 'process', not {isolation!r}")
        self.store = store
        self.timeout = float(timeout)
        self.max_rows = int(max_rows)
        # A remote endpoint enforces its own limits; a copy of its graph is not ours to make.
        self.isolation: Isolation = "thread" if store.backend == "remote" else isolation
        self._worker: _Worker | None = None
        self._dump: Path | None = None

    def run(self, query: InspectedQuery) -> QueryOutcome:
        """Run ``query`` (from :func:`inspect_query`); raises :class:`QueryError` on failure or time-out."""
        if self.isolation == "process":
            return self._run_process(query)
        return self._run_thread(query)

    # -- thread ----------------------------------------------------------------------------------------------

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
            raise QueryError(f"query did not finish within {self.timeout:g} s")
        if "err" in box:
            err = box["err"]
            if isinstance(err, QueryError):
                raise err
            raise QueryError(f"query failed: {type(err).__name__}: {str(err)[:300]}") from err
        return box["out"]  # type: ignore[no-any-return]

    def _execute(self, query: InspectedQuery, stop: threading.Event) -> QueryOutcome:
        inner = _engine(self.store)
        if inner is None:  # remote or unknown backend: the store's own call, with its time limit
            if query.form == "ASK":
                return QueryOutcome("ASK", boolean=self.store.ask(query.text, timeout=self.timeout))
            rows = [dict(r) for r in self.store.select(query.text, timeout=self.timeout)]
            return QueryOutcome("SELECT", rows[: self.max_rows], truncated=len(rows) > self.max_rows)
        kind, engine = inner
        if kind == "oxigraph":
            try:
                result = engine.query(query.text)
            except SyntaxError as exc:
                raise QueryError(f"SPARQL syntax error: {exc}") from exc
            except (OSError, RuntimeError, ValueError) as exc:
                raise QueryError(f"query failed: {exc}") from exc
            if query.form == "ASK":
                return QueryOutcome("ASK", boolean=bool(result))
            names = [v.value for v in result.variables]
            solutions = iter(result)
            decode = True
        else:
            try:
                result = engine.query(query.text)
            except Exception as exc:
                raise QueryError(f"query failed: {type(exc).__name__}: {str(exc)[:300]}") from exc
            if query.form == "ASK":
                return QueryOutcome("ASK", boolean=bool(result.askAnswer))
            names = [str(v) for v in (result.vars or [])]
            solutions = iter(result)
            decode = False
        out = QueryOutcome("SELECT")
        try:
            for sol in solutions:
                if stop.is_set():
                    break
                if len(out.rows) >= self.max_rows:
                    out.truncated = True
                    break
                if decode:
                    out.rows.append({n: _decode(_encode(sol[n])) for n in names})
                else:
                    out.rows.append({n: sol[i] for i, n in enumerate(names)})
        except (OSError, RuntimeError, ValueError) as exc:
            raise QueryError(f"query failed: {exc}") from exc
        return out

    # -- process ---------------------------------------------------------------------------------------------

    def _run_process(self, query: InspectedQuery) -> QueryOutcome:
        if self._worker is None:
            if self._dump is None:
                fd, name = tempfile.mkstemp(prefix="ont-verify-", suffix=".nt")
                with os.fdopen(fd, "wb") as f:
                    f.write(self.store.dump(RdfFormat.NTRIPLES))
                self._dump = Path(name)
            self._worker = _Worker(self._dump)
        try:
            reply = self._worker.ask(query.text, query.form, self.max_rows, self.timeout)
        except QueryError:
            self._worker.kill()
            self._worker = None
            raise
        if "error" in reply:
            raise QueryError(f"query failed: {reply['error']}")
        if query.form == "ASK":
            return QueryOutcome("ASK", boolean=bool(reply["boolean"]))
        names = reply["vars"]
        rows = [{n: _decode(v) for n, v in zip(names, row, strict=True)} for row in reply["rows"]]
        return QueryOutcome("SELECT", rows, truncated=bool(reply["truncated"]))

    def close(self) -> None:
        """Stop the worker process (if any) and remove the graph copy it read."""
        if self._worker is not None:
            self._worker.kill()
            self._worker = None
        if self._dump is not None:
            self._dump.unlink(missing_ok=True)
            self._dump = None

    def __enter__(self) -> Self:
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()


def _engine(store: Store) -> tuple[str, Any] | None:
    """The engine under an embedded store, for lazy row-by-row reading (so the row cap bounds memory)."""
    if store.backend == "oxigraph":
        return ("oxigraph", store._s)  # type: ignore[attr-defined]
    if store.backend == "rdflib":
        return ("rdflib", store._g)  # type: ignore[attr-defined]
    return None


class _Worker:
    """A child process with its own copy of the graph, answering one query at a time over pipes."""

    def __init__(self, dump: Path) -> None:
        script = Path(__file__).with_name("_worker.py")
        self.proc = subprocess.Popen(
            [sys.executable, "-I", str(script), str(dump)],
            stdin=subprocess.PIPE, stdout=subprocess.PIPE, stderr=subprocess.DEVNULL,
            text=True, encoding="utf-8",
        )
        self.lines: queue.Queue[str] = queue.Queue()
        threading.Thread(target=self._read, name="ont-verify-worker-reader", daemon=True).start()
        ready = self._next(120.0)
        if ready.strip() != '{"ready": true}':
            self.kill()
            raise QueryError(f"query worker did not start: {ready.strip()[:200]}")

    def _read(self) -> None:
        assert self.proc.stdout is not None
        for line in self.proc.stdout:
            self.lines.put(line)
        self.lines.put("")

    def _next(self, timeout: float) -> str:
        try:
            line = self.lines.get(timeout=timeout)
        except queue.Empty:
            raise QueryError(f"query did not finish within {timeout:g} s") from None
        if not line:
            raise QueryError("query worker stopped")
        return line

    def ask(self, text: str, form: str, cap: int, timeout: float) -> dict[str, Any]:
        assert self.proc.stdin is not None
        try:
            self.proc.stdin.write(json.dumps({"query": text, "form": form, "cap": cap}) + "\n")
            self.proc.stdin.flush()
        except OSError as exc:
            raise QueryError(f"query worker stopped: {exc}") from exc
        reply: dict[str, Any] = json.loads(self._next(timeout))
        return reply

    def kill(self) -> None:
        if self.proc.poll() is None:
            self.proc.kill()
        self.proc.wait()
        for stream in (self.proc.stdin, self.proc.stdout):
            if stream is not None:
                try:
                    stream.close()
                except OSError:
                    pass


__all__ = ["MAX_ABANDONED", "MAX_QUERY_CHARS", "InspectedQuery", "Isolation", "QueryOutcome", "QueryRunner", "abandoned_queries", "inspect_query",
           "node_ids"]
