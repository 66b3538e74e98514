"""A user's own ontology as a domain: created, checked, loaded all or nothing, shapes enforced, asked, verified,
and read back from an on-disk store by a process that never saw the folder."""

from __future__ import annotations

import shutil
from collections.abc import Iterator
from pathlib import Path

import pytest

from ont_platform import KnowledgeGraph
from ont_platform.domains import Domain, domain_of_folder, forget_domain, get_domain, register_domain
from ont_platform.errors import DatasetError, InputError, OntologyError
from ont_platform.verify import Verifier

FIXTURE = Path(__file__).resolve().parent.parent / "fixtures" / "domains" / "invest"


@pytest.fixture
def folder(tmp_path: Path) -> Iterator[Path]:
    """A copy of the invest dataset under a fresh name, so each test registers its own domain."""
    target = tmp_path / f"invest{abs(hash(tmp_path)) % 10_000_000}"
    shutil.copytree(FIXTURE, target)
    yield target
    forget_domain(target.name)


def test_folder_with_its_own_ontology_is_its_own_domain(folder: Path) -> None:
    spec = domain_of_folder(folder)
    assert spec.name == folder.name
    assert spec.family == "entities" and spec.contract == "hop_decision" and not spec.bundled
    assert set(spec.ontology.relations) == {"worksFor", "investedIn", "locatedIn"}
    assert get_domain(folder.name) is spec


def test_a_relation_the_bundled_kg_lacks_loads_and_is_answered(folder: Path) -> None:
    with KnowledgeGraph.open() as kg:
        report = kg.load(folder)
        assert report.domain == folder.name and report.counts == {"nodes": 4, "edges": 3, "chunks": 3}
        a = kg.ask("김민수가 다니는 회사가 투자한 회사는 어느 도시에 있나요?").to_json()
        assert a["decision"] == "answer" and a["answer"] == "s1"
        assert [h["rel"] for h in a["path"]] == ["worksFor", "investedIn", "locatedIn"]
        with Verifier(kg) as verifier:
            assert verifier.verify(a, question="김민수가 다니는 회사가 투자한 회사는 어느 도시에 있나요?").ok


def test_domain_and_range_are_checked_on_load_all_or_nothing(folder: Path) -> None:
    with (folder / "kg_edges.csv").open("a", encoding="utf-8") as f:
        f.write("e9,s1,investedIn,c1,k2,true\n")  # a city cannot invest
    with KnowledgeGraph.open() as kg:
        with pytest.raises(DatasetError) as err:
            kg.load(folder)
        assert "kg_edges.csv" in str(err.value) and "e9" in str(err.value)
        assert len(kg) == 0


def test_the_users_shapes_are_enforced(folder: Path) -> None:
    (folder / "shapes.ttl").write_text(
        "@prefix sh: <http://www.w3.org/ns/shacl#> .\n"
        "@prefix co: <https://example.org/companies#> .\n"
        "<https://example.org/shapes#CompanyCity> a sh:NodeShape ; sh:targetClass co:Company ;\n"
        "  sh:property [ sh:path co:locatedIn ; sh:minCount 1 ;\n"
        '                sh:message "every company names its city" ] .\n',
        encoding="utf-8",
    )
    with KnowledgeGraph.open() as kg:
        with pytest.raises(DatasetError) as err:
            kg.load(folder)
        assert "every company names its city" in str(err.value)
        assert "kg_nodes.csv" in str(err.value)  # c1 has no city: the row that made it is named
        assert len(kg) == 0


def test_derived_shapes_cover_classes_without_user_shapes(folder: Path) -> None:
    spec = domain_of_folder(folder)
    from rdflib import URIRef
    from rdflib.namespace import SH

    from ont_platform.ontology.shacl import shapes_graph

    targets = set(shapes_graph(spec).objects(None, SH.targetClass))
    for cls in spec.ontology.classes.values():
        assert cls in targets
    assert URIRef("https://example.org/companies#investedIn") in set(
        shapes_graph(spec).objects(None, SH.targetSubjectsOf)
    )


