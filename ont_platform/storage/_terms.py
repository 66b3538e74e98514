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
        dt = term.datatype.value if term.datatype is not None else None
        if dt == _RDF_LANGSTRING:
            dt = None
        return literal(term.value, dt, term.language)
    if isinstance(term, ox.BlankNode):
        return BNode(term.value)
    raise TypeError(f"unsupported term {term!r}")
