"""``ont eval``: score answers against a gold set, measure two labellers' agreement, draw the spot-check sample.

* ``ont eval gold GOLD.jsonl --data DIR [--answers ANSWERS.jsonl]``: accuracy, decision accuracy, path match
  rate, URL-set exact match and verification pass rate, per intent; a table, or JSON with ``--json``.
* ``ont eval kappa A.csv B.csv``: Cohen's kappa of two label files (columns item_id,label, joined on item_id)
  with a seeded 95 % bootstrap interval, as JSON ``{"kappa", "ci_low", "ci_high", "n"}``; with ``--require X``
  exit 1 when the lower bound is below X (or kappa is undefined).
* ``ont eval sample ANSWERS.jsonl --rate 0.05``: a stratified, seeded sample as CSV for people to label.

Exit codes as for every ``ont`` command: 0 done, 1 a requirement not met, 2 unusable input.
"""

from __future__ import annotations

import argparse
import json
import sys
from pathlib import Path

from ont_platform.errors import InputError


def cmd_gold(args: argparse.Namespace) -> int:
    from ont_platform.cli.common import EXIT_OK, load_data, open_graph
    from ont_platform.evaluate import evaluate_gold

    if not args.gold.is_file():
        raise InputError(f"no such file: {args.gold}")
    with open_graph(args) as kg:
        load_data(kg, args)
        if not kg.domains():
            raise InputError("no dataset to evaluate on: give --data DIR (or --store PATH holding one)")
        report = evaluate_gold(kg, args.gold, answers=args.answers, verify=not args.no_verify, isolation=args.isolation)
    if args.json:
        sys.stdout.write(json.dumps(report.to_json(), ensure_ascii=False) + "\n")
    else:
        sys.stdout.write(report.table())
    return EXIT_OK


def cmd_kappa(args: argparse.Namespace) -> int:
    from ont_platform.cli.common import EXIT_NEGATIVE, EXIT_OK
    from ont_platform.evaluate import kappa_files

    result, unmatched = kappa_files(
        args.a, args.b, resamples=args.resamples, confidence=args.confidence, seed=args.seed
    )
    if unmatched["only_a"] or unmatched["only_b"]:
        print(
            f"note: {unmatched['only_a']} item(s) labelled only in {args.a}, {unmatched['only_b']} only in "
            f"{args.b}; they are left out",
            file=sys.stderr,
        )
    sys.stdout.write(json.dumps(result.to_json()) + "\n")
    if args.require is not None and (result.ci_low is None or result.ci_low < args.require):
        print(f"agreement requirement not met: lower bound {result.ci_low} < {args.require}", file=sys.stderr)
        return EXIT_NEGATIVE
    return EXIT_OK


def cmd_sample(args: argparse.Namespace) -> int:
    from ont_platform.cli.common import EXIT_OK
    from ont_platform.evaluate import stratified_sample, write_sample_csv
    from ont_platform.jsonl import strict_jsonl
    from ont_platform.verify import read_gold

    answers = [doc for _n, doc in strict_jsonl(args.answers)]
    if not answers:
        raise InputError(f"no answers in {args.answers}")
    questions = None
    if args.questions is not None:
        questions = {k: str(v.get("question", "")) for k, v in read_gold(args.questions).items()}
    rows = stratified_sample(answers, rate=args.rate, seed=args.seed, questions=questions)
    write_sample_csv(rows, args.out if args.out is not None else sys.stdout)
    strata = sorted({r.stratum for r in rows})
    print(
        f"sampled {len(rows)} of {len(answers)} answer(s) from {len(strata)} "
        f"{'stratum' if len(strata) == 1 else 'strata'} "
        f"(rate {args.rate}, seed {args.seed})",
        file=sys.stderr,
    )
    return EXIT_OK


