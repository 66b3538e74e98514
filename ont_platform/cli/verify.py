"""``ont verify``: check answer JSON lines against a graph, one verdict per answer.

Output: one JSON line per answer, ``{"id", "ok", "grounding_ok", "failures": [{"check", "detail"}]}``, in the
order of the file; a summary for people on stderr. Exit 0 when every answer passes, 1 when any does not, 2 for
unusable input (no dataset, unreadable files, an empty answer file).
"""

from __future__ import annotations

import argparse
import json
import os
import sys
import tempfile
from pathlib import Path

from ont_platform.errors import InputError


def cmd_verify(args: argparse.Namespace) -> int:
    from ont_platform.cli.common import EXIT_NEGATIVE, EXIT_OK, load_data, open_graph
    from ont_platform.verify import verify_file

    answers = args.answers
    spooled: Path | None = None
    try:
        if str(answers) == "-":
            # stdin goes through the same reader as a file (line and depth limits, line numbers): spool it
            spooled = _spool_stdin()
            source = spooled
        else:
            if not answers.is_file():
                raise InputError(f"no such file: {answers}")
            source = answers
        with open_graph(args) as kg:
            load_data(kg, args)
            if not kg.domains():
                raise InputError("no dataset to verify against: give --data DIR (or --store PATH holding one)")
            reports = verify_file(kg, source, questions=args.questions, isolation=args.isolation, timeout=args.timeout)
    except InputError as exc:
        if spooled is not None and str(spooled) in str(exc):
            raise InputError(str(exc).replace(str(spooled), "<stdin>")) from exc
        raise
    finally:
        if spooled is not None:
            spooled.unlink(missing_ok=True)
    if not reports:
        raise InputError(f"no answers in {answers}")
    for r in reports:
        sys.stdout.write(json.dumps(r.to_json(), ensure_ascii=False) + "\n")
    bad = [r for r in reports if not r.ok]
    ungrounded = sum(1 for r in reports if not r.grounding_ok)
    print(
        f"{len(reports)} answer(s): {len(reports) - len(bad)} ok, {len(bad)} failed, {ungrounded} not grounded",
        file=sys.stderr,
    )
    return EXIT_NEGATIVE if bad else EXIT_OK


def _spool_stdin() -> Path:
    """stdin copied into a private temporary file, for the JSON Lines reader."""
    fd, name = tempfile.mkstemp(prefix="ont-verify-", suffix=".jsonl")
    try:
        with os.fdopen(fd, "wb") as out:
            binary = getattr(sys.stdin, "buffer", None)  # absent when stdin was replaced by a text stream
            if binary is not None:
                for block in iter(lambda: binary.read(1 << 20), b""):
                    out.write(block)
            else:
                for text in iter(lambda: sys.stdin.read(1 << 20), ""):
                    out.write(text.encode("utf-8", "surrogatepass"))
    except BaseException as exc:
        Path(name).unlink(missing_ok=True)
        if isinstance(exc, OSError):
            raise InputError(f"cannot read stdin: {exc.strerror or exc}") from exc
        raise
    return Path(name)


def add_parser(sub: argparse._SubParsersAction[argparse.ArgumentParser]) -> argparse.ArgumentParser:
    """Register ``ont verify`` on the ``ont`` subcommand parser."""
    from ont_platform.cli.common import ontology_args, store_args

    p = sub.add_parser(
        "verify",
        help="check answers (ours or an LLM's) against the graph: schema, citations, paths, queries",
        description="Run the seeds' automatic checks on every answer of a JSON-lines file: JSON Schema, citation "
        "reality (edges, tx hashes, chunks, nodes, URLs), the path against a hop-limited BFS, decision "
        "consistency, inference confidence, the generated query (inspected, then run with a time "
        "limit), and for pages the URL set, the dictionaries and empty clarify/unsupported results. "
        "Exit 0 when all pass, 1 when any fails, 2 for unusable input.",
    )
    p.add_argument("answers", type=Path, metavar="ANSWERS.jsonl", help="one answer JSON per line (- for stdin)")
    p.add_argument(
        "--data",
        action="append",
        type=Path,
        metavar="DIR",
        help="dataset folder to load first (repeatable; or use --store)",
    )
    ontology_args(p)
    p.add_argument(
        "--questions",
        type=Path,
        metavar="FILE.jsonl",
        help='gold/questions lines {"id", "question", "expected"} joined on the answer id: enables the '
        "checks that need the question (start, target, hop limit) and the gold comparisons",
    )
    p.add_argument(
        "--isolation",
        choices=["thread", "process"],
        default="thread",
        help="where generated queries run: a thread of this process (default) or a child process "
        "that is killed when a query runs out of time",
    )
    p.add_argument("--timeout", type=float, metavar="SECONDS", help="time limit per generated query (default 10)")
    store_args(p)
    p.set_defaults(func=cmd_verify)
    return p
