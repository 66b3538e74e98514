"""Plain RDF as a dataset: a Turtle (or RDF/XML, N-Triples …) file or folder with its own ontology is loaded
with its own IRIs, checked all or nothing against the ontology and shapes (the breaking triple named with file
and line), and asked like any domain, each walked triple cited with its source and accepted by the verifier."""

from __future__ import annotations

import itertools
import uuid
from pathlib import Path

import networkx as nx
import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from ont_platform import KnowledgeGraph
from ont_platform.domains import Domain, forget_domain, register_domain
from ont_platform.errors import DatasetError, InputError
from ont_platform.messages.particles import josa
from ont_platform.verify import verify_answer

EX = "https://example.org/people#"
D = "https://example.org/data/"
ONTOLOGY = f"""\
@prefix ex: <{EX}> .
@prefix owl: <http://www.w3.org/2002/07/owl#> .
@prefix rdfs: <http://www.w3.org/2000/01/rdf-schema#> .

<https://example.org/people> a owl:Ontology ; rdfs:label "people"@en .
ex:Agent a owl:Class ; rdfs:label "agent"@en , "행위자"@ko .
ex:Person a owl:Class ; rdfs:subClassOf ex:Agent ; rdfs:label "person"@en , "사람"@ko .
ex:Organization a owl:Class ; rdfs:subClassOf ex:Agent ; rdfs:label "organization"@en , "조직"@ko .
ex:City a owl:Class ; rdfs:label "city"@en , "도시"@ko .
ex:Person owl:disjointWith ex:Organization .
ex:knows a owl:ObjectProperty ; rdfs:label "knows"@en , "알다"@ko ; rdfs:domain ex:Person ; rdfs:range ex:Person .
ex:memberOf a owl:ObjectProperty ; rdfs:label "member of"@en , "소속"@ko ;
    rdfs:domain ex:Person ; rdfs:range ex:Organization .
ex:basedIn a owl:ObjectProperty ; rdfs:label "based in"@en , "위치"@ko ;
    rdfs:domain ex:Organization ; rdfs:range ex:City .
ex:name a owl:DatatypeProperty ; rdfs:label "name"@en , "이름"@ko .
"""
# the shapes name the superclass Agent: a Person is an Agent by the ontology's hierarchy (a SHACL instance)
SHAPES = f"""\
@prefix ex: <{EX}> .
@prefix sh: <http://www.w3.org/ns/shacl#> .

ex:KnowsShape a sh:NodeShape ; sh:targetSubjectsOf ex:knows ;
    sh:property [ sh:path ex:knows ; sh:class ex:Agent ; sh:message "knows an agent" ] .
ex:MemberShape a sh:NodeShape ; sh:targetClass ex:Person ;
    sh:property [ sh:path ex:memberOf ; sh:maxCount 1 ; sh:message "a person is a member of one organization at most" ] .
"""
DATA = f"""\
@prefix ex: <{EX}> .
@prefix d: <{D}> .

d:alice a ex:Person ; ex:name "Alice Smith" ; ex:knows d:bob ; ex:memberOf d:acme .
d:bob a ex:Person ; ex:name "Bob Jones" ; ex:memberOf d:globex .
d:acme a ex:Organization ; ex:name "Acme" ; ex:basedIn d:seoul .
d:globex a ex:Organization ; ex:name "Globex" ; ex:basedIn d:busan .
d:seoul a ex:City ; ex:name "Seoul" .
d:busan a ex:City ; ex:name "Busan" .
"""


def _folder(root: Path, data: str = DATA, *, shapes: bool = True, name: str = "people") -> Path:
    folder = root / name
    folder.mkdir()
    (folder / "ontology.ttl").write_text(ONTOLOGY, encoding="utf-8")
    if shapes:
        (folder / "shapes.ttl").write_text(SHAPES, encoding="utf-8")
    (folder / "people.ttl").write_text(data, encoding="utf-8")
    return folder


@pytest.fixture(autouse=True)
def _forget() -> object:
    yield
    forget_domain("people")


