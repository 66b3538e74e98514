"""The rules every validator applies, as plain functions over a parsed extraction.

Seed 001's rules (ids, labels, confidence, type, endpoints, self loops, duplicates, meaningless labels) and,
with an ontology, the ontology's (classes and predicates known, domain and range, literal datatypes,
cardinality of functional properties). Validators differ in *how* they run these functions (directly, as
guardrails-ai validators, as a critic with SHACL), never in *what* they check, so a payload gets the same
codes from each of them.

Each function appends to a :class:`Findings`; none raises on a bad value.
"""

from __future__ import annotations

import math
import re
from collections.abc import Callable, Mapping
from dataclasses import dataclass, field
from enum import StrEnum
from typing import Literal

from rdflib import URIRef

from ont_platform.validation.models import (
    ENTITY_TYPES,
    Evidence,
    OntologyExtractionResult,
    ValidationIssue,
)
from ont_platform.validation.terms import OntologyIndex, datatype_name, lexical


class Code(StrEnum):
    """Stable issue codes. Third-party validators may add their own codes."""

    # structure (see .structure)
    INVALID_JSON = "invalid_json"
    NOT_AN_OBJECT = "not_an_object"
    MISSING_FIELD = "missing_field"
    WRONG_TYPE = "wrong_type"
    INVALID_VALUE = "invalid_value"
    TOO_LARGE = "too_large"
    # seed 001
    ENTITY_ID_PREFIX = "entity_id_prefix"
    RELATION_ID_PREFIX = "relation_id_prefix"
    INVALID_ID = "invalid_id"
    LABEL_LENGTH = "label_length"
    CONFIDENCE_RANGE = "confidence_range"
    ENTITY_TYPE = "entity_type"
    INVALID_PREDICATE = "invalid_predicate"
    DANGLING_ENDPOINT = "dangling_endpoint"
    SELF_LOOP = "self_loop"
    DUPLICATE_ID = "duplicate_id"
    MEANINGLESS_LABEL = "meaningless_label"  # warning
    OFFSET_RANGE = "offset_range"
    SOURCE_URL = "source_url"
    CHUNK_TEXT = "chunk_text"
    # ontology
    UNKNOWN_CLASS = "unknown_class"
    UNKNOWN_PREDICATE = "unknown_predicate"
    DOMAIN_VIOLATION = "domain_violation"
    RANGE_VIOLATION = "range_violation"
    UNKNOWN_ATTRIBUTE = "unknown_attribute"
    DATATYPE = "datatype"
    CARDINALITY = "cardinality"
    CLASS_MISSING = "class_missing"  # warning
    # graph copy (SHACL and conflicts with stored facts)
    SHACL = "shacl"
    SHACL_NOT_EVALUATED = "shacl_not_evaluated"  # warning
    CLASS_CONFLICT = "class_conflict"
    RELATION_CONFLICT = "relation_conflict"
    CLASS_REQUIRED = "class_required"
    NOT_AN_INDIVIDUAL = "not_an_individual"  # warning on the entity, error on a relation that uses it
    EXISTING_VALUE_KEPT = "existing_value_kept"  # warning
    # SPARQL UPDATE review (ontocast)
    UPDATE_SYNTAX = "update_syntax"
    UPDATE_OPERATION = "update_operation"
    UPDATE_GRAPH = "update_graph"
    UPDATE_BLANK_NODE = "update_blank_node"


MEANINGLESS_LABELS = frozenset(
    {
        "value",
        "values",
        "keyword",
        "keywords",
        "type",
        "types",
        "name",
        "names",
        "label",
        "title",
        "text",
        "string",
        "entity",
        "entities",
        "thing",
        "object",
        "item",
        "data",
        "info",
        "information",
        "unknown",
        "none",
        "null",
        "nil",
        "n/a",
        "na",
        "tbd",
        "todo",
        "example",
        "sample",
        "test",
        "placeholder",
        "undefined",
        "값",
        "이름",
        "키워드",
        "유형",
        "타입",
        "종류",
        "항목",
        "데이터",
        "정보",
        "개체",
        "엔티티",
        "객체",
        "대상",
        "알 수 없음",
        "없음",
        "미상",
        "기타",
        "예시",
        "샘플",
        "테스트",
    }
)
"""Labels that name no real thing (seed 001: "value, keyword, type, name, ..."); compared case-insensitively."""


