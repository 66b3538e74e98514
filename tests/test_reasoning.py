"""The reasoner's closure against owlrl's, the reference: on small generated ontologies written with the
constructs it supports, and data in them, both give the same class memberships and property facts."""

from __future__ import annotations

from typing import Any

import owlrl
import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from rdflib import OWL, RDF, RDFS, BNode, Graph, Literal, URIRef
from rdflib.collection import Collection

from ont_platform.errors import InputError
from ont_platform.reasoning import closure, compile_rules

EX = "urn:ex:"
CLASSES = [URIRef(f"{EX}C{i}") for i in range(6)]
PROPS = [URIRef(f"{EX}p{i}") for i in range(4)]
PEOPLE = [URIRef(f"{EX}x{i}") for i in range(6)]
NAMES = [URIRef(f"{EX}name"), URIRef(f"{EX}label")]
"""Datatype properties: their values are literals (an object property's are resources, as OWL has it; owlrl
would otherwise reason through triples with a literal subject, which are not RDF)."""


def _n3(term: Any) -> str:
    return str(term.n3())


@st.composite
def ontologies(draw: st.DrawFn) -> Graph:
    """An ontology of a few classes and properties, with axioms drawn from the constructs the reasoner applies."""
    g = Graph()
    cls = st.sampled_from(CLASSES)
    prop = st.sampled_from(PROPS)
    for _ in range(draw(st.integers(0, 5))):
        g.add((draw(cls), RDFS.subClassOf, draw(cls)))
    for _ in range(draw(st.integers(0, 1))):
        g.add((draw(cls), OWL.equivalentClass, draw(cls)))
    for _ in range(draw(st.integers(0, 2))):
        g.add((draw(prop), RDFS.subPropertyOf, draw(prop)))
    for _ in range(draw(st.integers(0, 1))):
        g.add((draw(prop), OWL.equivalentProperty, draw(prop)))
    for _ in range(draw(st.integers(0, 2))):
        g.add((draw(prop), OWL.inverseOf, draw(prop)))
    for p in draw(st.lists(prop, max_size=2)):
        g.add((p, RDF.type, OWL.SymmetricProperty))
    for p in draw(st.lists(prop, max_size=2)):
        g.add((p, RDF.type, OWL.TransitiveProperty))
    for _ in range(draw(st.integers(0, 2))):
        g.add((draw(prop), RDFS.domain, draw(cls)))
    for _ in range(draw(st.integers(0, 2))):
        g.add((draw(prop), RDFS.range, draw(cls)))
    for _ in range(draw(st.integers(0, 2))):  # C ≡ A ⊓ ∃p.D (or ⊓ ∃p.Thing), written as LUBM writes it
        parts: list[Any] = draw(st.lists(cls, min_size=0, max_size=2, unique=True))
        if draw(st.booleans()):
            r = BNode()
            g.add((r, RDF.type, OWL.Restriction))
            g.add((r, OWL.onProperty, draw(prop)))
            g.add((r, OWL.someValuesFrom, draw(st.sampled_from([*CLASSES, OWL.Thing]))))
            parts.append(r)
        if not parts:
            continue
        head = BNode()
        Collection(g, head, parts)
        defined = draw(cls)
        if draw(st.booleans()):
            g.add((defined, OWL.intersectionOf, head))
        else:
            expression = BNode()
            g.add((expression, OWL.intersectionOf, head))
            g.add((defined, OWL.equivalentClass, expression))
    for _ in range(draw(st.integers(0, 1))):  # ∃p.D ⊑ C
        r = BNode()
        g.add((r, OWL.onProperty, draw(prop)))
        g.add((r, OWL.someValuesFrom, draw(cls)))
        g.add((r, RDFS.subClassOf, draw(cls)))
    for _ in range(draw(st.integers(0, 1))):  # A ⊔ B ⊑ C
        head = BNode()
        Collection(g, head, draw(st.lists(cls, min_size=1, max_size=2, unique=True)))
        union = BNode()
        g.add((union, OWL.unionOf, head))
        g.add((union, RDFS.subClassOf, draw(cls)))
    if draw(st.booleans()):
        g.add((NAMES[0], RDFS.subPropertyOf, NAMES[1]))
    if draw(st.booleans()):
        g.add((draw(st.sampled_from(NAMES)), RDFS.domain, draw(cls)))
    for c in CLASSES:
        g.add((c, RDF.type, OWL.Class))
    for p in PROPS:
        g.add((p, RDF.type, OWL.ObjectProperty))
    return g


@st.composite
def data(draw: st.DrawFn) -> Graph:
    g = Graph()
    person = st.sampled_from(PEOPLE)
    for _ in range(draw(st.integers(0, 10))):
        g.add((draw(person), draw(st.sampled_from(PROPS)), draw(person)))
    for _ in range(draw(st.integers(0, 6))):
        g.add((draw(person), RDF.type, draw(st.sampled_from(CLASSES))))
    for _ in range(draw(st.integers(0, 2))):
        g.add((draw(person), draw(st.sampled_from(NAMES)), Literal(draw(st.sampled_from(["Ann", "Bo"])))))
    return g


