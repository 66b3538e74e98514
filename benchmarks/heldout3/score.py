"""Score ont_platform's question answering on held-out set 3 (questions.jsonl, made by build.py).

The scoring is held-out set 2's, unchanged (``../heldout2/score.py``: the outcome definitions -- correct,
confidently wrong, safe miss -- and the printed table); this file only points it at set 3's questions and
results file. Every question is asked exactly once.

Usage (from the repository root):
  .venv/bin/python benchmarks/heldout3/score.py --dry-run        # parse and check questions.jsonl, ask nothing
  .venv/bin/python benchmarks/heldout3/score.py                  # ask every question once, print the table
  .venv/bin/python benchmarks/heldout3/score.py --json           # also write results.json (per question)

This set must not be used for tuning: see README.md.
"""

from __future__ import annotations

import runpy
import sys
from pathlib import Path

HERE = Path(__file__).resolve().parent

if __name__ == "__main__":
    sys.argv = [sys.argv[0], "--questions", str(HERE / "questions.jsonl"), "--out", str(HERE / "results.json"),
                *sys.argv[1:]]
    runpy.run_path(str(HERE.parent / "heldout2" / "score.py"), run_name="__main__")
