"""A domain's ontology as the code needs it: classes, their hierarchy, relations by CSV name, labels.

Built once per domain from the bundled Turtle (core + domain) with rdflib and cached: everything the loader,
the shapes and the question parser need to know about terms comes from the ontology files, not from lists in
the code.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from functools import lru_cache

from rdflib import OWL, RDF, RDFS, SKOS, Graph, Literal, URIRef
from rdflib.collection import Collection

from ont_platform.errors import OntologyError
from ont_platform.namespaces import DOMAIN_NS, ONT, PG
from ont_platform.resources import ontology_file


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
        """``rdfs:label`` and ``skos:altLabel`` values of a term, optionally in one language."""
        out: list[str] = []
        for prop in (RDFS.label, SKOS.prefLabel, SKOS.altLabel):
            for lit in self.graph.objects(term, prop):
                if isinstance(lit, Literal) and (lang is None or lit.language == lang):
                    out.append(str(lit))
        return out

    def label(self, term: URIRef, lang: str = "ko") -> str:
        """The preferred label in ``lang``, falling back to the local name."""
        for lit in self.graph.objects(term, RDFS.label):
            if isinstance(lit, Literal) and lit.language == lang:
                return str(lit)
        return local_name(term)


def local_name(term: URIRef) -> str:
    """The part of an IRI after its last ``#`` or ``/``."""
    text = str(term)
    return text.rsplit("#", 1)[-1].rsplit("/", 1)[-1]


def _closure(g: Graph, cls: URIRef) -> set[URIRef]:
    seen, todo = {cls}, [cls]
    while todo:
        for sup in g.objects(todo.pop(), RDFS.subClassOf):
            if isinstance(sup, URIRef) and sup not in seen:
                seen.add(sup)
                todo.append(sup)
    return seen


def _class_set(g: Graph, node: object) -> frozenset[URIRef]:
    if node is None:
        return frozenset()
    if isinstance(node, URIRef):
        return frozenset({node})
    union = g.value(node, OWL.unionOf)  # type: ignore[arg-type]
    if union is not None:
        return frozenset(m for m in Collection(g, union) if isinstance(m, URIRef))
    return frozenset()


@lru_cache(maxsize=None)
def load_domain(domain: str) -> DomainOntology:
    """The ontology of ``domain`` (core terms included). Cached: ontologies are read-only once loaded."""
    if domain not in DOMAIN_NS:
        raise OntologyError(f"unknown domain {domain!r}; known: {', '.join(DOMAIN_NS)}")
    g = Graph()
    for name in ("core", domain):
        path = ontology_file(name)
        try:
            g.parse(path, format="turtle")
        except Exception as exc:
            raise OntologyError(f"cannot read ontology {path}: {exc}") from exc
    ns = str(DOMAIN_NS[domain])
    onto = DomainOntology(domain=domain, graph=g)
    for cls in g.subjects(RDF.type, OWL.Class):
        if isinstance(cls, URIRef) and str(cls).startswith(ns):
            onto.classes[local_name(cls)] = cls
    # Relation resources (Transfer, TextRelation...) are not classes an entity row may name.
    for name, cls in list(onto.classes.items()):
        if ONT.Relation in onto.superclasses(cls):
            onto.relation_classes[name] = onto.classes.pop(name)
    for prop in g.subjects(RDF.type, OWL.ObjectProperty):
        if not (isinstance(prop, URIRef) and str(prop).startswith(ns)):
            continue
        notation = g.value(prop, ONT.relationNotation)
        if notation is None:
            if any(True for _ in g.subjects(RDFS.subPropertyOf, prop)):
                onto.super_relations[local_name(prop)] = prop  # groups relations (kg:within); never stored
            continue
        domain_set = _class_set(g, g.value(prop, RDFS.domain))
        range_set = _class_set(g, g.value(prop, RDFS.range))
        symmetric = (prop, RDF.type, OWL.SymmetricProperty) in g
        rel_class = g.value(prop, ONT.relationClass)
        if not isinstance(rel_class, URIRef):
            raise OntologyError(f"{prop} has a relation notation but no ont:relationClass")
        inferred = ONT.InferredRelation in _closure(g, rel_class)
        onto.relations[str(notation)] = Relation(prop, str(notation), domain_set, range_set, symmetric, inferred,
                                                 rel_class)
    for prop in g.subjects(PG.column, None):
        if isinstance(prop, URIRef) and g.value(prop, PG.columnType) is not None:
            name = str(g.value(prop, PG.column))
            ctype = str(g.value(prop, PG.columnType) or "decimal")
            labels = tuple(onto.labels(prop))
            onto.columns[name] = Column(name, prop, ctype, labels)
    if not onto.classes:
        raise OntologyError(f"ontology of {domain!r} declares no classes")
    return onto
