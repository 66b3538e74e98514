"""What answering needs about one loaded domain: its ontology, its lexicon, and the store to query.

A context is built once per graph and domain and reused across questions (reading every node's names costs
one query over the whole graph: seconds at a million transfers). It outlives a guarded ingest: the knowledge
graph reads the names of the batch's nodes into the same lexicon (:func:`add_nodes`). The lexicon holds the
domain's own nodes only, so a load of another domain cannot make it stale. Writes that can change anything
(arbitrary RDF imported, a cleared store) drop it.

Each question works on its own view of the context (:meth:`Context.for_question`): the ontology, the lexicon
and the store are shared, the record of the queries the answer ran is not, so questions asked at the same time
from several threads do not mix their queries. :class:`ReadWriteLock` is how the knowledge graph keeps
questions off a half-finished write.
"""

from __future__ import annotations

import threading
from collections.abc import Iterable, Iterator
from contextlib import contextmanager
from dataclasses import dataclass, field, replace
from datetime import date

from rdflib import RDFS, SKOS, Literal, URIRef
from rdflib.namespace import XSD
from rdflib.term import Node

from ont_platform.domains import Domain
from ont_platform.errors import StoreError
from ont_platform.limits import Limits
from ont_platform.namespaces import OC, ONT, dataset_iri, mint
from ont_platform.ontology import DomainOntology
from ont_platform.qa.adjacency import Mirrors
from ont_platform.qa.lexicon import Lexicon, add_cues
from ont_platform.qa.names import Chain, compact_pairs, open_kept
from ont_platform.qa.space import NodeSpace, space_for
from ont_platform.rdf_terms import iri
from ont_platform.sparql.common import PREFIXES
from ont_platform.storage import Store

_VALUES_BATCH = 400


@dataclass
class Context:
    """One domain of one graph, ready for questions."""

    store: Store
    domain: str
    spec: Domain
    """The domain itself (family, ontology, shapes); ``domain`` is its name."""
    onto: DomainOntology
    lexicon: Lexicon
    limits: Limits
    as_of: date | None
    queries: list[str] = field(default_factory=list)
    """The queries run through this context, in order (a question's own when it is a :meth:`for_question`
    view)."""
    cache: dict[str, object] = field(default_factory=dict)
    """Per-domain data an answerer derives once from the graph (the pages vocabulary, for instance); emptied
    when the domain's data changes."""

    names_kept: Chain | None = None
    """Where the lexicon's node names are kept beside the store, and the stamp they are at (``None`` when they
    are held in memory only): writes the graph follows extend it (:meth:`follow_names`)."""
    mirrors: Mirrors = field(default_factory=Mirrors)
    """Edge lists of the relations path questions walk, kept in step with the store (qa/adjacency.py)."""
    space: NodeSpace | None = None
    """How node ids map to IRIs and which queries read names and edges (minted nodes, or the data's own IRIs);
    ``None``: made from the domain on first use."""
    classes_seen: dict[str, list[URIRef]] | None = None
    """The classes of the nodes one question has looked at (a :meth:`for_question` view's own): reading,
    ordering and walking a question each ask for its start's classes, and the data cannot change while the
    question holds the graph's read lock. ``None`` on the shared context, which outlives writes."""

    def for_question(self) -> Context:
        """A view for one question: the same ontology, lexicon, store, cache and mirrors, and a record of its
        own."""
        return replace(self, queries=[], classes_seen={})

    @property
    def nodes(self) -> NodeSpace:
        """The domain's node space (:mod:`ont_platform.qa.space`)."""
        if self.space is None:
            self.space = space_for(self.spec)
        return self.space

    def run_select(self, query: str) -> list[dict[str, object]]:
        """Run one of our own read queries, recording it."""
        self.queries.append(query)
        return [dict(r) for r in self.store.select(query, timeout=self.limits.query_timeout_s)]

    def node_classes(self, node_id: str) -> list[URIRef]:
        """The classes of one node (read once per question)."""
        from ont_platform.sparql.common import node_classes

        seen = self.classes_seen
        if seen is not None and node_id in seen:
            return list(seen[node_id])
        rows = self.run_select(node_classes(self.nodes.iri(node_id)))
        found = [URIRef(str(r["cls"])) for r in rows if r.get("cls") is not None]
        if seen is not None:
            seen[node_id] = found
        return list(found)

    def labels(self, node_ids: Iterable[str]) -> dict[str, str]:
        """The ``rdfs:label`` of each node id that has one and whose label says more than the id (one query)."""
        wanted = list(dict.fromkeys(i for i in node_ids if i))
        if not wanted:
            return {}
        out: dict[str, str] = {}
        for start in range(0, len(wanted), _VALUES_BATCH):
            batch = wanted[start : start + _VALUES_BATCH]
            for r in self.run_select(self.nodes.node_labels(self.nodes.iri(i) for i in batch)):
                node, label = str(r.get("id")), str(r.get("label") or "").strip()
                if node in batch and label and label != node:
                    out.setdefault(node, label)
        return out

    def follow_names(self, before: str | None, after: str | None, pairs: Iterable[tuple[str, str]]) -> None:
        """Record beside the store that a write moved it from stamp ``before`` to ``after`` adding ``pairs``
        (compact name, node id) to this domain's names, so that the next process finds them complete."""
        if self.names_kept is not None:
            self.names_kept.follow(before, after, pairs)

    def run_ask(self, query: str) -> bool:
        self.queries.append(query)
        return self.store.ask(query, timeout=self.limits.query_timeout_s)


