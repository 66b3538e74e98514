"""One policy for the text a graph takes in: ids, labels and longer text.

Every cell of a dataset folder (:mod:`ont_platform.ingest.tables`) and every id, label and evidence text of an
extraction handed to :func:`ont_platform.ingest.extraction.ingest` passes through :func:`clean_text`, so the
two ways into a graph accept exactly the same strings.

What is refused, in every kind of field:

* control characters (C0 and C1, DEL), except tab, line feed and carriage return in ``text`` fields (a chunk
  of text may hold line breaks; an id or a label may not);
* format characters (general category Cf): the bidirectional embeddings, overrides and isolates
  (U+202A–U+202E, U+2066–U+2069), the marks U+200E, U+200F and U+061C, the zero-width space, joiners and word
  joiner (U+200B–U+200D, U+2060), the byte-order mark U+FEFF, soft hyphen, tag characters and the rest of Cf.
  They make text display differently from what it is, or make two different strings look the same;
* line and paragraph separators (U+2028, U+2029), lone surrogates (which cannot be written as UTF-8), and the
  invisible Hangul fillers (U+115F, U+1160, U+3164, U+FFA0) and combining grapheme joiner (U+034F), which
  display as nothing.

The price: emoji sequences joined with U+200D and scripts that need ZWNJ/ZWJ for their shaping (Persian,
some Indic spellings) cannot be written in ids and labels. A graph that has to hold them should keep them in
``text`` fields, which are refused the same characters, or ask for the policy to grow a per-field exception.

Ids are also:

* normalised to NFKC, and the NFKC form is the id: ``ｐ_ｈｏｎｇ`` (full width) *is* ``p_hong``, so two rows
  or entities whose ids differ only in width or compatibility form are one id (and a duplicate);
* refused private-use, unassigned and noncharacter code points and variation selectors;
* refused when their letters mix scripts beyond what Unicode's "highly restrictive" profile (UTS #39, 5.2)
  allows: one script, or Latin together with Han and Hiragana/Katakana, Han and Bopomofo, or Han and Hangul
  (``n_홍길동`` is fine). ``p_hоng`` with a Cyrillic ``о`` is refused: a mixed-script id is how a look-alike
  id is usually made, and no legitimate id needs Latin and Cyrillic letters in one word.

Look-alike ids written wholly in one other script (Cyrillic ``а`` alone against Latin ``a``) are *not*
refused: telling them apart needs Unicode's confusables table, which the standard library does not ship,
and a dataset may legitimately hold Cyrillic or Greek ids. They stay distinct ids, as they are distinct text.

Labels and text keep the characters they were written with (a label is a name as the source writes it;
``㈜에이씨미`` is not rewritten to ``(주)에이씨미``): question matching compares NFKC forms anyway.

>>> clean_text("ｐ_ｈｏｎｇ", "id")
'p_hong'
>>> clean_text("홍길동", "label")
'홍길동'
>>> clean_text("\\u202egnp.exe", "label")
Traceback (most recent call last):
...
ont_platform.text_policy.UnsafeText: label: U+202E RIGHT-TO-LEFT OVERRIDE (a bidirectional control) at character 1 is not allowed
"""

from __future__ import annotations

import re
import unicodedata
from typing import Literal

from ont_platform.errors import InputError

TextKind = Literal["id", "label", "text"]
"""``id``: identifiers (NFKC, one script, no invisible characters); ``label``: names and short values, one
line; ``text``: longer text that may hold tabs and line breaks."""

TEXT_KINDS: tuple[TextKind, ...] = ("id", "label", "text")


class UnsafeText(InputError):
    """A string that the text policy refuses; the message names the character, what it is and where."""


