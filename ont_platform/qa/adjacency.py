"""A mirror of one relation's edges for path questions, read from the store as walks reach it.

Why: most path questions end at once ("no deposit within 2 hops of this address"). Asked of SPARQL, such a
question costs the engine's fixed price twice (the reachability query, then whether the start has any
transfer at all), each a round trip to the killable query worker: ~0.5 ms at any graph size. A breadth-first
walk in this process answers the same with one small read per hop, and with none for the nodes it has met
before.

Why node by node and not the whole relation at once: reading every edge on the first question cost 6.5 s and
~120 MB at a million transfers, paid again by every process that opened the store, and ten times that at ten
million. A walk reads only the lists of the nodes it reaches (one query per hop level, the successors' classes
included), and what it read stays for the next question until :data:`CACHED_EDGES` edges are held, when the
cache starts again empty. Opening a store and asking its first question therefore reads nothing ahead.

The store stays the only truth, and the mirror only ever decides what the store's own queries would decide:

* Every list it holds was read from the store (the plain ``<s> <p> <o>`` triples of the relation, and each
  node's asserted ``rdf:type`` values) while the store was at :attr:`Adjacency.generation`. A write the mirror
  was not told about changes the store's :attr:`~ont_platform.storage.Store.generation`; the mirror is then
  dropped and a new, empty one reads again. Stores whose data can change behind this process (remote
  endpoints, an rdflib graph the caller holds) have no generation and get no mirror.
* A guarded ingest hands it the triples the batch wrote (:meth:`Mirrors.follow`): new edges join the lists it
  holds and new class assertions the classes it holds, so every list stays what a fresh read would give (an
  ingest only adds triples) without reading anything back. Lists it does not hold are read when reached.
* A walk that would scan more than its budget of edges stops with :class:`WalkTooLong`, and the caller
  answers with SPARQL in the killable worker instead: the walk's own work, reads included, is bounded.

Nodes are keyed by their N-Triples text (``<iri>``, ``_:b``).
"""

from __future__ import annotations

import threading
from collections.abc import Iterable

from rdflib import RDF, URIRef

from ont_platform.rdf_terms import iri
from ont_platform.storage import Store

CACHED_EDGES = 2_000_000
"""Edges (successor and predecessor entries together) a mirror keeps before it starts again empty: ~200 MB of
Python objects at most, whatever the size of the graph."""

_BATCH = 400
"""Nodes per read (one VALUES block)."""

_TYPE = iri(RDF.type)


class WalkTooLong(Exception):
    """A walk reached its budget of edges; the question goes to SPARQL."""


