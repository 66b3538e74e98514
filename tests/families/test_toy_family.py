"""A family written outside the library plugs into every stage through the registry alone.

The toy family is a glossary: one table of terms, each with its broader term. Nothing in ``ont_platform``
knows it; registered in code or found by its entry point, a folder of its table loads (all or nothing, a bad row
named by file and line), a question is answered by its answerer, an answer is checked by its checks, a stored
graph names its domain's family again, and the admin page's node view runs its query.
"""

from __future__ import annotations

import csv
import re
import sys
from collections.abc import Iterator
from pathlib import Path
from typing import TYPE_CHECKING

import pytest
from rdflib import RDF, RDFS, URIRef

from ont_platform import KnowledgeGraph
from ont_platform.answer.contracts import Hop, HopDecision
from ont_platform.errors import DatasetError, OntologyError
from ont_platform.families import (
    Dataset,
    Family,
    QuestionPlan,
    family_names,
    get_family,
    register_family,
    unregister_family,
)
from ont_platform.ingest.builder import plain, term
from ont_platform.ingest.datasets import table_dataset
from ont_platform.limits import Limits
from ont_platform.namespaces import ONT, mint
from ont_platform.rdf_terms import iri, literal
from ont_platform.verify import verify_answer

if TYPE_CHECKING:
    from ont_platform.domains import Domain
    from ont_platform.ingest.datasets import DatasetLoad
    from ont_platform.qa.context import Context
    from ont_platform.verify.case import Case

GL = "https://example.org/glossary#"
ONTOLOGY = f"""\
@prefix gl: <{GL}> .
@prefix ont: <https://w3id.org/ont-platform/core#> .
@prefix owl: <http://www.w3.org/2002/07/owl#> .
@prefix rdfs: <http://www.w3.org/2000/01/rdf-schema#> .

<https://example.org/glossary> a owl:Ontology ; ont:domainName "glossary" ; rdfs:label "glossary"@en .
ont:domainName a owl:AnnotationProperty .
gl:Term a owl:Class ; rdfs:label "term"@en , "용어"@ko .
gl:broader a owl:ObjectProperty ; rdfs:label "broader term"@en , "상위 용어"@ko ;
    rdfs:domain gl:Term ; rdfs:range gl:Term .
"""
ROWS = [("t_cat", "cat", "t_mammal"), ("t_mammal", "mammal", "t_animal"), ("t_animal", "animal", "")]


class GlossaryFamily:
    """Terms and their broader terms, answered with the HopDecision contract."""

    name: str = "glossary"
    tables: tuple[str, ...] = ("glossary.csv",)
    contract: str = "hop_decision"
    decision_field: str = "decision"
    telltales: tuple[str, ...] = ("query_id", "decision")
    has_names: bool = False
    has_chunks: bool = False
    own_ontology: bool = True
    bundled_domain: str | None = None
    mints_iris: bool = True
    node_fields: tuple[tuple[str, str], ...] = (("broader", "broader"),)
    answered: list[str] = []
    checked: list[str] = []

    def recognises(self, path: Path) -> bool:
        return path.is_dir() and (path / "glossary.csv").is_file()

    def open_dataset(self, path: Path, spec: Domain, limits: Limits, mode: str) -> Dataset:
        return table_dataset(path, spec, limits, mode)

    def read_tables(self, load: DatasetLoad) -> Iterator[str]:
        with (load.folder / "glossary.csv").open(encoding="utf-8", newline="") as fh:
            for line, row in enumerate(csv.DictReader(fh), start=2):
                if not re.fullmatch(r"t_[a-z]+", row["id"] or ""):
                    load.problem("glossary.csv", line, f"a term id is t_ and letters, got {row['id']!r}")
                    continue
                node = term(mint(load.domain, "node", row["id"]))
                text = f"{node} {term(RDF.type)} {term(URIRef(GL + 'Term'))} .\n"
                text += f"{node} {term(RDFS.label)} {plain(row['label'])} .\n"
                text += f"{node} {term(ONT.id)} {plain(row['id'])} .\n"
                if row["broader"]:
                    broader = term(mint(load.domain, "node", row["broader"]))
                    text += f"{node} {term(URIRef(GL + 'broader'))} {broader} .\n"
                yield text

    def answer(self, ctx: Context, question: str, qid: str) -> HopDecision:
        self.answered.append(question)
        m = re.fullmatch(r"broader of (\w+)\??", question.strip())
        rows = []
        if m:
            rows = ctx.run_select(
                f"SELECT ?n ?b WHERE {{ ?n {iri(str(RDFS.label))} {literal(m.group(1))} ; "
                f"{iri(GL + 'broader')} ?b }} LIMIT 2"
            )
        if len(rows) != 1:
            return HopDecision(
                query_id=qid,
                decision="refuse",
                answer=None,
                path=[],
                factors=["missing_start_node"],
                reason="the glossary holds no single term of that name with a broader term",
                evidence="no such term in the glossary",
                hedge=None,
            )
        start, broader = (str(rows[0][k]).rsplit("/", 1)[-1] for k in ("n", "b"))
        return HopDecision(
            query_id=qid,
            decision="answer",
            answer=broader,
            path=[Hop(src=start, rel="broader", dst=broader, chunk_id=None)],
            factors=[],
            reason=f"{start} has the broader term {broader} in the glossary",
            evidence=f"{start} broader {broader}",
            hedge=None,
        )

    def read_plan(self, ctx: Context, question: str) -> QuestionPlan | None:
        return None

    def check(self, case: Case) -> None:
        self.checked.append(str(case.answer.get("query_id")))
        if case.answer["decision"] == "answer" and not case.answer["path"]:
            case.fail("path", "a glossary answer names the term it walked from")

    def node_query(self, iri_: URIRef) -> str:
        return (
            f"SELECT ?label ?cls ?broader WHERE {{ {iri(str(iri_))} {iri(str(RDFS.label))} ?label ; a ?cls . "
            f"OPTIONAL {{ {iri(str(iri_))} {iri(GL + 'broader')} ?broader }} }}"
        )


