"""The inventory's vocabulary: the columns conditions can be put on, the vague phrases, and the words that are
not columns.

A column has a type (integer, decimal, date, boolean, text) and may be rank-like (``pg:rankLike``: a smaller
number is a higher rank), which changes what '상위'/'10위 이내' mean on it; both come from the column's
definition, never from its name. A vague phrase may have several rows, one per column it is meant for
(``applies_to``); the question's column picks among them (see ``predicates``).

Columns come from the ontology (the built-in metric and date columns) and from the loaded dataset
(``columns.csv``); vague phrases ('꽤 되는', '하나도 없는') from the built-in predicate dictionary
(``ont_platform/qa/pages_predicates.json``) and the dataset's ``predicates.csv``, whose entries come first; the
words that make a question unanswerable as a filter — measures without a column ('전환율'), vague measures
('성과'), orderings ('가장') — and the verbs that point at a date column are SKOS concepts of the ontology's
schemes. Everything is read once per context and added to its lexicon, so the same question over the same data
always reads the same way.
"""

from __future__ import annotations

import json
import re
from collections.abc import Iterable
from dataclasses import dataclass, field
from decimal import Decimal, InvalidOperation
from functools import lru_cache
from importlib import resources

from rdflib import SKOS, URIRef

from ont_platform.errors import OntologyError
from ont_platform.namespaces import PG
from ont_platform.qa.context import Context
from ont_platform.qa.text import compact
from ont_platform.sparql import pages as q

NUMERIC = frozenset({"integer", "decimal"})
KINDS = NUMERIC | {"date", "boolean", "text"}
DATE_OPS = frozenset({"older_than_days", "newer_than_days"})
"""Predicate operators on a date column, counted back from the dataset's ``as_of`` date (``predicates``)."""
METRIC_WINDOW_DAYS = 30  # the built-in metric columns are 30-day totals
HANGUL = re.compile(r"[가-힣]")
_ROLES = {
    "UnsupportedConcepts": "unsupported",
    "UnsupportedOperations": "operation",
    "VagueMeasures": "measure",
    "VagueEvaluations": "evaluation",
    "ColumnCues": "cue",
}


@dataclass(frozen=True, slots=True)
class PageColumn:
    """A column conditions can be put on."""

    name: str
    iri: URIRef
    type: str  # integer | decimal | date | boolean | text
    label: str  # the shortest Korean label, for messages
    rank: bool = False  # pg:rankLike: a smaller value is a higher rank (an average search position)
    label_en: str = ""  # the English label, for messages to an English question (the name when there is none)


@dataclass(frozen=True, slots=True)
class VaguePredicate:
    """A phrase of the predicate dictionary and the comparison it stands for."""

    phrase: str
    op: str  # a comparison, or one of DATE_OPS
    value: Decimal | bool  # a number, a count of days (DATE_OPS), or true/false for a boolean column
    applies_to: str | None
    types: frozenset[str]
    from_dataset: bool


@dataclass(frozen=True, slots=True)
class Concept:
    """A word of the ontology's question vocabulary that is not a column (see ``ontologies/pages.ttl``)."""

    iri: str
    role: str  # unsupported | operation | measure | evaluation | cue
    label: str
    related: tuple[str, ...]
    label_en: str = ""  # the English label, for messages to an English question


@dataclass
class PageVocabulary:
    """Columns, predicates and concepts of one loaded inventory."""

    columns: dict[str, PageColumn]
    predicates: dict[str, list[VaguePredicate]]
    concepts: dict[str, Concept]
    flat_labels: list[tuple[str, str, str]] = field(default_factory=list)  # (compact label, kind, ref)


@lru_cache(maxsize=1)
def builtin_predicates() -> tuple[VaguePredicate, ...]:
    """The built-in predicate dictionary, ``ont_platform/qa/pages_predicates.json``."""
    doc = json.loads(resources.files("ont_platform.qa").joinpath("pages_predicates.json").read_text("utf-8"))
    out = []
    for entry in doc["predicates"]:
        op = entry["op"]
        value = _value(str(entry["value"]), op)
        default = {"boolean"} if isinstance(value, bool) else {"date"} if op in DATE_OPS else NUMERIC
        types = frozenset(entry.get("types") or default)
        if value is None or op not in q.OPERATORS | DATE_OPS or not types <= default:
            raise OntologyError(f"pages_predicates.json: bad entry {entry!r}")
        out.append(VaguePredicate(entry["phrase"], op, value, None, types, False))
    return tuple(out)


def _value(raw: str, op: str) -> Decimal | bool | None:
    """A predicate's value: true/false, or a finite number (a whole number of days for a date operator)."""
    if raw.strip().lower() in ("true", "false"):
        return raw.strip().lower() == "true" if op in ("=", "!=") else None
    try:
        value = Decimal(raw)
    except InvalidOperation:
        return None
    if not value.is_finite() or (op in DATE_OPS and (value != value.to_integral_value() or value < 0)):
        return None
    return value


def _types_of(op: str, value: Decimal | bool) -> frozenset[str]:
    """The column types a dataset row fits, from its value and operator."""
    if isinstance(value, bool):
        return frozenset({"boolean"})
    return frozenset({"date"}) if op in DATE_OPS else NUMERIC


_CACHE_KEY = "pages_vocabulary"


