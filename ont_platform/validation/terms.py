"""The ontology as a validator needs it: names an LLM may write, resolved to the domain's terms.

LLMs name classes and relations loosely (``person``, ``kg:Company``, ``회사``, ``works for``); resolution
accepts the local name (any case), a prefixed name, the full IRI, the ``ont:relationNotation`` of a relation,
and any ``rdfs:label``/``skos:altLabel`` that names exactly one term. Everything is read from the bundled
ontology files; nothing here lists terms by hand.
"""

from __future__ import annotations

import math
import re
from dataclasses import dataclass, field
from datetime import UTC, date, datetime
from decimal import Decimal, InvalidOperation
from functools import cache
from typing import Any, TypeGuard

from rdflib import OWL, RDF, RDFS, XSD, Graph, URIRef
from rdflib.collection import Collection
from rdflib.term import Node

from ont_platform.domains import Domain, get_domain
from ont_platform.errors import OntologyError
from ont_platform.namespaces import KG, OC, ONT, PG
from ont_platform.ontology import DomainOntology, Relation, local_name

_PREFIXES = {"ont": str(ONT), "oc": str(OC), "kg": str(KG), "pg": str(PG)}
_INTEGER = re.compile(r"^[+-]?[0-9]+$")
_DECIMAL = re.compile(r"^[+-]?([0-9]+(\.[0-9]*)?|\.[0-9]+)$")
_URI = re.compile(r"^[A-Za-z][A-Za-z0-9+.-]*:[^\s<>\"{}|\\^`]+$")


@dataclass(frozen=True)
class DatatypeProperty:
    """A datatype property an attribute may set: its range decides how values are typed."""

    name: str
    iri: URIRef
    range: URIRef | None
    functional: bool
    domain: frozenset[URIRef]


@dataclass
class OntologyIndex:
    """Lookup tables over one domain's ontology, built once per domain."""

    onto: DomainOntology
    _class_names: dict[str, URIRef | None] = field(default_factory=dict)
    _relation_names: dict[str, Relation | None] = field(default_factory=dict)
    datatype_properties: dict[str, DatatypeProperty] = field(default_factory=dict)
    properties: frozenset[URIRef] = frozenset()
    """Every property the ontology declares (core and domain), plus ``rdf:type``."""
    all_classes: frozenset[URIRef] = frozenset()
    """Entity classes, relation classes and the core classes a graph may use."""
    ranges: dict[URIRef, URIRef] = field(default_factory=dict)
    """Declared ``xsd:`` range of every datatype property (core and domain)."""

    @property
    def domain(self) -> str:
        return self.onto.domain

    def resolve_class(self, text: str) -> URIRef | None:
        """The entity class named by ``text``, or ``None``."""
        return self._class_names.get(_key(self._expand(text)))

    def resolve_relation(self, text: str) -> Relation | None:
        """The relation named by ``text`` (notation, local name, IRI or label), or ``None``."""
        return self._relation_names.get(_key(self._expand(text)))

    def relation_class(self, rel: Relation) -> URIRef | None:
        """The class of the resource that stores a relation (``kg:TextRelation``, ``oc:Transfer``...)."""
        wanted = ONT.InferredRelation if rel.inferred else ONT.ObservedRelation
        matches = [c for c in self.onto.relation_classes.values() if wanted in self.onto.superclasses(c)]
        return min(matches) if matches else None

    def class_names(self) -> list[str]:
        return sorted(self.onto.classes)

    def relation_names(self) -> list[str]:
        return sorted(self.onto.relations)

    def class_label(self, cls: URIRef) -> str:
        return local_name(cls)

    def allowed(self, classes: frozenset[URIRef]) -> list[str]:
        """Local names of ``classes`` and every class below them, for messages."""
        names: set[str] = set()
        for cls in classes:
            names |= {local_name(c) for c in self.onto.subclasses(cls) if c in self.onto.classes.values()}
        return sorted(names)

    def _expand(self, text: str) -> str:
        text = text.strip()
        prefix, sep, rest = text.partition(":")
        if sep and prefix in _PREFIXES and not rest.startswith("//"):
            return _PREFIXES[prefix] + rest
        return text


