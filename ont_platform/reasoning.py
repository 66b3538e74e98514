"""Reasoning a user switches on: RDFS and the part of OWL RL that questions need, materialised beside the data.

``kg.query(sparql, reasoning=True)`` (and ``ont query --reasoning``) answer over the stated triples together with
what the domain's ontology entails from them. What is entailed, as the W3C's OWL 2 RL rules name it:

=====================================  ==================================================================
axiom in the ontology                  what it adds
=====================================  ==================================================================
``C rdfs:subClassOf D``                ``x a C`` → ``x a D`` (cax-sco)
``C owl:equivalentClass D``            both ways (cax-eqc1, cax-eqc2)
``p rdfs:subPropertyOf q``             ``x p y`` → ``x q y`` (prp-spo1)
``p owl:equivalentProperty q``         both ways (prp-eqp1, prp-eqp2)
``p rdfs:domain C``                    ``x p y`` → ``x a C`` (prp-dom)
``p rdfs:range C``                     ``x p y`` → ``y a C`` for a resource ``y`` (prp-rng)
``p owl:inverseOf q``                  ``x p y`` → ``y q x`` and back (prp-inv1, prp-inv2)
``p a owl:SymmetricProperty``          ``x p y`` → ``y p x`` (prp-symp)
``p a owl:TransitiveProperty``         ``x p y``, ``y p z`` → ``x p z`` (prp-trp)
``C owl:intersectionOf (C1 … Cn)``     ``x a C`` ⇔ ``x a C1`` … ``x a Cn`` (cls-int1, cls-int2)
``C owl:unionOf (C1 … Cn)``            ``x a Ci`` → ``x a C`` (cls-uni)
``R owl:someValuesFrom D``,            ``x p y``, ``y a D`` → ``x a R`` (cls-svf1; ``owl:Thing``: cls-svf2)
``R owl:onProperty p``
=====================================  ==================================================================

The class expressions combine: LUBM's ``Chair ≡ Person ⊓ ∃headOf.Department`` makes every person who heads a
department a chair. Nothing else of OWL is applied: ``owl:sameAs`` and what leads to it (functional and
inverse-functional properties, keys), ``owl:hasValue``, ``owl:allValuesFrom``, property chains, cardinalities and
datatype reasoning. :attr:`Rules.ignored` names each such axiom an ontology holds, so that an answer that lacks
what one of them would add is not mistaken for complete. Consistency (disjoint classes) is the load's check, not
reasoning's. Facts whose subject would be a literal are not written (they are not RDF).

Why materialised and not rewritten (measured on LUBM, docs/performance.md#reasoning): the entailments of a
domain are computed once, after a load or at the first reasoning query after a write, by forward chaining in
Python over the triples the rules read (semi-naive: each new fact is joined once), and written into one derived
graph per domain (:func:`entailed_graph`) beside the stated graph, never into it: citations, ``ont verify``,
exports and every query without ``reasoning`` see the stated triples only. A reasoning query then runs as fast
as any other, over the union of the stated graph and the derived graphs. Rewriting each query instead would
leave the data alone, but a transitive property needs an unbounded path (``p+``, which Oxigraph computes whole
even under ``LIMIT 1``) and a class defined by ``owl:intersectionOf`` and ``owl:someValuesFrom`` unfolds into a
union of joins that grows with every class and property below it.

A derived graph is recorded with the state of the stated data it was computed from
(:meth:`~ont_platform.storage.Store.replace_derived`): any later write makes it stale, and the next reasoning
query computes it again first. So an answer never mixes old entailments with new data.
"""

from __future__ import annotations

import time
from collections import defaultdict
from collections.abc import Iterable, Iterator
from dataclasses import dataclass, field
from typing import TYPE_CHECKING
from urllib.parse import quote

from rdflib import OWL, RDF, RDFS, XSD, BNode, Graph, URIRef
from rdflib.collection import Collection
from rdflib.term import Node

from ont_platform.errors import InputError
from ont_platform.namespaces import ID

