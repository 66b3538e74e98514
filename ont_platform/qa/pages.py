"""Page questions (seed 004): a Korean filter question → conditions on columns → SPARQL → ``PageFilterResult``.

Reading is offline and deterministic. Column mentions come from the lexicon (the ontology's column labels
plus the columns a dataset adds); numbers, comparison words and dates are read by pattern; vague phrases
('꽤 되는', '하나도 없는') come from the predicate dictionary (``pages_predicates.json``, extended by the
dataset's ``predicates.csv``). Each condition attaches to the nearest column mention that can take it. The
words that make a question unanswerable as a filter — measures without a column ('전환율'), vague measures
('성과'), orderings ('가장') — are SKOS concepts of the ontology. The answer's rows come only from running
the SPARQL filter; clarify and unsupported answers never carry rows. See docs/pages.md.
"""

from __future__ import annotations

import calendar
import json
import re
from collections.abc import Callable, Iterable
from dataclasses import dataclass, field
from datetime import date, timedelta
from decimal import Decimal, InvalidOperation
from functools import lru_cache
from importlib import resources

from rdflib import SKOS, URIRef

from ont_platform.answer.contracts import PageFilterResult
from ont_platform.errors import OntologyError
from ont_platform.namespaces import PG
from ont_platform.qa.analyzer import Morph, morphs
from ont_platform.qa.context import Context
from ont_platform.qa.korean import josa
from ont_platform.qa.lexicon import Mention
from ont_platform.qa.text import compact, normalize
from ont_platform.sparql import pages as q

NUMERIC = frozenset({"integer", "decimal"})
METRIC_WINDOW_DAYS = 30  # the built-in metric columns are 30-day totals
_INVERT = {">=": "<", ">": "<=", "<": ">=", "<=": ">", "=": "!=", "!=": "="}
_MAX_VALUE = Decimal(10) ** 15
_ROLES = {
    "UnsupportedConcepts": "unsupported",
    "UnsupportedOperations": "operation",
    "VagueMeasures": "measure",
    "VagueEvaluations": "evaluation",
    "ColumnCues": "cue",
}

# --- vocabulary ----------------------------------------------------------------------------------------------


@dataclass(frozen=True, slots=True)
class PageColumn:
    """A column conditions can be put on."""

    name: str
    iri: URIRef
    type: str  # integer | decimal | date
    label: str  # the shortest Korean label, for messages


@dataclass(frozen=True, slots=True)
class VaguePredicate:
    """A phrase of the predicate dictionary and the comparison it stands for."""

    phrase: str
    op: str
    value: Decimal
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
        op, types = entry["op"], frozenset(entry.get("types") or NUMERIC)
        if op not in q.OPERATORS or not types <= NUMERIC:
            raise OntologyError(f"pages_predicates.json: bad entry {entry!r}")
        out.append(VaguePredicate(entry["phrase"], op, Decimal(entry["value"]), None, types, False))
    return tuple(out)


_VOCAB_ATTR = "_page_vocabulary"


def dataset_vocabulary(ctx: Context) -> PageVocabulary:
    """The inventory's vocabulary: built-in and dataset columns, predicates and the ontology's concepts.

    Built once per context (one query reads the dataset's columns and predicates) and cached on it; every
    label, predicate phrase and concept label is added to the context's lexicon as a term.
    """
    cached = getattr(ctx, _VOCAB_ATTR, None)
    if isinstance(cached, PageVocabulary):
        return cached
    vocab = _build_vocabulary(ctx)
    setattr(ctx, _VOCAB_ATTR, vocab)
    return vocab


def _short_label(main: str | None, labels: Iterable[str]) -> str:
    ko = sorted({lab for lab in labels if _HANGUL.search(lab)}, key=lambda s: (len(s), s != main, s))
    return ko[0] if ko else (main or "")


