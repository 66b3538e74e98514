"""SPARQL 1.1 Query Results JSON, read as it arrives and within bounds.

The remote store used to read a whole answer into memory and hand it to :func:`json.loads`. Against a hostile or
broken endpoint that has three faults: a million-row answer costs its full size twice over before any row limit
can apply (1.8 GB and 20 s for a million rows cut to 10,000 afterwards), nothing stops an answer that never ends,
and ``json.loads`` recurses once per nesting level, so deep JSON raises a bare :class:`RecursionError`.

:func:`read_results` takes the answer as byte chunks and parses them with ijson's event parser (yajl, in C, with
no recursion), turning each binding into a row as soon as it is complete. It stops reading once it holds the rows
the caller will take (``row_cap``); it refuses nesting deeper than :data:`MAX_DEPTH` as soon as it is met, and a
run of more than :data:`MAX_VALUE_BYTES` without a complete value (yajl's cost grows with the square of an
unfinished string); and it keeps only what it returns: values outside ``head.vars``, ``results.bindings`` and
``boolean`` (Virtuoso's ``distinct`` and ``ordered``, a ``link``) are read past without being built. The caller
bounds the bytes and the time it feeds in. Every failure is an :class:`~ont_platform.errors.EndpointError` naming
the request.

The plain events (``basic_parse``) are followed here rather than ijson's ``items``/``parse``: those build a path
string for every event that grows with the depth, so 100,000 levels of nesting cost time and memory quadratic in
it (the process was killed) before any depth check could run.
"""

from __future__ import annotations

import hashlib
import re
from collections.abc import Iterable
from dataclasses import dataclass
from typing import Any

import ijson
from rdflib import BNode, Literal, URIRef
from rdflib.term import Node

from ont_platform.errors import EndpointError
from ont_platform.rdf_terms import XSD
from ont_platform.storage.base import Row

MAX_DEPTH = 16
"""Deepest nesting of JSON objects and arrays accepted in an answer. SPARQL JSON results nest five levels (the
document, ``results``, ``bindings``, a binding, a term); RDF-star triple terms, which the store refuses anyway,
a few more. Anything deeper is not a results document."""

MAX_VALUE_BYTES = 16 * 1024**2
"""Longest run of an answer without a complete JSON value in it: one string (a literal) or a stretch of blanks.
The parser re-reads an unfinished value from its start with every chunk that extends it (16 MiB: ~3 s), and no
literal the library stores comes near it (the longest are texts of at most ``Limits.max_cell_chars``)."""

_BOM = b"\xef\xbb\xbf"
_OPEN = ("start_map", "start_array")
_CLOSE = ("end_map", "end_array")
_BINDINGS = ["results", "bindings", None]  # the keys down to an item of results.bindings
_VARS = ["head", "vars", None]  # ... and to an item of head.vars


@dataclass(slots=True)
class Results:
    """What a SPARQL JSON answer held: the variables and rows of a SELECT, or the boolean of an ASK."""

    variables: list[str]
    rows: list[Row]
    boolean: object
    """The value of the top-level ``boolean`` as read (``None`` when there is none); the caller checks its type."""
    stopped: bool
    """Reading stopped at ``row_cap`` rows; whatever followed was not read."""


def read_results(
    chunks: Iterable[bytes], *, what: str, content_type: str, select: bool, row_cap: int | None = None
) -> Results:
    """Parse an answer given as byte chunks; ``select``: it must hold ``head`` and ``results.bindings``.

    With ``row_cap`` the reading stops as soon as that many rows are held (and ``head.vars`` is known), and the
    result says so with ``stopped``. Raises :class:`EndpointError` for text that is not JSON, JSON that is not
    SPARQL results, or nesting deeper than :data:`MAX_DEPTH`; errors raised while producing ``chunks`` (the
    caller's byte and time limits) pass through unchanged.
    """
    reader = _Reader(what, row_cap, select)
    events = ijson.sendable_list()
    parser = ijson.basic_parse_coro(events)
    first, quiet = True, 0
    try:
        for chunk in chunks:
            if first and chunk:
                chunk, first = chunk.removeprefix(_BOM), False
            parser.send(chunk)
            if not events:
                quiet += len(chunk)
                if quiet > MAX_VALUE_BYTES:
                    raise EndpointError(
                        f"{what}: the endpoint's answer runs on for more than {MAX_VALUE_BYTES} bytes without "
                        "completing a JSON value (one endless string, or blanks); it was not read further"
                    )
                continue
            quiet = 0
            if reader.take(events):
                return reader.results(stopped=True)
            del events[:]
        parser.close()
        reader.take(events)
    except ijson.JSONError as exc:
        raise EndpointError(
            f"{what}: the endpoint did not answer with SPARQL JSON results ({content_type}): {_first_line(exc)}"
        ) from exc
    return reader.finish(select)


