"""Verification: the seeds' automatic checks, run on any answer JSON against the graph it claims to describe.

An answer may come from this library's ``ask`` or from anyone else (an external LLM, a person); the checks
treat it the same way and trust nothing in it. Each answer gets one :class:`VerifyReport`::

    {"id": "q_001", "ok": true, "grounding_ok": true, "failures": []}

>>> from ont_platform import KnowledgeGraph                      # doctest: +SKIP
>>> from ont_platform.verify import verify_answer                # doctest: +SKIP
>>> kg = KnowledgeGraph.open(); kg.load("examples/onchain")      # doctest: +SKIP
>>> q = "n_a1 에서 3-hop 안에 거래소 입금주소(ExchangeDeposit)에 자금이 닿나요?"
>>> verify_answer(kg, kg.ask(q), question=q).ok                  # doctest: +SKIP
True

The checks, by family (see docs/verification.md): ``schema``, ``citations`` (which alone decides
``grounding_ok``), ``path``, ``bfs``, ``decision``, ``inference``, ``query``, and for pages ``filter``,
``urls``, ``evidence`` and ``empty``.
"""

from __future__ import annotations

import json
from collections.abc import Iterable, Mapping
from pathlib import Path
from typing import Any

from ont_platform import jsonl
from ont_platform.errors import InputError
from ont_platform.jsonl import read_jsonl, strict_jsonl
from ont_platform.verify.query import (
    InspectedQuery,
    Isolation,
    QueryOutcome,
    QueryRunner,
    inspect_query,
)
from ont_platform.verify.report import CHECKS, Failure, VerifyReport
from ont_platform.verify.verifier import Verifier, answer_id

__all__ = [
    "CHECKS",
    "Failure",
    "InspectedQuery",
    "QueryOutcome",
    "QueryRunner",
    "Verifier",
    "VerifyReport",
    "inspect_query",
    "read_gold",
    "verify_answer",
    "verify_file",
]


def verify_answer(
    kg: Any,
    answer: object,
    *,
    question: str | None = None,
    gold: Mapping[str, Any] | None = None,
    isolation: Isolation = "thread",
) -> VerifyReport:
    """Check one answer (a contract model or its JSON) against ``kg``.

    ``question`` is the text that was asked: with it the checks know the start node, the target and the hop
    limit (yes/no against breadth-first search, shortest path, the walk's start); without it they check what
    the answer itself states. ``gold`` is a gold line's ``expected`` object (or the whole line): its node and
    URL sets are compared with the query's and the matched ones.

    Raises :class:`InputError` for a ``question`` that is not text or is longer than
    ``kg.limits.max_question_chars`` (as ``ask`` does). An answer over the size limits (``max_answer_items``,
    ``max_answer_depth``) is not an error: it gets a report with a ``limits`` failure.
    """
    if question is not None:
        if not isinstance(question, str):
            raise InputError(f"a question must be text, got {type(question).__name__}")
        limit = kg.limits.max_question_chars
        if len(question) > limit:
            raise InputError(
                f"question is {len(question)} characters, over the limit of {limit} (Limits.max_question_chars)"
            )
    with Verifier(kg, isolation=isolation) as verifier:
        return verifier.verify(answer, question=question, gold=dict(gold) if gold is not None else None)


def read_gold(source: str | Path | Iterable[Mapping[str, Any]]) -> dict[str, dict[str, Any]]:
    """Gold lines (``{"id", "question", "expected"}``, as in ``examples/*/questions.jsonl``) by id, and by
    question text too (page answers carry their question, not an id). Raises InputError for unusable input."""
    if isinstance(source, (str, Path)):
        items = list(_jsonl(Path(source), strict=True))
    else:
        items = [(n, dict(x)) for n, x in enumerate(source, 1)]
    out: dict[str, dict[str, Any]] = {}
    for n, doc in items:
        if not isinstance(doc, dict) or "id" not in doc:
            raise InputError(f'gold line {n}: each line needs an "id" (and a "question", an "expected")')
        if "expected" in doc and not isinstance(doc["expected"], dict):
            raise InputError(f'gold line {n}: "expected" must be an object')
        out[str(doc["id"])] = doc
        if isinstance(doc.get("question"), str):
            out.setdefault(doc["question"], doc)
    return out


def _jsonl(path: Path, *, strict: bool) -> Iterable[tuple[int, Any]]:
    """(line number, parsed JSON; or, when ``strict`` is off, a marker for a line that does not parse)."""
    if strict:
        yield from strict_jsonl(path)
        return
    for n, value in read_jsonl(path):
        # json.loads got the line alone, so the error's document is the line's text
        yield n, _Broken(value.doc, value.msg) if isinstance(value, json.JSONDecodeError) else value


def _from_text(item: object) -> object:
    """An answer given as JSON text is parsed (a string is never an answer itself)."""
    if not isinstance(item, str):
        return item
    try:
        return jsonl.loads(item, where="the answer")
    except json.JSONDecodeError as exc:
        return _Broken(item, exc.msg)
    except jsonl.TooDeep as exc:
        return _Broken(item, str(exc))


class _Broken:
    def __init__(self, text: str, why: str) -> None:
        self.text, self.why = text, why


def verify_file(
    kg: Any,
    answers: str | Path | Iterable[object],
    *,
    questions: str | Path | Mapping[str, Mapping[str, Any]] | None = None,
    isolation: Isolation = "thread",
    timeout: float | None = None,
) -> list[VerifyReport]:
    """Check every answer of a JSON-lines file (or an iterable of answers: contract models, dicts, or JSON text),
    one report per answer, in order.

    ``questions`` (a gold/questions file or its :func:`read_gold` mapping) gives each answer its question and
    gold, joined on the answer's id (``q_id``, ``query_id``, or the question text for pages). A line that is
    not JSON gets a ``json`` failure; an unreadable file raises :class:`InputError`.
    """
    if isinstance(answers, (str, Path)):
        items: Iterable[tuple[int, Any]] = _jsonl(Path(answers), strict=False)
    else:
        items = ((n, _from_text(x)) for n, x in enumerate(answers, 1))
    gold: Mapping[str, Mapping[str, Any]] = {}
    if isinstance(questions, (str, Path)):
        gold = read_gold(questions)
    elif questions is not None:
        gold = questions
    reports: list[VerifyReport] = []
    with Verifier(kg, isolation=isolation, timeout=timeout) as verifier:
        for n, item in items:
            if isinstance(item, _Broken):
                report = VerifyReport(f"line {n}")
                report.fail("json", f"line {n} is not JSON: {item.why}")
                reports.append(report)
                continue
            if hasattr(item, "to_json"):
                item = item.to_json()
            line = gold.get(answer_id(item, "")) if isinstance(item, dict) else None
            question = line.get("question") if line is not None else None
            expected = line.get("expected") if line is not None else None
            reports.append(
                verifier.verify(
                    item,
                    question=question if isinstance(question, str) else None,
                    gold=dict(expected) if isinstance(expected, Mapping) else None,
                    fallback_id=f"line {n}",
                )
            )
    return reports