def _build_vocabulary(ctx: Context) -> PageVocabulary:
    onto, lex = ctx.onto, ctx.lexicon
    columns: dict[str, PageColumn] = {}
    labelled: list[tuple[str, str, str]] = []
    for col in onto.columns.values():
        if col.type in NUMERIC | {"date"}:
            labelled += [(label, "column", col.name) for label in col.labels]
            label = _short_label(onto.label(col.iri, "ko"), onto.labels(col.iri, "ko"))
            columns[col.name] = PageColumn(col.name, col.iri, col.type, label or col.name)
    rows = ctx.run_select(q.dataset_vocabulary(ctx.limits.max_names))
    extra: dict[str, tuple[URIRef, str, str | None, list[str]]] = {}
    dataset_preds: list[VaguePredicate] = []
    for r in rows:
        name = str(r["name"])
        if str(r["kind"]) == "column" and str(r.get("type")) in NUMERIC | {"date"}:
            prop, ctype, main, labels = extra.setdefault(name, (URIRef(str(r["prop"])), str(r["type"]), None, []))
            if r.get("label") is not None:
                labels.append(str(r["label"]))
                if str(r.get("lp")).endswith("#label"):
                    extra[name] = (prop, ctype, str(r["label"]), labels)
        elif str(r["kind"]) == "predicate":
            try:
                value = Decimal(str(r["value"]))
            except InvalidOperation:
                continue
            if str(r["op"]) in q.OPERATORS and value.is_finite():
                applies = str(r["applies"]) if r.get("applies") is not None else None
                dataset_preds.append(VaguePredicate(name, str(r["op"]), value, applies, NUMERIC, True))
    for name, (prop, ctype, main, labels) in sorted(extra.items()):
        if name not in columns:
            columns[name] = PageColumn(name, prop, ctype, _short_label(main, labels) or name)
        for label in [*labels, name]:
            lex.add_term(label, "column", name)
            labelled.append((label, "column", name))
    predicates: dict[str, list[VaguePredicate]] = {}
    for p in [*dataset_preds, *builtin_predicates()]:  # dataset entries first: they override
        ref = compact(p.phrase)
        if p.applies_to is not None and p.applies_to not in columns:
            continue
        predicates.setdefault(ref, []).append(p)
        lex.add_term(p.phrase, "predicate", ref)
        labelled.append((p.phrase, "predicate", ref))
    concepts: dict[str, Concept] = {}
    g = onto.graph
    rank = {name: i for i, name in enumerate(columns)}
    column_words = {compact(label) for label, kind, _ in labelled if kind == "column"}
    for scheme, role in _ROLES.items():
        for c in sorted(g.subjects(SKOS.inScheme, PG[scheme]), key=str):
            if role == "unsupported" and {compact(x) for x in onto.labels(URIRef(str(c)))} & column_words:
                continue  # the dataset has a column for it (이탈률 from columns.csv)
            names = {str(g.value(r, PG.column)) for r in g.objects(c, SKOS.related) if g.value(r, PG.column) is not None}
            related = tuple(sorted(names, key=lambda n: (rank.get(n, len(rank)), n)))
            concepts[str(c)] = Concept(str(c), role, onto.label(URIRef(str(c)), "ko"), related)
            for label in onto.labels(URIRef(str(c))):
                lex.add_term(label, "concept", str(c))
                labelled.append((label, "concept", str(c)))
    flat = sorted({(compact(label), kind, ref) for label, kind, ref in labelled
                   if len(compact(label)) >= 3 or re.fullmatch(r"[가-힣]{2}", compact(label))})
    return PageVocabulary(columns, predicates, concepts, flat)


# --- finding terms -------------------------------------------------------------------------------------------

_HANGUL = re.compile(r"[가-힣]")
_WANTED = frozenset({"column", "predicate", "concept"})


def find_terms(ctx: Context, vocab: PageVocabulary, text: str, ms: list[Morph]) -> list[Mention]:
    """Columns, predicates and concepts in ``text``, as spans of ``text`` (longest matches win).

    The lexicon's own matching first; then every label of the vocabulary looked up in the text with spacing
    and case removed, for words the analyser reads differently in a sentence than alone ('클릭률' alone is one
    noun, in '클릭률 5% 이상' it is 클릭 + 률; '1분기 게시' is corrected to '개시'). A two-syllable label counts
    only where a word starts, and a label that begins or ends with a Latin letter or digit only as a whole word.
    """
    out = [m for m in ctx.lexicon.find_terms(text, ms) if m.kind in _WANTED]
    flat, where = _compact_map(text)
    for label, kind, ref in vocab.flat_labels:
        pos = flat.find(label)
        while pos >= 0:
            start, end = where[pos], where[pos + len(label) - 1] + 1
            if _stands_alone(text, start, end, short=len(label) == 2) and not any(
                m.kind == kind and m.ref == ref and m.start < end and start < m.end for m in out
            ):
                out.append(Mention(kind, ref, start, end, label))
            pos = flat.find(label, pos + 1)
    return _longest(out)


def _compact_map(text: str) -> tuple[str, list[int]]:
    out: list[str] = []
    where: list[int] = []
    for i, ch in enumerate(text):
        if not ch.isspace():
            for c in ch.casefold():
                out.append(c)
                where.append(i)
    return "".join(out), where


def _stands_alone(text: str, start: int, end: int, *, short: bool) -> bool:
    def latin(ch: str) -> bool:
        return ch.isascii() and (ch.isalnum() or ch == "_")

    if short and start > 0 and _HANGUL.match(text[start - 1]):
        return False
    if latin(text[start]) and start > 0 and latin(text[start - 1]):
        return False
    return not (latin(text[end - 1]) and end < len(text) and latin(text[end]))


def _longest(mentions: list[Mention]) -> list[Mention]:
    keep = [
        m for m in mentions
        if not any(o.start <= m.start and m.end <= o.end and (o.end - o.start) > (m.end - m.start) for o in mentions)
    ]
    seen: set[tuple[str, str, int]] = set()
    out = []
    for m in sorted(keep, key=lambda x: (x.start, -(x.end - x.start), x.kind, x.ref)):
        if (m.kind, m.ref, m.start) not in seen:
            seen.add((m.kind, m.ref, m.start))
            out.append(m)
    return out


# --- numbers -------------------------------------------------------------------------------------------------

