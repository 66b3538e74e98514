"""The query inspector: what a SPARQL text is and whether it may run, in one place.

Three parts of the library look at SPARQL text they did not write themselves, or must vouch for: the remote
store (every query it sends: refuse ``FROM``/``FROM NAMED``/``SERVICE``, find ``ORDER BY``/``LIMIT``/``OFFSET``
for paging, rewrite updates to name its graph), the verifier (an answer's ``generated_query``,
:mod:`ont_platform.verify.query`) and the guard (SPARQL updates, :mod:`ont_platform.validation.ontocast`). They
all use this module, which has two engines:

* **rdflib's SPARQL parser** (:func:`check_read_query`, :func:`parsed_shape`, :func:`parse_update`): the
  reference. It reads the full grammar, so whatever it accepts has the meaning it reports. The verifier and the
  guard use it, and so does any check of text nobody vouches for.
* **a small lexer** (:func:`tokens`, :func:`shape`) for the remote store's hot path. rdflib's parser is pure
  Python (pyparsing). ``python benchmarks/query_inspect.py --remote`` on the 55 distinct queries the library
  sends for the questions of examples/onchain and examples/kg: the lexer 0.074 ms per query (median), rdflib's
  parse of the same facts 21.8 ms (p95 74 ms), about 290 times slower; a remote ``kg.ask`` on an Oxigraph
  server took 15–16 ms (median) with the lexer and 91–106 ms with rdflib's parse added to every query the store
  sends (2-core machine, load average 5.7–6.4 from other work). A cache keyed by the text would not hide it:
  only 24 % of the texts sent repeat. So the lexer stays where every query passes; it reads only what the store
  needs: the query form, the prologue, the keywords at brace depth 0, and whether ``SERVICE`` or ``FROM``
  occurs, without being fooled by strings, IRIs or comments. On those 55 queries, and on generated ones, both
  engines read the same facts (``tests/storage/test_inspect.py``). The lexer's tokens also carry positions,
  which the update rewriter (:mod:`ont_platform.storage._sparql_scan`) needs and rdflib's parse tree lacks.

pyoxigraph exposes no SPARQL parser, so there is no third choice.
"""

from __future__ import annotations

import re
from collections.abc import Iterator
from dataclasses import dataclass, field
from typing import Any, Literal

from rdflib import Literal as RDFLiteral
from rdflib import URIRef
from rdflib.term import Node

from ont_platform.errors import QueryError, QueryRefused

MAX_QUERY_CHARS = 100_000
"""Longest query text :func:`check_read_query` reads."""

# --- the lexer --------------------------------------------------------------------------------------------------

_NAME = "A-Za-z0-9_\u00b7\u00c0-\U000effff"
_TOKEN = re.compile(
    rf"""
      (?P<ws>\s+)
    | (?P<comment>\#[^\n\r]*)
    | (?P<iri><[^<>"{{}}|^`\\\x00-\x20]*>)
    | (?P<string>\"\"\"(?:[^"\\]|\\.|"(?!""))*\"\"\"|'''(?:[^'\\]|\\.|'(?!''))*'''
                 |"(?:[^"\\\n\r]|\\.)*"|'(?:[^'\\\n\r]|\\.)*')
    | (?P<var>[?$][{_NAME}]+)
    | (?P<word>[{_NAME}][{_NAME}\-.:%\\]*|:[{_NAME}\-.:%\\]*)
    | (?P<lang>@[A-Za-z]+(?:-[A-Za-z0-9]+)*)
    | (?P<punct>\^\^|&&|\|\||!=|<=|>=|.)
    """,
    re.VERBOSE | re.DOTALL,
)


@dataclass(slots=True)
class Token:
    """One token of SPARQL text: its kind (``iri``, ``string``, ``var``, ``word``, ``lang``, ``punct``), its text
    and where it is."""

    kind: str
    text: str
    start: int
    end: int

    @property
    def keyword(self) -> str:
        """The upper-cased word when the token is a bare word (not a prefixed name), else ``""``."""
        return self.text.upper() if self.kind == "word" and ":" not in self.text else ""


