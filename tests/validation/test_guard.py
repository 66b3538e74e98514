"""OntologyGuard: strict mode, sync and async agreement, bounded re-asks; the registry and entry-point plugins."""

from __future__ import annotations

import asyncio
import copy
import json
import sys
import textwrap
from pathlib import Path
from typing import Any

import pytest

from ont_platform.errors import (
    InputError,
    OntError,
    UnknownValidator,
    ValidationFailed,
    ValidatorError,
)
from ont_platform.testing import ScriptedLLM, StaticValidator
from ont_platform.validation import (
    ENTRY_POINT_GROUP,
    LightweightValidator,
    OntologyGuard,
    ValidationResult,
    Validator,
    ValidatorFactory,
    available,
    create,
    register,
    unregister,
)
from tests.validation.conftest import KG_PAYLOAD

BAD = {"entities": [{"id": "X1", "label": "홍길동", "type": "individual"}]}


def test_non_strict_returns_errors_and_strict_raises_with_the_same_result() -> None:
    result = OntologyGuard("lightweight").validate_sync(BAD)
    assert not result.validation_passed
    with pytest.raises(ValidationFailed) as info:
        OntologyGuard("lightweight", strict=True).validate_sync(BAD)
    assert isinstance(info.value, OntError)
    assert info.value.result.as_dict() == result.as_dict()  # type: ignore[attr-defined]
    assert [e.code for e in info.value.errors] == ["entity_id_prefix"]  # type: ignore[attr-defined]
    assert "entity_id_prefix" in str(info.value)


@pytest.mark.parametrize("payload", [None, "{", [1, 2], {"entities": [{"id": 5}]}, float("nan"), b"\x00"])
def test_strict_mode_never_leaks_a_bare_type_or_key_error(payload: Any) -> None:
    guard = OntologyGuard("lightweight", strict=True, ontology="kg")
    with pytest.raises(ValidationFailed):
        guard.validate_sync(payload)
    with pytest.raises(ValidationFailed):
        asyncio.run(guard.validate(payload))


@pytest.mark.parametrize("validator", ["lightweight", "ontocast"])
@pytest.mark.parametrize("payload", [KG_PAYLOAD, BAD, "not json", {"entities": []}])
def test_async_and_sync_agree(validator: str, payload: Any) -> None:
    guard = OntologyGuard(validator, ontology="kg")
    assert asyncio.run(guard.validate(payload)).as_dict() == guard.validate_sync(payload).as_dict()


def test_reask_fixes_the_output_within_the_bound() -> None:
    llm = ScriptedLLM([{"entities": [{"id": "X2", "label": "a", "type": "individual"}]}, KG_PAYLOAD])
    result = OntologyGuard("lightweight", ontology="kg", llm=llm, max_reasks=2).validate_sync(BAD)
    assert result.validation_passed and result.attempts == 3
    assert len(llm.messages) == 2
    assert "$.entities[0].id (entity_id_prefix)" in llm.messages[0]
    assert result.extraction is not None and result.extraction.entities[0].id == "E_1"  # the corrected output


def test_reask_stops_after_max_reasks() -> None:
    llm = ScriptedLLM([BAD, BAD, BAD, BAD])
    result = OntologyGuard("lightweight", llm=llm, max_reasks=2).validate_sync(BAD)
    assert not result.validation_passed and result.attempts == 3 and len(llm.messages) == 2
    with pytest.raises(ValidationFailed):
        OntologyGuard("lightweight", strict=True, llm=ScriptedLLM([BAD]), max_reasks=1).validate_sync(BAD)


def test_no_reask_when_the_payload_passes() -> None:
    llm = ScriptedLLM([])
    assert OntologyGuard("lightweight", llm=llm).validate_sync(KG_PAYLOAD).attempts == 1
    assert llm.messages == []


def test_async_llm_with_async_validate_and_refused_by_sync_validate() -> None:
    calls: list[str] = []

    async def llm(message: str) -> str:
        calls.append(message)
        await asyncio.sleep(0)
        return json.dumps(KG_PAYLOAD)

    guard = OntologyGuard("lightweight", llm=llm, max_reasks=1)
    result = asyncio.run(guard.validate(BAD))
    assert result.validation_passed and result.attempts == 2 and len(calls) == 1
    with pytest.raises(InputError, match="async"):
        guard.validate_sync(BAD)


def test_llm_errors_reach_the_caller() -> None:
    def broken(message: str) -> str:
        raise ConnectionError("model down")

    with pytest.raises(ValidatorError) as info:
        OntologyGuard("lightweight", llm=broken).validate_sync(BAD)
    assert isinstance(info.value.__cause__, ConnectionError)


