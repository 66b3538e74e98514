"""How columns, values and choices are written in hedges, so every message names things the same way.

A column is shown with its label in the question's language and its name ('클릭(clicks_30d)', 'clicks
(clicks_30d)'), so the reader can repeat either; a value as the filter text shows it ('1000', '0.05',
'2026-01-01'). The words around them come from the message catalogue (``ont_platform/messages/pages.toml``),
where Korean particles follow the word they attach to.
"""

from __future__ import annotations

from collections.abc import Iterable
from datetime import date
from decimal import Decimal

from ont_platform.messages import Lang, say
from ont_platform.qa.pages.vocabulary import Concept, PageColumn, PageVocabulary


def label(col: PageColumn, lang: Lang) -> str:
    """The column's label in ``lang`` (its name when it has no English one)."""
    return col.label if lang == "ko" else col.label_en or col.name


def concept_label(concept: Concept, lang: Lang) -> str:
    return concept.label if lang == "ko" else concept.label_en or concept.label


def named(col: PageColumn, lang: Lang) -> str:
    """'클릭(clicks_30d)', 'clicks (clicks_30d)'."""
    return say("pages.column", lang, label=label(col, lang), name=col.name)


def listed(cols: Iterable[PageColumn], lang: Lang) -> str:
    return ", ".join(named(c, lang) for c in cols)


def quote(text: str) -> str:
    """A text value as filters write it: single quotes, with quotes and backslashes escaped."""
    return "'" + text.replace("\\", "\\\\").replace("'", "\\'") + "'"


def fmt(value: Decimal | date | bool | str) -> str:
    if isinstance(value, bool):
        return "true" if value else "false"
    if isinstance(value, str):
        return quote(value)
    if isinstance(value, date):
        return value.isoformat()
    if value == value.to_integral_value():
        return str(int(value))
    return format(value.normalize(), "f")


def example(col: PageColumn, lang: Lang) -> str:
    """A threshold a person could write for ``col`` ('100 이상', 'at least 100')."""
    if col.rank:
        return say("pages.example_rank", lang)
    return say(_EXAMPLES.get(col.type, "pages.example_integer"), lang)


_EXAMPLES = {
    "integer": "pages.example_integer",
    "decimal": "pages.example_decimal",
    "date": "pages.example_date",
    "boolean": "pages.example_boolean",
    "text": "pages.example_text",
}


def options(vocab: PageVocabulary, related: Iterable[str], evaluation: Concept | None, lang: Lang) -> str:
    """The columns a vague measure or judgement could be about, as a choice to make ('노출(impressions_30d)이
    높은 쪽인지 클릭(clicks_30d)이 많은 쪽인지', 'whether you mean high impressions (…) or many clicks (…)')."""
    cols = [vocab.columns[n] for n in related if n in vocab.columns]
    if len(cols) < 2:
        cols = [c for c in vocab.columns.values() if c.type == "integer"][:2]
    poor = evaluation is not None and evaluation.iri.endswith("poorResult")
    good = evaluation is not None and not poor
    parts = []
    for i, c in enumerate(cols):
        last = i == len(cols) - 1
        if poor:
            code = "pages.option_none" if last else "pages.option_low"
        elif good:
            code = "pages.option_many" if last else "pages.option_high"
        else:
            code = "pages.option_by"
        parts.append(say(code, lang, col=named(c, lang)))
    joined = say("pages.options_joiner", lang).join(parts)
    return say("pages.options_judged" if poor or good else "pages.options_which", lang, parts=joined)
