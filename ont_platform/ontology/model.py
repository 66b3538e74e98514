"""A domain's ontology as the code needs it: classes, their hierarchy, relations by CSV name, labels.

Built once per domain (:class:`ont_platform.domains.Domain` holds it) from its Turtle with rdflib: everything
the loader, the shapes and the question parser need to know about terms comes from the ontology, not from lists
in the code.
"""

from __future__ import annotations

import re
from collections.abc import Callable, Iterator
from dataclasses import dataclass, field

from rdflib import OWL, RDF, RDFS, SKOS, Graph, Literal, URIRef
from rdflib.collection import Collection
from rdflib.term import Node

from ont_platform.errors import OntologyError
from ont_platform.namespaces import ONT, PG


@dataclass(frozen=True)
class Relation:
    """An object property a dataset table can name in its ``rel`` column."""

    iri: URIRef
    notation: str
    domain: frozenset[URIRef]
    range: frozenset[URIRef]
    symmetric: bool
    inferred: bool
    resource_class: URIRef
    """The class of the resource recording each use (oc:Transfer, kg:TextRelation...)."""


@dataclass(frozen=True)
class Column:
    """A page-inventory column: its property and how its cells are typed."""

    name: str
    iri: URIRef
    type: str  # integer | decimal | date
    labels: tuple[str, ...] = ()


