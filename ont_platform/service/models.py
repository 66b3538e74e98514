"""Request and response bodies of the HTTP API, as pydantic models (they are also the OpenAPI document's schemas).

Requests are strict about their shape (unknown keys are refused, so a typo is reported rather than ignored);
sizes are bounded here and again by the library's own limits.
"""

from __future__ import annotations

from typing import Annotated, Any, Literal

from pydantic import BaseModel, ConfigDict, Field, StringConstraints, field_validator

from ont_platform.answer.contracts import HopDecision, OnchainAnswer, PageFilterResult
from ont_platform.limits import DEFAULT_LIMITS
from ont_platform.service.fetch import MAX_URL_CHARS

DomainName = Annotated[str, StringConstraints(pattern=r"^[a-z][a-z0-9_-]{0,39}$")]
"""A loaded domain's name: the bundled onchain, kg and pages, or a user's own (GET /api/v1/domains lists them)."""
ExtractorName = Literal["lexicon", "llm"]
MAX_TEXT_CHARS = 1_000_000
"""Longest text a request may carry (the service then reads at most ``max_text_chars`` of it)."""


class _Request(BaseModel):
    model_config = ConfigDict(extra="forbid")


class AskRequest(_Request):
    """A question for one loaded domain."""

    domain: DomainName = Field(
        description="the dataset's domain: onchain, kg, pages or a user's own "
        "(GET /api/v1/domains lists the loaded ones)"
    )
    question: str = Field(
        min_length=1, max_length=DEFAULT_LIMITS.max_question_chars, description="the question, in Korean or English"
    )
    id: str | None = Field(
        default=None, min_length=1, max_length=200, description="copied into the answer's q_id / query_id"
    )

    model_config = ConfigDict(
        extra="forbid",
        json_schema_extra={
            "examples": [
                {
                    "domain": "onchain",
                    "question": "n_a1 에서 3-hop 안에 거래소 입금주소(ExchangeDeposit)에 자금이 닿나요?",
                    "id": "q_001",
                }
            ]
        },
    )


class VerifyRequest(_Request):
    """An answer (ours or anyone's) to check against the graph, and optionally the question it answers."""

    answer: dict[str, Any] = Field(
        description="the answer JSON: an onchain_answer, hop_decision or page_filter_result contract"
    )
    question: str | None = Field(
        default=None,
        max_length=DEFAULT_LIMITS.max_question_chars,
        description="the question that was asked: enables the checks that need the start "
        "node, the target and the hop limit",
    )


def _http_url(value: str | None) -> str | None:
    if value is not None and not value.lower().startswith(("http://", "https://")):
        raise ValueError("must be an http or https URL")
    return value


class ExtractTextRequest(_Request):
    """Text to extract entities and relations from."""

    text: str = Field(min_length=1, max_length=MAX_TEXT_CHARS, description="plain text (not HTML)")
    url: str | None = Field(
        default=None,
        max_length=MAX_URL_CHARS,
        description="where the text came from: written into the evidence, never fetched",
    )
    domain: DomainName | None = Field(
        default=None,
        description="whose ontology and names to use (default: kg if loaded, else the first loaded domain)",
    )
    extractor: ExtractorName | None = Field(
        default=None, description="lexicon (built in) or llm (when configured; the default then)"
    )

    _url = field_validator("url")(_http_url)


class ExtractUrlRequest(_Request):
    """A web page to fetch (under the URL-fetch safety rules) and extract from."""

    url: str = Field(min_length=1, max_length=MAX_URL_CHARS, description="an http(s) URL")
    domain: DomainName | None = None
    extractor: ExtractorName | None = None

    _url = field_validator("url")(_http_url)


# -- responses ---------------------------------------------------------------------------------------------------


class ErrorBody(BaseModel):
    """Every error: a stable code, a message for people and, for invalid requests, the fields at fault."""

    error: str
    message: str
    details: list[dict[str, Any]] | None = None


class DomainInfo(BaseModel):
    domain: str
    title: str = Field(description="what the domain is about: its ontology's title or label")
    family: str = Field(
        description="entities, transfers or inventory: how it is asked and the contract it answers with"
    )
    contract: str | None
    examples: list[str]


AnswerBody = OnchainAnswer | HopDecision | PageFilterResult


class TraceBody(BaseModel):
    """An answer and every SPARQL query that ran to produce it, in order."""

    answer: AnswerBody
    queries: list[str]


class FailureBody(BaseModel):
    check: str
    detail: str


class VerifyBody(BaseModel):
    """The verifier's verdict: ``grounding_ok`` is about citations only; ``ok`` means no check failed."""

    id: str
    ok: bool
    grounding_ok: bool
    failures: list[FailureBody]


class NodeClass(BaseModel):
    iri: str
    name: str
    label: str


class NodeBody(BaseModel):
    """What the graph says about one node."""

    domain: str
    id: str
    iri: str
    label: str | None
    classes: list[NodeClass]
    address: str | None = None


class IssueBody(BaseModel):
    code: str
    path: str
    message: str


class ExtractionBody(BaseModel):
    """Seed 001's extraction response: the guard's verdict on the entities and relations found."""

    url: str | None = None
    title: str | None
    domain: str
    extractor: str
    entities: list[dict[str, Any]]
    relations: list[dict[str, Any]]
    validation_passed: bool
    validation_errors: list[IssueBody]
    warnings: list[IssueBody]
    attempts: int


__all__ = [
    "MAX_TEXT_CHARS",
    "AnswerBody",
    "AskRequest",
    "DomainInfo",
    "DomainName",
    "ErrorBody",
    "ExtractTextRequest",
    "ExtractUrlRequest",
    "ExtractionBody",
    "ExtractorName",
    "FailureBody",
    "IssueBody",
    "NodeBody",
    "NodeClass",
    "TraceBody",
    "VerifyBody",
    "VerifyRequest",
]