def test_a_folder_of_rdf_loads_with_its_own_iris_and_answers_with_triples(tmp_path: Path) -> None:
    kg = KnowledgeGraph.open()
    report = kg.load(_folder(tmp_path))
    assert report.domain == "people" and report.counts == {"people.ttl": 17}
    assert kg.domain("people").family == "triples"
    # the data's IRIs are kept: a query written against the data runs unchanged
    rows = kg.query(f"SELECT ?o ?n WHERE {{ <{D}alice> <{EX}knows> ?o . ?o <{EX}name> ?n }}")
    assert [str(r[0]) for r in rows] == [f"{D}bob"]
    assert str(rows[0].o) == str(rows[0]["o"]) == f"{D}bob" and str(rows[0][1]) == "Bob Jones"  # as rdflib's rows
    with pytest.raises(AttributeError):
        _ = rows[0].nothing
    answer = kg.ask("In which city is the organization Alice Smith is a member of based?", qid="q1").to_json()
    assert answer["decision"] == "answer" and answer["answer"] == f"{D}seoul"
    assert [h["triple"] for h in answer["path"]] == [
        [f"{D}alice", f"{EX}memberOf", f"{D}acme"],
        [f"{D}acme", f"{EX}basedIn", f"{D}seoul"],
    ]
    assert {h["source"] for h in answer["path"]} == {"people.ttl"}
    assert "reaches" in answer["reason"] and "stated in the data" in answer["reason"]
    assert verify_answer(kg, answer).ok


def test_several_answers_each_come_with_their_own_path(tmp_path: Path) -> None:
    data = DATA + 'd:bob ex:knows d:alice .\nd:carol a ex:Person ; ex:name "Carol Ng" ; ex:knows d:bob .\n'
    kg = KnowledgeGraph.open()
    kg.load(_folder(tmp_path, data))
    got = kg.ask("Who knows Bob Jones?", qid="q3").to_json()
    assert got["decision"] == "answer" and set(got["answer"].split(", ")) == {f"{D}alice", f"{D}carol"}
    paths = {x["answer"]: x["path"] for x in got["answers"]}
    assert paths[f"{D}carol"][0]["triple"] == [f"{D}carol", f"{EX}knows", f"{D}bob"]
    assert paths[f"{D}alice"][0]["triple"] == [f"{D}alice", f"{EX}knows", f"{D}bob"]
    assert verify_answer(kg, got, question="Who knows Bob Jones?").ok
    swapped = dict(got, answers=[{"answer": f"{D}carol", "path": paths[f"{D}alice"]}, got["answers"][1]])
    assert not verify_answer(kg, swapped, question="Who knows Bob Jones?").ok


def test_the_verifier_refuses_a_triple_the_data_does_not_state(tmp_path: Path) -> None:
    kg = KnowledgeGraph.open()
    kg.load(_folder(tmp_path))
    good = kg.ask("Who does Alice Smith know?", qid="q2").to_json()
    assert good["answer"] == f"{D}bob"
    forged = dict(good, answer=f"{D}globex", path=[dict(good["path"][0], dst=f"{D}globex")])
    report = verify_answer(kg, forged, question="Who does Alice Smith know?")
    assert not report.ok and "citations" in {f.check for f in report.failures}


def test_an_unknown_name_is_refused_in_the_questions_language(tmp_path: Path) -> None:
    kg = KnowledgeGraph.open()
    kg.load(_folder(tmp_path))
    refused = kg.ask("Who does Carol Ng know?").to_json()
    assert refused["decision"] == "refuse" and refused["factors"] == ["missing_start_node"]
    korean = kg.ask("캐롤이 아는 사람은?").to_json()
    assert korean["decision"] == "refuse" and "시작 노드" in korean["reason"]


