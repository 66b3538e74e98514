"""Whether a page question's reading accounts for the question: the parts it used, and the words left over.

A filter that runs while a word of the question went unread answers another question: "세션이 50 미만인 블로그
글" run as ``sessions_30d < 50`` returns shop pages too. So the reader lists every part of its reading with its
span — columns, vague phrases, numbers, dates, ranks, text values, negations, the ontology's concept words, the
page family's context words (``cues.json``: 페이지, 목록, URL, 뽑아 …) and question words — and
:func:`ont_platform.qa.reading.unexplained` names the content words none of them covers. Such a question is
asked back (``clarify``), naming the words; a left-over word that is a label of an unsupported concept makes
it ``unsupported``.

Spans are widened to the morphemes they touch: '방문' found at the start of '방문자' explains the word.
"""

from __future__ import annotations

import re
from collections.abc import Iterable

from ont_platform.messages import Lang, say
from ont_platform.qa.analyzer import Morph
from ont_platform.qa.pages.vocabulary import Concept, PageVocabulary
from ont_platform.qa.pages.wording import listed
from ont_platform.qa.reading import Part, is_question_word, quote_words, unexplained
from ont_platform.qa.text import compact

_MARKUP = re.compile(r"</?[A-Za-z][A-Za-z0-9]*(?:\s[^<>]{0,200})?/?>")


_ENDINGS = frozenset(
    {
        "이",
        "인",
        "이다",
        "이고",
        "이며",
        "이면",
        "면서",
        "서",
        "고",
        "며",
        "면",
        "에",
        "로",
        "으로",
        "의",
        "은",
        "는",
        "을",
        "를",
        "가",
        "도",
        "만",
        "요",
        "죠",
    }
)
"""Endings and particles the analyser sometimes tags as words when they follow a date or a number glued to them
('2025-01-08인' → 인/NNG, '이상이면서' → 서/VV)."""


def _widen(ms: list[Morph], start: int, end: int) -> tuple[int, int]:
    """The span grown to the morphemes it touches, and on over the endings glued to its end."""
    for m in ms:
        if m.start < end and start < m.end:
            start, end = min(start, m.start), max(end, m.end)
    for m in ms:
        if m.start == end and (
            not m.tag.startswith(("N", "V", "XR", "SL", "SN", "SH", "MA", "MM", "NP")) or m.form in _ENDINGS
        ):
            end = m.end
    return start, end


def parts(text: str, ms: list[Morph], spans: Iterable[tuple[str, int, int, str]]) -> list[Part]:
    """The reading's parts: ``spans`` (role, start, end, ref) widened to whole morphemes, plus the question
    words and markup tags of ``text`` (tags are not words: '<b>클릭</b> 0')."""
    out = []
    for role, s, e, ref in spans:
        if e > s:
            s, e = _widen(ms, s, e)
            out.append(Part(role, s, e, text[s:e], ref))
    out += [Part("question", m.start, m.end, m.form) for m in ms if is_question_word(m, text)]
    out += [Part("cue", m.start(), m.end(), m.group(0), "context") for m in _MARKUP.finditer(text)]
    return out


def leftover(text: str, ms: list[Morph], spans: Iterable[tuple[str, int, int, str]]) -> list[str]:
    """The content words of ``text`` no part of the reading explains, in order."""
    return unexplained(text, ms, parts(text, ms, spans))


def unsupported_among(vocab: PageVocabulary, words: list[str]) -> Concept | None:
    """The unsupported concept one of ``words`` is a label of, if any ('체류' read apart from its sentence)."""
    flat = {compact(w) for w in words}
    for label, kind, ref in vocab.flat_labels:
        concept = vocab.concepts.get(ref) if kind == "concept" else None
        if concept is not None and concept.role == "unsupported" and label in flat:
            return concept
    return None


def hedge(vocab: PageVocabulary, words: list[str], lang: Lang) -> str:
    """Why the question is asked back: the words, and what the inventory can filter on."""
    columns = listed(vocab.columns.values(), lang)
    return say("pages.unread_words", lang, shown=quote_words(words), listed=columns)
