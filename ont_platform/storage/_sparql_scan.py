"""Reading SPARQL text without a full parser: the query form, the prologue, top-level modifiers, and the
operations of an update, so the remote store can scope every request to its graph and refuse remote calls."""

from __future__ import annotations

import re
from bisect import bisect_left
from dataclasses import dataclass, field

from ont_platform.errors import QueryError, QueryRefused
from ont_platform.storage._ntriples import XSD, RiskyNumber, risky_number, unescape

# --- SPARQL text ----------------------------------------------------------------------------------------------
# A small lexer: enough to find the query form, the prologue, top-level solution modifiers and the keywords of
# an update, without being fooled by strings, IRIs or comments.

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
class _Tok:
    kind: str
    text: str
    start: int
    end: int

    @property
    def keyword(self) -> str:
        return self.text.upper() if self.kind == "word" and ":" not in self.text else ""


def _tokens(text: str) -> list[_Tok]:
    out: list[_Tok] = []
    for m in _TOKEN.finditer(text):
        kind = m.lastgroup or "punct"
        if kind in ("ws", "comment"):
            continue
        if kind == "punct" and m.group(0) in "\"'":
            raise QueryError("SPARQL text has an unterminated string")
        out.append(_Tok(kind, m.group(0), m.start(), m.end()))
    return out


def _prologue_end(toks: list[_Tok], i: int) -> int:
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
class _QueryShape:
    form: str
    body_start: int
    distinct: bool = False
    modifiers: set[str] = field(default_factory=set)
    has_from: bool = False
    keywords: set[str] = field(default_factory=set)
    trailing_limit: tuple[int, int] | None = None
    """``(offset of the LIMIT keyword, its value)`` when the query ends with a top-level ``LIMIT n``."""


def _shape(query: str) -> _QueryShape:
    if not isinstance(query, str):
        raise QueryError("a SPARQL query must be a string")
    toks = _tokens(query)
    i = _prologue_end(toks, 0)
    if i >= len(toks):
        return _QueryShape("", len(query))
    shape = _QueryShape(toks[i].keyword, toks[i].start)
    if i + 1 < len(toks) and toks[i + 1].keyword in ("DISTINCT", "REDUCED"):
        shape.distinct = True
    depth = 0
    for j, tok in enumerate(toks[i:], start=i):
        if tok.kind == "punct" and tok.text in "{(":
            depth += 1
        elif tok.kind == "punct" and tok.text in "})":
            depth -= 1
        kw = tok.keyword
        if kw:
            shape.keywords.add(kw)
            if depth == 0 and kw in ("ORDER", "LIMIT", "OFFSET"):
                shape.modifiers.add(kw)
                if kw == "LIMIT" and j + 2 == len(toks) and toks[j + 1].text.isdigit():
                    shape.trailing_limit = (tok.start, int(toks[j + 1].text))
            if depth == 0 and kw == "FROM":
                shape.has_from = True
    return shape


def _refuse_remote_calls(shape: _QueryShape) -> None:
    if "SERVICE" in shape.keywords:
        raise QueryRefused("SERVICE is refused: the endpoint would fetch data from another server")
    if shape.has_from:  # Virtuoso adds FROM graphs to the protocol's default graph instead of ignoring them
        raise QueryRefused("FROM and FROM NAMED are refused: the store answers from its own graph only")


_GRAPH_OPS = {"LOAD", "CLEAR", "DROP", "CREATE", "ADD", "MOVE", "COPY"}


def _scope_update(text: str, graph: str) -> tuple[str, list[RiskyNumber]]:
    """Rewrite an update so that every operation works in ``graph`` (a SPARQL ``<iri>``)."""
    if not isinstance(text, str):
        raise QueryError("a SPARQL update must be a string")
    toks = _tokens(text)
    risky = _risky_numbers(text, toks)
    out: list[str] = []
    pos = 0  # text copied up to here
    i = 0
    while i < len(toks):
        i = _prologue_end(toks, i)
        if i >= len(toks):
            break
        # the operation runs to the next ';' outside braces
        j, depth = i, 0
        while j < len(toks):
            t = toks[j]
            if t.kind == "punct" and t.text == "{":
                depth += 1
            elif t.kind == "punct" and t.text == "}":
                depth -= 1
            elif depth == 0 and t.kind == "punct" and t.text == ";":
                break
            j += 1
        op = toks[i:j]
        out.append(text[pos : op[0].start])
        out.append(_scope_operation(text, op, graph))
        pos = op[-1].end
        i = j + 1
    out.append(text[pos:])
    return "".join(out), risky