@pytest.mark.parametrize("bad", [-1, 11, 1.5, True, "2"])
def test_max_reasks_is_bounded(bad: Any) -> None:
    with pytest.raises(InputError):
        OntologyGuard("lightweight", max_reasks=bad)


def test_a_validator_instance_can_be_passed() -> None:
    validator = StaticValidator([StaticValidator.failing("custom")])
    guard = OntologyGuard(validator, strict=False)
    assert guard.validate_sync({}).codes() == {"custom"}
    assert validator.payloads == [{}]
    with pytest.raises(InputError):
        OntologyGuard(validator, ontology="kg")


def test_a_crashing_validator_is_a_validator_error() -> None:
    class Crashing(Validator):
        name = "crashing"

        def check(self, payload: Any) -> ValidationResult:
            return {}[payload]  # type: ignore[no-any-return]

    with pytest.raises(ValidatorError, match="KeyError"):
        OntologyGuard(Crashing()).validate_sync("x")


# --- registry ------------------------------------------------------------------------------------------------


def test_registry_creates_builtins_by_name() -> None:
    assert {"lightweight", "guardrails", "ontocast"} <= set(available())
    assert isinstance(create("lightweight"), LightweightValidator)
    assert isinstance(ValidatorFactory.create("LightWeight", ontology="kg"), LightweightValidator)
    with pytest.raises(UnknownValidator) as info:
        OntologyGuard("nonexistent")
    assert isinstance(info.value, InputError) and "lightweight" in str(info.value)
    with pytest.raises(ValidatorError):
        create("lightweight", no_such_option=1)


def test_register_in_code() -> None:
    register("always-fails", lambda **_: StaticValidator([StaticValidator.failing("nope")]))
    try:
        assert "always-fails" in available()
        assert OntologyGuard("always-fails").validate_sync(KG_PAYLOAD).codes() == {"nope"}
        with pytest.raises(ValidatorError):
            register("always-fails", StaticValidator)
        register("always-fails", StaticValidator, replace=True)
        with pytest.raises(ValidatorError, match="not a Validator"):
            register("not-a-validator", lambda **_: object())
            create("not-a-validator")
    finally:
        unregister("always-fails")
        unregister("not-a-validator")


PLUGIN = '''
from ont_platform.validation import Validator
from ont_platform.validation.base import evaluate, make_result


class NoLatinValidator(Validator):
    """The seed rules, and Latin letters in labels are errors."""

    name = "nolatin"

    def check(self, payload):
        extraction, findings, checks = evaluate(payload, self.config, self.index)
        for i, entity in enumerate(extraction.entities if extraction else []):
            if any("a" <= ch.lower() <= "z" for ch in entity.label):
                findings.error("latin_label", f"$.entities[{i}].label", "labels are written in Hangul here")
        return make_result(self.name, findings, checks, extraction)


def not_a_validator(**options):
    return "nothing"
'''


def _install_plugin(root: Path, entries: str) -> None:
    (root / "ont_test_plugin").mkdir()
    (root / "ont_test_plugin" / "__init__.py").write_text(textwrap.dedent(PLUGIN), encoding="utf-8")
    info = root / "ont_test_plugin-0.1.dist-info"
    info.mkdir()
    (info / "METADATA").write_text("Metadata-Version: 2.1\nName: ont-test-plugin\nVersion: 0.1\n", encoding="utf-8")
    (info / "entry_points.txt").write_text(f"[{ENTRY_POINT_GROUP}]\n{entries}", encoding="utf-8")


def test_entry_point_plugin_is_found_and_loaded_lazily(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    _install_plugin(
        tmp_path,
        "nolatin = ont_test_plugin:NoLatinValidator\n"
        "broken = ont_test_plugin_missing:Nothing\n"
        "bogus = ont_test_plugin:not_a_validator\n",
    )
    monkeypatch.syspath_prepend(str(tmp_path))
    try:
        assert {"nolatin", "broken", "bogus"} <= set(available())
        assert "ont_test_plugin" not in sys.modules  # listed, not imported
        guard = OntologyGuard("nolatin", ontology="kg")
        assert guard.validate_sync(KG_PAYLOAD).validation_passed
        latin = copy.deepcopy(KG_PAYLOAD)
        latin["entities"][1]["label"] = "Acme"
        result = guard.validate_sync(latin)
        assert result.codes() == {"latin_label"} and result.validator == "nolatin"
        with pytest.raises(ValidatorError, match="cannot be loaded"):
            create("broken")
        with pytest.raises(ValidatorError, match="not a Validator"):
            create("bogus")
    finally:
        for name in ("nolatin", "broken", "bogus"):
            unregister(name)
        sys.modules.pop("ont_test_plugin", None)
