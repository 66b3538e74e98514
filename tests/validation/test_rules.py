"""Every rule is caught with its code and path; malformed payloads of every kind get a result, not a crash."""

from __future__ import annotations

import copy
import json
import math
from typing import Any

import pytest

from ont_platform.validation import (
    Code,
    LightweightValidator,
    OntologyExtractionResult,
    RuleConfig,
    ValidationResult,
)
from tests.validation.conftest import KG_PAYLOAD


def _with(change: dict[str, Any] | None = None, **edits: Any) -> dict[str, Any]:
    payload = copy.deepcopy(KG_PAYLOAD)
    for path, value in edits.items():
        kind, index, field = path.split("__")
        payload[kind][int(index)][field] = value
    return payload


def _errors(result: ValidationResult) -> set[tuple[str, str]]:
    return {(e.code, e.path) for e in result.validation_errors}


SEED_CASES = [
    ("entity id without E_", _with(entities__0__id="X1"), ("entity_id_prefix", "$.entities[0].id")),
    ("empty label", _with(entities__1__label=""), ("label_length", "$.entities[1].label")),
    ("blank label", _with(entities__1__label="   "), ("label_length", "$.entities[1].label")),
    ("label of 501 characters", _with(entities__1__label="가" * 501), ("label_length", "$.entities[1].label")),
    ("confidence above 1", _with(entities__0__confidence=1.5), ("confidence_range", "$.entities[0].confidence")),
    ("negative confidence", _with(relations__0__confidence=-0.1), ("confidence_range", "$.relations[0].confidence")),
    ("NaN confidence", _with(entities__0__confidence=math.nan), ("confidence_range", "$.entities[0].confidence")),
    (
        "infinite confidence",
        _with(relations__1__confidence=math.inf),
        ("confidence_range", "$.relations[1].confidence"),
    ),
    (
        "evidence confidence",
        _with(entities__0__evidence={"confidence": 7}),
        ("confidence_range", "$.entities[0].evidence[0].confidence"),
    ),
    ("type outside class/individual/property", _with(entities__2__type="thing"), ("entity_type", "$.entities[2].type")),
    ("relation id without R_", _with(relations__0__id="rel-1"), ("relation_id_prefix", "$.relations[0].id")),
    ("unknown source", _with(relations__0__source_id="E_9"), ("dangling_endpoint", "$.relations[0].source_id")),
    ("unknown target", _with(relations__1__target_id="E_404"), ("dangling_endpoint", "$.relations[1].target_id")),
    ("self loop", _with(relations__1__target_id="E_2"), ("self_loop", "$.relations[1]")),
    (
        "negative offset",
        _with(entities__0__evidence={"offset": -3}),
        ("offset_range", "$.entities[0].evidence[0].offset"),
    ),
    (
        "source_url not http",
        _with(entities__0__evidence={"source_url": "javascript:alert(1)"}),
        ("source_url", "$.entities[0].evidence[0].source_url"),
    ),
    (
        "blank chunk text",
        _with(relations__0__evidence={"chunk_text": " "}),
        ("chunk_text", "$.relations[0].evidence[0].chunk_text"),
    ),
    ("blank predicate", _with(relations__1__predicate=" "), ("invalid_predicate", "$.relations[1].predicate")),
]


@pytest.mark.parametrize("case,payload,expected", SEED_CASES, ids=[c[0] for c in SEED_CASES])
def test_every_seed_rule_is_caught(case: str, payload: dict[str, Any], expected: tuple[str, str]) -> None:
    result = LightweightValidator().check(payload)
    assert not result.validation_passed
    assert expected in _errors(result)
    assert result.checks["rules"] == "failed"


def test_duplicate_ids_among_entities_and_among_relations() -> None:
    payload = copy.deepcopy(KG_PAYLOAD)
    payload["entities"].append(dict(payload["entities"][0]))
    payload["relations"].append(dict(payload["relations"][1]))
    errors = _errors(LightweightValidator().check(payload))
    assert ("duplicate_id", "$.entities[3].id") in errors
    assert ("duplicate_id", "$.relations[2].id") in errors


@pytest.mark.parametrize("label", ["value", "Keyword", " TYPE ", "name", "이름", "값"])
def test_meaningless_labels_warn_without_failing(label: str) -> None:
    result = LightweightValidator().check(_with(entities__2__label=label))
    assert result.validation_passed
    assert [(w.code, w.path) for w in result.warnings] == [("meaningless_label", "$.entities[2].label")]


