"""Conditions on boolean and text columns, read around the column's mention.

A text column ('제목', 'title') takes the words to look for: "제목에 '세일'이 들어간", "title contains sale",
"pages with 'sale' in the title", "제목에 세일이 안 들어간" (negated). Quoted words are taken exactly; an
unquoted one is a single word, with the particle the analyser finds on it removed ('세일이' → 세일). Whatever it
holds, the value is only ever an escaped string literal in the query, and its words are not read as columns,
numbers or dates.

A boolean column ('색인 가능', 'indexable') is true when named alone ("색인된 페이지", "indexable pages"), false
when negated ("색인되지 않은", "색인 안 된", "미색인", "not indexable", "non-indexable"), and takes an explicit
value ("indexable 이 false 인", "indexable = true"). "색인 여부" alone asks for the column, not a condition.
"""

from __future__ import annotations

import re
from dataclasses import dataclass

from ont_platform.qa.analyzer import Morph
from ont_platform.qa.lexicon import Mention

_Q = (
    r"(?:'(?P<q1>[^']{1,200})'|\"(?P<q2>[^\"]{1,200})\"|‘(?P<q3>[^’]{1,200})’|“(?P<q4>[^”]{1,200})”"
    r"|「(?P<q5>[^」]{1,200})」|『(?P<q6>[^』]{1,200})』)"
)
_WORD = r"(?P<w>[^\s'\"‘’“”「」『』,.!?]{1,60})"
_KO_IN = r"(?:들어\s*(?:가|간|갔|있|감)|포함|담기|담긴|담겨|쓰인|쓰여|적힌|적혀|있)[가-힣]*"
_KO_OUT = (
    r"(?:안\s*(?:들어|포함|담|쓰|적)|들어\s*가지\s*(?:않|못)|포함(?:되|하)지\s*(?:않|못)|(?:담기|쓰이|적히)지\s*않"
    r"|없|빠진|빠져)[가-힣]*"
)
_KO_LEAD = r"(?:(?:에|에서|에는|의|이|가|은|는|으로|로)(?=[\s'\"‘“「『]))?\s*"  # the particle glued to the column
_KO_NAMED = r"(?:\s*(?:이?라는|이란)\s*(?:단어|말|문구|글자|표현)?)?(?:\s*(?:이|가|을|를|도|은|는)(?![가-힣]))?\s*"
_KO_AFTER = re.compile(
    r"^"
    + _KO_LEAD
    + r"(?:"
    + _Q
    + r"|"
    + _WORD
    + r")"
    + _KO_NAMED
    + r"(?:(?P<out>"
    + _KO_OUT
    + r")|(?P<in>"
    + _KO_IN
    + r"))"
)
_KO_BEFORE = re.compile(
    _Q
    + _KO_NAMED  # quoted only: an unquoted word before a verb is too often something else
    + r"(?:(?P<out>"
    + _KO_OUT
    + r")|(?P<in>"
    + _KO_IN
    + r"))\s*$"
)
_EN_AFTER = re.compile(
    r"^\s*(?:(?:that|which)\s+)?(?:(?P<out>(?:does|do|did)\s*(?:not|n't)\s+|not\s+|never\s+)|)"
    r"(?:contains?|containing|includes?|including|mentions?|mentioning|has|having|with)"
    r"\s+(?:the\s+(?:word|phrase|text|term|string)\s+)?(?:" + _Q + r"|" + _WORD + r")",
    re.IGNORECASE,
)
_EN_WITHOUT = re.compile(
    r"^\s*(?P<out>without)\s+(?:the\s+(?:word|phrase|text|term)\s+)?(?:" + _Q + r"|" + _WORD + r")", re.IGNORECASE
)
_EN_BEFORE = re.compile(
    r"(?:(?P<out>without|not\s+(?:containing|including|mentioning))|with|containing|including|mentioning|having)"
    r"\s+(?:the\s+(?:word|phrase|text|term)\s+)?(?:" + _Q + r"|" + _WORD + r")"
    r"\s+in\s+(?:the\s+|their\s+|its\s+|a\s+)?$",
    re.IGNORECASE,
)


@dataclass(frozen=True, slots=True)
class TextValue:
    """Words to look for in a text column: the whole phrase's span, and the value's own span (quotes included)."""

    column: str
    mention: Mention
    start: int
    end: int
    value_start: int
    value_end: int
    value: str
    op: str  # contains | not_contains


def _value(m: re.Match[str], base: int, ms: list[Morph]) -> tuple[str, int, int] | None:
    for g in ("q1", "q2", "q3", "q4", "q5", "q6"):
        if m.group(g) is not None:
            return m.group(g), base + m.start(g) - 1, base + m.end(g) + 1
    s, e = base + m.start("w"), base + m.end("w")
    # an unquoted word loses the particle the analyser finds at its end ('세일이' → 세일)
    inner = [x for x in ms if s <= x.start and x.end <= e]
    while inner and inner[-1].tag.startswith(("J", "VCP", "ETM")) and inner[-1].start > s:
        e = inner[-1].start
        inner = [x for x in inner if x.end <= e]
    word = m.string[m.start("w") : m.start("w") + (e - s)].strip()
    return (word, s, s + len(word)) if word else None


