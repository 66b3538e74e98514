"""Small Korean text helpers for templated answers: particles that agree with the word before them."""

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
    # Latin words: read aloud, a final vowel or r/l sound takes 로 (worksFor 로), other consonants 으로.
    return f"{word} {'로' if ch.lower() in 'aeiouywrl' else '으로'}"


COUNT_KO = {1: "한", 2: "두", 3: "세", 4: "네", 5: "다섯", 6: "여섯"}