_KO_MUL = {"십": 10, "백": 100, "천": 1000, "만": 10_000, "억": 100_000_000}
_EN_MUL = {"k": 1000, "thousand": 1000, "hundred": 100, "million": 1_000_000}
_EN_WORD = {"zero": 0, "a hundred": 100, "a thousand": 1000, "hundred": 100, "thousand": 1000}
_VALUE = re.compile(
    r"(?:(?<![0-9A-Za-z_.,])(?P<d>(?:\d{1,3}(?:,\d{3})+|\d+)(?:\.\d+)?)(?P<km>[십백천만억]{1,3})?"
    r"(?:\s*(?P<em>k(?![a-z])|thousand\b|hundred\b|million\b))?"
    r"|(?<![0-9A-Za-z가-힣])(?P<kd>[일이삼사오육칠팔구])?(?P<kw>십만|백만|천만|백|천|만)"
    r"(?=\s|회|번|건|개|명|이상|이하|미만|초과|넘|$|[,.!?])"
    r"|(?<![a-z])(?P<ew>zero|a\s+hundred|a\s+thousand|hundred|thousand)(?![a-z]))"
    r"(?P<pct>\s*(?:%|퍼센트|프로(?![가-힣])|percent\b|pct\b))?"
    r"(?P<unit>\s*(?:회|번|건|차례|명|개|times\b))?",
    re.IGNORECASE,
)
_PARTICLE = r"(?:\s*(?:을|를|이|가|은|는|으로|로|에|도)(?=\s|[가-힣]|$))?"
_SUFFIX = re.compile(
    _PARTICLE + r"\s*(?:"
    r"(?P<ge>이상|부터|↑|or\s{1,3}(?:more|above|greater|higher)|and\s{1,3}(?:up|above|over)(?!\s*\d)|\+)"
    r"|(?P<le>이하|이내|까지|↓|(?:못|안)\s*넘|or\s{1,3}(?:less|fewer|below|lower|under)(?!\s*\d))"
    r"|(?P<gt>초과|넘|웃돌|웃도|보다\s*(?:더\s*)?(?:많|크|높|길))"
    r"|(?P<lt>미만|안\s*(?:되|돼|됨|된)|안되|못\s*(?:미치|되|돼|된)|아래|밑|보다\s*(?:더\s*)?(?:적|작|낮|짧))"
    r"|(?P<ne>아닌|아니|제외|빼고)"
    r"|(?P<eq>인|이다|이고|이며|이면|뿐|밖에|짜리|와\s*같|과\s*같))",
    re.IGNORECASE,
)
_PREFIX = re.compile(
    r"(?:(?P<ge>(?<![a-z])(?:at\s+least|no\s+(?:less|fewer)\s+than|not\s+(?:less|fewer)\s+than|minimum(?:\s+of)?"
    r"|(?:greater|more|higher|larger)\s+than\s+or\s+equal\s+to|at\s+or\s+above)"
    r"|최소한?|적어도|>=|≥|=>)"
    r"|(?P<le>(?<![a-z])(?:at\s+most|no\s+more\s+than|not\s+more\s+than|up\s+to|maximum(?:\s+of)?"
    r"|(?:less|fewer|lower|smaller)\s+than\s+or\s+equal\s+to|at\s+or\s+below)|최대|많아야|<=|≤|=<)"
    r"|(?P<gt>(?<![a-z])(?:(?:more|greater|higher|larger|bigger)\s+than|over|above|beyond|exceed(?:s|ing)?"
    r"|surpass(?:es|ing)?)|(?<![a-z/])>)"
    r"|(?P<lt>(?<![a-z])(?:(?:less|fewer|lower|smaller)\s+than|under|below)|<(?![a-z/]))"
    r"|(?P<ne>(?<![a-z])not(?:\s+equal\s+to)?|!=|≠|<>)"
    r"|(?P<eq>(?<![a-z])(?:exactly|equal\s+to|equals?)|정확히|딱|==|=))\s*:?\s*$",
    re.IGNORECASE,
)
_NEGATED = re.compile(r"^\s*(?:하|되)?(?:지|지는|지도)\s*(?:않|못)|^\s*(?:않|못)")
_RANGE_LINK = re.compile(r"^\s*(?:~|∼|〜|–|-|에서|부터|to|and|through)\s*$", re.IGNORECASE)
_RANGE_TAIL = re.compile(r"^\s*(?:사이|까지|이내)(?:의|에|인|로)?", re.IGNORECASE)
_BETWEEN = re.compile(r"(?<![a-z])between\s*$", re.IGNORECASE)


@dataclass
class _Number:
    start: int  # span of the whole comparison (prefix, value, unit, comparison word)
    end: int
    value: Decimal
    percent: bool
    op: str
    unit: str
    text: str


def _op_of(m: re.Match[str] | None) -> str | None:
    if m is None:
        return None
    for name, op in (("ge", ">="), ("le", "<="), ("gt", ">"), ("lt", "<"), ("ne", "!="), ("eq", "=")):
        if m.group(name):
            return op
    return None


def _value(m: re.Match[str]) -> Decimal:
    if m.group("d"):
        v = Decimal(m.group("d").replace(",", ""))
        for ch in m.group("km") or "":
            v *= _KO_MUL[ch]
        if m.group("em"):
            v *= _EN_MUL[m.group("em").lower()]
    elif m.group("kw"):
        v = Decimal("일이삼사오육칠팔구".index(m.group("kd")) + 1 if m.group("kd") else 1)
        for ch in m.group("kw"):
            v *= _KO_MUL[ch]
    else:
        v = Decimal(_EN_WORD[re.sub(r"\s+", " ", m.group("ew").lower())])
    return v / 100 if m.group("pct") else v