if TYPE_CHECKING:
    from ont_platform.domains import Domain
    from ont_platform.storage import Store

VERSION = "owl-rl-subset/1"
"""Names the rules this module applies: a derived graph computed by other rules is computed again."""

RDF_TYPE = f"<{RDF.type}>"
_DATATYPE_SPACES = (str(XSD), str(RDFS.Literal), str(RDF.langString), str(RDF.PlainLiteral), str(RDF.XMLLiteral))

_IGNORED_PREDICATES = {
    OWL.hasValue: "owl:hasValue restrictions (cls-hv1, cls-hv2)",
    OWL.allValuesFrom: "owl:allValuesFrom restrictions (cls-avf)",
    OWL.sameAs: "owl:sameAs (the eq-* rules)",
    OWL.propertyChainAxiom: "property chains (prp-spo2)",
    OWL.hasKey: "keys (prp-key)",
    OWL.maxCardinality: "cardinality restrictions (cls-maxc)",
    OWL.maxQualifiedCardinality: "cardinality restrictions (cls-maxqc)",
    OWL.cardinality: "cardinality restrictions",
    OWL.qualifiedCardinality: "cardinality restrictions",
    OWL.minCardinality: "cardinality restrictions",
    OWL.complementOf: "owl:complementOf",
    OWL.oneOf: "enumerations (cls-oo)",
}
_IGNORED_TYPES = {
    OWL.FunctionalProperty: "functional properties (prp-fp: sameAs)",
    OWL.InverseFunctionalProperty: "inverse-functional properties (prp-ifp: sameAs)",
    OWL.ReflexiveProperty: "reflexive properties",
}


def entailed_graph(domain: str) -> str:
    """The IRI of the derived graph holding what ``domain``'s ontology entails."""
    return f"{ID}{quote(domain, safe='')}/entailed"


def version_of(domain: Domain) -> str:
    """What a domain's derived graph is recorded with: the rules and the ontology it was computed by."""
    return f"{VERSION}:{domain.fingerprint()}"


# -- the rules an ontology gives -------------------------------------------------------------------------------


@dataclass(frozen=True)
class Rules:
    """An ontology's axioms as the closure applies them. Terms are N-Triples text (``<iri>``); an anonymous
    class of the ontology (a restriction, an intersection) is ``~label``, which no stored term can be."""

    class_supers: dict[str, tuple[str, ...]] = field(default_factory=dict)
    """Class → the classes every member of it is also in, one step (subClassOf, equivalentClass both ways, an
    intersection's parts, the union a part belongs to)."""
    intersections: dict[str, tuple[tuple[str, tuple[str, ...]], ...]] = field(default_factory=dict)
    """A part of an intersection → (the intersection, all its parts)."""
    some_values: dict[str, tuple[tuple[str, str], ...]] = field(default_factory=dict)
    """A restriction's ``someValuesFrom`` class → (its ``onProperty``, the restriction)."""
    some_thing: dict[str, tuple[str, ...]] = field(default_factory=dict)
    """A property → the restrictions ``someValuesFrom owl:Thing`` on it."""
    property_supers: dict[str, tuple[str, ...]] = field(default_factory=dict)
    inverses: dict[str, tuple[str, ...]] = field(default_factory=dict)
    symmetric: frozenset[str] = frozenset()
    transitive: frozenset[str] = frozenset()
    domains: dict[str, tuple[str, ...]] = field(default_factory=dict)
    ranges: dict[str, tuple[str, ...]] = field(default_factory=dict)
    ignored: tuple[str, ...] = ()
    """What the ontology says that these rules do not apply, one line each (see the module documentation)."""

    @property
    def properties(self) -> frozenset[str]:
        """Every property whose triples the rules read or add."""
        out: set[str] = set(self.symmetric | self.transitive)
        for table in (self.property_supers, self.inverses):
            for p, qs in table.items():
                out.add(p)
                out.update(qs)
        out.update(self.domains)
        out.update(self.ranges)
        out.update(self.some_thing)
        for pairs in self.some_values.values():
            out.update(p for p, _ in pairs)
        return frozenset(t for t in out if t.startswith("<"))

    @property
    def classes(self) -> frozenset[str]:
        """Every named class whose members the rules read or add."""
        out: set[str] = set()
        for c, ds in self.class_supers.items():
            out.add(c)
            out.update(ds)
        for c, defs in self.intersections.items():
            out.add(c)
            for d, parts in defs:
                out.add(d)
                out.update(parts)
        out.update(self.some_values)
        for table in (self.domains, self.ranges):
            for cs in table.values():
                out.update(cs)
        return frozenset(t for t in out if t.startswith("<"))

    def __bool__(self) -> bool:
        return bool(self.properties or self.classes)


