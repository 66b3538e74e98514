"""``ont``: load, export and ask knowledge graphs from the shell.

Exit codes: 0 success, 1 the command ran but the answer is negative (validation failed, a check did not
pass), 2 unusable input (bad arguments, unreadable files, refused datasets), 3 an internal or backend error.
Machine output goes to stdout as JSON with ``--json``; messages for people go to stderr.
"""

from __future__ import annotations

import argparse
import json
import sys
from collections.abc import Sequence
from pathlib import Path

from ont_platform.cli.common import (  # noqa: F401 - parse_limits is part of this module's interface
    EXIT_INPUT,
    EXIT_INTERNAL,
    EXIT_NEGATIVE,
    EXIT_OK,
    load_data,
    ontology_args,
    open_graph,
    parse_limits,
    store_args,
)
from ont_platform.errors import InputError, OntError, StoreError
from ont_platform.jsonl import strict_jsonl


def _emit(obj: object) -> None:
    sys.stdout.write(json.dumps(obj, ensure_ascii=False, indent=None) + "\n")


def cmd_load(args: argparse.Namespace) -> int:
    with open_graph(args) as kg:
        for folder in args.dirs:
            report = kg.load(
                folder,
                shacl="off" if args.no_shacl else args.shacl,
                mode=args.mode,
                ontology=args.ontology,
                shapes=args.shapes,
                reasoning=args.reasoning,
            )
            for w in report.warnings:
                print(f"warning: {w}", file=sys.stderr)
            if args.json:
                _emit(report.as_dict() | {"folder": str(folder), "store_triples": len(kg)})
            else:
                counts = ", ".join(f"{v} {k}" for k, v in report.counts.items())
                more = (
                    ""
                    if report.added is None
                    else (f" (added {report.added}, unchanged {report.unchanged}, replaced {report.replaced})")
                )
                print(
                    f"loaded {folder} ({report.domain}): {counts}; {report.triples_added} triples{more} "
                    f"in {report.seconds:.2f} s",
                    file=sys.stderr,
                )
                shacl = report.shacl
                if shacl.mode != "off":
                    print(
                        f"SHACL ({shacl.mode}): {shacl.resources} resources, {shacl.triples} triples checked",
                        file=sys.stderr,
                    )
                for line in shacl.sampled_shapes:
                    print(
                        f"SHACL checked on a sample of {shacl.sample_resources} resources only: {line}", file=sys.stderr
                    )
                for e in report.entailments:
                    state = f"computed in {e.seconds:.2f} s" if e.computed else "already current"
                    print(
                        f"reasoning: {e.triples if e.triples is not None else 'the'} triples entailed by the "
                        f"{e.domain} ontology, {state}",
                        file=sys.stderr,
                    )
                    for line in e.ignored:
                        print(f"reasoning over {e.domain} does not apply {line}", file=sys.stderr)
    return EXIT_OK


def package_version() -> str:
    """The installed distribution's version (the package's own string when it runs from a source tree)."""
    from importlib.metadata import PackageNotFoundError, version

    try:
        return version("ont_platform")
    except PackageNotFoundError:
        from ont_platform import __version__

        return __version__


def cmd_retract(args: argparse.Namespace) -> int:
    if not args.store and args.backend != "remote":
        raise InputError("ont retract changes a store: give --store (or a remote endpoint)")
    with open_graph(args) as kg:
        report = kg.retract(args.edges, node_ids=args.node or [], reason=args.reason, by=args.by, domain=args.domain)
        if args.json:
            _emit(report.as_dict())
        else:
            print(
                f"retracted {len(report.edges)} relation(s) and {len(report.nodes)} node(s) in {report.domain}: "
                f"{report.triples_removed} plain triple(s) removed; recorded as {report.activity}",
                file=sys.stderr,
            )
    return EXIT_OK


def cmd_export(args: argparse.Namespace) -> int:
    with open_graph(args) as kg:
        load_data(kg, args)
        if args.output == "-":
            sys.stdout.buffer.write(kg.dumps(args.format or "nt"))
        else:
            path = kg.export(args.output, args.format)
            print(f"wrote {len(kg)} triples to {path}", file=sys.stderr)
    return EXIT_OK


def _read_batch(path: Path) -> list[tuple[str, str]]:
    items: list[tuple[str, str]] = []
    for n, doc in strict_jsonl(path):
        if not isinstance(doc, dict) or not isinstance(doc.get("question"), str):
            raise InputError(f'{path}:{n}: each line needs {{"id": ..., "question": "..."}}')
        items.append((str(doc.get("id", n)), doc["question"]))
    return items


def cmd_ask(args: argparse.Namespace) -> int:
    from ont_platform.view import node_ids, render

    if bool(args.question) == bool(args.batch):
        raise InputError("give a question, or --batch FILE.jsonl (not both)")
    with open_graph(args) as kg:
        load_data(kg, args)
        items = _read_batch(args.batch) if args.batch else [(args.id or "q", args.question)]
        for qid, question in items:
            result = kg.ask(question, domain=args.domain, qid=qid)
            if args.json or args.batch:
                _emit(result.to_json())
            else:
                sys.stdout.write(render(result, question, kg.labels(node_ids(result), domain=args.domain)))
    return EXIT_OK


def cmd_demo(args: argparse.Namespace) -> int:
    from ont_platform.demo import run_demo

    return run_demo(json_out=args.json, out=sys.stdout)


