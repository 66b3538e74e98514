"""``OntologyGuard``: the gate between an LLM's extraction and the graph (seed 001's facade).

>>> from ont_platform.validation import OntologyGuard
>>> guard = OntologyGuard(validator_type="lightweight", ontology="kg")
>>> result = guard.validate_sync({"entities": [
...     {"id": "E_1", "label": "홍길동", "type": "individual", "ontology_class": "Person"},
...     {"id": "E_2", "label": "에이씨미", "type": "individual", "ontology_class": "Company"}],
...     "relations": [{"id": "R_1", "source_id": "E_1", "predicate": "worksFor", "target_id": "E_2"}]})
>>> result.validation_passed
True
"""

from __future__ import annotations

import asyncio
import inspect
from typing import Any

from ont_platform.domains import Domain
from ont_platform.errors import InputError, OntError, ValidationFailed, ValidatorError
from ont_platform.ontology import DomainOntology
from ont_platform.validation.base import LLM, Validator
from ont_platform.validation.registry import create
from ont_platform.validation.result import ValidationResult
from ont_platform.validation.rules import RuleConfig
from ont_platform.validation.structure import Payload

MAX_REASKS_LIMIT = 10


class OntologyGuard:
    """Validate LLM extractions with one validator, optionally re-asking the LLM to fix them.

    * ``validator_type``: ``"lightweight"`` (default), ``"guardrails"``, ``"ontocast"``, a plugin's name, or a
      :class:`Validator` instance.
    * ``strict``: raise :class:`~ont_platform.errors.ValidationFailed` (carrying the result) instead of
      returning a failed result.
    * ``ontology``: a domain (a name such as ``"kg"`` or a :class:`~ont_platform.domains.Domain`) whose classes, relations, domains, ranges and
      datatypes are checked too.
    * ``llm`` and ``max_reasks``: when a payload fails, call ``llm(result.reask_message())`` and validate the
      answer, at most ``max_reasks`` times; the result is that of the last answer.
    * other keyword options go to the validator (``store=`` for ``ontocast``, ``config=`` for all built-ins).

    ``validate_sync`` and ``await validate`` give the same result; slow validators run in a worker thread so
    the event loop is never blocked.
    """

    def __init__(
        self,
        validator_type: str | Validator = "lightweight",
        strict: bool = False,
        ontology: str | Domain | DomainOntology | None = None,
        *,
        llm: LLM | None = None,
        max_reasks: int = 2,
        config: RuleConfig | None = None,
        **options: Any,
    ) -> None:
        if isinstance(max_reasks, bool) or not isinstance(max_reasks, int) or not 0 <= max_reasks <= MAX_REASKS_LIMIT:
            raise InputError(f"max_reasks must be a whole number from 0 to {MAX_REASKS_LIMIT}, got {max_reasks!r}")
        if llm is not None and not callable(llm):
            raise InputError("llm must be a callable that takes the re-ask message and returns the new output")
        if isinstance(validator_type, Validator):
            if ontology is not None or config is not None or options:
                raise InputError("pass ontology, config and options to the validator itself, not to the guard")
            self.validator = validator_type
        else:
            if ontology is not None:
                options["ontology"] = ontology
            if config is not None:
                options["config"] = config
            self.validator = create(validator_type, **options)
        self.strict = bool(strict)
        self.llm = llm
        self.max_reasks = max_reasks

    @property
    def validator_type(self) -> str:
        return self.validator.name

    @property
    def domain(self) -> str | None:
        """The domain whose ontology the guard checks, if any."""
        return self.validator.domain

    def validate_sync(self, payload: Payload) -> ValidationResult:
        """Validate ``payload`` (model, dict, JSON text or bytes), re-asking the LLM if one was given.

        Raises :class:`ValidationFailed` in strict mode when errors remain.
        """
        if self.llm is None:
            result = self._run(self.validator.check, payload)
        else:
            result = self._run(self.validator.check_with_reask, payload, self._sync_llm, self.max_reasks)
        return self._finish(result)

    async def validate(self, payload: Payload) -> ValidationResult:
        """The async form of :meth:`validate_sync`; ``llm`` may then be an ``async def`` function."""
        if self.llm is None:
            if self.validator.blocking:
                result = await asyncio.to_thread(self._run, self.validator.check, payload)
            else:
                result = self._run(self.validator.check, payload)
            return self._finish(result)
        loop = asyncio.get_running_loop()
        llm = self.llm

        def call_llm(message: str) -> Any:
            try:
                answer = llm(message)
                if inspect.isawaitable(answer):
                    return asyncio.run_coroutine_threadsafe(_wait(answer), loop).result()
            except Exception as exc:
                raise _LLMFailed(exc) from exc
            return answer

        result = await asyncio.to_thread(self._run, self.validator.check_with_reask, payload, call_llm, self.max_reasks)
        return self._finish(result)

    def review_update(self, update: str, **options: Any) -> ValidationResult:
        """Review a SPARQL UPDATE request before it is run (``ontocast`` only; see its ``review_update``)."""
        review = getattr(self.validator, "review_update", None)
        if review is None:
            raise ValidatorError(f"the {self.validator.name} validator does not review SPARQL updates; use ontocast")
        return self._finish(self._run(review, update, **options))

    # -- internals --------------------------------------------------------------------------------------------

    def _sync_llm(self, message: str) -> Any:
        assert self.llm is not None
        try:
            answer = self.llm(message)
        except Exception as exc:
            raise _LLMFailed(exc) from exc
        if inspect.isawaitable(answer):
            if inspect.iscoroutine(answer):
                answer.close()
            raise InputError("the llm callable is async: use `await guard.validate(...)`")
        return answer

    def _run(self, fn: Any, *args: Any, **kwargs: Any) -> ValidationResult:
        try:
            result = fn(*args, **kwargs)
        except OntError:
            raise
        except Exception as exc:
            llm_error = _llm_failure(exc)
            if llm_error is not None:
                raise ValidatorError(f"the llm callable failed: {type(llm_error).__name__}: {llm_error}") from llm_error
            raise ValidatorError(f"the {self.validator.name} validator failed: {type(exc).__name__}: {exc}") from exc
        if not isinstance(result, ValidationResult):
            raise ValidatorError(
                f"the {self.validator.name} validator returned {type(result).__name__}, not a ValidationResult"
            )
        return result

    def _finish(self, result: ValidationResult) -> ValidationResult:
        if self.strict and not result.validation_passed:
            raise ValidationFailed(result)
        return result

    def __repr__(self) -> str:
        return f"OntologyGuard(validator_type={self.validator.name!r}, strict={self.strict}, ontology={self.domain!r})"


async def _wait(awaitable: Any) -> Any:
    return await awaitable


class _LLMFailed(Exception):
    """Marks an exception raised by the llm callable, so that it can be told apart from a validator's bug even
    after another library (guardrails) wrapped it."""

    def __init__(self, original: BaseException) -> None:
        super().__init__(str(original))
        self.original = original


def _llm_failure(exc: BaseException) -> BaseException | None:
    seen: set[int] = set()
    current: BaseException | None = exc
    while current is not None and id(current) not in seen:
        if isinstance(current, _LLMFailed):
            return current.original
        seen.add(id(current))
        current = current.__cause__ or current.__context__
    return None


__all__ = ["MAX_REASKS_LIMIT", "OntologyGuard"]