def read_numbers(work: str) -> list[_Number]:
    """Numbers with their comparison, in order; ``work`` is the text with dates and column names blanked."""
    found = []
    for m in _VALUE.finditer(work):
        start, end = m.span()
        while end > start and work[end - 1].isspace():
            end -= 1
        found.append((m, start, end))
    out: list[_Number] = []
    upper_next = False
    for i, (m, start, end) in enumerate(found):
        value, pct, unit = _value(m), bool(m.group("pct")), (m.group("unit") or "").strip()
        nxt = found[i + 1] if i + 1 < len(found) else None
        if nxt is not None and _RANGE_LINK.match(work[end : nxt[1]]) and (
            "and" not in work[end : nxt[1]].lower() or _BETWEEN.search(work[:start])
        ):
            b = _BETWEEN.search(work[:start])
            out.append(_Number(b.start() if b else start, end, value, pct, ">=", unit, work[start:end]))
            upper_next = True
            continue
        if upper_next:  # the upper end of a range
            tail = _RANGE_TAIL.match(work[end:])
            stop = end + (tail.end() if tail else 0)
            out.append(_Number(start, stop, value, pct, "<=", unit, work[start:end]))
            upper_next = False
            continue
        suffix = _SUFFIX.match(work, end)
        op, stop = _op_of(suffix), suffix.end() if suffix else end
        begin = start
        prefix = _PREFIX.search(work[max(0, start - 40) : start])
        if prefix is not None and _op_of(prefix) is not None:
            begin = max(0, start - 40) + prefix.start()
            if op is None or op == "=":
                op = _op_of(prefix)
        op = op or "="
        neg = _NEGATED.match(work[stop:])
        if neg and op != "!=":
            op, stop = _INVERT[op], stop + neg.end()
        out.append(_Number(begin, stop, value, pct, op, unit, work[start:end]))
    return out


# --- dates ---------------------------------------------------------------------------------------------------

_N_WORD = {"한": 1, "두": 2, "세": 3, "네": 4, "일": 1, "a": 1, "one": 1}
_UNIT = r"(?P<unit>일|주일|주|개월|달|년|days?|weeks?|months?|years?)"
_NUM = r"(?P<n>\d{1,4}|한|두|세|네|일(?=주일)|a|one)"
_YEAR_MOD = r"(?:\s*(?:의\s*)?(?P<mod>초반|초순|초|중반|말경|말|후반|상반기|하반기|[1-4]\s*분기|연초|연말|q[1-4]))?"
_MONTH_MOD = r"(?:\s*(?P<mod>초순|초|중순|말경|말|하순))?"
_DATE_PATTERNS: list[tuple[str, re.Pattern[str]]] = [
    ("ymd", re.compile(
        r"(?<![\d.])(?P<y>(?:19|20)\d{2})\s*(?:[-./]\s*(?P<m>\d{1,2})\s*[-./]\s*(?P<d>\d{1,2})(?![\d])\.?"
        r"|년\s*(?P<m2>\d{1,2})\s*월\s*(?P<d2>\d{1,2})\s*일)")),
    ("ym", re.compile(
        r"(?<![\d.])(?P<y>(?:19|20)\d{2})\s*(?:[-./](?P<m>\d{1,2})(?![\d.\-/])|년\s*(?P<m2>\d{1,2})\s*월)"
        + _MONTH_MOD)),
    ("y", re.compile(r"(?<![\d.])(?P<y>(?:19|20)\d{2})\s*년(?:도)?" + _YEAR_MOD, re.IGNORECASE)),
    ("y_en", re.compile(r"(?<![a-z])(?P<prep>in|after|since|before|until|during|from|by)\s+(?P<y>(?:19|20)\d{2})(?![\d,.%])",
                        re.IGNORECASE)),
    ("md", re.compile(r"(?<![\d.\-/])(?P<m>1[0-2]|0?[1-9])\s*월(?:\s*(?P<d>\d{1,2})\s*일)?" + _MONTH_MOD)),
    ("rel_year", re.compile(
        r"(?P<rel>올해|금년|이번\s*해|작년|지난\s*해|전년|재작년|this\s+year|last\s+year)" + _YEAR_MOD
        + r"|(?P<en_mod>early|late|end\s+of|start\s+of|beginning\s+of)\s+(?P<rel2>this|last)\s+year",
        re.IGNORECASE)),
    ("rel_month", re.compile(
        r"(?P<rel>이번\s*달|이달|지난\s*달|저번\s*달|전월|this\s+month|last\s+month)" + _MONTH_MOD, re.IGNORECASE)),
    ("rel_week", re.compile(r"(?P<rel>이번\s*주|금주|지난\s*주|저번\s*주|this\s+week|last\s+week)", re.IGNORECASE)),
    ("rel_day", re.compile(r"(?P<rel>오늘|어제|그제|그저께|today|yesterday)", re.IGNORECASE)),
    ("ago", re.compile(_NUM + r"\s*" + _UNIT + r"\s*(?:전|ago)", re.IGNORECASE)),
    ("age", re.compile(
        _NUM + r"\s*" + _UNIT + r"\s*(?:(?:이|가)\s*)?(?P<age>이상|넘게|넘은|넘는|넘도록|넘었|초과|지난|or\s+more|\+)",
        re.IGNORECASE)),
    ("recent", re.compile(
        r"(?:(?:in\s+)?(?:the\s+)?(?P<pre>최근|지난|과거|last|past))\s*" + _NUM + r"?\s*" + _UNIT
        + r"(?:\s*(?:간|동안|사이|이내|내))?"
        r"|" + _NUM.replace("?P<n>", "?P<n2>") + r"\s*" + _UNIT.replace("?P<unit>", "?P<unit2>")
        + r"\s*(?P<within>이내|내에|내|안에|간|동안|기준)",
        re.IGNORECASE)),
    ("vague_recent", re.compile(r"최근(?!\s*(?:\d|한|두|세|네|일주))|(?<![a-z])recent(?:ly)?(?![a-z])", re.IGNORECASE)),
]
_DATE_SUFFIX = re.compile(
    r"\s*(?:에|에서|의|로|으로)?\s*(?:"
    r"(?P<ge>이후|이래|부터|since|onwards?|or\s+later|and\s+after)"
    r"|(?P<gt>(?:후|뒤)(?:에|로)?(?:이고|이며|인)?(?![가-힣])|지나서)"
    r"|(?P<le>이전|까지|or\s+earlier|and\s+before)"
    r"|(?P<lt>전(?:에)?(?:이고|이며|인)?(?![가-힣])|보다\s*(?:앞|이전|전))"
    r"|(?P<eq>중|동안|사이|안에|내에))",
    re.IGNORECASE,
)
_DATE_PREFIX = re.compile(
    r"(?:(?P<ge>since|from|on\s+or\s+after|starting)|(?P<gt>after|later\s+than)|(?P<lt>before|prior\s+to|earlier\s+than)"
    r"|(?P<le>until|till|through|by|on\s+or\s+before)|(?P<eq>in|during|on))\s*(?:the\s+)?$",
    re.IGNORECASE,
)
_DATE_NEGATION_AFTER = re.compile(r"^\s*(?:되지|하지|시키지|된\s*적(?:이|은)?|한\s*적(?:이|은)?)?\s*(?:않|안\s|안되|없|못)",
                                  re.IGNORECASE)