def build_context(store: Store, spec: Domain, limits: Limits) -> Context:
    """Read the ontology's terms and the graph's names into a lexicon."""
    domain = spec.name
    onto = spec.ontology
    lex = Lexicon()
    for cls in onto.classes.values():
        for label in onto.labels(cls):
            lex.add_term(label, "class", str(cls))
    for rel in onto.relations.values():
        for label in [*onto.labels(rel.iri), rel.notation]:
            lex.add_term(label, "relation", str(rel.iri))
    for sup in onto.super_relations.values():
        for label in onto.labels(sup):
            lex.add_term(label, "relation", str(sup))
    for col in onto.columns.values():
        for label in [*col.labels, col.name]:
            lex.add_term(label, "column", col.name)
    add_cues(lex, spec.family)
    kept = None
    space = space_for(spec)
    if spec.has_names:
        query = space.names_query(limits.max_names)

        def read_names() -> Iterator[tuple[str, str]]:
            return compact_pairs((row[0], row[1]) for row in store.iter_values(query))

        lex.names, kept = open_kept(store, domain, read_names, limits.max_names)
    as_of = None
    rows = store.select(f"{PREFIXES}SELECT ?d WHERE {{ {iri(dataset_iri(domain))} {iri(ONT.asOf)} ?d }} LIMIT 1")
    if rows and rows[0]["d"] is not None:
        text = str(rows[0]["d"])
        try:
            as_of = date.fromisoformat(text) if len(text) <= 32 else None
        except ValueError:
            as_of = None
        if as_of is None:
            raise StoreError(f"the {domain} dataset's asOf value {text[:40]!r} is not a date (YYYY-MM-DD)")
    return Context(store, domain, spec, onto, lex, limits, as_of, names_kept=kept, space=space)


_NAME_PREDICATES = (RDFS.label, SKOS.altLabel, OC.addressNorm, OC.rawAddress)
"""The predicates of :func:`names_query`'s names, in the same order."""
_PLAIN = (None, XSD.string)


