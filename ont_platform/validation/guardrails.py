"""``guardrails``: the same contract, run through guardrails-ai.

A ``Guard.for_pydantic(OntologyExtractionResult)`` runs its JSON-schema check and then the project's rules,
registered as guardrails validators (``ont-platform/structure``, ``/entities``, ``/relations``,
``/identifiers``, ``/ontology``, ``/quality``). On-fail policies: every rule group that finds an *error*
asks for a re-ask (``OnFailAction.REASK``); the ``quality`` group, which only warns, does nothing
(``OnFailAction.NOOP``), so warnings never trigger a re-ask. When the guard has an LLM, guardrails' own re-ask
loop calls it (bounded by ``max_reasks``) with the project's re-ask message.

Structure is judged on the output exactly as the LLM wrote it: guardrails coerces values before its schema
check (``true`` becomes ``1.0``, ``5`` becomes ``"5"``), which the contract does not allow.

No network: guardrails-ai sends usage metrics by default, re-reads ``~/.guardrailsrc`` whenever a ``Guard`` is
created, has no environment variable to stop either, and its LLM adapter imports litellm, which downloads a
price list at import. So (1) guards and validators are created with ``HOME`` pointing at a private folder
whose ``.guardrailsrc`` turns metrics and remote inference off; (2) each guard is configured with
``allow_metrics_collection=False``, and guardrails' process-wide metrics and tracing switches are off while a
call runs (and put back after); (3) validators
run locally (``use_local=True``); (4) while a call is running, ``import litellm`` is refused unless litellm was
already imported by the application. guardrails-ai is imported on first use, with its import-time deprecation
warnings silenced (they come from its dependencies, not from this code).
"""

from __future__ import annotations

import atexit
import json
import os
import shutil
import sys
import tempfile
import threading
import warnings
from collections.abc import Iterator
from contextlib import contextmanager
from functools import cache
from types import ModuleType
from typing import Any, ClassVar

from ont_platform.errors import MissingDependency
from ont_platform.validation.base import LLM, Validator, make_result
from ont_platform.validation.models import OntologyExtractionResult, ValidationIssue
from ont_platform.validation.result import CheckStatus, ValidationResult
from ont_platform.validation.rules import (
    Code,
    Findings,
    RuleConfig,
    check_entities,
    check_identifiers,
    check_ontology,
    check_relations,
)
from ont_platform.validation.structure import Payload, parse
from ont_platform.validation.terms import OntologyIndex

INSTALL_HINT = "the guardrails validator needs guardrails-ai: pip install 'ont_platform[guardrails]'"
RC_TEXT = "enable_metrics=false\nuse_remote_inferencing=false\n"
ERROR_GROUPS = ("structure", "entities", "relations", "identifiers", "ontology")
"""Rule groups registered as guardrails validators with ``on_fail=REASK``; ``quality`` (warnings) is NOOP."""

# One lock for everything process-wide that a guardrails call touches (HOME, GUARDRAILS_RUN_SYNC, the metrics
# singleton, the import of litellm); guardrails itself is not meant to run one Guard in two threads at once.
_LOCK = threading.RLock()
_home: str | None = None


# --- keeping guardrails-ai offline ---------------------------------------------------------------------------


def private_home() -> str:
    """A folder holding a ``.guardrailsrc`` with metrics and remote inference off (created once, removed at
    exit)."""
    global _home
    with _LOCK:
        if _home is None or not os.path.isfile(os.path.join(_home, ".guardrailsrc")):
            home = tempfile.mkdtemp(prefix="ont-platform-guardrails-")
            with open(os.path.join(home, ".guardrailsrc"), "w", encoding="utf-8") as fh:
                fh.write(RC_TEXT)
            atexit.register(shutil.rmtree, home, True)
            _home = home
        return _home


@contextmanager
def _quiet() -> Iterator[None]:
    # Deprecation warnings raised inside guardrails-ai and the CLI libraries it imports (typer, click).
    with warnings.catch_warnings():
        for module in ("guardrails", "typer", "click"):
            warnings.filterwarnings("ignore", category=DeprecationWarning, module=rf"{module}(\.|$)")
        yield


