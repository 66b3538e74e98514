"""``ont_platform.shacl.validate``: pyshacl's call on the compiled checker — the class hierarchy of the ontology and
the data, severities, options, inputs, and pyshacl for what the compiler does not take."""

from __future__ import annotations

from pathlib import Path

import pytest
from rdflib import RDF, BNode, Graph, Literal, URIRef
from rdflib.namespace import SH

from ont_platform.errors import InputError
from ont_platform.shacl import validate, why_not_compiled
from tests.shacl_w3c.suite import compare_reports, pyshacl_validator, report_node, results

PREFIXES = """
@prefix ex: <urn:ex:> .
@prefix sh: <http://www.w3.org/ns/shacl#> .
@prefix rdfs: <http://www.w3.org/2000/01/rdf-schema#> .
@prefix owl: <http://www.w3.org/2002/07/owl#> .
@prefix rdf: <http://www.w3.org/1999/02/22-rdf-syntax-ns#> .
@prefix xsd: <http://www.w3.org/2001/XMLSchema#> .
"""
EX = "urn:ex:"


def turtle(text: str) -> Graph:
    return Graph().parse(data=PREFIXES + text, format="turtle")


def focus_nodes(report: Graph) -> list[str]:
    return sorted(str(report.value(r, SH.focusNode)) for r in report.objects(report_node(report), SH.result))


ONTOLOGY = turtle("ex:Employee a owl:Class ; rdfs:subClassOf ex:Person . ex:Person a owl:Class .")
DATA = turtle("ex:kim a ex:Employee . ex:lee a ex:Person ; ex:name 'Lee' . ex:acme ex:employs ex:kim .")


@pytest.mark.parametrize(
    "shapes",
    [
        "ex:S a sh:NodeShape ; sh:targetClass ex:Person ; sh:property [ sh:path ex:name ; sh:minCount 1 ] .",
        "ex:Person a rdfs:Class, sh:NodeShape ; sh:property [ sh:path ex:name ; sh:minCount 1 ] .",  # implicit
        "ex:S a sh:NodeShape ; sh:targetNode ex:kim, ex:acme ; sh:class ex:Person .",
    ],
)
def test_the_ontology_s_subclasses_are_instances(shapes: str) -> None:
    """kim is an Employee, which the ontology (not the data) makes a Person: every class-based part of SHACL sees
    kim as a Person, but only with the ontology."""
    g = turtle(shapes)
    conforms, report, _ = validate(DATA, g, ont_graph=ONTOLOGY)
    assert not conforms
    expected = [EX + "acme"] if "sh:class" in shapes else [EX + "kim"]
    assert focus_nodes(report) == expected
    _, alone, _ = validate(DATA, g)
    assert focus_nodes(alone) == ([EX + "acme", EX + "kim"] if "sh:class" in shapes else [])
    assert (URIRef(EX + "Employee"), None, None) not in DATA  # the caller's data graph is left as it was


def test_the_data_s_own_subclasses_count_too() -> None:
    data = turtle("ex:kim a ex:Employee . ex:Employee rdfs:subClassOf ex:Person .")
    shapes = turtle(
        "ex:S a sh:NodeShape ; sh:targetClass ex:Person ; sh:property [ sh:path ex:name ; sh:minCount 1 ] ."
    )
    assert focus_nodes(validate(data, shapes)[1]) == [EX + "kim"]


def test_the_ontology_agrees_with_pyshacl() -> None:
    shapes = turtle(
        "ex:S a sh:NodeShape ; sh:targetClass ex:Person ; sh:property [ sh:path ex:name ; sh:minCount 1 ] ."
    )
    from pyshacl import validate as pyshacl_validate

    _, theirs, _ = pyshacl_validate(DATA, shacl_graph=shapes, ont_graph=ONTOLOGY, inference="none")
    _, ours, _ = validate(DATA, shapes, ont_graph=ONTOLOGY)
    assert isinstance(theirs, Graph)
    outcome = compare_reports(theirs, report_node(theirs), ours, messages=False)
    assert outcome.passed, outcome.explain()


