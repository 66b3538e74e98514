"""Finding the vocabulary's columns, predicates and concepts in a question.

The lexicon matches lemma sequences, which misses words the analyser splits differently inside a sentence than
alone; so every label is also looked up in the question with spacing and case removed. Where mentions overlap
the longest wins, so '클릭률' is never read as the column '클릭' followed by a stray '률'.
"""

from __future__ import annotations

from ont_platform.qa.analyzer import Morph
from ont_platform.qa.context import Context
from ont_platform.qa.lexicon import Mention, longest
from ont_platform.qa.pages.vocabulary import HANGUL, PageVocabulary

_WANTED = frozenset({"column", "predicate", "concept"})


def find_terms(
    ctx: Context, vocab: PageVocabulary, text: str, ms: list[Morph], others: list[Mention] | None = None
) -> list[Mention]:
    """Columns, predicates and concepts in ``text``, as spans of ``text`` (longest matches win); the lexicon's
    other mentions (the page class, the family's context cues) are appended to ``others`` when it is given,
    for the account of the reading.

    The lexicon's own matching first; then every label of the vocabulary looked up in the text with spacing
    and case removed, for words the analyser reads differently in a sentence than alone ('클릭률' alone is one
    noun, in '클릭률 5% 이상' it is 클릭 + 률; '1분기 게시' is corrected to '개시'). A two-syllable label counts
    only where a word starts, and a label that begins or ends with a Latin letter or digit only as a whole word.
    """
    found = ctx.lexicon.find_terms(text, ms)
    out = [m for m in found if m.kind in _WANTED]
    if others is not None:
        others.extend(m for m in found if m.kind not in _WANTED)
    flat, where = _compact_map(text)
    for label, kind, ref in vocab.flat_labels:
        pos = flat.find(label)
        while pos >= 0:
            start, end = where[pos], where[pos + len(label) - 1] + 1
            if _stands_alone(text, start, end, short=len(label) == 2) and not any(
                m.kind == kind and m.ref == ref and m.start < end and start < m.end for m in out
            ):
                out.append(Mention(kind, ref, start, end, label))
            pos = flat.find(label, pos + 1)
    return longest(out)


def _compact_map(text: str) -> tuple[str, list[int]]:
    out: list[str] = []
    where: list[int] = []
    for i, ch in enumerate(text):
        if not ch.isspace():
            for c in ch.casefold():
                out.append(c)
                where.append(i)
    return "".join(out), where


def _stands_alone(text: str, start: int, end: int, *, short: bool) -> bool:
    def latin(ch: str) -> bool:
        return ch.isascii() and (ch.isalnum() or ch == "_")

    if short and start > 0 and HANGUL.match(text[start - 1]):
        return False
    if latin(text[start]) and start > 0 and latin(text[start - 1]):
        return False
    return not (latin(text[end - 1]) and end < len(text) and latin(text[end]))