def _key(text: str) -> str:
    return " ".join(text.casefold().split())


def _add(table: dict[str, Any], name: str, term: Any) -> None:
    key = _key(name)
    if not key:
        return
    if key in table and table[key] != term:
        table[key] = None  # ambiguous: the name stands for two terms, so it resolves to neither
    else:
        table[key] = term


def ontology_index(domain: str | Domain) -> OntologyIndex:
    """The index of a domain (by name or as a :class:`Domain`); built once per domain."""
    return _index(get_domain(domain))


@cache
def _index(spec: Domain) -> OntologyIndex:
    onto = spec.ontology
    index = OntologyIndex(onto)
    g = onto.graph
    # Exact names first, then labels: a label never overrides a local name, notation or IRI.
    labelled: list[tuple[str, Any]] = []
    for name, cls in onto.classes.items():
        for alias in (name, str(cls)):
            _add(index._class_names, alias, cls)
        labelled += [(label, cls) for label in onto.labels(cls)]
    for notation, rel in onto.relations.items():
        for alias in (notation, local_name(rel.iri), str(rel.iri)):
            _add(index._relation_names, alias, rel)
    exact_classes, exact_relations = set(index._class_names), set(index._relation_names)
    for label, cls in labelled:
        if _key(label) not in exact_classes:
            _add(index._class_names, label, cls)
    for rel in onto.relations.values():
        for label in onto.labels(rel.iri):
            if _key(label) not in exact_relations:
                _add(index._relation_names, label, rel)

    def own(term: object) -> TypeGuard[URIRef]:
        if not isinstance(term, URIRef):
            return False
        return (
            str(term).startswith(spec.namespace) if spec.namespace is not None else not str(term).startswith(str(ONT))
        )

    for prop in g.subjects(RDF.type, OWL.DatatypeProperty):
        if not own(prop):
            continue
        rng = g.value(prop, RDFS.range)
        index.datatype_properties[local_name(prop)] = DatatypeProperty(
            name=local_name(prop),
            iri=prop,
            range=rng if isinstance(rng, URIRef) else None,
            functional=(prop, RDF.type, OWL.FunctionalProperty) in g,
            domain=_classes(g, g.value(prop, RDFS.domain)),
        )
    props = {
        p
        for kind in (OWL.ObjectProperty, OWL.DatatypeProperty, OWL.AnnotationProperty)
        for p in g.subjects(RDF.type, kind)
        if isinstance(p, URIRef)
    }
    # The loader's bookkeeping resource (one per loaded dataset) uses these terms too.
    index.properties = frozenset(props | {RDF.type, ONT.domain, ONT.asOf, ONT.ontologyText, ONT.shapesText})
    index.all_classes = frozenset(
        set(onto.classes.values())
        | set(onto.relation_classes.values())
        | {c for c in g.subjects(RDF.type, OWL.Class) if isinstance(c, URIRef) and str(c).startswith(str(ONT))}
        | {ONT.Dataset}
    )
    for prop in g.subjects(RDF.type, OWL.DatatypeProperty):
        rng = g.value(prop, RDFS.range)
        if isinstance(prop, URIRef) and isinstance(rng, URIRef) and str(rng).startswith(str(XSD)):
            index.ranges[prop] = rng
    return index


def _classes(g: Graph, node: object) -> frozenset[URIRef]:
    """A class, or the members of an ``owl:unionOf``, as a set (empty: no restriction)."""
    if isinstance(node, URIRef):
        return frozenset({node})
    union = g.value(node, OWL.unionOf) if isinstance(node, Node) else None
    if union is None:
        return frozenset()
    return frozenset(m for m in Collection(g, union) if isinstance(m, URIRef))


