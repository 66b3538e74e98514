"""What a hostile input cost, counted instead of timed.

docs/architecture.md: no test depends on timing. A stopwatch around a call measures the machine as much as the
code (a hostile-input test once failed at 3.06 s and 8.70 s against 2 s on a loaded machine), so the hostile tests
bound each input's cost by work the library did, counted here, or by a deadline the library itself enforces:

* :class:`Reads`: every read of one store, with the deadline (``timeout``) and row cap it ran under and the rows
  it gave. A read with a deadline runs in a query worker the library kills at that deadline.
* :class:`Deadlines`: every request sent to a query worker (a timed query, the inspection of a caller's query)
  and the time limit the library set for it, at which it kills the worker; and the callers' queries parsed in
  this process instead, where nothing could stop the parse.
* :class:`Steps`: Python lines executed in this thread (``sys.settrace``): the work of the code around the reads
  (reading a question, checking an answer), the same for the same input and code on any machine. Work done in
  native code (a regular expression, the tokenizer, pyoxigraph) is not counted.
* :class:`FileBytes`: bytes the dataset loader read of each file it opened.
* :class:`Parses`: each document handed to an RDF or JSON parser by ``storage/rdf_io.py``, and the rdflib terms
  built from pyoxigraph's parse.

Each meter is a context manager that puts its spies in place on entry and takes them away on exit, so it works in
Hypothesis tests as well as in plain ones. The spies record, and pass every call on to the real function, except
where a test sets a limit: over a :class:`Steps` budget, or at a parser :class:`Parses` forbids, the work is stopped
at once (a BaseException), so a broken protection fails the test instead of running on for minutes.

The budgets the tests allow (Python steps per question, document and answer; passes over a dataset file) are at the
end of this module, with what the corpus measures against them.
"""

from __future__ import annotations

import io
import json
import re
import sys
import types
from collections import Counter
from collections.abc import Callable
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, BinaryIO, cast

import pyoxigraph
import rdflib

from ont_platform.ingest import tables
from ont_platform.sparql import inspect as sparql_inspect
from ont_platform.storage import Store, rdf_io
from ont_platform.storage._query_worker import QueryWorker

# -- store reads ------------------------------------------------------------------------------------------------


@dataclass(frozen=True)
class Read:
    """One read of a store: which method, the query, the deadline and row cap asked for, the rows returned."""

    method: str
    query: str
    timeout: float | None
    max_rows: int | None
    untrusted: bool
    rows: int


_READ_METHODS = ("select", "ask", "select_nt", "iter_values")


class Reads:
    """Records every read made of ``store`` (its own reads inside another, such as ``triples`` calling
    ``select``, count once)."""

    def __init__(self, store: Store) -> None:
        self.store = store
        self.reads: list[Read] = []
        self._depth = 0

    def __enter__(self) -> Reads:
        for name in _READ_METHODS:
            assert name not in vars(self.store), f"{name} is already replaced on this store"
            setattr(self.store, name, self._spy(name, getattr(self.store, name)))
        return self

    def __exit__(self, *exc: object) -> None:
        for name in _READ_METHODS:
            delattr(self.store, name)

    def _spy(self, name: str, real: Callable[..., Any]) -> Callable[..., Any]:
        def read(query: str, **kwargs: Any) -> Any:
            if self._depth:
                return real(query, **kwargs)
            self._depth += 1
            try:
                result = real(query, **kwargs)
                if name == "iter_values":
                    result = list(result)  # the caller gets the same values, read here
            finally:
                self._depth -= 1
            rows = 1 if isinstance(result, bool) else len(result)
            self.reads.append(
                Read(name, query, kwargs.get("timeout"), kwargs.get("max_rows"), kwargs.get("untrusted", False), rows)
            )
            return iter(result) if name == "iter_values" else result

        return read

    @property
    def rows(self) -> int:
        """Rows read in all (an ASK counts one)."""
        return sum(r.rows for r in self.reads)


# -- query workers ----------------------------------------------------------------------------------------------


@dataclass(frozen=True)
class Sent:
    """One request sent to a query worker: its query text and form, and the time limit it was given."""

    query: str
    form: str
    limit: float


class Deadlines:
    """Records every request sent to any query worker of this process (the store's timed queries, and the
    inspection of callers' queries), with the time limit at which the library kills the worker; and counts the
    query texts rdflib's SPARQL parser read in this process instead, where nothing can stop it."""

    def __init__(self) -> None:
        self.sent: list[Sent] = []
        self.parsed_here = 0
        self._call = QueryWorker.call
        self._parse = sparql_inspect._parse_query

    def __enter__(self) -> Deadlines:
        call, parse, sent = self._call, self._parse, self.sent

        def send(worker: QueryWorker, request: Any, timeout: float, *, limit: float | None = None) -> Any:
            sent.append(Sent(str(request[0]), str(request[1]), timeout if limit is None else limit))
            return call(worker, request, timeout, limit=limit)

        def parse_here(text: str) -> Any:
            self.parsed_here += 1
            return parse(text)

        QueryWorker.call = send  # type: ignore[method-assign, assignment]
        sparql_inspect._parse_query = parse_here
        return self

    def __exit__(self, *exc: object) -> None:
        QueryWorker.call = self._call  # type: ignore[method-assign]
        sparql_inspect._parse_query = self._parse


