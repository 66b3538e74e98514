"""From whatever a caller hands in to a parsed extraction, or to issues that say why not.

A payload may be the model itself, a dict, JSON text (``str`` or ``bytes``) or any pydantic model with the
same fields. Nothing here raises on bad input: a payload that is not JSON, not an object, too large or of
the wrong shape comes back as issues with codes and paths, like any other finding.

Structure is checked on the whole payload at once (pydantic reports every field that is wrong, not the first
one). When it fails, :func:`parse_salvaging` also hands back a :class:`Salvage`: the entities and relations
that are well-formed on their own, so that the rules can still be run on them. An LLM then learns about every
independent fault in one re-ask instead of one round per kind of fault.
"""

from __future__ import annotations

import json
import re
from dataclasses import dataclass
from typing import Any

from pydantic import BaseModel, ValidationError

from ont_platform.validation.models import OntologyExtractionResult, ValidationIssue
from ont_platform.validation.rules import DEFAULT_RULES, SUGGESTIONS, Code, Findings, RuleConfig

Payload = Any
"""An extraction as a model, a dict, JSON text or bytes (anything else is reported, not raised)."""

_MISSING = {"missing"}
_TYPE_ERRORS = {
    "model_type",
    "model_attributes_type",
    "dataclass_type",
    "list_type",
    "dict_type",
    "string_type",
    "int_type",
    "float_type",
    "bool_type",
    "int_from_float",
    "is_instance_of",
    "union_tag_invalid",
    "string_sub_type",
    "none_required",
}


def decode(payload: Payload, cfg: RuleConfig = DEFAULT_RULES) -> tuple[Any, ValidationIssue | None]:
    """The payload as plain Python data, or the issue that prevents reading it."""
    if isinstance(payload, OntologyExtractionResult):
        return payload.payload(), None
    if isinstance(payload, BaseModel):
        try:
            return payload.model_dump(mode="python"), None
        except Exception as exc:  # noqa: BLE001 - a foreign model whose serialiser fails is a bad payload, not our crash
            return None, ValidationIssue(code=Code.WRONG_TYPE, path="$", message=f"cannot read the model: {exc}")
    if isinstance(payload, (bytes, bytearray, memoryview)):
        raw = bytes(payload)
        if len(raw) > cfg.max_payload_chars:
            return None, _too_large(len(raw), cfg)
        try:
            payload = raw.decode("utf-8")
        except UnicodeDecodeError as exc:
            return None, ValidationIssue(code=Code.INVALID_JSON, path="$", message=f"not UTF-8 text: {exc.reason}")
    if isinstance(payload, str):
        if len(payload) > cfg.max_payload_chars:
            return None, _too_large(len(payload), cfg)
        text = _strip_fences(payload)
        try:
            return json.loads(text), None
        except json.JSONDecodeError as exc:
            return None, ValidationIssue(
                code=Code.INVALID_JSON, path="$", message=f"not JSON: {exc.msg} at line {exc.lineno} column {exc.colno}"
            )
        except RecursionError:
            return None, ValidationIssue(code=Code.INVALID_JSON, path="$", message="JSON nested too deeply")
    return payload, None


def _too_large(size: int, cfg: RuleConfig) -> ValidationIssue:
    return ValidationIssue(
        code=Code.TOO_LARGE,
        path="$",
        message=f"payload of {size} characters is over the limit of {cfg.max_payload_chars}",
    )


def _strip_fences(text: str) -> str:
    # LLMs often wrap JSON in a Markdown code fence; the fence is not part of the answer.
    stripped = text.strip()
    if stripped.startswith("```") and stripped.endswith("```") and stripped.count("\n") >= 1:
        body = stripped[3:-3]
        first, _, rest = body.partition("\n")
        return rest if first.strip().isalpha() or not first.strip() else body
    return text


def path_of(loc: tuple[Any, ...]) -> str:
    """A pydantic error location as a JSON path: ``("entities", 0, "id")`` -> ``$.entities[0].id``."""
    out = "$"
    for part in loc:
        if isinstance(part, int):
            out += f"[{part}]"
        elif isinstance(part, str) and part.startswith("function-"):
            continue
        else:
            out += f".{part}"
    return out


def parse(payload: Payload, cfg: RuleConfig = DEFAULT_RULES) -> tuple[OntologyExtractionResult | None, Findings]:
    """The parsed extraction (or ``None``) and the structural findings (empty when parsing succeeded)."""
    ext, out, _salvage = parse_salvaging(payload, cfg)
    out.finish()
    return ext, out


