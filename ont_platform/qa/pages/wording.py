"""How columns, values and choices are written in hedges, so every message names things the same way.

A column is shown with its Korean label and its name ('클릭(clicks_30d)'), so the reader can repeat either; a
value as the filter text shows it ('1000', '0.05', '2026-01-01'); particles follow the word they attach to.
"""

from __future__ import annotations

from collections.abc import Iterable
from datetime import date
from decimal import Decimal

from ont_platform.qa.korean import josa
from ont_platform.qa.pages.vocabulary import Concept, PageColumn, PageVocabulary


def ko(col: PageColumn) -> str:
    return f"{col.label}({col.name})"


def particle(word: str, with_batchim: str, without: str) -> str:
    return josa(word, with_batchim, without)[len(word) :].strip()


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


def example(col: PageColumn) -> str:
    if col.rank:
        return "10위 이내"
    return {
        "integer": "100 이상",
        "decimal": "0.5 이상",
        "date": "2026-01-01 이후",
        "boolean": "false 인",
        "text": "'세일' 포함",
    }.get(col.type, "100 이상")


def options(vocab: PageVocabulary, related: Iterable[str], evaluation: Concept | None) -> str:
    cols = [vocab.columns[n] for n in related if n in vocab.columns]
    if len(cols) < 2:
        cols = [c for c in vocab.columns.values() if c.type == "integer"][:2]
    poor = evaluation is not None and evaluation.iri.endswith("poorResult")
    good = evaluation is not None and not poor
    parts = []
    for i, c in enumerate(cols):
        last = i == len(cols) - 1
        if poor:
            parts.append(f"{ko(c)}{particle(c.label, '이', '가')} {'없는' if last else '낮은'} 쪽인지")
        elif good:
            parts.append(f"{ko(c)}{particle(c.label, '이', '가')} {'많은' if last else '높은'} 쪽인지")
        else:
            parts.append(f"{ko(c)} 기준인지")
    return " ".join(parts) + ("" if poor or good else ", 어떤 조건으로 볼지")
