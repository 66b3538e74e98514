"""The reading of a question: which words each part of the plan came from, and which words nothing explains.

A plan that answers a different question than the one asked is the worst thing the library can return, and the
surest sign of one is a word the plan did not use: "n_a1 이 좋아하는 음식은?" read as "what class is n_a1"
leaves 좋아하는 음식 unexplained. So every answerer records the parts of its reading with their spans
(:class:`Part`), and :func:`unexplained` lists the content words of the question that no part covers and that
are not one of the words every question may carry (question words, politeness, fillers, pronouns; the list is
language-level, in ``reading_words.json``, never about a domain). A reading with such words is *incomplete*:
the answerer refuses (kg), replies with confidence ``low`` (onchain) or asks to clarify (pages), and names the
words.

Sentences and comma-separated clauses that hold no part of the reading and no question word are context
("어제 뉴스를 봤어요.", "의심 거래를 보고 있는데요,") and are not accounted for (a domain family's context words,
such as 자금 or 거래 for transfers, do not make a clause part of the question); a clause that holds any part is
read whole.
"""

from __future__ import annotations

import json
import re
from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from functools import lru_cache
from importlib import resources

from ont_platform.qa.analyzer import Morph, stem_en
from ont_platform.qa.korean import PARTICLES_AFTER_NAME

_SENTENCE_END = re.compile(r"[.!?。…\n,]+")
_PARTICLES = frozenset(
    {
        "은",
        "는",
        "이",
        "가",
        "을",
        "를",
        "과",
        "와",
        "로",
        "으로",
        "으",
        "에",
        "에서",
        "의",
        "도",
        "만",
        "랑",
        "이랑",
        "께",
        "한테",
        "에게",
        "까지",
        "부터",
        "보다",
    }
)
_CONTENT = frozenset({"NNG", "NNP", "NR", "VV", "VA", "XR", "SL", "SN", "SH", "MAG", "NP", "MM", "VX", "NNB"})
"""Tags of words that carry meaning of their own (particles, endings and suffixes never do)."""


@dataclass(frozen=True, slots=True)
class Part:
    """One part of a reading and where it stands in the (normalised) question."""

    role: str
    """``start``, ``relation``, ``class``, ``asked``, ``limit``, ``question``, ``direct``, ``node`` or ``cue``."""
    start: int
    end: int
    text: str
    ref: str = ""


@dataclass(frozen=True)
class Words:
    """The language-level words a question may carry without the plan using them."""

    ko: frozenset[str]
    en: frozenset[str]
    question_ko: frozenset[str]
    question_en: frozenset[str]
    direct_ko: frozenset[str]
    direct_en: frozenset[str]
    titles_ko: frozenset[str]
    titles_en: frozenset[str]


@lru_cache(maxsize=1)
def words() -> Words:
    """The word lists of ``reading_words.json``."""
    doc = json.loads(resources.files("ont_platform.qa").joinpath("reading_words.json").read_text("utf-8"))
    return Words(
        *(
            frozenset(doc[k])
            for k in (
                "fillers_ko",
                "fillers_en",
                "question_ko",
                "question_en",
                "direct_ko",
                "direct_en",
                "titles_ko",
                "titles_en",
            )
        )
    )


def _en_forms(m: Morph, text: str | None) -> set[str]:
    """An English token as written (the analyser keeps only a light stem) and as stemmed."""
    low = (text[m.start : m.end] if text is not None else m.form).lower()
    return {low, stem_en(low), m.form.lower()}


def is_question_word(m: Morph, text: str | None = None) -> bool:
    """어디, 어느, 무슨, 누구, which, what, who …"""
    w = words()
    if m.tag == "SL":
        return bool(_en_forms(m, text) & w.question_en)
    return m.form in w.question_ko


def is_direct_word(m: Morph, text: str | None = None) -> bool:
    """직접, 바로, directly …: the question limits the walk to one hop."""
    w = words()
    if m.tag == "SL":
        return bool(_en_forms(m, text) & w.direct_en)
    return m.form in w.direct_ko


def is_title(m: Morph, text: str | None = None) -> bool:
    """대표, 팀장, 님, Dr …: a title that may follow (or, in English, precede) a person's name."""
    w = words()
    if m.tag == "SL":
        return bool(_en_forms(m, text) & w.titles_en)
    return m.form in w.titles_ko