def _folder(root: Path, rows: list[tuple[str, str, str]]) -> Path:
    folder = root / "glossary"
    folder.mkdir()
    (folder / "ontology.ttl").write_text(ONTOLOGY, encoding="utf-8")
    with (folder / "glossary.csv").open("w", encoding="utf-8", newline="") as fh:
        writer = csv.writer(fh)
        writer.writerow(["id", "label", "broader"])
        writer.writerows(rows)
    return folder


@pytest.fixture
def glossary() -> Iterator[GlossaryFamily]:
    family = GlossaryFamily()
    family.answered, family.checked = [], []
    register_family(family)
    try:
        yield family
    finally:
        unregister_family("glossary")


def test_the_toy_family_satisfies_the_protocol() -> None:
    assert isinstance(GlossaryFamily(), Family)
    assert not isinstance(object(), Family)


def test_a_registered_family_loads_answers_and_verifies(glossary: GlossaryFamily, tmp_path: Path) -> None:
    assert "glossary" in family_names()
    kg = KnowledgeGraph.open()
    report = kg.load(_folder(tmp_path, ROWS))
    assert kg.domains() == ["glossary"]
    assert len(kg) >= 3 * 3 and report.shacl.mode != "off"
    spec = kg.domain("glossary")
    assert spec.family == "glossary" and spec.tables == ("glossary.csv",) and not spec.has_names

    answer = kg.ask("broader of cat?", domain="glossary", qid="q1")
    assert glossary.answered == ["broader of cat?"]
    assert answer.to_json()["answer"] == "t_mammal"
    refused = kg.ask("broader of animal", domain="glossary", qid="q2").to_json()
    assert refused["decision"] == "refuse"

    good = verify_answer(kg, answer.to_json())
    assert good.ok, good.failures
    forged = dict(answer.to_json(), path=[])
    bad = verify_answer(kg, forged)
    assert [f.check for f in bad.failures] == ["path"]
    assert glossary.checked == ["q1", "q1"]


def test_a_bad_row_of_the_toy_table_refuses_the_whole_load(glossary: GlossaryFamily, tmp_path: Path) -> None:
    kg = KnowledgeGraph.open()
    with pytest.raises(DatasetError, match=r"glossary\.csv:3: a term id is t_ and letters"):
        kg.load(_folder(tmp_path, [ROWS[0], ("Mammal!", "mammal", ""), ROWS[2]]))
    assert len(kg) == 0