@contextmanager
def _private_environment() -> Iterator[None]:
    """HOME at the private rc folder and guardrails' sequential validator service, for the duration."""
    with _LOCK:
        saved = {key: os.environ.get(key) for key in ("HOME", "GUARDRAILS_RUN_SYNC")}
        os.environ["HOME"] = private_home()
        os.environ["GUARDRAILS_RUN_SYNC"] = "true"  # no event loop of its own, no thread-unsafe loop policy
        try:
            yield
        finally:
            for key, value in saved.items():
                if value is None:
                    os.environ.pop(key, None)
                else:
                    os.environ[key] = value


@contextmanager
def _no_litellm() -> Iterator[None]:
    # guardrails tries `from litellm import completion` whenever an LLM callable is passed; litellm fetches a
    # model price list over the network at import. Refuse the import (ImportError) unless it already happened.
    if "litellm" in sys.modules:
        yield
        return
    # typeshed types sys.modules as modules only; None is the documented way to make an import fail
    sys.modules["litellm"] = None  # type: ignore[assignment]
    try:
        yield
    finally:
        if sys.modules.get("litellm", 0) is None:
            del sys.modules["litellm"]


@contextmanager
def _metrics_off(guard: Any) -> Iterator[None]:
    """Metrics and tracing off for one guard, and guardrails' process-wide switches off while a call runs.

    The switches are put back afterwards, so an application's own guards keep their settings. Tracing off
    also means no span of this call goes to an OpenTelemetry exporter the application may have configured
    (and guardrails skips building span attributes, which is most of its per-call cost).
    """
    from guardrails.settings import settings
    from guardrails.utils.hub_telemetry_utils import HubTelemetry

    hub = HubTelemetry()
    before = hub._enabled, settings.disable_tracing
    guard._allow_metrics_collection = False
    guard._use_server = False
    hub._enabled = False
    settings.disable_tracing = True
    try:
        yield
    finally:
        hub._enabled, settings.disable_tracing = before


@contextmanager
def _private_settings() -> Iterator[None]:
    """guardrails' settings read from the private rc while guards and validators are created, then restored."""
    from guardrails.classes.rc import RC
    from guardrails.settings import settings

    before = settings.rc
    settings.rc = RC.load()  # HOME is the private folder here
    try:
        yield
    finally:
        settings.rc = before


def import_guardrails() -> ModuleType:
    """guardrails-ai, imported once; :class:`MissingDependency` with the install hint when it is absent."""
    with _LOCK, _quiet(), _private_environment():
        try:
            import guardrails
        except ImportError as exc:
            raise MissingDependency(INSTALL_HINT) from exc
        except Exception as exc:  # an incompatible install fails in many ways at import
            raise MissingDependency(f"{INSTALL_HINT} (importing it failed: {type(exc).__name__}: {exc})") from exc
    module: ModuleType = guardrails
    return module


# --- the rules as guardrails validators ----------------------------------------------------------------------


class _Attempt:
    """One output under validation: parsed once, each rule group computed once (in any order)."""

    def __init__(self, payload: Payload, config: RuleConfig, index: OntologyIndex | None) -> None:
        self.config = config
        self.index = index
        self.extraction, structure = parse(payload, config)
        self._groups: dict[str, Findings] = {"structure": structure}
        if self.extraction is not None:
            # Canonical JSON of the parsed model: guardrails' coercion then has nothing left to change.
            self.text = json.dumps(self.extraction.payload(), ensure_ascii=False)
        elif isinstance(payload, (str, bytes, bytearray)):
            self.text = payload if isinstance(payload, str) else bytes(payload).decode("utf-8", "replace")
        else:
            try:
                self.text = json.dumps(payload, ensure_ascii=False, default=repr)
            except (TypeError, ValueError, RecursionError):
                self.text = "null"

    def findings(self, group: str) -> Findings:
        if group not in self._groups:
            out = Findings(max_issues=self.config.max_issues)
            ext = self.extraction
            if ext is not None:
                if group == "entities":
                    check_entities(ext, self.config, out)
                elif group == "relations":
                    check_relations(ext, self.config, out)
                elif group == "identifiers":
                    check_identifiers(ext, self.config, out)
                elif group == "ontology" and self.index is not None:
                    check_ontology(ext, self.index, out)
            self._groups[group] = out
        return self._groups[group]

    def warnings(self) -> list[ValidationIssue]:
        return [w for group in ERROR_GROUPS for w in self.findings(group).warnings]


