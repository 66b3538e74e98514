"""``ask``: route a question to its domain family's answerer (:mod:`ont_platform.families`) and return the
family's contract."""

from __future__ import annotations

from ont_platform.answer.contracts import HopDecision, OnchainAnswer, PageFilterResult
from ont_platform.errors import InputError
from ont_platform.families import get_family
from ont_platform.qa.context import Context
from ont_platform.qa.text import normalize

Answer = OnchainAnswer | HopDecision | PageFilterResult


def check_question(question: object, max_chars: int) -> str:
    """A usable question, or InputError: a string, not empty, not too long."""
    if not isinstance(question, str):
        raise InputError(f"a question must be text, got {type(question).__name__}")
    try:
        question.encode("utf-8")
    except UnicodeEncodeError as exc:
        raise InputError(f"question holds a character that is not valid text (at {exc.start})") from exc
    if len(question) > max_chars:
        raise InputError(f"question is {len(question)} characters, over the limit of {max_chars}")
    if not normalize(question):
        raise InputError("empty question")
    return question


def answer(ctx: Context, question: str, qid: str) -> Answer:
    """Answer ``question`` over the context's domain."""
    check_question(question, ctx.limits.max_question_chars)
    return get_family(ctx.spec.family).answer(ctx, question, qid)