def tokens(text: str) -> list[Token]:
    """The tokens of ``text``, blanks and comments left out. Raises :class:`QueryError` for an unterminated
    string."""
    out: list[Token] = []
    for m in _TOKEN.finditer(text):
        kind = m.lastgroup or "punct"
        if kind in ("ws", "comment"):
            continue
        if kind == "punct" and m.group(0) in "\"'":
            raise QueryError("SPARQL text has an unterminated string")
        out.append(Token(kind, m.group(0), m.start(), m.end()))
    return out


def prologue_end(toks: list[Token], i: int = 0) -> int:
    """Index of the first token after the BASE/PREFIX declarations starting at ``i``."""
    while i < len(toks):
        kw = toks[i].keyword
        if kw == "BASE" and i + 1 < len(toks) and toks[i + 1].kind == "iri":
            i += 2
        elif kw == "PREFIX" and i + 2 < len(toks) and toks[i + 2].kind == "iri":
            i += 3
        else:
            break
    return i


@dataclass(slots=True)
class QueryShape:
    """What the remote store needs to know about a query before sending it (see :func:`shape`)."""

    form: str
    """``SELECT``, ``ASK``, ``CONSTRUCT``, ``DESCRIBE``, or whatever word starts the query (``""``: none)."""
    body_start: int
    """Offset of the query form in the text: everything before it is the prologue."""
    distinct: bool = False
    modifiers: set[str] = field(default_factory=set)
    """Which of ``ORDER``, ``LIMIT``, ``OFFSET`` the query itself has (at brace depth 0)."""
    has_from: bool = False
    keywords: set[str] = field(default_factory=set)
    trailing_limit: tuple[int, int] | None = None
    """``(offset of the LIMIT keyword, its value)`` when the query ends with a top-level ``LIMIT n``."""

    @property
    def has_service(self) -> bool:
        return "SERVICE" in self.keywords


def shape(query: object) -> QueryShape:
    """The shape of ``query`` read by the lexer: the remote store's check of every query it sends (fast; see the
    module documentation for why it is not rdflib's parser)."""
    if not isinstance(query, str):
        raise QueryError("a SPARQL query must be a string")
    toks = tokens(query)
    i = prologue_end(toks, 0)
    if i >= len(toks):
        return QueryShape("", len(query))
    out = QueryShape(toks[i].keyword, toks[i].start)
    if i + 1 < len(toks) and toks[i + 1].keyword in ("DISTINCT", "REDUCED"):
        out.distinct = True
    depth = 0
    for j, tok in enumerate(toks[i:], start=i):
        if tok.kind == "punct" and tok.text in "{(":
            depth += 1
        elif tok.kind == "punct" and tok.text in "})":
            depth -= 1
        kw = tok.keyword
        if kw:
            out.keywords.add(kw)
            if depth == 0 and kw in ("ORDER", "LIMIT", "OFFSET"):
                out.modifiers.add(kw)
                if kw == "LIMIT" and j + 2 == len(toks) and toks[j + 1].text.isdigit():
                    out.trailing_limit = (tok.start, int(toks[j + 1].text))
            if depth == 0 and kw == "FROM":
                out.has_from = True
    return out


def refuse_remote_calls(found: QueryShape) -> None:
    """Raise :class:`QueryRefused` for a query that names other data: ``SERVICE`` anywhere, ``FROM`` or
    ``FROM NAMED``."""
    if found.has_service:
        raise QueryRefused("SERVICE is refused: the endpoint would fetch data from another server")
    if found.has_from:  # Virtuoso adds FROM graphs to the protocol's default graph instead of ignoring them
        raise QueryRefused("FROM and FROM NAMED are refused: the store answers from its own graph only")


