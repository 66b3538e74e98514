"""RDF text in, SPARQL text out, for the remote store.

N-Triples and Turtle are parsed by pyoxigraph (:func:`pyoxigraph.parse`, strict, lexical forms kept exactly:
``"0123"^^xsd:integer`` stays ``0123`` where rdflib's parser would make it ``123``), so a malformed document is
reported with its line before any request is sent. What is written by hand here is what no library does for us:

* the SPARQL text of each term (:func:`sparql_iri`, :func:`sparql_string`). pyoxigraph writes terms as N-Triples,
  and SPARQL reads ``\\u`` escapes before it parses, so the store writes only the escapes it knows every server
  reads the same way, and checks each IRI against what a SPARQL ``IRIREF`` may carry;
* batch-local blank node labels and the split of a batch into requests that keep each group of triples joined by
  blank nodes together (:func:`chunks`): a label names one node only inside one request;
* the numbers a server would silently change (:func:`risky_number`): a fact about servers, not about syntax.
"""

from __future__ import annotations

import re
from collections.abc import Iterator
from dataclasses import dataclass, field
from decimal import Decimal, InvalidOperation

import pyoxigraph as ox

from ont_platform.errors import RDFSyntaxError
from ont_platform.rdf_terms import IRI_FORBIDDEN, XSD

XSD_STRING = XSD + "string"

INT64_MIN = -(2**63)
INT64_MAX = 2**63 - 1

INTEGER_TYPES = frozenset(
    XSD + name
    for name in (
        "integer",
        "long",
        "int",
        "short",
        "byte",
        "nonNegativeInteger",
        "positiveInteger",
        "nonPositiveInteger",
        "negativeInteger",
        "unsignedLong",
        "unsignedInt",
        "unsignedShort",
        "unsignedByte",
    )
)
DECIMAL_TYPE = XSD + "decimal"
DECIMAL_SAFE_DIGITS = 15
"""Decimals with more significant or fractional digits than this are checked with the endpoint before a write."""

_FORMATS = {"N-Triples": ox.RdfFormat.N_TRIPLES, "Turtle": ox.RdfFormat.TURTLE}
_EOL = re.compile(r"\r\n|\r|\n")
_CONTENT_LINE = re.compile(r"[ \t]*[^ \t#]")
# Characters written as escapes inside SPARQL string literals.
_SPARQL_STRING_ESCAPES = re.compile(r"[\\\"\x00-\x1f\x7f]")
_SPARQL_SHORT_ESCAPES = {"\\": "\\\\", '"': '\\"', "\n": "\\n", "\r": "\\r", "\t": "\\t"}

_INTEGER_LEXICAL = re.compile(r"[+-]?[0-9]+")
_DECIMAL_LEXICAL = re.compile(r"[+-]?(?:[0-9]+(?:\.[0-9]*)?|\.[0-9]+)")


def sparql_iri(iri: str) -> str:
    """``<iri>`` for SPARQL text; ValueError when the IRI holds a character an IRIREF cannot carry."""
    bad = IRI_FORBIDDEN.search(iri)
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
    """An RDF document read into SPARQL text, ready to be sent.

    ``triples`` holds one SPARQL text per triple (``s p o``, no final dot) and ``bnodes`` the batch-local blank
    node ids each triple mentions (empty tuple for most triples).
    """

    triples: list[str] = field(default_factory=list)
    bnodes: list[tuple[int, ...]] = field(default_factory=list)
    risky: list[RiskyNumber] = field(default_factory=list)

    def __len__(self) -> int:
        return len(self.triples)


def risky_number(lexical: str, datatype: str) -> bool:
    """True for an integer-typed literal outside int64, or a decimal with more than 15 digits.

    Written by hand because it is a fact about servers, not about syntax: Virtuoso 7.2 wraps integers from 2^63
    into negative numbers and rounds decimals to about 15 digits, and no parser knows that.
    """
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


def parse_ntriples(data: str | bytes) -> ParsedBatch:
    """Read an N-Triples document strictly. Raises :class:`RDFSyntaxError` naming the first bad line."""
    return parse_rdf(data, "N-Triples")