# -- Python steps -----------------------------------------------------------------------------------------------


class OverBudget(BaseException):
    """Raised into the measured code at the first Python step over its budget: the work stops there, at a count
    rather than at a time. A BaseException, so that the library's ``except Exception`` cannot take it for one of
    its own errors."""


_ONCE = frozenset(
    {
        str(Path(re.__file__).with_name("_compiler.py")),  # compiling a regular expression (then cached by ``re``)
        str(Path(re.__file__).with_name("_parser.py")),
        "<frozen importlib._bootstrap>",  # importing a module
        "<frozen importlib._bootstrap_external>",
    }
)
"""Code whose work a process does once, whatever the input: it is not counted (nor anything it calls)."""


class Steps:
    """Counts the Python lines (and calls) executed in this thread while it is entered; with a ``budget``, stops
    the work with :class:`OverBudget` at the first step over it (so that a test of a broken protection fails at
    once instead of running on for minutes).

    Work a process does once is left out, with everything it calls: importing a module (a module's body, the
    import system) and compiling a regular expression. Other first-use work (a validator built and kept, a
    snapshot read once per graph) is counted: a test warms the entry point up before it measures."""

    def __init__(self, budget: int | None = None) -> None:
        self.budget = budget
        self.count = 0
        self._before: Any = None
        self._once: types.FrameType | None = None

    def _call(self, frame: types.FrameType, event: str, arg: object) -> Any:
        """The global trace function: called as each frame starts."""
        if self._once is not None:
            return None  # inside one-time work: neither this frame's lines nor its calls count
        code = frame.f_code
        if code.co_name == "<module>" or code.co_filename in _ONCE:
            self._once = frame
            return self._until_return
        return self._step(frame)

    def _line(self, frame: types.FrameType, event: str, arg: object) -> Any:
        """The local trace function of a counted frame: its lines (and its return)."""
        return self._step(frame)

    def _until_return(self, frame: types.FrameType, event: str, arg: object) -> Any:
        if event == "return" and frame is self._once:
            self._once = None
        return self._until_return

    def _step(self, frame: types.FrameType) -> Any:
        self.count += 1
        if self.budget is not None and self.count > self.budget:
            # Python drops a trace function that raises: this stops the work once, and the count stays over
            raise OverBudget(f"more than {self.budget} Python steps (in {frame.f_code.co_qualname})")
        return self._line

    def __enter__(self) -> Steps:
        self._before = sys.gettrace()
        sys.settrace(self._call)
        return self

    def __exit__(self, *exc: object) -> None:
        sys.settrace(self._before)


# -- bytes read of dataset files --------------------------------------------------------------------------------


class _CountingRaw(io.RawIOBase):
    def __init__(self, raw: Any, tally: Callable[[int], None]) -> None:
        self._raw, self._tally = raw, tally

    def readable(self) -> bool:
        return True

    def readinto(self, buffer: Any) -> int:
        n = self._raw.readinto(buffer)
        self._tally(n or 0)
        return n  # type: ignore[no-any-return]

    def fileno(self) -> int:
        return self._raw.fileno()  # type: ignore[no-any-return]

    def close(self) -> None:
        self._raw.close()
        super().close()


class FileBytes:
    """Bytes the dataset loader read of each file, by path: every table and ``meta.json`` is opened through
    ``ingest.tables.open_regular``, and what is read of it passes through here."""

    def __init__(self) -> None:
        self.read: Counter[Path] = Counter()
        self.opened: Counter[Path] = Counter()
        self._real = tables.open_regular

    def __enter__(self) -> FileBytes:
        real, read, opened = self._real, self.read, self.opened

        def open_regular(path: Path, folder: Path | None = None) -> BinaryIO:
            fh = real(path, folder)
            key = Path(path)
            opened[key] += 1

            def tally(n: int) -> None:
                read[key] += n

            return io.BufferedReader(_CountingRaw(cast(io.BufferedReader, fh).detach(), tally))

        tables.open_regular = open_regular
        return self

    def __exit__(self, *exc: object) -> None:
        tables.open_regular = self._real

    def passes(self) -> dict[Path, float]:
        """How many times over each file that was read was read (bytes read / its size)."""
        return {p: n / max(1, p.stat().st_size) for p, n in self.read.items()}


# -- RDF parses -------------------------------------------------------------------------------------------------


@dataclass
class Parse:
    """A document handed to a parser: which parser, how many bytes, whether it refused them."""

    parser: str
    size: int
    failed: bool = False


