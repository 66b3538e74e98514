"""Value tests of SHACL Core as the W3C SHACL Recommendation defines them: datatypes with well-formed lexical
forms, node kinds, SPARQL's ``<`` for the range and ``sh:lessThan`` constraints, language ranges, regular
expression flags, and a default message for each constraint component.

Literals are rdflib terms. rdflib reads a well-formed literal into a Python value and already rewrites it in
canonical form (``"01"^^xsd:integer`` becomes ``"1"``), but it accepts lexical forms XML Schema does not
(``"1e3"^^xsd:decimal``) and cannot tell an out-of-range ``xsd:byte`` in every case; so the lexical forms of
the XML Schema datatypes SPARQL operates on are checked here against the XML Schema grammar, and rdflib's
``ill_typed`` flag is trusted only for the others.
"""

from __future__ import annotations

import re
from calendar import monthrange
from datetime import date, datetime, time
from decimal import Decimal
from typing import Any

from rdflib import RDF, XSD, BNode, Literal, URIRef
from rdflib.namespace import SH
from rdflib.term import Node

_XSD = str(XSD)
XSD_STRING = URIRef(_XSD + "string")
LANG_STRING = URIRef(str(RDF.langString))
XSD_BOOLEAN = URIRef(_XSD + "boolean")
XSD_DECIMAL = URIRef(_XSD + "decimal")
XSD_FLOAT = URIRef(_XSD + "float")
XSD_DOUBLE = URIRef(_XSD + "double")
XSD_DATETIME = URIRef(_XSD + "dateTime")
XSD_DATE = URIRef(_XSD + "date")
XSD_TIME = URIRef(_XSD + "time")

_INTEGER_RANGES: dict[URIRef, tuple[int | None, int | None]] = {
    URIRef(_XSD + name): bounds
    for name, bounds in {
        "integer": (None, None),
        "long": (-(2**63), 2**63 - 1),
        "int": (-(2**31), 2**31 - 1),
        "short": (-(2**15), 2**15 - 1),
        "byte": (-128, 127),
        "nonNegativeInteger": (0, None),
        "positiveInteger": (1, None),
        "nonPositiveInteger": (None, 0),
        "negativeInteger": (None, -1),
        "unsignedLong": (0, 2**64 - 1),
        "unsignedInt": (0, 2**32 - 1),
        "unsignedShort": (0, 2**16 - 1),
        "unsignedByte": (0, 255),
    }.items()
}
NUMERIC = frozenset({*_INTEGER_RANGES, XSD_DECIMAL, XSD_FLOAT, XSD_DOUBLE})
"""The numeric datatypes of SPARQL (XML Schema's integer types, decimal, float, double)."""

_TZ = r"(?:Z|[+-](?:(?:0[0-9]|1[0-3]):[0-5][0-9]|14:00))?"
_TIME = r"(?:(?:[01][0-9]|2[0-3]):[0-5][0-9]:[0-5][0-9](?:\.[0-9]+)?|24:00:00(?:\.0+)?)"
_DATE = r"(-?(?:[1-9][0-9]{3,}|0[0-9]{3}))-(0[1-9]|1[0-2])-(0[1-9]|[12][0-9]|3[01])"
_GRAMMAR: dict[URIRef, re.Pattern[str]] = {
    XSD_DECIMAL: re.compile(r"[+-]?(?:[0-9]+(?:\.[0-9]*)?|\.[0-9]+)"),
    XSD_FLOAT: re.compile(r"[+-]?(?:(?:[0-9]+(?:\.[0-9]*)?|\.[0-9]+)(?:[eE][+-]?[0-9]+)?|INF)|NaN"),
    XSD_BOOLEAN: re.compile(r"true|false|1|0"),
    XSD_DATETIME: re.compile(_DATE + "T" + _TIME + _TZ),
    XSD_DATE: re.compile(_DATE + _TZ),
    XSD_TIME: re.compile(_TIME + _TZ),
}
_GRAMMAR[XSD_DOUBLE] = _GRAMMAR[XSD_FLOAT]
_INTEGER = re.compile(r"[+-]?[0-9]+")
_XSD_SPACE = " \t\r\n"


def datatype_of(v: Literal) -> URIRef:
    """The datatype SPARQL's ``datatype()`` gives: ``xsd:string`` for a plain literal, ``rdf:langString`` for one
    with a language tag."""
    if v.datatype is not None:
        return URIRef(str(v.datatype))
    return LANG_STRING if v.language else XSD_STRING


