"""The remote store's update rewriter: every operation made to work in the store's graph, and the numbers in it
a server would change.

Written by hand on the shared lexer (:func:`ont_platform.sparql.inspect.tokens`) because no library does it:
rdflib's parser gives a parse tree without positions in the text, and writing an update back from its algebra
would change what the caller wrote (prefixed names expanded, literals re-written, blank nodes renamed); the
rewrite here only wraps the caller's own text (``WITH <g>``, ``GRAPH <g> { }``). It is also on the path of every
update, where rdflib's parse costs tens of milliseconds (see :mod:`ont_platform.sparql.inspect`).
"""

from __future__ import annotations

import re
from bisect import bisect_left

from ont_platform.errors import QueryError, QueryRefused
from ont_platform.rdf_terms import XSD
from ont_platform.sparql.inspect import Token, prologue_end, tokens
from ont_platform.storage._ntriples import RiskyNumber, risky_number

_GRAPH_OPS = {"LOAD", "CLEAR", "DROP", "CREATE", "ADD", "MOVE", "COPY"}
_UCHAR = r"\\u[0-9A-Fa-f]{4}|\\U[0-9A-Fa-f]{8}"
_ESCAPE = re.compile(rf"\\[tbnrf\"'\\]|{_UCHAR}")
_ECHAR = {"t": "\t", "b": "\b", "n": "\n", "r": "\r", "f": "\f", '"': '"', "'": "'", "\\": "\\"}
_BARE_INTEGER = re.compile(r"[0-9]+")
_BARE_DECIMAL = re.compile(r"[0-9]*\.[0-9]+")


def unescape(text: str) -> str:
    """The value of the body of a SPARQL string token (``\\t``, ``\\"``, ``\\u00E9`` ... resolved)."""

    def one(m: re.Match[str]) -> str:
        s = m.group(0)
        if s[1] in "uU":
            code = int(s[2:], 16)
            if code > 0x10FFFF or 0xD800 <= code <= 0xDFFF:
                raise ValueError(f"escape {s} is not a Unicode scalar value")
            return chr(code)
        return _ECHAR[s[1]]

    return _ESCAPE.sub(one, text) if "\\" in text else text


def scope_update(text: str, graph: str) -> tuple[str, list[RiskyNumber]]:
    """Rewrite an update so that every operation works in ``graph`` (a SPARQL ``<iri>``); also give the numbers in
    it an endpoint may not hold exactly.

    ``INSERT DATA``/``DELETE DATA`` get a ``GRAPH <g> { }`` block, ``DELETE WHERE`` becomes ``WITH <g> DELETE {P}
    WHERE {P}``, ``DELETE``/``INSERT ... WHERE`` get a ``WITH <g>``. Refused with :class:`QueryRefused`: graph
    management (``LOAD``, ``CLEAR``, ...), ``SERVICE``, and operations that name graphs themselves.
    """
    if not isinstance(text, str):
        raise QueryError("a SPARQL update must be a string")
    toks = tokens(text)
    risky = _risky_numbers(text, toks)
    out: list[str] = []
    pos = 0  # text copied up to here
    i = 0
    while i < len(toks):
        i = prologue_end(toks, i)
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


def _scope_operation(text: str, op: list[Token], graph: str) -> str:
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


def _matching_brace(toks: list[Token], open_i: int) -> int | None:
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


def _risky_numbers(text: str, toks: list[Token]) -> list[RiskyNumber]:
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