def read_text(text: str, ms: list[Morph], t: Mention) -> TextValue | None:
    """The words a text column's mention asks for, or None (the column is named without a value)."""
    after = text[t.end :]
    for pattern in (_KO_AFTER, _EN_AFTER, _EN_WITHOUT):
        m = pattern.match(after)
        if m is not None:
            got = _value(m, t.end, ms)
            if got:
                return TextValue(
                    t.ref,
                    t,
                    t.end,
                    t.end + m.end(),
                    got[1],
                    got[2],
                    got[0],
                    "not_contains" if m.group("out") else "contains",
                )
    before = text[: t.start]
    for pattern in (_EN_BEFORE, _KO_BEFORE):
        m = pattern.search(before)
        if m is not None:
            got = _value(m, 0, ms)
            if got:
                return TextValue(
                    t.ref,
                    t,
                    m.start(),
                    t.start,
                    got[1],
                    got[2],
                    got[0],
                    "not_contains" if m.group("out") else "contains",
                )
    return None


@dataclass(frozen=True, slots=True)
class BoolValue:
    """What a boolean column's mention says: the value (None: the column is asked about, not filtered) and
    the span of the words that say it (negation, explicit value), which may be empty."""

    column: str
    mention: Mention
    value: bool | None
    start: int
    end: int


_TRUE = {"true", "참", "yes", "예", "네"}
_FALSE = {"false", "거짓", "no", "아니오", "아니요"}
_ASKED = r"(?:\s*(?:여부|상태|값|status|value|flag))?"
_EXPLICIT = re.compile(
    r"^" + _ASKED + r"\s*(?:이|가|은|는|을|를|=|==|:|is|are|equals?|set\s+to|값이)?\s*"
    r"(?P<v>true|false|참|거짓|yes|no|예|아니오|아니요)(?![A-Za-z가-힣])"
    r"(?:\s*(?:인|이다|이고|이며|이면|로|으로|(?:로|으로)?\s*(?:된|되어\s*있는|설정된|표시된)))?"
    r"(?P<neg>\s*(?:이|가)?\s*(?:아닌|아니|not))?",
    re.IGNORECASE,
)
_NEG_AFTER = re.compile(
    r"^\s*(?:이|가|은|는)?\s*(?:(?:되|하|처리되|가능하|허용되|돼|된\s*적이?|한\s*적이?)\s*(?:지|지는|지도)?\s*(?:않|못|없)[가-힣]*"
    r"|안\s*(?:된|되|됨|돼|한|하)[가-힣]*|안되[가-힣]*|불가능?[가-힣]*|(?:이|가)?\s*아닌|못\s*(?:한|하|된|되)[가-힣]*)",
    re.IGNORECASE,
)
_POS_AFTER = re.compile(r"^\s*(?:이|가|은|는)?\s*(?:되어\s*있는|돼\s*있는|된|되는|됨|가능한|가능|허용된|처리된)")
_NEG_BEFORE = re.compile(
    r"(?:(?<![a-z])(?:not|non|isn't|aren't|never)[\s-]*|(?<![가-힣])[미비]|(?<!위)(?<!위\s)안\s+)$", re.IGNORECASE
)
"""A negation before a flag's word; 안 right after a rank (``5위 안 색인된``: within the top 5) is not one."""
_ASKED_AFTER = re.compile(r"^\s*(?:여부|상태|값|status|value|flag)(?![가-힣A-Za-z])", re.IGNORECASE)


def read_bool(text: str, t: Mention) -> BoolValue:
    """The value a boolean column's mention asks for (see the module's docstring)."""
    after = text[t.end :]
    m = _EXPLICIT.match(after)
    if m is not None:
        value = m.group("v").lower() in _TRUE
        return BoolValue(t.ref, t, value != bool(m.group("neg")), t.end, t.end + m.end())
    if _ASKED_AFTER.match(after) or re.search(r"(?:여부|상태|status)$", t.surface, re.IGNORECASE):
        return BoolValue(t.ref, t, None, t.end, t.end)
    neg = _NEG_AFTER.match(after)
    if neg is not None:
        return BoolValue(t.ref, t, False, t.end, t.end + neg.end())
    before = _NEG_BEFORE.search(text[: t.start])
    if before is not None:
        return BoolValue(t.ref, t, False, before.start(), t.start)
    pos = _POS_AFTER.match(after)
    return BoolValue(t.ref, t, True, t.end, t.end + (pos.end() if pos else 0))
