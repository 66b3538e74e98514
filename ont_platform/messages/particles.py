"""Korean particles that agree with the word before them, for texts filled in from the catalogue.

A particle's form depends on whether the word before it ends in a consonant (batchim): 홍길동은 but 서울은 /
에이크미는. Ids and Latin words have no Hangul ending; they keep a space and the form with batchim, as the
seed answers write them (``n_d4 은``), except 으로/로, which follows how the word is read aloud.
"""

from __future__ import annotations

PAIRS: dict[str, tuple[str, str]] = {
    "은": ("은", "는"),
    "는": ("은", "는"),
    "이": ("이", "가"),
    "가": ("이", "가"),
    "을": ("을", "를"),
    "를": ("을", "를"),
    "과": ("과", "와"),
    "와": ("과", "와"),
    "에서": ("에서", "에서"),
}
"""Each particle a template may name (either form), with its form after a consonant and after a vowel."""


def has_batchim(word: str) -> bool | None:
    """Whether ``word`` ends in a Hangul syllable with a final consonant; None when it ends in no syllable."""
    if not word:
        return None
    ch = word[-1]
    if "가" <= ch <= "힣":
        return (ord(ch) - 0xAC00) % 28 != 0
    return None


def josa(word: str, with_batchim: str, without: str) -> str:
    """``word`` + the right particle (은/는, 이/가, 을/를, 과/와). Ids and Latin words keep a space and the
    form with batchim, as the seed answers write them (``n_d4 은``)."""
    has = has_batchim(word)
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


def attach(word: str, particle: str) -> str:
    """``word`` with ``particle`` (any form of a pair of :data:`PAIRS`, or 로/으로) in the form it takes."""
    if particle in ("로", "으로"):
        return ro(word)
    with_batchim, without = PAIRS[particle]
    return josa(word, with_batchim, without)


def glued(text: str, particle: str) -> str:
    """``text`` + the form of ``particle`` (one of :data:`PAIRS`) with no space, agreeing with the word a reader
    hears last: inside a closing quote (``'10위'는``), before a closing parenthesis (``클릭(clicks_30d)이``) and
    before an ellipsis of more words (``'a', 'b' …을``). Latin words and numbers take the form with batchim."""
    word = text.removesuffix(" …")
    if word[-1:] in ("'", '"', "’", "”"):
        word = word[:-1]
    if word.endswith(")") and "(" in word:
        word = word[: word.rindex("(")]
    with_batchim, without = PAIRS[particle]
    return text + (without if has_batchim(word) is False else with_batchim)
