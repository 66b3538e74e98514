"""Writing terms as N-Triples / SPARQL text, escaped.

Both the loader (which emits N-Triples) and the query builder (which emits SPARQL) put values into text
through these functions only; no caller formats a literal or an IRI by hand. That is how user text never
reaches a query unescaped.
"""

from __future__ import annotations

import re

from ont_platform.errors import InputError

XSD = "http://www.w3.org/2001/XMLSchema#"
RDF_TYPE = "<http://www.w3.org/1999/02/22-rdf-syntax-ns#type>"

IRI_FORBIDDEN = re.compile(r'[\x00-\x20<>"{}|^`\\]')
"""Characters that may not appear inside <...> in N-Triples, Turtle and SPARQL (RFC 3987)."""
_BAD_IRI = IRI_FORBIDDEN
_ESCAPES = {'"': '\\"', "\\": "\\\\", "\n": "\\n", "\r": "\\r", "\t": "\\t", "\b": "\\b", "\f": "\\f"}
_NEEDS_ESCAPE = re.compile(r'["\\\x00-\x1f\x7f]')
_LANG = re.compile(r"^[A-Za-z]{1,8}(-[A-Za-z0-9]{1,8})*$")


def iri(value: str) -> str:
    """``<value>``, refusing anything that could end the IRI early or is not absolute."""
    if not value or _BAD_IRI.search(value) or ":" not in value:
        raise InputError(f"not a usable IRI: {value[:80]!r}")
    return f"<{value}>"


def _repl(m: re.Match[str]) -> str:
    ch = m.group(0)
    return _ESCAPES.get(ch, f"\\u{ord(ch):04X}")


def escape(text: str) -> str:
    """The body of a string literal: quote, backslash and control characters escaped, the rest as is.

    Most cells (ids, hashes, numbers) need nothing escaped; one search finds that out and returns the text
    itself, which is what makes formatting millions of literals cheap.
    """
    if _NEEDS_ESCAPE.search(text) is None:
        return text
    return _NEEDS_ESCAPE.sub(_repl, text)


def literal(text: str, datatype: str | None = None, lang: str | None = None) -> str:
    """A string literal, escaped; with an ``xsd:`` local name or full datatype IRI, or a language tag."""
    if lang is not None:
        if not _LANG.match(lang):
            raise InputError(f"not a language tag: {lang!r}")
        return f'"{escape(text)}"@{lang}'
    if datatype is None:
        return f'"{escape(text)}"'
    dt = datatype if ":" in datatype else XSD + datatype
    return f'"{escape(text)}"^^{iri(dt)}'


def triple(s: str, p: str, o: str) -> str:
    """One N-Triples line from already-formatted terms."""
    return f"{s} {p} {o} .\n"
