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
    return [pytest.param(name, domain, id=f"{name}-{domain}") for name, domains in table.items()
            for domain in domains]


# Every validator is fuzzed; lightweight in every domain, the slower ones (SHACL for ontocast, guardrails'
# machinery) where they add something: the domains with shapes that rules alone do not cover, and kg.
VALID = _cases({"lightweight": [None, "kg", "onchain", "pages"], "ontocast": ["kg", "onchain", "pages"],
                "guardrails": [None, "kg"]})
BROKEN = _cases({"lightweight": [None, "kg", "onchain", "pages"], "ontocast": ["kg", "onchain"],
                 "guardrails": [None, "kg"]})
EXAMPLES = {"lightweight": 25, "ontocast": 10, "guardrails": 15}
FAST: dict[str, Any] = {"deadline": None, "suppress_health_check": [
    HealthCheck.too_slow, HealthCheck.filter_too_much, HealthCheck.function_scoped_fixture]}

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
                _cache[key] = {"lightweight": LightweightValidator, "ontocast": OntoCastValidator}[name](ontology=domain)
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