def well_formed(v: Literal) -> bool:
    """Whether the literal's lexical form is in the lexical space of its datatype (for the datatypes SPARQL
    operates on, and rdflib's verdict: rdflib rewrites ``"none"^^xsd:boolean`` as ``"false"`` but marks it ill-typed)."""
    dt = v.datatype
    if dt is None:
        return True
    if getattr(v, "ill_typed", None) is True:  # rdflib saw a bad form, even if it then wrote a canonical one
        return False
    lexical = str(v).strip(_XSD_SPACE) if dt != XSD_STRING else str(v)
    bounds = _INTEGER_RANGES.get(dt)
    if bounds is not None:
        if _INTEGER.fullmatch(lexical) is None:
            return False
        n = int(lexical)
        return (bounds[0] is None or n >= bounds[0]) and (bounds[1] is None or n <= bounds[1])
    grammar = _GRAMMAR.get(dt)
    if grammar is not None:
        found = grammar.fullmatch(lexical)
        if found is None:
            return False
        if dt in (XSD_DATETIME, XSD_DATE):  # the 30th of February is no date
            year = int(found[1])  # a year before 1 has the leap years of the 400-year cycle it falls in
            days = monthrange(year if year > 0 else 2000 + year % 400, int(found[2]))[1]
            return year != 0 and int(found[3]) <= days
        return True
    return True


def datatype_ok(v: Node, dt: URIRef) -> bool:
    """``sh:datatype``: a literal whose datatype is ``dt`` and, for the datatypes SPARQL knows, well formed."""
    return isinstance(v, Literal) and datatype_of(v) == dt and well_formed(v)


_BNODE_KIND = URIRef(str(SH.BlankNode))
_IRI_KIND = URIRef(str(SH.IRI))
_LITERAL_KIND = URIRef(str(SH.Literal))
NODE_KINDS: dict[URIRef, frozenset[str]] = {
    _BNODE_KIND: frozenset({"bnode"}),
    _IRI_KIND: frozenset({"iri"}),
    _LITERAL_KIND: frozenset({"literal"}),
    URIRef(str(SH.BlankNodeOrIRI)): frozenset({"bnode", "iri"}),
    URIRef(str(SH.BlankNodeOrLiteral)): frozenset({"bnode", "literal"}),
    URIRef(str(SH.IRIOrLiteral)): frozenset({"iri", "literal"}),
}


def node_kind_ok(v: Node, kind: URIRef) -> bool:
    """``sh:nodeKind``."""
    allowed = NODE_KINDS[kind]
    if isinstance(v, BNode):
        return "bnode" in allowed
    if isinstance(v, Literal):
        return "literal" in allowed
    return "iri" in allowed


def compare(a: Node, b: Node) -> int | None:
    """SPARQL's ordering of two terms, as its ``<``, ``<=``, ``>``, ``>=`` operators use it: -1, 0 or 1, or None
    when they are not comparable (not both literals of comparable, well-formed types; a ``NaN``; a date with a
    time zone against one without)."""
    if not isinstance(a, Literal) or not isinstance(b, Literal):
        return None
    da, db = datatype_of(a), datatype_of(b)
    if da in NUMERIC and db in NUMERIC:
        if not (well_formed(a) and well_formed(b)):
            return None
        x, y = _number(a), _number(b)
        if x is None or y is None or x != x or y != y:  # NaN is unordered
            return None
        return (x > y) - (x < y)
    if da != db:
        return None
    if da == XSD_STRING:
        sa, sb = str(a), str(b)
        return (sa > sb) - (sa < sb)
    if da not in (XSD_BOOLEAN, XSD_DATETIME, XSD_DATE, XSD_TIME) or not (well_formed(a) and well_formed(b)):
        return None
    x, y = a.value, b.value
    if da == XSD_BOOLEAN:
        if not isinstance(x, bool) or not isinstance(y, bool):
            return None
        return (x > y) - (x < y)
    if not isinstance(x, (datetime, date, time)) or type(x) is not type(y):
        return None
    if isinstance(x, (datetime, time)) and isinstance(y, (datetime, time)):
        if (x.tzinfo is None) != (y.tzinfo is None):  # indeterminate in XML Schema's order
            return None
    try:
        return (x > y) - (x < y)  # type: ignore[operator]
    except TypeError:
        return None


