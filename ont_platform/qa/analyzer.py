"""Korean morphology with kiwipiepy, loaded once per process.

Node ids and hex strings are taken out before analysis and come back as one proper noun each: left to the
model, ``nd_0 의 보관은`` splits the id, tags the particle after it as a noun and breaks the next word apart
(보/관), so the reading would miss the relation word. (kiwipiepy's own pattern words, ``add_re_word``, do the
same but aborted the process on some fuzzed questions.)

Building a ``Kiwi`` analyzer costs seconds and about half a gigabyte, so there is one per process, created on
first use under a lock, and text without Hangul that :mod:`ont_platform.qa.latin` can cut exactly as Kiwi would
never reaches it: an English question in a fresh process is answered without the analyser. Questions are matched on the *lemmas* of their content morphemes (``세운`` → ``세우``,
``속한`` → ``속하``), so endings, honorifics and spacing do not matter; the ontology's labels are analysed the
same way, which is what lets the lexicon come from the ontology instead of lists in the code.
"""

from __future__ import annotations

import re
import threading
from dataclasses import dataclass
from functools import lru_cache
from typing import TYPE_CHECKING

from ont_platform.qa import latin

if TYPE_CHECKING:
    from kiwipiepy import Kiwi

_lock = threading.Lock()
_kiwi: Kiwi | None = None

# Content tags whose forms make up a lemma key: nouns, verbs and adjectives (stems), roots, foreign words,
# numbers and the adverbs that carry meaning in filter questions (꽤, 하나도...).
NOUN_TAGS = frozenset({"NNG", "NNP", "SL", "SN", "SH", "XR"})
"""Tags that continue a word: a name followed without a space by one of these is part of a longer word."""

CONTENT_TAGS = frozenset(
    {"NNG", "NNP", "NNB", "NR", "NP", "VV", "VA", "VX", "XR", "SL", "SN", "MAG", "MM", "XSN", "VCN"}
)


@dataclass(frozen=True, slots=True)
class Morph:
    """One morpheme: its lemma form, part-of-speech tag and character span in the analysed text."""

    form: str
    tag: str
    start: int
    end: int


ID_WORDS = re.compile(
    r"(?<![A-Za-z0-9_])[A-Za-z][A-Za-z0-9]*_[A-Za-z0-9_:]*[A-Za-z0-9](?![A-Za-z0-9_])"
    r"|(?<![0-9A-Za-z])0[xX][0-9a-fA-F]{4,64}(?![0-9A-Za-z])"
)
"""Node ids (``n_a1``, ``nd_12``) and hex strings: one proper noun each (see :func:`morphs`)."""


def analyzer() -> Kiwi:
    """The process-wide analyzer (created on first call)."""
    global _kiwi
    if _kiwi is None:
        with _lock:
            if _kiwi is None:
                from kiwipiepy import Kiwi

                _kiwi = Kiwi()
    return _kiwi


def morphs(text: str, *, typos: bool = True, kiwi: bool = False) -> list[Morph]:
    """Morphemes of ``text`` with spans (verbs and adjectives as their stems); common typos corrected.

    Characters outside the Basic Multilingual Plane (emoji, rare CJK) are analysed as U+FFFD, one for one, so
    spans still index ``text``: kiwipiepy's pattern words (the ids above) count them as two UTF-16 units, and
    an id after one aborted the process (a fuzzed question found it).

    Text that :func:`ont_platform.qa.latin.tokens` can cut exactly as Kiwi does (plain Latin words, numbers
    and punctuation) is cut there, without loading Kiwi; everything else goes to Kiwi. ``kiwi=True`` sends all
    text to Kiwi (the tests compare the two)."""
    original = text
    text, ids = _prepared(text)
    tokens = None if kiwi else latin.tokens(text)
    if tokens is None:
        found = analyzer().tokenize(text, typos="basic" if typos else None)
        tokens = [(t.form, str(t.tag), t.start, t.len) for t in found]
    out: list[Morph] = []
    done: set[tuple[int, int]] = set()
    for form, kiwi_tag, start, length in tokens:
        span = next(((s, e) for s, e in ids if s <= start < e), None)
        if span is not None:
            if span not in done:
                done.add(span)
                out.append(Morph(original[span[0] : span[1]], "NNP", span[0], span[1]))
            continue
        tag = kiwi_tag.split("-", 1)[0]  # kiwi marks irregular conjugations as VV-I / VA-R
        end = start + length
        if tag == "SL":
            bare = form.rstrip(".")  # kiwi keeps a sentence's final period on an English word ("in.")
            if bare and bare != form:
                end -= len(form) - len(bare)
                form = bare
            form = stem_en(form.lower())
        out.append(Morph(form, tag, start, end))
    return out