def name_rows(
    domain: str, nodes: Iterable[URIRef], triples: Iterable[tuple[Node, Node, Node]]
) -> list[tuple[str, str | None]] | None:
    """The rows :func:`names_query` gives for ``nodes`` on a store whose triples about them are all in
    ``triples`` (an ingest has them: the stored neighbourhood it read, which holds every literal and core link of
    each node, and the batch it wrote), without reading the store again: at 10M transfers on disk that read
    was ~30 ms of each ingest. ``None`` when a value could be spelled otherwise in the store than here (a typed
    literal the engine may normalise, or a name or id that is not a literal): the caller then reads the store.
    One case it cannot see: a name or id stored as an IRI, not a literal, is not in the neighbourhood. The node's
    rows with it are in the lexicon already (from its build or an earlier ingest); only a row pairing it with a
    name or id this batch adds to that node is left out."""
    wanted = set(nodes)
    prefix = str(mint(domain, "node", ""))
    about: dict[URIRef, dict[Node, list[Node]]] = {}
    for s, p, o in dict.fromkeys(triples):
        if s in wanted and isinstance(s, URIRef):
            about.setdefault(s, {}).setdefault(p, []).append(o)
    rows: list[tuple[str, str | None]] = []
    for node in sorted(wanted):
        told = about.get(node, {})
        if not str(node).startswith(prefix) or told.get(ONT.kind) or told.get(ONT.text):
            continue
        ids = told.get(ONT.id, [])
        names = [o for p in _NAME_PREDICATES for o in told.get(p, [])]
        if any(not isinstance(v, Literal) or v.datatype not in _PLAIN for v in (*ids, *names)):
            return None
        for node_id in ids:
            rows.extend([(str(node_id), str(name)) for name in names] or [(str(node_id), None)])
    return rows


def add_nodes(
    ctx: Context, nodes: Iterable[URIRef], about: Iterable[tuple[Node, Node, Node]] | None = None
) -> list[tuple[str, str]]:
    """Read the names of ``nodes`` (new or extended by a write) into the context's lexicon, and forget what the
    answerers derived from the data before; returns the (compact name, node id) pairs read.

    The names are what the pattern :func:`build_context` uses gives for these nodes, so the lexicon ends up as a
    fresh build would make it (up to ``limits.max_names``, which caps the full read only): taken from ``about``
    (every triple the store holds about the nodes, see :func:`name_rows`) when given, else read back from the
    store. Names only ever get added here: ingest does not remove labels.
    """
    ctx.cache.clear()
    if not ctx.spec.has_names:
        return []
    pairs: list[tuple[str, str]] = []
    ordered = sorted(set(nodes))
    rows = name_rows(ctx.domain, ordered, about) if about is not None else None
    if rows is not None:
        pairs.extend(compact_pairs(rows))
    for start in range(0, len(ordered), _VALUES_BATCH) if rows is None else ():
        query = ctx.nodes.names_query(ctx.limits.max_names, ordered[start : start + _VALUES_BATCH])
        pairs.extend(compact_pairs((row[0], row[1]) for row in ctx.store.iter_values(query)))
    for key, node_id in pairs:
        ctx.lexicon.names.add(key, node_id)
    return pairs


class ReadWriteLock:
    """Many readers or one writer; a waiting writer goes before readers that arrive after it.

    Questions read (several queries each, which must all see the same committed data); a write holds it
    exclusively while it commits and brings the contexts up to date. Not reentrant: a thread holding it must
    not ask for it again.
    """

    def __init__(self) -> None:
        self._cond = threading.Condition(threading.Lock())
        self._readers = 0
        self._writing = False
        self._writers_waiting = 0

    @contextmanager
    def reading(self) -> Iterator[None]:
        with self._cond:
            while self._writing or self._writers_waiting:
                self._cond.wait()
            self._readers += 1
        try:
            yield
        finally:
            with self._cond:
                self._readers -= 1
                if not self._readers:
                    self._cond.notify_all()

    @contextmanager
    def writing(self) -> Iterator[None]:
        with self._cond:
            self._writers_waiting += 1
            try:
                while self._writing or self._readers:
                    self._cond.wait()
            finally:
                self._writers_waiting -= 1
            self._writing = True
        try:
            yield
        finally:
            with self._cond:
                self._writing = False
                self._cond.notify_all()


def node_iri(domain: str, node_id: str) -> URIRef:
    return mint(domain, "node", node_id)