@cache
def _adapter_classes() -> dict[str, type]:
    """Register the rule groups with guardrails once per process; returns group name to validator class."""
    with _quiet():
        from guardrails.validators import FailResult, PassResult, register_validator
        from guardrails.validators import Validator as GuardrailsBase

    class RuleGroup(GuardrailsBase):  # type: ignore[misc]  # guardrails-ai ships no types: its base is Any
        group: ClassVar[str] = ""

        def __init__(self, on_fail: Any = None, **kwargs: Any) -> None:
            super().__init__(on_fail=on_fail, use_local=True, **kwargs)
            self.attempt: _Attempt | None = None

        def _validate(self, value: Any, metadata: dict[str, Any]) -> Any:
            attempt = self.attempt
            if attempt is None:
                return PassResult()
            issues = attempt.warnings() if self.group == "quality" else attempt.findings(self.group).errors
            if not issues:
                return PassResult()
            return FailResult(
                error_message="; ".join(str(i) for i in issues), metadata={"issues": [i.model_dump() for i in issues]}
            )

    classes: dict[str, type] = {}
    for group in (*ERROR_GROUPS, "quality"):
        cls = type(f"OntPlatform{group.title()}", (RuleGroup,), {"group": group, "__module__": __name__})
        classes[group] = register_validator(name=f"ont-platform/{group}", data_type="object")(cls)
    return classes


# --- the validator -------------------------------------------------------------------------------------------


