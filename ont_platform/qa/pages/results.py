"""Running a read question's filter and writing the ``PageFilterResult``.

The matched rows come only from running the SPARQL filter (``ont_platform.sparql.pages``), never from the
reading; clarify and unsupported answers carry no rows. The hedge says which vague phrases and relative dates
became which thresholds, and against which reference date, so the reader can check them or set their own.
"""

from __future__ import annotations

from datetime import date
from decimal import Decimal, InvalidOperation

from ont_platform.answer.contracts import PageFilterResult
from ont_platform.messages import Lang, say
from ont_platform.qa.context import Context
from ont_platform.qa.pages.predicates import describe
from ont_platform.qa.pages.reader import Condition, PageQuery, Value, read_question
from ont_platform.qa.pages.vocabulary import (
    DATE_OPS,
    NUMERIC,
    PageColumn,
    PageVocabulary,
    dataset_vocabulary,
)
from ont_platform.qa.pages.wording import fmt, quote
from ont_platform.sparql import pages as q


def filter_text(conditions: list[Condition]) -> str:
    """``impressions_30d >= 1000 AND clicks_30d = 0``."""
    return " AND ".join(f"{c.column} {c.op} {fmt(c.value)}" for c in conditions)


def _typed(col: PageColumn, value: Value) -> tuple[str, str]:
    if isinstance(value, bool):
        return ("true" if value else "false"), "boolean"
    if isinstance(value, str):
        return value, "string"
    if isinstance(value, date):
        return value.isoformat(), "date"
    if col.type == "integer" and value == value.to_integral_value():
        return str(int(value)), "integer"
    return format(value, "f"), "decimal"


def _evidence_value(col: PageColumn, raw: object) -> str:
    text = str(raw)
    if col.type in NUMERIC:
        try:
            return fmt(Decimal(text))
        except InvalidOperation:
            return text
    if col.type == "text":  # quoted, so a comma or '=' in a title cannot pass for another column's evidence
        return quote(text)
    return text


def build_query(vocab: PageVocabulary, pq: PageQuery, limit: int) -> str:
    """The SPARQL that runs a read question's conditions."""
    cols = [vocab.columns[name] for name in pq.columns]
    comparisons = []
    for c in pq.conditions:
        lexical, dtype = _typed(vocab.columns[c.column], c.value)
        comparisons.append(q.Comparison(pq.columns.index(c.column), c.op, lexical, dtype))
    return q.filter_pages([c.iri for c in cols], comparisons, limit=limit)


def answer(ctx: Context, question: str) -> PageFilterResult:
    """Answer a page question over the loaded inventory (``question`` is copied into the contract as given)."""
    pq = read_question(ctx, question)
    if pq.status != "ran":
        return PageFilterResult(
            question=question,
            status=pq.status,
            parsed_filter=None,
            columns_used=[],
            matched=[],
            count=None,
            hedge=pq.hedge,
        )
    vocab = dataset_vocabulary(ctx)
    limit = ctx.limits.max_result_rows
    rows = ctx.run_select(build_query(vocab, pq, limit))
    cols = [vocab.columns[name] for name in pq.columns]
    matched: dict[str, str] = {}
    for r in rows:
        url = str(r["url"])
        if url not in matched:
            matched[url] = ", ".join(f"{c.name}={_evidence_value(c, r[f'v{i}'])}" for i, c in enumerate(cols))
    hedge = _ran_hedge(ctx, vocab, pq, len(matched), truncated=len(rows) >= limit)
    return PageFilterResult.model_validate(
        {
            "question": question,
            "status": "ran",
            "parsed_filter": filter_text(pq.conditions),
            "columns_used": pq.columns,
            "matched": [{"url": u, "evidence": e} for u, e in sorted(matched.items())],
            "count": len(matched),
            "hedge": hedge,
        }
    )


_BOUNDS = {">=": "pages.bound_ge", ">": "pages.bound_gt", "<": "pages.bound_lt", "<=": "pages.bound_le"}


def _ran_hedge(ctx: Context, vocab: PageVocabulary, pq: PageQuery, count: int, *, truncated: bool) -> str:
    """What the run did with the question's words, in the question's language: which vague phrases and relative
    dates became which conditions (and from which dictionary row and reference date), the reading's notes, no
    match, a cut result, the inventory's date."""
    lang = pq.lang
    said: list[str] = []
    phrases: list[str] = []
    seen: set[str] = set()
    for c in pq.conditions:
        p = c.predicate
        if c.source != "predicate" or p is None or (p.op in ("=", "!=") and not p.from_dataset) or c.phrase in seen:
            continue
        seen.add(c.phrase or "")
        where = say("pages.dict_dataset" if p.from_dataset else "pages.dict_builtin", lang)
        quoted = f"'{c.phrase or p.phrase}'"
        if p.op in DATE_OPS or p.op in ("=", "!="):
            note = say("pages.date_note", lang, base=_base(ctx, lang)) if p.op in DATE_OPS else ""
            condition = f"{c.column} {c.op} {fmt(c.value)}"
            phrases.append(
                say(
                    "pages.phrase_condition",
                    lang,
                    quoted=quoted,
                    where=where,
                    row=describe(p, lang),
                    condition=condition,
                    note=note,
                )
            )
            continue
        unit = say("pages.count_unit", lang) if vocab.columns[c.column].type == "integer" else ""
        bound = say(_BOUNDS[p.op], lang)
        phrases.append(
            say("pages.phrase_threshold", lang, quoted=quoted, where=where, value=fmt(p.value), unit=unit, bound=bound)
        )
    if phrases:
        said.append(say("pages.phrases_read", lang, phrases=", ".join(phrases)))
    dated: dict[str, list[Condition]] = {}
    for c in pq.conditions:
        if c.source == "date" and c.phrase:
            dated.setdefault(c.phrase, []).append(c)
    for phrase, conds in dated.items():
        said.append(
            say("pages.date_read", lang, quoted=f"'{phrase}'", condition=filter_text(conds), base=_base(ctx, lang))
        )
    said.append(say("pages.change_hint" if said else "pages.ran_as_asked", lang))
    said.extend(pq.notes)
    if count == 0:
        said.append(say("pages.no_match", lang))
    if truncated:
        said.append(say("pages.truncated", lang, rows=ctx.limits.max_result_rows))
    if ctx.as_of is not None:
        said.append(say("pages.as_of", lang, date=ctx.as_of.isoformat()))
    return " ".join(said)


def _base(ctx: Context, lang: Lang) -> str:
    """The reference date relative dates count from, as the hedge names it."""
    if ctx.as_of is not None:
        return say("pages.base_date", lang, date=ctx.as_of.isoformat())
    return say("pages.base_today", lang, date=date.today().isoformat())