def test_one_file_with_its_ontology_given(tmp_path: Path) -> None:
    (tmp_path / "onto.ttl").write_text(ONTOLOGY, encoding="utf-8")
    (tmp_path / "people.nt").write_text(
        f"<{D}alice> <http://www.w3.org/1999/02/22-rdf-syntax-ns#type> <{EX}Person> .\n"
        f'<{D}alice> <{EX}name> "Alice Smith" .\n',
        encoding="utf-8",
    )
    kg = KnowledgeGraph.open()
    with pytest.raises(InputError, match="needs an ontology"):
        kg.load(tmp_path / "people.nt")
    report = kg.load(tmp_path / "people.nt", ontology=tmp_path / "onto.ttl")
    assert report.domain == "people" and report.counts == {"people.nt": 2}


def test_a_shape_on_a_superclass_accepts_a_subclass_instance(tmp_path: Path) -> None:
    """``sh:class ex:Agent`` holds for a value typed ex:Person, a subclass of Agent in the ontology."""
    kg = KnowledgeGraph.open()
    kg.load(_folder(tmp_path))
    assert len(kg) > 17


@pytest.mark.parametrize(
    ("extra", "line", "reason"),
    [
        ("d:carol a ex:Person ; ex:knows d:seoul .", 10, "knows an agent"),  # a city is not an agent
        ("d:dave a ex:Person ; ex:memberOf d:acme , d:globex .", 10, "one organization at most"),
        ("d:erin a ex:Persn .", 10, "Persn is not a class of the people ontology"),
        ("d:frank a ex:Person ; ex:knowz d:bob .", 10, "knowz is not a property of the people ontology"),
        ("d:acme a ex:Person .", 5, "both Organization and Person"),
    ],
)
def test_a_bad_triple_refuses_the_whole_load_naming_its_line(
    tmp_path: Path, extra: str, line: int, reason: str
) -> None:
    kg = KnowledgeGraph.open()
    with pytest.raises(DatasetError) as err:
        kg.load(_folder(tmp_path, DATA + extra + "\n"))
    assert len(kg) == 0
    text = str(err.value)
    assert reason in text, text
    if "disjoint" not in text:
        assert f"people.ttl:{line}:" in text, text


def test_a_property_of_another_vocabulary_is_kept_with_a_warning(tmp_path: Path) -> None:
    data = DATA + 'd:alice <http://xmlns.com/foaf/0.1/nick> "al" .\n'
    kg = KnowledgeGraph.open()
    report = kg.load(_folder(tmp_path, data))
    assert any("nick is not in the ontology" in str(w) for w in report.warnings)
    assert kg.query(f'ASK {{ <{D}alice> <http://xmlns.com/foaf/0.1/nick> "al" }}')


def test_a_syntax_error_names_the_file(tmp_path: Path) -> None:
    kg = KnowledgeGraph.open()
    with pytest.raises(DatasetError, match=r"people\.ttl"):
        kg.load(_folder(tmp_path, DATA + "d:broken ex:knows .\n"))
    assert len(kg) == 0


def test_named_graphs_are_refused_not_merged(tmp_path: Path) -> None:
    folder = _folder(tmp_path)
    (folder / "people.ttl").unlink()
    (folder / "people.nq").write_text(f'<{D}alice> <{EX}name> "Alice" <{D}g1> .\n', encoding="utf-8")
    with pytest.raises(DatasetError, match="named graph"):
        KnowledgeGraph.open().load(folder)


def test_a_stored_rdf_domain_is_asked_again_from_a_new_process_view(tmp_path: Path) -> None:
    store = tmp_path / "store"
    with KnowledgeGraph.open(store) as kg:
        kg.load(_folder(tmp_path))
    with KnowledgeGraph.open(store) as again:
        assert again.domain("people").family == "triples"
        assert again.ask("Who does Alice Smith know?").to_json()["answer"] == f"{D}bob"