def is_filler(m: Morph, text: str) -> bool:
    """Whether ``m`` is a word any question may carry (a question word, politeness, a pronoun, an article...)."""
    w = words()
    if m.tag == "SL":
        return bool(_en_forms(m, text) & (w.en | w.question_en))
    return m.form in w.ko or m.form in w.question_ko


def sentences(text: str) -> list[tuple[int, int]]:
    """Spans of the sentences of ``text``."""
    out, begin = [], 0
    for m in _SENTENCE_END.finditer(text):
        if m.end() > begin:
            out.append((begin, m.end()))
        begin = m.end()
    if begin < len(text):
        out.append((begin, len(text)))
    return [s for s in out if text[s[0] : s[1]].strip()]


def unexplained(text: str, ms: Sequence[Morph], parts: Iterable[Part]) -> list[str]:
    """The content words of ``text`` that no part covers and that are not fillers, in order, each once.

    Sentences that hold no part and no question word are context and are skipped."""
    parts = list(parts)
    covered = sorted((p.start, p.end) for p in parts)
    anchors = [(p.start, p.end) for p in parts if not (p.role == "cue" and p.ref == "context")]
    spans = sentences(text)

    def inside(m: Morph) -> bool:
        # a morpheme running past a name only by a particle glued to it (모로랑) is the name's
        return any(
            s <= m.start and (m.end <= e or (m.start < e and text[e : m.end] in PARTICLES_AFTER_NAME))
            for s, e in covered
        )

    active = []
    for s, e in spans:
        here = [m for m in ms if s <= m.start < e]
        if any(s <= ps < e or s < pe <= e for ps, pe in anchors) or any(is_question_word(m, text) for m in here):
            active.append((s, e))
    if not active:
        active = spans
    out: list[str] = []
    for m in ms:
        if m.tag not in _CONTENT or not any(s <= m.start < e for s, e in active):
            continue
        if text[m.start : m.end] in _PARTICLES and any(0 <= m.start - e <= 1 for _, e in covered):
            continue  # a particle after an id, mis-tagged by the analyser (n_a1 과 → 과/NNG)
        if inside(m) or is_filler(m, text) or is_direct_word(m, text):
            continue
        if m.tag == "SN" and any(s <= m.start and m.end <= e for s, e in covered):
            continue
        word = _word_of(text, ms, m)
        if word and word not in out:
            out.append(word)
    return out


_WORDLIKE = frozenset({"NNG", "NNP", "SL", "SN", "SH", "XR"})


def _word_of(text: str, ms: Sequence[Morph], m: Morph) -> str:
    """The word ``m`` belongs to, as written: the run of noun-like morphemes around it with no space between
    (거래쇼, not 쇼), or the morpheme alone for a verb or adjective stem (좋아하)."""
    if m.tag not in _WORDLIKE:
        return text[m.start : m.end]
    i = ms.index(m)
    start, end = m.start, m.end
    j = i - 1
    while j >= 0 and ms[j].tag in _WORDLIKE and ms[j].end == start:
        start = ms[j].start
        j -= 1
    k = i + 1
    while k < len(ms) and ms[k].tag in _WORDLIKE and ms[k].start == end:
        end = ms[k].end
        k += 1
    return text[start:end]


_LIMIT_BEFORE = re.compile(r"(?:within|in|up\s+to|at\s+most|no\s+more\s+than|최대|최대한)\s*$", re.IGNORECASE)
_LIMIT_AFTER = re.compile(r"^\s*(?:이내|안에서|안에|안|까지|내|만|or\s+less|or\s+fewer|at\s+most)", re.IGNORECASE)


def limit_words(text: str, span: tuple[int, int]) -> tuple[int, int]:
    """The hop count's span widened to the words that frame it (within …, 최대 …, … 이내)."""
    start, end = span
    before = _LIMIT_BEFORE.search(text[:start])
    if before:
        start = before.start()
    after = _LIMIT_AFTER.match(text[end:])
    if after:
        end += after.end()
    return start, end


def quote_words(found: Sequence[str], limit: int = 5) -> str:
    """``'좋아하', '음식'`` for a refusal's text."""
    shown = [f"'{w}'" for w in found[:limit]]
    return ", ".join(shown) + (" …" if len(found) > limit else "")
