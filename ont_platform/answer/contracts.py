"""The three answer contracts of the seeds, as pydantic models, and their JSON Schemas.

The JSON Schema files in ``schemas/`` are the seeds' contracts verbatim; the models mirror them so code builds
answers with types, and :func:`schema_errors` checks any dict (ours or an external LLM's) against the file.
"""

from __future__ import annotations

import json
from functools import lru_cache
from importlib import resources
from typing import Any, Literal

from pydantic import BaseModel, ConfigDict, Field

OnchainIntent = Literal["path_exists", "token_flow", "cluster_lookup", "label_lookup", "no_path"]
Decision = Literal["answer", "refuse", "max_hops"]
Factor = Literal["ungrounded_hop", "missing_start_node", "missing_edge", "hop_limit_exceeded", "node_alias_unmapped"]
PageStatus = Literal["ran", "clarify", "unsupported"]


class _Contract(BaseModel):
    model_config = ConfigDict(extra="forbid", populate_by_name=True, serialize_by_alias=True)

    def to_json(self) -> dict[str, Any]:
        """The contract as plain JSON data (aliases applied)."""
        return self.model_dump(by_alias=True, mode="json")

    def __repr_args__(self) -> Any:
        """Fields as pydantic shows them, less the optional additions left out of the JSON when absent."""
        dropped = {name for name, f in type(self).model_fields.items() if f.exclude_if is not None}
        return [(k, v) for k, v in super().__repr_args__() if not (k in dropped and v is None)]

    def _repr_html_(self) -> str:
        """A table of the main fields and the path as a picture, for notebooks."""
        from ont_platform.answer.html import answer_html

        return answer_html(self.to_json(), type(self).__name__)


class PathEdge(_Contract):
    """One observed or inferred on-chain edge of an answer's path."""

    edge_id: str
    tx_hash: str | None
    from_: str = Field(alias="from")
    to: str


class OnchainAnswer(_Contract):
    """Seed 000: an on-chain answer with its path, cited nodes and the query that ran."""

    q_id: str
    intent: OnchainIntent
    generated_query: str
    answer_ko: str
    path: list[PathEdge]
    cited_nodes: list[str]
    confidence: Literal["low", "mid", "high"]
    grounding_ok: bool


class Hop(_Contract):
    """One hop of a multi-hop walk, with the chunk that grounds it; a hop over a stated triple of plain RDF
    names the triple (subject, property IRI, object as stored) and its source instead (both left out of the
    JSON when absent, so a chunk-grounded hop is written as the seed contract writes it)."""

    src: str
    rel: str
    dst: str
    chunk_id: str | None
    triple: list[str] | None = Field(default=None, exclude_if=lambda v: v is None)
    source: str | None = Field(default=None, exclude_if=lambda v: v is None)


class AnswerPath(_Contract):
    """One answer of several, with the walk that reaches it (each answer its own path and evidence)."""

    answer: str
    path: list[Hop]


class HopDecision(_Contract):
    """Seed 003: answer, refuse or stop at the hop limit, with the walked path and the factors."""

    query_id: str
    decision: Decision
    answer: str | None
    path: list[Hop]
    factors: list[Factor]
    reason: str = Field(min_length=20)
    evidence: str = Field(min_length=8)
    hedge: str | None
    answers: list[AnswerPath] | None = Field(default=None, exclude_if=lambda v: v is None)
    """With an answer: every node it names, each with the walk that reaches it (``path`` is the first one's).
    Beside the seed contract's fields, which stay as the seed writes them."""


class PageMatch(_Contract):
    """A page that passed the filter, with the values of the columns used."""

    url: str
    evidence: str


class PageFilterResult(_Contract):
    """Seed 004: a Korean filter question run over the page inventory, or a clarify/unsupported reply."""

    question: str
    status: PageStatus
    parsed_filter: str | None
    columns_used: list[str]
    matched: list[PageMatch]
    count: int | None
    hedge: str


CONTRACTS: dict[str, type[_Contract]] = {
    "onchain_answer": OnchainAnswer,
    "hop_decision": HopDecision,
    "page_filter_result": PageFilterResult,
}


@lru_cache(maxsize=None)
def json_schema(name: str) -> dict[str, Any]:
    """The seed's JSON Schema for contract ``name``."""
    text = resources.files("ont_platform.answer").joinpath("schemas", f"{name}.schema.json").read_text("utf-8")
    schema: dict[str, Any] = json.loads(text)
    return schema


def schema_errors(obj: object, name: str) -> list[str]:
    """Every JSON Schema violation of ``obj`` against contract ``name`` (empty when it conforms).

    jsonschema is imported here, not at module level: with its format extras installed, importing it builds
    an RFC 3987 grammar (about 2 s), and only verification needs it, not building or reading answers.
    """
    from jsonschema import Draft202012Validator

    validator = Draft202012Validator(json_schema(name))
    return [
        f"{'/'.join(str(p) for p in err.absolute_path) or '(root)'}: {err.message}"
        for err in sorted(validator.iter_errors(obj), key=lambda e: list(map(str, e.absolute_path)))
    ]
