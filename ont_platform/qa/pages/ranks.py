"""Rank expressions: '10위 이내', '상위 5위', '10위 밖으로 밀린', 'within the top 10', 'outside the top 20'.

On a rank-like column (``pg:rankLike``: an average search position, where 1 is the top) a higher rank is a
*smaller* number, so the words turn around: '10위 이내/안/까지', '상위 10', 'within the top 10' are ``<= 10``;
'10위 밖/뒤/아래/이하로 밀린', 'outside the top 10' are ``> 10``; '10위보다 높은' is ``< 10``. These are read
here, before plain numbers, and only ever go to a rank-like column (``reader``). A plain number on such a column
('평균 순위 3.5 이하', 'avg_position <= 3') is a value like any other and is read by ``numbers``.

An expression that names a rank by itself (the 위/등 unit, 'ranked', 'within the top N') may go to the
inventory's only rank-like column without the column being named; a bare '상위 10' or 'top 10' needs the
column named, since 'top 10 pages by clicks' is an ordering, not a filter.
"""

from __future__ import annotations

import re
from decimal import Decimal

from ont_platform.qa.pages.numbers import Number

_N = r"(?P<n>\d{1,4}(?:\.\d+)?)"
_UNIT = r"\s*(?:위|등)"
_PART = r"(?:\s*(?:을|를|이|가|로|으로|에|에서|권)(?![가-힣]))?"
_PUSHED = r"(?:\s*(?:밀린|밀려난|밀려|밀리|떨어진|떨어지|처진|내려간|내려가))?"
_ORD = r"(?:st|nd|rd|th)?"
_LEAD = r"(?:(?<![a-z])(?:rank(?:ed|ing|s)?|placed|positioned)\s+)"
"""English words that make 'below 10' a rank (worse than 10th) rather than a value under 10."""
_ENTER = r"(?:\s*(?:드는|든|들어가는|들어간|들어온|진입한|올라간|있는)(?![가-힣]))?"
_PATTERNS: list[tuple[str, bool, re.Pattern[str]]] = [
    # Korean, with the unit: the expression names a rank by itself
    ("<", True, re.compile(r"(?:상위\s*)?" + _N + _UNIT + _PART + r"\s*보다\s*(?:더\s*)?(?:높|위|앞|좋)[가-힣]*")),
    (
        ">",
        True,
        re.compile(
            r"(?:상위\s*)?"
            + _N
            + _UNIT
            + _PART
            + r"\s*(?:보다\s*(?:더\s*)?(?:낮|아래|뒤|밑|나쁘)[가-힣]*|밖|바깥|뒤|아래|밑|이하|초과|넘[가-힣]*)"
            + _PART
            + _PUSHED
        ),
    ),
    (
        "<=",
        True,
        re.compile(r"(?:상위\s*)?" + _N + _UNIT + _PART + r"\s*(?:이내|안쪽|안|내|까지|이상)" + _PART + _ENTER),
    ),
    ("<=", True, re.compile(r"상위\s*" + _N + _UNIT + _PART + _ENTER)),
    ("=", True, re.compile(r"(?<![\d.])" + _N + _UNIT + r"(?:인|이다|이고|이며|에)?(?![가-힣])")),
    # Korean, no unit: needs the column named
    (
        "<=",
        False,
        re.compile(r"상위\s*" + _N + r"(?!\s*(?:개|건|페이지|%|퍼센트|프로|\d))" + r"(?:\s*(?:이내|안|까지))?"),
    ),
    # English
    (
        ">",
        True,
        re.compile(
            _LEAD + r"?(?:outside|beyond|out\s+of|below|past)"
            r"\s+(?:of\s+)?(?:the\s+)?top\s*-?\s*" + _N + r"(?![\d.])",
            re.IGNORECASE,
        ),
    ),
    ("<=", True, re.compile(_LEAD + r"?(?:with)?in\s+(?:the\s+)?top\s*-?\s*" + _N + r"(?![\d.])", re.IGNORECASE)),
    # '10th or better', 'ranked 10 or higher'; a bare '5 or lower' is a value (numbers), not a rank
    ("<=", True, re.compile(_LEAD + r"(?:at\s+)?" + _N + _ORD + r"\s+or\s+(?:better|higher|above)", re.IGNORECASE)),
    (">=", True, re.compile(_LEAD + r"(?:at\s+)?" + _N + _ORD + r"\s+or\s+(?:worse|lower|below)", re.IGNORECASE)),
    ("<=", True, re.compile(_N + r"(?:(?:st|nd|rd|th)\s+or\s+(?:better|higher|above)|\s+or\s+better)", re.IGNORECASE)),
    (">=", True, re.compile(_N + r"(?:(?:st|nd|rd|th)\s+or\s+(?:worse|lower|below)|\s+or\s+worse)", re.IGNORECASE)),
    (
        ">",
        True,
        re.compile(_LEAD + r"(?:below|lower\s+than|worse\s+than|under)\s+" + _N + _ORD + r"(?![\d.])", re.IGNORECASE),
    ),
    (
        "<",
        True,
        re.compile(_LEAD + r"(?:above|higher\s+than|better\s+than)\s+" + _N + _ORD + r"(?![\d.])", re.IGNORECASE),
    ),
    (">", True, re.compile(r"(?<![a-z])worse\s+than\s+" + _N + _ORD + r"(?![\d.])", re.IGNORECASE)),
    ("<", True, re.compile(r"(?<![a-z])better\s+than\s+" + _N + _ORD + r"(?![\d.])", re.IGNORECASE)),
    (
        "<=",
        False,
        re.compile(
            r"(?<![a-z])top\s*-?\s*" + _N + r"(?![\d.%])(?!\s*(?:pages?|posts?|urls?|results?)\b)", re.IGNORECASE
        ),
    ),
]


def read_ranks(work: str) -> list[Number]:
    """Rank expressions in ``work`` (URLs, code, quoted text and dates blanked; column names kept, since 'ranked
    below 10' needs its verb even where 'rank' is a column's label), as numbers marked ``rank``; ``named`` when
    the words name a rank by themselves."""
    taken = [False] * len(work)
    out: list[Number] = []
    for op, named, pattern in _PATTERNS:
        for m in pattern.finditer(work):
            s, e = m.span()
            while e > s and work[e - 1].isspace():
                e -= 1
            if e <= s or any(taken[s:e]):
                continue
            for i in range(s, e):
                taken[i] = True
            value = Decimal(m.group("n"))
            out.append(Number(s, e, value, False, op, "위", work[s:e], rank=True, named=named))
    out.sort(key=lambda n: n.start)
    return out
