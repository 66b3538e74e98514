"""Reasoning switched on for a query (``kg.query(..., reasoning=True)``, ``ont query --reasoning``): answers over
the stated triples and what the ontology entails, every entailed fact marked, never mixed with the stated
triples that citations, ``ont verify`` and exports see; LUBM(1,0)'s 14 queries give the published counts."""

from __future__ import annotations

import os
import re
from pathlib import Path

import pytest
from rdflib import RDF, Literal, URIRef

from ont_platform import KnowledgeGraph
from ont_platform.cli.main import main
from ont_platform.domains import forget_domain
from ont_platform.errors import InputError, StoreError
from ont_platform.verify import verify_answer

EX = "https://example.org/org#"
D = "https://example.org/data/"
ONTOLOGY = f"""\
@prefix ex: <{EX}> .
@prefix owl: <http://www.w3.org/2002/07/owl#> .
@prefix rdfs: <http://www.w3.org/2000/01/rdf-schema#> .

<https://example.org/org> a owl:Ontology .
ex:Agent a owl:Class ; rdfs:label "agent"@en .
ex:Person a owl:Class ; rdfs:subClassOf ex:Agent ; rdfs:label "person"@en .
ex:Organization a owl:Class ; rdfs:subClassOf ex:Agent ; rdfs:label "organization"@en .
ex:Manager a owl:Class ; rdfs:label "manager"@en ;
    owl:intersectionOf ( ex:Person [ a owl:Restriction ; owl:onProperty ex:heads ; owl:someValuesFrom ex:Organization ] ) .
ex:memberOf a owl:ObjectProperty ; rdfs:label "member of"@en ; rdfs:domain ex:Person ; rdfs:range ex:Organization .
ex:heads a owl:ObjectProperty ; rdfs:label "heads"@en ; rdfs:subPropertyOf ex:memberOf .
ex:hasMember a owl:ObjectProperty ; rdfs:label "has member"@en ; owl:inverseOf ex:memberOf .
ex:partOf a owl:ObjectProperty, owl:TransitiveProperty ; rdfs:label "part of"@en ;
    rdfs:domain ex:Organization ; rdfs:range ex:Organization .
ex:knows a owl:ObjectProperty, owl:SymmetricProperty ; rdfs:label "knows"@en ;
    rdfs:domain ex:Person ; rdfs:range ex:Person .
ex:name a owl:DatatypeProperty ; rdfs:label "name"@en .
"""
DATA = f"""\
@prefix ex: <{EX}> .
@prefix d: <{D}> .

d:alice ex:name "Alice Smith" ; ex:heads d:lab ; ex:knows d:bob .
d:bob a ex:Person ; ex:name "Bob Jones" ; ex:memberOf d:lab .
d:lab a ex:Organization ; ex:name "Lab" ; ex:partOf d:dept .
d:dept ex:name "Dept" ; ex:partOf d:acme .
d:acme ex:name "Acme" .
"""
A, B, LAB, DEPT, ACME = (URIRef(f"{D}{n}") for n in ("alice", "bob", "lab", "dept", "acme"))
MEMBER_OF, HAS_MEMBER, PART_OF = (URIRef(f"{EX}{n}") for n in ("memberOf", "hasMember", "partOf"))


def _folder(root: Path) -> Path:
    folder = root / "org"
    folder.mkdir()
    (folder / "ontology.ttl").write_text(ONTOLOGY, encoding="utf-8")
    (folder / "org.ttl").write_text(DATA, encoding="utf-8")
    return folder


@pytest.fixture(autouse=True)
def _forget() -> object:
    yield
    forget_domain("org")


def _col(rows: object, name: str = "x") -> set[str]:
    return {str(r[name]) for r in rows}  # type: ignore[attr-defined]