def test_ontology_errors_name_the_term(tmp_path: Path) -> None:
    bad = tmp_path / "o.ttl"
    bad.write_text(
        (FIXTURE / "ontology.ttl").read_text(encoding="utf-8").replace("rdfs:range co:City", "rdfs:range co:Town"),
        encoding="utf-8",
    )
    with pytest.raises(OntologyError, match="locatedIn.*Town"):
        Domain.from_files("badrange", bad, check=False)
    nolabel = tmp_path / "n.ttl"
    nolabel.write_text(
        (FIXTURE / "ontology.ttl")
        .read_text(encoding="utf-8")
        .replace('co:City a owl:Class ; rdfs:label "도시"@ko , "city"@en .', "co:City a owl:Class ."),
        encoding="utf-8",
    )
    spec = Domain.from_files("nolabel", nolabel, check=False)
    assert any("class City has no rdfs:label" in w for w in spec.check().warnings)
    with pytest.raises(OntologyError, match="domain name"):
        Domain.from_files("Bad Name", nolabel, check=False)


@pytest.mark.skipif(shutil.which("java") is None, reason="HermiT needs a Java runtime")
def test_the_reasoner_refuses_an_unsatisfiable_class(tmp_path: Path) -> None:
    text = (FIXTURE / "ontology.ttl").read_text(encoding="utf-8")
    text += (
        "co:Person owl:disjointWith co:Company .\n"
        'co:Robot a owl:Class ; rdfs:label "로봇"@ko , "robot"@en ; '
        "rdfs:subClassOf co:Person , co:Company .\n"
    )
    path = tmp_path / "u.ttl"
    path.write_text(text, encoding="utf-8")
    with pytest.raises(OntologyError, match="Robot is unsatisfiable"):
        Domain.from_files("unsat", path)
    assert Domain.from_files("sat", FIXTURE / "ontology.ttl").extra["report"].reasoner == "consistent"


def test_one_name_one_ontology_per_process(folder: Path, tmp_path: Path) -> None:
    spec = domain_of_folder(folder)
    assert register_domain(Domain.from_files(folder.name, folder / "ontology.ttl", check=False)) is spec
    other = tmp_path / "other.ttl"
    other.write_text(
        (folder / "ontology.ttl").read_text(encoding="utf-8") + "\n# changed\n"
        "<https://example.org/companies#Fund> a <http://www.w3.org/2002/07/owl#Class> .\n",
        encoding="utf-8",
    )
    with pytest.raises(OntologyError, match="already called"):
        register_domain(Domain.from_files(folder.name, other, check=False))
    with pytest.raises(OntologyError):
        register_domain(Domain.from_files("kg", other, check=False))


def test_a_stored_domain_is_read_back_by_a_graph_that_never_saw_the_folder(folder: Path, tmp_path: Path) -> None:
    db = tmp_path / "graph.db"
    with KnowledgeGraph.open(db) as kg:
        kg.load(folder)
    forget_domain(folder.name)
    with pytest.raises(InputError):
        get_domain(folder.name)
    with KnowledgeGraph.open(db) as kg:
        assert kg.domains() == [folder.name]
        a = kg.ask("한빛전자가 투자한 회사는?").to_json()
        assert a["decision"] == "answer" and a["answer"] == "c2"
        assert kg.domain(folder.name).ontology.relations["investedIn"].range


