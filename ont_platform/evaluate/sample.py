"""The spot-check sample for people: a stratified, seeded share of the answers, written as CSV to label.

Answers are grouped by stratum — the contract and its intent, decision or status (``onchain:cluster_lookup``,
``kg:refuse``, ``pages:clarify``) — and from each stratum ``ceil(rate × size)`` answers are drawn (so every
stratum, however small, is looked at at least once). The draw in each stratum uses its own generator seeded
with ``seed`` and the stratum's name, so adding answers of one kind never changes the sample of another.

The CSV has the columns ``item_id, stratum, question, summary, label, note``; two people fill in ``label``
on copies of it and ``ont eval kappa`` compares the copies. It is written to be opened in a spreadsheet: a
cell that starts with ``= + - @``, a tab or a carriage return (an answer's id or question is anyone's text)
gets a leading ``'`` (:func:`ont_platform.text_policy.spreadsheet_cell`), so it shows as text and never runs
as a formula. The ``item_id`` column then holds ``'=1+1`` for an answer whose id is ``=1+1``.
"""

from __future__ import annotations

import csv
import io
import math
import random
from collections.abc import Iterable, Mapping
from dataclasses import dataclass
from pathlib import Path
from typing import Any, TextIO

from ont_platform.errors import InputError
from ont_platform.text_policy import spreadsheet_cell

DEFAULT_RATE = 0.05
DEFAULT_SEED = 20240501
COLUMNS = ("item_id", "stratum", "question", "summary", "label", "note")


@dataclass(frozen=True)
class SampleRow:
    """One answer picked for review."""

    item_id: str
    stratum: str
    question: str
    summary: str


def stratum_of(answer: Mapping[str, Any]) -> str:
    """``onchain:<intent>``, ``kg:<decision>`` or ``pages:<status>``; ``unknown`` for anything else."""
    if "intent" in answer or "q_id" in answer:
        return f"onchain:{answer.get('intent')}"
    if "decision" in answer or "query_id" in answer:
        return f"kg:{answer.get('decision')}"
    if "status" in answer:
        return f"pages:{answer.get('status')}"
    return "unknown"


def summary_of(answer: Mapping[str, Any]) -> str:
    """A one-line account of the answer for the person reviewing it."""
    raw = answer.get("path")
    path: list[Any] = raw if isinstance(raw, list) else []
    if "intent" in answer or "q_id" in answer:
        edges = "; ".join(
            f"{e.get('edge_id')} {e.get('from')}→{e.get('to')} tx={e.get('tx_hash')}"
            for e in path
            if isinstance(e, dict)
        )
        return (
            f"{answer.get('intent')} | confidence={answer.get('confidence')} | path: {edges or '-'} | "
            f"cited: {', '.join(map(str, answer.get('cited_nodes') or [])) or '-'} | {answer.get('answer_ko', '')}"
        )
    if "decision" in answer or "query_id" in answer:
        hops = "; ".join(
            f"{h.get('src')} -{h.get('rel')}-> {h.get('dst')} [{h.get('chunk_id')}]"
            for h in path
            if isinstance(h, dict)
        )
        return (
            f"{answer.get('decision')} {answer.get('answer') or ''} | factors: "
            f"{', '.join(map(str, answer.get('factors') or [])) or '-'} | path: {hops or '-'} | "
            f"{answer.get('reason', '')}"
        )
    if "status" in answer:
        urls = ", ".join(str(m.get("url")) for m in answer.get("matched") or [] if isinstance(m, dict))
        return (
            f"{answer.get('status')} | {answer.get('parsed_filter') or '-'} | count={answer.get('count')} | "
            f"{urls or '-'} | {answer.get('hedge', '')}"
        )
    return str(dict(answer))[:300]


def _item_id(answer: Mapping[str, Any], n: int) -> str:
    for key in ("q_id", "query_id", "id", "question"):
        value = answer.get(key)
        if isinstance(value, (str, int)) and str(value):
            return str(value)
    return f"line {n}"


def stratified_sample(
    answers: Iterable[Mapping[str, Any]],
    *,
    rate: float = DEFAULT_RATE,
    seed: int = DEFAULT_SEED,
    questions: Mapping[str, str] | None = None,
) -> list[SampleRow]:
    """Pick ``ceil(rate × size)`` answers of each stratum (see the module documentation), sorted by stratum
    and item id. ``questions`` maps answer ids to question text for the ``question`` column."""
    if not 0 < rate <= 1:
        raise InputError(f"rate must be in (0, 1], got {rate}")
    strata: dict[str, list[tuple[str, Mapping[str, Any]]]] = {}
    seen: dict[str, int] = {}
    for n, answer in enumerate(answers, 1):
        if not isinstance(answer, Mapping):
            raise InputError(f"answer {n} is not a JSON object")
        item = _item_id(answer, n)
        seen[item] = seen.get(item, 0) + 1
        if seen[item] > 1:
            item = f"{item}#{seen[item]}"
        strata.setdefault(stratum_of(answer), []).append((item, answer))
    rows: list[SampleRow] = []
    for name in sorted(strata):
        members = sorted(strata[name], key=lambda x: x[0])
        k = min(len(members), max(1, math.ceil(rate * len(members) - 1e-9)))
        picked = random.Random(f"{seed}|{name}").sample(members, k)
        for item, answer in sorted(picked, key=lambda x: x[0]):
            question = (questions or {}).get(item) or str(answer.get("question") or "")
            rows.append(SampleRow(item, name, question, summary_of(answer)))
    return rows


def write_sample_csv(rows: Iterable[SampleRow], out: str | Path | TextIO) -> None:
    """Write the sample with an empty ``label`` and ``note`` column for people to fill in; every cell is made
    safe to open in a spreadsheet (see the module documentation)."""
    buf = io.StringIO()
    writer = csv.writer(buf, lineterminator="\n")
    # csv quotes a cell with a line break only when the break is in the line terminator ("\n"): a row with a
    # bare carriage return in a cell is written with every cell quoted, or a reader would split the row there
    quoted = csv.writer(buf, lineterminator="\n", quoting=csv.QUOTE_ALL)
    writer.writerow(COLUMNS)
    for r in rows:
        cells = [spreadsheet_cell(c) for c in (r.item_id, r.stratum, r.question, r.summary)] + ["", ""]
        (quoted if any("\r" in c for c in cells) else writer).writerow(cells)
    if isinstance(out, (str, Path)):
        try:
            Path(out).write_text(buf.getvalue(), encoding="utf-8")
        except OSError as exc:
            raise InputError(f"cannot write {out}: {exc}") from exc
    else:
        out.write(buf.getvalue())