@dataclass
class DomainOntology:
    """The terms of one domain, read from its ontology graph."""

    domain: str
    graph: Graph
    classes: dict[str, URIRef] = field(default_factory=dict)
    relations: dict[str, Relation] = field(default_factory=dict)
    relation_classes: dict[str, URIRef] = field(default_factory=dict)
    super_relations: dict[str, URIRef] = field(default_factory=dict)
    columns: dict[str, Column] = field(default_factory=dict)
    _supers: dict[URIRef, frozenset[URIRef]] = field(default_factory=dict)
    _memo: dict[tuple[str, URIRef], frozenset[URIRef]] = field(default_factory=dict)
    """Property facts read off the graph once (questions ask them per hop and per node)."""

    def class_iri(self, name: str) -> URIRef | None:
        """The class with this local name in the domain, if any."""
        return self.classes.get(name)

    def superclasses(self, cls: URIRef) -> frozenset[URIRef]:
        """``cls`` and every class above it (reflexive, transitive)."""
        if cls not in self._supers:
            seen = {cls}
            todo = [cls]
            while todo:
                for sup in self.graph.objects(todo.pop(), RDFS.subClassOf):
                    if isinstance(sup, URIRef) and sup not in seen:
                        seen.add(sup)
                        todo.append(sup)
            self._supers[cls] = frozenset(seen)
        return self._supers[cls]

    def subclasses(self, cls: URIRef) -> frozenset[URIRef]:
        """``cls`` and every entity class below it."""
        return frozenset(c for c in self.classes.values() if cls in self.superclasses(c)) | {cls}

    def is_a(self, cls: URIRef, allowed: frozenset[URIRef]) -> bool:
        """Whether ``cls`` is, or is below, one of ``allowed`` (an empty set allows anything)."""
        return not allowed or bool(self.superclasses(cls) & allowed)

    def labels(self, term: URIRef, lang: str | None = None) -> list[str]:
        """``rdfs:label``, ``skos:prefLabel`` and ``skos:altLabel`` values of a term, optionally in one language (a
        label without a language tag is English).

        A term with no label at all (published ontologies often label only some terms) is named by the words of
        its local name (``GraduateStudent`` → "graduate student", ``worksFor`` → "works for"), in English."""
        out: list[str] = []
        found = False
        for prop in (RDFS.label, SKOS.prefLabel, SKOS.altLabel):
            for lit in self.graph.objects(term, prop):
                if isinstance(lit, Literal):
                    found = True
                    if lang is None or (lit.language or "en") == lang:
                        out.append(str(lit))
        if not found and lang in (None, "en"):
            words = words_of(local_name(term))
            if words:
                out.append(words)
        return out

    def label(self, term: URIRef, lang: str = "ko") -> str:
        """The preferred label in ``lang`` (for English, a tagged one before one without a tag), falling back to
        the local name."""
        labels = [lit for lit in self.graph.objects(term, RDFS.label) if isinstance(lit, Literal)]
        for lit in labels:
            if lit.language == lang:
                return str(lit)
        if lang == "en":
            for lit in labels:
                if not lit.language:
                    return str(lit)
        return local_name(term)

    # -- properties as questions walk them ----------------------------------------------------------------------

    def properties(self) -> frozenset[URIRef]:
        """Every object property of the domain a question may name: stored relations and the properties that
        group them (kg:within)."""
        return frozenset({r.iri for r in self.relations.values()} | set(self.super_relations.values()))

    def _remember(self, kind: str, prop: URIRef, compute: Callable[[], frozenset[URIRef]]) -> frozenset[URIRef]:
        key = (kind, prop)
        if key not in self._memo:
            self._memo[key] = compute()
        return self._memo[key]

    def subproperties(self, prop: URIRef) -> frozenset[URIRef]:
        """``prop`` and every property below it (``rdfs:subPropertyOf``, transitive)."""
        return self._remember("sub", prop, lambda: self._closure_of(prop, down=True))

    def superproperties(self, prop: URIRef) -> frozenset[URIRef]:
        """``prop`` and every property above it."""
        return self._remember("sup", prop, lambda: self._closure_of(prop, down=False))

    def _closure_of(self, prop: URIRef, *, down: bool) -> frozenset[URIRef]:
        def step(p: URIRef) -> Iterator[Node]:
            return self.graph.subjects(RDFS.subPropertyOf, p) if down else self.graph.objects(p, RDFS.subPropertyOf)

        seen, todo = {prop}, [prop]
        while todo:
            for other in step(todo.pop()):
                if isinstance(other, URIRef) and other not in seen:
                    seen.add(other)
                    todo.append(other)
        return frozenset(seen)

    def inverses(self, prop: URIRef) -> frozenset[URIRef]:
        """The properties declared ``owl:inverseOf`` ``prop`` (either way round)."""
        return self._remember("inv", prop, lambda: self._inverses(prop))

    def _inverses(self, prop: URIRef) -> frozenset[URIRef]:
        g = self.graph
        out = {o for o in g.objects(prop, OWL.inverseOf) if isinstance(o, URIRef)}
        out |= {s for s in g.subjects(OWL.inverseOf, prop) if isinstance(s, URIRef)}
        return frozenset(out)

    def symmetric(self, prop: URIRef) -> bool:
        return (prop, RDF.type, OWL.SymmetricProperty) in self.graph

    def ends(self, prop: URIRef) -> tuple[frozenset[URIRef], frozenset[URIRef]]:
        """The domain and range of ``prop`` (class sets; empty: anything), declared on it, else on a
        property above it, else read off its inverse."""
        g = self.graph
        for p in (prop, *sorted(self.superproperties(prop) - {prop})):
            dom = _class_set(g, g.value(p, RDFS.domain))
            rng = _class_set(g, g.value(p, RDFS.range))
            if dom or rng:
                return dom, rng
        for inv in sorted(self.inverses(prop)):
            dom = _class_set(g, g.value(inv, RDFS.domain))
            rng = _class_set(g, g.value(inv, RDFS.range))
            if dom or rng:
                return rng, dom
        return frozenset(), frozenset()

    def stored(self, prop: URIRef) -> frozenset[URIRef]:
        """The stored relations (those tables may name) at or below ``prop``."""
        return self._remember("stored", prop, lambda: self._stored(prop))

    def _stored(self, prop: URIRef) -> frozenset[URIRef]:
        known = {r.iri for r in self.relations.values()}
        return frozenset(p for p in self.subproperties(prop) if p in known)


def local_name(term: URIRef) -> str:
    """The part of an IRI after its last ``#`` or ``/``."""
    text = str(term)
    return text.rsplit("#", 1)[-1].rsplit("/", 1)[-1]


