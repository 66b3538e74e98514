"""The compiled SHACL checker against pyshacl on generated shapes and data graphs: the same ``sh:conforms`` and the
same results (focus node, path, value, source shape, component, severity), compared as the W3C suite compares
a report with the expected one (tests/shacl_w3c/suite.py).

The shapes use most of SHACL Core: value type, cardinality, range, string, language, property pair, logical,
shape-based and other constraints, every kind of path and target, severities and ``sh:deactivated``. What the
two engines are known to read differently is left out of the generated graphs (see ``LITERALS``)."""

from __future__ import annotations

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from rdflib import RDF, RDFS, XSD, BNode, Graph, Literal, Namespace, URIRef
from rdflib.collection import Collection
from rdflib.namespace import SH
from rdflib.term import Node

from ont_platform.shacl import validate, why_not_compiled
from tests.shacl_w3c.suite import compare_reports, pyshacl_validator, report_node

EX = Namespace("urn:ex:")
NODES = [EX.a, EX.b, EX.c, EX.d]
CLASSES = [EX.C, EX.D]
PREDICATES = [EX.p, EX.q, EX.r]
LITERALS = [
    Literal(1),
    Literal(2),
    Literal(5),
    Literal("1.5", datatype=XSD.decimal),
    Literal("a"),
    Literal("bb"),
    Literal("Abc"),
]
"""Literals of the data. Not here: booleans and dates, which pyshacl orders against numbers (``true <= 2``, a
date against an integer: SPARQL's ``<`` cannot compare them, so SHACL reports the value); ill-typed literals and
``xsd:string``-typed ones (rdflib keeps ``"a"`` and ``"a"^^xsd:string`` apart where RDF 1.1 says they are one
term); date-times with and without a time zone (SPARQL cannot order them; engines differ). Language-tagged strings
are the values of ``LABELS`` only."""
ORDERED = [EX.m, EX.n]
ORDERED_LITERALS = [Literal(1), Literal(2), Literal("1.5", datatype=XSD.decimal), Literal("a"), Literal("bb")]
"""Predicates whose values are only these literals: the ones ``sh:lessThan`` and ``sh:lessThanOrEquals`` compare.
pyshacl compares IRIs and language-tagged strings as plain strings (SPARQL's ``<`` cannot compare them, so SHACL
reports them) and fails on blank nodes; numbers against strings both engines report."""
LABELS = [EX.l]
LABEL_LITERALS = [
    Literal("x", lang="en"),
    Literal("y", lang="en"),
    Literal("z", lang="fr"),
    Literal("w", lang="en-US"),
    Literal("V", lang="EN"),
    Literal("u"),
]
"""A predicate whose values are these, for ``sh:uniqueLang`` and ``sh:languageIn``. No range constraint with a
string bound is drawn for its values: pyshacl orders a tagged string against a plain one as text, where
SPARQL's ``<`` cannot compare them (so SHACL reports the value)."""

SINGLE = {
    SH.datatype,
    SH.nodeKind,
    SH.minCount,
    SH.maxCount,
    SH.minInclusive,
    SH.maxInclusive,
    SH.minExclusive,
    SH.maxExclusive,
    SH.minLength,
    SH.maxLength,
    SH.flags,
    SH.languageIn,
    SH.uniqueLang,
    SH["in"],
    SH.qualifiedValueShape,
    SH.qualifiedMinCount,
    SH.qualifiedMaxCount,
    SH.qualifiedValueShapesDisjoint,
    SH.severity,
    SH.deactivated,
}
"""Parameters of which a shape may have one value."""


@st.composite
def data_graphs(draw: st.DrawFn) -> Graph:
    g = Graph()
    for node in NODES:
        for cls in draw(st.lists(st.sampled_from(CLASSES), max_size=1)):
            g.add((node, RDF.type, cls))
    if draw(st.booleans()):
        g.add((EX.D, RDFS.subClassOf, EX.C))
    objects = st.one_of(st.sampled_from(NODES), st.sampled_from(LITERALS))
    for _ in range(draw(st.integers(0, 14))):
        g.add((draw(st.sampled_from(NODES)), draw(st.sampled_from(PREDICATES)), draw(objects)))
    for _ in range(draw(st.integers(0, 5))):
        g.add((draw(st.sampled_from(NODES)), draw(st.sampled_from(ORDERED)), draw(st.sampled_from(ORDERED_LITERALS))))
    for _ in range(draw(st.integers(0, 4))):
        g.add((draw(st.sampled_from(NODES)), EX.l, draw(st.sampled_from(LABEL_LITERALS))))
    return g


