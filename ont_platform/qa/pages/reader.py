"""A page question read into conditions on columns, or into the reason it needs a clarification or is
unsupported.

Each number, rank, vague phrase and date attaches to the column mention that can take it: the closest one
before it with no other condition in between (Korean puts the value after the column: '노출이 1000 이상'),
else the closest one after it ('1000회 이상 노출된'); text and boolean columns read their value around their
own mention (``values``). Questions a conjunctive filter cannot express — a column the inventory lacks, a
ranking, 'or', a measure with no column named, a word the reading does not account for — get no conditions,
only a hedge that says what would make them answerable. Nothing is run here, so reading is offline and
deterministic.
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field
from datetime import date
from decimal import Decimal
from typing import TYPE_CHECKING

from ont_platform.messages import Lang, lang_of, say
from ont_platform.qa.analyzer import Morph, morphs
from ont_platform.qa.context import Context
from ont_platform.qa.lexicon import Mention
from ont_platform.qa.pages import account
from ont_platform.qa.pages.dates import DATE_NEGATION_AFTER, DATE_NEGATION_BEFORE, DateExpr, date_conditions, read_dates
from ont_platform.qa.pages.numbers import INVERT, NEGATED, Number, code_spans, read_numbers
from ont_platform.qa.pages.predicates import choose, fits, generic, own_columns, resolve
from ont_platform.qa.pages.ranks import read_ranks
from ont_platform.qa.pages.slots import (
    Condition,
    Slot,
    Span,
    Value,
    after,
    attach,
    before,
    blank,
    completes_range,
    nearest,
    overlaps,
)
from ont_platform.qa.pages.terms import find_terms
from ont_platform.qa.pages.values import read_bool, read_text
from ont_platform.qa.pages.vocabulary import METRIC_WINDOW_DAYS, NUMERIC, Concept, dataset_vocabulary
from ont_platform.qa.pages.wording import concept_label, example, fmt, label, listed, named, options
from ont_platform.qa.text import normalize

if TYPE_CHECKING:
    from ont_platform.answer.contracts import PageStatus

_MAX_VALUE = Decimal(10) ** 15
__all__ = ["Condition", "PageQuery", "Value", "read_question"]


@dataclass
class PageQuery:
    """What a page question asks: the conditions, or why it cannot be run."""

    status: PageStatus  # ran | clarify | unsupported
    conditions: list[Condition]
    columns: list[str]
    hedge: str = ""
    notes: list[str] = field(default_factory=list)
    lang: Lang = "ko"
    """The language of the hedge and notes: the question's (Hangul: Korean, else English)."""


_URL = re.compile(r"(?:https?://|www\.)\S+", re.IGNORECASE)
_OR_WORDS = frozenset({"또는", "혹은", "or", "거나"})


def read_question(ctx: Context, question: str) -> PageQuery:
    """Read a page question into conditions, or into the reason it needs a clarification or is unsupported.

    Nothing is run here; the same question over the same vocabulary always reads the same way.
    """
    return _Reader(ctx, question).read()