def parse_rdf(data: str | bytes, syntax: str) -> ParsedBatch:
    """Read an N-Triples or Turtle document (``syntax``) with pyoxigraph into SPARQL text.

    Raises :class:`RDFSyntaxError` naming the line of the first error, for terms no request may carry as well
    (RDF 1.2 triple terms and base directions, which the servers do not read). A risky number is given the line
    it is on in N-Triples, and the position of its triple in a Turtle document.
    """
    batch = ParsedBatch()
    labels: dict[str, int] = {}
    iris: dict[str, str] = {}
    risky_at: list[tuple[int, str, str]] = []  # (index of the triple, lexical, datatype)
    ntriples = syntax == "N-Triples"

    def iri(node: ox.NamedNode) -> str:
        value = node.value
        text = iris.get(value)
        if text is None:
            text = iris[value] = sparql_iri(value)
        return text

    def resource(node: object, ids: list[int]) -> str:
        if isinstance(node, ox.NamedNode):
            return iri(node)
        if isinstance(node, ox.BlankNode):
            idx = labels.setdefault(node.value, len(labels))
            ids.append(idx)
            return f"_:b{idx}"
        raise ValueError("RDF 1.2 triple terms are not supported")

    if isinstance(data, str):
        try:
            data = data.encode("utf-8")
        except UnicodeEncodeError as exc:
            raise RDFSyntaxError(f"{syntax}: not valid Unicode text ({exc.reason} at character {exc.start})") from exc
    try:
        for quad in ox.parse(data, format=_FORMATS[syntax]):
            ids: list[int] = []
            s = resource(quad.subject, ids)
            p = iri(quad.predicate)
            o = quad.object
            if isinstance(o, ox.Literal):
                lexical = o.value
                text = sparql_string(lexical)
                if o.direction is not None:
                    raise ValueError("literals with a base direction (RDF 1.2) are not supported")
                if o.language is not None:
                    text += "@" + o.language
                else:
                    dt = o.datatype.value
                    if dt != XSD_STRING:  # "x"^^xsd:string is "x" in RDF 1.1 (pyoxigraph cannot tell them apart)
                        text += "^^" + iri(o.datatype)
                        if risky_number(lexical, dt):
                            risky_at.append((len(batch.triples), lexical, dt))
            else:
                text = resource(o, ids)
            batch.triples.append(f"{s} {p} {text}")
            batch.bnodes.append(tuple(ids))
    except SyntaxError as exc:
        where = f"{syntax} line {exc.lineno}" if exc.lineno else syntax
        raise RDFSyntaxError(f"{where}: {str(exc)[:300]}") from exc
    except ValueError as exc:
        lines = _content_lines(data) if ntriples else []
        at = len(batch.triples)
        where = f"{syntax} line {lines[at]}" if at < len(lines) else syntax
        raise RDFSyntaxError(f"{where}: {exc}") from exc
    if risky_at:
        numbers = _content_lines(data) if ntriples else []
        batch.risky = [RiskyNumber(numbers[k] if k < len(numbers) else k + 1, lex, dt) for k, lex, dt in risky_at]
    return batch


def _content_lines(data: bytes) -> list[int]:
    """The numbers of the lines of an N-Triples document that hold a triple (one triple per line, in order)."""
    text = data.decode("utf-8", errors="replace")
    return [n for n, line in enumerate(_EOL.split(text), start=1) if _CONTENT_LINE.match(line)]


def chunks(batch: ParsedBatch, *, max_triples: int, max_chars: int) -> Iterator[tuple[list[str], bool]]:
    """Split a batch into chunks of at most ``max_triples`` triples and about ``max_chars`` characters.

    Triples that share a blank node stay in one chunk (a blank node label names one node only inside one
    request), so a chunk can be larger when one connected group of blank nodes is. Yields the triples of each
    chunk and whether it holds blank nodes. Written by hand: the limits are those of servers' request parsers
    (Virtuoso refuses ``INSERT DATA`` past 4,990 triples), which no RDF library knows.
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