def dataset_vocabulary(ctx: Context) -> PageVocabulary:
    """The inventory's vocabulary: built-in and dataset columns, predicates and the ontology's concepts.

    Built once per context (one query reads the dataset's columns and predicates) and kept in its cache; every
    label, predicate phrase and concept label is added to the context's lexicon as a term.
    """
    cached = ctx.cache.get(_CACHE_KEY)
    if isinstance(cached, PageVocabulary):
        return cached
    vocab = _build_vocabulary(ctx)
    ctx.cache[_CACHE_KEY] = vocab
    return vocab


def _short_label(main: str | None, labels: Iterable[str]) -> str:
    ko = sorted({lab for lab in labels if HANGUL.search(lab)}, key=lambda s: (len(s), s != main, s))
    return ko[0] if ko else (main or "")


def _english_label(main: str | None, labels: Iterable[str], name: str) -> str:
    """The label an English message names a column by: the English ``rdfs:label`` without its parenthesised
    note ('impressions (last 30 days)' → 'impressions'), else the shortest label without Hangul that is not the
    column's name itself (a dataset's alias 'bounce rate'), else the name."""
    if main:
        return re.sub(r"\s*\([^()]*\)$", "", main) or main
    latin = sorted({lab for lab in labels if not HANGUL.search(lab) and lab != name}, key=lambda s: (len(s), s))
    return latin[0] if latin else name


def _build_vocabulary(ctx: Context) -> PageVocabulary:
    onto, lex = ctx.onto, ctx.lexicon
    columns: dict[str, PageColumn] = {}
    labelled: list[tuple[str, str, str]] = []
    for col in onto.columns.values():
        if col.type in KINDS:
            labelled += [(label, "column", col.name) for label in col.labels]
            label = _short_label(onto.label(col.iri, "ko"), onto.labels(col.iri, "ko"))
            rank = str(onto.graph.value(col.iri, PG.rankLike)).lower() == "true"
            english = onto.labels(col.iri, "en")
            main_en = onto.label(col.iri, "en")  # the local name when there is no English rdfs:label
            label_en = _english_label(main_en if main_en in english else None, english, col.name)
            columns[col.name] = PageColumn(col.name, col.iri, col.type, label or col.name, rank, label_en)
    rows = ctx.run_select(q.dataset_vocabulary(ctx.limits.max_names))
    extra: dict[str, tuple[URIRef, str, str | None, list[str], bool]] = {}
    dataset_preds: list[VaguePredicate] = []
    for r in rows:
        name = str(r["name"])
        if str(r["kind"]) == "column" and str(r.get("type")) in KINDS:
            rank = str(r.get("rank")).lower() == "true"
            prop, ctype, main, labels, _ = extra.setdefault(
                name, (URIRef(str(r["prop"])), str(r["type"]), None, [], rank)
            )
            if r.get("label") is not None:
                labels.append(str(r["label"]))
                if str(r.get("lp")).endswith("#label"):
                    extra[name] = (prop, ctype, str(r["label"]), labels, rank)
        elif str(r["kind"]) == "predicate":
            op = str(r["op"])
            value = _value(str(r["value"]), op)
            if value is not None and op in q.OPERATORS | DATE_OPS:
                applies = str(r["applies"]) if r.get("applies") is not None else None
                p = VaguePredicate(name, op, value, applies, _types_of(op, value), True)
                if p not in dataset_preds:
                    dataset_preds.append(p)
    for name, (prop, ctype, main, labels, rank) in sorted(extra.items()):
        if name not in columns:
            label_en = _english_label(None, labels, name)
            columns[name] = PageColumn(name, prop, ctype, _short_label(main, labels) or name, rank, label_en)
        for label in [*labels, name]:
            lex.add_term(label, "column", name)
            labelled.append((label, "column", name))
    predicates: dict[str, list[VaguePredicate]] = {}
    for p in [*dataset_preds, *builtin_predicates()]:  # dataset entries first: they override
        ref = compact(p.phrase)
        if p.applies_to is not None and (p.applies_to not in columns or columns[p.applies_to].type not in p.types):
            continue
        predicates.setdefault(ref, []).append(p)
        lex.add_term(p.phrase, "predicate", ref)
        labelled.append((p.phrase, "predicate", ref))
    concepts: dict[str, Concept] = {}
    g = onto.graph
    position = {name: i for i, name in enumerate(columns)}
    column_words = {compact(label) for label, kind, _ in labelled if kind == "column"}
    for scheme, role in _ROLES.items():
        for c in sorted(g.subjects(SKOS.inScheme, PG[scheme]), key=str):
            if role == "unsupported" and {compact(x) for x in onto.labels(URIRef(str(c)))} & column_words:
                continue  # the dataset has a column for it (이탈률 from columns.csv)
            names = {
                str(g.value(r, PG.column)) for r in g.objects(c, SKOS.related) if g.value(r, PG.column) is not None
            }
            related = tuple(sorted(names, key=lambda n: (position.get(n, len(position)), n)))
            iri = URIRef(str(c))
            concepts[str(c)] = Concept(str(c), role, onto.label(iri, "ko"), related, onto.label(iri, "en"))
            for label in onto.labels(URIRef(str(c))):
                lex.add_term(label, "concept", str(c))
                labelled.append((label, "concept", str(c)))
    flat = sorted(
        {
            (compact(label), kind, ref)
            for label, kind, ref in labelled
            if len(compact(label)) >= 3 or re.fullmatch(r"[가-힣]{2}", compact(label))
        }
    )
    return PageVocabulary(columns, predicates, concepts, flat)