_DATE_NEGATION_BEFORE = re.compile(r"(?:not|n't|never)\s*(?:been\s*)?$", re.IGNORECASE)


@dataclass
class _DateExpr:
    kind: str  # period | point | recent | age | vague
    start: int
    end: int
    first: date | None = None
    last: date | None = None
    op: str | None = None  # relation from the words around it
    relative: bool = False
    text: str = ""
    window_days: int | None = None  # for recent: the period's length in days when given in days


def _month_end(y: int, m: int) -> date:
    return date(y, m, calendar.monthrange(y, m)[1])


def _shift(d: date, n: int, unit: str) -> date:
    """``d`` moved back ``n`` units (days, weeks, months, years)."""
    u = unit.lower()
    if u.startswith(("일", "day")):
        return d - timedelta(days=n)
    if u.startswith(("주", "week")):
        return d - timedelta(weeks=n)
    months = n * 12 if u.startswith(("년", "year")) else n
    y, m = divmod(d.year * 12 + d.month - 1 - months, 12)
    return date(y, m + 1, min(d.day, calendar.monthrange(y, m + 1)[1]))


def _modified(y: int, mod: str | None) -> tuple[date, date]:
    """A year narrowed by 초/말/상반기/N분기."""
    mod = (mod or "").lower().replace(" ", "")
    if mod in ("초", "초반", "초순", "연초", "early", "startof", "beginningof"):
        return date(y, 1, 1), date(y, 3, 31)
    if mod in ("말", "말경", "후반", "연말", "late", "endof"):
        return date(y, 10, 1), date(y, 12, 31)
    if mod == "중반":
        return date(y, 4, 1), date(y, 9, 30)
    if mod == "상반기":
        return date(y, 1, 1), date(y, 6, 30)
    if mod == "하반기":
        return date(y, 7, 1), date(y, 12, 31)
    quarter = re.fullmatch(r"([1-4])분기|q([1-4])", mod)
    if quarter:
        k = int(quarter.group(1) or quarter.group(2))
        return date(y, 3 * k - 2, 1), _month_end(y, 3 * k)
    return date(y, 1, 1), date(y, 12, 31)


def _month_part(y: int, m: int, mod: str | None) -> tuple[date, date]:
    if mod in ("초", "초순"):
        return date(y, m, 1), date(y, m, 10)
    if mod == "중순":
        return date(y, m, 11), date(y, m, 20)
    if mod in ("말", "말경", "하순"):
        return date(y, m, 21), _month_end(y, m)
    return date(y, m, 1), _month_end(y, m)


def _count(m: re.Match[str], name: str = "n") -> int:
    raw = (m.group(name) or "").lower()
    return int(raw) if raw.isdigit() else _N_WORD.get(raw, 1)


