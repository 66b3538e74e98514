"""What a validator returns: errors, warnings, the checks that ran, and a re-ask message for an LLM.

Every validator returns a :class:`ValidationResult`, whatever it was given; a strict guard raises
:class:`~ont_platform.errors.ValidationFailed` carrying the same object.
"""

from __future__ import annotations

import json
from dataclasses import dataclass, field, replace
from typing import Any, Literal

from ont_platform.validation.models import OntologyExtractionResult, ValidationIssue

CheckStatus = Literal["passed", "failed", "not_evaluated"]
"""The outcome of one stage. ``not_evaluated`` means the stage did not run (skipped for size, no ontology
given, or an earlier stage failed); it never stands for ``passed``."""

REASK_INSTRUCTIONS = (
    "Your extraction did not pass validation. Fix every error below and answer with the complete corrected "
    'extraction as one JSON object {"entities": [...], "relations": [...]} and nothing else. Keep the ids of '
    "entities and relations that were correct."
)


@dataclass
class ValidationResult:
    """The outcome of validating one extraction payload.

    ``validation_passed`` is true exactly when there is no error; warnings never fail a payload. ``checks``
    says which stages ran and how they ended (``structure``, ``rules``, ``ontology``, ``shacl``). ``score``
    (0 to 1, the share of entities and relations without an error) is given by the critic validator
    (``ontocast``); others leave it ``None``. ``extraction`` is the parsed payload when its structure was
    valid: what an ingest would write.
    """

    validator: str
    validation_errors: list[ValidationIssue] = field(default_factory=list)
    warnings: list[ValidationIssue] = field(default_factory=list)
    checks: dict[str, CheckStatus] = field(default_factory=dict)
    suggestions: list[str] = field(default_factory=list)
    score: float | None = None
    attempts: int = 1
    extraction: OntologyExtractionResult | None = None

    @property
    def validation_passed(self) -> bool:
        """True when no error was found (warnings allowed)."""
        return not self.validation_errors

    @property
    def errors(self) -> list[ValidationIssue]:
        """Short name for :attr:`validation_errors`."""
        return self.validation_errors

    def codes(self) -> set[str]:
        """The codes of all errors (not warnings)."""
        return {issue.code for issue in self.validation_errors}

    def reask_message(self) -> str:
        """A message that tells an LLM what to fix: every error with its path, then suggestions and warnings.

        Empty when the payload passed.
        """
        if self.validation_passed:
            return ""
        lines = [REASK_INSTRUCTIONS, "", "Errors:"]
        lines += [f"- {issue.path} ({issue.code}): {issue.message}" for issue in self.validation_errors]
        if self.suggestions:
            lines += ["", "Suggestions:"]
            lines += [f"- {s}" for s in self.suggestions]
        if self.warnings:
            lines += ["", "Warnings (fix these too if you can):"]
            lines += [f"- {issue.path} ({issue.code}): {issue.message}" for issue in self.warnings]
        return "\n".join(lines)

    def with_attempts(self, attempts: int) -> ValidationResult:
        """A copy that records how many outputs were validated (1 + the number of re-asks)."""
        return replace(self, attempts=attempts)

    def _repr_html_(self) -> str:
        """:meth:`as_dict` as a table, for notebooks."""
        from ont_platform.answer.html import table

        return table(type(self).__name__, self.as_dict())

    def as_dict(self, *, include_extraction: bool = False) -> dict[str, Any]:
        """JSON-ready view: ``validation_passed``, ``validation_errors``, ``warnings`` and the rest."""
        out: dict[str, Any] = {
            "validator": self.validator,
            "validation_passed": self.validation_passed,
            "validation_errors": [i.model_dump() for i in self.validation_errors],
            "warnings": [i.model_dump() for i in self.warnings],
            "checks": dict(self.checks),
            "suggestions": list(self.suggestions),
            "score": self.score,
            "attempts": self.attempts,
        }
        if self.validation_errors:
            out["reask_message"] = self.reask_message()
        if include_extraction:
            out["extraction"] = self.extraction.payload() if self.extraction is not None else None
        return out

    def to_json(self, **kwargs: Any) -> str:
        """:meth:`as_dict` as JSON text (NaN written as ``NaN``, as Python's json does)."""
        return json.dumps(self.as_dict(**kwargs), ensure_ascii=False)

    def annotated(self) -> OntologyExtractionResult | None:
        """The parsed extraction with seed 001's validation fields filled in (the API response body), or
        ``None`` when the payload did not even have the right structure."""
        if self.extraction is None:
            return None
        return self.extraction.model_copy(
            update={
                "validation_passed": self.validation_passed,
                "validation_errors": list(self.validation_errors),
                "warnings": list(self.warnings),
            }
        )


__all__ = ["REASK_INSTRUCTIONS", "CheckStatus", "ValidationResult"]
