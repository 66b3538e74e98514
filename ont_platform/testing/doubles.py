"""Test doubles for code that uses a guard: a validator with scripted results, an LLM with scripted replies."""

from __future__ import annotations

from collections.abc import Iterable
from typing import Any, ClassVar

from ont_platform.validation.base import Validator
from ont_platform.validation.models import ValidationIssue
from ont_platform.validation.result import ValidationResult
from ont_platform.validation.structure import Payload


class StaticValidator(Validator):
    """A validator that returns scripted results in turn (the last one repeats) and records every payload.

    >>> v = StaticValidator([StaticValidator.failing("entity_id_prefix"), StaticValidator.passing()])
    >>> v.check({}).validation_passed, v.check({}).validation_passed, len(v.payloads)
    (False, True, 2)
    """

    name: ClassVar[str] = "static"

    def __init__(self, results: Iterable[ValidationResult] | None = None, **options: Any) -> None:
        super().__init__(**options)
        self.results = list(results or [self.passing()])
        self.payloads: list[Payload] = []

    def check(self, payload: Payload) -> ValidationResult:
        index = min(len(self.payloads), len(self.results) - 1)
        self.payloads.append(payload)
        return self.results[index]

    @staticmethod
    def passing() -> ValidationResult:
        return ValidationResult(validator="static", checks={"rules": "passed"})

    @staticmethod
    def failing(code: str = "invalid_value", path: str = "$", message: str = "scripted failure") -> ValidationResult:
        return ValidationResult(
            validator="static",
            checks={"rules": "failed"},
            validation_errors=[ValidationIssue(code=code, path=path, message=message)],
        )


class ScriptedLLM:
    """An LLM double: answers re-ask messages with scripted replies in turn and records the messages.

    >>> llm = ScriptedLLM(['{"entities": []}'])
    >>> llm("fix it"), llm.messages
    ('{"entities": []}', ['fix it'])
    """

    def __init__(self, replies: Iterable[Any]) -> None:
        self.replies = list(replies)
        self.messages: list[str] = []

    def __call__(self, message: str) -> Any:
        self.messages.append(message)
        if len(self.messages) > len(self.replies):
            raise AssertionError(f"ScriptedLLM called {len(self.messages)} times, scripted for {len(self.replies)}")
        return self.replies[len(self.messages) - 1]


__all__ = ["ScriptedLLM", "StaticValidator"]