def compile_rules(graph: Graph) -> Rules:
    """The rules of the ontology in ``graph`` (an rdflib graph of OWL/RDFS axioms)."""

    def name(node: Node) -> str | None:
        if isinstance(node, URIRef):
            return f"<{node}>"
        if isinstance(node, BNode):
            return f"~{node}"
        return None  # a literal is no class or property

    def members(head: Node) -> list[Node]:
        try:
            return list(Collection(graph, head))
        except Exception:  # noqa: BLE001 - a malformed list (no rdf:rest, a cycle) is no class expression
            return []

    supers: dict[str, set[str]] = defaultdict(set)
    inter: dict[str, set[tuple[str, tuple[str, ...]]]] = defaultdict(set)
    some: dict[str, set[tuple[str, str]]] = defaultdict(set)
    some_thing: dict[str, set[str]] = defaultdict(set)
    psupers: dict[str, set[str]] = defaultdict(set)
    inverses: dict[str, set[str]] = defaultdict(set)
    domains: dict[str, set[str]] = defaultdict(set)
    ranges: dict[str, set[str]] = defaultdict(set)
    ignored: dict[str, int] = defaultdict(int)

    def pairs(predicate: URIRef) -> Iterator[tuple[str, str]]:
        for s, o in graph.subject_objects(predicate):
            a, b = name(s), name(o)
            if a is not None and b is not None:
                yield a, b

    for a, b in pairs(RDFS.subClassOf):
        if a != b:
            supers[a].add(b)
    for a, b in pairs(OWL.equivalentClass):
        if a != b:
            supers[a].add(b)
            supers[b].add(a)
    for a, b in pairs(RDFS.subPropertyOf):
        if a != b:
            psupers[a].add(b)
    for a, b in pairs(OWL.equivalentProperty):
        if a != b:
            psupers[a].add(b)
            psupers[b].add(a)
    for a, b in pairs(OWL.inverseOf):
        if a.startswith("<") and b.startswith("<"):
            inverses[a].add(b)
            inverses[b].add(a)
        else:
            ignored["inverse property expressions (an owl:inverseOf of a blank node)"] += 1
    for a, b in pairs(RDFS.domain):
        if not _datatype(b):
            domains[a].add(b)
    for a, b in pairs(RDFS.range):
        if not _datatype(b):
            ranges[a].add(b)
    for node, head in graph.subject_objects(OWL.intersectionOf):
        c = name(node)
        parts = tuple(p for p in (name(m) for m in members(head)) if p is not None)
        if c is None or not parts:
            continue
        for part in parts:
            supers[c].add(part)
            inter[part].add((c, parts))
    for node, head in graph.subject_objects(OWL.unionOf):
        c = name(node)
        if c is None:
            continue
        for each in (name(m) for m in members(head)):
            if each is not None and each != c:
                supers[each].add(c)
    for node, filler in graph.subject_objects(OWL.someValuesFrom):
        r, d, on = name(node), name(filler), graph.value(node, OWL.onProperty)
        p = name(on) if on is not None else None
        if r is None or d is None or p is None or not p.startswith("<"):
            ignored["owl:someValuesFrom restrictions on a property expression"] += 1
        elif d == f"<{OWL.Thing}>":
            some_thing[p].add(r)
        elif _datatype(d) or (isinstance(filler, URIRef) and (filler, RDF.type, RDFS.Datatype) in graph):
            ignored["owl:someValuesFrom a datatype"] += 1
        else:
            some[d].add((p, r))
    _restriction_hierarchy(supers, psupers, some, some_thing)
    symmetric = frozenset(t for t in (name(s) for s in graph.subjects(RDF.type, OWL.SymmetricProperty)) if t)
    transitive = frozenset(t for t in (name(s) for s in graph.subjects(RDF.type, OWL.TransitiveProperty)) if t)
    for predicate, what in _IGNORED_PREDICATES.items():
        found = sum(1 for _ in graph.subject_objects(predicate))
        if found:
            ignored[what] += found
    for cls, what in _IGNORED_TYPES.items():
        found = sum(1 for _ in graph.subjects(RDF.type, cls))
        if found:
            ignored[what] += found
    return Rules(
        class_supers={k: tuple(sorted(v)) for k, v in supers.items()},
        intersections={k: tuple(sorted(v)) for k, v in inter.items()},
        some_values={k: tuple(sorted(v)) for k, v in some.items()},
        some_thing={k: tuple(sorted(v)) for k, v in some_thing.items()},
        property_supers={k: tuple(sorted(v)) for k, v in psupers.items()},
        inverses={k: tuple(sorted(v)) for k, v in inverses.items()},
        symmetric=symmetric,
        transitive=transitive,
        domains={k: tuple(sorted(v)) for k, v in domains.items()},
        ranges={k: tuple(sorted(v)) for k, v in ranges.items()},
        ignored=tuple(f"{what}: {n} axiom(s) not applied" for what, n in sorted(ignored.items())),
    )


