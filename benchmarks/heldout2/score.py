"""Set 2's scorer, at the path held-out sets 9 and 10 load it from; the kit scores set 2 itself.

Sets 9 and 10 (left as they are until they are measured) load this file by path, replace its ``judge`` with
one that adds their own onchain kinds, and call ``main()`` with ``--questions``/``--out``. Everything here is
the kit's (benchmarks/heldout_kit: ``judge.judge`` is the ``contract`` judge that was set 2's); ``main`` looks
``judge`` up in this module when it runs, so their replacement is used. To score set 2 itself:
``python -m benchmarks.heldout_kit score 2``. Remove this file once sets 9 and 10 are scored by the kit.
"""

import argparse
import sys
from pathlib import Path

HERE = Path(__file__).resolve().parent
sys.path.insert(0, str(HERE.parents[1]))
from benchmarks.heldout_kit.judge import OnchainCheck, judge  # noqa: F401  (names sets 9 and 10 use)
from benchmarks.heldout_kit.score import dry_run, load_items, score


def main() -> int:
    ap = argparse.ArgumentParser(description="score a held-out set with the contract judge")
    ap.add_argument("--questions", default=str(HERE / "questions.jsonl"))
    ap.add_argument("--dry-run", action="store_true", help="parse and check the question file; ask nothing")
    ap.add_argument("--cli", action="store_true", help="ask through the `ont` command instead of the Python API")
    ap.add_argument("--json", action="store_true", help="write per-question outcomes to --out")
    ap.add_argument("--out", default=str(HERE / "results.json"))
    args = ap.parse_args()
    items = load_items(Path(args.questions))
    if args.dry_run:
        return dry_run(items)
    score(items, judge, out=Path(args.out) if args.json else None, cli=args.cli)
    return 0


if __name__ == "__main__":
    sys.exit(main())