def parse_salvaging(
    payload: Payload, cfg: RuleConfig = DEFAULT_RULES
) -> tuple[OntologyExtractionResult | None, Findings, Salvage | None]:
    """Like :func:`parse`, and when the structure is wrong also the :class:`Salvage` of the items that are
    well-formed on their own (``None`` when nothing can be salvaged: not JSON, not an object, too large).

    The findings are not finished (:meth:`Findings.finish`), so that the caller may add the salvaged items'
    rule findings under the same bound on the number of issues and summarise what was left out once.
    """
    out = Findings(max_issues=cfg.max_issues)
    data, problem = decode(payload, cfg)
    if problem is not None:
        out.error(problem.code, problem.path, problem.message)
        return None, out, None
    if not isinstance(data, dict):
        out.error(
            Code.NOT_AN_OBJECT, "$", f"expected a JSON object with entities and relations, got {_json_type(data)}"
        )
        return None, out, None
    for key in ("entities", "relations"):
        items = data.get(key)
        if isinstance(items, list) and len(items) > cfg.max_items:
            out.error(Code.TOO_LARGE, f"$.{key}", f"{len(items)} {key} is over the limit of {cfg.max_items}")
            return None, out, None
    try:
        return OntologyExtractionResult.model_validate(data), out, None
    except ValidationError as exc:
        errors = exc.errors(include_url=False, include_input=False)
        for err in errors:
            kind = err.get("type", "")
            code = (
                Code.MISSING_FIELD
                if kind in _MISSING
                else Code.WRONG_TYPE
                if kind in _TYPE_ERRORS or kind.endswith("_type")
                else Code.INVALID_VALUE
            )
            loc = tuple(err.get("loc", ()))
            message = "required field is missing" if code == Code.MISSING_FIELD else str(err.get("msg", kind))
            if "attributes" in loc[:-1]:
                # A union reports one error per member type; the attribute is wrong once.
                at = loc.index("attributes")
                loc = loc[: at + 2]
                message = "an attribute value is a string, a number, a boolean or a list of them"
            path = path_of(loc)
            if any(i.path == path and i.code == code for i in out.errors):
                continue
            out.error(code, path, message)
        return None, out, Salvage.of(data, [tuple(err.get("loc", ())) for err in errors])
    except RecursionError:
        out.error(Code.INVALID_VALUE, "$", "payload nested too deeply")
        return None, out, None


_ITEM_PATH = re.compile(r"^\$\.(entities|relations)\[(\d+)\]")
_REFERENCE = re.compile(r"\$\.(entities|relations)\[(\d+)\]$")