def _restriction_hierarchy(
    supers: dict[str, set[str]],
    psupers: dict[str, set[str]],
    some: dict[str, set[tuple[str, str]]],
    some_thing: dict[str, set[str]],
) -> None:
    """Add ``R1 ⊑ R2`` for two ``someValuesFrom`` restrictions whose property and class are each below (or equal
    to) the other's (scm-svf1, scm-svf2): ``∃worksFor.ResearchGroup ⊑ ∃worksFor.Organization``, which makes
    LUBM's research assistants employees. Repeated until nothing is added (a restriction's class may itself be a
    restriction)."""
    thing = f"<{OWL.Thing}>"
    restrictions = [(r, p, d) for d, pairs in some.items() for p, r in pairs]
    restrictions += [(r, p, thing) for p, rs in some_thing.items() for r in rs]
    if len(restrictions) < 2:
        return

    def above(table: dict[str, set[str]], start: str) -> set[str]:
        seen, todo = {start}, [start]
        while todo:
            for nxt in table.get(todo.pop(), ()):
                if nxt not in seen:
                    seen.add(nxt)
                    todo.append(nxt)
        return seen

    props = {p: above(psupers, p) for _, p, _ in restrictions}
    changed = True
    while changed:
        changed = False
        classes = {d: above(supers, d) for _, _, d in restrictions}
        for r1, p1, d1 in restrictions:
            for r2, p2, d2 in restrictions:
                if r1 == r2 or r2 in supers.get(r1, ()) or p2 not in props[p1]:
                    continue
                if d2 == thing or d2 in classes[d1]:
                    supers[r1].add(r2)
                    changed = True


def _datatype(term: str) -> bool:
    return term.startswith("<") and term[1:-1].startswith(_DATATYPE_SPACES)


# -- the closure -------------------------------------------------------------------------------------------------


