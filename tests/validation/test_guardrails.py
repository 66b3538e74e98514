"""The guardrails validator: same verdicts as lightweight, guardrails' own re-ask loop, and not one network call.

tests/conftest.py already refuses connections outside loopback for the whole suite; these tests go further and
record every connect, datagram and DNS lookup (loopback included) and require that there were none, also with
a hostile ``~/.guardrailsrc`` that turns metrics and remote inference on.
"""

from __future__ import annotations

import asyncio
import copy
import json
import os
import subprocess
import sys
import textwrap
from pathlib import Path
from typing import Any

import pytest

from ont_platform.errors import MissingDependency
from ont_platform.testing import ScriptedLLM
from ont_platform.validation import LightweightValidator, OntologyGuard
from tests.validation.conftest import KG_PAYLOAD, record_network
from tests.validation.test_rules import MALFORMED, ONTOLOGY_CASES, SEED_CASES

ROOT = Path(__file__).resolve().parents[2]
HOSTILE_RC = "id=someone\ntoken=secret\nenable_metrics=true\nuse_remote_inferencing=true\n"


def test_creating_the_validator_made_no_network_call(guardrails_setup: tuple[Any, list[Any]]) -> None:
    _, attempts = guardrails_setup
    assert attempts == []


@pytest.mark.parametrize(
    "case,payload,expected", SEED_CASES + ONTOLOGY_CASES, ids=[c[0] for c in SEED_CASES + ONTOLOGY_CASES]
)
def test_same_verdict_and_codes_as_lightweight(
    guardrails_setup: tuple[Any, list[Any]], case: str, payload: dict[str, Any], expected: tuple[str, str]
) -> None:
    validator, _ = guardrails_setup
    with record_network() as attempts:
        result = validator.check(payload)
    assert attempts == []
    reference = LightweightValidator(ontology="kg").check(payload)
    assert expected in {(e.code, e.path) for e in result.validation_errors}
    assert [e.model_dump() for e in result.validation_errors] == [e.model_dump() for e in reference.validation_errors]
    assert result.checks["guardrails"] == "failed"


def test_valid_payload_passes_with_warnings_kept(guardrails_setup: tuple[Any, list[Any]]) -> None:
    validator, _ = guardrails_setup
    payload = copy.deepcopy(KG_PAYLOAD)
    payload["entities"][2]["label"] = "value"
    result = validator.check(payload)
    assert result.validation_passed and result.checks["guardrails"] == "passed"
    assert [w.code for w in result.warnings] == ["meaningless_label"]


@pytest.mark.parametrize("payload", MALFORMED[:24], ids=[repr(p)[:40] for p in MALFORMED[:24]])
def test_malformed_payloads_get_a_result(guardrails_setup: tuple[Any, list[Any]], payload: Any) -> None:
    validator, _ = guardrails_setup
    result = validator.check(payload)
    assert not result.validation_passed and result.checks["structure"] == "failed"


def test_coercion_does_not_let_wrong_types_through(guardrails_plain: Any) -> None:
    # guardrails coerces true to 1.0 and 5 to "5" before its schema check; the contract does not.
    for entity in (
        {"id": "E_1", "label": 5, "type": "individual"},
        {"id": "E_1", "label": "a", "type": "individual", "confidence": True},
        {"id": "E_1", "label": "a", "type": "individual", "confidence": "0.5"},
    ):
        result = guardrails_plain.check({"entities": [entity]})
        assert not result.validation_passed and result.codes() == {"wrong_type"}


def test_reask_runs_through_guardrails_and_is_bounded(guardrails_setup: tuple[Any, list[Any]]) -> None:
    validator, _ = guardrails_setup
    bad = {"entities": [{"id": "X1", "label": "a", "type": "individual"}]}
    llm = ScriptedLLM(["not json at all", {"entities": [{"id": "E_1", "label": 5, "type": "individual"}]}, KG_PAYLOAD])
    with record_network() as attempts:
        result = OntologyGuard(validator, llm=llm, max_reasks=3).validate_sync(bad)
    assert attempts == []
    assert result.validation_passed and result.attempts == 4 and len(llm.messages) == 3
    assert "entity_id_prefix" in llm.messages[0] and "invalid_json" in llm.messages[1]
    assert "wrong_type" in llm.messages[2]
    assert validator.guard.history.last.iterations.length == 4  # the loop was guardrails' own

    stubborn = ScriptedLLM([bad, bad])
    result = OntologyGuard(validator, llm=stubborn, max_reasks=2).validate_sync(bad)
    assert not result.validation_passed and result.attempts == 3 and len(stubborn.messages) == 2


