"""Score ont_platform's question answering on held-out set 4 (questions.jsonl, made by build.py).

This runs the scorer of held-out set 2 (``benchmarks/heldout2/score.py``: same rules for "correct", same
outcomes, same table) on this set's questions, writing per-question outcomes to this folder's results.json.

Usage (from the repository root):
  .venv/bin/python benchmarks/heldout4/score.py --dry-run   # parse and check questions.jsonl, ask nothing
  .venv/bin/python benchmarks/heldout4/score.py             # ask every question once, print the table
  .venv/bin/python benchmarks/heldout4/score.py --json      # also write results.json (per question)
  .venv/bin/python benchmarks/heldout4/score.py --cli       # through the `ont` command instead of the API

This set must not be used for tuning: see README.md.
"""
import sys
from pathlib import Path

HERE = Path(__file__).resolve().parent
sys.path.insert(0, str(HERE.parent))
from heldout_score import score  # noqa: E402

if __name__ == "__main__":
    score(HERE)
