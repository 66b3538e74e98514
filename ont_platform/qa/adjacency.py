"""A mirror of one relation's edges for path questions, kept in step with the store.

Why: most path questions end at once ("no deposit within 2 hops of this address"). Asked of SPARQL, such a
question costs the engine's fixed price twice (the reachability query, then whether the start has any
transfer at all), each a round trip to the killable query worker: ~0.5 ms at any graph size. A breadth-first
walk over successor lists held in this process answers the same in microseconds.

The store stays the only truth, and the mirror only ever decides what the store's own queries would decide:

* It is read from the store (the plain ``<s> <p> <o>`` triples of the relation and, for each class set a
  question asks about, that set's members) and remembers the store's
  :attr:`~ont_platform.storage.Store.generation` at that moment. A write it was not told about changes the
  generation; the mirror is then read again at its next use. Stores whose data can change behind this process
  (remote endpoints, an rdflib graph the caller holds) have no generation and get no mirror.
* A guarded ingest hands it the triples the batch wrote (:meth:`Mirrors.follow`): new edges join the lists
  and new class assertions the class sets, so the mirror stays what a fresh read would give (an ingest only
  adds triples) without reading anything back.
* A walk that would scan more than its budget of edges stops with :class:`WalkTooLong`, and the caller
  answers with SPARQL in the killable worker instead: the walk's own work is bounded.

Nodes are keyed by their N-Triples text (``<iri>``, ``_:b``) and numbered; each number has a list of
successors and one of predecessors.
"""

from __future__ import annotations

import threading
from collections.abc import Iterable

from rdflib import RDF, URIRef

from ont_platform.rdf_terms import iri
from ont_platform.storage import Store


class WalkTooLong(Exception):
    """A walk reached its budget of edges; the question goes to SPARQL."""