def _number(v: Literal) -> int | Decimal | float | None:
    value = v.value
    if isinstance(value, bool) or not isinstance(value, (int, Decimal, float)):
        return None
    return value


def in_range(kind: str, bound: Node, v: Node) -> bool:
    """``sh:minInclusive`` ... ``sh:maxExclusive``: true only when SPARQL's comparison of the value with the
    bound is true (an incomparable value fails)."""
    cmp = compare(v, bound)
    if cmp is None:
        return False
    if kind == "minInclusive":
        return cmp >= 0
    if kind == "maxInclusive":
        return cmp <= 0
    if kind == "minExclusive":
        return cmp > 0
    return cmp < 0


def lang_matches(tag: str, ranges: tuple[str, ...]) -> bool:
    """SPARQL's ``langMatches`` (basic filtering, RFC 4647) of a language tag against any of ``ranges`` (lower
    case): ``*`` matches every non-empty tag, a range matches itself and its subtags, case-insensitively."""
    if not tag:
        return False
    tag = tag.lower()
    return any(r == "*" or tag == r or tag.startswith(r + "-") for r in ranges)


def text_of(v: Node) -> str:
    """SPARQL's ``str()``: the IRI, or the lexical form of a literal."""
    return str(v)


_FLAGS = {"i": re.IGNORECASE, "m": re.MULTILINE, "s": re.DOTALL, "x": re.VERBOSE}


def compile_pattern(pattern: str, flags: str = "") -> re.Pattern[str]:
    """An XPath regular expression with its flags (``s``, ``m``, ``i``, ``x``, ``q``) as a Python one.
    :class:`ValueError` for a flag XPath does not know or an expression Python does not read."""
    options = 0
    for flag in flags:
        if flag == "q":
            continue
        if flag not in _FLAGS:
            raise ValueError(f"unknown regular expression flag {flag!r}")
        options |= _FLAGS[flag]
    if "q" in flags:
        pattern = re.escape(pattern)
    try:
        return re.compile(pattern, options)
    except re.error as exc:
        raise ValueError(f"regular expression {pattern!r}: {exc}") from exc


def default_message(kind: str, arg: Any) -> str:
    """The message of a result whose shape has no ``sh:message``."""
    if kind in ("minCount", "maxCount"):
        return f"{'Fewer' if kind == 'minCount' else 'More'} than {arg} values"
    if kind in ("minLength", "maxLength"):
        return f"Value is {'shorter' if kind == 'minLength' else 'longer'} than {arg} characters (or a blank node)"
    if kind in ("minInclusive", "maxInclusive", "minExclusive", "maxExclusive"):
        op = {"minInclusive": ">=", "maxInclusive": "<=", "minExclusive": ">", "maxExclusive": "<"}[kind]
        return f"Value is not {op} {_show(arg)}"
    texts = {
        "class": "Value is not an instance of {}",
        "datatype": "Value is not a well-formed literal of datatype {}",
        "nodeKind": "Value is not of node kind {}",
        "pattern": "Value does not match the pattern {}",
        "hasValue": "Missing the value {}",
        "equals": "Value is not a value of {} too, or the other way round",
        "disjoint": "Value is also a value of {}",
        "lessThan": "Value is not less than the values of {}",
        "lessThanOrEquals": "Value is not less than or equal to the values of {}",
    }
    if kind in texts:
        shown = arg.pattern if isinstance(arg, re.Pattern) else _show(arg)
        return texts[kind].format(shown)
    fixed = {
        "in": "Value is not one of the allowed values",
        "languageIn": "Value has no allowed language tag",
        "uniqueLang": "Two values share a language tag",
        "node": "Value does not conform to the node shape",
        "not": "Value conforms to a shape it must not conform to",
        "and": "Value does not conform to every shape of sh:and",
        "or": "Value conforms to none of the shapes of sh:or",
        "xone": "Value does not conform to exactly one shape of sh:xone",
        "closed": "The property is not allowed by the closed shape",
    }
    return fixed.get(kind, f"Violates sh:{kind}")


def _show(term: object) -> str:
    if isinstance(term, (URIRef, Literal, BNode)):
        return term.n3()
    return str(term)


__all__ = [
    "LANG_STRING",
    "NODE_KINDS",
    "NUMERIC",
    "XSD_STRING",
    "compare",
    "compile_pattern",
    "datatype_of",
    "datatype_ok",
    "default_message",
    "in_range",
    "lang_matches",
    "node_kind_ok",
    "text_of",
    "well_formed",
]