def closure(
    rules: Rules,
    facts: Iterable[tuple[str, str, str]],
    types: Iterable[tuple[str, str]],
    *,
    max_new: int | None = None,
) -> list[tuple[str, str, str]]:
    """What ``rules`` entail from the stated property ``facts`` (subject, property, object) and class memberships
    ``types`` (resource, class), that is not among them: triples of N-Triples terms, a literal never a subject,
    anonymous classes of the ontology left out.

    Two phases, each a work list (every fact is joined once, when it is taken from the list): first the property
    facts (sub-properties, inverses, symmetry, transitivity: none of them depends on classes), then the classes
    (domains and ranges of every fact, then superclasses, intersections and ``someValuesFrom`` restrictions).
    Raises :class:`~ont_platform.errors.InputError` past ``max_new`` new facts (``Limits.max_entailed_triples``: a
    long chain of a transitive property is quadratic)."""
    ids: dict[str, int] = {}
    names: list[str] = []
    literal: list[bool] = []

    def tid(term: str) -> int:
        i = ids.get(term)
        if i is None:
            i = ids[term] = len(names)
            names.append(term)
            literal.append(term.startswith('"'))
        return i

    def table(source: dict[str, tuple[str, ...]]) -> dict[int, tuple[int, ...]]:
        return {tid(k): tuple(tid(v) for v in vs) for k, vs in source.items()}

    psup, inv, dom, rng = (table(t) for t in (rules.property_supers, rules.inverses, rules.domains, rules.ranges))
    csup = table(rules.class_supers)
    some_thing = table(rules.some_thing)
    sym = {tid(p) for p in rules.symmetric}
    trans = {tid(p) for p in rules.transitive}
    inter = {
        tid(part): tuple((tid(c), tuple(tid(x) for x in parts)) for c, parts in defs)
        for part, defs in rules.intersections.items()
    }
    some = {tid(d): tuple((tid(p), tid(r)) for p, r in pairs) for d, pairs in rules.some_values.items()}
    new: list[tuple[int, int, int]] = []
    cap = max_new if max_new is not None else -1

    # -- property facts --
    known: dict[int, set[tuple[int, int]]] = defaultdict(set)
    out_edges: dict[int, dict[int, set[int]]] = {p: defaultdict(set) for p in trans}
    in_edges: dict[int, dict[int, set[int]]] = {p: defaultdict(set) for p in trans}
    work: list[tuple[int, int, int]] = []

    def add(p: int, s: int, o: int, derived: bool) -> None:
        pairs = known[p]
        if (s, o) in pairs:
            return
        pairs.add((s, o))
        if p in out_edges:
            out_edges[p][s].add(o)
            in_edges[p][o].add(s)
        work.append((p, s, o))
        if derived:
            new.append((s, p, o))
            if len(new) == cap:
                raise InputError(f"reasoning stopped: the ontology entails more than {max_new} new triples")

    for s_, p_, o_ in facts:
        add(tid(p_), tid(s_), tid(o_), False)
    while work:
        p, s, o = work.pop()
        for q in psup.get(p, ()):
            add(q, s, o, True)
        if literal[o]:
            continue
        for q in inv.get(p, ()):
            add(q, o, s, True)
        if p in sym:
            add(p, o, s, True)
        if p in trans:
            for o2 in list(out_edges[p].get(o, ())):
                add(p, s, o2, True)
            for s2 in list(in_edges[p].get(s, ())):
                add(p, s2, o, True)

    # -- classes --
    rdf_type = tid(RDF_TYPE)
    member: dict[int, set[int]] = defaultdict(set)
    todo: list[tuple[int, int]] = []

    def join(x: int, c: int, derived: bool) -> None:
        held = member[x]
        if c in held:
            return
        held.add(c)
        todo.append((x, c))
        if derived:
            new.append((x, rdf_type, c))
            if len(new) == cap:
                raise InputError(f"reasoning stopped: the ontology entails more than {max_new} new triples")

    for x_, c_ in types:
        join(tid(x_), tid(c_), False)
    subjects: dict[int, dict[int, list[int]]] = {}
    """For each property a restriction is on: object → the subjects that have it there."""
    for pairs_ in some.values():
        for p, _ in pairs_:
            subjects.setdefault(p, defaultdict(list))
    for p, pairs in known.items():
        ds, rs, ts = dom.get(p, ()), rng.get(p, ()), some_thing.get(p, ())
        by_object = subjects.get(p)
        for s, o in pairs:
            for c in ds:
                join(s, c, True)
            for c in ts:
                join(s, c, True)
            if literal[o]:
                continue
            for c in rs:
                join(o, c, True)
            if by_object is not None:
                by_object[o].append(s)
    while todo:
        x, c = todo.pop()
        for d in csup.get(c, ()):
            join(x, d, True)
        for defined, parts in inter.get(c, ()):
            held = member[x]
            if defined not in held and all(part in held for part in parts):
                join(x, defined, True)
        for p, restriction in some.get(c, ()):
            for s in subjects[p].get(x, ()):
                join(s, restriction, True)
    return [
        (names[s], names[p], names[o])
        for s, p, o in new
        if not literal[s] and not names[o].startswith("~") and not names[s].startswith("~")
    ]


