"""Kiwi's tokens for plain Latin text, without loading Kiwi.

Building a ``Kiwi`` analyser costs seconds and about half a gigabyte, and a question without Hangul needs
almost nothing of it: kiwipiepy cuts such text into Latin words (SL), numbers (SN) and punctuation by character
class. :func:`tokens` makes that same cut for the texts whose cut it can tell for sure, and returns ``None``
for every other text, which then goes to Kiwi as before (:func:`ont_platform.qa.analyzer.morphs`).

What it reproduces of Kiwi 0.24 (``tests/qa/test_latin.py`` compares it with Kiwi on generated texts and on
every Hangul-free question of the repository's question files, where it answers for 88%):

* a run of Latin letters (ASCII and U+00C0–U+00FF) is one SL token, whatever its case; letters and digits
  part (``2nd`` → ``2`` SN, ``nd`` SL);
* a number is one SN token with its thousands commas and one decimal part (``1,234.56``); a comma not followed
  by exactly three digits parts it (``1,00`` → ``1`` ``,`` ``00``);
* a period that ends the text stays on the ASCII word before it (after a space or at the start), with at most
  five of its letters (``Acme.``, ``Station.`` → ``St`` ``ation.``), or on a number after a space (``before
  2025.``);
* punctuation: a run of one class is one token (``?!`` SF, ``,;`` SP, ``--`` SO, ``%$`` SW; the dashes ``—–`` and
  the arrow ``→`` each only with their own kind), brackets one each (``(`` SSO, ``)`` SSC).

Declined (``None``), because Kiwi decides them by its model or by patterns not written out here: any character
outside the classes above (Hangul, CJK, other scripts, tabs and newlines, quotes and apostrophes, which Kiwi reads
as SS, SSO or SSC by context, ``#`` and ``@``), a period on a word or number anywhere but at the end of the text
(Kiwi's model may split the word: ``acme. x`` → ``a`` ``cme.``), list bullets (``1)``) and serial numbers
(``1-2``, ``12:30``, ``1.2.3``).
"""

from __future__ import annotations

import re

_LETTER = "A-Za-z\u00c0-\u00ff"
_PUNCT_TAGS = {
    **dict.fromkeys(".?!", "SF"),
    **dict.fromkeys(",;:/", "SP"),
    **dict.fromkeys("-~", "SO"),
    **dict.fromkeys("%$+&*=^_\\`|\u2014\u2013\u2192", "SW"),
}
_GROUP = {"\u2014": "dash", "\u2013": "dash", "\u2192": "arrow"}
"""A run of punctuation of one tag is one token only within one group: ``*$`` and ``—–`` are, ``*—`` and ``—→`` are
not."""
_OPEN = frozenset("([{<")
_CLOSE = frozenset(")]}>")

_ALLOWED = re.compile(rf"[{_LETTER}0-9 {re.escape(''.join(_PUNCT_TAGS))}()\[\]{{}}<>]*")
"""The characters of a text the fast path may cut: no Hangul or other script, no quotes, ``#`` or ``@``."""
_DECLINED = re.compile(
    rf"[{_LETTER}]\.|\.[{_LETTER}]"  # a period on a word: Kiwi's model decides its cut (acme. x -> a, cme.)
    r"|[0-9]\.(?![0-9])|(?<![0-9])\.[0-9]|\.[0-9]+[.,]"  # a period on a number but for one decimal point
    r"|,[0-9]{3}[0-9]"  # a thousands comma before four digits
    r"|[0-9] *[-/:] *[0-9]"  # serial numbers (1-2, 12:30, 30: 0)
    r"|[0-9]\)"  # a list bullet (1) -> SB)
)
"""Texts declined even though every character is allowed."""
_TOKEN = re.compile(
    rf"(?P<word>[{_LETTER}]+)|(?P<num>[0-9]+(?:,[0-9]{{3}})*(?:\.[0-9]+)?)|(?P<punct>.)",
    re.DOTALL,
)


_FINAL_WORD = re.compile(r"(?<![^ ])[A-Za-z]+\.\Z")
_FINAL_NUMBER = re.compile(r"(?<= )[0-9]+\.\Z")
_KEPT_WITH_PERIOD = 5
"""Kiwi keeps a text's final period on the word before it, and on up to this many of its last letters: ``Acme.``,
``names.``; ``Station.`` -> ``St`` ``ation.``."""


def tokens(text: str) -> list[tuple[str, str, int, int]] | None:
    """Kiwi's tokens of ``text`` as (form, tag, start, length), or ``None`` when the text is not one this
    module can cut exactly as Kiwi does."""
    final = _FINAL_WORD.search(text) or _FINAL_NUMBER.search(text)
    body = text[:-1] if final else text
    if not _ALLOWED.fullmatch(body) or _DECLINED.search(body):
        return None
    out = _cut(body)
    if final is None:
        return out
    form, tag, start, length = out[-1]
    if tag == "SN":
        out[-1] = (form + ".", tag, start, length + 1)
    elif length <= _KEPT_WITH_PERIOD:
        out[-1] = (form + ".", tag, start, length + 1)
    else:
        cut = length - _KEPT_WITH_PERIOD
        out[-1:] = [(form[:cut], tag, start, cut), (form[cut:] + ".", tag, start + cut, _KEPT_WITH_PERIOD + 1)]
    return out


def _cut(text: str) -> list[tuple[str, str, int, int]]:
    out: list[tuple[str, str, int, int]] = []
    for m in _TOKEN.finditer(text):
        start, end, form = m.start(), m.end(), m.group()
        if m.lastgroup == "word":
            out.append((form, "SL", start, end - start))
        elif m.lastgroup == "num":
            out.append((form, "SN", start, end - start))
        elif form == " ":
            continue
        elif form in _OPEN or form in _CLOSE:
            out.append((form, "SSO" if form in _OPEN else "SSC", start, 1))
        else:
            tag = _PUNCT_TAGS[form]
            last = out[-1] if out else None
            if (
                last is not None
                and last[1] == tag
                and last[2] + last[3] == start
                and _GROUP.get(form, "ascii") == _GROUP.get(last[0][-1], "ascii")
            ):
                out[-1] = (last[0] + form, tag, last[2], last[3] + 1)
            else:
                out.append((form, tag, start, 1))
    return out
