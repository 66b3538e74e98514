"""Property tests with the shipped strategies, for all three validators: no valid payload rejected, no payload
broken by a named rule accepted (and that rule reported), no crash on junk."""

from __future__ import annotations

from typing import Any

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from ont_platform.testing import (
    ONTOLOGY_RULES,
    SEED_RULES,
    breakable,
    broken_payloads,
    malformed_payloads,
    valid_payloads,
)
from ont_platform.validation import (
    LightweightValidator,
    OntoCastValidator,
    ValidationResult,
    Validator,
)


def _cases(table: dict[str, list[str | None]]) -> list[Any]:
    return [pytest.param(name, domain, id=f"{name}-{domain}") for name, domains in table.items() for domain in domains]


# Every validator is fuzzed; lightweight in every domain, the slower ones (SHACL for ontocast, guardrails'
# machinery) where they add something: the domains with shapes that rules alone do not cover, and kg.
VALID = _cases(
    {
        "lightweight": [None, "kg", "onchain", "pages"],
        "ontocast": ["kg", "onchain", "pages"],
        "guardrails": [None, "kg"],
    }
)
BROKEN = _cases(
    {"lightweight": [None, "kg", "onchain", "pages"], "ontocast": ["kg", "onchain"], "guardrails": [None, "kg"]}
)
EXAMPLES = {"lightweight": 25, "ontocast": 10, "guardrails": 15}
FAST: dict[str, Any] = {
    "deadline": None,
    "suppress_health_check": [HealthCheck.too_slow, HealthCheck.filter_too_much, HealthCheck.function_scoped_fixture],
}

_cache: dict[tuple[str, str | None], Validator] = {}


@pytest.fixture
def make(request: pytest.FixtureRequest) -> Any:
    def factory(name: str, domain: str | None) -> Validator:
        key = (name, domain)
        if key not in _cache:
            if name == "guardrails":
                setup = request.getfixturevalue("guardrails_setup" if domain == "kg" else "guardrails_plain")
                if domain in (None, "kg"):
                    _cache[key] = setup[0] if domain == "kg" else setup
                else:
                    from ont_platform.validation import GuardrailsValidator

                    _cache[key] = GuardrailsValidator(ontology=domain)
            else:
                _cache[key] = {"lightweight": LightweightValidator, "ontocast": OntoCastValidator}[name](
                    ontology=domain
                )
        return _cache[key]

    return factory


@pytest.mark.parametrize("name,domain", VALID)
def test_no_valid_payload_is_rejected(name: str, domain: str | None, make: Any) -> None:
    validator = make(name, domain)

    @settings(max_examples=EXAMPLES[name], **FAST)  # type: ignore[arg-type]
    @given(valid_payloads(domain))
    def check(payload: dict[str, Any]) -> None:
        result = validator.check(payload)
        assert result.validation_passed, result.as_dict()

    check()


@pytest.mark.parametrize("name,domain", BROKEN)
def test_no_broken_payload_is_accepted(name: str, domain: str | None, make: Any) -> None:
    validator = make(name, domain)
    rules = [r for r in SEED_RULES + ONTOLOGY_RULES if breakable(r, domain)]

    @settings(max_examples=EXAMPLES[name] + 10, **FAST)  # type: ignore[arg-type]
    @given(st.data())
    def check(data: st.DataObject) -> None:
        rule = data.draw(st.sampled_from(rules), label="rule")
        payload = data.draw(broken_payloads(rule, domain), label="payload")
        result = validator.check(payload)
        assert not result.validation_passed and rule in result.codes(), (rule, result.as_dict())

    check()


@pytest.mark.parametrize("name,domain", _cases({"lightweight": ["kg"], "ontocast": ["kg"], "guardrails": ["kg"]}))
def test_no_crash_on_junk(name: str, domain: str, make: Any) -> None:
    validator = make(name, domain)

    @settings(max_examples=EXAMPLES[name] + 25, **FAST)  # type: ignore[arg-type]
    @given(malformed_payloads())
    def check(payload: Any) -> None:
        result = validator.check(payload)
        assert isinstance(result, ValidationResult)
        assert result.validation_passed == (not result.validation_errors)

    check()


def test_strategies_refuse_impossible_requests() -> None:
    with pytest.raises(ValueError):
        broken_payloads("no_such_rule")
    with pytest.raises(ValueError):
        broken_payloads("unknown_class")  # an ontology rule needs a domain
    with pytest.raises(ValueError):
        broken_payloads("self_loop", domain="pages")  # pages has no relations
    assert not breakable("domain_violation", "onchain")  # every address class fits transfer


# --- every independent fault in one pass ---------------------------------------------------------------------

