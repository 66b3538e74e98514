"""Read a set's results.json again: the table, the misses, or a question-by-question comparison with another run."""

from __future__ import annotations

import json
from collections import Counter
from pathlib import Path

from .score import table


def load(path: Path) -> list[dict]:
    return json.loads(path.read_text(encoding="utf-8"))


def misses(results: list[dict]) -> str:
    """Every question whose outcome is not correct: id, outcome, what the reply was, the question."""
    return "\n".join(
        f"{r['id']:12s} {r['outcome']:17s} {r.get('detail', '')}  | {r['question']}"
        for r in results
        if r["outcome"] != "correct"
    )


def compare(results: list[dict], other: list[dict]) -> tuple[bool, str]:
    """Question by question: the same ids, the same outcome, and every field of ``other``'s rows equal here."""
    mine = {r["id"]: r for r in results}
    theirs = {r["id"]: r for r in other}
    lines = []
    if set(mine) != set(theirs):
        lines.append(
            f"ids differ: only here {sorted(set(mine) - set(theirs))}, only there {sorted(set(theirs) - set(mine))}"
        )
    same_outcome = same_row = 0
    for qid in sorted(set(mine) & set(theirs)):
        a, b = mine[qid], theirs[qid]
        if a["outcome"] == b["outcome"]:
            same_outcome += 1
        else:
            lines.append(f"{qid}: outcome {b['outcome']} there, {a['outcome']} here")
        diff = sorted(k for k in b if a.get(k, object()) != b[k])
        if diff:
            lines.append(f"{qid}: fields differ: {diff}")
        else:
            same_row += 1
    n = len(theirs)
    counts = dict(Counter(r["outcome"] for r in results))
    head = (
        f"{n} questions there, {len(mine)} here; same outcome {same_outcome}/{n}; "
        f"every field of the other row equal {same_row}/{n}; outcomes here {counts}"
    )
    return not lines, "\n".join([head, *lines])


__all__ = ["compare", "load", "misses", "table"]
