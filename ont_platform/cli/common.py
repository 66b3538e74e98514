"""What every ``ont`` subcommand shares: exit codes, the store options, ``--limit`` and opening the graph.

Its own module so that the subcommands and :mod:`ont_platform.cli.main` (which assembles them) import it and
not each other.
"""

from __future__ import annotations

import argparse
from collections.abc import Sequence
from pathlib import Path
from typing import TYPE_CHECKING

from ont_platform.errors import InputError
from ont_platform.limits import Limits

if TYPE_CHECKING:
    from ont_platform.kg import KnowledgeGraph, LoadReport

EXIT_OK, EXIT_NEGATIVE, EXIT_INPUT, EXIT_INTERNAL = 0, 1, 2, 3


def parse_limits(items: Sequence[str] | None) -> Limits:
    """The default :class:`Limits` with ``NAME=VALUE`` overrides (``--limit max_hops=4``); InputError names an
    unknown field or a value that is not a positive number of the field's type (or below the field's
    ``least``, for the limits where 0 means something: ``walk_max_edges=0`` turns the transfer mirror off)."""
    import dataclasses

    from ont_platform.limits import DEFAULT_LIMITS

    fields = {f.name: f for f in dataclasses.fields(Limits)}
    types = {name: f.type for name, f in fields.items()}
    changes: dict[str, int | float] = {}
    for item in items or ():
        name, sep, text = item.partition("=")
        name = name.strip()
        if not sep or name not in types:
            raise InputError(f"--limit {item!r}: give NAME=VALUE with NAME one of {', '.join(types)}")
        kind = float if types[name] in (float, "float") else int
        try:
            value = kind(text.strip().replace("_", ""))
        except ValueError as exc:
            raise InputError(
                f"--limit {name}: {text!r} is not {'a number' if kind is float else 'an integer'}"
            ) from exc
        least = fields[name].metadata.get("least")
        if least is None and not value > 0:
            raise InputError(f"--limit {name}: must be positive, got {text!r}")
        if least is not None and not value >= least:
            raise InputError(f"--limit {name}: must be at least {least}, got {text!r}")
        changes[name] = value
    # each value was parsed by its own field's type (int or float), which one dict type cannot say per key
    return dataclasses.replace(DEFAULT_LIMITS, **changes)  # type: ignore[arg-type]


def open_graph(args: argparse.Namespace) -> KnowledgeGraph:
    """The graph the store options name (in memory by default), with the ``--limit`` changes."""
    from ont_platform.kg import KnowledgeGraph

    return KnowledgeGraph.open(
        getattr(args, "store", None),
        backend=args.backend,
        endpoint=getattr(args, "endpoint", None),
        update_endpoint=getattr(args, "update_endpoint", None),
        limits=parse_limits(getattr(args, "limit", None)),
        read_only=bool(getattr(args, "read_only", False)),
    )


def ontology_args(p: argparse.ArgumentParser) -> None:
    """``--ontology`` and ``--shapes``: the files a dataset is checked against when it does not bring them."""
    p.add_argument(
        "--ontology",
        type=Path,
        metavar="FILE",
        help="the ontology of RDF data (Turtle, RDF/XML, N-Triples, JSON-LD) or of kg tables, when the "
        "dataset has no ontology.ttl beside it",
    )
    p.add_argument("--shapes", type=Path, metavar="FILE", help="SHACL shapes to check the data against")


def load_data(kg: KnowledgeGraph, args: argparse.Namespace, paths: list[Path] | None = None) -> list[LoadReport]:
    """Load each ``--data`` path (or ``paths``) into ``kg``, with the ``--ontology``/``--shapes`` files if
    given."""
    reports = []
    for path in args.data or [] if paths is None else paths:
        reports.append(kg.load(path, ontology=getattr(args, "ontology", None), shapes=getattr(args, "shapes", None)))
    return reports


def store_args(p: argparse.ArgumentParser, *, with_store: bool = True) -> None:
    """The options that say which store a command opens, and ``--limit``."""
    if with_store:
        p.add_argument("--store", metavar="PATH", help="on-disk Oxigraph store (default: in memory)")
        p.add_argument(
            "--read-only",
            action="store_true",
            help="open the --store read-only, beside a process that holds it (e.g. ont serve); it is "
            "read as it is when opened, and nothing is written",
        )
    p.add_argument(
        "--backend",
        choices=["oxigraph", "rdflib", "remote"],
        default="oxigraph",
        help="storage backend (default: oxigraph, embedded)",
    )
    p.add_argument("--endpoint", metavar="URL", help="SPARQL query URL (backend remote)")
    p.add_argument("--update-endpoint", metavar="URL", help="SPARQL update URL (backend remote)")
    p.add_argument(
        "--limit",
        action="append",
        metavar="NAME=VALUE",
        help="change one of the library's limits, e.g. max_hops=4 or query_timeout_s=30 (repeatable; "
        "every limit is listed in docs/limits.md)",
    )
