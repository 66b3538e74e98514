"""``ont serve``: the HTTP API and the admin page (FastAPI + uvicorn), on 127.0.0.1 by default.

Without ``--data`` it serves the three bundled example datasets (onchain, kg, pages) from an in-memory store;
each ``--data DIR`` is loaded instead (all into one store, so each domain once). URL fetching refuses
non-public addresses unless ``--allow-private-urls`` (or ``ONT_ALLOW_PRIVATE_URLS=1``); an LLM extractor is
configured with ``ONT_LLM_BASE_URL``, ``ONT_LLM_MODEL`` and ``ONT_LLM_API_KEY`` (never on the command line).
"""

from __future__ import annotations

import argparse
import json
import sys
from pathlib import Path

from ont_platform import jsonl


def _examples(folder: Path) -> list[str]:
    """The questions of a dataset folder's ``questions.jsonl``, if it has one (samples for the admin page)."""
    path = folder / "questions.jsonl"
    out: list[str] = []
    try:
        lines = path.read_text(encoding="utf-8").splitlines()
    except (OSError, UnicodeDecodeError):
        return out
    for line in lines:
        try:
            doc = jsonl.loads(line, where=str(path))
        except (json.JSONDecodeError, jsonl.TooDeep):
            continue
        if isinstance(doc, dict) and isinstance(doc.get("question"), str):
            out.append(doc["question"])
    return out[:50]


def cmd_serve(args: argparse.Namespace) -> int:
    from ont_platform.cli.common import EXIT_OK, open_graph
    from ont_platform.errors import InputError, MissingDependency
    from ont_platform.service.settings import ServiceSettings

    try:
        import uvicorn

        from ont_platform.service.app import create_app
    except ImportError as exc:
        raise MissingDependency("ont serve needs the server extra: pip install 'ont_platform[server]'") from exc
    if not 0 <= args.port <= 65535:
        raise InputError(f"--port must be from 0 to 65535, got {args.port}")
    overrides: dict[str, object] = {}
    if args.allow_private_urls:
        overrides["allow_private_urls"] = True
    if args.allow_network:
        overrides["allowed_networks"] = ServiceSettings.networks(args.allow_network)
    settings = ServiceSettings.from_env(**overrides)

    graphs = None
    examples: dict[str, list[str]] | None = None
    kg = None
    if args.data or getattr(args, "store", None) or args.backend != "oxigraph":
        kg = open_graph(args)
        examples = {}
        for folder in args.data or []:
            report = kg.load(folder)
            examples[report.domain] = _examples(Path(folder))
            print(f"loaded {folder} ({report.domain}): {report.triples_added} triples", file=sys.stderr)
        if not kg.domains():
            kg.close()
            raise InputError("the store holds no dataset: give --data DIR")
        graphs = kg
    app = create_app(graphs, settings, examples=examples)
    app.state.graphs.warm()
    where = f"http://{args.host}:{args.port}/" if ":" not in args.host else f"http://[{args.host}]:{args.port}/"
    print(f"serving {', '.join(app.state.graphs.domains())} at {where} (admin page: {where}, "
          f"API: {where}openapi.json)", file=sys.stderr)
    if settings.allow_private_urls:
        print("warning: --allow-private-urls: extraction may fetch loopback and private addresses", file=sys.stderr)
    try:
        uvicorn.run(app, host=args.host, port=args.port, log_level=args.log_level, access_log=args.access_log,
                    server_header=False)
    finally:
        if kg is not None:
            kg.close()
    return EXIT_OK


def add_parser(sub: argparse._SubParsersAction) -> argparse.ArgumentParser:  # type: ignore[type-arg]
    """Register ``ont serve`` on the ``ont`` subcommand parser."""
    from ont_platform.cli.common import store_args

    p = sub.add_parser(
        "serve", help="serve the HTTP API and the admin page (ask, verify, nodes, extract)",
        description="Serve the HTTP API (POST /api/v1/ask, /api/v1/verify, /api/v1/extract/text, "
                    "/api/v1/extract/url, GET /api/v1/nodes/{domain}/{id}, /openapi.json) and the admin page at /. "
                    "Without --data, the bundled example datasets are served. Stop with Ctrl-C.",
    )
    p.add_argument("--host", default="127.0.0.1", help="address to listen on (default 127.0.0.1: this machine only)")
    p.add_argument("--port", type=int, default=8000, help="port to listen on (default 8000)")
    p.add_argument("--data", action="append", type=Path, metavar="DIR",
                   help="dataset folder to serve (repeatable; default: the bundled examples)")
    p.add_argument("--allow-private-urls", action="store_true",
                   help="let /api/v1/extract/url fetch loopback, private and link-local addresses (only for a "
                        "service nobody else can reach)")
    p.add_argument("--allow-network", action="append", metavar="CIDR",
                   help="fetch this address or network even though it is not public (repeatable), "
                        "e.g. 10.1.2.0/24")
    p.add_argument("--log-level", default="warning", choices=["critical", "error", "warning", "info", "debug"],
                   help="server log level (default warning)")
    p.add_argument("--access-log", action="store_true", help="log every request")
    store_args(p)
    p.set_defaults(func=cmd_serve)
    return p  # type: ignore[no-any-return]
