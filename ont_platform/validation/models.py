"""What an LLM extraction looks like (seed 001), as pydantic v2 models.

The models describe *shape* only: which fields exist and their JSON types. Everything about *values* (id
prefixes, label length, confidence bounds, endpoints, ontology terms) lives in :mod:`.rules`, so that every
validator reports the same problem under the same code whatever library runs it.

Types are strict: ``"0.9"`` is not a confidence, ``true`` is not ``1.0`` and ``5`` is not a label. An LLM
that returns such values is told so and asked again, instead of having them silently converted.

>>> result = OntologyExtractionResult.model_validate(
...     {"entities": [{"id": "E_1", "label": "홍길동", "type": "individual", "ontology_class": "Person"}]})
>>> result.entities[0].ontology_class, result.relations
('Person', [])
"""

from __future__ import annotations

from typing import Any

from pydantic import BaseModel, ConfigDict, Field, field_validator

Scalar = str | int | float | bool
"""A JSON scalar an attribute may hold."""

AttributeValue = Scalar | list[Scalar]
"""An attribute value: one scalar, or a list of them for a property that may have several values."""

ENTITY_TYPES = ("class", "individual", "property")
"""The ``type`` values of seed 001: an ontology class, an instance, or a property."""


class _Model(BaseModel):
    # Unknown keys are ignored (LLMs add commentary fields); known keys are type-checked strictly.
    model_config = ConfigDict(strict=True, extra="ignore", validate_default=False)


class ValidationIssue(_Model):
    """One finding: a stable ``code``, the JSON path of the offending field and a message for people.

    Paths start at ``$`` (the payload): ``$.entities[2].label``, ``$.relations[0].target_id``.
    """

    model_config = ConfigDict(strict=True, extra="ignore", frozen=True)

    code: str
    path: str
    message: str

    def __str__(self) -> str:
        return f"{self.path} [{self.code}]: {self.message}"


class Evidence(_Model):
    """Where an extracted fact was read: the source URL, the character offset, the extractor's confidence and,
    for a relation, the chunk of text that states it."""

    source_url: str | None = None
    offset: int | None = None
    confidence: float | None = None
    chunk_text: str | None = None
    chunk_id: str | None = None


def _as_list(value: Any) -> Any:
    # Seed 001 gives one evidence object per fact; several are allowed, so a single object becomes a list.
    if value is None:
        return []
    if isinstance(value, dict):
        return [value]
    return value


class OntologyEntity(_Model):
    """An entity the extractor found.

    ``type`` is seed 001's kind of term (``class``, ``individual`` or ``property``); ``ontology_class`` names
    the class of the domain ontology an individual belongs to (``Person``, ``kg:Company``, a full IRI or a
    label such as ``회사``); ``attributes`` holds datatype properties of the domain (``addressNorm``, ``url``).
    """

    id: str
    label: str
    type: str
    ontology_class: str | None = None
    confidence: float | None = None
    evidence: list[Evidence] = Field(default_factory=list)
    attributes: dict[str, AttributeValue] = Field(default_factory=dict)

    _wrap_evidence = field_validator("evidence", mode="before")(_as_list)


class OntologyRelation(_Model):
    """A relation between two extracted entities, with the evidence that states it.

    ``predicate`` is a relation of the domain ontology: its notation (``worksFor``, ``same_entity``), local
    name or IRI. ``attributes`` holds datatype properties of the relation resource (``txHash``).
    """

    id: str
    source_id: str
    predicate: str
    target_id: str
    confidence: float | None = None
    evidence: list[Evidence] = Field(default_factory=list)
    attributes: dict[str, AttributeValue] = Field(default_factory=dict)

    _wrap_evidence = field_validator("evidence", mode="before")(_as_list)


class OntologyExtractionResult(_Model):
    """One extraction: entities, relations and, once checked, the validation status (seed 001's API fields)."""

    entities: list[OntologyEntity]
    relations: list[OntologyRelation] = Field(default_factory=list)
    source_url: str | None = None
    title: str | None = None
    validation_passed: bool | None = None
    validation_errors: list[ValidationIssue] = Field(default_factory=list)
    warnings: list[ValidationIssue] = Field(default_factory=list)

    def payload(self) -> dict[str, Any]:
        """The extraction as JSON-ready data, without the validation fields (what a validator reads)."""
        return self.model_dump(
            mode="json", exclude={"validation_passed", "validation_errors", "warnings"}, exclude_none=True
        )


__all__ = [
    "ENTITY_TYPES",
    "AttributeValue",
    "Evidence",
    "OntologyEntity",
    "OntologyExtractionResult",
    "OntologyRelation",
    "Scalar",
    "ValidationIssue",
]