@dataclass(frozen=True)
class RuleConfig:
    """The tunable parts of the rules. The defaults are seed 001's."""

    entity_id_prefix: str = "E_"
    relation_id_prefix: str = "R_"
    id_prefix_severity: Literal["error", "warning"] = "error"
    """Seed 001 detects a missing prefix; ``"warning"`` reports it without failing the payload."""
    max_label_chars: int = 500
    max_id_chars: int = 256
    max_chunk_chars: int = 100_000
    meaningless_labels: frozenset[str] = MEANINGLESS_LABELS
    max_payload_chars: int = 20_000_000
    """Longest JSON text accepted before parsing."""
    max_items: int = 50_000
    """Most entities plus relations in one payload."""
    max_issues: int = 1_000
    """Issues collected before the rest are summarised in one line."""


DEFAULT_RULES = RuleConfig()


SUGGESTIONS: dict[str, str] = {
    Code.INVALID_JSON: "Answer with one JSON object only, without prose or code fences around it.",
    Code.NOT_AN_OBJECT: 'The answer is one JSON object with the keys "entities" and "relations".',
    Code.MISSING_FIELD: "Every entity needs id, label and type; every relation needs id, source_id, predicate "
    "and target_id.",
    Code.WRONG_TYPE: "Use JSON strings for ids, labels, types and predicates, numbers for confidence and offset, "
    "and lists for entities, relations and evidence.",
    Code.ENTITY_ID_PREFIX: "Give every entity an id that starts with 'E_' (E_1, E_2, ...) and use the same ids in "
    "source_id and target_id.",
    Code.RELATION_ID_PREFIX: "Give every relation an id that starts with 'R_' (R_1, R_2, ...).",
    Code.LABEL_LENGTH: "A label is the entity's name as the text writes it: 1 to 500 characters, not blank.",
    Code.CONFIDENCE_RANGE: "A confidence is a number from 0 to 1 (for example 0.85).",
    Code.ENTITY_TYPE: "The type of an entity is one of: class, individual, property.",
    Code.DANGLING_ENDPOINT: "Every source_id and target_id must be the id of an entity in the entities list: add "
    "the missing entity or drop the relation.",
    Code.SELF_LOOP: "A relation links two different entities: drop relations whose source and target are the same.",
    Code.DUPLICATE_ID: "Ids must be unique: merge duplicated entities (or relations) or give them new ids.",
    Code.OFFSET_RANGE: "An evidence offset is the character position in the source text: 0 or more.",
    Code.SOURCE_URL: "An evidence source_url is the http(s) address of the document.",
    Code.CHUNK_TEXT: "An evidence chunk_text is the sentence or passage that states the fact, not blank.",
    Code.MEANINGLESS_LABEL: "Replace generic labels (value, name, type, ...) with the actual name from the text, or "
    "drop the entity.",
}