ONTOLOGY_CASES = [
    ("unknown class", _with(entities__2__ontology_class="Planet"), ("unknown_class", "$.entities[2].ontology_class")),
    ("unknown predicate", _with(relations__0__predicate="knows"), ("unknown_predicate", "$.relations[0].predicate")),
    ("domain", _with(entities__0__ontology_class="City"), ("domain_violation", "$.relations[0].source_id")),
    ("range", _with(entities__1__ontology_class="Person"), ("range_violation", "$.relations[0].target_id")),
    (
        "attribute the domain lacks",
        _with(entities__0__attributes={"age": 3}),
        ("unknown_attribute", "$.entities[0].attributes.age"),
    ),
]


@pytest.mark.parametrize("case,payload,expected", ONTOLOGY_CASES, ids=[c[0] for c in ONTOLOGY_CASES])
def test_every_ontology_rule_is_caught(case: str, payload: dict[str, Any], expected: tuple[str, str]) -> None:
    assert LightweightValidator().check(payload).validation_passed  # not a seed-rule problem ...
    result = LightweightValidator(ontology="kg").check(payload)  # ... but an ontology one
    assert expected in _errors(result)
    assert result.checks["ontology"] == "failed"


def _address(**attrs: Any) -> dict[str, Any]:
    return {
        "entities": [
            {
                "id": "E_1",
                "label": "deposit",
                "type": "individual",
                "ontology_class": "ExchangeDeposit",
                "attributes": attrs,
            }
        ]
    }


@pytest.mark.parametrize(
    "attrs,expected",
    [
        ({"addressNorm": 12}, ("datatype", "$.entities[0].attributes.addressNorm")),
        ({"addressNorm": ["0x" + "a" * 40, "0x" + "b" * 40]}, ("cardinality", "$.entities[0].attributes.addressNorm")),
        ({"txHash": "0xaa1"}, ("domain_violation", "$.entities[0].attributes.txHash")),
        ({"blockNumber": "12"}, ("domain_violation", "$.entities[0].attributes.blockNumber")),
    ],
)
def test_datatype_cardinality_and_attribute_domain(attrs: dict[str, Any], expected: tuple[str, str]) -> None:
    assert expected in _errors(LightweightValidator(ontology="onchain").check(_address(**attrs)))


def test_datatypes_are_checked_by_range() -> None:
    v = LightweightValidator(ontology="pages")
    page = {
        "id": "E_1",
        "label": "home",
        "type": "individual",
        "ontology_class": "WebPage",
        "attributes": {
            "url": "https://example.com/",
            "impressions_30d": 10,
            "ctr_30d": 0.5,
            "published_at": "2024-01-31",
        },
    }
    assert v.check({"entities": [page]}).validation_passed
    for name, bad in (
        ("impressions_30d", 1.5),
        ("impressions_30d", True),
        ("ctr_30d", "lots"),
        ("published_at", "31/01/2024"),
        ("url", "not a uri"),
    ):
        broken = copy.deepcopy(page)
        broken["attributes"][name] = bad
        assert ("datatype", f"$.entities[0].attributes.{name}") in _errors(v.check({"entities": [broken]})), name


def test_class_names_resolve_loosely_but_not_wrongly() -> None:
    v = LightweightValidator(ontology="kg")
    for name in ("Person", "person", "kg:Person", "https://w3id.org/ont-platform/kg#Person", "사람", "인물"):
        assert v.check(_with(entities__0__ontology_class=name)).validation_passed, name
    assert not v.check(_with(entities__0__ontology_class="Persons")).validation_passed


def test_individual_without_class_is_a_warning_with_an_ontology() -> None:
    payload = _with(entities__2__ontology_class=None)
    result = LightweightValidator(ontology="kg").check(payload)
    assert result.validation_passed
    assert ("class_missing", "$.entities[2].ontology_class") in {(w.code, w.path) for w in result.warnings}


def test_id_prefix_can_be_reported_as_a_warning() -> None:
    result = LightweightValidator(config=RuleConfig(id_prefix_severity="warning")).check(
        _with(entities__0__id="X1", relations__0__source_id="X1")
    )
    assert result.validation_passed
    assert [w.code for w in result.warnings] == ["entity_id_prefix"]


