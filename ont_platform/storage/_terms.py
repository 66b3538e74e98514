"""Conversion of engine terms to rdflib terms, keeping lexical forms exactly."""

from __future__ import annotations

import pyoxigraph as ox
from rdflib import BNode, Literal, URIRef
from rdflib.term import Node

_XSD_STRING = "http://www.w3.org/2001/XMLSchema#string"
_RDF_LANGSTRING = "http://www.w3.org/1999/02/22-rdf-syntax-ns#langString"


def literal(lexical: str, datatype: str | None = None, language: str | None = None) -> Literal:
    """Build an rdflib Literal without letting rdflib coerce the lexical form (big integers stay exact)."""
    if language:
        return Literal(lexical, lang=language)
    if datatype is None or datatype == _XSD_STRING:
        return Literal(lexical)
    # normalize=False: rdflib would otherwise rewrite the lexical form ("0123" → "123", "1.0E0" → "1.0")
    return Literal(lexical, datatype=URIRef(datatype), normalize=False)


def from_oxigraph(term: object) -> Node | None:
    """Translate one pyoxigraph term (or None for an unbound variable)."""
    if term is None:
        return None
    if isinstance(term, ox.NamedNode):
        return URIRef(term.value)
    if isinstance(term, ox.Literal):
        dt: str | None = term.datatype.value if term.datatype is not None else None
        if dt == _RDF_LANGSTRING:
            dt = None
        return literal(term.value, dt, term.language)
    if isinstance(term, ox.BlankNode):
        return BNode(term.value)
    raise TypeError(f"unsupported term {term!r}")


Parts = tuple[int, str] | tuple[int, str, str | None, str | None]
"""A term as plain values that pickle cheaply: ``(0, iri)``, ``(1, bnode id)``, ``(2, lexical, datatype, lang)``."""


def parts_from_oxigraph(term: object) -> Parts | None:
    """A pyoxigraph term as :data:`Parts`, for sending from a query worker to its parent."""
    if term is None:
        return None
    if isinstance(term, ox.NamedNode):
        return (0, term.value)
    if isinstance(term, ox.Literal):
        dt = term.datatype.value if term.datatype is not None else None
        return (2, term.value, None if dt == _RDF_LANGSTRING else dt, term.language)
    if isinstance(term, ox.BlankNode):
        return (1, term.value)
    raise TypeError(f"unsupported term {term!r}")


def from_parts(parts: Parts | None) -> Node | None:
    """The rdflib term :func:`from_oxigraph` gives for the same pyoxigraph term."""
    if parts is None:
        return None
    if parts[0] == 0:
        return URIRef(parts[1])
    if parts[0] == 1:
        return BNode(parts[1])
    _, lexical, dt, lang = parts  # type: ignore[misc]  # tag 2 is the 4-tuple; mypy cannot narrow by parts[0]
    return literal(lexical, dt, lang)


def to_oxigraph(term: Node) -> ox.NamedNode | ox.BlankNode | ox.Literal:
    """The pyoxigraph term of an rdflib IRI, blank node (the same label) or literal (the same lexical form)."""
    if isinstance(term, URIRef):
        return ox.NamedNode(str(term))
    if isinstance(term, BNode):
        return ox.BlankNode(str(term))
    if isinstance(term, Literal):
        if term.language:
            return ox.Literal(str(term), language=term.language)
        if term.datatype is not None:
            return ox.Literal(str(term), datatype=ox.NamedNode(str(term.datatype)))
        return ox.Literal(str(term))
    raise TypeError(f"unsupported term {term!r}")
