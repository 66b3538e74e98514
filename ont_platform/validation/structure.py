"""From whatever a caller hands in to a parsed extraction, or to issues that say why not.

A payload may be the model itself, a dict, JSON text (``str`` or ``bytes``) or any pydantic model with the
same fields. Nothing here raises on bad input: a payload that is not JSON, not an object, too large or of
the wrong shape comes back as issues with codes and paths, like any other finding.
"""

from __future__ import annotations

import json
from typing import Any

from pydantic import BaseModel, ValidationError

from ont_platform.validation.models import OntologyExtractionResult, ValidationIssue
from ont_platform.validation.rules import DEFAULT_RULES, Code, Findings, RuleConfig

Payload = Any
"""An extraction as a model, a dict, JSON text or bytes (anything else is reported, not raised)."""

_MISSING = {"missing"}
_TYPE_ERRORS = {"model_type", "model_attributes_type", "dataclass_type", "list_type", "dict_type", "string_type",
                "int_type", "float_type", "bool_type", "int_from_float", "is_instance_of", "union_tag_invalid",
                "string_sub_type", "none_required"}


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
            return None, ValidationIssue(code=Code.INVALID_JSON, path="$",
                                         message=f"not JSON: {exc.msg} at line {exc.lineno} column {exc.colno}")
        except RecursionError:
            return None, ValidationIssue(code=Code.INVALID_JSON, path="$", message="JSON nested too deeply")
    return payload, None


def _too_large(size: int, cfg: RuleConfig) -> ValidationIssue:
    return ValidationIssue(code=Code.TOO_LARGE, path="$",
                           message=f"payload of {size} characters is over the limit of {cfg.max_payload_chars}")


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
    out = Findings(max_issues=cfg.max_issues)
    data, problem = decode(payload, cfg)
    if problem is not None:
        out.error(problem.code, problem.path, problem.message)
        return None, out
    if not isinstance(data, dict):
        out.error(Code.NOT_AN_OBJECT, "$", f"expected a JSON object with entities and relations, got "
                  f"{_json_type(data)}")
        return None, out
    for key in ("entities", "relations"):
        items = data.get(key)
        if isinstance(items, list) and len(items) > cfg.max_items:
            out.error(Code.TOO_LARGE, f"$.{key}", f"{len(items)} {key} is over the limit of {cfg.max_items}")
            return None, out
    try:
        return OntologyExtractionResult.model_validate(data), out
    except ValidationError as exc:
        for err in exc.errors(include_url=False, include_input=False):
            kind = err.get("type", "")
            code = (Code.MISSING_FIELD if kind in _MISSING
                    else Code.WRONG_TYPE if kind in _TYPE_ERRORS or kind.endswith("_type")
                    else Code.INVALID_VALUE)
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
        out.finish()
        return None, out
    except RecursionError:
        out.error(Code.INVALID_VALUE, "$", "payload nested too deeply")
        return None, out


def _json_type(value: Any) -> str:
    if value is None:
        return "null"
    return {bool: "a boolean", int: "a number", float: "a number", str: "a string", list: "an array"}.get(
        type(value), type(value).__name__)


__all__ = ["Payload", "decode", "parse", "path_of"]
