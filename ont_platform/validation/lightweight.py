"""``lightweight``: pydantic for the structure, then the rules as plain function calls.

No dependency beyond pydantic and no I/O, so it is the fastest validator and the default of
:class:`~ont_platform.validation.OntologyGuard`.

>>> from ont_platform.validation import LightweightValidator
>>> result = LightweightValidator().check({"entities": [{"id": "X1", "label": "홍길동", "type": "individual"}]})
>>> result.validation_passed, [e.code for e in result.validation_errors]
(False, ['entity_id_prefix'])
"""

from __future__ import annotations

from typing import ClassVar

from ont_platform.validation.base import Validator, evaluate, make_result
from ont_platform.validation.result import ValidationResult
from ont_platform.validation.structure import Payload


class LightweightValidator(Validator):
    """Seed 001's validator: structure and rules (and the ontology's rules when ``ontology=`` is given)."""

    name: ClassVar[str] = "lightweight"

    def check(self, payload: Payload) -> ValidationResult:
        extraction, findings, checks = evaluate(payload, self.config, self.index)
        return make_result(self.name, findings, checks, extraction)


__all__ = ["LightweightValidator"]