def as_index(ontology: str | Domain | DomainOntology | OntologyIndex | None) -> OntologyIndex | None:
    """Accept a domain (by name or as a :class:`Domain`), a loaded :class:`DomainOntology` or an index; ``None``
    stays ``None``."""
    if ontology is None or isinstance(ontology, OntologyIndex):
        return ontology
    if isinstance(ontology, Domain):
        return ontology_index(ontology)
    if isinstance(ontology, DomainOntology):
        return ontology_index(ontology.domain)
    if isinstance(ontology, str):
        return ontology_index(ontology)
    raise OntologyError(f"ontology must be a domain name, a Domain or a DomainOntology, not {type(ontology).__name__}")


# --- literal values ------------------------------------------------------------------------------------------


def decimal_lexical(value: float) -> str | None:
    """The ``xsd:decimal`` lexical form of a finite number (never an exponent), or ``None``."""
    if isinstance(value, bool) or not isinstance(value, (int, float)):
        return None
    if isinstance(value, float) and not math.isfinite(value):
        return None
    text = format(Decimal(repr(value)) if isinstance(value, float) else Decimal(value), "f")
    if "." in text:
        text = text.rstrip("0").rstrip(".") or "0"
    return text


def lexical(value: Any, datatype: URIRef | None) -> str | None:
    """The lexical form of ``value`` as a literal of ``datatype``, or ``None`` when it is not one.

    Strings are taken as written for ``xsd:string``; numbers, booleans, dates and URIs are checked and
    normalised, so that what reaches the graph is what SHACL and SPARQL expect.
    """
    if datatype is None or datatype == XSD.string:
        return value if isinstance(value, str) else None
    if datatype == XSD.integer:
        if isinstance(value, int) and not isinstance(value, bool):
            return str(value)
        if isinstance(value, str) and _INTEGER.match(value.strip()):
            return str(int(value.strip()))
        return None
    if datatype == XSD.decimal:
        if isinstance(value, str):
            text = value.strip()
            if not _DECIMAL.match(text):
                return None
            try:
                return decimal_lexical(float(text)) if len(text) < 30 else format(Decimal(text), "f")
            except (InvalidOperation, ValueError, OverflowError):
                return None
        return decimal_lexical(value)
    if datatype == XSD.boolean:
        if isinstance(value, bool):
            return "true" if value else "false"
        if isinstance(value, str) and value.strip().lower() in ("true", "false"):
            return value.strip().lower()
        return None
    if datatype == XSD.date:
        if isinstance(value, str):
            try:
                return date.fromisoformat(value.strip()).isoformat()
            except ValueError:
                return None
        return None
    if datatype == XSD.dateTime:
        return _datetime(value)
    if datatype == XSD.anyURI:
        return value.strip() if isinstance(value, str) and _URI.match(value.strip()) else None
    return value if isinstance(value, str) else None


def _datetime(value: Any) -> str | None:
    try:
        if isinstance(value, int) and not isinstance(value, bool):
            if not 0 <= value <= 32503680000:  # up to the year 3000
                return None
            moment = datetime.fromtimestamp(value, tz=UTC)
        elif isinstance(value, str):
            moment = datetime.fromisoformat(value.strip())
            if moment.tzinfo is None:
                moment = moment.replace(tzinfo=UTC)
        else:
            return None
    except (ValueError, OverflowError, OSError):
        return None
    return moment.astimezone(UTC).strftime("%Y-%m-%dT%H:%M:%SZ")


def datatype_name(datatype: URIRef | None) -> str:
    """``xsd:integer`` style name for messages."""
    return "xsd:string" if datatype is None else f"xsd:{local_name(datatype)}"


__all__ = [
    "DatatypeProperty",
    "OntologyIndex",
    "as_index",
    "datatype_name",
    "decimal_lexical",
    "lexical",
    "ontology_index",
]
