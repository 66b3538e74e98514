"""Small Korean text helpers: the particles that may follow a name in a question, number words, and (from
:mod:`ont_platform.messages.particles`) particles that agree with the word before them."""

from __future__ import annotations

from ont_platform.messages.particles import josa as josa
from ont_platform.messages.particles import ro as ro

COUNT_KO = {1: "한", 2: "두", 3: "세", 4: "네", 5: "다섯", 6: "여섯"}


def jamo(text: str) -> str:
    """Hangul syllables decomposed into their letters (홍 → ㅎㅗㅇ), other characters kept: the unit in which
    a typo is one step (홍길돈 is one letter from 홍길동; 김영수 is three from 김철수)."""
    out = []
    for ch in text:
        code = ord(ch) - 0xAC00
        if 0 <= code < 11172:
            lead, rest = divmod(code, 588)
            vowel, tail = divmod(rest, 28)
            out.append(chr(0x1100 + lead) + chr(0x1161 + vowel) + (chr(0x11A7 + tail) if tail else ""))
        else:
            out.append(ch)
    return "".join(out)


PARTICLES_AFTER_NAME = frozenset(
    {
        "이",
        "가",
        "은",
        "는",
        "을",
        "를",
        "의",
        "에",
        "에서",
        "에게",
        "한테",
        "께",
        "께서",
        "도",
        "만",
        "와",
        "과",
        "랑",
        "이랑",
        "하고",
        "로",
        "으로",
        "까지",
        "부터",
        "보다",
        "처럼",
        "이나",
        "나",
        "이는",
        "이가",
        "씨",
        "님",
        "씨가",
        "씨는",
        "님이",
        "님은",
        "님의",
        "씨의",
        "이랑은",
        "하고는",
        "와는",
        "과는",
        "에서는",
        "에는",
        "이의",
    }
)
"""Particles (and a title) that may end a word after a name: what is left of a word when a name ends inside
it, for the analyser glues particles to names it does not know (클레르 모로랑 → 모로랑)."""