# Cc (but tab/LF/CR, decided per kind), Cf, Cs, Zl, Zp as of Unicode 15.1 (a test checks this against the
# running Python's Unicode database), and the invisible fillers and the combining grapheme joiner.
_REFUSED_EVERYWHERE = (
    "\x00-\x08\x0b\x0c\x0e-\x1f\x7f-\x9f"
    "\u00ad\u034f\u0600-\u0605\u061c\u06dd\u070f\u0890\u0891\u08e2\u115f\u1160\u180e"
    "\u200b-\u200f\u2028-\u202e\u2060-\u206f\u3164\ud800-\udfff\ufeff\uffa0\ufff9-\ufffb"
    "\U000110bd\U000110cd\U00013430-\U0001343f\U0001bca0-\U0001bca3\U0001d173-\U0001d17a"
    "\U000e0001\U000e0020-\U000e007f"
)
_BAD = {
    "text": re.compile(f"[{_REFUSED_EVERYWHERE}]"),
    "label": re.compile(f"[\t\n\r{_REFUSED_EVERYWHERE}]"),
    "id": re.compile(f"[\t\n\r{_REFUSED_EVERYWHERE}\u17b4\u17b5\u180b-\u180f\ufe00-\ufe0f\U000e0100-\U000e01ef]"),
}
_ASCII_BAD = {
    "text": re.compile(r"[\x00-\x08\x0b\x0c\x0e-\x1f\x7f]"),
    "label": re.compile(r"[\x00-\x1f\x7f]"),
    "id": re.compile(r"[\x00-\x1f\x7f]"),
}
ANY_REFUSED = _BAD["label"]
"""A character refused in labels; a string without one is accepted unchanged as a label or text, and as an id
when it is ASCII (callers may search a whole row of cells at once and call :func:`clean_text` only when needed)."""

_BIDI = frozenset("\u061c\u200e\u200f\u202a\u202b\u202c\u202d\u202e\u2066\u2067\u2068\u2069")
_ZERO_WIDTH = frozenset("\u200b\u200c\u200d\u2060\ufeff\u034f\u115f\u1160\u3164\uffa0\u180e")
_ALLOWED_COMBINATIONS = (
    frozenset({"Latin", "Han", "Hiragana", "Katakana"}),
    frozenset({"Latin", "Han", "Bopomofo"}),
    frozenset({"Latin", "Han", "Hangul"}),
)
_SCRIPT_OF_WORD = {"CJK": "Han", "IDEOGRAPHIC": "Han"}
_NOT_A_SCRIPT = frozenset({"MODIFIER", "KATAKANA-HIRAGANA", "HALFWIDTH", "FULLWIDTH", "SMALL"})


def clean_text(value: str, kind: TextKind = "label", *, what: str | None = None) -> str:
    """``value`` if the policy of ``kind`` allows it (an id: its NFKC form); else raise :class:`UnsafeText`.

    ``what`` names the field in the message (default: the kind). See the module documentation for the policy.
    Cost: one regular-expression search for ASCII text; for other text an NFKC check as well, and for ids a
    look at each letter's script.
    """
    name = what or kind
    if value.isascii():  # ASCII is its own NFKC form and has one script
        found = _ASCII_BAD[kind].search(value)
        if found is not None:
            raise UnsafeText(_refusal(name, value, found.start()))
        return value
    found = _BAD[kind].search(value)
    if found is not None:
        raise UnsafeText(_refusal(name, value, found.start()))
    if kind != "id":
        return value
    if not unicodedata.is_normalized("NFKC", value):
        value = unicodedata.normalize("NFKC", value)
        found = _BAD[kind].search(value)
        if found is not None:  # pragma: no cover - NFKC of an allowed character is never refused today
            raise UnsafeText(_refusal(name, value, found.start()))
    _check_id_characters(value, name)
    return value


def _refusal(name: str, value: str, at: int) -> str:
    ch = value[at]
    return f"{name}: {describe(ch)} at character {at + 1} is not allowed"