class _Reader:
    """Follows the parser's events: where in the document it is, and the binding being built."""

    def __init__(self, what: str, row_cap: int | None, select: bool) -> None:
        self.what = what
        self.row_cap = row_cap
        self.select = select  # an ASK's answer has no rows to build
        self.depth = 0
        self.keys: list[str | None] = []  # per open container: the key being read (None in an array)
        self.building: list[Any] = []  # the containers of the binding being built, outermost first
        self.key: str = ""
        self.seen_top = self.seen_head = self.seen_bindings = False
        self.variables: list[str] | None = None
        self.vars_known = False
        self.raw: list[dict[str, Any]] = []  # bindings read before head.vars, converted once it is known
        self.rows: list[Row] = []
        self.count = 0
        self.boolean: object = None

    def take(self, events: list[tuple[str, Any]]) -> bool:
        """Follow ``events``; true when the rows wanted are held and reading can stop."""
        building = self.building
        for event, value in events:
            if building:  # inside a binding: the common case, kept short
                if event == "map_key":
                    self.key = value
                    continue
                if event in _OPEN:
                    self._deeper()
                    new: Any = {} if event == "start_map" else []
                    self._put(building[-1], new)
                    building.append(new)
                elif event in _CLOSE:
                    self.depth -= 1
                    self.keys.pop()
                    done = building.pop()
                    if not building and self._binding(done):
                        return True
                else:
                    self._put(building[-1], value)
                continue
            if event == "map_key":
                self.keys[-1] = value
            elif event in _OPEN:
                where = self.keys[:3]
                self._deeper()
                if self.depth == 1:
                    if event != "start_map":
                        raise EndpointError(f"{self.what}: the endpoint's answer is not a JSON object")
                    self.seen_top = True
                elif self.depth == 2 and where[0] in ("head", "results"):
                    if event != "start_map":
                        raise EndpointError(f"{self.what}: the endpoint's answer has a {where[0]} that is no object")
                    self.seen_head = self.seen_head or where[0] == "head"
                elif self.depth == 3 and where[:2] == _VARS[:2]:
                    self._expect(event == "start_array", "head.vars is not a list")
                    self.variables = []
                elif self.depth == 3 and where[:2] == _BINDINGS[:2]:
                    self._expect(event == "start_array", "results.bindings is not a list")
                    self.seen_bindings = True
                elif self.depth == 4 and where == _BINDINGS:
                    self._expect(event == "start_map", "a binding is not an object")
                    if self.select and not self._full():
                        new = {}
                        building.append(new)
                        self.keys[-1] = "."  # a marker: this container is being built
            elif event in _CLOSE:
                if self.depth == 3 and self.keys[:2] == _VARS[:2] and self.variables is not None:
                    self.vars_known = True
                    self.depth -= 1
                    self.keys.pop()
                    if self._ready():
                        return True
                    continue
                self.depth -= 1
                self.keys.pop()
            else:  # a scalar outside any binding
                if self.depth == 3 and self.keys == _VARS:
                    self._expect(isinstance(value, str), "a name in head.vars is not a string")
                    assert self.variables is not None
                    self.variables.append(value)
                elif self.depth == 3 and self.keys == _BINDINGS:
                    self._expect(False, "a binding is not an object")
                elif self.depth == 1 and self.keys == ["boolean"]:
                    self.boolean = value
                elif self.depth == 0:
                    raise EndpointError(f"{self.what}: the endpoint's answer is not a JSON object")
        return False

    def _deeper(self) -> None:
        self.depth += 1
        if self.depth > MAX_DEPTH:
            raise EndpointError(
                f"{self.what}: the endpoint's answer nests deeper than {MAX_DEPTH} levels (SPARQL JSON results "
                "nest five); it is not a results document"
            )
        self.keys.append(None)

    def _put(self, container: Any, value: Any) -> None:
        if type(container) is dict:
            container[self.key] = value
        else:
            container.append(value)

    def _expect(self, ok: bool, problem: str) -> None:
        if not ok:
            raise EndpointError(f"{self.what}: the endpoint's answer is not SPARQL JSON results: {problem}")

    def _full(self) -> bool:
        return self.row_cap is not None and self.count >= self.row_cap

    def _ready(self) -> bool:
        """The rows wanted are held and converted: stop reading."""
        if not self._full() or not self.vars_known:
            return False
        self._convert_pending()
        return True

    def _binding(self, binding: dict[str, Any]) -> bool:
        self.count += 1
        if self.vars_known:
            self.rows.append(self._row(binding))
        else:
            self.raw.append(binding)
        return self._ready()

    def _row(self, binding: dict[str, Any]) -> Row:
        assert self.variables is not None
        try:
            return {v: (term_from_json(binding[v]) if v in binding else None) for v in self.variables}
        except (KeyError, TypeError, AttributeError, ValueError) as exc:
            raise EndpointError(f"{self.what}: the endpoint's answer is not SPARQL JSON results: {exc}") from exc

    def _convert_pending(self) -> None:
        if self.raw:
            self.rows[:0] = [self._row(b) for b in self.raw]
            self.raw = []

    def results(self, *, stopped: bool) -> Results:
        return Results(self.variables or [], self.rows, self.boolean, stopped)

    def finish(self, select: bool) -> Results:
        if not self.seen_top:
            raise EndpointError(f"{self.what}: the endpoint's answer is not a JSON object")
        if select:
            if not self.seen_head:
                self._expect(False, "it has no head")
            if not self.seen_bindings:
                self._expect(False, "it has no results.bindings")
            if self.variables is None:
                self.variables = []
            self.vars_known = True
            self._convert_pending()
        return self.results(stopped=False)