class _Shapes:
    """A shapes graph being drawn: blank-node shapes, kept small and never recursive."""

    def __init__(self, draw: st.DrawFn) -> None:
        self.draw = draw
        self.g = Graph()
        self.labels = False
        """Drawing the shapes for the values of a ``LABELS`` predicate."""

    def add(self, shape: Node, p: URIRef, o: Node) -> None:
        """``shape p o``, unless ``p`` takes one value and the shape has one (SHACL's syntax rules)."""
        if p in SINGLE and (shape, p, None) in self.g:
            return
        self.g.add((shape, p, o))

    def lst(self, items: list[Node]) -> Node:
        if not items:
            return RDF.nil
        head = BNode()
        Collection(self.g, head, items)
        return head

    def path(self, depth: int = 0) -> Node:
        draw = self.draw
        kind = draw(
            st.sampled_from(["pred"] * 4 + ["inverse", "sequence", "alternative", "*", "+", "?"])
            if depth == 0
            else st.just("pred")
        )
        if kind == "pred":
            return draw(st.sampled_from(PREDICATES + (ORDERED if depth == 0 else [])))
        if kind in ("sequence", "alternative"):
            parts = [self.path(depth + 1) for _ in range(2)]
            if kind == "sequence":
                return self.lst(parts)
            node = BNode()
            self.g.add((node, SH.alternativePath, self.lst(parts)))
            return node
        node = BNode()
        predicate = {"inverse": SH.inversePath, "*": SH.zeroOrMorePath, "+": SH.oneOrMorePath, "?": SH.zeroOrOnePath}
        self.g.add((node, predicate[kind], self.path(depth + 1)))
        return node

    def value_constraint(self, shape: Node, depth: int) -> None:
        """One constraint that judges each value node."""
        draw = self.draw
        kind = draw(
            st.sampled_from(
                [
                    "class",
                    "datatype",
                    "nodeKind",
                    "range",
                    "length",
                    "pattern",
                    "languageIn",
                    "in",
                    "hasValue",
                ]
                + (["node", "not", "and", "or", "xone"] if depth < 2 else [])
            )
        )
        if kind == "class":
            self.add(shape, SH["class"], draw(st.sampled_from(CLASSES)))
        elif kind == "datatype":
            self.add(shape, SH.datatype, draw(st.sampled_from([XSD.integer, XSD.string, RDF.langString, XSD.date])))
        elif kind == "nodeKind":
            kinds = [SH.IRI, SH.Literal, SH.BlankNode, SH.IRIOrLiteral, SH.BlankNodeOrIRI, SH.BlankNodeOrLiteral]
            self.add(shape, SH.nodeKind, draw(st.sampled_from(kinds)))
        elif kind == "range":
            p = draw(st.sampled_from([SH.minInclusive, SH.maxInclusive, SH.minExclusive, SH.maxExclusive]))
            bounds = [Literal(2), Literal("1.5", datatype=XSD.decimal)] + ([] if self.labels else [Literal("b")])
            self.add(shape, p, draw(st.sampled_from(bounds)))
        elif kind == "length":
            self.add(shape, draw(st.sampled_from([SH.minLength, SH.maxLength])), Literal(draw(st.integers(0, 3))))
        elif kind == "pattern":
            self.add(shape, SH.pattern, Literal(draw(st.sampled_from(["^a", "b$", "^[0-9]+$", "ex:c"]))))
            if draw(st.booleans()):
                self.add(shape, SH.flags, Literal("i"))
        elif kind == "languageIn":
            ranges = draw(st.lists(st.sampled_from(["en", "fr", "EN", "*"]), min_size=1, max_size=2, unique=True))
            self.add(shape, SH.languageIn, self.lst([Literal(r) for r in ranges]))
        elif kind == "in":
            members = draw(st.lists(st.one_of(st.sampled_from(NODES), st.sampled_from(LITERALS)), max_size=3))
            self.add(shape, SH["in"], self.lst(list(members)))
        elif kind == "hasValue":
            self.add(shape, SH.hasValue, draw(st.one_of(st.sampled_from(NODES), st.sampled_from(LITERALS))))
        elif kind in ("node", "not"):
            self.add(shape, SH[kind], self.node_shape(depth + 1))
        else:
            members = [self.node_shape(depth + 1) for _ in range(draw(st.integers(1, 3)))]
            self.add(shape, SH[kind], self.lst(members))

    def node_shape(self, depth: int) -> Node:
        shape = BNode()
        for _ in range(self.draw(st.integers(1, 2))):
            self.value_constraint(shape, depth)
        if depth < 2 and self.draw(st.integers(0, 3)) == 3:
            self.g.add((shape, SH.property, self.property_shape(depth + 1)))
        return shape

    def property_shape(self, depth: int) -> Node:
        draw = self.draw
        shape = BNode()
        flavour = draw(st.sampled_from(["any", "any", "ordered", "labels"]))
        if flavour == "ordered":
            self.add(shape, SH.path, draw(st.sampled_from(ORDERED)))
        elif flavour == "labels":
            self.add(shape, SH.path, EX.l)
        else:
            self.add(shape, SH.path, self.path())
        outer, self.labels = self.labels, self.labels or flavour == "labels" or self.g.value(shape, SH.path) in LABELS
        for _ in range(draw(st.integers(1, 3))):
            kind = draw(st.sampled_from(["value"] * 3 + ["count", "pair", "uniqueLang", "qualified", "nested"]))
            if kind == "value":
                self.value_constraint(shape, depth)
            elif kind == "count":
                self.add(shape, draw(st.sampled_from([SH.minCount, SH.maxCount])), Literal(draw(st.integers(0, 2))))
            elif kind == "pair":
                ordered = (shape, SH.path, None) in self.g and self.g.value(shape, SH.path) in ORDERED
                p = draw(
                    st.sampled_from([SH.equals, SH.disjoint] + ([SH.lessThan, SH.lessThanOrEquals] if ordered else []))
                )
                self.add(shape, p, draw(st.sampled_from(ORDERED if ordered else PREDICATES + ORDERED)))
            elif kind == "uniqueLang":
                self.add(shape, SH.uniqueLang, Literal(draw(st.booleans())))
            elif kind == "qualified" and depth < 2:
                self.add(shape, SH.qualifiedValueShape, self.node_shape(depth + 1))
                for p in draw(
                    st.lists(st.sampled_from([SH.qualifiedMinCount, SH.qualifiedMaxCount]), min_size=1, unique=True)
                ):
                    self.add(shape, p, Literal(draw(st.integers(0, 2))))
                if draw(st.booleans()):
                    self.add(shape, SH.qualifiedValueShapesDisjoint, Literal(True))
            elif kind == "nested" and depth < 2:
                self.add(shape, SH.property, self.property_shape(depth + 1))
        self.common(shape)
        self.labels = outer
        return shape

    def common(self, shape: Node) -> None:
        draw = self.draw
        if draw(st.integers(0, 4)) == 4:
            self.add(shape, SH.severity, draw(st.sampled_from([SH.Warning, SH.Info, EX.MySeverity])))
        if draw(st.integers(0, 9)) == 9:
            self.add(shape, SH.deactivated, Literal(draw(st.booleans())))


