"""The compiled shapes against pyshacl: the same results on generated graphs (valid extractions, then triples
dropped and added at random from the shapes' own vocabulary), the plain-triple rule enforced, and pyshacl
used whenever the shapes hold something the compiler does not evaluate."""

from __future__ import annotations

from typing import Any

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from rdflib import RDF, RDFS, XSD, BNode, Graph, Literal, URIRef
from rdflib.namespace import SH

from ont_platform.ontology.shacl import check, shapes_graph
from ont_platform.shacl import report_graph
from ont_platform.testing import valid_payloads
from ont_platform.validation import facts as facts_module
from ont_platform.validation.facts import build_facts, shacl_violations
from ont_platform.validation.models import OntologyExtractionResult
from ont_platform.validation.rules import Findings
from ont_platform.validation.shapes import (
    CompiledShapes,
    Triples,
    Unsupported,
    compiled,
)
from ont_platform.validation.terms import ontology_index
from tests.shacl_w3c.suite import compare_reports, pyshacl_validator, report_node

ONT = "https://w3id.org/ont-platform/core#"
PLAIN_TRIPLE = "The plain triple source-kind-target must be stored beside the relation resource"


def _vocabulary(domain: str) -> tuple[list[URIRef], list[URIRef]]:
    """Predicates and classes the shapes mention (what a mutation should play with)."""
    g = shapes_graph(domain)
    predicates = {o for o in g.objects(None, SH.path) if isinstance(o, URIRef)}
    predicates |= {o for o in g.objects(None, SH.targetSubjectsOf) if isinstance(o, URIRef)}
    classes = {o for o in g.objects(None, SH.targetClass) if isinstance(o, URIRef)}
    for lst in g.objects(None, SH["in"]):
        classes |= {o for o in g.items(lst) if isinstance(o, URIRef)}
    return sorted(predicates), sorted(classes)


LITERALS = [
    Literal("x"),
    Literal(""),
    Literal("  "),
    Literal("라벨", lang="ko"),
    Literal("y" * 501),
    Literal("5", datatype=XSD.integer),
    Literal("-1", datatype=XSD.integer),
    Literal("abc", datatype=XSD.integer),
    Literal("0.5", datatype=XSD.decimal),
    Literal("2", datatype=XSD.decimal),
    Literal("0.5", datatype=XSD.double),
    Literal("true", datatype=XSD.boolean),
    Literal("false", datatype=XSD.boolean),
    Literal("yes", datatype=XSD.boolean),
    Literal("2024-01-02", datatype=XSD.date),
    Literal("2024-01-02T03:04:05Z", datatype=XSD.dateTime),
    Literal("0x" + "a" * 40),
    Literal("0x" + "A" * 40),
    Literal("0xab"),
    Literal("123"),
    Literal("ETH"),
    Literal("https://example.org/", datatype=XSD.anyURI),
    Literal("ftp://x", datatype=XSD.anyURI),
    Literal("x", datatype=XSD.string),
]


@st.composite
def graphs(draw: st.DrawFn) -> tuple[str, Triples]:
    domain = draw(st.sampled_from(["kg", "onchain", "pages"]))
    payload = draw(valid_payloads(domain=domain, max_entities=5))
    extraction = OntologyExtractionResult.model_validate(payload)
    facts = build_facts(extraction, ontology_index(domain), Findings())
    triples = list(dict.fromkeys(facts.triples))
    keep = draw(st.lists(st.booleans(), min_size=len(triples), max_size=len(triples)))
    data = Triples(t for t, k in zip(triples, keep, strict=True) if k or draw(st.integers(0, 9)) > 0)
    for t in triples:
        value = t[2]
        if isinstance(value, Literal) and draw(st.integers(0, 5)) == 0:  # value constraints alone at fault
            data.remove(t)
            same_type = [Literal(v, datatype=value.datatype) for v in ("-1", "1.5", "0", "", "x")]
            data.add((t[0], t[1], draw(st.one_of(st.sampled_from(LITERALS), st.sampled_from(same_type)))))
    predicates, classes = _vocabulary(domain)
    nodes = sorted({s for s, _, _ in triples} | {URIRef("urn:x:a"), URIRef("urn:x:b")}, key=str)
    pool = st.one_of(st.sampled_from(nodes), st.sampled_from(classes), st.sampled_from(LITERALS), st.just(BNode("b1")))
    for _ in range(draw(st.integers(0, 12))):
        s = draw(st.sampled_from(nodes))
        p = draw(st.sampled_from([RDF.type, RDFS.subClassOf, *predicates]))
        o = draw(st.sampled_from(classes)) if p == RDF.type else draw(pool)
        data.add((s, p, o))
    return domain, data


