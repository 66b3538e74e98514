"""What the checks compare answers with: one domain of a graph, read from the store into plain Python.

A snapshot is read with a handful of bounded SELECT queries (edges with their provenance in one, nodes with
their classes and names in one, chunks in one, page cells in one) and then never touches the store again. The
reference searches run on it with networkx, independently of the SPARQL the answerers use, so a bug in a query
builder cannot hide itself.
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass, field
from decimal import Decimal, InvalidOperation
from typing import Any

import networkx as nx
from rdflib import RDF, RDFS, URIRef

from ont_platform.domains import Domain
from ont_platform.ontology import DomainOntology
from ont_platform.sparql.snapshot import (
    snapshot_chunks,
    snapshot_edges,
    snapshot_nodes,
    snapshot_page_cells,
    snapshot_page_columns,
    snapshot_page_predicates,
    stated_edges,
    stated_nodes,
)
from ont_platform.storage import Store

DEFAULT_MAX_ROWS = 5_000_000
"""Most rows one snapshot query may return; a graph that needs more is reported, never half-checked."""


@dataclass(frozen=True, slots=True)
class EdgeFact:
    """A relation resource as stored: ids of both ends, its kind (the CSV ``rel``) and its provenance."""

    id: str
    rel: str
    kind: str
    src: str
    dst: str
    tx: str | None
    grounded: bool | None
    chunk: str | None
    inferred: bool
    symmetric: bool


@dataclass(frozen=True, slots=True)
class NodeFact:
    """An entity node: its id, classes and every name people use for it (labels, aliases)."""

    id: str
    classes: frozenset[URIRef]
    names: tuple[str, ...]
    label: str | None


@dataclass(frozen=True, slots=True)
class PageColumnFact:
    """A column of the page inventory that conditions can be put on."""

    name: str
    iri: str
    type: str  # integer | decimal | date


@dataclass(frozen=True, slots=True)
class PredicateFact:
    """An entry of a vague-predicate dictionary (built in or the dataset's ``predicates.csv``)."""

    phrase: str
    op: str
    value: Decimal
    applies_to: str | None


@dataclass
class Snapshot:
    """One domain of a graph as plain data, with the reference graphs built from it on demand."""

    domain: str
    onto: DomainOntology
    spec: Domain
    nodes: dict[str, NodeFact] = field(default_factory=dict)
    edges: dict[str, EdgeFact] = field(default_factory=dict)
    chunks: dict[str, str | None] = field(default_factory=dict)
    pages: dict[str, dict[str, str]] = field(default_factory=dict)
    columns: dict[str, PageColumnFact] = field(default_factory=dict)
    predicates: list[PredicateFact] = field(default_factory=list)
    truncated: list[str] = field(default_factory=list)
    stated: bool = False
    """Whether the edges are stated triples of plain RDF (each its own evidence) rather than relation resources
    grounded in chunks."""
    _graphs: dict[tuple[frozenset[str], bool], nx.MultiDiGraph] = field(default_factory=dict, repr=False)

    # -- lookups ----------------------------------------------------------------------------------------------

    def edges_between(self, src: str, rel: str, dst: str) -> list[EdgeFact]:
        """Stored edges of kind ``rel`` from ``src`` to ``dst`` (stored direction only)."""
        return [e for e in self._by_ends().get((src, dst), []) if e.rel == rel]

    def _by_ends(self) -> dict[tuple[str, str], list[EdgeFact]]:
        cached: dict[tuple[str, str], list[EdgeFact]] | None = self.__dict__.get("_ends")
        if cached is None:
            cached = {}
            for e in self.edges.values():
                cached.setdefault((e.src, e.dst), []).append(e)
            self.__dict__["_ends"] = cached
        return cached

    def has_class(self, node: str, allowed: Iterable[URIRef]) -> bool:
        fact = self.nodes.get(node)
        return fact is not None and bool(fact.classes & frozenset(allowed))

    # -- reference graphs -------------------------------------------------------------------------------------

    def graph(self, rels: Iterable[str], *, undirected: bool = False) -> nx.MultiDiGraph:
        """Every stored edge whose kind is in ``rels`` as a networkx multigraph keyed by edge id.

        ``undirected`` (or a symmetric relation) adds each edge both ways, as a walk may take it either way.
        """
        key = (frozenset(rels), undirected)
        if key not in self._graphs:
            g = nx.MultiDiGraph()
            g.add_nodes_from(self.nodes)
            for e in self.edges.values():
                if e.rel in key[0]:
                    g.add_edge(e.src, e.dst, key=e.id)
                    if undirected or e.symmetric:
                        g.add_edge(e.dst, e.src, key=e.id)
            self._graphs[key] = g
        return self._graphs[key]

    def distances(
        self, start: str, rels: Iterable[str], hops: int, *, backward: bool = False, undirected: bool = False
    ) -> dict[str, int]:
        """Hop distance of every node within ``hops`` of ``start`` (breadth-first, networkx)."""
        g = self.graph(rels, undirected=undirected)
        if start not in g:
            return {}
        view = g.reverse(copy=False) if backward else g
        return dict(nx.single_source_shortest_path_length(view, start, cutoff=hops))


# -- reading ---------------------------------------------------------------------------------------------------


def _rows(
    store: Store, query: str, limit: int, what: str, snap: Snapshot, timeout: float | None
) -> list[dict[str, Any]]:
    rows = [dict(r) for r in store.select(query, timeout=timeout)]
    if len(rows) >= limit:
        snap.truncated.append(f"{what}: {limit} rows or more")
    return rows


def _text(v: object) -> str | None:
    return None if v is None else str(v)


def read_snapshot(
    store: Store, spec: Domain, *, max_rows: int = DEFAULT_MAX_ROWS, timeout: float | None = None
) -> Snapshot:
    """Read one domain of ``store`` (nodes, edges, chunks or pages) into a :class:`Snapshot`."""
    domain = spec.name
    onto = spec.ontology
    snap = Snapshot(domain, onto, spec)
    limit = int(max_rows)
    if not spec.has_names:
        _read_pages(store, snap, limit, timeout)
        return snap
    if not spec.behaviour.mints_iris:
        _read_stated(store, snap, limit, timeout)
        return snap
    by_kind = {str(r.iri): r for r in onto.relations.values()}
    edge_q = snapshot_edges(domain, limit)
    for r in _rows(store, edge_q, limit, "edges", snap, timeout):
        kind = str(r["kind"])
        rel = by_kind.get(kind)
        grounded = None if r.get("grounded") is None else str(r["grounded"]).lower() in ("true", "1")
        eid = str(r["eid"])
        snap.edges[eid] = EdgeFact(
            id=eid,
            rel=rel.notation if rel else kind.rsplit("#", 1)[-1],
            kind=kind,
            src=str(r["src"]),
            dst=str(r["dst"]),
            tx=_text(r.get("tx")),
            grounded=grounded,
            chunk=_text(r.get("chunk")),
            inferred=bool(rel and rel.inferred),
            symmetric=bool(rel and rel.symmetric),
        )
    node_q = snapshot_nodes(domain, limit)
    classes: dict[str, set[URIRef]] = {}
    names: dict[str, list[str]] = {}
    labels: dict[str, str] = {}
    for r in _rows(store, node_q, limit, "nodes", snap, timeout):
        nid = str(r["id"])
        classes.setdefault(nid, set())
        names.setdefault(nid, [])
        p, v = r.get("p"), r.get("v")
        if p is None or v is None:
            continue
        if str(p) == str(RDF.type):
            classes[nid].add(URIRef(str(v)))
        else:
            names[nid].append(str(v))
            if str(p) == str(RDFS.label):
                labels.setdefault(nid, str(v))
    for nid, cls in classes.items():
        snap.nodes[nid] = NodeFact(nid, frozenset(cls), tuple(dict.fromkeys(names[nid])), labels.get(nid))
    if spec.has_chunks:
        chunk_q = snapshot_chunks(domain, limit)
        for r in _rows(store, chunk_q, limit, "chunks", snap, timeout):
            snap.chunks[str(r["id"])] = _text(r.get("text"))
    return snap


def _read_stated(store: Store, snap: Snapshot, limit: int, timeout: float | None) -> None:
    """A plain-RDF domain: its relations' stated triples as edges, and its nodes with classes and names."""
    from ont_platform.qa.space import naming_properties

    snap.stated = True
    onto = snap.onto
    by_kind = {str(r.iri): r for r in onto.relations.values()}
    if by_kind:
        for r in _rows(store, stated_edges(sorted(by_kind), limit), limit, "edges", snap, timeout):
            rel = by_kind[str(r["kind"])]
            eid = str(r["eid"])
            snap.edges[eid] = EdgeFact(
                id=eid,
                rel=rel.notation,
                kind=str(rel.iri),
                src=str(r["src"]),
                dst=str(r["dst"]),
                tx=None,
                grounded=True,
                chunk=None,
                inferred=rel.inferred,
                symmetric=rel.symmetric,
            )
    naming = [str(p) for p in naming_properties(snap.spec)]
    label = naming[0]
    classes: dict[str, set[URIRef]] = {}
    names: dict[str, list[str]] = {}
    labels: dict[str, str] = {}
    for r in _rows(store, stated_nodes(naming, limit), limit, "nodes", snap, timeout):
        nid, p, v = str(r["id"]), str(r["p"]), str(r["v"])
        classes.setdefault(nid, set())
        names.setdefault(nid, [])
        if p == str(RDF.type):
            classes[nid].add(URIRef(v))
        else:
            names[nid].append(v)
            if p == label:
                labels.setdefault(nid, v)
    for e in snap.edges.values():  # an end with neither class nor name is still a node of the data
        for end in (e.src, e.dst):
            classes.setdefault(end, set())
            names.setdefault(end, [])
    for nid, cls in classes.items():
        snap.nodes[nid] = NodeFact(nid, frozenset(cls), tuple(dict.fromkeys(names[nid])), labels.get(nid))


def _read_pages(store: Store, snap: Snapshot, limit: int, timeout: float | None) -> None:
    """Columns (numeric, date, boolean and text; a rank column is a decimal one), the dataset's numeric
    predicate thresholds (true/false rows and day counts are not thresholds a filter shows) and every cell."""
    kinds = ("integer", "decimal", "date", "boolean", "text")
    for col in snap.onto.columns.values():
        if col.type in kinds:
            snap.columns[col.name] = PageColumnFact(col.name, str(col.iri), col.type)
    vocab_q = snapshot_page_columns(limit)
    for r in _rows(store, vocab_q, limit, "columns", snap, timeout):
        name, ctype = str(r["name"]), str(r["type"])
        if ctype in kinds and name not in snap.columns:
            snap.columns[name] = PageColumnFact(name, str(r["prop"]), ctype)
    pred_q = snapshot_page_predicates(limit)
    for r in _rows(store, pred_q, limit, "predicates", snap, timeout):
        if str(r["op"]) not in ("=", "!=", "<", "<=", ">", ">="):
            continue  # older_than_days / newer_than_days: a count of days, shown in the filter as a date
        try:
            value = Decimal(str(r["value"]))
        except InvalidOperation:
            continue  # true / false
        snap.predicates.append(PredicateFact(str(r["phrase"]), str(r["op"]), value, _text(r.get("applies"))))
    snap.predicates.extend(builtin_predicates())
    by_iri = {c.iri: c.name for c in snap.columns.values()}
    cell_q = snapshot_page_cells(limit)
    for r in _rows(store, cell_q, limit, "page cells", snap, timeout):
        cells = snap.pages.setdefault(str(r["url"]), {})
        column = by_iri.get(str(r.get("p")))
        if column is not None and r.get("v") is not None:
            cells[column] = str(r["v"])


def builtin_predicates() -> list[PredicateFact]:
    """The built-in vague-predicate dictionary shipped with the page answerer."""
    import json
    from importlib import resources

    doc = json.loads(resources.files("ont_platform.qa").joinpath("pages_predicates.json").read_text("utf-8"))
    return [
        PredicateFact(str(e["phrase"]), str(e["op"]), Decimal(str(e["value"])), None) for e in doc.get("predicates", [])
    ]


__all__ = [
    "DEFAULT_MAX_ROWS",
    "EdgeFact",
    "NodeFact",
    "PageColumnFact",
    "PredicateFact",
    "Snapshot",
    "builtin_predicates",
    "read_snapshot",
]