def _resolve(kind: str, m: re.Match[str], as_of: date) -> _DateExpr:
    """One matched date expression as a period, point or recent span (raises ValueError on a bad date)."""
    s, e = m.span()
    text = m.group(0).strip()
    if kind == "ymd":
        y, mo, d = int(m.group("y")), int(m.group("m") or m.group("m2")), int(m.group("d") or m.group("d2"))
        day = date(y, mo, d)
        return _DateExpr("period", s, e, day, day, text=text)
    if kind == "ym":
        y, mo = int(m.group("y")), int(m.group("m") or m.group("m2"))
        first, last = _month_part(y, mo, m.group("mod"))
        return _DateExpr("period", s, e, first, last, text=text)
    if kind in ("y", "y_en"):
        first, last = _modified(int(m.group("y")), m.groupdict().get("mod"))
        prep = (m.groupdict().get("prep") or "").lower()
        op = {"after": ">", "since": ">=", "from": ">=", "before": "<", "until": "<=", "by": "<="}.get(prep)
        return _DateExpr("period", s, e, first, last, op=op, text=text)
    if kind == "md":
        mo = int(m.group("m"))
        y = as_of.year if mo <= as_of.month else as_of.year - 1
        if m.group("d"):
            day = date(y, mo, int(m.group("d")))
            return _DateExpr("period", s, e, day, day, relative=True, text=text)
        first, last = _month_part(y, mo, m.group("mod"))
        return _DateExpr("period", s, e, first, last, relative=True, text=text)
    if kind == "rel_year":
        rel = re.sub(r"\s+", "", (m.group("rel") or m.group("rel2") or "")).lower()
        back = 2 if rel == "재작년" else 0 if rel in ("올해", "금년", "이번해", "thisyear", "this") else 1
        first, last = _modified(as_of.year - back, m.group("mod") or m.group("en_mod"))
        return _DateExpr("period", s, e, first, last, relative=True, text=text)
    if kind == "rel_month":
        rel = re.sub(r"\s+", "", m.group("rel")).lower()
        y, mo = as_of.year, as_of.month
        if rel not in ("이번달", "이달", "thismonth"):
            y, mo = (y, mo - 1) if mo > 1 else (y - 1, 12)
        first, last = _month_part(y, mo, m.group("mod"))
        return _DateExpr("period", s, e, first, last, relative=True, text=text)
    if kind == "rel_week":
        rel = re.sub(r"\s+", "", m.group("rel")).lower()
        monday = as_of - timedelta(days=as_of.weekday())
        if rel not in ("이번주", "금주", "thisweek"):
            monday -= timedelta(weeks=1)
        return _DateExpr("period", s, e, monday, monday + timedelta(days=6), relative=True, text=text)
    if kind == "rel_day":
        rel = m.group("rel").lower()
        back = {"오늘": 0, "today": 0, "어제": 1, "yesterday": 1}.get(rel, 2)
        day = as_of - timedelta(days=back)
        return _DateExpr("period", s, e, day, day, relative=True, text=text)
    if kind == "ago":
        point = _shift(as_of, _count(m), m.group("unit"))
        return _DateExpr("point", s, e, point, point, relative=True, text=text)
    if kind == "age":
        point = _shift(as_of, _count(m), m.group("unit"))
        op = "<=" if m.group("age") in ("이상", "or more", "+") else "<"
        return _DateExpr("age", s, e, point, point, op=op, relative=True, text=text)
    if kind == "recent":
        name = "n" if m.group("unit") else "n2"
        unit = m.group("unit") or m.group("unit2")
        n = _count(m, name)
        u = unit.lower()
        if u.startswith(("일", "day")):
            first, days = as_of - timedelta(days=n - 1), n
        elif u.startswith(("주", "week")):
            first, days = as_of - timedelta(days=7 * n - 1), 7 * n
        else:
            first, days = _shift(as_of, n, unit) + timedelta(days=1), None
            if n == 1 and u.startswith(("개월", "달", "month")):
                days = METRIC_WINDOW_DAYS  # '최근 한 달' is the metric window
        return _DateExpr("recent", s, e, first, as_of, relative=True, text=text, window_days=days)
    return _DateExpr("vague", s, e, text=text, relative=True)


def read_dates(work: str, as_of: date) -> tuple[list[_DateExpr], list[str]]:
    """Date expressions in ``work`` with the relation words around them; also the dates that do not exist."""
    taken = [False] * len(work)
    found: list[_DateExpr] = []
    bad: list[str] = []
    for kind, pattern in _DATE_PATTERNS:
        for m in pattern.finditer(work):
            s, e = m.span()
            while e > s and work[e - 1].isspace():
                e -= 1
            if e <= s or any(taken[s:e]):
                continue
            try:
                expr = _resolve(kind, m, as_of)
            except (ValueError, OverflowError):
                bad.append(m.group(0).strip())
                continue
            expr.end = e
            for i in range(s, e):
                taken[i] = True
            found.append(expr)
    found.sort(key=lambda x: x.start)
    for i, expr in enumerate(found):
        nxt = found[i + 1] if i + 1 < len(found) else None
        if nxt is not None and expr.kind == "period" and nxt.kind == "period" and _RANGE_LINK.match(work[expr.end : nxt.start]):
            between = _BETWEEN.search(work[: expr.start])
            expr.op, nxt.op = ">=", "<="
            if between:
                expr.start = between.start()
            tail = _RANGE_TAIL.match(work[nxt.end :])
            if tail:
                nxt.end += tail.end()
            continue
        if expr.op is not None:
            continue
        suffix = _DATE_SUFFIX.match(work, expr.end)
        op = _op_of(suffix) if suffix else None
        if suffix is not None and op not in (None, "="):
            expr.end = suffix.end()
        prefix = _DATE_PREFIX.search(work[max(0, expr.start - 16) : expr.start])
        if (op in (None, "=")) and prefix is not None:
            op = _op_of(prefix)
            expr.start = max(0, expr.start - 16) + prefix.start()
        expr.op = op if op != "=" else None
    return found, bad