# -- over a store --------------------------------------------------------------------------------------------------


@dataclass
class Entailments:
    """The derived graph of one domain: how many triples it holds, how long it took, what was not applied."""

    domain: str
    graph: str
    triples: int | None
    """Triples in the derived graph; ``None`` when it was current and not computed again."""
    seconds: float = 0.0
    computed: bool = False
    ignored: tuple[str, ...] = ()
    read: int = 0
    """Stated triples the rules read."""

    def as_dict(self) -> dict[str, object]:
        return {
            "domain": self.domain,
            "graph": self.graph,
            "triples": self.triples,
            "computed": self.computed,
            "seconds": round(self.seconds, 3),
            "read": self.read,
            "ignored": list(self.ignored),
        }


_RULES: dict[str, Rules] = {}


def rules_of(domain: Domain) -> Rules:
    """The rules of the domain's own ontology (compiled once per ontology). The library's core vocabulary
    (``ontologies/core.ttl``, the bookkeeping of datasets, relations and chunks) is not reasoned over: an
    ontology's axioms that name its terms (``ex:Person rdfs:subClassOf ont:Entity``) are."""
    from ont_platform.domains.base import parse_turtle

    key = domain.fingerprint()
    found = _RULES.get(key)
    if found is None:
        found = _RULES[key] = compile_rules(parse_turtle(domain.ontology_sources, "ontology"))
    return found


def stated_input(store: Store, rules: Rules) -> tuple[list[tuple[str, str, str]], list[tuple[str, str]]]:
    """The stated triples ``rules`` read: every triple of their properties and every membership of their
    classes, as N-Triples terms (one bulk read per property and one per class: each is an index range scan)."""
    from ont_platform.rdf_terms import iri

    facts: list[tuple[str, str, str]] = []
    for p in sorted(rules.properties):
        for s, o in store.select_nt(f"SELECT ?s ?o WHERE {{ ?s {iri(p[1:-1])} ?o }}"):
            if s is not None and o is not None:
                facts.append((s, p, o))
    types: list[tuple[str, str]] = []
    for c in sorted(rules.classes):
        for (s,) in store.select_nt(f"SELECT ?s WHERE {{ ?s a {iri(c[1:-1])} }}"):
            if s is not None:
                types.append((s, c))
    return facts, types


def materialise(store: Store, domain: Domain, *, max_new: int | None = None) -> Entailments:
    """Compute what ``domain``'s ontology entails from the store's stated triples and replace its derived graph
    with it (:meth:`~ont_platform.storage.Store.replace_derived`)."""
    started = time.perf_counter()
    rules = rules_of(domain)
    graph = entailed_graph(domain.name)
    facts, types = stated_input(store, rules)
    read = len(facts) + len(types)
    entailed = closure(rules, facts, types, max_new=max_new)
    del facts, types
    count = store.replace_derived(graph, version_of(domain), entailed)
    return Entailments(
        domain.name,
        graph,
        count,
        seconds=time.perf_counter() - started,
        computed=True,
        ignored=rules.ignored,
        read=read,
    )


def current(store: Store, domain: Domain) -> bool:
    """Whether the store holds ``domain``'s entailments for its data as it is now."""
    return store.derived_current(entailed_graph(domain.name), version_of(domain))


__all__ = [
    "VERSION",
    "Entailments",
    "Rules",
    "closure",
    "compile_rules",
    "current",
    "entailed_graph",
    "materialise",
    "rules_of",
    "stated_input",
    "version_of",
]