def add_parser(sub: argparse._SubParsersAction[argparse.ArgumentParser]) -> argparse.ArgumentParser:
    """Register ``ont eval gold|kappa|sample`` on the ``ont`` subcommand parser."""
    from ont_platform.cli.common import ontology_args, store_args
    from ont_platform.evaluate.kappa import DEFAULT_RESAMPLES
    from ont_platform.evaluate.kappa import DEFAULT_SEED as KAPPA_SEED
    from ont_platform.evaluate.sample import DEFAULT_RATE
    from ont_platform.evaluate.sample import DEFAULT_SEED as SAMPLE_SEED

    p = sub.add_parser(
        "eval",
        help="score a gold set, measure labeller agreement, draw the spot-check sample",
        description="Evaluation: gold-set accuracy, Cohen's kappa of two labellers, and the "
        "stratified spot-check sample.",
    )
    inner = p.add_subparsers(dest="eval_command", metavar="WHAT", required=True)

    g = inner.add_parser(
        "gold",
        help="accuracy, decision accuracy, path match, URL-set match per intent",
        description='Score answers against a gold file (lines {"id", "question", '
        '"expected"}; the examples\' questions.jsonl files are gold files). Without '
        "--answers the questions are answered now.",
    )
    g.add_argument("gold", type=Path, metavar="GOLD.jsonl")
    g.add_argument("--data", action="append", type=Path, metavar="DIR", help="dataset folder to load (repeatable)")
    ontology_args(g)
    g.add_argument(
        "--answers",
        type=Path,
        metavar="ANSWERS.jsonl",
        help="score these answers (joined on q_id/query_id, or the question for pages) instead of asking",
    )
    g.add_argument("--no-verify", action="store_true", help="skip the verification checks (verified_rate)")
    g.add_argument(
        "--isolation",
        choices=["thread", "process"],
        default="thread",
        help="where generated queries run during verification",
    )
    g.add_argument("--json", action="store_true", help="JSON instead of the table")
    store_args(g)
    g.set_defaults(func=cmd_gold)

    k = inner.add_parser(
        "kappa",
        help="Cohen's kappa of two label files with a bootstrap interval",
        description="Cohen's kappa of two CSV files with columns item_id,label (joined on item_id, "
        "any order; other columns ignored; empty labels skipped), with a seeded "
        'percentile-bootstrap interval. Prints {"kappa", "ci_low", "ci_high", '
        '"n"}; kappa is null when undefined (one label used by both for everything).',
    )
    k.add_argument("a", type=Path, metavar="A.csv")
    k.add_argument("b", type=Path, metavar="B.csv")
    k.add_argument(
        "--resamples", type=int, default=DEFAULT_RESAMPLES, help=f"bootstrap resamples (default {DEFAULT_RESAMPLES})"
    )
    k.add_argument("--confidence", type=float, default=0.95, help="interval level (default 0.95)")
    k.add_argument("--seed", type=int, default=KAPPA_SEED, help=f"bootstrap seed (default {KAPPA_SEED})")
    k.add_argument(
        "--require",
        type=float,
        metavar="LOW",
        help="exit 1 unless the interval's lower bound is at least LOW (the seeds ask for 0.6)",
    )
    k.set_defaults(func=cmd_kappa)

    s = inner.add_parser(
        "sample",
        help="stratified spot-check sample of answers as CSV",
        description="Draw ceil(rate x size) answers from each stratum (contract and intent, "
        "decision or status) with a fixed seed, as CSV with empty label and note "
        "columns for people to fill in.",
    )
    s.add_argument("answers", type=Path, metavar="ANSWERS.jsonl")
    s.add_argument("--rate", type=float, default=DEFAULT_RATE, help=f"share per stratum (default {DEFAULT_RATE})")
    s.add_argument("--seed", type=int, default=SAMPLE_SEED, help=f"sampling seed (default {SAMPLE_SEED})")
    s.add_argument("--questions", type=Path, metavar="FILE.jsonl", help="questions to show beside each answer")
    s.add_argument("--out", type=Path, metavar="FILE.csv", help="write here instead of stdout")
    s.set_defaults(func=cmd_sample)
    return p