@dataclass
class Findings:
    """Errors, warnings and suggestions collected by rule functions."""

    max_issues: int = DEFAULT_RULES.max_issues
    errors: list[ValidationIssue] = field(default_factory=list)
    warnings: list[ValidationIssue] = field(default_factory=list)
    suggestions: list[str] = field(default_factory=list)
    dropped: int = 0

    def _add(self, bucket: list[ValidationIssue], code: str, path: str, message: str, suggestion: str | None) -> None:
        if len(self.errors) + len(self.warnings) >= self.max_issues:
            self.dropped += 1
        else:
            bucket.append(ValidationIssue(code=str(code), path=path, message=message))
        hint = suggestion if suggestion is not None else SUGGESTIONS.get(code)
        if hint and hint not in self.suggestions:
            self.suggestions.append(hint)

    def error(self, code: str, path: str, message: str, suggestion: str | None = None) -> None:
        self._add(self.errors, code, path, message, suggestion)

    def warn(self, code: str, path: str, message: str, suggestion: str | None = None) -> None:
        self._add(self.warnings, code, path, message, suggestion)

    def report(self, severity: Literal["error", "warning"], code: str, path: str, message: str) -> None:
        (self.error if severity == "error" else self.warn)(code, path, message)

    def extend(self, other: Findings) -> None:
        for issue in other.errors:
            self.error(issue.code, issue.path, issue.message, "")
        for issue in other.warnings:
            self.warn(issue.code, issue.path, issue.message, "")
        for hint in other.suggestions:
            if hint not in self.suggestions:
                self.suggestions.append(hint)
        self.dropped += other.dropped

    def ordered_suggestions(self) -> list[str]:
        """Suggestions that fix errors first, then those that only address warnings."""
        warning_only = {w.code for w in self.warnings} - {e.code for e in self.errors}
        late = {SUGGESTIONS[c] for c in warning_only if c in SUGGESTIONS}
        return [s for s in self.suggestions if s not in late] + [s for s in self.suggestions if s in late]

    def finish(self) -> None:
        """Record how many issues were left out (once), so a truncated list says so."""
        if self.dropped:
            self.errors.append(
                ValidationIssue(code=Code.TOO_LARGE.value, path="$", message=f"{self.dropped} more issue(s) not listed")
            )
            self.dropped = 0


# --- seed 001 ------------------------------------------------------------------------------------------------

_HTTP_URL = re.compile(r"^https?://[^\s<>\"{}|\\^`]+$")


def _confidence(value: float | None, path: str, out: Findings) -> None:
    if value is None:
        return
    if not math.isfinite(value):
        out.error(Code.CONFIDENCE_RANGE, path, f"confidence must be a number from 0 to 1, got {value}")
    elif not 0.0 <= value <= 1.0:
        out.error(Code.CONFIDENCE_RANGE, path, f"confidence must be from 0 to 1, got {value}")


def _evidence(items: list[Evidence], path: str, cfg: RuleConfig, out: Findings) -> None:
    for k, ev in enumerate(items):
        p = f"{path}.evidence[{k}]"
        _confidence(ev.confidence, f"{p}.confidence", out)
        if ev.offset is not None and ev.offset < 0:
            out.error(Code.OFFSET_RANGE, f"{p}.offset", f"offset must be 0 or more, got {ev.offset}")
        if ev.source_url is not None and not _HTTP_URL.match(ev.source_url):
            out.error(Code.SOURCE_URL, f"{p}.source_url", f"not an http(s) URL: {ev.source_url[:100]!r}")
        if ev.chunk_text is not None and (not ev.chunk_text.strip() or len(ev.chunk_text) > cfg.max_chunk_chars):
            out.error(
                Code.CHUNK_TEXT,
                f"{p}.chunk_text",
                f"chunk_text must be non-blank text of at most {cfg.max_chunk_chars} characters",
            )
        if ev.chunk_id is not None and not ev.chunk_id.strip():
            out.error(Code.CHUNK_TEXT, f"{p}.chunk_id", "chunk_id must not be blank")


def _identifier(value: str, prefix: str, code: Code, kind: str, path: str, cfg: RuleConfig, out: Findings) -> None:
    if not value.strip() or len(value) > cfg.max_id_chars:
        out.error(Code.INVALID_ID, path, f"{kind} id must be 1 to {cfg.max_id_chars} characters and not blank")
    elif not value.startswith(prefix):
        out.report(cfg.id_prefix_severity, code, path, f"{kind} id {value[:60]!r} must start with {prefix!r}")


def label_key(label: str) -> str:
    """How labels are compared with the meaningless list: case-folded, spaces collapsed."""
    return " ".join(label.casefold().split())