@dataclass(frozen=True)
class Salvage:
    """The entities and relations of a structurally broken payload that are well-formed one by one.

    Why: pydantic rejects the payload as a whole, so without this the rules never run and one ``wrong_type``
    hides every id, label, confidence or endpoint fault elsewhere; the LLM would need a re-ask round per kind
    of fault. Running the rules on ``extraction`` (the good items, renumbered) and passing the findings
    through :meth:`translate` reports them at their paths in the original payload.

    Granularity is the item: an entity or relation with any structural fault is left out as a whole, so its
    *other* faults (a bad id prefix next to a wrong-typed label) are reported once its structure is fixed.
    Findings that depend on a left-out item are dropped or never arise:

    * ``dangling_endpoint`` of a relation whose endpoint may be the id of a left-out entity (that id, or any
      id when a left-out entity has no readable string id, or when the entities list itself is unusable);
    * ``duplicate_id`` between a left-out item and a good one (only good items are compared);
    * ``domain_violation`` / ``range_violation`` at an endpoint that is a left-out entity (its class is not
      known), and a left-out relation's ontology checks;
    * the graph stages of ``ontocast`` (conflicts with stored facts, SHACL), which need the whole payload.
    """

    extraction: OntologyExtractionResult
    entity_index: tuple[int, ...]
    """Position in the payload of each entity of :attr:`extraction`."""
    relation_index: tuple[int, ...]
    """Position in the payload of each relation of :attr:`extraction`."""
    entities_complete: bool
    """Every entity of the payload is in :attr:`extraction` (so a dangling endpoint is really dangling)."""
    left_out_entity_ids: frozenset[str]
    """String ids of the entities left out."""
    unknown_entity_id: bool
    """Some left-out entity has no readable string id (or the entities list is unusable)."""

    @classmethod
    def of(cls, data: dict[str, Any], locs: list[tuple[Any, ...]]) -> Salvage | None:
        """The salvage of ``data`` given pydantic's error locations, or ``None`` if no item is usable."""
        bad: dict[str, set[int]] = {"entities": set(), "relations": set()}
        unusable: set[str] = set()
        for loc in locs:
            if not loc or loc[0] not in bad:
                continue  # a top-level field (title, source_url, ...) does not affect the items
            if len(loc) >= 2 and isinstance(loc[1], int):
                bad[loc[0]].add(loc[1])
            else:
                unusable.add(loc[0])  # the list itself is missing or not a list
        good: dict[str, list[int]] = {}
        for key in bad:
            items = data.get(key, [])
            good[key] = (
                []
                if key in unusable or not isinstance(items, list)
                else [i for i in range(len(items)) if i not in bad[key]]
            )
        if not good["entities"] and not good["relations"]:
            return None
        entities = data.get("entities") if "entities" not in unusable else None
        left_out = [entities[i] for i in sorted(bad["entities"])] if isinstance(entities, list) else []
        ids = [e.get("id") if isinstance(e, dict) else None for e in left_out]
        try:
            partial = OntologyExtractionResult.model_validate(
                {
                    "entities": [data["entities"][i] for i in good["entities"]],
                    "relations": [data["relations"][j] for j in good["relations"]],
                }
            )
        except (ValidationError, RecursionError):  # pragma: no cover - each item validated on its own above
            return None
        return cls(
            extraction=partial,
            entity_index=tuple(good["entities"]),
            relation_index=tuple(good["relations"]),
            entities_complete="entities" not in unusable and not bad["entities"],
            left_out_entity_ids=frozenset(i for i in ids if isinstance(i, str)),
            unknown_entity_id="entities" in unusable or any(not isinstance(i, str) for i in ids),
        )

    def _position(self, match: re.Match[str]) -> str:
        kind, k = match.group(1), int(match.group(2))
        index = self.entity_index if kind == "entities" else self.relation_index
        return f"$.{kind}[{index[k]}]" if k < len(index) else match.group(0)

    def original_path(self, path: str) -> str:
        """A path into :attr:`extraction` as the path into the payload: ``$.entities[0]`` -> ``$.entities[3]``."""
        return _ITEM_PATH.sub(self._position, path, count=1)

    def depends_on_left_out(self, issue: ValidationIssue) -> bool:
        """Whether ``issue`` (found on :attr:`extraction`) may only be a consequence of a left-out item."""
        if issue.code != Code.DANGLING_ENDPOINT or self.entities_complete:
            return False
        if self.unknown_entity_id:
            return True
        match = _ITEM_PATH.match(issue.path)
        end = issue.path.rsplit(".", 1)[-1]
        if match is None or match.group(1) != "relations" or end not in ("source_id", "target_id"):
            return True  # not a shape this module knows: leave it out rather than report a false fault
        relation = self.extraction.relations[int(match.group(2))]
        return getattr(relation, end) in self.left_out_entity_ids

    def translate(self, found: Findings) -> Findings:
        """``found`` (rule findings on :attr:`extraction`) without the dependent issues, at the payload's paths."""
        out = Findings(max_issues=found.max_issues)
        kept_codes: set[str] = set()
        for bucket, add in ((found.errors, out.error), (found.warnings, out.warn)):
            for issue in bucket:
                if self.depends_on_left_out(issue):
                    continue
                kept_codes.add(issue.code)
                message = issue.message
                if issue.code == Code.DUPLICATE_ID:  # "... already used by $.entities[k]" names another item
                    message = _REFERENCE.sub(self._position, message)
                add(issue.code, self.original_path(issue.path), message, "")
        dropped_hints = {SUGGESTIONS[c] for c in (Code.DANGLING_ENDPOINT,) if c not in kept_codes}
        out.suggestions = [s for s in found.suggestions if s not in dropped_hints]
        out.dropped += found.dropped
        return out


def _json_type(value: Any) -> str:
    if value is None:
        return "null"
    return {bool: "a boolean", int: "a number", float: "a number", str: "a string", list: "an array"}.get(
        type(value), type(value).__name__
    )


__all__ = ["Payload", "Salvage", "decode", "parse", "parse_salvaging", "path_of"]