def test_a_stored_toy_domain_is_read_back_in_its_family(glossary: GlossaryFamily, tmp_path: Path) -> None:
    """A new graph over the same store names the domain's family from the stored record, not the default."""
    store = tmp_path / "store"
    with KnowledgeGraph.open(store) as kg:
        kg.load(_folder(tmp_path, ROWS))
    with KnowledgeGraph.open(store) as again:
        assert again.domain("glossary").family == "glossary"
        assert again.ask("broader of mammal", domain="glossary", qid="q3").to_json()["answer"] == "t_animal"


def test_an_unknown_family_is_named_with_the_known_ones() -> None:
    with pytest.raises(
        OntologyError, match=r"unknown domain family 'nope'; known: entities, transfers, inventory, triples"
    ):
        get_family("nope")


def test_an_object_that_is_not_a_family_is_refused_with_what_it_lacks() -> None:
    class Half:
        name = "half"
        tables = ("half.csv",)

    with pytest.raises(OntologyError, match=r"does not satisfy the Family protocol; missing: \['contract'"):
        register_family(Half())  # type: ignore[arg-type]


def test_a_built_in_name_cannot_be_taken_by_accident(glossary: GlossaryFamily) -> None:
    class Impostor(GlossaryFamily):
        name = "entities"

    with pytest.raises(OntologyError, match="already exists"):
        register_family(Impostor())
    assert get_family("entities").contract == "hop_decision"


def test_a_family_is_found_by_its_entry_point(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """An installed distribution declaring the entry point is all it takes: the registry imports the module
    named there the first time the family is asked for."""
    package = tmp_path / "glossary_plugin"
    package.mkdir()
    (package / "__init__.py").write_text(
        "from tests.families.test_toy_family import GlossaryFamily\n", encoding="utf-8"
    )
    info = tmp_path / "glossary_plugin-1.0.dist-info"
    info.mkdir()
    (info / "METADATA").write_text("Metadata-Version: 2.1\nName: glossary-plugin\nVersion: 1.0\n", encoding="utf-8")
    (info / "entry_points.txt").write_text(
        "[ont_platform.families]\nglossary = glossary_plugin:GlossaryFamily\n", encoding="utf-8"
    )
    monkeypatch.syspath_prepend(str(tmp_path))
    try:
        assert "glossary" in family_names()
        family = get_family("glossary")
        assert type(family).__name__ == "GlossaryFamily" and family.tables == ("glossary.csv",)
        kg = KnowledgeGraph.open()
        kg.load(_folder(tmp_path, ROWS))
        assert kg.ask("broader of cat", domain="glossary", qid="q4").to_json()["answer"] == "t_mammal"
    finally:
        unregister_family("glossary")
        sys.modules.pop("glossary_plugin", None)


def test_the_admin_node_view_runs_the_familys_query(glossary: GlossaryFamily, tmp_path: Path) -> None:
    from ont_platform.service.graphs import GraphSet

    kg = KnowledgeGraph.open()
    kg.load(_folder(tmp_path, ROWS))
    node = GraphSet(kg).node("glossary", "t_cat")
    assert node["label"] == "cat"
    assert node["broader"] == str(mint("glossary", "node", "t_mammal"))
    assert [c["name"] for c in node["classes"]] == ["Term"]


def test_a_broken_plug_in_is_left_out_of_every_load_and_named_when_asked_for(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, caplog: pytest.LogCaptureFixture
) -> None:
    """A stale or broken installation of another package (its entry point names a module that is gone) must not
    stop loads of the other families; asking for it by name says what is wrong."""
    info = tmp_path / "gone_plugin-1.0.dist-info"
    info.mkdir()
    (info / "METADATA").write_text("Metadata-Version: 2.1\nName: gone-plugin\nVersion: 1.0\n", encoding="utf-8")
    (info / "entry_points.txt").write_text("[ont_platform.families]\ngone = no_such_module:Family\n", encoding="utf-8")
    monkeypatch.syspath_prepend(str(tmp_path))
    from ont_platform.resources import example_dataset

    kg = KnowledgeGraph.open()
    kg.load(example_dataset("kg"))
    assert kg.domains() == ["kg"]
    assert any("gone" in r.getMessage() for r in caplog.records)
    with pytest.raises(OntologyError, match=r"family plug-in 'gone' .* cannot be loaded"):
        get_family("gone")
