"""The ontocast critic: deterministic findings, SHACL on a copy, honest 'not evaluated', score and suggestions,
and the SPARQL UPDATE gate (INSERT DATA / DELETE DATA only, allowed graphs only, parsed and dry-run first)."""

from __future__ import annotations

import copy
from pathlib import Path
from typing import Any

import pytest

from ont_platform import KnowledgeGraph
from ont_platform.errors import InputError, ValidationFailed
from ont_platform.validation import OntoCastValidator, OntologyGuard, RuleConfig
from tests.validation.conftest import KG_PAYLOAD

EXAMPLES = Path(__file__).resolve().parents[2] / "examples"
ID = "https://w3id.org/ont-platform/id/kg/node/"
KG = "PREFIX kg: <https://w3id.org/ont-platform/kg#> PREFIX ont: <https://w3id.org/ont-platform/core#> "
LENIENT = RuleConfig(id_prefix_severity="warning")  # the example dataset's ids (p_hong) predate the E_ prefix


@pytest.fixture(scope="module")
def example_kg() -> Any:
    kg = KnowledgeGraph.open()
    kg.load(EXAMPLES / "kg")
    yield kg
    kg.close()


def test_valid_payload_passes_every_stage_with_full_score() -> None:
    result = OntoCastValidator(ontology="kg").check(KG_PAYLOAD)
    assert result.validation_passed
    assert result.checks == {
        "structure": "passed",
        "rules": "passed",
        "ontology": "passed",
        "graph": "passed",
        "shacl": "passed",
    }
    assert result.score == 1.0 and result.suggestions == []


def test_deterministic_findings_come_first_with_a_score_and_concrete_suggestions() -> None:
    payload = copy.deepcopy(KG_PAYLOAD)
    payload["entities"][1]["ontology_class"] = "City"  # E_1 worksFor a city
    result = OntoCastValidator(ontology="kg").check(payload)
    assert result.codes() == {"range_violation"}
    assert result.checks["shacl"] == "not_evaluated"  # never "passed" when it did not run
    assert result.score == pytest.approx(4 / 5)
    assert any("Company, Organization" in s and "'E_2'" in s for s in result.suggestions)
    assert result.suggestions[0] in result.reask_message()


def test_shacl_finds_what_the_rules_do_not() -> None:
    # An exchange deposit without its normalised address passes every rule, but not the on-chain shapes.
    payload = {
        "entities": [{"id": "E_1", "label": "deposit", "type": "individual", "ontology_class": "ExchangeDeposit"}]
    }
    result = OntoCastValidator(ontology="onchain").check(payload)
    assert result.checks["rules"] == result.checks["ontology"] == "passed"
    assert result.checks["shacl"] == "failed"
    assert [(e.code, e.path) for e in result.validation_errors] == [("shacl", "$.entities[0]")]
    assert "addressNorm" in result.validation_errors[0].message
    assert result.score == 0.0


def test_shacl_skipped_for_size_says_not_evaluated() -> None:
    result = OntoCastValidator(ontology="kg", max_shacl_triples=5).check(KG_PAYLOAD)
    assert result.validation_passed
    assert result.checks["shacl"] == "not_evaluated"
    assert [w.code for w in result.warnings] == ["shacl_not_evaluated"]
    assert "over the limit of 5" in result.warnings[0].message


def test_without_an_ontology_shacl_is_not_evaluated() -> None:
    result = OntoCastValidator().check(KG_PAYLOAD)
    assert result.validation_passed and result.checks["shacl"] == "not_evaluated"
    assert "no ontology" in result.warnings[0].message


def test_classes_and_individuals_must_be_storable() -> None:
    payload = copy.deepcopy(KG_PAYLOAD)
    payload["entities"][2]["ontology_class"] = None
    payload["entities"].append({"id": "E_4", "label": "회사", "type": "class"})
    result = OntoCastValidator(ontology="kg").check(payload)
    assert ("class_required", "$.entities[2].ontology_class") in {(e.code, e.path) for e in result.validation_errors}
    assert "not_an_individual" in {w.code for w in result.warnings}


def test_conflicts_with_the_stored_graph(example_kg: Any) -> None:
    critic = OntoCastValidator(ontology="kg", store=example_kg, config=LENIENT)
    same = {"entities": [{"id": "p_hong", "label": "홍길동", "type": "individual", "ontology_class": "Person"}]}
    assert critic.check(same).validation_passed
    clash = copy.deepcopy(same)
    clash["entities"][0]["ontology_class"] = "Company"
    result = critic.check(clash)
    assert result.codes() == {"class_conflict"} and "Person" in result.validation_errors[0].message
    reused = {
        "entities": [
            {"id": "p_hong", "label": "홍길동", "type": "individual", "ontology_class": "Person"},
            {"id": "c_beta", "label": "베타", "type": "individual", "ontology_class": "Company"},
        ],
        "relations": [{"id": "r01", "source_id": "p_hong", "predicate": "worksFor", "target_id": "c_beta"}],
    }
    assert critic.check(reused).codes() == {"relation_conflict"}


