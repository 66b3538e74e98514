"""The store interface every backend implements.

Layers above the store speak two plain languages to it: N-Triples text for writes and SPARQL text for reads.
That keeps the backends interchangeable (Oxigraph embedded, rdflib, a remote SPARQL 1.1 endpoint) and lets a
loader build a whole batch once and hand it over in one atomic call.

Query results come back as rdflib terms (:class:`rdflib.URIRef`, :class:`rdflib.Literal`,
:class:`rdflib.BNode`), the common currency of Python RDF code. Literals keep their lexical form: an
``xsd:integer`` above 2^63 is never squeezed through int64 or float.
"""

from __future__ import annotations

from abc import ABC, abstractmethod
from collections.abc import Mapping
from enum import Enum
from typing import ClassVar

from rdflib.term import Node

Row = Mapping[str, Node | None]
"""One solution of a SELECT query: variable name (without ``?``) to term, ``None`` when unbound."""


class RdfFormat(str, Enum):
    """Serialisations the stores read and write."""

    TURTLE = "turtle"
    NTRIPLES = "ntriples"
    JSONLD = "json-ld"

    @classmethod
    def parse(cls, name: str) -> RdfFormat:
        """Accept a format name or a file suffix (``ttl``, ``nt``, ``jsonld``, ``json-ld``)."""
        key = name.lower().lstrip(".")
        aliases = {
            "turtle": cls.TURTLE, "ttl": cls.TURTLE,
            "ntriples": cls.NTRIPLES, "nt": cls.NTRIPLES, "n-triples": cls.NTRIPLES,
            "json-ld": cls.JSONLD, "jsonld": cls.JSONLD, "json": cls.JSONLD,
        }
        if key not in aliases:
            from ont_platform.errors import InputError

            raise InputError(f"unknown RDF format {name!r}; use one of: turtle (ttl), ntriples (nt), json-ld (jsonld)")
        return aliases[key]


class Store(ABC):
    """A triple store holding one graph (the default graph of the backend, or the configured graph).

    Guarantees every backend keeps:

    * :meth:`add_ntriples`, :meth:`load_rdf` and :meth:`update` are all or nothing: after an error the
      store holds exactly what it held before.
    * :meth:`select` and :meth:`ask` never write.
    * Errors are :class:`ont_platform.errors.OntError` subclasses, never the engine's own exceptions.
    """

    backend: ClassVar[str]

    @abstractmethod
    def select(self, query: str, *, timeout: float | None = None) -> list[Row]:
        """Run a SPARQL SELECT and return its solutions in order."""

    @abstractmethod
    def ask(self, query: str, *, timeout: float | None = None) -> bool:
        """Run a SPARQL ASK."""

    @abstractmethod
    def add_ntriples(self, data: str) -> None:
        """Add the triples of an N-Triples document, all or nothing."""

    @abstractmethod
    def update(self, sparql_update: str) -> None:
        """Run a SPARQL UPDATE request, all or nothing."""

    @abstractmethod
    def dump(self, fmt: RdfFormat = RdfFormat.NTRIPLES) -> bytes:
        """Serialise the whole graph."""

    @abstractmethod
    def load_rdf(self, data: bytes, fmt: RdfFormat) -> None:
        """Parse RDF text and add its triples, all or nothing. Syntax errors raise RDFSyntaxError."""

    @abstractmethod
    def __len__(self) -> int:
        """Number of triples in the graph."""

    @abstractmethod
    def clear(self) -> None:
        """Remove every triple."""

    @abstractmethod
    def close(self) -> None:
        """Release the backend (files, locks, connections). Idempotent."""

    def __enter__(self) -> Store:
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()