def words_of(name: str) -> str:
    """The words of a camel-case or snake-case local name, lower case: ``GraduateStudent`` → "graduate student",
    ``subOrganizationOf`` → "sub organization of", ``has_part`` → "has part", ``URLTemplate`` → "url template"."""
    spaced = re.sub(r"(?<=[a-z0-9])(?=[A-Z])|(?<=[A-Z])(?=[A-Z][a-z])|[_\-]+", " ", name)
    return " ".join(spaced.split()).lower()


def _closure(g: Graph, cls: URIRef) -> set[URIRef]:
    seen, todo = {cls}, [cls]
    while todo:
        for sup in g.objects(todo.pop(), RDFS.subClassOf):
            if isinstance(sup, URIRef) and sup not in seen:
                seen.add(sup)
                todo.append(sup)
    return seen


def _class_set(g: Graph, node: Node | None) -> frozenset[URIRef]:
    if node is None:
        return frozenset()
    if isinstance(node, URIRef):
        return frozenset({node})
    union = g.value(node, OWL.unionOf)
    if union is not None:
        return frozenset(m for m in Collection(g, union) if isinstance(m, URIRef))
    return frozenset()


def read_ontology(name: str, g: Graph, namespace: str | None) -> DomainOntology:
    """The terms of domain ``name`` from its ontology graph ``g`` (core terms included).

    ``namespace``: only classes and properties under it are the domain's own (the bundled ontologies import
    alignment terms they do not store); ``None`` takes every class and object property that is not part of the
    core vocabulary, which is what a user's ontology means. A relation's table name is its
    ``ont:relationNotation`` or else its local name; its resources are typed with ``ont:relationClass`` or else
    ``ont:ObservedRelation``. In a bundled ontology a property without a notation that has sub-properties only
    groups them (kg:within) and is never stored.
    """
    core = str(ONT)

    def own(term: object) -> bool:
        if not isinstance(term, URIRef):
            return False
        text = str(term)
        return text.startswith(namespace) if namespace is not None else not text.startswith(core)

    onto = DomainOntology(domain=name, graph=g)
    for cls in g.subjects(RDF.type, OWL.Class):
        if own(cls):
            assert isinstance(cls, URIRef)
            onto.classes[local_name(cls)] = cls
    # Relation resources (Transfer, TextRelation...) are not classes an entity row may name.
    for cname, cls in list(onto.classes.items()):
        if ONT.Relation in onto.superclasses(cls):
            onto.relation_classes[cname] = onto.classes.pop(cname)
    for prop in g.subjects(RDF.type, OWL.ObjectProperty):
        if not own(prop):
            continue
        assert isinstance(prop, URIRef)
        notation = g.value(prop, ONT.relationNotation)
        if notation is None:
            if namespace is not None:
                if any(True for _ in g.subjects(RDFS.subPropertyOf, prop)):
                    onto.super_relations[local_name(prop)] = prop  # groups relations (kg:within); never stored
                continue
            notation = Literal(local_name(prop))
        domain_set = _class_set(g, g.value(prop, RDFS.domain))
        range_set = _class_set(g, g.value(prop, RDFS.range))
        symmetric = (prop, RDF.type, OWL.SymmetricProperty) in g
        rel_class = g.value(prop, ONT.relationClass)
        if rel_class is None and namespace is None:
            rel_class = ONT.ObservedRelation
        if not isinstance(rel_class, URIRef):
            raise OntologyError(f"{prop} has a relation notation but no ont:relationClass")
        inferred = ONT.InferredRelation in _closure(g, rel_class)
        if str(notation) in onto.relations:
            raise OntologyError(
                f"two relations of {name!r} have the table name {str(notation)!r}: "
                f"{onto.relations[str(notation)].iri} and {prop}"
            )
        onto.relations[str(notation)] = Relation(
            prop, str(notation), domain_set, range_set, symmetric, inferred, rel_class
        )
    for prop in g.subjects(PG.column, None):
        if isinstance(prop, URIRef) and g.value(prop, PG.columnType) is not None:
            cname = str(g.value(prop, PG.column))
            ctype = str(g.value(prop, PG.columnType) or "decimal")
            labels = tuple(onto.labels(prop))
            onto.columns[cname] = Column(cname, prop, ctype, labels)
    if not onto.classes:
        raise OntologyError(f"the ontology of {name!r} declares no classes")
    return onto
