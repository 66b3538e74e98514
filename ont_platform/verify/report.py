"""The result of verifying one answer: ``{"id", "ok", "grounding_ok", "failures": [{"check", "detail"}]}``."""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

MAX_DETAIL_CHARS = 2_000
"""Longest failure detail kept: a detail quotes the answer, and an answer can hold megabytes in one field."""

CHECKS = (
    "json",  # the line is not a JSON object
    "limits",  # the answer or its question is over a size limit (Limits); nothing else was checked
    "schema",  # JSON Schema of the contract
    "data",  # no dataset of the answer's domain to check against
    "citations",  # every cited edge, tx hash, chunk, node and URL exists and belongs together
    "path",  # the path is a connected walk from the start within the hop limit, and is cited
    "bfs",  # yes/no (and shortest length) against a hop-limited breadth-first search
    "decision",  # decision consistency (seed 003 rules; intent against path for on-chain answers)
    "inference",  # inferred same_entity links never stated with high confidence, always as 추정
    "query",  # generated_query: refused, failed, or its node set differs from the answer's or the gold's
    "filter",  # pages: parsed_filter uses only dictionary columns, operators and thresholds
    "urls",  # pages: the matched URL set equals running the filter (and the gold set)
    "evidence",  # pages: evidence values equal the inventory's
    "empty",  # pages: clarify/unsupported carry no filter, no rows and a null count
)
"""Every value the ``check`` field of a failure can take, in the order checks run."""


@dataclass(frozen=True, slots=True)
class Failure:
    """One check that did not pass, and why (facts from the graph, never a guess)."""

    check: str
    detail: str

    def to_json(self) -> dict[str, str]:
        return {"check": self.check, "detail": self.detail}


@dataclass
class VerifyReport:
    """The verdict on one answer.

    ``grounding_ok`` is about citations only: false when anything cited (edge, tx hash, chunk, node, URL) does
    not exist or does not belong to what it is cited with, or when the answer could not be read at all.
    ``ok`` is true only when no check failed.
    """

    id: str
    failures: list[Failure] = field(default_factory=list)
    grounding_ok: bool = True
    _seen: set[Failure] = field(default_factory=set, repr=False, compare=False)

    @property
    def ok(self) -> bool:
        return not self.failures

    def fail(self, check: str, detail: str) -> None:
        """Record a failure (the same failure twice is kept once; a set keeps that cheap for answers with
        thousands of failing steps). A detail over :data:`MAX_DETAIL_CHARS` is cut, saying how much was left out."""
        if len(detail) > MAX_DETAIL_CHARS:
            detail = f"{detail[:MAX_DETAIL_CHARS]}... ({len(detail) - MAX_DETAIL_CHARS} more characters)"
        item = Failure(check, detail)
        if len(self._seen) != len(self.failures):  # the list was changed directly: index it again
            self._seen = set(self.failures)
        if item not in self._seen:
            self._seen.add(item)
            self.failures.append(item)
        if check in ("json", "limits", "schema", "data", "citations"):
            self.grounding_ok = False

    def checks_failed(self) -> set[str]:
        return {f.check for f in self.failures}

    def to_json(self) -> dict[str, Any]:
        return {
            "id": self.id,
            "ok": self.ok,
            "grounding_ok": self.grounding_ok,
            "failures": [f.to_json() for f in self.failures],
        }
