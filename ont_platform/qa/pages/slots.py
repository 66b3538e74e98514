"""Column mentions as slots that conditions attach to, and the rules of attaching.

Korean puts the value after the column ('노출이 1000 이상'), English mostly before it ('over 1000
impressions'): a value goes to the closest mention before it with no other condition in between, else to the
closest one after it. A mention takes one condition this way; a second one only if it closes a range.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable
from dataclasses import dataclass, field
from datetime import date
from decimal import Decimal

from ont_platform.qa.pages.vocabulary import VaguePredicate

Value = Decimal | date | bool | str
Span = tuple[int, int]


@dataclass
class Condition:
    """One comparison of the filter, with where it came from."""

    column: str
    op: str
    value: Value
    start: int
    source: str = "explicit"  # explicit | predicate | date | text | boolean
    phrase: str | None = None
    predicate: VaguePredicate | None = None


@dataclass
class Slot:
    """A column mention (or a date verb standing for its column) and the conditions attached to it; a ``cue``
    slot needs none."""

    column: str
    start: int
    end: int
    cue: bool
    conditions: list[Condition] = field(default_factory=list)


def blank(text: str, spans: Iterable[Span]) -> str:
    """``text`` with ``spans`` turned into spaces, so later readers skip them and offsets stay the same."""
    chars = list(text)
    for s, e in spans:
        for i in range(max(0, s), min(e, len(chars))):
            chars[i] = " "
    return "".join(chars)


def overlaps(a: Span, spans: Iterable[Span]) -> bool:
    return any(a[0] < e and s < a[1] for s, e in spans)


def attach(slots: list[Slot], start: int, end: int, ok: Callable[[Slot], bool], blockers: list[Span]) -> Slot | None:
    """The column mention a condition belongs to: the closest one before it with no other condition in between
    (Korean puts the value after the column: '노출이 1000 이상'), else the closest one after it ('1000회 이상
    노출된', 'over 1000 impressions')."""
    return before(slots, start, end, ok, blockers) or after(slots, end, ok)


def before(slots: list[Slot], start: int, end: int, ok: Callable[[Slot], bool], blockers: list[Span]) -> Slot | None:
    """The closest mention before ``start`` that ``ok`` accepts, with no blocker (another condition) between."""
    found = [
        s
        for s in slots
        if ok(s)
        and s.end <= start
        and not any(s.end <= b0 and b1 <= start for b0, b1 in blockers if (b0, b1) != (start, end))
    ]
    return max(found, key=lambda s: s.end) if found else None


def after(slots: list[Slot], end: int, ok: Callable[[Slot], bool]) -> Slot | None:
    """The closest mention after ``end`` that ``ok`` accepts."""
    found = [s for s in slots if ok(s) and s.start >= end]
    return min(found, key=lambda s: s.start) if found else None


def nearest(slots: list[Slot], start: int, end: int, ok: Callable[[Slot], bool]) -> Slot | None:
    """The mention closest to ``start``–``end`` on either side that ``ok`` accepts (before it on a tie)."""
    best: tuple[int, int, int] | None = None
    pick = None
    for i, s in enumerate(slots):
        if not ok(s):
            continue
        key = (start - s.end, 0, i) if s.end <= start else (max(0, s.start - end), 1, i)
        if best is None or key < best:
            best, pick = key, s
    return pick


def completes_range(slot: Slot, op: str) -> bool:
    """Whether ``op`` is the other bound of the range the slot's conditions open ('1000 이상 5000 이하')."""
    ops = {c.op for c in slot.conditions}
    if not ops:
        return False
    return (ops <= {">=", ">"} and op in ("<=", "<")) or (ops <= {"<=", "<"} and op in (">=", ">"))