def _scope_operation(text: str, op: list[_Tok], graph: str) -> str:
    first = op[0].keyword
    second = op[1].keyword if len(op) > 1 else ""
    keywords = {t.keyword for t in op if t.keyword}
    if first in _GRAPH_OPS:
        raise QueryRefused(f"{first} is refused: the store works in one graph; use clear() or load_rdf()")
    if "SERVICE" in keywords:
        raise QueryRefused("SERVICE is refused: the endpoint would fetch data from another server")
    named = keywords & {"GRAPH", "WITH", "USING"}
    if named:
        raise QueryRefused(
            f"an update naming graphs ({', '.join(sorted(named))}) is refused: the store works in its own graph"
        )
    if first not in ("INSERT", "DELETE") or (first, second) == ("INSERT", "WHERE"):
        raise QueryError(f"not a SPARQL update operation: {text[op[0].start : op[0].end + 40]!r}")
    if second in ("DATA", "WHERE"):
        open_i = next((k for k, t in enumerate(op) if t.kind == "punct" and t.text == "{"), None)
        close_i = _matching_brace(op, open_i) if open_i is not None else None
        if open_i is None or close_i is None:
            raise QueryError(f"{first} {second} without a {{ ... }} block")
        body = text[op[open_i].end : op[close_i].start]
        tail = text[op[close_i].end : op[-1].end]
        if second == "WHERE":  # DELETE WHERE { P } == DELETE { P } WHERE { P }
            return f"WITH {graph} DELETE {{{body}}} WHERE {{{body}}}{tail}"
        has_bnode = any(t.kind == "word" and t.text.startswith("_:") for t in op) or any(
            t.kind == "punct" and t.text == "[" for t in op
        )
        if first == "INSERT" and has_bnode:  # Virtuoso refuses blank nodes in INSERT DATA
            return f"INSERT {{ GRAPH {graph} {{{body}}} }} WHERE {{}}{tail}"
        return f"{first} DATA {{ GRAPH {graph} {{{body}}} }}{tail}"
    return f"WITH {graph} " + text[op[0].start : op[-1].end]


def _matching_brace(toks: list[_Tok], open_i: int) -> int | None:
    depth = 0
    for k in range(open_i, len(toks)):
        t = toks[k]
        if t.kind == "punct" and t.text == "{":
            depth += 1
        elif t.kind == "punct" and t.text == "}":
            depth -= 1
            if depth == 0:
                return k
    return None


_BARE_INTEGER = re.compile(r"[0-9]+")
_BARE_DECIMAL = re.compile(r"[0-9]*\.[0-9]+")


def _risky_numbers(text: str, toks: list[_Tok]) -> list[RiskyNumber]:
    """Numeric literals in SPARQL text that an endpoint may not hold exactly (see :func:`risky_number`)."""
    prefixes: dict[str, str] = {}
    for k, t in enumerate(toks):
        if t.keyword == "PREFIX" and k + 2 < len(toks) and toks[k + 2].kind == "iri":
            prefixes[toks[k + 1].text.rstrip(":")] = toks[k + 2].text[1:-1]
    found: list[RiskyNumber] = []
    newlines = [i for i, c in enumerate(text) if c == "\n"]  # line of a token: one bisect, not a count per token
    for k, t in enumerate(toks):
        line = bisect_left(newlines, t.start) + 1
        if t.kind == "word":
            lexical = t.text.rstrip(".")
            if _BARE_INTEGER.fullmatch(lexical):
                dt = XSD + "integer"
            elif _BARE_DECIMAL.fullmatch(lexical):
                dt = XSD + "decimal"
            else:
                continue
            if risky_number(lexical, dt):
                found.append(RiskyNumber(line, lexical, dt))
        elif t.kind == "string" and k + 2 < len(toks) and toks[k + 1].text == "^^":
            dt_tok = toks[k + 2]
            if dt_tok.kind == "iri":
                dt = dt_tok.text[1:-1]
            elif dt_tok.kind == "word" and ":" in dt_tok.text:
                prefix, _, local = dt_tok.text.partition(":")
                dt = prefixes.get(prefix, "") + local
            else:
                continue
            quote = 3 if t.text[:3] in ('"""', "'''") else 1
            try:
                lexical = unescape(t.text[quote:-quote])
            except ValueError:
                continue
            if risky_number(lexical, dt):
                found.append(RiskyNumber(line, lexical, dt))
    return found
