"""The rdflib backend: an in-memory :class:`rdflib.Graph`, or one the user hands in.

For small graphs and for code that already holds an rdflib Graph. Its SPARQL engine is orders of magnitude
slower than Oxigraph on path queries, so large data belongs in the embedded default.
"""

from __future__ import annotations

from collections.abc import Iterable
from typing import Any

from rdflib import Graph
from rdflib.query import Result

from ont_platform.errors import QueryError, StoreError
from ont_platform.storage.base import RdfFormat, Rows, Store, check_max_rows
from ont_platform.storage.rdf_io import parse_graph, serialize_graph


class RdflibStore(Store):
    """Store over an rdflib Graph. Writes parse into a scratch graph first, then merge, so they are all or nothing."""

    backend = "rdflib"

    def __init__(self, graph: Graph | None = None) -> None:
        self.graph: Graph | None = graph if graph is not None else Graph()
        self._own = graph is None

    @property
    def generation(self) -> int | None:
        """Counted for a graph this store made; ``None`` for one the caller handed in (they may change it)."""
        return self._generation if self._own else None

    @property
    def _g(self) -> Graph:
        if self.graph is None:
            raise StoreError("store is closed")
        return self.graph

    def _run(self, query: str) -> Result:
        try:
            return self._g.query(query)
        except RecursionError as exc:
            raise QueryError("query too deep for rdflib's engine (unbounded path?)") from exc
        except Exception as exc:  # pyparsing and rdflib raise many unrelated types
            raise QueryError(f"query failed: {type(exc).__name__}: {str(exc)[:300]}") from exc

    def select(
        self, query: str, *, timeout: float | None = None, max_rows: int | None = None, untrusted: bool = False
    ) -> Rows:
        """Run a SELECT. ``timeout`` is not enforced: rdflib's pure-Python engine cannot be stopped."""
        check_max_rows(max_rows)
        result = self._run(query)
        if result.type != "SELECT":
            raise QueryError("not a SELECT query")
        names = [str(v) for v in (result.vars or [])]
        solutions: Iterable[Any] = result
        return Rows.capped(({n: sol[i] for i, n in enumerate(names)} for sol in solutions), max_rows)

    def ask(self, query: str, *, timeout: float | None = None, untrusted: bool = False) -> bool:
        result = self._run(query)
        if result.type != "ASK":
            raise QueryError("not an ASK query")
        return bool(result.askAnswer)

    def add_ntriples(self, data: str) -> None:
        self.load_rdf(data.encode("utf-8"), RdfFormat.NTRIPLES)

    def update(self, sparql_update: str) -> None:
        scratch = Graph()
        for t in self._g:
            scratch.add(t)
        try:
            scratch.update(sparql_update)
        except Exception as exc:
            raise StoreError(f"update failed, nothing was written: {type(exc).__name__}: {str(exc)[:300]}") from exc
        self._g.remove((None, None, None))
        for t in scratch:
            self._g.add(t)
        self._bump()

    def dump(self, fmt: RdfFormat = RdfFormat.NTRIPLES) -> bytes:
        return serialize_graph(self._g, fmt)

    def load_rdf(self, data: bytes, fmt: RdfFormat) -> None:
        """Parse into a scratch graph, then merge: all or nothing.

        Parsing is :func:`~ont_platform.storage.rdf_io.parse_graph`: N-Triples with pyoxigraph's parser (linear
        in the length of a line, where rdflib's own is quadratic), Turtle and JSON-LD with rdflib's. Raises
        :class:`~ont_platform.errors.RDFSyntaxError` for input that does not parse, declares a DTD, or is
        JSON-LD rdflib would partly drop (an ``@id`` that is not an IRI, triples in a named graph).
        """
        scratch = parse_graph(data, fmt)
        for t in scratch:
            self._g.add(t)
        self._bump()

    def __len__(self) -> int:
        return len(self._g)

    def clear(self) -> None:
        self._g.remove((None, None, None))
        self._bump()

    def close(self) -> None:
        self.graph = None
