"""N-Triples reading and SPARQL term writing for the remote store.

The remote store never hands N-Triples text to a server as it came. It reads every line here first, strictly
(RDF 1.1 N-Triples), so that a malformed line is reported with its number before any request is sent, and it
writes each term back as SPARQL text it controls: IRIs checked against what a SPARQL ``IRIREF`` may carry,
literals escaped, lexical forms kept exactly as written (``"0123"^^xsd:integer`` stays ``0123``; rdflib's own
parser would make it ``123``), blank nodes relabelled per batch.

It also turns SPARQL 1.1 JSON results into rdflib terms (:func:`term_from_json`).
"""

from __future__ import annotations

import hashlib
import re
from collections.abc import Iterator
from dataclasses import dataclass, field
from decimal import Decimal, InvalidOperation

from rdflib import BNode, Literal, URIRef
from rdflib.term import Node

from ont_platform.errors import RDFSyntaxError
from ont_platform.rdf_terms import IRI_FORBIDDEN

XSD = "http://www.w3.org/2001/XMLSchema#"
RDF_LANGSTRING = "http://www.w3.org/1999/02/22-rdf-syntax-ns#langString"

INT64_MIN = -(2**63)
INT64_MAX = 2**63 - 1

INTEGER_TYPES = frozenset(
    XSD + name
    for name in (
        "integer", "long", "int", "short", "byte",
        "nonNegativeInteger", "positiveInteger", "nonPositiveInteger", "negativeInteger",
        "unsignedLong", "unsignedInt", "unsignedShort", "unsignedByte",
    )
)
DECIMAL_TYPE = XSD + "decimal"
DECIMAL_SAFE_DIGITS = 15
"""Decimals with more significant or fractional digits than this are checked with the endpoint before a write."""

# --- N-Triples grammar (RDF 1.1), one triple per line -------------------------------------------------------

_UCHAR = r"\\u[0-9A-Fa-f]{4}|\\U[0-9A-Fa-f]{8}"
_IRIREF = rf"<((?:[^\x00-\x20<>\"{{}}|^`\\]|{_UCHAR})*)>"
_PN_CHARS_BASE = (
    "A-Za-z\u00c0-\u00d6\u00d8-\u00f6\u00f8-\u02ff\u0370-\u037d\u037f-\u1fff\u200c-\u200d"
    "\u2070-\u218f\u2c00-\u2fef\u3001-\ud7ff\uf900-\ufdcf\ufdf0-\ufffd\U00010000-\U000effff"
)
_PN_CHARS_U = _PN_CHARS_BASE + "_:"
_PN_CHARS = _PN_CHARS_U + r"\-0-9\u00b7\u0300-\u036f\u203f-\u2040"
_BNODE = rf"_:([{_PN_CHARS_U}0-9](?:[{_PN_CHARS}.]*[{_PN_CHARS}])?)"
_STRING = rf"\"((?:[^\"\\\n\r]|\\[tbnrf\"'\\]|{_UCHAR})*)\""
_LANGTAG = r"@([a-zA-Z]+(?:-[a-zA-Z0-9]+)*)"
_WS = r"[ \t]*"

_SUBJECT = rf"(?:{_IRIREF}|{_BNODE})"
_OBJECT = rf"(?:{_IRIREF}|{_BNODE}|{_STRING}(?:\^\^{_IRIREF}|{_LANGTAG})?)"
_TRIPLE = re.compile(
    rf"{_WS}{_SUBJECT}{_WS}{_IRIREF}{_WS}{_OBJECT}{_WS}\.{_WS}(?:#[^\n\r]*)?"
)
_BLANK_OR_COMMENT = re.compile(rf"{_WS}(?:#[^\n\r]*)?")
_EOL = re.compile(r"\r\n|\r|\n")

_ESCAPE = re.compile(rf"\\[tbnrf\"'\\]|{_UCHAR}")
_ECHAR = {"t": "\t", "b": "\b", "n": "\n", "r": "\r", "f": "\f", '"': '"', "'": "'", "\\": "\\"}

# What a SPARQL IRIREF may not contain (after escapes are resolved).
_SPARQL_IRI_FORBIDDEN = IRI_FORBIDDEN
# Characters written as escapes inside SPARQL string literals.
_SPARQL_STRING_ESCAPES = re.compile(r"[\\\"\x00-\x1f\x7f]")
_SPARQL_SHORT_ESCAPES = {"\\": "\\\\", '"': '\\"', "\n": "\\n", "\r": "\\r", "\t": "\\t"}