def _date_conditions(expr: _DateExpr, negated: bool, as_of: date) -> list[tuple[str, date]] | None:
    """The comparisons a date expression stands for on its column (None: not expressible as AND).

    A negated period ('올해 수정되지 않은') is expressible only when the period reaches the reference date:
    the column then has to fall before the period.
    """
    assert expr.first is not None and expr.last is not None
    first, last, op = expr.first, expr.last, expr.op
    if expr.kind == "age":
        return [(expr.op or "<", first)]
    if expr.kind == "recent":
        if negated:
            return [("<", first)]
        if op in (">=", ">"):
            return [(">=", first)]
        return [(">=", first), ("<=", last)]
    if negated:  # the column's last value must then fall before the period (or before the day)
        if op == ">=" or (op is None and last >= as_of):
            return [("<", first)]
        return [("<=", last)] if op == ">" else None
    if expr.kind == "point" and op is None:
        return [("<=", first)]
    if op == ">=":
        return [(">=", first)]
    if op == ">":
        return [(">", last)]
    if op == "<=":
        return [("<=", last)]
    if op == "<":
        return [("<", first)]
    return [("=", first)] if first == last else [(">=", first), ("<=", last)]


# --- the question, read --------------------------------------------------------------------------------------


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


def _ko(col: PageColumn) -> str:
    return f"{col.label}({col.name})"


def _particle(word: str, with_batchim: str, without: str) -> str:
    return josa(word, with_batchim, without)[len(word):].strip()