class Adjacency:
    """Successor and predecessor lists of one predicate's edges, and the classes of the nodes they reach, as
    the store held them at :attr:`generation`, read node by node as walks need them."""

    def __init__(self, store: Store, predicate: URIRef, generation: int) -> None:
        self.store = store
        self.predicate = predicate
        self.generation = generation
        self._p = iri(predicate)
        self._succ: dict[str, list[str]] = {}
        self._pred: dict[str, list[str]] = {}
        self._types: dict[str, set[str]] = {}
        self._held = 0
        self._lock = threading.Lock()
        """Questions walk side by side; reading a list and storing it is done by one at a time."""

    # -- what is held --

    def __len__(self) -> int:
        """Number of edges held (each counted once per list it is in)."""
        return self._held

    def held_lists(self, *, backward: bool = False) -> dict[str, list[str]]:
        """A copy of the successor (or predecessor) lists held now, by node (N-Triples texts; for tests and
        diagnostics)."""
        with self._lock:
            return {n: list(v) for n, v in (self._pred if backward else self._succ).items()}

    def held_types(self) -> dict[str, set[str]]:
        """The classes held per node (N-Triples texts)."""
        with self._lock:
            return {node: set(classes) for node, classes in self._types.items()}

    # -- reading --

    def successors(self, node: str, *, budget: int | None = None) -> list[str]:
        """The nodes ``node`` has an edge to (N-Triples texts), read from the store unless held."""
        return self._lists([node], backward=False, budget=budget)[node]

    def predecessors(self, node: str, *, budget: int | None = None) -> list[str]:
        """The nodes with an edge to ``node``."""
        return self._lists([node], backward=True, budget=budget)[node]

    def classes(self, nodes: Iterable[str]) -> dict[str, set[str]]:
        """The asserted classes of each node, read for the ones not held."""
        wanted = list(dict.fromkeys(nodes))
        with self._lock:
            missing = [n for n in wanted if n not in self._types]
        for start in range(0, len(missing), _BATCH):
            batch = missing[start : start + _BATCH]
            found: dict[str, set[str]] = {n: set() for n in batch}
            rows = self.store.select_nt(f"SELECT ?n ?c WHERE {{ VALUES ?n {{ {' '.join(batch)} }} ?n {_TYPE} ?c }}")
            for n, c in rows:
                if n is not None and c is not None and n in found:
                    found[n].add(c)
            with self._lock:
                for n, classes in found.items():
                    self._types.setdefault(n, classes)
        with self._lock:
            return {n: set(self._types.get(n, ())) for n in wanted}

    def _lists(self, nodes: list[str], *, backward: bool, budget: int | None) -> dict[str, list[str]]:
        """The successor (or predecessor) lists of ``nodes``, reading the ones not held, a batch at a time; with
        a ``budget``, raises :class:`WalkTooLong` as soon as the lists read and held hold more edges than that
        (a list read past the budget is not kept: it may be cut)."""
        held = self._pred if backward else self._succ
        out: dict[str, list[str]] = {}
        with self._lock:
            missing = []
            for n in dict.fromkeys(nodes):
                have = held.get(n)
                if have is None:
                    missing.append(n)
                else:
                    out[n] = have
        scanned = sum(len(v) for v in out.values())
        if budget is not None and scanned > budget:
            raise WalkTooLong(f"more than {budget} edges")
        for start in range(0, len(missing), _BATCH):
            batch = missing[start : start + _BATCH]
            values = " ".join(batch)
            if backward:
                query = f"SELECT ?o ?s WHERE {{ VALUES ?o {{ {values} }} ?s {self._p} ?o }}"
            else:
                query = f"SELECT ?s ?o WHERE {{ VALUES ?s {{ {values} }} ?s {self._p} ?o }}"
            if budget is not None:
                query += f" LIMIT {budget - scanned + 1}"
            rows = self.store.select_nt(query)
            scanned += len(rows)
            if budget is not None and scanned > budget:
                raise WalkTooLong(f"more than {budget} edges")
            found: dict[str, list[str]] = {n: [] for n in batch}
            for key, other in rows:
                if key is not None and other is not None and key in found:
                    found[key].append(other)
            with self._lock:
                for n, lst in found.items():
                    have = held.get(n)
                    if have is None:
                        held[n] = lst
                        self._held += len(lst)
                        have = lst
                    out[n] = have
        self._trim()
        return out

    def _trim(self) -> None:
        """Start again empty once more than :data:`CACHED_EDGES` edges are held (the lists just handed out stay
        valid: they are not changed, only forgotten)."""
        with self._lock:
            if self._held > CACHED_EDGES:
                self._succ, self._pred, self._types, self._held = {}, {}, {}, 0

    # -- walking --

    def nearest(
        self,
        start: URIRef,
        hops: int,
        *,
        classes: frozenset[URIRef] | None = None,
        node: URIRef | None = None,
        backward: bool = False,
        budget: int,
    ) -> int | None:
        """The fewest edges (1..``hops``) from ``start`` to a node typed with one of ``classes`` (asserted
        ``rdf:type``, as the path queries test it), or to ``node``; following the edges backwards when
        ``backward``; ``None`` when no target is that close. A shortest walk never repeats a node, so this is
        also the length of the shortest simple path. Raises :class:`WalkTooLong` once more than ``budget``
        edges were scanned."""
        wanted = {iri(c) for c in classes} if classes is not None else None
        goal = iri(node) if node is not None else None
        s = iri(start)
        seen = {s}
        frontier = [s]
        scanned = 0
        for depth in range(1, hops + 1):
            lists = self._lists(frontier, backward=backward, budget=budget - scanned)
            nxt: list[str] = []
            for u in frontier:
                out = lists[u]
                scanned += len(out)
                for v in out:
                    if v not in seen:
                        seen.add(v)
                        nxt.append(v)
            if scanned > budget:
                raise WalkTooLong(f"more than {budget} edges within {depth} hops")
            if not nxt:
                return None
            if goal is not None:
                if goal in nxt:
                    return depth
            elif wanted is not None:
                found = self.classes(nxt)
                if any(found[v] & wanted for v in nxt):
                    return depth
            frontier = nxt
        return None

    def is_target(self, term: URIRef, *, classes: frozenset[URIRef] | None = None) -> bool:
        """Whether ``term`` is typed with one of ``classes``."""
        if classes is None:
            return False
        key = iri(term)
        return bool(self.classes([key])[key] & {iri(c) for c in classes})

    def active(self, term: URIRef) -> bool:
        """Whether ``term`` takes part in at least one edge, either way."""
        key = iri(term)
        return bool(self.successors(key)) or bool(self.predecessors(key))

    # -- following writes --

    def add(self, triples: Iterable[tuple[str, str, str]], generation: int) -> None:
        """Take in the triples a write added (terms as N-Triples text), which moved the store to
        ``generation``: new edges join the lists held for their ends, new ``rdf:type`` triples the classes
        held for their subject. Writes that only add triples cannot take anything out, so nothing is read back;
        lists not held are read when a walk reaches them."""
        with self._lock:
            for s, pred, o in triples:
                if pred == self._p:
                    out = self._succ.get(s)
                    if out is not None and o not in out:  # the write may repeat a stored triple
                        out.append(o)
                        self._held += 1
                    into = self._pred.get(o)
                    if into is not None and s not in into:
                        into.append(s)
                        self._held += 1
                elif pred == _TYPE:
                    have = self._types.get(s)
                    if have is not None:
                        have.add(o)
            self.generation = generation


class Mirrors:
    """The mirrors of one question context, one per predicate, shared by every question on it."""

    def __init__(self) -> None:
        self._lock = threading.Lock()
        self._by_predicate: dict[URIRef, Adjacency] = {}

    def held(self, predicate: URIRef) -> Adjacency | None:
        """The mirror of ``predicate`` as it is kept now, without making one (for diagnostics and tests)."""
        with self._lock:
            return self._by_predicate.get(predicate)

    def get(self, store: Store, predicate: URIRef) -> Adjacency | None:
        """The mirror of ``predicate`` as the store holds it now (a new, empty one on first use and after any
        write it was not told about), or ``None`` for a store without a write generation."""
        generation = store.generation
        if generation is None:
            return None
        with self._lock:
            adj = self._by_predicate.get(predicate)
            if adj is None or adj.generation != generation or adj.store is not store:
                adj = self._by_predicate[predicate] = Adjacency(store, predicate, generation)
            return adj

    def follow(self, store: Store, triples: Iterable[tuple[str, str, str]], before: int | None) -> None:
        """Bring every mirror up to date after a write that only added ``triples`` (N-Triples text) and moved
        the store on from generation ``before``; a mirror that was already stale is dropped (a new one reads
        again when next used). Call while no question reads (the knowledge graph holds its write lock)."""
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