@st.composite
def shapes_graphs(draw: st.DrawFn) -> Graph:
    s = _Shapes(draw)
    g = s.g
    for i in range(draw(st.integers(1, 2))):
        shape = EX[f"Shape{i}"]
        free = [c for c in CLASSES if (c, RDF.type, SH.NodeShape) not in g]
        implicit = bool(free) and draw(st.integers(0, 5)) == 5
        if implicit:  # a shape that is also a class targets its instances
            shape = draw(st.sampled_from(free))
            s.add(shape, RDF.type, RDFS.Class)
        s.add(shape, RDF.type, SH.NodeShape)
        if not implicit:
            for _ in range(draw(st.integers(1, 2))):
                target = draw(st.sampled_from(["class", "node", "subjectsOf", "objectsOf"]))
                if target == "class":
                    s.add(shape, SH.targetClass, draw(st.sampled_from(CLASSES)))
                elif target == "node":
                    s.add(shape, SH.targetNode, draw(st.sampled_from([*NODES, Literal(2), Literal("a")])))
                else:
                    s.add(shape, SH["target" + target[0].upper() + target[1:]], draw(st.sampled_from(PREDICATES)))
        for _ in range(draw(st.integers(0, 2))):
            s.value_constraint(shape, 0)
        properties = [s.property_shape(1) for _ in range(draw(st.integers(0, 2)))]
        for prop in properties:
            s.add(shape, SH.property, prop)
        if draw(st.integers(0, 4)) == 4:
            s.add(shape, SH.closed, Literal(True))
            ignored = draw(st.lists(st.sampled_from([RDF.type, *PREDICATES]), max_size=2, unique=True))
            s.add(shape, SH.ignoredProperties, s.lst(list(ignored)))
        s.common(shape)
    return g


def _shared(*graphs: Graph) -> set[Node]:
    return {n for g in graphs for t in g for n in (t[0], t[2]) if isinstance(n, BNode)}


@pytest.mark.slow
@settings(max_examples=300, deadline=None, suppress_health_check=[HealthCheck.too_slow, HealthCheck.data_too_large])
@given(data_graphs(), shapes_graphs())
def test_compiled_shapes_report_what_pyshacl_reports(data: Graph, shapes: Graph) -> None:
    assert why_not_compiled(shapes, data) is None
    theirs = pyshacl_validator(data, shapes)
    conforms, ours, _ = validate(data, shapes)
    outcome = compare_reports(
        theirs, report_node(theirs), ours, shared=_shared(data, shapes), name="generated", messages=False
    )
    assert outcome.passed, outcome.explain() + "\n" + shapes.serialize(format="turtle") + data.serialize(format="nt")
    assert conforms == (not list(ours.objects(None, SH.result)))
