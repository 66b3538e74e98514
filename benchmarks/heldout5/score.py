"""Score ont_platform on held-out set 5 with the scorer of set 2 (../heldout2/score.py).

This runs ``benchmarks/heldout2/score.py`` unchanged, pointed at this folder: ``--questions`` is
``heldout5/questions.jsonl`` and ``--out`` is ``heldout5/results.json`` unless given. Every other argument is
passed on (``--dry-run``, ``--json``, ``--cli``). The outcomes and the definition of "correct" are in the
docstring of that scorer.

Usage (from the repository root):
  .venv/bin/python benchmarks/heldout5/score.py --dry-run   # parse and check questions.jsonl, ask nothing
  .venv/bin/python benchmarks/heldout5/score.py             # ask every question once, print the table
  .venv/bin/python benchmarks/heldout5/score.py --json      # also write results.json (per question)
  .venv/bin/python benchmarks/heldout5/score.py --cli       # through the `ont` command instead of the API

Do not use this set for tuning: see README.md.
"""
import sys
from pathlib import Path

HERE = Path(__file__).resolve().parent
sys.path.insert(0, str(HERE.parent))
from heldout_score import score  # noqa: E402

if __name__ == "__main__":
    score(HERE)