def test_reasoning_answers_with_entailments_and_marks_them(tmp_path: Path) -> None:
    kg = KnowledgeGraph.open()
    kg.load(_folder(tmp_path), shacl=False)
    stated = len(kg)
    q = f"SELECT ?x WHERE {{ ?x a <{EX}Person> }}"
    assert _col(kg.query(q)) == {str(B)}
    rows = kg.query(q, reasoning=True)
    assert _col(rows) == {str(A), str(B)}  # alice: domain of heads's super-property, of knows; bob: stated
    marks = {str(r["x"]): facts for r, facts in zip(rows, rows.entailed, strict=True)}
    assert marks[str(A)] == ((A, RDF.type, URIRef(f"{EX}Person")),) and marks[str(B)] == ()
    assert _col(kg.query(f"SELECT ?x WHERE {{ ?x a <{EX}Manager> }}", reasoning=True)) == {str(A)}
    assert _col(kg.query(f"SELECT ?x WHERE {{ <{LAB}> <{EX}partOf> ?x }}", reasoning=True)) == {str(DEPT), str(ACME)}
    assert _col(kg.query(f"SELECT ?x WHERE {{ <{LAB}> <{EX}hasMember> ?x }}", reasoning=True)) == {str(A), str(B)}
    assert _col(kg.query(f"SELECT ?x WHERE {{ <{B}> <{EX}knows> ?x }}", reasoning=True)) == {str(A)}
    # a variable the SELECT does not project names no fact: the row is not marked for that pattern
    hidden = kg.query(f"SELECT ?x WHERE {{ ?x <{EX}hasMember> ?m }}", reasoning=True)
    assert _col(hidden) == {str(LAB)} and all(facts == () for facts in hidden.entailed or ())
    assert kg.query(f"ASK {{ <{ACME}> a <{EX}Agent> }}", reasoning=True) is True
    assert kg.query(f"ASK {{ <{ACME}> a <{EX}Agent> }}") is False
    built = kg.query(f"CONSTRUCT {{ ?x <urn:in> ?o }} WHERE {{ ?x <{EX}memberOf> ?o }}", reasoning=True)
    assert len(built) == 2 and built.entailed == {(A, MEMBER_OF, LAB)}
    described = kg.query(f"DESCRIBE <{A}>", reasoning=True)
    assert (A, MEMBER_OF, LAB) in described and (A, MEMBER_OF, LAB) in described.entailed
    assert (A, URIRef(f"{EX}name"), Literal("Alice Smith")) not in described.entailed
    # the stated graph is what it was: counted, exported and queried without the entailments
    assert len(kg) == stated
    assert f"{EX}hasMember" not in kg.serialize(format="nt")
    assert not kg.query(f"SELECT ?x WHERE {{ ?x <{EX}hasMember> ?y }}")
    [report] = kg.entailments()
    assert report.triples is None and report.ignored == ()  # current: not computed again


def test_a_write_makes_the_entailments_stale_and_the_next_query_computes_them(tmp_path: Path) -> None:
    kg = KnowledgeGraph.open()
    kg.load(_folder(tmp_path), shacl=False, reasoning=True)
    more = tmp_path / "more.ttl"
    more.write_text(f"<{D}carol> <{EX}memberOf> <{ACME}> .\n", encoding="utf-8")
    kg.import_rdf(more, check=False)
    rows = kg.query(f"SELECT ?x WHERE {{ <{ACME}> <{EX}hasMember> ?x }}", reasoning=True)
    assert _col(rows) == {f"{D}carol"}
    kg.clear()
    with pytest.raises(InputError, match="no dataset"):
        kg.query("SELECT * WHERE { ?s ?p ?o }", reasoning=True)
    assert len(kg) == 0 and not kg.query("SELECT * WHERE { ?s ?p ?o }")


def test_the_verifier_does_not_take_an_entailed_triple_for_a_stated_one(tmp_path: Path) -> None:
    kg = KnowledgeGraph.open()
    kg.load(_folder(tmp_path), shacl=False, reasoning=True)
    real = kg.ask("Who does Alice Smith know?", qid="q").to_json()
    assert real["answer"] == str(B) and verify_answer(kg, real).ok
    # a hop over lab hasMember alice: entailed (the inverse of alice heads lab, a member), never stated
    assert kg.query(f"ASK {{ <{LAB}> <{HAS_MEMBER}> <{A}> }}", reasoning=True)
    hop = dict(real["path"][0], rel="hasMember", dst=str(LAB), triple=[str(LAB), str(HAS_MEMBER), str(A)])
    report = verify_answer(kg, dict(real, answer=str(LAB), path=[hop]), question="Who does Alice Smith know?")
    assert not report.ok and "citations" in {f.check for f in report.failures}


