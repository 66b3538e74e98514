"""Dates in a question, resolved against the inventory's reference date (``as_of``).

Explicit dates ('2025-03-01', '2024년 3월', 'in 2023'), relative ones ('작년 말', '지난달', '최근 30일', '3개월
전'), ages ('1년 이상 지난') and the relation words around them ('이후', '까지', 'before') become a period, a
point or a recent span; ``date_conditions`` turns that into comparisons on a date column. Relative dates count
from ``as_of`` (the dataset's ``meta.json``; today only when it has none), so an inventory with a reference date
answers the same way whichever day it is asked. A date that does not exist ('2월 30일') is reported, not
guessed.
"""

from __future__ import annotations

import calendar
import re
from dataclasses import dataclass
from datetime import date, timedelta

from ont_platform.qa.pages.numbers import BETWEEN, RANGE_LINK, RANGE_TAIL, op_of
from ont_platform.qa.pages.vocabulary import METRIC_WINDOW_DAYS

_N_WORD = {"한": 1, "두": 2, "세": 3, "네": 4, "일": 1, "a": 1, "one": 1}
_UNIT = r"(?P<unit>일|주일|주|개월|달|년|days?|weeks?|months?|years?)"
_NUM = r"(?P<n>\d{1,4}|한|두|세|네|일(?=주일)|a|one)"
_YEAR_MOD = r"(?:\s*(?:의\s*)?(?P<mod>초반|초순|초|중반|말경|말|후반|상반기|하반기|[1-4]\s*분기|연초|연말|q[1-4]))?"
_MONTH_MOD = r"(?:\s*(?P<mod>초순|초|중순|말경|말|하순))?"
_MONTHS_EN = (
    "january",
    "february",
    "march",
    "april",
    "may",
    "june",
    "july",
    "august",
    "september",
    "october",
    "november",
    "december",
)
_MON = r"(?P<mon>jan(?:uary)?|feb(?:ruary)?|mar(?:ch)?|apr(?:il)?|may|june?|july?|aug(?:ust)?|sep(?:t(?:ember)?)?|oct(?:ober)?|nov(?:ember)?|dec(?:ember)?)\.?"
_YEAR_EN = r"(?P<y>(?:19|20)\d{2})(?![\d%]|[,.]\d)"
_DAY_EN = r"(?P<d>[0-3]?\d)(?:st|nd|rd|th)?"
_DATE_PATTERNS: list[tuple[str, re.Pattern[str]]] = [
    ("mdy_en", re.compile(r"(?<![a-z])" + _MON + r"\s+" + _DAY_EN + r",?\s+" + _YEAR_EN, re.IGNORECASE)),
    ("dmy_en", re.compile(r"(?<![\d.])" + _DAY_EN + r"\s+(?:of\s+)?" + _MON + r",?\s+" + _YEAR_EN, re.IGNORECASE)),
    ("my_en", re.compile(r"(?<![a-z])" + _MON + r",?\s+(?:of\s+)?" + _YEAR_EN, re.IGNORECASE)),
    (
        "part_en",
        re.compile(
            r"(?<![a-z])(?:(?P<q>q[1-4])|(?P<h>h[12])|(?P<ord>first|second|third|fourth|last|1st|2nd|3rd|4th)\s+"
            r"(?P<what>quarter|half))\s*(?:of\s+)?" + _YEAR_EN,
            re.IGNORECASE,
        ),
    ),
    (
        "ymd",
        re.compile(
            r"(?<![\d.])(?P<y>(?:19|20)\d{2})\s*(?:[-./]\s*(?P<m>\d{1,2})\s*[-./]\s*(?P<d>\d{1,2})(?![\d])\.?"
            r"|년\s*(?P<m2>\d{1,2})\s*월\s*(?P<d2>\d{1,2})\s*일)"
        ),
    ),
    (
        "ym",
        re.compile(
            r"(?<![\d.])(?P<y>(?:19|20)\d{2})\s*(?:[-./](?P<m>\d{1,2})(?![\d.\-/])|년\s*(?P<m2>\d{1,2})\s*월)"
            + _MONTH_MOD
        ),
    ),
    ("y", re.compile(r"(?<![\d.])(?P<y>(?:19|20)\d{2})\s*년(?:도)?" + _YEAR_MOD, re.IGNORECASE)),
    (
        "y_en",
        re.compile(
            r"(?<![a-z])(?P<prep>in|after|since|before|until|during|from|by)\s+(?P<y>(?:19|20)\d{2})(?![\d%]|[,.]\d)",
            re.IGNORECASE,
        ),
    ),
    ("md", re.compile(r"(?<![\d.\-/])(?P<m>1[0-2]|0?[1-9])\s*월(?:\s*(?P<d>\d{1,2})\s*일)?" + _MONTH_MOD)),
    (
        "rel_year",
        re.compile(
            r"(?P<rel>올해|금년|이번\s*해|작년|지난\s*해|전년|재작년|this\s+year|last\s+year)"
            + _YEAR_MOD
            + r"|(?P<en_mod>early|late|end\s+of|start\s+of|beginning\s+of)\s+(?P<rel2>this|last)\s+year",
            re.IGNORECASE,
        ),
    ),
    (
        "rel_month",
        re.compile(
            r"(?P<rel>이번\s*달|이달|지난\s*달|저번\s*달|전월|this\s+month|last\s+month)" + _MONTH_MOD, re.IGNORECASE
        ),
    ),
    ("rel_week", re.compile(r"(?P<rel>이번\s*주|금주|지난\s*주|저번\s*주|this\s+week|last\s+week)", re.IGNORECASE)),
    ("rel_day", re.compile(r"(?P<rel>오늘|어제|그제|그저께|today|yesterday)", re.IGNORECASE)),
    (
        "age_en",
        re.compile(
            r"(?:(?:in|for)\s+)?(?P<age>over|more\s+than|at\s+least)\s+"
            + _NUM
            + r"\s*"
            + _UNIT
            + r"(?:\s+ago)?(?![a-z])",
            re.IGNORECASE,
        ),
    ),
    ("ago", re.compile(_NUM + r"\s*" + _UNIT + r"\s*(?:전|ago)", re.IGNORECASE)),
    (
        "age",
        re.compile(
            _NUM
            + r"\s*"
            + _UNIT
            + r"\s*(?:(?:이|가)\s*)?(?P<age>이상|넘게|넘은|넘는|넘도록|넘었|초과|지난|or\s+more|\+)",
            re.IGNORECASE,
        ),
    ),
    (
        "recent",
        re.compile(
            r"(?:(?:in\s+)?(?:the\s+)?(?P<pre>최근|지난|과거|last|past))\s*"
            + _NUM
            + r"?\s*"
            + _UNIT
            + r"(?:\s*(?:간|동안|사이|이내|내))?"
            r"|"
            + _NUM.replace("?P<n>", "?P<n2>")
            + r"\s*"
            + _UNIT.replace("?P<unit>", "?P<unit2>")
            + r"\s*(?P<within>이내|내에|내|안에|간|동안|기준)",
            re.IGNORECASE,
        ),
    ),
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
DATE_NEGATION_AFTER = re.compile(
    r"^\s*(?:되지|하지|시키지|된\s*적(?:이|은)?|한\s*적(?:이|은)?)?\s*(?:않|안\s|안되|없|못)", re.IGNORECASE
)
DATE_NEGATION_BEFORE = re.compile(r"(?:not|n't|never)\s*(?:been\s*)?$", re.IGNORECASE)


@dataclass
class DateExpr:
    kind: str  # period | point | recent | age | vague
    start: int
    end: int
    first: date | None = None
    last: date | None = None
    op: str | None = None  # relation from the words around it
    relative: bool = False
    text: str = ""
    window_days: int | None = None  # for recent: the period's length in days when given in days
    bound_unclear: bool = False
    """'2024년 이전' of a period longer than a day: whether the period itself is in is read both ways (everyday
    speech mostly leaves 2024 out, the legal reading keeps it), so the reader asks back. '이후' is read as
    including it, as both readings of '2025년 이후' mostly do; a single day ('3월 1일 이전') stays inclusive."""


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


def _month_en(name: str) -> int:
    """'Sept', 'September', 'sep' → 9."""
    key = name.lower().rstrip(".")[:3]
    return next(i for i, full in enumerate(_MONTHS_EN, 1) if full.startswith(key))


def _count(m: re.Match[str], name: str = "n") -> int:
    raw = (m.group(name) or "").lower()
    return int(raw) if raw.isdigit() else _N_WORD.get(raw, 1)


def _resolve(kind: str, m: re.Match[str], as_of: date) -> DateExpr:
    """One matched date expression as a period, point or recent span (raises ValueError on a bad date)."""
    s, e = m.span()
    text = m.group(0).strip()
    if kind == "ymd":
        y, mo, d = int(m.group("y")), int(m.group("m") or m.group("m2")), int(m.group("d") or m.group("d2"))
        day = date(y, mo, d)
        return DateExpr("period", s, e, day, day, text=text)
    if kind == "ym":
        y, mo = int(m.group("y")), int(m.group("m") or m.group("m2"))
        first, last = _month_part(y, mo, m.group("mod"))
        return DateExpr("period", s, e, first, last, text=text)
    if kind in ("mdy_en", "dmy_en", "my_en"):
        y, mo = int(m.group("y")), _month_en(m.group("mon"))
        if kind == "my_en":
            return DateExpr("period", s, e, date(y, mo, 1), _month_end(y, mo), text=text)
        day = date(y, mo, int(m.group("d")))
        return DateExpr("period", s, e, day, day, text=text)
    if kind == "part_en":
        y = int(m.group("y"))
        if m.group("q"):
            k, months = int(m.group("q")[1]), 3
        elif m.group("h"):
            k, months = int(m.group("h")[1]), 6
        else:
            months = 3 if m.group("what").lower() == "quarter" else 6
            order = m.group("ord").lower()
            k = (
                (12 // months)
                if order == "last"
                else {"first": 1, "1st": 1, "second": 2, "2nd": 2, "third": 3, "3rd": 3, "fourth": 4, "4th": 4}[order]
            )
            if k > 12 // months:
                raise ValueError(f"no {order} {m.group('what')}")
        return DateExpr("period", s, e, date(y, months * (k - 1) + 1, 1), _month_end(y, months * k), text=text)
    if kind in ("y", "y_en"):
        first, last = _modified(int(m.group("y")), m.groupdict().get("mod"))
        prep = (m.groupdict().get("prep") or "").lower()
        op = {"after": ">", "since": ">=", "from": ">=", "before": "<", "until": "<=", "by": "<="}.get(prep)
        return DateExpr("period", s, e, first, last, op=op, text=text)
    if kind == "md":
        mo = int(m.group("m"))
        y = as_of.year if mo <= as_of.month else as_of.year - 1
        if m.group("d"):
            day = date(y, mo, int(m.group("d")))
            return DateExpr("period", s, e, day, day, relative=True, text=text)
        first, last = _month_part(y, mo, m.group("mod"))
        return DateExpr("period", s, e, first, last, relative=True, text=text)
    if kind == "rel_year":
        rel = re.sub(r"\s+", "", (m.group("rel") or m.group("rel2") or "")).lower()
        back = 2 if rel == "재작년" else 0 if rel in ("올해", "금년", "이번해", "thisyear", "this") else 1
        first, last = _modified(as_of.year - back, m.group("mod") or m.group("en_mod"))
        return DateExpr("period", s, e, first, last, relative=True, text=text)
    if kind == "rel_month":
        rel = re.sub(r"\s+", "", m.group("rel")).lower()
        y, mo = as_of.year, as_of.month
        if rel not in ("이번달", "이달", "thismonth"):
            y, mo = (y, mo - 1) if mo > 1 else (y - 1, 12)
        first, last = _month_part(y, mo, m.group("mod"))
        return DateExpr("period", s, e, first, last, relative=True, text=text)
    if kind == "rel_week":
        rel = re.sub(r"\s+", "", m.group("rel")).lower()
        monday = as_of - timedelta(days=as_of.weekday())
        if rel not in ("이번주", "금주", "thisweek"):
            monday -= timedelta(weeks=1)
        return DateExpr("period", s, e, monday, monday + timedelta(days=6), relative=True, text=text)
    if kind == "rel_day":
        rel = m.group("rel").lower()
        back = {"오늘": 0, "today": 0, "어제": 1, "yesterday": 1}.get(rel, 2)
        day = as_of - timedelta(days=back)
        return DateExpr("period", s, e, day, day, relative=True, text=text)
    if kind == "ago":
        point = _shift(as_of, _count(m), m.group("unit"))
        return DateExpr("point", s, e, point, point, relative=True, text=text)
    if kind in ("age", "age_en"):  # '1년 넘게', 'in over a year': older than the period
        point = _shift(as_of, _count(m), m.group("unit"))
        op = "<=" if re.sub(r"\s+", " ", m.group("age").lower()) in ("이상", "or more", "+", "at least") else "<"
        return DateExpr("age", s, e, point, point, op=op, relative=True, text=text)
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
        return DateExpr("recent", s, e, first, as_of, relative=True, text=text, window_days=days)
    return DateExpr("vague", s, e, text=text, relative=True)


_LOOKING_BACK = re.compile(r"\s*(?:in\s+)?(?:the\s+)?(?:최근|지난|과거|last|past)", re.IGNORECASE)


def _spans_of_periods(work: str, found: list[DateExpr]) -> list[DateExpr]:
    """A length said right after a named period is that period's length, not a second window: "2026년 9월 한
    달 동안" is September, where '한 달 동안' alone (no 최근/지난) would be the month up to the reference day,
    and the two together matched no page. The length's words join the period's span; its own words for the
    relation (동안, during) then read as the period's."""
    out: list[DateExpr] = []
    for expr in found:
        prev = out[-1] if out else None
        if (
            prev is not None
            and expr.kind == "recent"
            and prev.kind == "period"
            and not prev.relative
            and not work[prev.end : expr.start].strip()
            and not _LOOKING_BACK.match(expr.text)
        ):
            prev.end = expr.end
            continue
        out.append(expr)
    return out


def read_dates(work: str, as_of: date) -> tuple[list[DateExpr], list[str]]:
    """Date expressions in ``work`` with the relation words around them; also the dates that do not exist."""
    taken = [False] * len(work)
    found: list[DateExpr] = []
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
    found = _spans_of_periods(work, found)
    for i, expr in enumerate(found):
        nxt = found[i + 1] if i + 1 < len(found) else None
        if (
            nxt is not None
            and expr.kind == "period"
            and nxt.kind == "period"
            and RANGE_LINK.match(work[expr.end : nxt.start])
        ):
            between = BETWEEN.search(work[: expr.start])
            expr.op, nxt.op = ">=", "<="
            if between:
                expr.start = between.start()
            tail = RANGE_TAIL.match(work[nxt.end :])
            if tail:
                nxt.end += tail.end()
            continue
        if expr.op is not None:
            continue
        suffix = _DATE_SUFFIX.match(work, expr.end)
        op = op_of(suffix) if suffix else None
        if suffix is not None and op not in (None, "="):
            expr.end = suffix.end()
            word = (suffix.group("le") or "").strip()
            expr.bound_unclear = word == "이전" and expr.kind == "period" and expr.first != expr.last
        prefix = _DATE_PREFIX.search(work[max(0, expr.start - 16) : expr.start])
        if (op in (None, "=")) and prefix is not None:
            op = op_of(prefix)
            expr.start = max(0, expr.start - 16) + prefix.start()
        expr.op = op if op != "=" else None
    return found, bad


def date_conditions(expr: DateExpr, negated: bool, as_of: date) -> list[tuple[str, date]] | None:
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