def _abox(triples: Any) -> set[tuple[str, str, str]]:
    """The facts the comparison is about: class memberships of the named classes and property facts of the
    ontology's properties, between the data's resources (and literals as objects)."""
    out = set()
    for s, p, o in triples:
        if s not in PEOPLE:
            continue
        if (p == RDF.type and o in CLASSES) or (p in PROPS and o in PEOPLE) or (p in NAMES and isinstance(o, Literal)):
            out.add((_n3(s), _n3(p), _n3(o)))
    return out


def _reference(onto: Graph, stated: Graph) -> set[tuple[str, str, str]]:
    g = Graph()
    for t in onto:
        g.add(t)
    for t in stated:
        g.add(t)
    owlrl.DeductiveClosure(owlrl.OWLRL_Semantics, axiomatic_triples=False, datatype_axioms=False).expand(g)
    return _abox(g)


def _ours(onto: Graph, stated: Graph) -> set[tuple[str, str, str]]:
    rules = compile_rules(onto)
    facts = [(_n3(s), _n3(p), _n3(o)) for s, p, o in stated if p != RDF.type]
    types = [(_n3(s), _n3(o)) for s, p, o in stated if p == RDF.type]
    entailed = closure(rules, facts, types)
    assert not {(s, p, o) for s, p, o in entailed} & {(_n3(s), _n3(p), _n3(o)) for s, p, o in stated}
    return _abox(stated) | {t for t in entailed if t[0] in {_n3(x) for x in PEOPLE}}


@settings(max_examples=60, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(ontologies(), data())
def test_the_closure_is_owlrls_on_the_supported_constructs(onto: Graph, stated: Graph) -> None:
    assert _ours(onto, stated) == _reference(onto, stated)


def test_lubm_chair_and_research_assistant() -> None:
    """LUBM's class definitions, by hand: a person heading a department is a chair; a research assistant
    (⊑ ∃worksFor.ResearchGroup) is an employee, because ∃worksFor.ResearchGroup ⊑ ∃worksFor.Organization."""
    ub = "urn:ub:"
    onto = Graph()
    onto.parse(
        data=f"""
        @prefix owl: <http://www.w3.org/2002/07/owl#> . @prefix rdfs: <http://www.w3.org/2000/01/rdf-schema#> .
        @prefix ub: <{ub}> .
        ub:Chair owl:intersectionOf ( ub:Person [ a owl:Restriction ; owl:onProperty ub:headOf ;
                                                  owl:someValuesFrom ub:Department ] ) .
        ub:Employee owl:intersectionOf ( ub:Person [ a owl:Restriction ; owl:onProperty ub:worksFor ;
                                                     owl:someValuesFrom ub:Organization ] ) .
        ub:ResearchAssistant rdfs:subClassOf ub:Person ,
            [ a owl:Restriction ; owl:onProperty ub:worksFor ; owl:someValuesFrom ub:ResearchGroup ] .
        ub:ResearchGroup rdfs:subClassOf ub:Organization .
        ub:Department rdfs:subClassOf ub:Organization .
        ub:headOf rdfs:subPropertyOf ub:worksFor .
        ub:FullProfessor rdfs:subClassOf ub:Person .
        """,
        format="turtle",
    )
    facts = [("<urn:p>", f"<{ub}headOf>", "<urn:d>")]
    types = [
        ("<urn:p>", f"<{ub}FullProfessor>"),
        ("<urn:d>", f"<{ub}Department>"),
        ("<urn:ra>", f"<{ub}ResearchAssistant>"),
    ]
    got = set(closure(compile_rules(onto), facts, types))
    rdf_type = f"<{RDF.type}>"
    assert ("<urn:p>", rdf_type, f"<{ub}Chair>") in got
    assert ("<urn:p>", f"<{ub}worksFor>", "<urn:d>") in got
    assert ("<urn:p>", rdf_type, f"<{ub}Employee>") in got
    assert ("<urn:ra>", rdf_type, f"<{ub}Employee>") in got
    assert not any(o.startswith("~") for _, _, o in got)  # no membership of an anonymous class is written


def test_unsupported_axioms_are_named() -> None:
    onto = Graph()
    onto.parse(
        data="""
        @prefix owl: <http://www.w3.org/2002/07/owl#> . @prefix ex: <urn:ex:> .
        ex:p a owl:FunctionalProperty . ex:C owl:equivalentClass [ owl:onProperty ex:p ; owl:hasValue ex:v ] .
        """,
        format="turtle",
    )
    ignored = compile_rules(onto).ignored
    assert any("functional" in line for line in ignored) and any("hasValue" in line for line in ignored)


def test_a_long_transitive_chain_is_stopped_at_the_limit() -> None:
    onto = Graph()
    onto.add((URIRef(f"{EX}p"), RDF.type, OWL.TransitiveProperty))
    chain = [(f"<{EX}n{i}>", f"<{EX}p>", f"<{EX}n{i + 1}>") for i in range(200)]
    with pytest.raises(InputError, match="more than 1000 new triples"):
        closure(compile_rules(onto), chain, [], max_new=1000)
    assert len(closure(compile_rules(onto), chain[:50], [])) == 50 * 51 // 2 - 50