class GuardrailsValidator(Validator):
    """The project's contract run through guardrails-ai (needs the ``guardrails`` extra)."""

    name: ClassVar[str] = "guardrails"
    blocking: ClassVar[bool] = True

    def __init__(self, *, ontology: Any = None, config: RuleConfig | None = None) -> None:
        super().__init__(ontology=ontology, config=config)
        self._gr = import_guardrails()
        with _LOCK, _quiet(), _private_environment(), _private_settings():
            from guardrails import OnFailAction

            classes = _adapter_classes()
            guard = self._gr.Guard.for_pydantic(OntologyExtractionResult, name="ont-platform-extraction")
            self._adapters = [classes[g](on_fail=OnFailAction.REASK) for g in ERROR_GROUPS]
            self._adapters.append(classes["quality"](on_fail=OnFailAction.NOOP))
            # On a child of the root: guardrails 0.11 cannot build a re-ask for a root-level validator (its
            # re-ask has no path). The groups read the whole attempt, not the value at this path.
            guard.use(*self._adapters, on="$.entities")
            guard.configure(allow_metrics_collection=False)
            guard._use_server = False
        self.guard = guard

    def check(self, payload: Payload) -> ValidationResult:
        return self._run(payload, None, 0)

    def check_with_reask(self, payload: Payload, llm: LLM, max_reasks: int) -> ValidationResult:
        """Guardrails' own re-ask loop: on errors it calls ``llm`` with the project's re-ask message."""
        return self._run(payload, llm, max_reasks)

    def _run(self, payload: Payload, llm: LLM | None, max_reasks: int) -> ValidationResult:
        with _LOCK, _quiet(), _private_environment(), _no_litellm():
            attempt = self._begin(payload)
            attempts = [1]

            def llm_api(*, messages: Any = None, **kwargs: Any) -> str:
                assert llm is not None
                previous = self._result(self._current, None)
                reply = llm(previous.reask_message())
                attempts[0] += 1
                return self._begin(reply).text

            try:
                with _metrics_off(self.guard):
                    outcome = self.guard.parse(
                        attempt.text,
                        llm_api=llm_api if llm is not None else None,
                        num_reasks=max_reasks if llm is not None else 0,
                    )
                result = self._result(self._current, outcome)
            finally:
                self._end()
        return result.with_attempts(attempts[0])

    def _begin(self, payload: Payload) -> _Attempt:
        attempt = _Attempt(payload, self.config, self.index)
        self._current = attempt
        for adapter in self._adapters:
            adapter.attempt = attempt
        return attempt

    def _end(self) -> None:
        for adapter in self._adapters:
            adapter.attempt = None

    def _result(self, attempt: _Attempt, outcome: Any) -> ValidationResult:
        """The result of one attempt, from what guardrails' validators reported (and computed the same way
        for any group guardrails did not reach, e.g. after its own schema check failed)."""
        reported = self._reported_issues() if outcome is not None else {}
        findings = Findings(max_issues=self.config.max_issues)
        checks: dict[str, CheckStatus] = {}
        for group in ERROR_GROUPS:
            if group == "ontology" and self.index is None:
                continue
            group_findings = attempt.findings(group)
            errors = reported.get(group, group_findings.errors)
            for issue in errors:
                findings.error(issue.code, issue.path, issue.message)
            for hint in group_findings.suggestions:
                if hint not in findings.suggestions:
                    findings.suggestions.append(hint)
            name = "rules" if group in ("entities", "relations", "identifiers") else group
            if attempt.extraction is None and group != "structure":
                checks[name] = "not_evaluated"
            elif errors or checks.get(name) == "failed":
                checks[name] = "failed"
            else:
                checks.setdefault(name, "passed")
        for issue in attempt.warnings():
            findings.warn(issue.code, issue.path, issue.message, "")
        if outcome is not None:
            passed = bool(getattr(outcome, "validation_passed", False))
            schema = self._schema_failures() if not passed and not findings.errors else []
            for message in schema:  # guardrails refused what the rules accepted: never report "passed"
                findings.error(Code.WRONG_TYPE, "$", f"guardrails schema check: {message}")
            checks["guardrails"] = "failed" if findings.errors else "passed"
        return make_result(self.name, findings, checks, attempt.extraction)

    def _last_iteration(self) -> Any:
        try:
            return self.guard.history.last.iterations.last
        except (AttributeError, IndexError, TypeError):
            return None

    def _reported_issues(self) -> dict[str, list[ValidationIssue]]:
        iteration = self._last_iteration()
        out: dict[str, list[ValidationIssue]] = {}
        for log in getattr(iteration, "validator_logs", None) or []:
            name = str(getattr(log, "registered_name", "") or getattr(log, "validator_name", ""))
            group = next((g for g in ERROR_GROUPS if name.endswith(f"/{g}") or name == f"OntPlatform{g.title()}"), None)
            if group is None:
                continue
            result = getattr(log, "validation_result", None)
            issues = (getattr(result, "metadata", None) or {}).get("issues") or []
            out[group] = [ValidationIssue.model_validate(i) for i in issues]
        return out

    def _schema_failures(self) -> list[str]:
        iteration = self._last_iteration()
        messages: list[str] = []
        for reask in getattr(getattr(iteration, "outputs", None), "reasks", None) or []:
            if type(reask).__name__ not in ("SkeletonReAsk", "NonParseableReAsk"):
                continue  # the rule groups' own re-asks are reported through their issues
            for fail in getattr(reask, "fail_results", None) or []:
                text = str(getattr(fail, "error_message", "") or "")
                if text:
                    messages.append(text[:300])
        return messages


def metrics_state() -> dict[str, Any]:
    """What guardrails-ai's own settings say about metrics right now (for tests and diagnostics)."""
    if "guardrails" not in sys.modules:
        return {"imported": False}
    from guardrails.settings import settings
    from guardrails.utils.hub_telemetry_utils import HubTelemetry

    return {
        "imported": True,
        "enable_metrics": settings.rc.enable_metrics,
        "use_remote_inferencing": settings.rc.use_remote_inferencing,
        "hub_telemetry_enabled": HubTelemetry()._enabled,
    }


__all__ = ["INSTALL_HINT", "GuardrailsValidator", "import_guardrails", "metrics_state", "private_home"]