def check_entities(ext: OntologyExtractionResult, cfg: RuleConfig, out: Findings) -> None:
    """Entity ids, labels, confidence, type and evidence; meaningless labels as warnings."""
    for i, e in enumerate(ext.entities):
        p = f"$.entities[{i}]"
        _identifier(e.id, cfg.entity_id_prefix, Code.ENTITY_ID_PREFIX, "entity", f"{p}.id", cfg, out)
        if not e.label.strip() or len(e.label) > cfg.max_label_chars:
            out.error(
                Code.LABEL_LENGTH,
                f"{p}.label",
                f"label must be 1 to {cfg.max_label_chars} characters and not blank (got {len(e.label)})",
            )
        elif label_key(e.label) in cfg.meaningless_labels:
            out.warn(Code.MEANINGLESS_LABEL, f"{p}.label", f"label {e.label!r} names no real thing")
        if e.type not in ENTITY_TYPES:
            out.error(
                Code.ENTITY_TYPE, f"{p}.type", f"type must be one of {', '.join(ENTITY_TYPES)}, got {e.type[:40]!r}"
            )
        _confidence(e.confidence, f"{p}.confidence", out)
        _evidence(e.evidence, p, cfg, out)


def check_relations(ext: OntologyExtractionResult, cfg: RuleConfig, out: Findings) -> None:
    """Relation ids, predicate present, confidence, evidence, endpoints that exist, no self loop."""
    entity_ids = {e.id for e in ext.entities}
    for j, r in enumerate(ext.relations):
        p = f"$.relations[{j}]"
        _identifier(r.id, cfg.relation_id_prefix, Code.RELATION_ID_PREFIX, "relation", f"{p}.id", cfg, out)
        if not r.predicate.strip():
            out.error(Code.INVALID_PREDICATE, f"{p}.predicate", "predicate must not be blank")
        _confidence(r.confidence, f"{p}.confidence", out)
        _evidence(r.evidence, p, cfg, out)
        for end in ("source_id", "target_id"):
            value = getattr(r, end)
            if value not in entity_ids:
                out.error(Code.DANGLING_ENDPOINT, f"{p}.{end}", f"{end} {value[:60]!r} is not the id of an entity")
        if r.source_id == r.target_id:
            out.error(Code.SELF_LOOP, p, f"relation {r.id[:60]!r} links {r.source_id[:60]!r} to itself")


def check_identifiers(ext: OntologyExtractionResult, cfg: RuleConfig, out: Findings) -> None:
    """No id used twice among entities, nor twice among relations."""
    for kind, ids in (("entities", [e.id for e in ext.entities]), ("relations", [r.id for r in ext.relations])):
        first: dict[str, int] = {}
        for i, item_id in enumerate(ids):
            if item_id in first:
                out.error(
                    Code.DUPLICATE_ID,
                    f"$.{kind}[{i}].id",
                    f"id {item_id[:60]!r} is already used by $.{kind}[{first[item_id]}]",
                )
            else:
                first[item_id] = i


# --- ontology ------------------------------------------------------------------------------------------------


def entity_classes(ext: OntologyExtractionResult, index: OntologyIndex) -> dict[str, URIRef]:
    """Entity id to the class IRI it names, for entities whose class resolves."""
    out: dict[str, URIRef] = {}
    for e in ext.entities:
        if e.ontology_class is not None and e.id not in out:
            cls = index.resolve_class(e.ontology_class)
            if cls is not None:
                out[e.id] = cls
    return out


def _attributes(
    attrs: Mapping[str, object], path: str, owner_class: URIRef | None, index: OntologyIndex, out: Findings
) -> None:
    onto = index.onto
    for name, value in attrs.items():
        p = f"{path}.attributes.{name}"
        prop = index.datatype_properties.get(name)
        if prop is None:
            known = ", ".join(sorted(index.datatype_properties)) or "none"
            out.error(
                Code.UNKNOWN_ATTRIBUTE,
                p,
                f"{name[:60]!r} is not a datatype property of the {index.domain} ontology",
                f"Attributes of the {index.domain} ontology: {known}.",
            )
            continue
        values = value if isinstance(value, list) else [value]
        if prop.functional and len(values) > 1:
            out.error(
                Code.CARDINALITY,
                p,
                f"{name} takes one value, got {len(values)}",
                f"Give {name} a single value, not a list.",
            )
        for k, item in enumerate(values):
            if lexical(item, prop.range) is None:
                where = p if not isinstance(value, list) else f"{p}[{k}]"
                out.error(
                    Code.DATATYPE,
                    where,
                    f"{name} must be a {datatype_name(prop.range)} value, got {item!r:.60}",
                    f"Write {name} as a {datatype_name(prop.range)} value.",
                )
        if prop.domain and owner_class is not None and not onto.is_a(owner_class, prop.domain):
            out.error(
                Code.DOMAIN_VIOLATION,
                p,
                f"{name} applies to {', '.join(index.allowed(prop.domain)) or 'other'} "
                f"resources, not to {str(owner_class).rsplit('#', 1)[-1]}",
            )