def _prepared(text: str) -> tuple[str, list[tuple[int, int]]]:
    """The text the tokenizer sees (characters past the BMP as U+FFFD, each id as a run of Z) and the ids'
    spans."""
    if any(ord(c) > 0xFFFF for c in text):
        text = "".join(c if ord(c) <= 0xFFFF else "\ufffd" for c in text)
    ids = [m.span() for m in ID_WORDS.finditer(text)]
    for s, e in ids:
        text = text[:s] + "Z" * (e - s) + text[e:]
    return text, ids


def needs_analyser(text: str) -> bool:
    """Whether :func:`morphs` needs the Korean analyser for ``text`` (the fast path declines it)."""
    return latin.tokens(_prepared(text)[0]) is None


HANGUL = re.compile("[\u1100-\u11ff\u3130-\u318f\ua960-\ua97f\uac00-\ud7a3\ud7b0-\ud7ff]")
"""Hangul syllables and jamo (conjoining, compatibility and extended)."""


def stem_en(word: str) -> str:
    """A light English stem so labels and questions meet (founded/founder/founds → found, works → work,
    countries → country)."""
    if word.endswith("ies") and len(word) >= 5:
        return word[:-3] + "y"
    for suffix in ("ing", "ed", "er", "es", "s", "e"):
        if word.endswith(suffix) and len(word) - len(suffix) >= 3:
            return word[: -len(suffix)]
    return word


def content(ms: list[Morph]) -> list[Morph]:
    """Only the content morphemes."""
    return [m for m in ms if m.tag in CONTENT_TAGS]


_NO_GLUE = frozenset({"SF", "SP", "SS", "SSO", "SSC", "SE", "SO", "SW", "W_SERIAL"})


def glue(ms: list[Morph]) -> tuple[list[Morph], list[tuple[str, ...]]]:
    """Content morphemes and, between each pair of neighbours, the endings and particles that join them.

    "같은 주체" joins 같 and 주체 with 은; "입금한 주소" joins 입금 and 주소 with 하, ㄴ. Comparing the glue
    keeps the label "입금 주소" from matching "입금한 주소" while endings at the edges stay free.
    """
    words = content(ms)
    joints: list[tuple[str, ...]] = []
    pos = {id(m): i for i, m in enumerate(ms)}
    for a, b in zip(words, words[1:], strict=False):
        between = ms[pos[id(a)] + 1 : pos[id(b)]]
        joints.append(tuple(m.form for m in between if m.tag not in _NO_GLUE))
    return words, joints


@lru_cache(maxsize=4096)
def lemma_key(text: str) -> tuple[str, ...]:
    """The lemma sequence of a label, for matching against questions (cached: labels repeat)."""
    return tuple(m.form for m in content(morphs(text)))


@lru_cache(maxsize=4096)
def label_pattern(text: str) -> tuple[tuple[str, ...], tuple[tuple[str, ...], ...]]:
    """A label's lemma sequence and the glue between its lemmas.

    A label written as a bare verb stem (닿, "reach") is analysed in its dictionary form (닿다): alone, the
    analyser splits off its final consonant and reads 하, so every 하는/했 in a question became that cue."""
    ms = morphs(text, typos=False)
    if any(m.tag == "Z_CODA" for m in ms) and text.strip() and "\uac00" <= text.strip()[-1] <= "\ud7a3":
        ms = [m for m in morphs(text + "다", typos=False) if m.start < len(text)]
    words, joints = glue(ms)
    return tuple(m.form for m in words), tuple(joints)
