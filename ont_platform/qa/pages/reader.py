"""A page question read into conditions on columns, or into the reason it needs a clarification or is
unsupported.

Each number, vague phrase and date attaches to the column mention that can take it: the closest one before it
with no other condition in between (Korean puts the value after the column: '노출이 1000 이상'), else the
closest one after it ('1000회 이상 노출된'). Questions a conjunctive filter cannot express — a column the
inventory lacks, a ranking, 'or', a measure with no column named — get no conditions, only a hedge that says
what would make them answerable. Nothing is run here, so reading is offline and deterministic.
"""

from __future__ import annotations

import re
from collections.abc import Callable, Iterable
from dataclasses import dataclass, field
from datetime import date
from decimal import Decimal

from ont_platform.qa.analyzer import Morph, morphs
from ont_platform.qa.context import Context
from ont_platform.qa.korean import josa
from ont_platform.qa.lexicon import Mention
from ont_platform.qa.pages.dates import (
    DATE_NEGATION_AFTER,
    DATE_NEGATION_BEFORE,
    DateExpr,
    date_conditions,
    read_dates,
)
from ont_platform.qa.pages.numbers import (
    INVERT,
    NEGATED,
    Number,
    code_spans,
    read_numbers,
)
from ont_platform.qa.pages.terms import find_terms
from ont_platform.qa.pages.vocabulary import (
    METRIC_WINDOW_DAYS,
    NUMERIC,
    PageColumn,
    VaguePredicate,
    dataset_vocabulary,
)
from ont_platform.qa.pages.wording import example, fmt, ko, options, particle
from ont_platform.qa.text import normalize

_MAX_VALUE = Decimal(10) ** 15


@dataclass
class Condition:
    """One comparison of the filter, with where it came from."""

    column: str
    op: str
    value: Decimal | date
    start: int
    source: str = "explicit"  # explicit | predicate | date
    phrase: str | None = None
    predicate: VaguePredicate | None = None


@dataclass
class _Slot:
    column: str
    start: int
    end: int
    cue: bool
    conditions: list[Condition] = field(default_factory=list)


@dataclass
class PageQuery:
    """What a page question asks: the conditions, or why it cannot be run."""

    status: str  # ran | clarify | unsupported
    conditions: list[Condition]
    columns: list[str]
    hedge: str = ""
    notes: list[str] = field(default_factory=list)


_URL = re.compile(r"(?:https?://|www\.)\S+", re.IGNORECASE)
_OR_WORDS = frozenset({"또는", "혹은", "or", "거나"})


def _blank(text: str, spans: Iterable[tuple[int, int]]) -> str:
    chars = list(text)
    for s, e in spans:
        for i in range(max(0, s), min(e, len(chars))):
            chars[i] = " "
    return "".join(chars)


def _overlaps(a: tuple[int, int], spans: Iterable[tuple[int, int]]) -> bool:
    return any(a[0] < e and s < a[1] for s, e in spans)


def _attach(slots: list[_Slot], start: int, end: int, ok: Callable[[_Slot], bool],
            blockers: list[tuple[int, int]]) -> _Slot | None:
    """The column mention a condition belongs to: the closest one before it with no other condition in between
    (Korean puts the value after the column: '노출이 1000 이상'), else the closest one after it ('1000회 이상
    노출된', 'over 1000 impressions')."""
    before = [s for s in slots if ok(s) and s.end <= start
              and not any(s.end <= b0 and b1 <= start for b0, b1 in blockers if (b0, b1) != (start, end))]
    if before:
        return max(before, key=lambda s: s.end)
    after = [s for s in slots if ok(s) and s.start >= end]
    return min(after, key=lambda s: s.start) if after else None


def _nearest(slots: list[_Slot], start: int, end: int, ok: Callable[[_Slot], bool]) -> _Slot | None:
    best: tuple[int, int, int] | None = None
    pick = None
    for i, s in enumerate(slots):
        if not ok(s):
            continue
        key = (start - s.end, 0, i) if s.end <= start else (max(0, s.start - end), 1, i)
        if best is None or key < best:
            best, pick = key, s
    return pick


def read_question(ctx: Context, question: str) -> PageQuery:
    """Read a page question into conditions, or into the reason it needs a clarification or is unsupported.

    Nothing is run here; the same question over the same vocabulary always reads the same way.
    """
    return _Reader(ctx, question).read()


