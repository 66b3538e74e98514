"""Text normalisation before analysis: Unicode, spacing, ids, addresses and hop counts.

Ids like ``n_a1`` and hex addresses are found by pattern before Korean analysis (kiwipiepy splits them and
mis-tags the particles glued to them), and hop counts are read from digits, Korean and English numerals.
"""

from __future__ import annotations

import re
import unicodedata

_SPACES = re.compile(r"\s+")
_CONTROL = re.compile(r"[\x00-\x08\x0b\x0c\x0e-\x1f\x7f\u200b-\u200f\u2028\u2029\ufeff]")

HEX_ADDRESS = re.compile(r"0[xX][0-9a-fA-F]{40}(?![0-9a-fA-F])")
HEX_SHORT = re.compile(r"0[xX][0-9a-fA-F]{1,64}(?![0-9a-zA-Z])")

_KO_NUM = {
    "한": 1,
    "하나": 1,
    "두": 2,
    "둘": 2,
    "세": 3,
    "셋": 3,
    "석": 3,
    "네": 4,
    "넷": 4,
    "다섯": 5,
    "여섯": 6,
    "일곱": 7,
    "여덟": 8,
    "아홉": 9,
    "열": 10,
}
EN_NUMBER_WORDS = {
    "one": 1,
    "two": 2,
    "three": 3,
    "four": 4,
    "five": 5,
    "six": 6,
    "seven": 7,
    "eight": 8,
    "nine": 9,
    "ten": 10,
}
"""English number words up to ten: the one table hop counts here and filter values in the verifier read."""
_EN_NUM = {**EN_NUMBER_WORDS, "single": 1, "a": 1}
_UNIT = r"(?:홉|hops?|단계|스텝|steps?|다리|번\s*(?:거쳐|건너)|degrees?)"
_HOPS = re.compile(
    r"(?P<n>\d{1,6}|"
    + "|".join(sorted(map(re.escape, _KO_NUM), key=len, reverse=True))
    + "|"
    + "|".join(sorted(_EN_NUM, key=len, reverse=True))
    + r")\s*[-‐–]?\s*"
    + _UNIT,
    re.IGNORECASE,
)


_NOT_A_COUNT = re.compile(r"(?:[-−–+]|\d[.,]?|[\d.][eE][-+]?)\s*$")
"""What, just before a hop count, makes it part of another number: a sign, more digits, a decimal point, an
exponent."""


def normalize(text: str) -> str:
    """NFKC, control characters removed, whitespace collapsed, trimmed."""
    text = unicodedata.normalize("NFKC", text)
    text = _CONTROL.sub(" ", text)
    return _SPACES.sub(" ", text).strip()


def compact(text: str) -> str:
    """Lower-case with all spacing removed: the form names and aliases are compared in."""
    return _SPACES.sub("", unicodedata.normalize("NFKC", text)).casefold()


def hop_limit(text: str) -> tuple[int | None, tuple[int, int] | None]:
    """The hop count the question asks for (``3-hop``, ``세 홉``, ``두 단계 이내``, ``two hops``), and its span.

    A count that is not a whole number of at least one (``0-hop``, ``-5-hop``, ``1e308-hop``, ``1.5홉``) gives
    ``(None, None)``: its words then stay unexplained, so the question is refused naming them, never answered
    with another limit (the default, or the digits after the sign or the exponent)."""
    for m in _HOPS.finditer(text):
        if _NOT_A_COUNT.search(text, 0, m.start()):
            return None, None
        raw = m.group("n").lower()
        if raw.isdigit():
            return (int(raw), m.span()) if int(raw) >= 1 else (None, None)
        if raw in _KO_NUM:
            return _KO_NUM[raw], m.span()
        if raw in _EN_NUM and raw != "a":
            return _EN_NUM[raw], m.span()
    return None, None