SEVERITIES = turtle(
    """
    ex:S a sh:NodeShape ; sh:targetNode ex:a ;
        sh:property [ sh:path ex:p ; sh:minCount 1 ; sh:severity sh:Warning ] ,
                    [ sh:path ex:q ; sh:minCount 1 ; sh:severity sh:Info ] .
    """
)


def test_warnings_and_infos_are_reported_and_fail_unless_allowed() -> None:
    data = turtle("ex:a ex:r 1 .")
    conforms, report, text = validate(data, SEVERITIES)
    severities = sorted(str(report.value(r, SH.resultSeverity)) for r in report.objects(None, SH.result))
    assert not conforms and severities == [str(SH.Info), str(SH.Warning)]
    assert not validate(data, SEVERITIES, allow_infos=True)[0]
    assert validate(data, SEVERITIES, allow_warnings=True)[0]
    assert len(list(validate(data, SEVERITIES, allow_warnings=True)[1].objects(None, SH.result))) == 2
    assert "Conforms: False" in text and "Results: 2" in text and "Warning: MinCountConstraintComponent" in text


def test_abort_on_first_stops_at_the_first_violation() -> None:
    shapes = turtle("ex:S a sh:NodeShape ; sh:targetNode ex:a, ex:b, ex:c ; sh:class ex:C .")
    data = turtle("ex:a ex:p 1 .")
    assert len(focus_nodes(validate(data, shapes)[1])) == 3
    conforms, report, _ = validate(data, shapes, abort_on_first=True)
    assert not conforms and len(focus_nodes(report)) == 1


def test_focus_nodes_and_use_shapes_narrow_the_run() -> None:
    shapes = turtle(
        "ex:S a sh:NodeShape ; sh:targetNode ex:a, ex:b ; sh:class ex:C . "
        "ex:T a sh:NodeShape ; sh:targetNode ex:a ; sh:class ex:D ."
    )
    data = turtle("ex:a ex:p 1 .")
    assert focus_nodes(validate(data, shapes, focus_nodes=[EX + "b"])[1]) == [EX + "b"]
    assert focus_nodes(validate(data, shapes, use_shapes=[EX + "T"])[1]) == [EX + "a"]


def test_a_failed_node_shape_nests_the_value_s_results() -> None:
    shapes = turtle(
        "ex:S a sh:NodeShape ; sh:targetNode ex:a ; sh:property [ sh:path ex:knows ; sh:node ex:Named ] . "
        "ex:Named a sh:NodeShape ; sh:property [ sh:path ex:name ; sh:minCount 1 ; sh:message 'no name' ] ."
    )
    _, report, _ = validate(turtle("ex:a ex:knows ex:b ."), shapes)
    (result,) = results(report, report_node(report))
    assert result.get("sourceConstraintComponent") == {SH.NodeConstraintComponent}
    (top,) = report.objects(report_node(report), SH.result)
    (detail,) = report.objects(top, SH.detail)
    assert report.value(detail, SH.focusNode) == URIRef(EX + "b")
    assert report.value(detail, SH.resultMessage) == Literal("no name")


def test_a_complex_path_is_written_into_the_report() -> None:
    shapes = turtle(
        "ex:S a sh:NodeShape ; sh:targetNode ex:a ; sh:property [ sh:path ( ex:p [ sh:inversePath ex:q ] ) ; sh:maxCount 0 ] ."
    )
    data = turtle("ex:a ex:p ex:b . ex:c ex:q ex:b .")
    _, report, text = validate(data, shapes)
    (result,) = results(report, report_node(report))
    assert result.get("resultPath") == {("seq", (URIRef(EX + "p"), ("inverse", URIRef(EX + "q"))))}
    assert "(ex:p/^ex:q)" in text or f"(<{EX}p>/^<{EX}q>)" in text


SPARQL_SHAPES = turtle(
    """
    ex:S a sh:NodeShape ; sh:targetNode ex:a ;
        sh:sparql [ sh:select "SELECT $this WHERE { $this <urn:ex:p> ?o . FILTER (?o > 1) }" ] .
    """
)