def test_llm_errors_reach_the_caller_through_guardrails(guardrails_setup: tuple[Any, list[Any]]) -> None:
    from ont_platform.errors import ValidatorError

    def broken(message: str) -> str:
        raise ConnectionError("model down")

    with pytest.raises(ValidatorError, match="llm callable failed") as info:
        OntologyGuard(guardrails_setup[0], llm=broken).validate_sync({"entities": [{"id": "X"}]})
    assert isinstance(info.value.__cause__, ConnectionError)


def test_warnings_alone_do_not_trigger_a_reask(guardrails_setup: tuple[Any, list[Any]]) -> None:
    validator, _ = guardrails_setup
    payload = copy.deepcopy(KG_PAYLOAD)
    payload["entities"][0]["label"] = "name"
    llm = ScriptedLLM([])
    result = OntologyGuard(validator, llm=llm, max_reasks=2).validate_sync(payload)
    assert result.validation_passed and result.attempts == 1 and llm.messages == []


def test_async_agrees_with_sync_and_takes_an_async_llm(guardrails_setup: tuple[Any, list[Any]]) -> None:
    validator, _ = guardrails_setup
    guard = OntologyGuard(validator)
    bad = {"entities": [{"id": "X1", "label": "a", "type": "individual"}]}
    for payload in (KG_PAYLOAD, bad, "{"):
        assert asyncio.run(guard.validate(payload)).as_dict() == guard.validate_sync(payload).as_dict()

    async def llm(message: str) -> dict[str, Any]:
        await asyncio.sleep(0)
        return KG_PAYLOAD

    result = asyncio.run(OntologyGuard(validator, llm=llm, max_reasks=1).validate(bad))
    assert result.validation_passed and result.attempts == 2


def test_hostile_guardrailsrc_turns_nothing_on(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    from guardrails.utils.hub_telemetry_utils import HubTelemetry

    from ont_platform.validation import GuardrailsValidator

    (tmp_path / ".guardrailsrc").write_text(HOSTILE_RC, encoding="utf-8")
    monkeypatch.setenv("HOME", str(tmp_path))
    with record_network() as attempts:
        validator = GuardrailsValidator(ontology="kg")
        seen: list[bool] = []

        def llm(message: str) -> Any:
            seen.append(HubTelemetry()._enabled)
            return KG_PAYLOAD

        result = OntologyGuard(validator, llm=llm, max_reasks=1).validate_sync({"entities": [{"id": "X"}]})
    assert attempts == []
    assert result.validation_passed and seen == [False]
    assert validator.guard._allow_metrics_collection is False
    assert all(a.use_local and a._disable_telemetry for a in validator._adapters)
    assert os.environ["HOME"] == str(tmp_path)  # put back after every call


def test_missing_guardrails_gives_an_install_hint(monkeypatch: pytest.MonkeyPatch) -> None:
    from ont_platform.validation import guardrails as module

    monkeypatch.setitem(sys.modules, "guardrails", None)
    with pytest.raises(MissingDependency, match=r"pip install 'ont_platform\[guardrails\]'"):
        module.import_guardrails()


SCRIPT = """
import atexit, json, socket, sys
attempts = []
def refuse(kind):
    def call(*args, **kwargs):
        attempts.append(kind)
        raise OSError("refused")
    return call
socket.socket.connect = refuse("connect")
socket.socket.connect_ex = refuse("connect_ex")
socket.socket.sendto = refuse("sendto")
socket.getaddrinfo = refuse("getaddrinfo")
# Registered first, so it runs last: after guardrails' and OpenTelemetry's own exit handlers have flushed.
atexit.register(lambda: sys.stdout.write(json.dumps({"attempts": attempts}) + "\\n"))
from ont_platform.validation import OntologyGuard
payload = json.loads(sys.argv[1])
guard = OntologyGuard("guardrails", ontology="kg", llm=lambda message: payload, max_reasks=1)
result = guard.validate_sync({"entities": [{"id": "X1", "label": "a", "type": "individual"}]})
assert result.validation_passed and result.attempts == 2, result.as_dict()
"""


@pytest.mark.slow
def test_no_network_through_process_exit(tmp_path: Path) -> None:
    """A whole process, hostile rc and all, exits without trying to send anything (span exporters flush at
    exit, which an in-process test cannot see)."""
    (tmp_path / ".guardrailsrc").write_text(HOSTILE_RC, encoding="utf-8")
    env = dict(os.environ, HOME=str(tmp_path), PYTHONPATH=str(ROOT))
    done = subprocess.run(
        [sys.executable, "-c", textwrap.dedent(SCRIPT), json.dumps(KG_PAYLOAD)],
        env=env,
        capture_output=True,
        text=True,
        timeout=120,
        check=False,
    )
    assert done.returncode == 0, done.stderr[-2000:]
    assert json.loads(done.stdout.strip().splitlines()[-1]) == {"attempts": []}