_INTEGER_LEXICAL = re.compile(r"[+-]?[0-9]+")
_DECIMAL_LEXICAL = re.compile(r"[+-]?(?:[0-9]+(?:\.[0-9]*)?|\.[0-9]+)")


def unescape(text: str) -> str:
    def one(m: re.Match[str]) -> str:
        s = m.group(0)
        if s[1] in "uU":
            code = int(s[2:], 16)
            if code > 0x10FFFF or 0xD800 <= code <= 0xDFFF:
                raise ValueError(f"escape {s} is not a Unicode scalar value")
            return chr(code)
        return _ECHAR[s[1]]

    return _ESCAPE.sub(one, text) if "\\" in text else text


def sparql_iri(iri: str) -> str:
    """``<iri>`` for SPARQL text; ValueError when the IRI holds a character an IRIREF cannot carry."""
    bad = _SPARQL_IRI_FORBIDDEN.search(iri)
    if bad:
        raise ValueError(f"IRI {iri[:80]!r} contains {bad.group(0)!r}, which an IRI may not contain")
    return f"<{iri}>"


def sparql_string(value: str) -> str:
    """A double-quoted SPARQL string literal holding exactly ``value``."""

    def one(m: re.Match[str]) -> str:
        c = m.group(0)
        return _SPARQL_SHORT_ESCAPES.get(c) or f"\\u{ord(c):04X}"

    return f'"{_SPARQL_STRING_ESCAPES.sub(one, value)}"'


@dataclass(slots=True)
class RiskyNumber:
    """A numeric literal an endpoint may not hold exactly (integer beyond int64, decimal with many digits)."""

    line: int
    lexical: str
    datatype: str

    @property
    def sparql(self) -> str:
        return f"{sparql_string(self.lexical)}^^<{self.datatype}>"

    def same_value(self, lexical: str) -> bool:
        """Whether ``lexical`` (as an endpoint returned it) denotes the same number."""
        try:
            return Decimal(lexical) == Decimal(self.lexical)
        except InvalidOperation:
            return False


@dataclass(slots=True)
class ParsedBatch:
    """An N-Triples document read line by line, ready to be written as SPARQL.

    ``triples`` holds one SPARQL text per triple (``s p o``, no final dot) and ``bnodes`` the batch-local blank
    node ids each triple mentions (empty tuple for most triples).
    """

    triples: list[str] = field(default_factory=list)
    bnodes: list[tuple[int, ...]] = field(default_factory=list)
    risky: list[RiskyNumber] = field(default_factory=list)

    def __len__(self) -> int:
        return len(self.triples)


def risky_number(lexical: str, datatype: str) -> bool:
    """True for an integer-typed literal outside int64, or a decimal with more than 15 digits."""
    if datatype in INTEGER_TYPES:
        if not _INTEGER_LEXICAL.fullmatch(lexical):
            return False
        return not INT64_MIN <= int(lexical) <= INT64_MAX
    if datatype == DECIMAL_TYPE:
        if not _DECIMAL_LEXICAL.fullmatch(lexical):
            return False
        digits = lexical.lstrip("+-")
        whole, _, frac = digits.partition(".")
        significant = (whole + frac).strip("0")
        return len(significant) > DECIMAL_SAFE_DIGITS or len(frac.rstrip("0")) > DECIMAL_SAFE_DIGITS
    return False


