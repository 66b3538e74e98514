"""Numbers in a question and the comparison each one stands for.

Korean puts the comparison after the value ('1000 이상', '5회 미만', '천 번 넘게'), English before it ('at least
1000', 'more than 5'); both are read by pattern, with Korean numerals and multipliers ('3만', '천'), English
multipliers ('5k'), percentages (read as fractions: '5%' is 0.05), counting units, ranges ('1000~5000',
'between 1000 and 2000') and a following negation ('넘지 않는' turns '>' into '<='). The text given here has
dates and column names blanked, so their digits are never read as values.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from decimal import Decimal

INVERT = {">=": "<", ">": "<=", "<": ">=", "<=": ">", "=": "!=", "!=": "="}
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
_CALL = re.compile(r"[A-Za-z_][A-Za-z0-9_]*\(\s*$")
_SIGNED = re.compile(r"(?:^|[^\d\s])\s*[-−]\s*$")
"""A minus sign before a number that is not the dash of a range (10-20)."""
_IDENT = r"(?<![A-Za-z0-9_$])[A-Za-z_$][A-Za-z0-9_$]*"
_CODE = re.compile(
    # a call or subscript glued to a name, after any attribute chain: alert(1), x[3], console.log(0), a.b[2](3),
    # and an assignment to it: x[3] = 7
    _IDENT + r"(?:\.[A-Za-z_$][A-Za-z0-9_$]*)*(?:\[[^\[\]\n]{0,200}\]|\([^()\n]{0,200}\))+"
    r"(?:\s*[-+*/%|&^]?=(?!=)\s*[^\s;,]*;?)?"
    # an assignment statement closed by a semicolon, with an optional declaration word: x = 7;  let y = 2;
    r"|(?P<decl>\b(?:var|let|const|int|float|double|auto)\s+)?(?P<name>"
    + _IDENT
    + r"(?:\.[A-Za-z_$][A-Za-z0-9_$]*)*)\s*[-+*/%|&^]?=(?!=)\s*[^\s;]{1,200}\s*;",
)


def code_spans(text: str, names: list[tuple[int, int]] | None = None) -> list[tuple[int, int]]:
    """Spans of pasted program code in ``text`` (calls, subscripts, assignments): the digits in them are array
    indexes, arguments and assigned values, never thresholds the person asked for.

    ``names`` are the spans of column names: ``clicks_30d = 0;`` assigns to a column, which is how some people
    write a condition, so a plain assignment to a column name is not code (``clicks[0] = 9`` and a declaration
    such as ``let ctr = 0;`` still are).
    """
    out = []
    for m in _CODE.finditer(text):
        plain = m.group("name") is not None and m.group("decl") is None
        if plain and any(s < m.end("name") and m.start("name") < e for s, e in names or ()):
            continue
        out.append(m.span())
    return out


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
NEGATED = re.compile(r"^\s*(?:하|되)?(?:지|지는|지도)\s*(?:않|못)|^\s*(?:않|못)")
RANGE_LINK = re.compile(r"^\s*(?:~|∼|〜|–|-|에서|부터|to|and|through)\s*$", re.IGNORECASE)
RANGE_TAIL = re.compile(r"^\s*(?:사이|까지|이내)(?:의|에|인|로)?", re.IGNORECASE)
BETWEEN = re.compile(r"(?<![a-z])between\s*$", re.IGNORECASE)


@dataclass
class Number:
    start: int  # span of the whole comparison (prefix, value, unit, comparison word)
    end: int
    value: Decimal
    percent: bool
    op: str
    unit: str
    text: str
    rank: bool = False  # a rank expression ('10위 이내'), for a rank-like column only (``ranks``)
    named: bool = False  # a rank expression whose words name a rank by themselves ('10위', 'ranked')
    column: str | None = None  # the rank column named inside the expression ('position 10th or worse')
    opens_range: bool = False  # the lower end of 'between 100 and 500', whose column may come after the upper end


def op_of(m: re.Match[str] | None) -> str | None:
    if m is None:
        return None
    groups = m.groupdict()  # patterns name only the comparisons they can read (the date prefixes have no "ne")
    for name, op in (("ge", ">="), ("le", "<="), ("gt", ">"), ("lt", "<"), ("ne", "!="), ("eq", "=")):
        if groups.get(name):
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


def read_numbers(work: str) -> list[Number]:
    """Numbers with their comparison, in order; ``work`` is the text with dates and column names blanked."""
    found = []
    for m in _VALUE.finditer(work):
        start, end = m.span()
        while end > start and work[end - 1].isspace():
            end -= 1
        if _CALL.search(work[:start]):
            continue  # an argument in pasted code or markup (alert(1)) is not a value the person asked for
        if _SIGNED.search(work[:start]):
            continue  # "-5": a negative count is no value of an inventory column; left unread, it is asked back
        found.append((m, start, end))
    out: list[Number] = []
    upper_next = False
    for i, (m, start, end) in enumerate(found):
        value, pct, unit = _value(m), bool(m.group("pct")), (m.group("unit") or "").strip()
        nxt = found[i + 1] if i + 1 < len(found) else None
        if (
            nxt is not None
            and RANGE_LINK.match(work[end : nxt[1]])
            and ("and" not in work[end : nxt[1]].lower() or BETWEEN.search(work[:start]))
        ):
            b = BETWEEN.search(work[:start])
            out.append(
                Number(b.start() if b else start, end, value, pct, ">=", unit, work[start:end], opens_range=True)
            )
            upper_next = True
            continue
        if upper_next:  # the upper end of a range
            tail = RANGE_TAIL.match(work[end:])
            stop = end + (tail.end() if tail else 0)
            out.append(Number(start, stop, value, pct, "<=", unit, work[start:end]))
            upper_next = False
            continue
        suffix = _SUFFIX.match(work, end)
        op, stop = op_of(suffix), suffix.end() if suffix else end
        begin = start
        prefix = _PREFIX.search(work[max(0, start - 40) : start])
        if prefix is not None and op_of(prefix) is not None:
            begin = max(0, start - 40) + prefix.start()
            if op is None or op == "=":
                op = op_of(prefix)
        op = op or "="
        neg = NEGATED.match(work[stop:])
        if neg and op != "!=":
            op, stop = INVERT[op], stop + neg.end()
        out.append(Number(begin, stop, value, pct, op, unit, work[start:end]))
    return out
