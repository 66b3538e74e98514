"""Which row of the predicate dictionary a vague phrase stands for, given the column it modifies.

A phrase may have several rows: '높은' can be ``>= 0.05`` on ``ctr_30d`` and ``>= 5000`` on
``impressions_30d`` in a dataset's ``predicates.csv``, and ``>= 1000`` on any count column in the built-in
dictionary. The column the phrase modifies in the question picks the row, in this order: the dataset's row
for that column, then the dataset's row for any column of its type, then the built-in row. Rows of one tier
that disagree are not chosen between — the answer asks back. A rank-like column takes only rows that name
it: a threshold meant for 'how much' turns upside down on a rank, where smaller is higher.

Date operators count back from the dataset's ``as_of`` date: ``older_than_days 365`` is ``column < as_of −
365 days`` (more than a year old), ``newer_than_days 30`` is ``column > as_of − 30 days``.
"""

from __future__ import annotations

from dataclasses import dataclass
from datetime import date, timedelta
from decimal import Decimal

from ont_platform.messages import Lang, say
from ont_platform.qa.pages.vocabulary import DATE_OPS, PageColumn, VaguePredicate


@dataclass(frozen=True, slots=True)
class Choice:
    """The row a phrase takes on a column: one row, rows that disagree (ask back), or none (no threshold)."""

    row: VaguePredicate | None
    rivals: tuple[VaguePredicate, ...] = ()


def fits(p: VaguePredicate, col: PageColumn) -> bool:
    """Whether a row may go to ``col``: the row names it, or names no column and fits its type (not a rank)."""
    if p.applies_to is not None:
        return p.applies_to == col.name
    return col.type in p.types and not col.rank


def choose(candidates: list[VaguePredicate], col: PageColumn) -> Choice:
    """The row of ``candidates`` (one phrase's rows) for ``col``, by the tiers of the module's docstring."""
    tiers = (
        [p for p in candidates if p.from_dataset and p.applies_to == col.name],
        [p for p in candidates if p.from_dataset and p.applies_to is None and fits(p, col)],
        [p for p in candidates if not p.from_dataset and fits(p, col)],
    )
    for tier in tiers:
        distinct = list({(p.op, p.value): p for p in tier}.values())
        if len(distinct) == 1:
            return Choice(distinct[0])
        if distinct:
            return Choice(None, tuple(distinct))
    return Choice(None)


def own_columns(candidates: list[VaguePredicate]) -> set[str]:
    """The columns the phrase's rows name."""
    return {p.applies_to for p in candidates if p.applies_to is not None}


def generic(candidates: list[VaguePredicate]) -> bool:
    """Whether some row of the phrase names no column (so the phrase needs a column from the question)."""
    return any(p.applies_to is None for p in candidates)


def resolve(p: VaguePredicate, as_of: date) -> tuple[str, Decimal | date | bool]:
    """The comparison a row stands for; a date operator becomes a date counted back from ``as_of``."""
    if p.op in DATE_OPS:
        assert isinstance(p.value, Decimal)
        day = as_of - timedelta(days=int(p.value))
        return ("<" if p.op == "older_than_days" else ">"), day
    return p.op, p.value


def describe(p: VaguePredicate, lang: Lang) -> str:
    """'1000', '365일보다 오래된' ('older than 365 days'), 'false' — the row's threshold as a hedge states it."""
    if isinstance(p.value, bool):
        return "true" if p.value else "false"
    shown = str(int(p.value)) if p.value == p.value.to_integral_value() else format(p.value.normalize(), "f")
    if p.op == "older_than_days":
        return say("pages.older_than", lang, days=shown)
    if p.op == "newer_than_days":
        return say("pages.newer_than", lang, days=shown)
    return shown