def _as_set(violations: list[Any]) -> set[tuple[str, str | None, str]]:
    return {(v.focus, v.path, v.message) for v in violations}


def test_the_bundled_shapes_compile() -> None:
    assert all(compiled(domain) is not None for domain in ("kg", "onchain", "pages"))


@pytest.mark.slow
@settings(max_examples=120, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(graphs())
def test_compiled_shapes_report_what_pyshacl_reports(case: tuple[str, Triples]) -> None:
    domain, data = case
    shapes = compiled(domain)
    assert shapes is not None
    assert _as_set(shapes.violations(data)) == _as_set(check(data.graph(), domain))


def _relation(with_plain_triple: bool) -> Triples:
    a, b = URIRef("urn:n:a"), URIRef("urn:n:b")
    edge = URIRef("urn:e:1")
    transfer = URIRef("https://w3id.org/ont-platform/onchain#transfer")
    data = Triples(
        [
            (edge, URIRef(ONT + "source"), a),
            (edge, URIRef(ONT + "target"), b),
            (edge, URIRef(ONT + "kind"), transfer),
            (edge, URIRef(ONT + "id"), Literal("e1")),
        ]
    )
    if with_plain_triple:
        data.add((a, transfer, b))
    return data


def test_a_relation_without_its_plain_triple_is_a_violation() -> None:
    for domain in ("kg", "onchain"):
        missing = shacl_violations(_relation(False), domain, [URIRef("urn:e:1")])
        assert PLAIN_TRIPLE in {v.message for v in missing}
        present = shacl_violations(_relation(True), domain, [URIRef("urn:e:1")])
        assert PLAIN_TRIPLE not in {v.message for v in present}


def _edited_core(old: str, new: str) -> Graph:
    g = Graph()
    for t in shapes_graph("onchain"):
        if isinstance(t[2], Literal) and old in str(t[2]):
            t = (t[0], t[1], Literal(str(t[2]).replace(old, new)))
        g.add(t)
    return g


def _with_extra(*triples: tuple[Any, Any, Any]) -> Graph:
    """The kg shapes plus a shape ``urn:s:Extra`` on ``urn:c:C`` made of ``triples``."""
    g = Graph()
    for t in shapes_graph("kg"):
        g.add(t)
    g.add((URIRef("urn:s:Extra"), SH.targetClass, URIRef("urn:c:C")))
    for t in triples:
        g.add(t)
    return g


_EXTRA, _PROP = URIRef("urn:s:Extra"), BNode("p")


@pytest.mark.parametrize(
    "triples",
    [
        [(_EXTRA, SH.sparql, BNode("q"))],  # SHACL-SPARQL
        [(_EXTRA, SH.rule, BNode("r"))],  # SHACL-AF
        [(_EXTRA, SH.target, BNode("t"))],  # a custom target
        [(URIRef("urn:c:Component"), RDF.type, SH.ConstraintComponent)],  # a custom constraint component
        [(_EXTRA, SH.property, _PROP), (_PROP, SH.path, RDFS.label), (_PROP, SH.minCount, Literal("one"))],
        [(_EXTRA, SH.pattern, Literal("\\p{IsBasicLatin}"))],  # XPath syntax Python does not read
        [(_EXTRA, SH.pattern, Literal("a")), (_EXTRA, SH.flags, Literal("k"))],
        [(_EXTRA, SH.nodeKind, URIRef("urn:no:kind"))],
        [(_EXTRA, SH.property, _PROP), (_PROP, SH.path, BNode("bad"))],  # a path node with no path in it
        [(_EXTRA, SH.node, _EXTRA)],  # recursive shapes: SHACL leaves them undefined
    ],
)
def test_what_the_compiler_does_not_evaluate_is_refused(triples: list[tuple[Any, Any, Any]]) -> None:
    with pytest.raises(Unsupported):
        CompiledShapes(_with_extra(*triples))


@pytest.mark.parametrize(
    "triples",
    [
        [(_EXTRA, SH.closed, Literal(True)), (_EXTRA, SH.ignoredProperties, RDF.nil)],
        [(_EXTRA, SH.property, _PROP), (_PROP, SH.path, RDFS.label), (_PROP, SH.equals, RDFS.comment)],
        [(_EXTRA, SH.property, _PROP), (_PROP, SH.path, RDFS.label), (_PROP, SH.uniqueLang, Literal(True))],
        [(_EXTRA, SH.languageIn, RDF.nil)],
        [
            (_EXTRA, SH.property, _PROP),
            (_PROP, SH.path, BNode("inv")),
            (BNode("inv"), SH.inversePath, RDFS.label),
            (_PROP, SH.maxCount, Literal(0)),
        ],
        [(_EXTRA, SH.property, _PROP), (_PROP, SH.path, RDFS.label), (_PROP, SH.maxCount, Literal(1))],  # no message
    ],
)
def test_what_the_compiler_once_refused_now_compiles_and_agrees(triples: list[tuple[Any, Any, Any]]) -> None:
    shapes = CompiledShapes(_with_extra(*triples))
    c, d = URIRef("urn:n:c"), URIRef("urn:n:d")
    data = Triples(
        [
            (c, RDF.type, URIRef("urn:c:C")),
            (c, RDFS.label, Literal("a", lang="en")),
            (c, RDFS.label, Literal("b", lang="en")),
            (d, RDFS.label, c),
            (c, RDFS.comment, Literal("a", lang="en")),
        ]
    )
    assert {v.focus for v in shapes.violations(data)} == {str(c)}  # each of these shapes finds a fault at urn:n:c
    theirs = pyshacl_validator(data.graph(), _with_extra(*triples))
    ours = report_graph(False, shapes.results(data))
    outcome = compare_reports(theirs, report_node(theirs), ours, shared=[_PROP], messages=False)
    assert outcome.passed, outcome.explain()


def test_another_sparql_target_is_refused() -> None:
    with pytest.raises(Unsupported):
        CompiledShapes(_edited_core("FILTER NOT EXISTS { ?s ?k ?t }", "FILTER EXISTS { ?s ?k ?t }"))
    assert CompiledShapes(_edited_core("?this ont:source", "?this  ont:source")).targeted  # spacing is not content


def test_without_compiled_shapes_pyshacl_runs(monkeypatch: pytest.MonkeyPatch) -> None:
    data = _relation(False)
    compiled_result = shacl_violations(data, "onchain", [URIRef("urn:e:1")])
    monkeypatch.setattr(facts_module, "compiled", lambda domain: None)
    assert shacl_violations(data, "onchain", [URIRef("urn:e:1")]) == compiled_result
    assert PLAIN_TRIPLE in {v.message for v in compiled_result}


def test_triples_behave_as_a_set() -> None:
    s, p = URIRef("urn:s"), URIRef("urn:p")
    data = Triples([(s, p, Literal("1")), (s, p, Literal("1")), (s, p, Literal("2"))])
    assert len(data) == 2 and (s, p, Literal("1")) in data and data.value(s, URIRef("urn:q")) is None
    data.remove((s, p, Literal("1")))
    data.remove((s, p, Literal("9")))
    assert len(data) == 1 and data.objects(s, p) == {Literal("2")} and data.subjects(p) == {s}
    assert set(data.graph()) == set(data)
