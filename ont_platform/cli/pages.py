"""``ont pages "질문" --inventory FILE_OR_DIR [--json]``: one filter question over a page inventory.

The inventory is a dataset folder (``pages.csv`` with optional ``columns.csv``, ``predicates.csv`` and
``meta.json``) or a lone CSV file, which is read as ``pages.csv`` together with whichever of those files lie
next to it. Exit codes as ``ont``: 0 the filter ran, 1 the answer is clarify or unsupported, 2 unusable input.
"""

from __future__ import annotations

import argparse
import json
import shutil
import sys
import tempfile
from pathlib import Path
from typing import Any

from ont_platform.errors import InputError

_COMPANIONS = ("columns.csv", "predicates.csv", "meta.json")


def add_parser(sub: Any) -> argparse.ArgumentParser:
    """Register ``pages`` on the ``ont`` subcommand parsers."""
    p: argparse.ArgumentParser = sub.add_parser(
        "pages",
        help="turn a Korean question into a filter over a page inventory and run it",
        description="Read a question about a page inventory ('노출은 꽤 되는데 클릭이 하나도 없는 페이지') into "
        "conditions on its columns, run them, and print the matched pages with the values that "
        "matched. A question whose measure is not named gets 'clarify'; one about a measure the "
        "inventory has no column for gets 'unsupported'. Neither lists pages.",
    )
    p.add_argument("question", help="the question, in Korean or English")
    p.add_argument(
        "--inventory",
        required=True,
        type=Path,
        metavar="FILE_OR_DIR",
        help="pages.csv, or a dataset folder holding it (columns.csv, predicates.csv and meta.json "
        "beside it are used too)",
    )
    p.add_argument("--json", action="store_true", help="print the answer as one JSON object (seed 004 contract)")
    p.set_defaults(func=cmd_pages)
    return p


def cmd_pages(args: argparse.Namespace) -> int:
    """Load the inventory into an in-memory graph, answer, print; the exit code follows the status."""
    from ont_platform.cli.common import EXIT_NEGATIVE, EXIT_OK
    from ont_platform.kg import KnowledgeGraph

    source = Path(args.inventory)
    with tempfile.TemporaryDirectory(prefix="ont-pages-") as tmp:
        try:
            folder = _dataset_folder(source, Path(tmp))
        except OSError as exc:  # a path the file system cannot even look up (too long, a loop...)
            raise InputError(f"cannot use inventory path: {exc.strerror or exc}") from exc
        with KnowledgeGraph.open() as kg:
            loaded = kg.load(folder)
            result = kg.ask(args.question, domain=loaded.domain).to_json()
    if args.json:
        sys.stdout.write(json.dumps(result, ensure_ascii=False) + "\n")
    else:
        sys.stdout.write(render(result))
    return EXIT_OK if result["status"] == "ran" else EXIT_NEGATIVE


def _dataset_folder(source: Path, scratch: Path) -> Path:
    """The folder to load: ``source`` itself, or a scratch folder with a lone CSV copied in as pages.csv."""
    if source.is_dir():
        return source
    if not source.is_file():
        raise InputError(f"no such inventory: {source}")
    if source.suffix.lower() != ".csv":
        raise InputError(f"an inventory is a .csv file or a dataset folder, got {source}")
    shutil.copyfile(source, scratch / "pages.csv")
    for name in _COMPANIONS:
        companion = source.parent / name
        if companion.is_file() and companion.resolve() != source.resolve():
            shutil.copyfile(companion, scratch / name)
    return scratch


def render(result: dict[str, Any]) -> str:
    """The readable view: status, filter, matched pages with their values, and the note."""
    lines = [f"status: {result['status']}"]
    if result["status"] == "ran":
        lines.append(f"filter: {result['parsed_filter']}")
        lines.append(f"columns: {', '.join(result['columns_used'])}")
        lines.append(f"matched: {result['count']}")
        width = max((len(m["url"]) for m in result["matched"]), default=0)
        for m in result["matched"]:
            lines.append(f"  {m['url'].ljust(width)}  {m['evidence']}")
    lines.append(f"note: {result['hedge']}")
    return "\n".join(lines) + "\n"