def build_parser() -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(prog="ont", description="Knowledge graphs that can be trusted.")
    parser.add_argument(
        "--version", action="version", version=f"ont {package_version()}", help="print the installed version and exit"
    )
    sub = parser.add_subparsers(dest="command", metavar="COMMAND")

    p = sub.add_parser(
        "demo",
        help="load the bundled examples and answer the seed questions",
        description="Load the bundled example datasets into the embedded store and answer "
        "the seed questions of each, with paths and evidence.",
    )
    p.add_argument("--json", action="store_true", help="one JSON object per answer instead of the readable view")
    p.set_defaults(func=cmd_demo)

    p = sub.add_parser(
        "ask",
        help="answer a question (or a batch) with a path and evidence, or a refusal",
        description="Answer a Korean or English question over a dataset: the on-chain, "
        "hop-decision or page-filter contract of the dataset's domain.",
    )
    p.add_argument("question", nargs="?", help="the question")
    p.add_argument(
        "--data",
        action="append",
        type=Path,
        metavar="DIR",
        help="dataset to load first: a folder of tables, or RDF data (repeatable; or use --store)",
    )
    ontology_args(p)
    p.add_argument(
        "--batch",
        type=Path,
        metavar="FILE.jsonl",
        help='lines {"id": ..., "question": ...}; one answer JSON per line on stdout',
    )
    p.add_argument("--domain", metavar="NAME", help="the domain to ask (needed when the store holds several)")
    p.add_argument("--id", help="id to put into the answer (q_id / query_id)")
    p.add_argument("--json", action="store_true", help="print exactly one JSON object")
    store_args(p)
    p.set_defaults(func=cmd_ask)

    p = sub.add_parser(
        "load",
        help="load dataset folders into a store (all or nothing)",
        description="Check every row against the ontology and the SHACL shapes, then add the "
        "dataset in one transaction. Problems are listed with file and line.",
    )
    p.add_argument(
        "dirs",
        nargs="+",
        type=Path,
        metavar="PATH",
        help="dataset: a folder of CSV tables, or RDF data (a file or a folder of files) with its ontology",
    )
    store_args(p)
    ontology_args(p)
    p.add_argument(
        "--shacl",
        choices=("auto", "full", "rows", "sample", "off"),
        default="auto",
        help="SHACL pass: auto (the batch as one graph up to 10,000 triples, every resource row by row "
        "above), full (the batch as one graph), rows, sample (a bounded sample only), off "
        "(default: auto). Shapes that only a sample can check are named.",
    )
    p.add_argument(
        "--no-shacl", action="store_true", help="skip the SHACL pass (row checks still run); same as --shacl off"
    )
    p.add_argument(
        "--mode",
        choices=("strict", "upsert"),
        default="strict",
        help="into a store that holds the domain: strict refuses a row that differs from the stored "
        "one; upsert replaces its values (default: strict)",
    )
    p.add_argument(
        "--reasoning",
        action="store_true",
        help="after the load, compute what the ontology entails (RDFS + an OWL RL subset) into a derived graph "
        "beside the data, for ont query --reasoning (otherwise the first such query computes it)",
    )
    p.add_argument("--json", action="store_true", help="print a JSON report per folder")
    p.set_defaults(func=cmd_load)

    p = sub.add_parser(
        "retract",
        help="take relations (or nodes) back, recording who, when and why",
        description="Retract relations by edge id (and nodes with --node, with every relation "
        "touching them), all or nothing. A retracted relation is never walked or cited "
        "again; the retraction is recorded in the graph as PROV-O.",
    )
    p.add_argument("edges", nargs="*", metavar="EDGE_ID", help="edge id of a relation to retract")
    p.add_argument("--node", action="append", metavar="NODE_ID", help="a node to retract with its relations")
    p.add_argument("--reason", required=True, help="why (stored with the retraction)")
    p.add_argument("--by", help="who retracts (stored as the agent's name)")
    p.add_argument("--domain", help="the domain, when the store holds several")
    store_args(p)
    p.add_argument("--json", action="store_true", help="print the report as JSON")
    p.set_defaults(func=cmd_retract)

    p = sub.add_parser(
        "export",
        help="write the graph as Turtle, N-Triples or JSON-LD",
        description="Serialise the whole graph of a store (optionally after loading datasets).",
    )
    p.add_argument("output", help="output file, or - for stdout")
    p.add_argument(
        "--format",
        choices=["turtle", "ttl", "nt", "ntriples", "json-ld", "jsonld", "rdf/xml", "xml", "nquads", "nq", "trig"],
        help="format (default: from the file suffix, else N-Triples)",
    )
    p.add_argument("--data", action="append", type=Path, metavar="DIR", help="load this dataset first (repeatable)")
    ontology_args(p)
    store_args(p)
    p.set_defaults(func=cmd_export)

    from ont_platform.cli import evaluate, pages, query, serve, validate, verify

    query.add_parser(sub)
    validate.add_parser(sub)
    pages.add_parser(sub)
    verify.add_parser(sub)
    evaluate.add_parser(sub)
    serve.add_parser(sub)
    return parser


def main(argv: Sequence[str] | None = None) -> int:
    parser = build_parser()
    args = parser.parse_args(argv)
    if not getattr(args, "command", None):
        parser.print_help(sys.stderr)
        return EXIT_INPUT
    try:
        return int(args.func(args))
    except InputError as exc:
        print(f"error: {exc}", file=sys.stderr)
        return EXIT_INPUT
    except StoreError as exc:
        print(f"store error: {exc}", file=sys.stderr)
        return EXIT_INTERNAL
    except OntError as exc:
        print(f"error: {exc}", file=sys.stderr)
        return EXIT_INTERNAL
    except KeyboardInterrupt:
        print("interrupted", file=sys.stderr)
        return 130
    except BrokenPipeError:
        return EXIT_OK


if __name__ == "__main__":
    sys.exit(main())