def test_rdf_xml_data_and_ontology(tmp_path: Path) -> None:
    """The formats ontologies are published in: RDF/XML for both, a relative ``rdf:about`` resolved against the
    file."""
    from rdflib import Graph

    folder = tmp_path / "xml"
    folder.mkdir()
    Graph().parse(data=ONTOLOGY, format="turtle").serialize(folder / "onto.owl", format="xml")
    Graph().parse(data=DATA, format="turtle").serialize(folder / "people.rdf", format="xml")
    kg = KnowledgeGraph.open()
    kg.load(folder / "people.rdf", ontology=folder / "onto.owl")
    assert kg.ask("Who does Alice Smith know?").to_json()["answer"] == f"{D}bob"


# --- generated graphs ---------------------------------------------------------------------------------------------

RELATION_WORDS = ["후원", "담당", "공급", "관리", "보관", "생산", "검토", "지원", "운영", "배정"]
CLASS_WORDS = ["기관", "부서", "장비", "문서", "제품", "고객", "창고", "노선", "정거장", "학교"]
_counter = itertools.count()


@st.composite
def rdf_worlds(
    draw: st.DrawFn,
) -> tuple[str, dict[str, str], dict[str, tuple[str, str, str]], list[tuple[str, str, str]]]:
    """(name, node → class, relation → (domain, range, Korean word), stated edges (src, rel, dst))."""
    classes = [f"K{i}" for i in range(draw(st.integers(2, 4)))]
    words = draw(st.permutations(RELATION_WORDS))
    relations: dict[str, tuple[str, str, str]] = {}
    for i in range(draw(st.integers(2, 4))):
        dom = draw(st.sampled_from(classes))
        rng = classes[(classes.index(dom) + 1) % len(classes)]
        relations[f"r{i}"] = (dom, rng, words[i])
    nodes = {f"nd_{i}": draw(st.sampled_from(classes)) for i in range(draw(st.integers(3, 9)))}
    edges = []
    for _ in range(draw(st.integers(0, 14))):
        rel = draw(st.sampled_from(sorted(relations)))
        dom, rng, _ = relations[rel]
        srcs = [n for n, c in nodes.items() if c == dom]
        dsts = [n for n, c in nodes.items() if c == rng]
        if srcs and dsts:
            edges.append((draw(st.sampled_from(srcs)), rel, draw(st.sampled_from(dsts))))
    return f"rdf{next(_counter)}-{uuid.uuid4().hex[:6]}", nodes, relations, sorted(set(edges))


def _write_world(
    folder: Path,
    name: str,
    nodes: dict[str, str],
    relations: dict[str, tuple[str, str, str]],
    edges: list[tuple[str, str, str]],
) -> str:
    ns, data = f"https://example.org/{name}#", f"https://example.org/{name}/"
    folder.mkdir()
    lines = [
        f"@prefix x: <{ns}> .",
        "@prefix owl: <http://www.w3.org/2002/07/owl#> .",
        "@prefix rdfs: <http://www.w3.org/2000/01/rdf-schema#> .",
        f'<https://example.org/{name}> a owl:Ontology ; <https://w3id.org/ont-platform/core#domainName> "{name}" .',
    ]
    for i, c in enumerate(
        sorted({*nodes.values(), *(r[0] for r in relations.values()), *(r[1] for r in relations.values())})
    ):
        lines.append(f'x:{c} a owl:Class ; rdfs:label "{CLASS_WORDS[i]}"@ko , "{c.lower()} thing"@en .')
    for r, (dom, rng, word) in relations.items():
        lines.append(
            f'x:{r} a owl:ObjectProperty ; rdfs:domain x:{dom} ; rdfs:range x:{rng} ; rdfs:label "{word}"@ko .'
        )
    (folder / "ontology.ttl").write_text("\n".join(lines) + "\n", encoding="utf-8")
    out = [f"@prefix x: <{ns}> .", f"@prefix d: <{data}> .", "@prefix rdfs: <http://www.w3.org/2000/01/rdf-schema#> ."]
    for n, c in nodes.items():
        out.append(f'd:{n} a x:{c} ; rdfs:label "{n}" .')
    for s, r, o in edges:
        out.append(f"d:{s} x:{r} d:{o} .")
    (folder / "data.ttl").write_text("\n".join(out) + "\n", encoding="utf-8")
    return data