class Adjacency:
    """Successor and predecessor lists of one predicate's edges, as the store held them at :attr:`generation`."""

    def __init__(self, predicate: URIRef, generation: int) -> None:
        self.predicate = predicate
        self.generation = generation
        self._number: dict[str, int] = {}
        self._succ: list[list[int]] = []
        self._pred: list[list[int]] = []
        self._members: dict[frozenset[URIRef], set[int]] = {}
        self._lock = threading.Lock()
        """Questions read side by side; the first to ask about a class set adds its members (and numbers)."""

    @classmethod
    def read(cls, store: Store, predicate: URIRef) -> Adjacency:
        """Read every edge of ``predicate`` from ``store`` (one query in this process: the library's own read)."""
        generation = store.generation
        if generation is None:
            raise ValueError("a store without a write generation cannot be mirrored")
        adj = cls(predicate, generation)
        for s, o in store.select_nt(f"SELECT ?s ?o WHERE {{ ?s {iri(predicate)} ?o }}"):
            assert s is not None and o is not None
            a, b = adj._node(s), adj._node(o)
            adj._succ[a].append(b)
            adj._pred[b].append(a)
        return adj

    def __len__(self) -> int:
        """Number of edges."""
        return sum(len(s) for s in self._succ)

    def _node(self, key: str) -> int:
        n = self._number.get(key)
        if n is None:
            n = self._number[key] = len(self._succ)
            self._succ.append([])
            self._pred.append([])
        return n

    def members(self, store: Store, classes: frozenset[URIRef]) -> set[int]:
        """The nodes typed with any of ``classes`` (asserted ``rdf:type``, as the path queries test it); read
        once per class set and kept up to date by :meth:`add`. Call only while the store is at
        :attr:`generation`."""
        found = self._members.get(classes)
        if found is None:
            with self._lock:
                found = self._members.get(classes)
                if found is None:
                    values = " ".join(iri(c) for c in sorted(classes))
                    rows = store.select_nt(
                        f"SELECT DISTINCT ?n WHERE {{ VALUES ?c {{ {values} }} ?n {iri(RDF.type)} ?c }}")
                    found = self._members[classes] = {self._node(n) for n, in rows if n is not None}
        return found

    def node(self, term: URIRef) -> int | None:
        """The number of a node that takes part in at least one edge, else ``None``."""
        n = self._number.get(iri(term))
        return n if n is not None and (self._succ[n] or self._pred[n]) else None

    def nearest(self, start: URIRef, hops: int, targets: set[int], *, backward: bool = False,
                budget: int) -> int | None:
        """The fewest edges (1..``hops``) from ``start`` to a node of ``targets``, following the edges
        backwards when ``backward``; ``None`` when no target is that close. A shortest walk never repeats a
        node, so this is also the length of the shortest simple path. Raises :class:`WalkTooLong` once more
        than ``budget`` edges were scanned."""
        s = self.node(start)
        if s is None:
            return None
        lists = self._pred if backward else self._succ
        seen = {s}
        frontier = [s]
        scanned = 0
        for depth in range(1, hops + 1):
            nxt: list[int] = []
            for u in frontier:
                out = lists[u]
                scanned += len(out)
                if scanned > budget:
                    raise WalkTooLong(f"more than {budget} edges within {depth} hops")
                for v in out:
                    if v in seen:
                        continue
                    if v in targets:
                        return depth
                    seen.add(v)
                    nxt.append(v)
            if not nxt:
                return None
            frontier = nxt
        return None

    def add(self, triples: Iterable[tuple[str, str, str]], generation: int) -> None:
        """Take in the triples a write added (terms as N-Triples text), which moved the store to
        ``generation``: new edges of the predicate join the lists, new ``rdf:type`` triples the class sets
        read so far. Writes that only add triples cannot take a node out of a class, so nothing is read back."""
        p, a_type = iri(self.predicate), iri(RDF.type)
        wanted = [(frozenset(iri(c) for c in classes), members) for classes, members in self._members.items()]
        for s, pred, o in triples:
            if pred == p:
                a, b = self._node(s), self._node(o)
                if b not in self._succ[a]:  # the write may repeat a stored triple
                    self._succ[a].append(b)
                    self._pred[b].append(a)
            elif pred == a_type:
                for keys, members in wanted:
                    if o in keys:
                        members.add(self._node(s))
        self.generation = generation


class Mirrors:
    """The mirrors of one question context, one per predicate, shared by every question on it."""

    def __init__(self) -> None:
        self._lock = threading.Lock()
        self._by_predicate: dict[URIRef, Adjacency] = {}

    def held(self, predicate: URIRef) -> Adjacency | None:
        """The mirror of ``predicate`` as it is kept now, without reading one (for diagnostics and tests)."""
        with self._lock:
            return self._by_predicate.get(predicate)

    def get(self, store: Store, predicate: URIRef) -> Adjacency | None:
        """The mirror of ``predicate`` as the store holds it now (read on first use and after any write it was
        not told about), or ``None`` for a store without a write generation."""
        generation = store.generation
        if generation is None:
            return None
        adj = self._by_predicate.get(predicate)
        if adj is not None and adj.generation == generation:
            return adj
        with self._lock:  # questions arriving together read it once
            adj = self._by_predicate.get(predicate)
            if adj is None or adj.generation != store.generation:
                adj = self._by_predicate[predicate] = Adjacency.read(store, predicate)
            return adj

    def follow(self, store: Store, triples: Iterable[tuple[str, str, str]], before: int | None) -> None:
        """Bring every mirror up to date after a write that only added ``triples`` (N-Triples text) and moved
        the store on from generation ``before``; a mirror that was already stale is dropped (read again when
        next used). Call while no question reads (the knowledge graph holds its write lock)."""
        triples = list(triples)
        after = store.generation
        with self._lock:
            for predicate, adj in list(self._by_predicate.items()):
                if before is None or after is None or adj.generation != before:
                    del self._by_predicate[predicate]
                    continue
                try:
                    adj.add(triples, after)
                except BaseException:
                    del self._by_predicate[predicate]
                    raise