class _Reader:
    """One question on its way to conditions: the mentions found, then values attached to columns."""

    def __init__(self, ctx: Context, question: str) -> None:
        self.vocab = vocab = dataset_vocabulary(ctx)
        self.as_of = ctx.as_of or date.today()
        self.lang: Lang = lang_of(question)
        self.text = text = normalize(question)
        self.ms = ms = morphs(text)
        urls = [m.span() for m in _URL.finditer(text)]
        others: list[Mention] = []
        terms = [t for t in find_terms(ctx, vocab, text, ms, others) if not overlaps((t.start, t.end), urls)]
        # a text column's value first: the words it looks for are a value, not columns, numbers or dates
        self.texts = [
            v
            for t in terms
            if t.kind == "column" and self._col_type(t.ref) == "text"
            for v in [read_text(text, ms, t)]
            if v is not None
        ]
        values = [(v.value_start, v.value_end) for v in self.texts]
        terms = [t for t in terms if not overlaps((t.start, t.end), values)]
        col_terms = [t for t in terms if t.kind == "column" and t.ref in vocab.columns]
        col_spans = [(t.start, t.end) for t in col_terms]
        text_spans = [(v.start, v.end) for v in self.texts]
        # pasted code ('x[3] = 7;', 'alert(1)') holds digits that are indexes and arguments, not thresholds
        code = code_spans(blank(text, [*urls, *values]), col_spans)
        hidden = [*urls, *code, *values, *text_spans]
        dates, self.bad_dates = read_dates(blank(text, hidden), self.as_of)
        self.dates = [d for d in dates if not overlaps((d.start, d.end), col_spans)]
        hidden += [(d.start, d.end) for d in self.dates]
        self.ranks = self._ranks(blank(text, hidden), col_terms)
        rank_spans = [(r.start, r.end) for r in self.ranks]
        col_terms = [t for t in col_terms if not overlaps((t.start, t.end), rank_spans)]
        col_spans = [(t.start, t.end) for t in col_terms]
        self.bools = [read_bool(text, t) for t in col_terms if vocab.columns[t.ref].type == "boolean"]
        # a negation right after a column ('업데이트되지 않은', '색인되지 않은') is that column's, never the
        # number before it: with the column blanked it would look like '1000 이상 … 되지 않은'
        owned = [(t.end, t.end + m.end()) for t in col_terms for m in [_negation_after(text[t.end :])] if m]
        self.numbers = read_numbers(
            blank(text, [*hidden, *col_spans, *rank_spans, *owned, *((b.start, b.end) for b in self.bools)])
        )
        self.consumed = (
            [(n.start, n.end) for n in [*self.numbers, *self.ranks]]
            + [(d.start, d.end) for d in self.dates]
            + text_spans
            + [(b.start, b.end) for b in self.bools if b.end > b.start]
        )
        self.concepts = [
            (t, vocab.concepts[t.ref])
            for t in terms
            if t.kind == "concept"
            and t.ref in vocab.concepts
            and not overlaps((t.start, t.end), [*col_spans, *self.consumed])
            and not _WISH.match(text[t.start :])
        ]
        self.phrases = [t for t in terms if t.kind == "predicate" and not overlaps((t.start, t.end), self.consumed)]
        self.blockers = sorted([*self.consumed, *((t.start, t.end) for t in self.phrases)])
        self.slots = [
            Slot(t.ref, t.start, t.end, cue=vocab.columns[t.ref].type == "date" and _verbal(ms, t.end))
            for t in col_terms
        ]
        for t, c in self.concepts:
            if c.role == "cue":
                self.slots += [Slot(name, t.start, t.end, cue=True) for name in c.related if name in vocab.columns]
        self.slots.sort(key=lambda s: (s.start, s.column))
        self.date_slots = [s for s in self.slots if self._type(s) == "date"]
        self.evaluation = next((c for _, c in self.concepts if c.role == "evaluation"), None)
        self.problems: list[str] = []
        self.notes: list[str] = []
        self.range_slot: Slot | None = None
        self.spans = self._parts(terms, others, urls)

    def _ranks(self, work: str, col_terms: list[Mention]) -> list[Number]:
        """Rank expressions, when the inventory has a rank-like column. One that holds a column's name ('position
        10th or worse') goes to that column when it is rank-like and is dropped otherwise; a bare '상위 10' or
        'top 10' only counts when a rank-like column is named."""
        columns = self.vocab.columns
        if not any(c.rank for c in columns.values()):
            return []
        rank_named = any(columns[t.ref].rank for t in col_terms)
        out = []
        for r in read_ranks(work):
            inside = [t for t in col_terms if r.start < t.end and t.start < r.end]
            if inside:
                if not all(columns[t.ref].rank for t in inside):
                    continue
                r.column, r.named = inside[0].ref, True
            if r.named or rank_named:
                out.append(r)
        return out

    def _col_type(self, name: str) -> str:
        col = self.vocab.columns.get(name)
        return col.type if col is not None else ""

    def _type(self, slot: Slot) -> str:
        return self.vocab.columns[slot.column].type

    def _slot_of(self, t: Mention) -> Slot | None:
        return next((s for s in self.slots if s.column == t.ref and s.start == t.start), None)

    def _parts(self, terms: list[Mention], others: list[Mention], urls: list[Span]) -> list[tuple[str, int, int, str]]:
        """Every span the reading uses, for the account of the question (``account``)."""
        out = [(t.kind, t.start, t.end, t.ref) for t in terms]
        out += [("cue" if m.kind == "cue" else m.kind, m.start, m.end, m.ref) for m in others]
        out += [("value", s, e, "") for s, e in [*urls, *self.consumed]]
        text = self.text
        for t in [*terms, *others]:  # negations that belong to a column, a phrase or a verb
            for m in (NEGATED.match(text[t.end :]), DATE_NEGATION_AFTER.match(text[t.end :])):
                if m is not None and m.group(0).strip():
                    out.append(("negation", t.end + m.start(), t.end + m.end(), ""))
            prior = DATE_NEGATION_BEFORE.search(text[: t.start])
            if prior is not None:
                out.append(("negation", prior.start(), prior.end(), ""))
        return out

    def read(self) -> PageQuery:
        refusal = self._refusal()
        if refusal is not None:
            return refusal
        words = account.leftover(self.text, self.ms, self.spans)
        if words:
            concept = account.unsupported_among(self.vocab, words)
            if concept is not None:
                return self._say("unsupported", self._no_column(concept))
            return self._say("clarify", account.hedge(self.vocab, words, self.lang))
        for n in sorted([*self.numbers, *self.ranks], key=lambda n: n.start):
            self._number(n)
        for t in self.phrases:
            self._phrase(t)
        for d in self.dates:
            self._date(d)
        for v in self.texts:
            slot = self._slot_of(v.mention)
            if slot is not None:
                slot.conditions.append(Condition(v.column, v.op, v.value, v.start, "text"))
        for b in self.bools:
            slot = self._slot_of(b.mention)
            if slot is not None and not slot.conditions and b.value is not None:
                slot.conditions.append(Condition(b.column, "=", b.value, b.mention.start, "boolean"))
        return self._verdict()

    def _refusal(self) -> PageQuery | None:
        """Unsupported concepts and operations, measures without a column, OR, impossible dates."""
        lang = self.lang
        for t, c in self.concepts:
            if c.role == "unsupported":
                return self._say("unsupported", self._no_column(c))
            if c.role == "operation":
                said = self.text[t.start : t.end]
                return self._say(
                    "unsupported", say("pages.needs_operation", lang, said=said, label=concept_label(c, lang))
                )
        for d in self.dates:
            if d.kind == "recent" and not self.date_slots and d.window_days not in (None, METRIC_WINDOW_DAYS):
                return self._say(
                    "unsupported", say("pages.window", lang, window=METRIC_WINDOW_DAYS, said=d.text, days=d.window_days)
                )
        for _, c in self.concepts:
            if c.role == "measure":
                choice = options(self.vocab, c.related, self.evaluation, lang)
                return self._say("clarify", say("pages.measure", lang, label=concept_label(c, lang), options=choice))
        if any(
            m.form.lower() in _OR_WORDS
            and m.tag in ("MAJ", "MAG", "EC", "SL")
            and not overlaps((m.start, m.end), self.consumed)
            for m in self.ms
        ):
            return self._say("clarify", say("pages.or", lang))
        if self.bad_dates:
            return self._say("clarify", say("pages.bad_date", lang, said=self.bad_dates[0]))
        return None

    def _number(self, n: Number) -> None:
        """An explicit number or rank: to the column before it (nothing in between), else after it."""
        shown, lang = n.text.strip(), self.lang
        if n.unit == "개" and n.op == "=":
            self.notes.append(say("pages.count_ignored", lang, said=shown))
            return
        exponent = n.value.as_tuple().exponent
        if abs(n.value) >= _MAX_VALUE or (isinstance(exponent, int) and exponent < -18):
            self.problems.append(say("pages.number_out_of_range", lang, said=shown))
            return

        def fits_number(s: Slot) -> bool:
            col = self.vocab.columns[s.column]
            if n.rank:
                return col.rank
            return col.type == "decimal" and not col.rank if n.percent else col.type in NUMERIC

        def free(s: Slot) -> bool:
            return fits_number(s) and not s.conditions

        def second_bound(s: Slot) -> bool:  # '1000 이상 5000 이하'
            return fits_number(s) and (not s.conditions or completes_range(s, n.op))

        lower, self.range_slot = self.range_slot, None
        # the upper end of a range goes where its lower end went ('between 100 and 500 sessions': the column
        # comes after both)
        slot = (
            (lower if lower is not None and n.op == "<=" else None)
            or attach(self.slots, n.start, n.end, free, self.blockers)
            or nearest([s for s in self.slots if s.end <= n.start], n.start, n.end, second_bound)
        )
        ranked = [c for c in self.vocab.columns.values() if c.rank]
        if n.column is not None or (slot is None and n.rank and n.named and len(ranked) == 1):
            # 'position 10th or worse' holds its column; '10위 밖으로 밀린' names the only rank there is
            slot = Slot(n.column or ranked[0].name, n.start, n.start, cue=False)
            self.slots.append(slot)
        if slot is None:
            if n.rank:
                names = listed(ranked, lang)
                self.problems.append(say("pages.rank_unplaced", lang, quoted=f"'{shown}'", names=names))
            elif n.percent and any(self._type(s) in NUMERIC for s in self.slots):
                self.problems.append(say("pages.percent_unplaced", lang, said=shown))
            else:
                self.problems.append(say("pages.number_unplaced", lang, quoted=f"'{shown}'"))
            return
        slot.conditions.append(Condition(slot.column, n.op, n.value, n.start))
        if n.opens_range:
            self.range_slot = slot

    def _phrase(self, t: Mention) -> None:
        """A vague phrase: to the column it modifies, whose row of the dictionary it then takes (``predicates``)."""
        candidates = self.vocab.predicates.get(t.ref, [])
        if not candidates:
            return
        phrase, tied = candidates[0].phrase, own_columns(candidates)
        kinds = {_kind(t) for p in candidates for t in p.types}

        def could_take(s: Slot) -> bool:  # a column of a kind the phrase is about (a count, a date, true/false)
            return not s.conditions and _kind(self._type(s)) in kinds

        def other_side(s: Slot) -> bool:  # '클릭이 있긴 한데 5회 이하': the phrase before the number it bounds
            col = self.vocab.columns[s.column]
            return (
                s.start < t.start
                and all(c.start > t.start for c in s.conditions)
                and any(completes_range(s, p.op) for p in candidates if fits(p, col))
            )

        near = nearest(self.slots, t.start, t.end, lambda s: True)
        if near is not None and self._type(near) == "date" and not any("date" in p.types for p in candidates):
            return  # '수정 안 된': a negated date verb, read with the date
        slot = before(self.slots, t.start, t.end, could_take, self.blockers)
        if slot is None:
            later = after(self.slots, t.end, could_take)
            col = self.vocab.columns[later.column] if later is not None else None
            if col is not None and (col.name in tied or generic(candidates)):
                slot = later
            elif tied and not generic(candidates):  # '이탈이 심한': the phrase names its column
                slot = nearest(self.slots, t.start, t.end, lambda s: s.column in tied and not s.conditions)
                if slot is None and len(tied) == 1:
                    slot = Slot(next(iter(tied)), t.start, t.end, cue=False)
                    self.slots.append(slot)
            if slot is None:
                slot = nearest(self.slots, t.start, t.end, other_side)
        lang = self.lang
        if slot is None:
            if not any(s.conditions for s in self.slots) or tied:
                cols = [self.vocab.columns[c] for c in sorted(tied) if c in self.vocab.columns]
                choice_of = options(self.vocab, sorted(tied), self.evaluation, lang)
                if len(tied) > 1:
                    text = say(
                        "pages.phrase_unplaced_among",
                        lang,
                        quoted=f"'{phrase}'",
                        named=listed(cols, lang),
                        options=choice_of,
                    )
                else:
                    text = say("pages.phrase_unplaced", lang, quoted=f"'{phrase}'", options=choice_of)
                self.problems.append(text)
            return
        col = self.vocab.columns[slot.column]
        choice = choose(candidates, col)
        if choice.rivals:
            said = " / ".join(f"{p.op} {p.value}" for p in choice.rivals)
            self.problems.append(
                say(
                    "pages.rivals",
                    lang,
                    quoted=f"'{phrase}'",
                    col=named(col, lang),
                    said=said,
                    label=label(col, lang),
                    example=example(col, lang),
                )
            )
            return
        if choice.row is None:
            why = say("pages.rank_phrase_note", lang) if col.rank else ""
            self.problems.append(
                say(
                    "pages.no_row",
                    lang,
                    quoted=f"'{phrase}'",
                    col=named(col, lang),
                    why=why,
                    label=label(col, lang),
                    example=example(col, lang),
                )
            )
            return
        pred = choice.row
        op, value = resolve(pred, self.as_of)
        op = INVERT[op] if NEGATED.match(self.text[t.end :]) else op
        slot.conditions.append(Condition(slot.column, op, value, t.start, "predicate", pred.phrase, pred))

    def _date(self, d: DateExpr) -> None:
        """A date expression: to the nearest date column or date verb, preferring one without a date yet."""
        slot = nearest(self.date_slots, d.start, d.end, lambda s: not s.conditions) or nearest(
            self.date_slots, d.start, d.end, lambda s: True
        )
        lang = self.lang
        if d.kind == "vague":
            if slot is not None:
                self.problems.append(say("pages.vague_date", lang, said=d.text))
            return
        if slot is None:
            if d.kind == "recent" and d.window_days == METRIC_WINDOW_DAYS:
                return  # the metrics already cover this window
            names = [c for c in self.vocab.columns.values() if c.type == "date"]
            bases = [say("pages.date_basis", lang, col=named(c, lang)) for c in names[:3]]
            choice = say("pages.date_basis_joiner", lang).join(bases)
            self.problems.append(
                say("pages.date_unplaced", lang, quoted=f"'{d.text}'", choice=choice, window=METRIC_WINDOW_DAYS)
            )
            return
        if d.bound_unclear and d.first is not None and d.last is not None:
            span = f"{d.first.isoformat()}~{d.last.isoformat()}"
            self.problems.append(say("pages.date_bound_unclear", lang, quoted=f"'{d.text}'", span=span))
            return
        negated = bool(
            DATE_NEGATION_AFTER.match(self.text[slot.end :]) or DATE_NEGATION_BEFORE.search(self.text[: slot.start])
        )
        comparisons = date_conditions(d, negated, self.as_of)
        if comparisons is None:
            self.problems.append(say("pages.date_outside", lang, said=d.text))
            return
        for op, value in comparisons:
            slot.conditions.append(Condition(slot.column, op, value, d.start, "date", d.text if d.relative else None))

    def _verdict(self) -> PageQuery:
        """Ran, or the first reason to ask back."""
        slots, lang = self.slots, self.lang
        named_cols = {s.column for s in slots if s.conditions}
        bare = [s for s in slots if not s.cue and s.column not in named_cols]
        for s in slots:  # '업데이트되지 않은 페이지': since when is not said
            if (
                s.cue
                and s.column not in named_cols
                and self._type(s) == "date"
                and (DATE_NEGATION_AFTER.match(self.text[s.end :]) or DATE_NEGATION_BEFORE.search(self.text[: s.start]))
            ):
                col = self.vocab.columns[s.column]
                quoted = f"'{self.text[s.start : s.end]}'"
                self.problems.append(say("pages.negated_no_period", lang, quoted=quoted, col=named(col, lang)))
                break
        if bare:
            col = self.vocab.columns[bare[0].column]
            self.problems.append(
                say("pages.bare_column", lang, col=named(col, lang), label=label(col, lang), example=example(col, lang))
            )
        if self.problems:
            return self._say("clarify", self.problems[0])
        if not named_cols:
            if self.evaluation is not None:
                ev = self.evaluation
                choice = options(self.vocab, ev.related, ev, lang)
                return self._say(
                    "clarify", say("pages.evaluation", lang, label=concept_label(ev, lang), options=choice)
                )
            columns = listed(self.vocab.columns.values(), lang)
            return self._say("clarify", say("pages.nothing_read", lang, listed=columns))
        order = list(dict.fromkeys(s.column for s in sorted(slots, key=lambda s: s.start) if s.conditions))
        conditions = sorted((c for s in slots for c in s.conditions), key=lambda c: (order.index(c.column), c.start))
        for c in conditions:  # a count compared with a fraction: the number went to the wrong column
            if (
                self.vocab.columns[c.column].type == "integer"
                and isinstance(c.value, Decimal)
                and c.value != c.value.to_integral_value()
            ):
                col = self.vocab.columns[c.column]
                return self._say("clarify", say("pages.not_whole", lang, col=named(col, lang), value=fmt(c.value)))
        clash = _contradiction(conditions)
        if clash is not None:
            a, b = (f"'{c.column} {c.op} {fmt(c.value)}'" for c in clash)
            return self._say("clarify", say("pages.contradiction", lang, a=a, b=b))
        return PageQuery("ran", _dedupe(conditions), order, notes=self.notes, lang=lang)

    def _say(self, status: PageStatus, hedge: str) -> PageQuery:
        return PageQuery(status, [], [], hedge, lang=self.lang)

    def _no_column(self, concept: Concept) -> str:
        return say("pages.no_column", self.lang, label=concept_label(concept, self.lang))


