"""python -m benchmarks.heldout_kit build|score|report SET ...  (see README.md beside this file)."""

from __future__ import annotations

import argparse
import sys
from pathlib import Path

from . import report, sets


def build(args: argparse.Namespace) -> int:
    folder = sets.folder_of(args.set)
    text = sets.gold_rules(sets.config_of(folder)).build(folder, sets.config_of(folder), verbose=args.verbose)
    target = folder / "questions.jsonl"
    n = text.count("\n")
    if args.check:
        same = target.is_file() and target.read_text(encoding="utf-8") == text
        print(f"{target}: {'up to date' if same else 'OUT OF DATE'} ({n} questions)")
        return 0 if same else 1
    target.write_text(text, encoding="utf-8")
    print(f"wrote {n} questions to {target}")
    return 0


def score(args: argparse.Namespace) -> int:
    from . import score as sc

    folder = sets.folder_of(args.set)
    config = sets.config_of(folder)
    items, judge = sc.set_items(folder, config)
    if args.dry_run:
        return sc.dry_run(items)
    out = Path(args.out) if args.out else folder / "results.json"
    sc.score(items, judge, out=out, cli=args.cli, with_domain=config.get("ask_with_domain", True))
    return 0


def show(args: argparse.Namespace) -> int:
    folder = sets.folder_of(args.set)
    results = report.load(Path(args.results) if args.results else folder / "results.json")
    print(report.table(results))
    if args.misses:
        print(report.misses(results))
    if args.compare:
        same, text = report.compare(results, report.load(Path(args.compare)))
        print(text)
        return 0 if same else 1
    return 0


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(prog="python -m benchmarks.heldout_kit", description=__doc__)
    sub = ap.add_subparsers(dest="command", required=True)
    b = sub.add_parser("build", help="compute every gold from the set's spec and write its questions.jsonl")
    b.add_argument("set", help="1 .. 8, films, or a set's folder")
    b.add_argument("-v", "--verbose", action="store_true", help="print every gold")
    b.add_argument("--check", action="store_true", help="write nothing; exit 1 if questions.jsonl differs")
    b.set_defaults(run=build)
    s = sub.add_parser("score", help="ask every question once, print the table, write results.json")
    s.add_argument("set", help="1 .. 8, films, or a set's folder")
    s.add_argument("--dry-run", action="store_true", help="parse and check questions.jsonl; ask nothing")
    s.add_argument("--cli", action="store_true", help="ask through the `ont` command instead of the Python API")
    s.add_argument("--out", help="where to write the per-question results (default: the set's results.json)")
    s.set_defaults(run=score)
    r = sub.add_parser("report", help="the table of a results.json again, its misses, or a comparison")
    r.add_argument("set", help="1 .. 8, films, or a set's folder")
    r.add_argument("--results", help="the results file to read (default: the set's results.json)")
    r.add_argument("--misses", action="store_true", help="list every question whose outcome is not correct")
    r.add_argument("--compare", metavar="OTHER", help="compare with another results file, question by question")
    r.set_defaults(run=show)
    args = ap.parse_args(argv)
    return args.run(args)


if __name__ == "__main__":
    sys.exit(main())