def _fmt(value: Decimal | date) -> str:
    if isinstance(value, date):
        return value.isoformat()
    if value == value.to_integral_value():
        return str(int(value))
    return format(value.normalize(), "f")


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
        dates, self.bad_dates = read_dates(_blank(text, urls), self.as_of)
        self.dates = [d for d in dates if not _overlaps((d.start, d.end), col_spans)]
        self.numbers = read_numbers(_blank(text, [*urls, *col_spans, *((d.start, d.end) for d in self.dates)]))
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
                                       f"{_options(self.vocab, c.related, self.evaluation)} 알려 주시면 조건으로 옮깁니다.")
        if any(m.form.lower() in _OR_WORDS and m.tag in ("MAJ", "MAG", "EC", "SL")
               and not _overlaps((m.start, m.end), self.consumed) for m in self.ms):
            return _say("clarify", "'또는'으로 이어진 조건은 모두 만족(AND)하는 페이지를 고르는 이 필터로 옮길 수 없어 "
                                   "실행하지 않았습니다. 조건을 나눠 따로 물어 주세요.")
        if self.bad_dates:
            return _say("clarify", f"'{self.bad_dates[0]}'은 없는 날짜라 조건으로 옮기지 않았습니다. "
                                   "날짜를 YYYY-MM-DD 로 알려 주세요.")
        return None

    def _number(self, n: _Number) -> None:
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
                self.problems.append(f"숫자 '{shown}'{_particle(shown, '이', '가')} 어느 컬럼의 기준인지 정하지 못해 "
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
                self.problems.append(f"'{phrase}'{_particle(phrase, '이', '가')} 어느 컬럼의 조건인지 지목되지 않아 실행하지 "
                                     f"않았습니다. {_options(self.vocab, (), self.evaluation)} 알려 주시면 조건으로 옮깁니다.")
            return
        col = self.vocab.columns[slot.column]
        pred = _pick(candidates, col)
        if pred is None:
            self.problems.append(f"'{phrase}'{_particle(phrase, '을', '를')} {_ko(col)}에 옮길 기준이 술어 사전에 없어 "
                                 f"실행하지 않았습니다. 기준 값을 직접 알려 주시면(예: '{col.label} {_example(col)}') "
                                 "조건으로 옮깁니다.")
            return
        op = _INVERT[pred.op] if _NEGATED.match(self.text[t.end:]) else pred.op
        slot.conditions.append(Condition(slot.column, op, pred.value, t.start, "predicate", pred.phrase, pred))

    def _date(self, d: _DateExpr) -> None:
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
            choice = "인지 ".join(_ko(c) + " 기준" for c in names[:3])
            self.problems.append(f"'{d.text}'{_particle(d.text, '이', '가')} {choice}인지 지목되지 않아 실행하지 "
                                 f"않았습니다. 지표 컬럼은 최근 {METRIC_WINDOW_DAYS}일 합계라 기간을 따로 걸 수 없습니다. "
                                 "날짜 컬럼을 알려 주시면 조건으로 옮깁니다.")
            return
        negated = bool(_DATE_NEGATION_AFTER.match(self.text[slot.end:])
                       or _DATE_NEGATION_BEFORE.search(self.text[: slot.start]))
        comparisons = _date_conditions(d, negated, self.as_of)
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
            self.problems.append(f"{_ko(col)}{_particle(col.label, '은', '는')} 지목됐지만 조건이 없어 실행하지 않았습니다. "
                                 f"'{col.label} {_example(col)}'처럼 기준을 알려 주시면 조건으로 옮깁니다.")
        if self.problems:
            return _say("clarify", self.problems[0])
        if not named:
            if self.evaluation is not None:
                ev = self.evaluation
                return _say("clarify", f"'{ev.label}'의 기준 컬럼이 지목되지 않아 실행하지 않았습니다. "
                                       f"{_options(self.vocab, ev.related, ev)} 알려 주시면 조건으로 옮깁니다.")
            listed = ", ".join(_ko(c) for c in self.vocab.columns.values())
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


def _example(col: PageColumn) -> str:
    return {"integer": "100 이상", "decimal": "0.5 이상", "date": "2026-01-01 이후"}.get(col.type, "100 이상")


def _options(vocab: PageVocabulary, related: Iterable[str], evaluation: Concept | None) -> str:
    cols = [vocab.columns[n] for n in related if n in vocab.columns]
    if len(cols) < 2:
        cols = [c for c in vocab.columns.values() if c.type == "integer"][:2]
    poor = evaluation is not None and evaluation.iri.endswith("poorResult")
    good = evaluation is not None and not poor
    parts = []
    for i, c in enumerate(cols):
        last = i == len(cols) - 1
        if poor:
            parts.append(f"{_ko(c)}{_particle(c.label, '이', '가')} {'없는' if last else '낮은'} 쪽인지")
        elif good:
            parts.append(f"{_ko(c)}{_particle(c.label, '이', '가')} {'많은' if last else '높은'} 쪽인지")
        else:
            parts.append(f"{_ko(c)} 기준인지")
    return " ".join(parts) + ("" if poor or good else ", 어떤 조건으로 볼지")


def _dedupe(conditions: list[Condition]) -> list[Condition]:
    seen: set[tuple[str, str, str]] = set()
    out = []
    for c in conditions:
        key = (c.column, c.op, _fmt(c.value))
        if key not in seen:
            seen.add(key)
            out.append(c)
    return out


# --- running it ----------------------------------------------------------------------------------------------


def filter_text(conditions: list[Condition]) -> str:
    """``impressions_30d >= 1000 AND clicks_30d = 0``."""
    return " AND ".join(f"{c.column} {c.op} {_fmt(c.value)}" for c in conditions)


def _typed(col: PageColumn, value: Decimal | date) -> tuple[str, str]:
    if isinstance(value, date):
        return value.isoformat(), "date"
    if col.type == "integer" and value == value.to_integral_value():
        return str(int(value)), "integer"
    return format(value, "f"), "decimal"


def _evidence_value(col: PageColumn, raw: object) -> str:
    text = str(raw)
    if col.type in NUMERIC:
        try:
            return _fmt(Decimal(text))
        except InvalidOperation:
            return text
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
        return PageFilterResult(question=question, status=pq.status, parsed_filter=None, columns_used=[],  # type: ignore[arg-type]
                                matched=[], count=None, hedge=pq.hedge)
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
    return PageFilterResult.model_validate({
        "question": question, "status": "ran", "parsed_filter": filter_text(pq.conditions),
        "columns_used": pq.columns, "matched": [{"url": u, "evidence": e} for u, e in sorted(matched.items())],
        "count": len(matched), "hedge": hedge,
    })


def _ran_hedge(ctx: Context, vocab: PageVocabulary, pq: PageQuery, count: int, *, truncated: bool) -> str:
    said: list[str] = []
    phrases: list[str] = []
    seen: set[str] = set()
    for c in pq.conditions:
        p = c.predicate
        if c.source != "predicate" or p is None or p.op in ("=", "!=") or c.phrase in seen:
            continue
        seen.add(c.phrase or "")
        unit = " 회" if vocab.columns[c.column].type == "integer" else ""
        bound = {">=": "", ">": " 초과", "<": " 미만", "<=": " 이하"}[p.op]
        where = "데이터셋 술어 사전(predicates.csv)의" if p.from_dataset else "술어 사전의"
        text = c.phrase or p.phrase
        phrases.append(f"'{text}'{_particle(text, '을', '를')} {where} {_fmt(p.value)}{unit}{bound} 기준으로")
    if phrases:
        said.append(", ".join(phrases) + " 옮겼습니다.")
    dated: dict[str, list[Condition]] = {}
    for c in pq.conditions:
        if c.source == "date" and c.phrase:
            dated.setdefault(c.phrase, []).append(c)
    for phrase, conds in dated.items():
        base = f"기준일 {ctx.as_of.isoformat()}" if ctx.as_of else f"기준일은 meta.json 이 없어 오늘({date.today().isoformat()})"
        said.append(f"'{phrase}'{_particle(phrase, '을', '를')} {filter_text(conds)} 조건으로 옮겼습니다({base}).")
    if said:
        said.append("기준을 바꾸려면 조건을 직접 지정해 다시 실행하시면 됩니다.")
    else:
        said.append("질문에 적힌 조건을 그대로 실행했습니다.")
    said.extend(pq.notes)
    if count == 0:
        said.append("조건에 맞는 페이지가 없습니다.")
    if truncated:
        said.append(f"결과가 {ctx.limits.max_result_rows}행에서 잘렸습니다.")
    if ctx.as_of is not None:
        said.append(f"{ctx.as_of.isoformat()} 기준 인벤토리입니다.")
    return " ".join(said)