class Forbidden(BaseException):
    """Raised instead of parsing when a document reaches a parser the test forbids (a BaseException, so that
    rdf_io's translation of parser errors cannot turn it into an RDFSyntaxError)."""


@dataclass
class Parses:
    """Every document ``storage/rdf_io.py`` hands to a parser (``pyoxigraph``, ``rdflib``, ``json``) and the
    rdflib terms it builds from pyoxigraph's parse. A parser named in ``forbid`` is not run: the document is
    recorded and :class:`Forbidden` raised at once (rdflib's N-Triples reader would take minutes on a long line
    before a test could say it should not have been used)."""

    forbid: tuple[str, ...] = ()
    calls: list[Parse] = field(default_factory=list)
    terms: int = 0
    _saved: dict[str, Any] = field(default_factory=dict)

    def _spy(self, parser: str, real: Callable[..., Any], data_of: Callable[..., Any]) -> Callable[..., Any]:
        def parse(*args: Any, **kwargs: Any) -> Any:
            data = data_of(*args, **kwargs)
            entry = Parse(parser, len(data) if isinstance(data, (bytes, str)) else -1)
            self.calls.append(entry)
            if parser in self.forbid:
                raise Forbidden(f"a document of {entry.size} bytes was handed to {parser}'s parser")
            try:
                return real(*args, **kwargs)
            except BaseException:
                entry.failed = True
                raise

        return parse

    def __enter__(self) -> Parses:
        # rdf_io's module globals: ``ox`` (pyoxigraph), ``json`` and ``from_oxigraph`` are looked up there per call
        names = vars(rdf_io)
        self._saved = {name: names[name] for name in ("ox", "json", "from_oxigraph")}
        self._saved["graph_parse"] = rdflib.Graph.parse
        ox = types.ModuleType("pyoxigraph_counted")
        vars(ox).update(vars(pyoxigraph))
        vars(ox)["parse"] = self._spy("pyoxigraph", pyoxigraph.parse, lambda data=None, *a, **k: data)
        counted_json = types.ModuleType("json_counted")
        vars(counted_json).update(vars(json))
        vars(counted_json)["loads"] = self._spy("json", json.loads, lambda s, *a, **k: s)
        real_terms = names["from_oxigraph"]

        def from_oxigraph(term: Any) -> Any:
            self.terms += 1
            return real_terms(term)

        names.update(ox=ox, json=counted_json, from_oxigraph=from_oxigraph)
        rdflib.Graph.parse = self._spy(  # type: ignore[method-assign]
            "rdflib", rdflib.Graph.parse, lambda graph, source=None, *a, data=None, **k: data
        )
        return self

    def __exit__(self, *exc: object) -> None:
        rdflib.Graph.parse = self._saved.pop("graph_parse")  # type: ignore[method-assign]
        vars(rdf_io).update(self._saved)


# -- budgets ----------------------------------------------------------------------------------------------------
# The counted work the hostile and fuzz tests allow one input (tests/hostile/test_hostile.py,
# tests/reliability/test_fuzz.py), each several times what the costliest input of the corpus takes.

STEPS_PER_QUESTION = 2_000_000
"""Most Python lines one question may execute. The costliest question of the corpus (199 node names in 995
characters) takes about 265,000, most take under 15,000; work quadratic in a question's length would take
millions."""
STEPS_PER_DOCUMENT = 1_000_000
"""Most Python lines one RDF document may cost ``import_rdf``: the parsing is native (pyoxigraph, ``json``), and
the costliest document of the corpus takes about 55,000."""
STEPS_PER_ANSWER = 250_000
STEPS_PER_ANSWER_ENTRY = 2_000
"""Most Python lines ``verify_answer`` may execute: a base for reading the graph and checking the answer, and a
share per entry of the answer's lists, which the checks compare with the graph one by one (the corpus's answer
with 2,000 path steps takes about 1.7 million, the others under 130,000)."""
READ_PASSES = 3
"""Most times over the loader may read a dataset file: once to check its bytes (UTF-8, no NUL byte), once for its
header, once for its rows."""


def extent(value: object) -> tuple[int, int, int]:
    """How deep ``value`` nests (each list or object is a level), the most entries one list or object holds, and
    the entries of all its lists together. Walked without recursion."""
    depth = most = entries = 0
    stack: list[tuple[object, int]] = [(value, 1)]
    while stack:
        node, level = stack.pop()
        if isinstance(node, dict):
            children = list(node.values())
        elif isinstance(node, (list, tuple)):
            children = list(node)
            entries += len(children)
        else:
            continue
        depth, most = max(depth, level), max(most, len(children))
        stack.extend((child, level + 1) for child in children)
    return depth, most, entries


def answer_budget(answer: object) -> int:
    """The Python steps ``verify_answer`` may take on ``answer``: :data:`STEPS_PER_ANSWER`, and
    :data:`STEPS_PER_ANSWER_ENTRY` for each entry of its lists."""
    return STEPS_PER_ANSWER + STEPS_PER_ANSWER_ENTRY * extent(answer)[2]
