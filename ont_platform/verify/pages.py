"""Checks of page-filter results (seed 004): the filter is made only of dictionary columns, operators and
thresholds; the matched URL set is exactly what the filter selects; evidence shows the inventory's values;
clarify and unsupported carry nothing.

The filter is re-run here in plain Python over the inventory read from the graph (Decimal, date and boolean
comparisons, case-blind containment for text; a page with an empty cell never matches a condition on that
column), not through the SPARQL the answerer builds. A text value is written in single quotes with ``\'`` and
``\\`` escaped (``title contains 'it\'s'``), in the filter and in the evidence alike, so a comma or an
``AND`` inside it is never read as the start of another condition.
"""

from __future__ import annotations

import re
import unicodedata
from datetime import date
from decimal import Decimal, InvalidOperation
from typing import Any

from ont_platform.qa.text import EN_NUMBER_WORDS
from ont_platform.verify.case import Case
from ont_platform.verify.graph import PageColumnFact, Snapshot

OPERATORS = ("<=", ">=", "!=", "=", "<", ">")
TEXT_OPERATORS = ("contains", "not_contains")
_QUOTED = r"'(?:[^'\\]|\\.)*'"
_CONDITION = re.compile(
    r"\s*([A-Za-z_][A-Za-z0-9_]*)\s*(not_contains\b|contains\b|<=|>=|!=|=|<|>)\s*(" + _QUOTED + r"|\S+)\s*(?:AND\s+|$)"
)
_EVIDENCE = re.compile(r"\s*([A-Za-z_][A-Za-z0-9_]*)\s*=\s*(" + _QUOTED + r"|[^,]*?)\s*(?:,|$)")

Value = Decimal | date | bool | str


def check(case: Case) -> None:
    """Every page check, in order."""
    a = case.answer
    if a["status"] != "ran":
        empty(case)
        return
    conditions = filter_conditions(case)
    urls(case, conditions)
    evidence(case)


def empty(case: Case) -> None:
    """clarify / unsupported: no filter, no columns, no rows, a null count."""
    a = case.answer
    status = a["status"]
    if a.get("matched"):
        case.fail("empty", f"{status} carries {len(a['matched'])} matched row(s); it must carry none")
    if a.get("count") is not None:
        case.fail("empty", f"{status} must have a null count, got {a['count']!r}")
    if a.get("parsed_filter") is not None:
        case.fail("empty", f"{status} must have a null parsed_filter, got {a['parsed_filter']!r}")
    if a.get("columns_used"):
        case.fail("empty", f"{status} must use no columns, got {a['columns_used']}")


def unquote(raw: str) -> str | None:
    """The text of a quoted value (``'it\\'s'`` → ``it's``), or None when it is not quoted."""
    if len(raw) < 2 or raw[0] != "'" or raw[-1] != "'":
        return None
    return re.sub(r"\\(.)", r"\1", raw[1:-1])


def typed(col: PageColumnFact, raw: str, *, cell: bool = False) -> Value | None:
    """A cell (``cell=True``: as stored) or a threshold as a comparable value of the column's type (None when it
    is not one). A text threshold is quoted; a text cell is the stored string."""
    if col.type == "text":
        return raw if cell else unquote(raw.strip())
    text = raw.strip().strip("'\"")
    if col.type == "boolean":
        return {"true": True, "false": False}.get(text.lower())
    try:
        if col.type == "date":
            return date.fromisoformat(text)
        value = Decimal(text)
        return value if value.is_finite() else None
    except (ValueError, InvalidOperation):
        return None


def holds(cell: Value, op: str, value: Value) -> bool:
    if op in TEXT_OPERATORS:
        inside = str(value).lower() in str(cell).lower()
        return inside if op == "contains" else not inside
    # cell and value are of one column's type, a pairing the Value union cannot express: compared as Any
    left: Any = cell
    return bool(
        {
            "=": left == value,
            "!=": left != value,
            "<": left < value,
            "<=": left <= value,
            ">": left > value,
            ">=": left >= value,
        }[op]
    )


