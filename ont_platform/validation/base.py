"""The one thing a validator must do: turn any payload into a :class:`ValidationResult`.

Write a validator by subclassing :class:`Validator` and implementing :meth:`Validator.check`; register it
with :func:`ont_platform.validation.register` or through the entry point group ``ont_platform.validators``
(docs/validation.md). Re-asking an LLM, strict mode and async use are the guard's business, not the
validator's, so a plugin gets them for free.
"""

from __future__ import annotations

from abc import ABC, abstractmethod
from collections.abc import Callable
from typing import Any, ClassVar

from ont_platform.domains import Domain
from ont_platform.ontology import DomainOntology
from ont_platform.validation.models import OntologyExtractionResult
from ont_platform.validation.result import CheckStatus, ValidationResult
from ont_platform.validation.rules import (
    DEFAULT_RULES,
    Findings,
    RuleConfig,
    check_all,
    check_ontology,
)
from ont_platform.validation.structure import Payload, Salvage, parse_salvaging
from ont_platform.validation.terms import OntologyIndex, as_index

LLM = Callable[[str], Any]
"""An LLM as the guard sees it: called with a re-ask message, returns the new extraction (JSON text, a dict
or a model). An ``async def`` function works with ``await guard.validate(...)``."""


class Validator(ABC):
    """Base class of every validator.

    ``ontology`` (a domain name such as ``"kg"``, or a loaded ontology) adds the ontology's rules; ``config``
    tunes the seed rules. Subclasses set :attr:`name` and implement :meth:`check`, which must return a result
    for *any* payload and raise only for its own failures.
    """

    name: ClassVar[str] = "validator"
    blocking: ClassVar[bool] = False
    """Whether :meth:`check` does slow work (I/O, SHACL, another library's machinery): async callers then run
    it in a worker thread instead of on the event loop."""

    def __init__(
        self, *, ontology: str | Domain | DomainOntology | OntologyIndex | None = None, config: RuleConfig | None = None
    ) -> None:
        self.config = config or DEFAULT_RULES
        self.index = as_index(ontology)

    @property
    def domain(self) -> str | None:
        """The domain whose ontology this validator applies, if any."""
        return self.index.domain if self.index is not None else None

    @abstractmethod
    def check(self, payload: Payload) -> ValidationResult:
        """Validate one payload (model, dict, JSON text or bytes) and say what is wrong with it."""

    def check_with_reask(self, payload: Payload, llm: LLM, max_reasks: int) -> ValidationResult:
        """Validate; while errors remain and attempts are left, send the re-ask message to ``llm`` and
        validate its answer. Returns the result of the last answer, with :attr:`~ValidationResult.attempts`."""
        result = self.check(payload)
        attempts = 1
        while not result.validation_passed and attempts <= max_reasks:
            result = self.check(llm(result.reask_message()))
            attempts += 1
        return result.with_attempts(attempts)

    def __repr__(self) -> str:
        return f"{type(self).__name__}(ontology={self.domain!r})"


def evaluate(
    payload: Payload, config: RuleConfig, index: OntologyIndex | None
) -> tuple[OntologyExtractionResult | None, Findings, dict[str, CheckStatus]]:
    """Structure, then the seed rules, then the ontology's rules: the deterministic part every built-in
    validator shares. Returns the parsed extraction (``None`` if its structure is wrong), the findings and
    the status of each stage.

    When the structure is wrong, the rules still run on the entities and relations that are well-formed on
    their own (see :class:`~ont_platform.validation.structure.Salvage` for what is left out), so that every
    independent fault is reported in one pass. Their stage is then ``failed`` if they found an error and
    ``not_evaluated`` otherwise: a partial run that found nothing is not a pass.
    """
    ext, findings, salvage = parse_salvaging(payload, config)
    checks: dict[str, CheckStatus] = {"structure": "passed" if ext is not None else "failed"}
    if ext is None:
        checks["rules"] = "not_evaluated"
        if index is not None:
            checks["ontology"] = "not_evaluated"
        if salvage is not None and len(findings.errors) + len(findings.warnings) < config.max_issues:
            _check_salvaged(salvage, config, index, findings, checks)
        return None, findings, checks
    seed = check_all(ext, config)
    checks["rules"] = "failed" if seed.errors else "passed"
    findings.extend(seed)
    if index is not None:
        onto = Findings(max_issues=config.max_issues)
        check_ontology(ext, index, onto)
        checks["ontology"] = "failed" if onto.errors else "passed"
        findings.extend(onto)
    return ext, findings, checks


def _check_salvaged(
    salvage: Salvage,
    config: RuleConfig,
    index: OntologyIndex | None,
    findings: Findings,
    checks: dict[str, CheckStatus],
) -> None:
    """The rules on the well-formed items of a structurally broken payload, at the payload's own paths."""
    seed = salvage.translate(check_all(salvage.extraction, config))
    if seed.errors:
        checks["rules"] = "failed"
    findings.extend(seed)
    if index is not None:
        onto = Findings(max_issues=config.max_issues)
        check_ontology(salvage.extraction, index, onto)
        onto = salvage.translate(onto)
        if onto.errors:
            checks["ontology"] = "failed"
        findings.extend(onto)


def make_result(
    validator: str,
    findings: Findings,
    checks: dict[str, CheckStatus],
    extraction: OntologyExtractionResult | None,
    *,
    score: float | None = None,
) -> ValidationResult:
    """A :class:`ValidationResult` from collected findings."""
    findings.finish()
    return ValidationResult(
        validator=validator,
        validation_errors=list(findings.errors),
        warnings=list(findings.warnings),
        checks=dict(checks),
        suggestions=findings.ordered_suggestions(),
        score=score,
        extraction=extraction,
    )


__all__ = ["LLM", "Validator", "evaluate", "make_result"]