# --- rdflib's parser --------------------------------------------------------------------------------------------

_ESCAPE = re.compile(r"\\[uU]")


def walk(value: object) -> Iterator[object]:
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


def _parse_query(text: str) -> Any:
    """rdflib's parse tree of a query; :class:`QueryRefused` when the text is not one (an update says so)."""
    from rdflib.plugins.sparql.parser import parseQuery, parseUpdate

    try:
        return parseQuery(text)
    except Exception as exc:
        try:
            parseUpdate(text)
        except Exception:  # noqa: BLE001 - pyparsing and rdflib raise many unrelated types
            raise QueryRefused(f"not a SPARQL query that can be checked: {str(exc)[:200]}") from exc
        raise QueryRefused("a SPARQL update; only SELECT and ASK queries are run") from exc


def _form_name(parsed: Any) -> str:
    return str(getattr(parsed[1], "name", ""))


def check_read_query(text: object) -> tuple[Literal["SELECT", "ASK"], frozenset[Node]]:
    """Parse untrusted ``text`` with rdflib and refuse what must never run; give its form and the IRIs and
    literals written in it (:func:`read_query`, without the triple patterns)."""
    form, constants, _ = read_query(text)
    return form, constants


TriplePattern = tuple[Node, Node, Node]


def read_query(text: object) -> tuple[Literal["SELECT", "ASK"], frozenset[Node], tuple[TriplePattern, ...]]:
    """Parse untrusted ``text`` with rdflib and refuse what must never run; give its form, the IRIs and
    literals written in it, and its triple patterns (:func:`triple_patterns`).

    Refused with :class:`QueryRefused`: no text or more than :data:`MAX_QUERY_CHARS`, ``\\u`` escapes (parsers
    apply them differently, so what was inspected might not be what runs), text that does not parse, updates,
    any form but ``SELECT`` and ``ASK``, ``SERVICE``, ``GRAPH``, ``FROM``/``FROM NAMED``, and unbounded property
    paths (``p*``, ``p+``).
    """
    from rdflib.plugins.sparql.algebra import translateQuery
    from rdflib.plugins.sparql.parserutils import CompValue

    if not isinstance(text, str) or not text.strip():
        raise QueryRefused("no query text")
    if len(text) > MAX_QUERY_CHARS:
        raise QueryRefused(f"query is {len(text)} characters, over the limit of {MAX_QUERY_CHARS}")
    if _ESCAPE.search(text):
        raise QueryRefused("\\u escapes are refused: parsers apply them differently")
    parsed = _parse_query(text)
    name = _form_name(parsed)
    if name not in ("SelectQuery", "AskQuery"):
        raise QueryRefused(f"a {name.removesuffix('Query').upper() or 'non-query'} query; only SELECT and ASK are run")
    for node in walk(parsed):
        if not isinstance(node, CompValue):
            continue
        if node.name == "ServiceGraphPattern":
            raise QueryRefused("SERVICE is refused: a query must not reach other endpoints")
        if node.name == "GraphGraphPattern":
            raise QueryRefused("GRAPH is refused: the data is in the default graph")
        if node.name == "DatasetClause" or dict.get(node, "datasetClause"):
            raise QueryRefused("FROM / FROM NAMED is refused: a query runs on the loaded graph only")
        mod = dict.get(node, "mod")
        if node.name == "PathElt" and mod in ("*", "+"):
            raise QueryRefused(f"unbounded property path ({mod}) is refused; write bounded steps (p/p?/p?)")
    try:
        algebra = translateQuery(parsed).algebra
    except Exception as exc:
        raise QueryRefused(f"query cannot be translated: {str(exc)[:200]}") from exc
    constants = frozenset(v for v in walk(algebra) if isinstance(v, (URIRef, RDFLiteral)))
    return ("SELECT" if name == "SelectQuery" else "ASK"), constants, triple_patterns(algebra)