def _first_line(exc: Exception) -> str:
    """The parser's message without the excerpt of the answer it quotes on the following lines."""
    message = exc.args[0] if exc.args else type(exc).__name__
    if isinstance(message, bytes):
        message = message.decode("utf-8", "replace")
    return (str(message).strip().splitlines() or [type(exc).__name__])[0][:200]


# --- SPARQL 1.1 JSON results to rdflib terms -----------------------------------------------------------------

_SAFE_BNODE = re.compile(r"[A-Za-z0-9_]+")
_BOOLEAN_CANONICAL = {"1": "true", "0": "false"}
_XSD = XSD


def bnode_from_label(value: str) -> BNode:
    """A blank node for a label an endpoint returned, valid in N-Triples and stable across requests."""
    label = value[len("nodeID://") :] if value.startswith("nodeID://") else value
    if not _SAFE_BNODE.fullmatch(label):
        label = "x" + hashlib.sha1(value.encode("utf-8")).hexdigest()[:24]
    return BNode(label)


def term_from_json(binding: dict[str, str]) -> Node:
    """One value of a SPARQL JSON result as an rdflib term, lexical form kept.

    Written by hand: rdflib's JSON result parser reads a whole document with ``json.loads`` and normalises
    lexical forms, pyoxigraph's ``parse_query_results`` reads no stream it can be stopped in (see the module
    documentation) and neither knows Virtuoso's ``typed-literal`` or its ``1``/``0`` booleans.

    Accepts the SPARQL 1.1 form and the older ``typed-literal`` type Virtuoso still sends. A literal typed
    ``xsd:string`` becomes a plain literal (the same RDF 1.1 term; Oxigraph never reports the datatype).
    Virtuoso reports booleans as ``1``/``0``; they are given in the canonical ``true``/``false`` form that
    Oxigraph and rdflib use.
    """
    kind = binding.get("type")
    value = binding.get("value")
    if not isinstance(value, str):
        raise ValueError(f"binding without a string value: {binding!r}")
    if kind == "uri":
        return URIRef(value)
    if kind == "bnode":
        return bnode_from_label(value)
    if kind in ("literal", "typed-literal"):
        lang = binding.get("xml:lang")
        if lang:
            return Literal(value, lang=lang)
        datatype = binding.get("datatype")
        if not datatype or datatype == _XSD + "string":
            return Literal(value)
        if datatype == _XSD + "boolean":
            value = _BOOLEAN_CANONICAL.get(value, value)
        return Literal(value, datatype=URIRef(datatype), normalize=False)
    if kind == "triple":
        raise ValueError("RDF-star triple terms are not supported")
    raise ValueError(f"unknown term type {kind!r}")
