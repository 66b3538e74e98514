"""Storage: one interface (:class:`Store`), three backends, chosen by name in :func:`open_store`."""

from __future__ import annotations

from pathlib import Path
from typing import Literal

from ont_platform.errors import InputError
from ont_platform.storage._query_worker import FORK_AVAILABLE, QueryWorker, lower_priority
from ont_platform.storage.base import RdfFormat, Row, Rows, Store

BackendName = Literal["oxigraph", "rdflib", "remote"]


def open_store(
    backend: BackendName = "oxigraph",
    *,
    path: str | Path | None = None,
    endpoint: str | None = None,
    update_endpoint: str | None = None,
    graph: object | None = None,
    graph_iri: str | None = None,
    headers: dict[str, str] | None = None,
    timeout: float = 30.0,
    read_only: bool = False,
) -> Store:
    """Open a store.

    * ``"oxigraph"`` (default): embedded, in memory, or on disk at ``path``.
    * ``"rdflib"``: an in-memory rdflib Graph, or the one given as ``graph``.
    * ``"remote"``: a SPARQL 1.1 endpoint at ``endpoint`` (query URL) and ``update_endpoint``, working in the
      named graph ``graph_iri`` (a project default otherwise), sending ``headers`` (e.g. ``Authorization``)
      and waiting at most ``timeout`` seconds per request.

    ``read_only=True`` opens an existing on-disk Oxigraph store at ``path`` beside the process that holds it for
    writing, as it is at that moment; writes through it raise :class:`~ont_platform.errors.StoreError`.
    """
    if read_only and (backend != "oxigraph" or path is None):
        raise InputError("read_only applies to an on-disk oxigraph store: give path= (or --store PATH)")
    if backend == "oxigraph":
        from ont_platform.storage.oxigraph import OxigraphStore

        return OxigraphStore(path, read_only=read_only)
    if backend == "rdflib":
        if path is not None:
            raise InputError("the rdflib backend is in memory only; use backend='oxigraph' for a path")
        from rdflib import Graph

        from ont_platform.storage.rdflib_store import RdflibStore

        if graph is not None and not isinstance(graph, Graph):
            raise InputError("graph= must be an rdflib.Graph")
        return RdflibStore(graph)
    if backend == "remote":
        if not endpoint:
            raise InputError("the remote backend needs endpoint= (the SPARQL query URL)")
        from ont_platform.storage.remote import RemoteStore

        return RemoteStore(endpoint, update_endpoint, graph=graph_iri, headers=headers, timeout=timeout)
    raise InputError(f"unknown backend {backend!r}; use 'oxigraph', 'rdflib' or 'remote'")


__all__ = [
    "FORK_AVAILABLE",
    "BackendName",
    "QueryWorker",
    "RdfFormat",
    "lower_priority",
    "Row",
    "Rows",
    "Store",
    "open_store",
]