def triple_patterns(algebra: Any) -> tuple[TriplePattern, ...]:
    """The triple patterns of a query's algebra that a solution rests on, in order, once each: those of its
    basic graph patterns (in ``OPTIONAL``, ``UNION``, subqueries and ``EXISTS`` too), but not those that must
    *not* match (``NOT EXISTS``, the right side of ``MINUS``), nor a pattern with a blank node (it names no
    term) or a property path in it. Used to name the facts a reasoning answer's rows rest on."""
    from rdflib.plugins.sparql.parserutils import CompValue
    from rdflib.term import BNode, Variable

    out: dict[TriplePattern, None] = {}
    stack: list[object] = [algebra]
    while stack:
        node = stack.pop()
        if isinstance(node, CompValue):
            if node.name == "Builtin_NOTEXISTS":
                continue
            if node.name == "BGP":
                for triple in dict.get(node, "triples") or ():
                    s, p, o = triple
                    terms_ok = all(isinstance(t, (URIRef, RDFLiteral, Variable)) for t in (s, o))
                    if terms_ok and isinstance(p, (URIRef, Variable)) and not isinstance(s, BNode):
                        out.setdefault((s, p, o), None)
            for key, value in reversed(list(node.items())):
                if node.name == "Minus" and key == "p2":
                    continue
                stack.append(value)
        elif isinstance(node, dict):
            stack.extend(reversed(list(node.values())))
        elif isinstance(node, (list, tuple)):
            stack.extend(reversed(node))
    return tuple(out)


@dataclass(frozen=True, slots=True)
class ParsedShape:
    """What rdflib's parser says about the parts of a query the lexer reads (:func:`shape`)."""

    form: str
    distinct: bool
    modifiers: frozenset[str]
    has_from: bool
    has_service: bool
    limit: int | None


def parsed_shape(text: str) -> ParsedShape:
    """:func:`shape`'s facts, read by rdflib's parser instead of the lexer (the reference the lexer is checked
    against, and what ``benchmarks/query_inspect.py`` times it against). Raises :class:`QueryRefused` for text
    that is not a query."""
    from rdflib.plugins.sparql.parserutils import CompValue

    parsed = _parse_query(text)
    query = parsed[1]
    modifiers = set()
    if dict.get(query, "orderby"):
        modifiers.add("ORDER")
    bounds = dict.get(query, "limitoffset") or {}
    limit = dict.get(bounds, "limit")
    if limit is not None:
        modifiers.add("LIMIT")
    if dict.get(bounds, "offset") is not None:
        modifiers.add("OFFSET")
    service = any(isinstance(n, CompValue) and n.name == "ServiceGraphPattern" for n in walk(parsed))
    return ParsedShape(
        form=_form_name(parsed).removesuffix("Query").upper(),
        distinct=dict.get(query, "modifier") in ("DISTINCT", "REDUCED"),
        modifiers=frozenset(modifiers),
        has_from=bool(dict.get(query, "datasetClause")),
        has_service=service,
        limit=None if limit is None else int(limit),
    )


def parse_update(text: str) -> list[Any]:
    """The operations of a SPARQL update as rdflib's algebra (``InsertData``, ``DeleteData``, ``Modify``, ...).
    Whatever rdflib's parser raises for text that is not an update passes through (it raises many kinds)."""
    from rdflib.plugins.sparql.algebra import translateUpdate
    from rdflib.plugins.sparql.parser import parseUpdate

    return list(translateUpdate(parseUpdate(text)).algebra)


__all__ = [
    "MAX_QUERY_CHARS",
    "ParsedShape",
    "QueryShape",
    "Token",
    "TriplePattern",
    "check_read_query",
    "parse_update",
    "parsed_shape",
    "prologue_end",
    "read_query",
    "refuse_remote_calls",
    "shape",
    "tokens",
    "triple_patterns",
    "walk",
]