def filter_conditions(case: Case) -> list[tuple[PageColumnFact, str, Value]] | None:
    """Read ``parsed_filter`` (``col op value AND ...``); every column must be in the dictionary, every
    operator one of ``= != < <= > >=``, every value of the column's type, every numeric threshold written in
    the question or taken from the predicate dictionary, and ``columns_used`` must be the filter's columns.
    Returns the conditions, or None when the filter cannot be run."""
    a, snap = case.answer, case.snap
    text = a.get("parsed_filter")
    if not isinstance(text, str) or not text.strip():
        case.fail("filter", "status ran without a parsed_filter")
        return None
    out: list[tuple[PageColumnFact, str, Value]] = []
    usable = True
    for name, op, raw in _conditions(case, text):
        if not name:
            usable = False
            continue
        col = snap.columns.get(name)
        if col is None:
            case.fail("filter", f"column {name!r} is not in the column dictionary ({', '.join(sorted(snap.columns))})")
            usable = False
            continue
        value = typed(col, raw)
        if value is None:
            case.fail("filter", f"value {raw!r} is not a {col.type} for column {name}")
            usable = False
            continue
        allowed_ops = TEXT_OPERATORS if col.type == "text" else ("=", "!=") if col.type == "boolean" else OPERATORS
        if op not in allowed_ops:
            case.fail("filter", f"operator {op} does not apply to {name}, a {col.type} column")
            usable = False
            continue
        out.append((col, op, value))
    used = [str(c) for c in a.get("columns_used") or []]
    for name in used:
        if name not in snap.columns:
            case.fail("filter", f"columns_used names {name!r}, which is not in the column dictionary")
    in_filter = {c.name for c, _, _ in out}
    if usable and set(used) != in_filter:
        case.fail("filter", f"columns_used {sorted(set(used))} differs from the filter's columns {sorted(in_filter)}")
    question = case.question or ""
    allowed = question_numbers(question) | dictionary_values(snap)
    for col, op, value in out:
        if isinstance(value, Decimal) and not isinstance(value, bool) and value not in allowed:
            case.fail(
                "filter",
                f"threshold {col.name} {op} {value} is neither written in the question nor in the predicate dictionary",
            )
    return out if usable else None


def _conditions(case: Case, text: str) -> list[tuple[str, str, str]]:
    """``col op value AND …`` split into its conditions (a quoted value may hold ' AND '); a part that cannot
    be read is reported and comes back with an empty name."""
    out: list[tuple[str, str, str]] = []
    pos, text = 0, text.strip()
    while pos < len(text):
        m = _CONDITION.match(text, pos)
        if m is None or m.end() == pos:
            rest = text[pos:]
            case.fail("filter", f"cannot read the condition {rest!r} (expected: column op value)")
            return [*out, ("", "", rest)]
        out.append((m.group(1), m.group(2).strip(), m.group(3)))
        pos = m.end()
    return out


def run_filter(snap: Snapshot, conditions: list[tuple[PageColumnFact, str, Value]]) -> set[str]:
    """URLs of the pages that pass every condition (empty cells never pass)."""
    out = set()
    for url, cells in snap.pages.items():
        ok = True
        for col, op, value in conditions:
            raw = cells.get(col.name)
            cell = typed(col, raw, cell=True) if raw is not None else None
            if cell is None or not holds(cell, op, value):
                ok = False
                break
        if ok:
            out.add(url)
    return out


def urls(case: Case, conditions: list[tuple[PageColumnFact, str, Value]] | None) -> None:
    """Matched URLs exist, are listed once, equal the filter's result (and the gold set), and count them."""
    a, snap = case.answer, case.snap
    listed = [str(m.get("url")) for m in a.get("matched") or [] if isinstance(m, dict)]
    for url in listed:
        if url not in snap.pages:
            case.fail("citations", f"matched URL {url} is not in the inventory")
    dupes = sorted({u for u in listed if listed.count(u) > 1})
    if dupes:
        case.fail("urls", f"URLs listed more than once: {dupes}")
    got = set(listed)
    if a.get("count") != len(got):
        case.fail("urls", f"count is {a.get('count')!r} but {len(got)} distinct URL(s) are matched")
    if conditions is not None:
        want = run_filter(snap, conditions)
        if got != want:
            case.fail(
                "urls",
                f"matched URLs differ from running the filter: missing {sorted(want - got) or 'none'}, "
                f"extra {sorted(got - want) or 'none'}",
            )
    gold = gold_urls(case.gold)
    if gold is not None and got != gold:
        case.fail(
            "urls",
            f"matched URLs differ from the gold set: missing {sorted(gold - got) or 'none'}, "
            f"extra {sorted(got - gold) or 'none'}",
        )