def test_shacl_sparql_goes_to_pyshacl(monkeypatch: pytest.MonkeyPatch) -> None:
    assert "sh:sparql" in str(why_not_compiled(SPARQL_SHAPES))
    before = set(SPARQL_SHAPES)
    conforms, report, _ = validate(turtle("ex:a ex:p 2 ."), SPARQL_SHAPES)
    assert not conforms
    (result,) = results(report, report_node(report))
    assert result.get("sourceConstraintComponent") == {SH.SPARQLConstraintComponent}
    assert set(SPARQL_SHAPES) == before  # pyshacl was handed a copy: it adds axioms to the shapes graph it gets
    assert validate(turtle("ex:a ex:p 1 ."), SPARQL_SHAPES)[0]


def test_inference_and_pyshacl_s_own_options_go_to_pyshacl() -> None:
    shapes = turtle(
        "ex:S a sh:NodeShape ; sh:targetClass ex:Person ; sh:property [ sh:path ex:name ; sh:minCount 1 ] ."
    )
    assert why_not_compiled(shapes) is None
    assert "inference" in str(why_not_compiled(shapes, inference="rdfs"))
    assert "sparql_mode" in str(why_not_compiled(shapes, sparql_mode=True))
    conforms, report, _ = validate(DATA, shapes, ont_graph=ONTOLOGY, inference="rdfs")
    assert not conforms and focus_nodes(report) == [EX + "kim"]


def test_inputs_may_be_text_or_files(tmp_path: Path) -> None:
    shapes_text = PREFIXES + "ex:S a sh:NodeShape ; sh:targetNode ex:a ; sh:class ex:C ."
    data_file = tmp_path / "data.nt"
    data_file.write_text("<urn:ex:a> <urn:ex:p> <urn:ex:b> .\n", encoding="utf-8")
    conforms, report, _ = validate(data_file, shapes_text)
    assert not conforms and focus_nodes(report) == [EX + "a"]
    assert validate(str(data_file), shapes_text.encode("utf-8"))[0] is False
    with pytest.raises(InputError, match="URL"):
        validate("https://example.org/data.ttl", shapes_text)
    with pytest.raises(InputError, match="no such file"):
        validate(tmp_path / "missing.ttl", shapes_text)
    with pytest.raises(InputError):
        validate(42, shapes_text)  # type: ignore[arg-type]


def test_without_a_shapes_graph_the_data_holds_the_shapes() -> None:
    g = turtle("ex:S a sh:NodeShape ; sh:targetNode ex:a ; sh:class ex:C .")
    assert focus_nodes(validate(g)[1]) == [EX + "a"]


def test_the_report_matches_pyshacl_s_on_a_mixed_example() -> None:
    shapes = turtle(
        """
        ex:S a sh:NodeShape ; sh:targetClass ex:Person ; sh:closed true ; sh:ignoredProperties ( rdf:type ) ;
            sh:property [ sh:path ex:name ; sh:minCount 1 ; sh:maxCount 1 ; sh:datatype xsd:string ;
                          sh:pattern "^[a-z]" ; sh:flags "i" ] ,
                        [ sh:path ex:age ; sh:maxInclusive 150 ; sh:lessThan ex:limit ] ,
                        [ sh:path [ sh:zeroOrMorePath ex:knows ] ; sh:nodeKind sh:IRI ] ,
                        [ sh:path ex:label ; sh:uniqueLang true ; sh:languageIn ( "en" "ko" ) ] .
        """
    )
    data = turtle(
        """
        ex:a a ex:Person ; ex:name "1x", "y" ; ex:age 200 ; ex:limit 100 ; ex:knows ex:b ; ex:other 1 ;
            ex:label "a"@en, "b"@en, "c"@fr .
        ex:b ex:knows _:x .
        """
    )
    theirs = pyshacl_validator(data, shapes)
    ours = validate(data, shapes)[1]
    shared = {n for g in (data, shapes) for t in g for n in (t[0], t[2]) if isinstance(n, BNode)}
    outcome = compare_reports(theirs, report_node(theirs), ours, shared=shared, messages=False)
    assert outcome.passed, outcome.explain()
    assert len(results(ours, report_node(ours))) >= 8
    assert (None, RDF.type, SH.ValidationReport) in ours
