"""``ont query``: run a SPARQL query file over a graph, with or without reasoning.

Output on stdout: a SELECT as tab-separated rows under a header of its variables (terms in N-Triples syntax, an
unbound variable empty), an ASK as ``true``/``false``, a CONSTRUCT or DESCRIBE as N-Triples. With
``--reasoning`` every entailed fact is marked: a SELECT gets a last column ``entailed`` listing the entailed
triples its row rests on (N-Triples statements separated by ``;``), a graph's entailed triples end with
``# entailed``. ``--json`` prints one JSON object per row (``{"row": {...}, "entailed": [[s, p, o], ...]}``), per
triple (``{"triple": [s, p, o], "entailed": bool}``) or the ASK's ``{"boolean": ...}``. A summary for people
goes to stderr. Exit 0 when the query ran (an empty result included), 2 for a refused or unreadable query.
"""

from __future__ import annotations

import argparse
import json
import sys
import time
from collections.abc import Sequence
from pathlib import Path
from typing import TYPE_CHECKING, Any

from ont_platform.errors import InputError, QueryRefused

if TYPE_CHECKING:
    from rdflib import Graph
    from rdflib.term import Node


def cmd_query(args: argparse.Namespace) -> int:
    from ont_platform.cli.common import EXIT_OK, load_data, open_graph
    from ont_platform.storage import Rows

    text = _read_query(args.file)
    with open_graph(args) as kg:
        load_data(kg, args)
        started = time.perf_counter()
        if args.reasoning:
            for e in kg.entailments():
                if e.computed:
                    print(
                        f"reasoning: {e.triples} triples entailed by the {e.domain} ontology, computed in "
                        f"{e.seconds:.2f} s",
                        file=sys.stderr,
                    )
                for line in e.ignored:
                    print(f"reasoning over {e.domain} does not apply {line}", file=sys.stderr)
        try:
            result = kg.query(text, reasoning=args.reasoning)
        except QueryRefused as exc:  # the caller's text: unusable input, exit 2
            raise InputError(str(exc)) from exc
        seconds = time.perf_counter() - started
    if isinstance(result, bool):
        sys.stdout.write(json.dumps({"boolean": result}) + "\n" if args.json else f"{str(result).lower()}\n")
        print(f"ASK: {str(result).lower()} in {seconds:.2f} s", file=sys.stderr)
    elif isinstance(result, Rows):
        _rows(result, args.json, args.reasoning)
        resting = sum(1 for e in result.entailed or () if e)
        note = f" ({resting} resting on entailed facts)" if args.reasoning else ""
        more = " (cut at the row limit: more rows matched)" if result.truncated else ""
        print(f"{len(result)} row(s){note}{more} in {seconds:.2f} s", file=sys.stderr)
    else:
        _graph(result, args.json, args.reasoning)
        entailed = len(getattr(result, "entailed", ()))
        note = f" ({entailed} entailed)" if args.reasoning else ""
        more = " (cut at the limit)" if getattr(result, "truncated", False) else ""
        print(f"{len(result)} triple(s){note}{more} in {seconds:.2f} s", file=sys.stderr)
    return EXIT_OK


def _read_query(path: Path) -> str:
    try:
        text = sys.stdin.read() if str(path) == "-" else path.read_text(encoding="utf-8")
    except (OSError, UnicodeDecodeError) as exc:
        raise InputError(f"cannot read the query {path}: {exc}") from exc
    if not text.strip():
        raise InputError(f"{path} holds no query")
    return text


def _term(node: Node | None) -> str:
    return "" if node is None else str(node.n3())


def _triple(t: Sequence[Node]) -> list[str]:
    return [_term(x) for x in t]


def _rows(rows: Any, as_json: bool, reasoning: bool) -> None:
    names = list(rows[0].keys()) if rows else []
    entailed = rows.entailed or [()] * len(rows)
    if not as_json and names:
        sys.stdout.write("\t".join([*names, *(["entailed"] if reasoning else [])]) + "\n")
    for row, facts in zip(rows, entailed, strict=True):
        if as_json:
            doc: dict[str, object] = {"row": {k: _term(v) for k, v in row.items() if v is not None}}
            if reasoning:
                doc["entailed"] = [_triple(t) for t in facts]
            sys.stdout.write(json.dumps(doc, ensure_ascii=False) + "\n")
            continue
        cells = [_term(row.get(n)) for n in names]
        if reasoning:
            cells.append(" ; ".join(" ".join(_triple(t)) for t in facts))
        sys.stdout.write("\t".join(cells) + "\n")


def _graph(graph: Graph, as_json: bool, reasoning: bool) -> None:
    entailed: set[Any] = getattr(graph, "entailed", set())
    for t in sorted(graph, key=lambda t: tuple(_term(x) for x in t)):
        flag = t in entailed
        if as_json:
            sys.stdout.write(json.dumps({"triple": _triple(t), "entailed": flag}, ensure_ascii=False) + "\n")
        else:
            sys.stdout.write(" ".join(_triple(t)) + (" . # entailed\n" if reasoning and flag else " .\n"))


def add_parser(sub: argparse._SubParsersAction[argparse.ArgumentParser]) -> argparse.ArgumentParser:
    from ont_platform.cli.common import ontology_args, store_args

    p = sub.add_parser(
        "query",
        help="run a SPARQL query file (SELECT, ASK, CONSTRUCT, DESCRIBE), optionally with reasoning",
        description="Run a read-only SPARQL query, checked and bounded like kg.query. With --reasoning it "
        "answers over the stated triples and what the ontology entails from them, marking every "
        "entailed fact.",
    )
    p.add_argument("file", type=Path, metavar="FILE.rq", help="the query (- reads stdin)")
    p.add_argument(
        "--reasoning",
        action="store_true",
        help="answer with RDFS + the OWL RL subset of the ontology (docs/your-rdf.md#reasoning); entailed facts "
        "are marked",
    )
    p.add_argument("--data", action="append", type=Path, metavar="DIR", help="load this dataset first (repeatable)")
    ontology_args(p)
    p.add_argument("--json", action="store_true", help="one JSON object per row (or triple)")
    store_args(p)
    p.set_defaults(func=cmd_query)
    return p


__all__ = ["add_parser", "cmd_query"]