def gold_urls(gold: dict[str, Any] | None) -> set[str] | None:
    """The gold URL set: ``expected_urls``, or the URLs of ``matched``; None when the gold gives neither."""
    if not isinstance(gold, dict):
        return None
    if isinstance(gold.get("expected_urls"), list):
        return {str(u) for u in gold["expected_urls"]}
    if isinstance(gold.get("matched"), list):
        return {str(m.get("url")) if isinstance(m, dict) else str(m) for m in gold["matched"]}
    return None


def evidence(case: Case) -> None:
    """Each row's evidence shows every column used, with the inventory's value."""
    a, snap = case.answer, case.snap
    used = [str(c) for c in a.get("columns_used") or []]
    for m in a.get("matched") or []:
        if not isinstance(m, dict):
            continue
        url = str(m.get("url"))
        cells = snap.pages.get(url)
        if cells is None:
            continue
        shown = {em.group(1): em.group(2) for em in _EVIDENCE.finditer(str(m.get("evidence", "")))}
        for name in used:
            col = snap.columns.get(name)
            if col is None:
                continue
            if name not in shown:
                case.fail("evidence", f"{url}: evidence does not show {name}")
                continue
            stored = cells.get(name)
            want = typed(col, stored, cell=True) if stored is not None else None
            got = typed(col, shown[name])
            if want is None or got != want:
                case.fail(
                    "evidence",
                    f"{url}: evidence says {name}={shown[name]}, the inventory has "
                    f"{stored if stored is not None else 'no value'}",
                )


# -- where thresholds may come from ----------------------------------------------------------------------------

_KO_MUL = {"십": 10, "백": 100, "천": 1000, "만": 10_000, "억": 100_000_000}
_EN_MUL = {"k": 1000, "thousand": 1000, "hundred": 100, "million": 1_000_000}
_DIGITS = re.compile(
    r"(\d[\d,]*(?:\.\d+)?|\.\d+)\s*([십백천만억]{0,3})\s*(k(?![a-z])|thousand|hundred|million)?", re.IGNORECASE
)
_KO_WORD = re.compile(r"(?<![가-힣])(십만|백만|천만|십|백|천|만|억)(?=\s|$|[회번건개명이미초넘보,.])")
_EN_WORD = {"zero": 0, **EN_NUMBER_WORDS, "hundred": 100, "thousand": 1000, "million": 1_000_000}


def question_numbers(question: str) -> set[Decimal]:
    """Every number the question could be read to state (digits with Korean or English multipliers, number
    words), each also as a percentage (``2%`` → 0.02). Generous on purpose: it only has to rule out thresholds
    nobody wrote."""
    text = unicodedata.normalize("NFKC", question)
    found: set[Decimal] = set()
    for m in _DIGITS.finditer(text):
        try:
            v = Decimal(m.group(1).replace(",", ""))
        except InvalidOperation:
            continue
        for ch in m.group(2) or "":
            v *= _KO_MUL[ch]
        if m.group(3):
            v *= _EN_MUL[m.group(3).lower()]
        found.add(v)
        found.add(Decimal(m.group(1).replace(",", "")))
    for m in _KO_WORD.finditer(text):
        v = Decimal(1)
        for ch in m.group(1):
            v *= _KO_MUL[ch]
        found.add(v)
    for word in re.findall(r"[a-z]+", text.lower()):
        if word in _EN_WORD:
            found.add(Decimal(_EN_WORD[word]))
    return found | {v / 100 for v in found}


def dictionary_values(snap: Snapshot) -> set[Decimal]:
    return {p.value for p in snap.predicates}