def test_shacl_sees_the_stored_neighbourhood(example_kg: Any) -> None:
    # Alone, a second text relation for the existing edge r01 looks fine; with the stored r01 (grounded, one
    # chunk) the copy breaks "a TextRelation cites at most one chunk" and "grounded is single".
    payload = {
        "entities": [
            {"id": "p_hong", "label": "홍길동", "type": "individual", "ontology_class": "Person"},
            {"id": "c_acme", "label": "에이씨미", "type": "individual", "ontology_class": "Company"},
        ],
        "relations": [
            {
                "id": "r01",
                "source_id": "p_hong",
                "predicate": "worksFor",
                "target_id": "c_acme",
                "evidence": {"chunk_text": "다른 문장."},
            }
        ],
    }
    assert OntoCastValidator(ontology="kg", config=LENIENT).check(payload).validation_passed
    result = OntoCastValidator(ontology="kg", store=example_kg, config=LENIENT).check(payload)
    assert result.checks["shacl"] == "failed" and result.codes() == {"shacl"}
    assert all(e.path == "$.relations[0]" for e in result.validation_errors)


# --- SPARQL UPDATE gate --------------------------------------------------------------------------------------


@pytest.fixture
def critic(example_kg: Any) -> OntoCastValidator:
    return OntoCastValidator(ontology="kg", store=example_kg)


def test_insert_data_and_delete_data_are_accepted_after_a_dry_run(critic: OntoCastValidator, example_kg: Any) -> None:
    before = example_kg.dumps()
    update = (
        KG + f'INSERT DATA {{ <{ID}p_new> a kg:Person ; ont:id "p_new" ; '
        f'<http://www.w3.org/2000/01/rdf-schema#label> "새 사람" }} ; '
        f'DELETE DATA {{ <{ID}p_hong> <http://www.w3.org/2004/02/skos/core#altLabel> "홍 대표" }}'
    )
    result = critic.review_update(update)
    assert result.validation_passed, result.as_dict()
    assert result.checks == {"parse": "passed", "operations": "passed", "ontology": "passed", "shacl": "passed"}
    assert example_kg.dumps() == before  # the review never writes


@pytest.mark.parametrize(
    "update,code",
    [
        ("DELETE WHERE { ?s ?p ?o }", "update_operation"),
        ("CLEAR ALL", "update_operation"),
        ("LOAD <http://example.com/evil.ttl>", "update_operation"),
        ("DROP DEFAULT", "update_operation"),
        ("INSERT { ?s a <urn:x> } WHERE { SERVICE <http://example.com/sparql> { ?s ?p ?o } }", "update_operation"),
        ("INSERT DATA { <urn:a> <urn:b> <urn:c> } ; DELETE WHERE { ?s ?p ?o }", "update_operation"),
        ("INSERT DATA { GRAPH <urn:other> { <urn:a> <urn:b> <urn:c> } }", "update_graph"),
        ("INSERT DATA { _:x a <https://w3id.org/ont-platform/kg#Person> }", "update_blank_node"),
        ("SELECT * WHERE { ?s ?p ?o }", "update_syntax"),
        ("INSERT DATA { <urn:a> <urn:b> ", "update_syntax"),
        (KG + f"INSERT DATA {{ <{ID}p_hong> kg:knows <{ID}p_kim> }}", "unknown_predicate"),
        (KG + f"INSERT DATA {{ <{ID}p_x> a kg:Planet }}", "unknown_class"),
        (KG + f'INSERT DATA {{ <{ID}p_hong> ont:confidence "high" }}', "datatype"),
        (KG + f"INSERT DATA {{ <{ID}p_hong> kg:worksFor <{ID}pl_seoul> }}", "shacl"),
        (KG + f"DELETE DATA {{ <{ID}p_hong> kg:worksFor <{ID}c_acme> }}", "shacl"),
    ],
)
def test_everything_else_is_refused(critic: OntoCastValidator, update: str, code: str) -> None:
    result = critic.review_update(update)
    assert not result.validation_passed
    assert code in result.codes(), result.as_dict()


def test_named_graphs_only_when_allowed(example_kg: Any) -> None:
    update = 'INSERT DATA { GRAPH <urn:extra> { <urn:a> <http://www.w3.org/2000/01/rdf-schema#label> "x" } }'
    assert OntoCastValidator(ontology="kg", store=example_kg).review_update(update).codes() == {"update_graph"}
    allowed = OntoCastValidator(ontology="kg", store=example_kg, allowed_graphs=[None, "urn:extra"])
    assert allowed.review_update(update).validation_passed


def test_apply_update_runs_the_reviewed_text_or_nothing(tmp_path: Path) -> None:
    with KnowledgeGraph.open() as kg:
        kg.load(EXAMPLES / "kg")
        critic = OntoCastValidator(ontology="kg", store=kg)
        before = kg.dumps()
        with pytest.raises(ValidationFailed):
            critic.apply_update(kg, KG + f"INSERT DATA {{ <{ID}p_hong> kg:worksFor <{ID}pl_seoul> }}")
        assert kg.dumps() == before
        critic.apply_update(
            kg, KG + f'INSERT DATA {{ <{ID}p_hong> <http://www.w3.org/2004/02/skos/core#altLabel> "길동\\" 씨" }}'
        )
        rows = kg.select(f"SELECT ?l WHERE {{ <{ID}p_hong> <http://www.w3.org/2004/02/skos/core#altLabel> ?l }}")
        assert '길동" 씨' in {str(r["l"]) for r in rows}


def test_review_needs_an_ontology_and_guard_forwards_it(example_kg: Any) -> None:
    with pytest.raises(InputError):
        OntoCastValidator().review_update("INSERT DATA { <urn:a> <urn:b> <urn:c> }")
    guard = OntologyGuard("ontocast", strict=True, ontology="kg", store=example_kg)
    with pytest.raises(ValidationFailed):
        guard.review_update("CLEAR ALL")