class _Reader:
    """One question on its way to conditions: the mentions found, then numbers, phrases and dates attached."""

    def __init__(self, ctx: Context, question: str) -> None:
        self.vocab = vocab = dataset_vocabulary(ctx)
        self.as_of = ctx.as_of or date.today()
        self.text = text = normalize(question)
        self.ms = morphs(text)
        urls = [m.span() for m in _URL.finditer(text)]
        terms = [t for t in find_terms(ctx, vocab, text, self.ms) if not _overlaps((t.start, t.end), urls)]
        col_terms = [t for t in terms if t.kind == "column" and t.ref in vocab.columns]
        col_spans = [(t.start, t.end) for t in col_terms]
        # pasted code ('x[3] = 7;', 'alert(1)') holds digits that are indexes and arguments, not thresholds
        code = code_spans(_blank(text, urls), col_spans)
        dates, self.bad_dates = read_dates(_blank(text, [*urls, *code]), self.as_of)
        self.dates = [d for d in dates if not _overlaps((d.start, d.end), col_spans)]
        self.numbers = read_numbers(_blank(text, [*urls, *code, *col_spans, *((d.start, d.end) for d in self.dates)]))
        self.consumed = [(n.start, n.end) for n in self.numbers] + [(d.start, d.end) for d in self.dates]
        self.concepts = [(t, vocab.concepts[t.ref]) for t in terms if t.kind == "concept" and t.ref in vocab.concepts
                         and not _overlaps((t.start, t.end), [*col_spans, *self.consumed])]
        self.phrases = [t for t in terms if t.kind == "predicate" and not _overlaps((t.start, t.end), self.consumed)]
        self.blockers = sorted([*self.consumed, *((t.start, t.end) for t in self.phrases)])
        self.slots = [_Slot(t.ref, t.start, t.end, cue=vocab.columns[t.ref].type == "date" and _verbal(self.ms, t.end))
                      for t in col_terms]
        for t, c in self.concepts:
            if c.role == "cue":
                self.slots += [_Slot(name, t.start, t.end, cue=True) for name in c.related if name in vocab.columns]
        self.slots.sort(key=lambda s: (s.start, s.column))
        self.date_slots = [s for s in self.slots if self._type(s) == "date"]
        self.evaluation = next((c for _, c in self.concepts if c.role == "evaluation"), None)
        self.problems: list[str] = []
        self.notes: list[str] = []

    def _type(self, slot: _Slot) -> str:
        return self.vocab.columns[slot.column].type

    def read(self) -> PageQuery:
        refusal = self._refusal()
        if refusal is not None:
            return refusal
        for n in self.numbers:
            self._number(n)
        for t in self.phrases:
            self._phrase(t)
        for d in self.dates:
            self._date(d)
        return self._verdict()

    def _refusal(self) -> PageQuery | None:
        """Unsupported concepts and operations, measures without a column, OR, impossible dates."""
        for t, c in self.concepts:
            if c.role == "unsupported":
                return _say("unsupported", f"이 인벤토리에는 {c.label} 컬럼이 없어 조건을 만들지 않았습니다. "
                                           f"{c.label} 데이터를 컬럼으로 받으면 같은 방식으로 질의할 수 있습니다.")
            if c.role == "operation":
                return _say("unsupported", f"'{self.text[t.start:t.end]}'처럼 {josa(c.label, '이', '가')} 필요한 질문은 "
                                           "조건 필터로 옮길 수 없어 실행하지 않았습니다. 기준 값(예: '클릭 100 이상')을 "
                                           "주시면 그 조건으로 실행합니다.")
        for d in self.dates:
            if d.kind == "recent" and not self.date_slots and d.window_days not in (None, METRIC_WINDOW_DAYS):
                return _say("unsupported", f"이 인벤토리의 지표는 {METRIC_WINDOW_DAYS}일 합계라 '{d.text}' 기준의 조건을 "
                                           f"만들지 않았습니다. {d.window_days}일 지표를 컬럼으로 받으면 같은 방식으로 질의할 수 "
                                           "있습니다.")
        for _, c in self.concepts:
            if c.role == "measure":
                return _say("clarify", f"{c.label}의 기준 컬럼이 지목되지 않아 실행하지 않았습니다. "
                                       f"{options(self.vocab, c.related, self.evaluation)} 알려 주시면 조건으로 옮깁니다.")
        if any(m.form.lower() in _OR_WORDS and m.tag in ("MAJ", "MAG", "EC", "SL")
               and not _overlaps((m.start, m.end), self.consumed) for m in self.ms):
            return _say("clarify", "'또는'으로 이어진 조건은 모두 만족(AND)하는 페이지를 고르는 이 필터로 옮길 수 없어 "
                                   "실행하지 않았습니다. 조건을 나눠 따로 물어 주세요.")
        if self.bad_dates:
            return _say("clarify", f"'{self.bad_dates[0]}'은 없는 날짜라 조건으로 옮기지 않았습니다. "
                                   "날짜를 YYYY-MM-DD 로 알려 주세요.")
        return None

    def _number(self, n: Number) -> None:
        """An explicit number: to the column before it (nothing in between), else after it."""
        shown = n.text.strip()
        if n.unit == "개" and n.op == "=":
            self.notes.append(f"'{shown}'처럼 개수를 정한 요청은 적용하지 않고 조건에 맞는 페이지를 모두 돌려 드립니다.")
            return
        exponent = n.value.as_tuple().exponent
        if abs(n.value) >= _MAX_VALUE or (isinstance(exponent, int) and exponent < -18):
            self.problems.append(f"숫자 '{shown}'는 다룰 수 있는 범위를 벗어나 조건으로 옮기지 않았습니다.")
            return

        def fits(s: _Slot) -> bool:
            return self._type(s) == "decimal" if n.percent else self._type(s) in NUMERIC

        def free(s: _Slot) -> bool:
            return fits(s) and not s.conditions

        def second_bound(s: _Slot) -> bool:  # '1000 이상 5000 이하'
            return fits(s) and (not s.conditions or _completes_range(s, n.op))

        slot = _attach(self.slots, n.start, n.end, free, self.blockers) or _nearest(
            [s for s in self.slots if s.end <= n.start], n.start, n.end, second_bound)
        if slot is None:
            if n.percent and any(self._type(s) in NUMERIC for s in self.slots):
                self.problems.append(f"'{shown}'는 비율이라 횟수 컬럼의 기준으로 옮기지 않았습니다. "
                                     "비율 컬럼(예: 클릭률)을 지목해 주세요.")
            else:
                self.problems.append(f"숫자 '{shown}'{particle(shown, '이', '가')} 어느 컬럼의 기준인지 정하지 못해 "
                                     "실행하지 않았습니다. 컬럼을 함께 적어 주세요(예: '노출 1000 이상').")
            return
        slot.conditions.append(Condition(slot.column, n.op, n.value, n.start))

    def _phrase(self, t: Mention) -> None:
        """A vague phrase: to a free column like a number, or to the column the dataset tied it to."""
        candidates = self.vocab.predicates.get(t.ref, [])
        if not candidates:
            return
        phrase = candidates[0].phrase
        tied = {p.applies_to for p in candidates}

        def tied_free(s: _Slot) -> bool:
            return s.column in tied and not s.conditions

        def free(s: _Slot) -> bool:
            return self._type(s) in NUMERIC and not s.conditions

        def other_side(s: _Slot) -> bool:  # '클릭이 있긴 한데 5회 이하'
            return any(_completes_range(s, p.op) for p in candidates if self._type(s) in p.types)

        if None not in tied:
            slot = _nearest(self.slots, t.start, t.end, tied_free)
            if slot is None and len(tied) == 1:
                slot = _Slot(str(next(iter(tied))), t.start, t.end, cue=False)
                self.slots.append(slot)
        else:
            near = _nearest(self.slots, t.start, t.end, lambda s: True)
            if near is not None and self._type(near) == "date":
                return  # '수정 안 된': a negated date verb, read with the date
            slot = _attach(self.slots, t.start, t.end, free, self.blockers) or _nearest(
                self.slots, t.start, t.end, other_side)
        if slot is None:
            if not any(s.conditions for s in self.slots):
                self.problems.append(f"'{phrase}'{particle(phrase, '이', '가')} 어느 컬럼의 조건인지 지목되지 않아 실행하지 "
                                     f"않았습니다. {options(self.vocab, (), self.evaluation)} 알려 주시면 조건으로 옮깁니다.")
            return
        col = self.vocab.columns[slot.column]
        pred = _pick(candidates, col)
        if pred is None:
            self.problems.append(f"'{phrase}'{particle(phrase, '을', '를')} {ko(col)}에 옮길 기준이 술어 사전에 없어 "
                                 f"실행하지 않았습니다. 기준 값을 직접 알려 주시면(예: '{col.label} {example(col)}') "
                                 "조건으로 옮깁니다.")
            return
        op = INVERT[pred.op] if NEGATED.match(self.text[t.end:]) else pred.op
        slot.conditions.append(Condition(slot.column, op, pred.value, t.start, "predicate", pred.phrase, pred))

    def _date(self, d: DateExpr) -> None:
        """A date expression: to the nearest date column or date verb, preferring one without a date yet."""
        slot = _nearest(self.date_slots, d.start, d.end, lambda s: not s.conditions) or _nearest(
            self.date_slots, d.start, d.end, lambda s: True)
        if d.kind == "vague":
            if slot is not None:
                self.problems.append(f"'{d.text}'이 며칠 전까지인지 정해지지 않아 실행하지 않았습니다. "
                                     "'최근 30일'처럼 기간을 알려 주시면 조건으로 옮깁니다.")
            return
        if slot is None:
            if d.kind == "recent" and d.window_days == METRIC_WINDOW_DAYS:
                return  # the metrics already cover this window
            names = [c for c in self.vocab.columns.values() if c.type == "date"]
            choice = "인지 ".join(ko(c) + " 기준" for c in names[:3])
            self.problems.append(f"'{d.text}'{particle(d.text, '이', '가')} {choice}인지 지목되지 않아 실행하지 "
                                 f"않았습니다. 지표 컬럼은 최근 {METRIC_WINDOW_DAYS}일 합계라 기간을 따로 걸 수 없습니다. "
                                 "날짜 컬럼을 알려 주시면 조건으로 옮깁니다.")
            return
        negated = bool(DATE_NEGATION_AFTER.match(self.text[slot.end:])
                       or DATE_NEGATION_BEFORE.search(self.text[: slot.start]))
        comparisons = date_conditions(d, negated, self.as_of)
        if comparisons is None:
            self.problems.append(f"'{d.text}' 밖의 기간을 찾는 조건은 하나의 비교로 옮길 수 없어 실행하지 않았습니다. "
                                 "'이전'이나 '이후'로 알려 주세요.")
            return
        for op, value in comparisons:
            slot.conditions.append(Condition(slot.column, op, value, d.start, "date", d.text if d.relative else None))

    def _verdict(self) -> PageQuery:
        """Ran, or the first reason to ask back."""
        slots = self.slots
        named = {s.column for s in slots if s.conditions}
        bare = [s for s in slots if not s.cue and s.column not in named]
        if bare:
            col = self.vocab.columns[bare[0].column]
            self.problems.append(f"{ko(col)}{particle(col.label, '은', '는')} 지목됐지만 조건이 없어 실행하지 않았습니다. "
                                 f"'{col.label} {example(col)}'처럼 기준을 알려 주시면 조건으로 옮깁니다.")
        if self.problems:
            return _say("clarify", self.problems[0])
        if not named:
            if self.evaluation is not None:
                ev = self.evaluation
                return _say("clarify", f"'{ev.label}'의 기준 컬럼이 지목되지 않아 실행하지 않았습니다. "
                                       f"{options(self.vocab, ev.related, ev)} 알려 주시면 조건으로 옮깁니다.")
            listed = ", ".join(ko(c) for c in self.vocab.columns.values())
            return _say("clarify", f"질문에서 인벤토리 컬럼과 조건을 찾지 못해 실행하지 않았습니다. 쓸 수 있는 컬럼은 "
                                   f"{listed}입니다. 어느 컬럼에 어떤 조건을 둘지 알려 주세요.")
        order = list(dict.fromkeys(s.column for s in sorted(slots, key=lambda s: s.start) if s.conditions))
        conditions = sorted((c for s in slots for c in s.conditions), key=lambda c: (order.index(c.column), c.start))
        return PageQuery("ran", _dedupe(conditions), order, notes=self.notes)


def _say(status: str, hedge: str) -> PageQuery:
    return PageQuery(status, [], [], hedge)


def _verbal(ms: list[Morph], end: int) -> bool:
    """Whether a column word is used as a verb ('수정된', '업데이트한'): a cue, not a demand for a condition."""
    return any(m.start >= end and m.start <= end + 1 and m.tag in ("XSV", "XSA") for m in ms)


def _completes_range(slot: _Slot, op: str) -> bool:
    ops = {c.op for c in slot.conditions}
    if not ops:
        return False
    return (ops <= {">=", ">"} and op in ("<=", "<")) or (ops <= {"<=", "<"} and op in (">=", ">"))


def _pick(candidates: list[VaguePredicate], col: PageColumn) -> VaguePredicate | None:
    for p in candidates:
        if p.applies_to == col.name:
            return p
    for p in candidates:
        if p.applies_to is None and col.type in p.types:
            return p
    return None


def _dedupe(conditions: list[Condition]) -> list[Condition]:
    seen: set[tuple[str, str, str]] = set()
    out = []
    for c in conditions:
        key = (c.column, c.op, fmt(c.value))
        if key not in seen:
            seen.add(key)
            out.append(c)
    return out
