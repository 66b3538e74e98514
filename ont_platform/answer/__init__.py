"""Answers: the seed contracts and the templated Korean text built from facts."""

from ont_platform.answer.contracts import (
    CONTRACTS,
    Hop,
    HopDecision,
    OnchainAnswer,
    PageFilterResult,
    PageMatch,
    PathEdge,
    json_schema,
    schema_errors,
)

__all__ = [
    "CONTRACTS",
    "Hop",
    "HopDecision",
    "OnchainAnswer",
    "PageFilterResult",
    "PageMatch",
    "PathEdge",
    "json_schema",
    "schema_errors",
]