def parse_ntriples(data: str) -> ParsedBatch:
    """Read an N-Triples document strictly. Raises :class:`RDFSyntaxError` naming the first bad line."""
    batch = ParsedBatch()
    labels: dict[str, int] = {}

    def bnode(label: str) -> tuple[str, int]:
        idx = labels.setdefault(label, len(labels))
        return f"_:b{idx}", idx

    lineno = 0
    for lineno, line in enumerate(_EOL.split(data), start=1):
        m = _TRIPLE.fullmatch(line)
        if m is None:
            if _BLANK_OR_COMMENT.fullmatch(line):
                continue
            raise RDFSyntaxError(f"N-Triples line {lineno}: not a triple: {line[:120]!r}")
        s_iri, s_bn, p_iri, o_iri, o_bn, o_lex, o_dt, o_lang = m.groups()
        try:
            ids: list[int] = []
            if s_iri is not None:
                s = sparql_iri(unescape(s_iri))
            else:
                s, i = bnode(s_bn)
                ids.append(i)
            p = sparql_iri(unescape(p_iri))
            if o_iri is not None:
                o = sparql_iri(unescape(o_iri))
            elif o_bn is not None:
                o, i = bnode(o_bn)
                ids.append(i)
            else:
                lexical = unescape(o_lex)
                o = sparql_string(lexical)
                if o_lang is not None:
                    o += "@" + o_lang
                elif o_dt is not None:
                    dt = unescape(o_dt)
                    if dt == RDF_LANGSTRING:
                        raise ValueError("rdf:langString needs a language tag")
                    o += "^^" + sparql_iri(dt)
                    if risky_number(lexical, dt):
                        batch.risky.append(RiskyNumber(lineno, lexical, dt))
        except ValueError as exc:
            raise RDFSyntaxError(f"N-Triples line {lineno}: {exc}") from exc
        batch.triples.append(f"{s} {p} {o}")
        batch.bnodes.append(tuple(ids))
    return batch


def chunks(batch: ParsedBatch, *, max_triples: int, max_chars: int) -> Iterator[tuple[list[str], bool]]:
    """Split a batch into chunks of at most ``max_triples`` triples and about ``max_chars`` characters.

    Triples that share a blank node stay in one chunk (a blank node label names one node only inside one
    request), so a chunk can be larger when one connected group of blank nodes is. Yields the triples of each
    chunk and whether it holds blank nodes.
    """
    n = len(batch.triples)
    if not any(batch.bnodes):
        yield from _plain_chunks(batch.triples, range(n), max_triples, max_chars, False)
        return
    # union-find over blank nodes: the triples of one component go together
    parent: dict[int, int] = {}

    def find(x: int) -> int:
        parent.setdefault(x, x)
        while parent[x] != x:
            parent[x] = parent[parent[x]]
            x = parent[x]
        return x

    for ids in batch.bnodes:
        if ids:
            root = find(ids[0])
            for other in ids[1:]:
                parent[find(other)] = root
    groups: dict[int, list[int]] = {}
    plain: list[int] = []
    for i, ids in enumerate(batch.bnodes):
        if ids:
            groups.setdefault(find(ids[0]), []).append(i)
        else:
            plain.append(i)
    yield from _plain_chunks(batch.triples, plain, max_triples, max_chars, False)
    current: list[str] = []
    size = 0
    for members in groups.values():
        texts = [batch.triples[i] for i in members]
        cost = sum(len(t) for t in texts)
        if current and (len(current) + len(texts) > max_triples or size + cost > max_chars):
            yield current, True
            current, size = [], 0
        current.extend(texts)
        size += cost
    if current:
        yield current, True


def _plain_chunks(
    triples: list[str], order: range | list[int], max_triples: int, max_chars: int, has_bnodes: bool
) -> Iterator[tuple[list[str], bool]]:
    current: list[str] = []
    size = 0
    for i in order:
        text = triples[i]
        if current and (len(current) >= max_triples or size + len(text) > max_chars):
            yield current, has_bnodes
            current, size = [], 0
        current.append(text)
        size += len(text)
    if current:
        yield current, has_bnodes


# --- SPARQL 1.1 JSON results to rdflib terms -----------------------------------------------------------------

_SAFE_BNODE = re.compile(r"[A-Za-z0-9_]+")
_BOOLEAN_CANONICAL = {"1": "true", "0": "false"}


def bnode_from_label(value: str) -> BNode:
    """A blank node for a label an endpoint returned, valid in N-Triples and stable across requests."""
    label = value[len("nodeID://"):] if value.startswith("nodeID://") else value
    if not _SAFE_BNODE.fullmatch(label):
        label = "x" + hashlib.sha1(value.encode("utf-8")).hexdigest()[:24]
    return BNode(label)


def term_from_json(binding: dict[str, str]) -> Node:
    """One value of a SPARQL JSON result as an rdflib term, lexical form kept.

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
        if not datatype or datatype == XSD + "string":
            return Literal(value)
        if datatype == XSD + "boolean":
            value = _BOOLEAN_CANONICAL.get(value, value)
        return Literal(value, datatype=URIRef(datatype), normalize=False)
    if kind == "triple":
        raise ValueError("RDF-star triple terms are not supported")
    raise ValueError(f"unknown term type {kind!r}")
