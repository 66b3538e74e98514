"""Every text a person reads, in the language of the question, from one catalogue keyed by reason code.

Answers carry texts for people beside their structured fields (a HopDecision's ``reason`` and ``hedge``, an
on-chain ``answer_ko``, a page reply's ``hedge``, the CLI's and the service's messages). The code that decides
an answer names *what* it says by a code and the facts it fills in; the words, Korean and English, are in the
catalogue files beside this module (``<area>.toml``, one table per code with a ``ko`` and an ``en`` text).
A text is written once per language, so an English question is answered in English, and a new language is a
column, not a change of the planners.

Templates are Python format strings. A field followed by a Korean particle as its format spec agrees with the
word it follows: ``{name:은}`` gives 홍길동은 or 에이크미는, ``{rel:로}`` gives worksFor 로 (see
:mod:`ont_platform.messages.particles`). With ``~`` before the particle it is glued on with no space and agrees
with the word inside a closing quote or before a closing parenthesis, as in a quotation or a column with its
name: ``{shown:~은}`` gives '10위'는 or 'top 10'은, ``{col:~이}`` gives 클릭(clicks_30d)이.

>>> say("entities.missing_start", "en", who="Hong")
'No start node for Hong is in the graph, so the first hop cannot be taken. Rather than guess, I stop here.'
>>> say("entities.near_miss", "ko", name="홍길둥", known="홍길동", node="p_hong")[:24]
"홍길둥은 그래프의 '홍길동'(p_hong)와"
>>> say("pages.bare_column", "ko", col="노출(impressions_30d)", label="노출", example="100 이상")[:26]
'노출(impressions_30d)은 지목됐지만'
>>> lang_of("Who does Hong work for?"), lang_of("홍길동은 어디서 일해?")
('en', 'ko')
"""

from __future__ import annotations

import re
import string
import tomllib
from collections.abc import Mapping
from functools import cache
from importlib import resources
from typing import Any, Literal

from ont_platform.messages.particles import PAIRS, attach, glued

Lang = Literal["ko", "en"]
LANGS: tuple[Lang, ...] = ("ko", "en")

_HANGUL = re.compile(r"[\uac00-\ud7a3\u1100-\u11ff\u3131-\u318e]")


def lang_of(text: str) -> Lang:
    """The language a reply to ``text`` is written in: Korean when the text holds any Hangul, else English."""
    return "ko" if _HANGUL.search(text) else "en"


class _Formatter(string.Formatter):
    """``str.format`` with Korean particles as format specs (``{name:은}``)."""

    def format_field(self, value: Any, format_spec: str) -> Any:
        if format_spec in PAIRS or format_spec in ("로", "으로"):
            return attach(str(value), format_spec)
        if format_spec[:1] == "~" and format_spec[1:] in PAIRS:
            return glued(str(value), format_spec[1:])
        return super().format_field(value, format_spec)


_FORMAT = _Formatter()


@cache
def catalogue() -> Mapping[str, Mapping[Lang, str]]:
    """Every message: ``{"<area>.<code>": {"ko": ..., "en": ...}}``, read once from the package's files."""
    out: dict[str, Mapping[Lang, str]] = {}
    for entry in sorted(resources.files(__package__).iterdir(), key=lambda e: e.name):
        if not entry.name.endswith(".toml"):
            continue
        area = entry.name.removesuffix(".toml")
        for code, texts in tomllib.loads(entry.read_text(encoding="utf-8")).items():
            out[f"{area}.{code}"] = {lang: texts[lang] for lang in LANGS if lang in texts}
    return out


def say(code: str, lang: Lang, /, **fields: object) -> str:
    """The text of ``code`` in ``lang``, with ``fields`` filled in. An unknown code or a missing field is a
    programming error (KeyError), found by the catalogue's tests, not by a user."""
    return _FORMAT.format(catalogue()[code][lang], **fields)


def fields_of(template: str) -> set[str]:
    """The field names a template fills in."""
    return {name for _, name, _, _ in _FORMAT.parse(template) if name}


__all__ = ["LANGS", "Lang", "catalogue", "fields_of", "lang_of", "say"]
