"""python -m benchmarks.heldout_kit build|score|report SET ...  (see README.md beside this file)."""

from __future__ import annotations

import argparse
import sys

from . import sets


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


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(prog="python -m benchmarks.heldout_kit", description=__doc__)
    sub = ap.add_subparsers(dest="command", required=True)
    b = sub.add_parser("build", help="compute every gold from the set's spec and write its questions.jsonl")
    b.add_argument("set", help="1 .. 8, films, or a set's folder")
    b.add_argument("-v", "--verbose", action="store_true", help="print every gold")
    b.add_argument("--check", action="store_true", help="write nothing; exit 1 if questions.jsonl differs")
    b.set_defaults(run=build)
    args = ap.parse_args(argv)
    return args.run(args)


if __name__ == "__main__":
    sys.exit(main())