_WISH = re.compile(r"like\s+to\b", re.IGNORECASE)
"""'I'd like to know …' is a wish, not the concept 'likes' (a social-engagement count)."""


def _negation_after(rest: str) -> re.Match[str] | None:
    m = NEGATED.match(rest) or DATE_NEGATION_AFTER.match(rest)
    return m if m is not None and m.group(0).strip() else None


def _kind(column_type: str) -> str:
    return "number" if column_type in NUMERIC else column_type


def _verbal(ms: list[Morph], end: int) -> bool:
    """Whether a column word is used as a verb ('수정된', '업데이트한'): a cue, not a demand for a condition."""
    return any(m.start >= end and m.start <= end + 1 and m.tag in ("XSV", "XSA") for m in ms)


def _contradiction(conditions: list[Condition]) -> tuple[Condition, Condition] | None:
    """Two conditions on one column that no value meets (a lower bound above an upper one, two different
    equalities). A question meant to find something; a filter that cannot match is a misreading ("2026년 9월 한
    달 동안" once added the month before the reference day to September), so it is asked back, not run as an
    empty answer. Text and true/false values are left to the equality check only."""
    by_column: dict[str, list[Condition]] = {}
    for c in conditions:
        by_column.setdefault(c.column, []).append(c)
    for conds in by_column.values():
        for i, a in enumerate(conds):
            for b in conds[i + 1 :]:
                if _disjoint(a, b) or _disjoint(b, a):
                    return a, b
    return None


def _disjoint(a: Condition, b: Condition) -> bool:
    """Whether ``a`` (a lower bound or an equality) and ``b`` (an upper bound or an equality) exclude each other."""
    if a.op not in (">=", ">", "=") or b.op not in ("<=", "<", "="):
        return False
    if a.op == "=" and b.op == "=":
        return a.value != b.value
    strict = a.op == ">" or b.op == "<"
    low, high = a.value, b.value
    if isinstance(low, Decimal) and isinstance(high, Decimal):
        return low > high or (low == high and strict)
    if isinstance(low, date) and isinstance(high, date):
        return low > high or (low == high and strict)
    return False


def _dedupe(conditions: list[Condition]) -> list[Condition]:
    seen: set[tuple[str, str, str]] = set()
    out = []
    for c in conditions:
        key = (c.column, c.op, repr(c.value))
        if key not in seen:
            seen.add(key)
            out.append(c)
    return out