_FIELDS = {
    "entities": ("id", "label", "type", "confidence"),
    "relations": ("id", "source_id", "predicate", "target_id", "confidence"),
}
_NOT_A_STRING = st.sampled_from([5, 2.5, True, None, [], {}, ["E_1"], {"id": "E_1"}])
_NOT_A_NUMBER = st.sampled_from(["0.5", True, False, [], {}, [0.5]])


def _positions(payload: dict[str, Any]) -> list[tuple[str, int, str]]:
    return [(kind, i, name) for kind, names in _FIELDS.items() for i in range(len(payload[kind])) for name in names]


def _path(kind: str, i: int, name: str) -> str:
    return f"$.{kind}[{i}].{name}"


@st.composite
def _wrong_typed(draw: st.DrawFn, domain: str | None) -> tuple[dict[str, Any], set[str], list[tuple[str, int]]]:
    """A valid payload with 1 to 5 fields replaced by values of the wrong JSON type; returns the payload, the
    paths of those fields, and the items (kind, index) left untouched."""
    payload = draw(valid_payloads(domain))
    faults = draw(st.lists(st.sampled_from(_positions(payload)), min_size=1, max_size=5, unique=True), label="at")
    for kind, i, name in faults:
        payload[kind][i][name] = draw(_NOT_A_NUMBER if name == "confidence" else _NOT_A_STRING)
    hit = {(kind, i) for kind, i, _ in faults}
    clean = [(kind, i) for kind in _FIELDS for i in range(len(payload[kind])) if (kind, i) not in hit]
    return payload, {_path(*f) for f in faults}, clean


INDEPENDENT = _cases({"lightweight": [None, "kg"], "ontocast": [None]})


@pytest.mark.parametrize("name,domain", INDEPENDENT)
def test_every_injected_wrong_type_is_reported_at_its_path(name: str, domain: str | None, make: Any) -> None:
    validator = make(name, domain)

    @settings(max_examples=60, **FAST)  # type: ignore[arg-type]
    @given(_wrong_typed(domain))
    def check(case: tuple[dict[str, Any], set[str], list[tuple[str, int]]]) -> None:
        payload, paths, _ = case
        result = validator.check(payload)
        # exactly those k faults: none hidden by another, none made up from a consequence of another
        # (a relation to an entity whose id is now unreadable is not reported as dangling)
        assert sorted((e.code, e.path) for e in result.validation_errors) == sorted(("wrong_type", p) for p in paths), (
            result.as_dict()
        )

    check()


@pytest.mark.parametrize("name,domain", INDEPENDENT)
def test_rule_faults_are_not_hidden_by_wrong_types(name: str, domain: str | None, make: Any) -> None:
    validator = make(name, domain)

    @settings(max_examples=60, **FAST)  # type: ignore[arg-type]
    @given(st.data())
    def check(data: st.DataObject) -> None:
        payload, paths, clean = data.draw(_wrong_typed(domain), label="payload")
        expected = {("wrong_type", p) for p in paths}
        if clean:
            for kind, i in data.draw(st.lists(st.sampled_from(clean), max_size=3, unique=True), label="broken"):
                choices = ["confidence", "label"] if kind == "entities" else ["confidence", "predicate"]
                field = data.draw(st.sampled_from(choices), label="field")
                if field == "confidence":
                    payload[kind][i]["confidence"] = data.draw(st.sampled_from([1.5, -0.25, 7.0]))
                    expected.add(("confidence_range", _path(kind, i, "confidence")))
                elif field == "label":
                    payload[kind][i]["label"] = " "
                    expected.add(("label_length", _path(kind, i, "label")))
                else:
                    payload[kind][i]["predicate"] = ""
                    expected.add(("invalid_predicate", _path(kind, i, "predicate")))
        result = validator.check(payload)
        assert {(e.code, e.path) for e in result.validation_errors} == expected, result.as_dict()
        assert len(result.validation_errors) == len(expected)
        assert result.checks["structure"] == "failed"
        assert result.checks["rules"] == ("failed" if len(expected) > len(paths) else "not_evaluated")

    check()


def test_the_guard_reports_them_all_for_json_text_too() -> None:
    from ont_platform.validation import OntologyGuard

    guard = OntologyGuard()

    @settings(max_examples=30, **FAST)  # type: ignore[arg-type]
    @given(_wrong_typed(None))
    def check(case: tuple[dict[str, Any], set[str], list[tuple[str, int]]]) -> None:
        import json

        payload, paths, _ = case
        for form in (payload, json.dumps(payload), f"```json\n{json.dumps(payload)}\n```"):
            assert {e.path for e in guard.validate_sync(form).validation_errors} == paths

    check()