def test_read_only_and_other_backends(tmp_path: Path) -> None:
    path = tmp_path / "db"
    with KnowledgeGraph.open(path) as kg:
        kg.load(_folder(tmp_path), shacl=False)
    with KnowledgeGraph.open(path, read_only=True) as reader:
        with pytest.raises(StoreError, match="read-only"):
            reader.query(f"SELECT ?x WHERE {{ ?x a <{EX}Person> }}", reasoning=True)
    with KnowledgeGraph.open(path) as kg:
        assert kg.entailments()[0].computed
    with KnowledgeGraph.open(path, read_only=True) as reader:
        assert _col(reader.query(f"SELECT ?x WHERE {{ ?x a <{EX}Person> }}", reasoning=True)) == {str(A), str(B)}
    other = KnowledgeGraph.open(backend="rdflib")
    (tmp_path / "again").mkdir()
    other.load(_folder(tmp_path / "again"), shacl=False)
    with pytest.raises(StoreError, match="rdflib"):
        other.query("SELECT * WHERE { ?s ?p ?o }", reasoning=True)
    with pytest.raises(InputError):
        other.query("SELECT * WHERE { ?s ?p ?o }", reasoning="yes")  # type: ignore[arg-type]


def test_the_command_line(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    store = str(tmp_path / "db")
    assert main(["load", str(_folder(tmp_path)), "--store", store, "--shacl", "off", "--reasoning"]) == 0
    assert "triples entailed by the org ontology" in capsys.readouterr().err
    query = tmp_path / "q.rq"
    query.write_text(f"SELECT ?x WHERE {{ ?x a <{EX}Person> }} ORDER BY ?x", encoding="utf-8")
    assert main(["query", str(query), "--store", store, "--reasoning"]) == 0
    out, err = capsys.readouterr()
    lines = out.splitlines()
    assert lines[0] == "x\tentailed"
    assert lines[1] == f"<{A}>\t<{A}> <{RDF.type}> <{EX}Person>" and lines[2] == f"<{B}>\t"
    assert "2 row(s) (1 resting on entailed facts)" in err
    assert main(["query", str(query), "--store", store]) == 0
    assert capsys.readouterr().out.splitlines() == ["x", f"<{B}>"]
    query.write_text(f"CONSTRUCT WHERE {{ <{LAB}> <{EX}partOf> ?o }}", encoding="utf-8")
    assert main(["query", str(query), "--store", store, "--reasoning"]) == 0
    assert f"<{LAB}> <{PART_OF}> <{ACME}> . # entailed" in capsys.readouterr().out.splitlines()
    query.write_text("DELETE WHERE { ?s ?p ?o }", encoding="utf-8")
    assert main(["query", str(query), "--store", store]) == 2


# -- LUBM(1,0) ---------------------------------------------------------------------------------------------------

LUBM = Path(os.environ.get("LUBM_DIR") or Path(__file__).resolve().parents[2] / "shared" / "data" / "lubm")
PUBLISHED = [4, 0, 6, 34, 719, 7790, 67, 7790, 208, 4, 224, 15, 1, 5916]
"""The expected rows of Q1–Q14 on LUBM(1,0) with the reasoning the benchmark assumes (the README of the data)."""
STATED_ONLY = [4, 0, 6, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 5916]
"""The same queries over the stated triples alone (docs/your-rdf.md#reasoning says why each differs)."""


def lubm_queries(folder: Path = LUBM) -> list[str]:
    text = (folder / "queries.sparql").read_text(encoding="utf-8")
    return [part.strip() for part in re.split(r"(?m)^(?=# Q\d+)", text) if part.strip()]


@pytest.mark.skipif(not (LUBM / "queries.sparql").is_file(), reason="LUBM(1,0) not found: set LUBM_DIR")
def test_lubm_1_0_gives_the_published_counts_with_reasoning() -> None:
    kg = KnowledgeGraph.open()
    try:
        kg.load(LUBM / "data", ontology=LUBM / "univ-bench.owl", shacl=False)
        queries = lubm_queries()
        assert [int(re.search(r"expected (\d+) rows", q)[1]) for q in queries] == PUBLISHED  # type: ignore[index]
        assert [len(kg.query(q, reasoning=True)) for q in queries] == PUBLISHED
        assert [len(kg.query(q)) for q in queries] == STATED_ONLY
        students = kg.query(queries[5], reasoning=True)  # Q6: every student is one by entailment
        assert all(len(facts) == 1 for facts in students.entailed or ())
        undergraduates = kg.query(queries[13], reasoning=True)  # Q14: stated
        assert not any(undergraduates.entailed or ())
    finally:
        forget_domain("data")
