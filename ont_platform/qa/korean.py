"""Small Korean text helpers: particles that agree with the word before them (for templated answers), and the
particles that may follow a name in a question."""

from __future__ import annotations


def _has_batchim(word: str) -> bool | None:
    if not word:
        return None
    ch = word[-1]
    if "가" <= ch <= "힣":
        return (ord(ch) - 0xAC00) % 28 != 0
    return None


def josa(word: str, with_batchim: str, without: str) -> str:
    """``word`` + the right particle (은/는, 이/가, 을/를, 과/와). Ids and Latin words keep a space and the
    form with batchim, as the seed answers write them (``n_d4 은``)."""
    has = _has_batchim(word)
    if has is None:
        return f"{word} {with_batchim}"
    return word + (with_batchim if has else without)


def ro(word: str) -> str:
    """``word`` + 으로/로."""
    ch = word[-1] if word else ""
    if "가" <= ch <= "힣":
        final = (ord(ch) - 0xAC00) % 28
        return word + ("로" if final in (0, 8) else "으로")
    # Latin words as read aloud in Korean: a final n/m keeps its consonant (locatedIn 으로); other endings
    # gain a vowel or read as ㄹ (worksFor 로, partOf 로, acquired 로).
    return f"{word} {'으로' if ch.lower() in 'nm' else '로'}"


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
