"""``ont serve``: the HTTP API and the admin page (FastAPI + uvicorn), on 127.0.0.1 by default.

Without ``--data`` it serves the three bundled example datasets (onchain, kg, pages) from an in-memory store;
each ``--data DIR`` is loaded instead (all into one store, so each domain once). URL fetching refuses
non-public addresses unless ``--allow-private-urls`` (or ``ONT_ALLOW_PRIVATE_URLS=1``); an LLM extractor is
configured with ``ONT_LLM_BASE_URL``, ``ONT_LLM_MODEL`` and ``ONT_LLM_API_KEY`` (never on the command line).
"""

from __future__ import annotations

import argparse
import errno
import json
import socket
import sys
from pathlib import Path
from typing import TYPE_CHECKING, Any

from ont_platform import jsonl

if TYPE_CHECKING:
    from ont_platform.service.settings import ServiceSettings


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


def bind(host: str, port: int) -> socket.socket:
    """A socket bound to ``host:port`` (not yet listening: a client is refused until the server is ready), handed
    to uvicorn, so the port that was checked is the port served. Raises InputError when the port is taken, not
    allowed, or the host is not an address of this machine."""
    from ont_platform.errors import InputError

    try:
        family, kind, proto, _, address = socket.getaddrinfo(
            host, port, type=socket.SOCK_STREAM, flags=socket.AI_PASSIVE
        )[0]
    except (socket.gaierror, UnicodeError) as exc:
        raise InputError(f"--host {host!r} is not an address or name this machine can listen on: {exc}") from exc
    sock = socket.socket(family, kind, proto)
    try:
        sock.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)  # as uvicorn does: a TIME_WAIT port is free
        sock.bind(address)
    except OSError as exc:
        sock.close()
        if exc.errno == errno.EADDRINUSE:
            raise InputError(
                f"port {port} on {host} is already in use (another server?): choose another --port, "
                "or stop the program holding it"
            ) from exc
        if exc.errno == errno.EACCES:
            raise InputError(
                f"not allowed to listen on port {port} on {host} (ports below 1024 need privileges): "
                "choose another --port"
            ) from exc
        raise InputError(f"cannot listen on {host} port {port}: {exc.strerror or exc}") from exc
    sock.set_inheritable(True)
    return sock


def cmd_serve(args: argparse.Namespace) -> int:
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
    if args.token is not None and args.token_file is not None:
        raise InputError("give the API token once: --token or --token-file")
    if args.token is not None:
        if len(args.token.strip()) < 16:
            raise InputError("the API token must be at least 16 characters")
        overrides["api_token"] = args.token.strip()
    if args.token_file is not None:
        try:
            token = args.token_file.read_text(encoding="utf-8").strip()
        except OSError as exc:
            raise InputError(f"cannot read --token-file {args.token_file}: {exc.strerror}") from exc
        if len(token) < 16:
            raise InputError("the API token in --token-file must be at least 16 characters")
        overrides["api_token"] = token
    settings = ServiceSettings.from_env(**overrides)
    sock = bind(args.host, args.port)  # before loading anything, and before saying where it is served
    try:
        return _serve(args, settings, sock, uvicorn, create_app)
    finally:
        sock.close()


def _serve(
    args: argparse.Namespace, settings: ServiceSettings, sock: socket.socket, uvicorn: Any, create_app: Any
) -> int:
    from ont_platform.cli.common import EXIT_OK, open_graph
    from ont_platform.errors import InputError

    graphs = None
    examples: dict[str, list[str]] | None = None
    kg = None
    try:
        if args.data or getattr(args, "store", None) or args.backend != "oxigraph":
            kg = open_graph(args)
            examples = {}
            for folder in args.data or []:
                report = kg.load(folder)
                examples[report.domain] = _examples(Path(folder))
                print(f"loaded {folder} ({report.domain}): {report.triples_added} triples", file=sys.stderr)
            if not kg.domains():
                raise InputError("the store holds no dataset: give --data DIR")
            graphs = kg
        app = create_app(graphs, settings, examples=examples)
        app.state.graphs.warm()
        port = sock.getsockname()[1]  # the port asked for, or the one the system chose for --port 0
        where = f"http://{args.host}:{port}/" if ":" not in args.host else f"http://[{args.host}]:{port}/"
        print(
            f"serving {', '.join(app.state.graphs.domains())} at {where} (admin page: {where}, "
            f"API: {where}openapi.json, SPARQL: {where}sparql)",
            file=sys.stderr,
        )
        if settings.allow_private_urls:
            print("warning: --allow-private-urls: extraction may fetch loopback and private addresses", file=sys.stderr)
        config = uvicorn.Config(
            app, host=args.host, port=port, log_level=args.log_level, access_log=args.access_log, server_header=False
        )
        uvicorn.Server(config).run(sockets=[sock])
    finally:
        if kg is not None:
            kg.close()
    return EXIT_OK


def add_parser(sub: argparse._SubParsersAction[argparse.ArgumentParser]) -> argparse.ArgumentParser:
    """Register ``ont serve`` on the ``ont`` subcommand parser."""
    from ont_platform.cli.common import store_args

    p = sub.add_parser(
        "serve",
        help="serve the HTTP API and the admin page (ask, verify, nodes, extract)",
        description="Serve the HTTP API (POST /api/v1/ask, /api/v1/verify, /api/v1/extract/text, "
        "/api/v1/extract/url, GET /api/v1/nodes/{domain}/{id}, /openapi.json), the read-only SPARQL "
        "endpoint /sparql, /health and the admin page at /. Without --data, the bundled example "
        "datasets are served. A port that is taken is refused (exit 2) before anything is loaded. "
        "Stop with Ctrl-C.",
    )
    p.add_argument("--host", default="127.0.0.1", help="address to listen on (default 127.0.0.1: this machine only)")
    p.add_argument("--port", type=int, default=8000, help="port to listen on (default 8000)")
    p.add_argument(
        "--data",
        action="append",
        type=Path,
        metavar="DIR",
        help="dataset folder to serve (repeatable; default: the bundled examples)",
    )
    p.add_argument(
        "--allow-private-urls",
        action="store_true",
        help="let /api/v1/extract/url fetch loopback, private and link-local addresses (only for a "
        "service nobody else can reach)",
    )
    p.add_argument(
        "--allow-network",
        action="append",
        metavar="CIDR",
        help="fetch this address or network even though it is not public (repeatable), e.g. 10.1.2.0/24",
    )
    p.add_argument(
        "--token",
        metavar="TOKEN",
        help="accept writes from callers sending this token as 'Authorization: Bearer ...' (other "
        "users of this machine can see a command line: prefer ONT_API_TOKEN or --token-file)",
    )
    p.add_argument(
        "--token-file",
        type=Path,
        metavar="FILE",
        help="accept writes (POST /api/v1/ingest, /api/v1/extract/url?ingest=true) from callers "
        "sending this file's token as 'Authorization: Bearer ...' (or set ONT_API_TOKEN); "
        "without one the service is read-only",
    )
    p.add_argument(
        "--log-level",
        default="warning",
        choices=["critical", "error", "warning", "info", "debug"],
        help="server log level (default warning)",
    )
    p.add_argument("--access-log", action="store_true", help="log every request")
    store_args(p)
    p.set_defaults(func=cmd_serve)
    return p