def check_ontology(ext: OntologyExtractionResult, index: OntologyIndex, out: Findings) -> None:
    """Classes and predicates known to the ontology, domain and range, attribute datatypes and cardinality."""
    classes = entity_classes(ext, index)
    class_list = ", ".join(index.class_names())
    for i, e in enumerate(ext.entities):
        p = f"$.entities[{i}]"
        if e.ontology_class is not None and index.resolve_class(e.ontology_class) is None:
            out.error(
                Code.UNKNOWN_CLASS,
                f"{p}.ontology_class",
                f"{e.ontology_class[:60]!r} is not a class of the {index.domain} ontology",
                f"Classes of the {index.domain} ontology: {class_list}.",
            )
        elif e.ontology_class is None and e.type == "individual":
            out.warn(
                Code.CLASS_MISSING,
                f"{p}.ontology_class",
                f"entity {e.id[:60]!r} names no ontology class",
                f"Name the class of every individual ({class_list}).",
            )
        _attributes(e.attributes, p, classes.get(e.id), index, out)
    relation_list = ", ".join(index.relation_names()) or "none"
    for j, r in enumerate(ext.relations):
        p = f"$.relations[{j}]"
        rel = index.resolve_relation(r.predicate) if r.predicate.strip() else None
        if rel is None:
            if r.predicate.strip():
                out.error(
                    Code.UNKNOWN_PREDICATE,
                    f"{p}.predicate",
                    f"{r.predicate[:60]!r} is not a relation of the {index.domain} ontology",
                    f"Relations of the {index.domain} ontology: {relation_list}.",
                )
            continue
        for end, allowed, code, what in (
            ("source_id", rel.domain, Code.DOMAIN_VIOLATION, "source"),
            ("target_id", rel.range, Code.RANGE_VIOLATION, "target"),
        ):
            cls = classes.get(getattr(r, end))
            if cls is not None and allowed and not index.onto.is_a(cls, allowed):
                names = ", ".join(index.allowed(allowed))
                out.error(
                    code,
                    f"{p}.{end}",
                    f"{rel.notation} needs a {what} of class {names}; {getattr(r, end)[:60]!r} is "
                    f"{str(cls).rsplit('#', 1)[-1]}",
                    f"For {rel.notation}, the {what} must be one of {names}: fix the class of "
                    f"{getattr(r, end)[:60]!r} or choose another predicate.",
                )
        _attributes(r.attributes, p, index.relation_class(rel), index, out)


# --- all together --------------------------------------------------------------------------------------------

Rule = Callable[[OntologyExtractionResult, RuleConfig, Findings], None]

SEED_RULES: dict[str, Rule] = {
    "entities": check_entities,
    "relations": check_relations,
    "identifiers": check_identifiers,
}
"""The seed 001 rule groups by name (the ontology group needs an index and is applied separately)."""


def check_all(
    ext: OntologyExtractionResult, cfg: RuleConfig = DEFAULT_RULES, index: OntologyIndex | None = None
) -> Findings:
    """Every rule: seed 001's, then the ontology's when an index is given."""
    out = Findings(max_issues=cfg.max_issues)
    for rule in SEED_RULES.values():
        rule(ext, cfg, out)
    if index is not None:
        check_ontology(ext, index, out)
    return out


__all__ = [
    "DEFAULT_RULES",
    "MEANINGLESS_LABELS",
    "SEED_RULES",
    "SUGGESTIONS",
    "Code",
    "Findings",
    "RuleConfig",
    "check_all",
    "check_entities",
    "check_identifiers",
    "check_ontology",
    "check_relations",
    "entity_classes",
    "label_key",
]