MALFORMED = [
    None,
    0,
    1.5,
    math.nan,
    True,
    "",
    "null",
    "[]",
    "{",
    '{"entities": ',
    "NaN",
    [],
    [{}],
    {},
    {"entities": None},
    {"entities": "E_1"},
    {"entities": [None]},
    {"entities": [[]]},
    {"entities": [{"id": None}]},
    {"entities": [{"id": 1, "label": 2, "type": 3}]},
    {"entities": [], "relations": {"id": "R_1"}},
    {"entities": [{"id": "E_1", "label": "a", "type": "individual", "confidence": "0.9"}]},
    {"entities": [{"id": "E_1", "label": "a", "type": "individual", "confidence": True}]},
    {"entities": [{"id": "E_1", "label": "a", "type": "individual", "evidence": 5}]},
    {"entities": [{"id": "E_1", "label": "a", "type": "individual", "attributes": {"x": {"y": 1}}}]},
    {"entities": [{"id": "E_1", "label": "a", "type": "individual", "attributes": []}]},
    {"entities": [], "relations": [{"id": "R_1"}]},
    {"entities": [{"id": "E_1", "label": "a", "type": "individual", "evidence": [{"offset": 1.5}]}]},
    b"\xff\xfe",
    b'{"entities": []',
    bytearray(b"[1]"),
    "[" * 50_000,
    {"entities": [{}] * 3},
    object(),
    {1, 2},
    ("entities",),
    {"entities": [{"id": "E_1", "label": "a", "type": "individual"}] * 2 + [5]},
]


# the same ids in every process (pytest-xdist compares its workers' collections): no object address
@pytest.mark.parametrize(
    "payload", MALFORMED, ids=[repr(p)[:40] if type(p) is not object else "object()" for p in MALFORMED]
)
def test_malformed_payloads_get_a_result(payload: Any) -> None:
    result = LightweightValidator(ontology="kg").check(payload)
    assert isinstance(result, ValidationResult)
    assert not result.validation_passed
    assert result.checks["structure"] == "failed"
    assert all(e.path.startswith("$") and e.code and e.message for e in result.validation_errors)
    assert result.reask_message().startswith("Your extraction did not pass")
    json.dumps(result.as_dict())  # always serialisable


def test_structure_codes_and_paths() -> None:
    v = LightweightValidator()
    assert _errors(v.check("{")) == {("invalid_json", "$")}
    assert _errors(v.check([])) == {("not_an_object", "$")}
    assert _errors(v.check({})) == {("missing_field", "$.entities")}
    assert ("wrong_type", "$.entities[0].confidence") in _errors(
        v.check({"entities": [{"id": "E_1", "label": "a", "type": "individual", "confidence": True}]})
    )
    assert ("missing_field", "$.relations[0].target_id") in _errors(
        v.check({"entities": [], "relations": [{"id": "R_1", "source_id": "E_1", "predicate": "p"}]})
    )


def test_payload_forms_give_the_same_result() -> None:
    v = LightweightValidator(ontology="kg")
    model = OntologyExtractionResult.model_validate(KG_PAYLOAD)
    text = json.dumps(KG_PAYLOAD, ensure_ascii=False)
    fenced = f"```json\n{text}\n```"
    results = [v.check(p).as_dict() for p in (KG_PAYLOAD, text, text.encode(), fenced, model)]
    assert all(r == results[0] for r in results)
    assert results[0]["validation_passed"]


def test_size_limits() -> None:
    v = LightweightValidator(config=RuleConfig(max_payload_chars=100, max_items=2))
    assert _errors(v.check("x" * 101)) == {("too_large", "$")}
    many = {"entities": [{"id": f"E_{i}", "label": "a", "type": "individual"} for i in range(3)]}
    assert _errors(v.check(many)) == {("too_large", "$.entities")}


def test_issue_list_is_bounded() -> None:
    payload = {"entities": [{"id": f"X{i}", "label": "", "type": "?"} for i in range(50)]}
    result = LightweightValidator(config=RuleConfig(max_issues=10)).check(payload)
    assert len(result.validation_errors) == 11
    assert result.validation_errors[-1].code == Code.TOO_LARGE


def test_reask_message_names_every_error_and_suggests_fixes() -> None:
    result = LightweightValidator(ontology="kg").check(_with(entities__0__id="X1", relations__0__predicate="knows"))
    message = result.reask_message()
    for issue in result.validation_errors:
        assert issue.path in message and issue.code in message
    assert "worksFor" in message  # the known relations are suggested
    assert LightweightValidator().check(KG_PAYLOAD).reask_message() == ""


def test_annotated_extraction_carries_the_validation_fields() -> None:
    result = LightweightValidator().check(_with(entities__2__label="value"))
    annotated = result.annotated()
    assert annotated is not None and annotated.validation_passed is True
    assert [w.code for w in annotated.warnings] == ["meaningless_label"]
    assert LightweightValidator().check("{").annotated() is None


# --- every independent fault in one pass ---------------------------------------------------------------------


