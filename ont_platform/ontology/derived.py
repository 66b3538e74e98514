"""SHACL shapes derived from an ontology, for domains whose authors wrote none (or only some).

The bundled domains ship their shapes written out (shapes/*.ttl). A user's ontology gets the same guarantees
without writing a shape: every entity of one of its classes has exactly one class of the domain, an id and a
label; every relation resource names a relation of the domain and states whether it is grounded; and every plain
triple of a relation has a subject in the relation's domain and an object in its range (subclasses included,
since validation runs without inference). Shapes the user writes are added beside these, never instead.

The shapes use only constructs the compiled checker evaluates (:mod:`ont_platform.validation.shapes`), so they
cost what the bundled ones cost.
"""

from __future__ import annotations

from collections.abc import Iterable

from rdflib import RDF, RDFS, BNode, Graph, Literal, Namespace, URIRef
from rdflib.collection import Collection
from rdflib.namespace import SH
from rdflib.term import Node

from ont_platform.namespaces import ONT
from ont_platform.ontology.model import DomainOntology, local_name

ONTSH = Namespace("https://w3id.org/ont-platform/shapes/core#")


def _list(g: Graph, items: Iterable[URIRef]) -> BNode:
    head = BNode()
    Collection(g, head, list[Node](sorted(set(items))))
    return head


def _class_list(g: Graph, onto: DomainOntology, allowed: frozenset[URIRef]) -> BNode:
    """A value shape: ``sh:in`` the classes of ``allowed`` and everything below them."""
    shape = BNode()
    members: set[URIRef] = set()
    for cls in allowed:
        members |= onto.subclasses(cls)
    g.add((shape, RDF.type, SH.NodeShape))
    g.add((shape, SH["in"], _list(g, members)))
    return shape


def derived_shapes(onto: DomainOntology) -> Graph:
    """The entity, relation-resource, domain and range shapes of ``onto`` (see the module docstring)."""
    g = Graph()
    base = f"https://w3id.org/ont-platform/shapes/derived/{onto.domain}#"
    classes = sorted(onto.classes.values())
    if not classes:
        return g
    for cls in classes:
        g.add((ONTSH.EntityShape, SH.targetClass, cls))
    entity = URIRef(base + "Entity")
    g.add((entity, RDF.type, SH.NodeShape))
    for cls in classes:
        g.add((entity, SH.targetClass, cls))
    one_class = BNode()
    g.add((entity, SH.property, one_class))
    g.add((one_class, SH.path, RDF.type))
    g.add((one_class, SH.qualifiedValueShape, _class_list(g, onto, frozenset(classes))))
    g.add((one_class, SH.qualifiedMinCount, Literal(1)))
    g.add((one_class, SH.qualifiedMaxCount, Literal(1)))
    g.add((one_class, SH.message, Literal(f"An entity must have exactly one class of the {onto.domain} ontology")))
    for path, message in (
        (ONT.id, "An entity must have an ont:id (its node_id)"),
        (RDFS.label, "An entity must have an rdfs:label"),
    ):
        prop = BNode()
        g.add((entity, SH.property, prop))
        g.add((prop, SH.path, path))
        g.add((prop, SH.minCount, Literal(1)))
        g.add((prop, SH.message, Literal(message)))
    relations = sorted(onto.relations.values(), key=lambda r: r.notation)
    resource_classes = sorted({r.resource_class for r in relations})
    if relations:
        rel_shape = URIRef(base + "Relation")
        g.add((rel_shape, RDF.type, SH.NodeShape))
        for cls in resource_classes:
            g.add((rel_shape, SH.targetClass, cls))
            g.add((ONTSH.RelationShape, SH.targetClass, cls))
        kind = BNode()
        g.add((rel_shape, SH.property, kind))
        g.add((kind, SH.path, ONT.kind))
        g.add((kind, SH["in"], _list(g, (r.iri for r in relations))))
        g.add(
            (kind, SH.message, Literal(f"The ont:kind of a relation must be a relation of the {onto.domain} ontology"))
        )
        grounded = BNode()
        g.add((rel_shape, SH.property, grounded))
        g.add((grounded, SH.path, ONT.grounded))
        g.add((grounded, SH.minCount, Literal(1)))
        g.add((grounded, SH.message, Literal("A relation must state ont:grounded")))
    for rel in relations:
        name = local_name(rel.iri)
        if not rel.domain and not rel.range:
            continue
        shape = URIRef(base + f"{name}-ends")
        g.add((shape, RDF.type, SH.NodeShape))
        g.add((shape, SH.targetSubjectsOf, rel.iri))
        if rel.domain:
            prop = BNode()
            g.add((shape, SH.property, prop))
            g.add((prop, SH.path, RDF.type))
            g.add((prop, SH.qualifiedValueShape, _class_list(g, onto, rel.domain)))
            g.add((prop, SH.qualifiedMinCount, Literal(1)))
            g.add(
                (
                    prop,
                    SH.message,
                    Literal(
                        f"The subject of {name} must be a {' or '.join(sorted(local_name(c) for c in rel.domain))}"
                    ),
                )
            )
        if rel.range:
            node = BNode()
            g.add((node, RDF.type, SH.NodeShape))
            typed = BNode()
            g.add((node, SH.property, typed))
            g.add((typed, SH.path, RDF.type))
            g.add((typed, SH.qualifiedValueShape, _class_list(g, onto, rel.range)))
            g.add((typed, SH.qualifiedMinCount, Literal(1)))
            prop = BNode()
            g.add((shape, SH.property, prop))
            g.add((prop, SH.path, rel.iri))
            g.add((prop, SH.node, node))
            g.add(
                (
                    prop,
                    SH.message,
                    Literal(f"The object of {name} must be a {' or '.join(sorted(local_name(c) for c in rel.range))}"),
                )
            )
    return g