def describe(ch: str) -> str:
    """``U+202E RIGHT-TO-LEFT OVERRIDE (a bidirectional control)``: a character named for a message."""
    code = f"U+{ord(ch):04X}"
    char_name = unicodedata.name(ch, "")
    if ch in _BIDI:
        what = "a bidirectional control"
    elif ch in _ZERO_WIDTH:
        what = "an invisible character"
    elif ch in "\t\n\r":
        what = {"\t": "a tab", "\n": "a line break", "\r": "a carriage return"}[ch]
    else:
        what = {
            "Cc": "a control character",
            "Cf": "an invisible format character",
            "Cs": "a lone surrogate",
            "Zl": "a line separator",
            "Zp": "a paragraph separator",
            "Co": "a private-use character",
            "Cn": "an unassigned code point",
        }.get(unicodedata.category(ch), "an invisible character")
    return f"{code} {char_name} ({what})" if char_name else f"{code} ({what})"


def _check_id_characters(value: str, name: str) -> None:
    scripts: dict[str, str] = {}
    for i, ch in enumerate(value):
        category = unicodedata.category(ch)
        if category in ("Co", "Cn"):
            raise UnsafeText(_refusal(name, value, i))
        if category[0] != "L":
            continue
        script = script_of(ch)
        if script is not None and script not in scripts:
            scripts[script] = ch
            if len(scripts) > 1 and not any(set(scripts) <= allowed for allowed in _ALLOWED_COMBINATIONS):
                first, other = list(scripts)[0], script
                raise UnsafeText(
                    f"{name}: {value[:60]!r} mixes the {first} and {other} scripts ({ch!r} at "
                    f"character {i + 1} is {other}); an id must not mix scripts, so that a look-alike "
                    "letter cannot make a second id that reads as the first"
                )


def script_of(ch: str) -> str | None:
    """The script of a letter, from its Unicode name (``LATIN …``, ``CYRILLIC …``, ``HANGUL …``); None for a
    letter that belongs to no one script (modifier letters, the prolonged sound mark).

    The standard library has no Script property; the first word of a letter's name gives it for every letter of
    the scripts that matter here (Latin, Greek, Cyrillic, Armenian, Hebrew, Arabic, Hangul, Han, Kana, ...)."""
    if ch.isascii():
        return "Latin" if ch.isalpha() else None
    word = unicodedata.name(ch, "").split(" ", 1)[0]
    if not word or word in _NOT_A_SCRIPT:
        return None
    return _SCRIPT_OF_WORD.get(word, word.title())


SPREADSHEET_TRIGGERS = ("=", "+", "-", "@", "\t", "\r")
"""First characters that make a spreadsheet read a cell as a formula (OWASP, "CSV Injection")."""


def spreadsheet_cell(value: str) -> str:
    """A cell for a CSV file people open in a spreadsheet: a value that starts with ``= + - @``, a tab or a
    carriage return gets a leading single quote, so it is shown as text and never run as a formula.

    >>> spreadsheet_cell("=1+1"), spreadsheet_cell("홍길동")
    ("'=1+1", '홍길동')
    """
    return "'" + value if value.startswith(SPREADSHEET_TRIGGERS) else value


def from_spreadsheet_cell(value: str) -> str:
    """The value :func:`spreadsheet_cell` was given: the leading quote taken off again where it added one (a
    spreadsheet may keep it on export), so files written and read back join on the same ids.

    >>> from_spreadsheet_cell("'=1+1"), from_spreadsheet_cell("'quoted")
    ('=1+1', "'quoted")
    """
    return value[1:] if value.startswith("'") and value[1:].startswith(SPREADSHEET_TRIGGERS) else value


__all__ = [
    "ANY_REFUSED",
    "from_spreadsheet_cell",
    "SPREADSHEET_TRIGGERS",
    "TEXT_KINDS",
    "TextKind",
    "UnsafeText",
    "clean_text",
    "describe",
    "script_of",
    "spreadsheet_cell",
]