def _many() -> dict[str, Any]:
    """KG_PAYLOAD with five relations, so that faults can sit far apart (entity 0, relation 3, ...)."""
    payload = copy.deepcopy(KG_PAYLOAD)
    payload["relations"] += [
        {"id": "R_3", "source_id": "E_1", "predicate": "worksFor", "target_id": "E_2"},
        {"id": "R_4", "source_id": "E_2", "predicate": "locatedIn", "target_id": "E_3"},
        {"id": "R_5", "source_id": "E_1", "predicate": "worksFor", "target_id": "E_2"},
    ]
    assert LightweightValidator(ontology="kg").check(payload).validation_passed
    return payload


def test_structural_faults_do_not_hide_each_other_nor_the_rules() -> None:
    payload = _many()
    payload["entities"][0]["label"] = 5  # wrong_type in entity 0
    payload["relations"][3]["confidence"] = "0.5"  # wrong_type in relation 3
    del payload["relations"][1]["predicate"]  # missing_field
    payload["entities"][2]["ontology_class"] = "Planet"  # unknown_class (ontology) on a well-formed entity
    payload["relations"][4]["confidence"] = 1.5  # confidence_range (seed rule) on a well-formed relation
    result = LightweightValidator(ontology="kg").check(payload)
    assert _errors(result) == {
        ("wrong_type", "$.entities[0].label"),
        ("wrong_type", "$.relations[3].confidence"),
        ("missing_field", "$.relations[1].predicate"),
        ("unknown_class", "$.entities[2].ontology_class"),
        ("confidence_range", "$.relations[4].confidence"),
    }
    assert len(result.validation_errors) == 5
    assert result.checks == {"structure": "failed", "rules": "failed", "ontology": "failed"}
    assert result.extraction is None  # nothing partial is ever handed on as the extraction
    message = result.reask_message()
    assert all(e.path in message for e in result.validation_errors)


def test_relations_to_a_left_out_entity_are_not_called_dangling() -> None:
    payload = _many()
    payload["entities"][0]["label"] = 5  # E_1 is left out: relations from E_1 are not dangling
    payload["relations"][3]["target_id"] = "E_404"  # but this one really is
    assert _errors(LightweightValidator().check(payload)) == {
        ("wrong_type", "$.entities[0].label"),
        ("dangling_endpoint", "$.relations[3].target_id"),
    }
    payload["entities"][1]["id"] = 2  # an unreadable id: any endpoint may have meant it
    assert _errors(LightweightValidator().check(payload)) == {
        ("wrong_type", "$.entities[0].label"),
        ("wrong_type", "$.entities[1].id"),
    }


def test_without_usable_entities_relations_are_still_checked() -> None:
    payload = _many()
    payload["entities"] = "E_1, E_2, E_3"
    payload["relations"][2]["id"] = "rel-3"
    payload["relations"][4]["target_id"] = "E_1"  # a self loop needs no entity list
    assert _errors(LightweightValidator().check(payload)) == {
        ("wrong_type", "$.entities"),
        ("relation_id_prefix", "$.relations[2].id"),
        ("self_loop", "$.relations[4]"),
    }


def test_salvaged_paths_and_references_are_the_payloads() -> None:
    payload = copy.deepcopy(KG_PAYLOAD)
    payload["entities"].insert(0, {"id": "E_0", "label": None, "type": "individual"})
    payload["entities"].append(dict(payload["entities"][2]))  # E_2 again, at 4
    result = LightweightValidator().check(payload)
    assert _errors(result) == {("wrong_type", "$.entities[0].label"), ("duplicate_id", "$.entities[4].id")}
    duplicate = next(e for e in result.validation_errors if e.code == "duplicate_id")
    assert duplicate.message.endswith("already used by $.entities[2]")


def test_a_partial_run_that_finds_nothing_is_not_a_pass() -> None:
    payload = _many()
    payload["relations"][0]["evidence"] = [{"offset": "12"}]
    result = LightweightValidator(ontology="kg").check(payload)
    assert _errors(result) == {("wrong_type", "$.relations[0].evidence[0].offset")}
    assert result.checks == {"structure": "failed", "rules": "not_evaluated", "ontology": "not_evaluated"}
    assert "source_id and target_id" not in " ".join(result.suggestions)


def test_salvaged_findings_respect_the_issue_bound() -> None:
    payload = {
        "entities": [{"id": 1, "label": "a", "type": "individual"}]
        + [{"id": f"X{i}", "label": "", "type": "?"} for i in range(50)]
    }
    result = LightweightValidator(config=RuleConfig(max_issues=10)).check(payload)
    assert len(result.validation_errors) == 11
    assert [e.code for e in result.validation_errors].count(Code.TOO_LARGE) == 1
    assert result.validation_errors[-1].code == Code.TOO_LARGE