@pytest.mark.slow
@settings(max_examples=12, deadline=None, suppress_health_check=[HealthCheck.too_slow, HealthCheck.data_too_large])
@given(world=rdf_worlds(), data=st.data())
def test_generated_rdf_answers_like_a_walk_over_the_stated_triples(
    tmp_path_factory: pytest.TempPathFactory, world: tuple, data: st.DataObject
) -> None:
    """Any generated graph and ontology: every path question is answered as a breadth-first walk over the stated
    triples answers it, each hop cites its triple, and the verifier accepts the answer."""
    name, nodes, relations, edges = world
    folder = tmp_path_factory.mktemp("rdf") / name
    base = _write_world(folder, name, nodes, relations, edges)
    g = nx.MultiDiGraph()
    for s, r, o in edges:
        g.add_edge(s, o, rel=r)
    # the reasoner is tested elsewhere (it needs a JVM per run): the domain is registered unchecked, and the
    # load finds it by its files
    register_domain(Domain.from_files(None, folder / "ontology.ttl", check=False, family="triples"))
    try:
        with KnowledgeGraph.open() as kg:
            kg.load(folder)
            for _ in range(4):
                start = data.draw(st.sampled_from(sorted(nodes)))
                chain: list[str] = []
                here = nodes[start]
                for _ in range(data.draw(st.integers(1, 3))):
                    fits = [r for r, (dom, _, _) in sorted(relations.items()) if dom == here]
                    if not fits:
                        break
                    chain.append(data.draw(st.sampled_from(fits)))
                    here = relations[chain[-1]][1]
                if not chain:
                    continue
                words = [relations[r][2] for r in chain]
                question = f"{start} 의 " + "".join(f"{x}의 " for x in words[:-1]) + josa(words[-1], "은", "는") + "?"
                got = kg.ask(question).to_json()
                frontier = [start]
                for rel in chain:
                    frontier = list(
                        dict.fromkeys(
                            d for n in frontier if n in g for _, d, e in g.out_edges(n, data=True) if e["rel"] == rel
                        )
                    )
                if not frontier:
                    assert got["decision"] == "refuse" and got["factors"] == ["missing_edge"], (question, got["reason"])
                    continue
                assert got["decision"] == "answer", (question, got["reason"])
                assert set(got["answer"].split(", ")) == {base + n for n in frontier}, (question, got["reason"])
                assert [h["triple"][1].rsplit("#", 1)[-1] for h in got["path"]] == chain
                # every answer with its own walk of stated triples
                assert {x["answer"] for x in got["answers"]} == {base + n for n in frontier}
                for x in got["answers"]:
                    assert len(x["path"]) == len(chain) and x["path"][-1]["triple"][2] == x["answer"]
                assert all(h["source"] == "data.ttl" for h in got["path"])
                report = verify_answer(kg, got, question=question)
                assert report.ok, (question, report.failures)
    finally:
        forget_domain(name)


def test_an_ontology_without_labels_is_read_by_the_words_of_its_names(tmp_path: Path) -> None:
    """Published ontologies often label only some terms: an unlabelled one is named by its local name's words
    (``memberOf`` → "member of"), in English."""
    from ont_platform.ontology.model import words_of

    assert [words_of(n) for n in ("GraduateStudent", "subOrganizationOf", "has_part", "URLTemplate")] == [
        "graduate student",
        "sub organization of",
        "has part",
        "url template",
    ]
    folder = _folder(tmp_path)
    (folder / "ontology.ttl").write_text(
        ONTOLOGY.replace('rdfs:label "member of"@en , "소속"@ko ;', "").replace(
            'rdfs:label "organization"@en , "조직"@ko', 'rdfs:comment "no label"'
        ),
        encoding="utf-8",
    )
    kg = KnowledgeGraph.open()
    kg.load(folder)
    got = kg.ask("Which organization is Alice Smith a member of?").to_json()
    assert got["decision"] == "answer" and got["answer"] == f"{D}acme", got["reason"]