def test_guard_and_ingest_use_the_users_ontology(folder: Path) -> None:
    from ont_platform import OntologyGuard

    with KnowledgeGraph.open() as kg:
        kg.load(folder)
        spec = kg.domain(folder.name)
        guard = OntologyGuard("lightweight", ontology=spec)
        good = {
            "entities": [
                {
                    "id": "E_c3",
                    "label": "새싹랩",
                    "type": "individual",
                    "ontology_class": "Company",
                    "confidence": 0.9,
                    "evidence": {"chunk_text": "한빛전자는 새싹랩에 투자했다."},
                },
                {
                    "id": "E_c1",
                    "label": "한빛전자",
                    "type": "individual",
                    "ontology_class": "Company",
                    "confidence": 0.9,
                    "evidence": {"chunk_text": "한빛전자는 새싹랩에 투자했다."},
                },
            ],
            "relations": [
                {
                    "id": "R_1",
                    "source_id": "E_c1",
                    "predicate": "investedIn",
                    "target_id": "E_c3",
                    "confidence": 0.9,
                    "evidence": {"chunk_text": "한빛전자는 새싹랩에 투자했다."},
                }
            ],
        }
        assert guard.validate_sync(good).validation_passed
        bad = {**good, "relations": [{**good["relations"][0], "predicate": "acquired"}]}
        assert not guard.validate_sync(bad).validation_passed
        before = len(kg)
        assert not kg.ingest(bad, guard=guard).accepted
        assert len(kg) == before


def test_an_ingest_into_an_empty_store_records_the_domain_for_later_processes(folder: Path, tmp_path: Path) -> None:
    from ont_platform import OntologyGuard

    spec = register_domain(Domain.from_files(folder.name, folder / "ontology.ttl", check=False))
    payload = {
        "entities": [
            {
                "id": "E_a",
                "label": "새싹랩",
                "type": "individual",
                "ontology_class": "Company",
                "evidence": {"chunk_text": "한빛전자는 새싹랩에 투자했다."},
            },
            {
                "id": "E_b",
                "label": "한빛전자",
                "type": "individual",
                "ontology_class": "Company",
                "evidence": {"chunk_text": "한빛전자는 새싹랩에 투자했다."},
            },
        ],
        "relations": [
            {
                "id": "R_1",
                "source_id": "E_b",
                "predicate": "investedIn",
                "target_id": "E_a",
                "evidence": {"chunk_text": "한빛전자는 새싹랩에 투자했다."},
            }
        ],
    }
    db = tmp_path / "ingested.db"
    with KnowledgeGraph.open(db) as kg:
        report = kg.ingest(payload, guard=OntologyGuard("lightweight", ontology=spec))
        assert report.accepted, report.errors
    forget_domain(folder.name)
    with KnowledgeGraph.open(db) as kg:
        assert kg.domains() == [folder.name]
        assert "investedIn" in kg.domain(folder.name).ontology.relations


def test_a_stored_ontology_that_differs_from_the_one_known_by_its_name_is_refused(folder: Path, tmp_path: Path) -> None:
    db = tmp_path / "graph.db"
    with KnowledgeGraph.open(db) as kg:
        kg.load(folder)
    forget_domain(folder.name)
    changed = tmp_path / "changed.ttl"
    changed.write_text(
        (folder / "ontology.ttl").read_text(encoding="utf-8")
        + "<https://example.org/companies#Fund> a <http://www.w3.org/2002/07/owl#Class> .\n",
        encoding="utf-8",
    )
    register_domain(Domain.from_files(folder.name, changed, check=False))  # another ontology, same name
    with KnowledgeGraph.open(db) as kg:
        with pytest.raises(InputError, match="already called"):
            kg.ask("한빛전자가 투자한 회사는?")


def test_a_folder_with_a_broken_ontology_is_unusable_input_and_loads_nothing(
    folder: Path, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    from ont_platform.cli.main import main

    (folder / "ontology.ttl").write_text("this is @@ not turtle\n", encoding="utf-8")
    db = tmp_path / "g.db"
    assert main(["load", str(folder), "--store", str(db)]) == 2
    assert "ontology.ttl" in capsys.readouterr().err
    with KnowledgeGraph.open(db) as kg:
        assert len(kg) == 0
