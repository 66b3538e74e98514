"""Who may write through the service, how often, and the record each write leaves in the graph.

The service reads for anyone who can reach it; it writes only for a caller holding its API token
(``ONT_API_TOKEN`` or ``ont serve --token``). Without a token configured the service is read-only: a write
gets 403 ``read_only``. A missing or wrong ``Authorization: Bearer`` header gets 401 (compared in constant time).
Each client address may write ``rate_per_min`` times a minute (a sliding window); past it, 429 with
``Retry-After``. Every write that got past the gate -- accepted or refused by the guard -- is recorded in the
graph of its domain as a ``prov:Activity`` (``id:{domain}/write/{uuid}``: when, from which client, accepted or
not, triples added), and its report is kept for the admin page (the last ``keep`` of them).
"""

from __future__ import annotations

import datetime as dt
import hmac
import threading
import time
import uuid
from collections import defaultdict, deque
from typing import Any

from fastapi import HTTPException, Request
from rdflib import RDF, Literal, Namespace

from ont_platform.namespaces import ONT, mint
from ont_platform.storage.base import Store

PROV = Namespace("http://www.w3.org/ns/prov#")


class WriteGate:
    """The token check, the per-client rate limit and the record of writes."""

    def __init__(self, token: str | None, rate_per_min: int, keep: int = 50) -> None:
        self._token = token.encode("utf-8") if token else None
        self._rate = rate_per_min
        self._seen: dict[str, deque[float]] = defaultdict(deque)
        self._lock = threading.Lock()
        self.recent: deque[dict[str, Any]] = deque(maxlen=keep)
        """The reports of the last writes, newest last, each with ``id``, ``at``, ``client`` and ``domain``."""

    @property
    def writable(self) -> bool:
        return self._token is not None

    def admit(self, request: Request) -> str:
        """The client's address if it may write now; else raise the HTTP error that says why."""
        if self._token is None:
            raise HTTPException(
                403,
                "this service is read-only: start it with an API token (ONT_API_TOKEN or "
                "ont serve --token) to accept writes",
            )
        header = request.headers.get("authorization", "")
        scheme, _, given = header.partition(" ")
        if scheme.lower() != "bearer" or not hmac.compare_digest(given.strip().encode("utf-8"), self._token):
            raise HTTPException(
                401,
                "writes need the service's API token as 'Authorization: Bearer <token>'",
                headers={"WWW-Authenticate": 'Bearer realm="ont_platform"'},
            )
        client = request.client.host if request.client is not None else "unknown"
        now = time.monotonic()
        with self._lock:
            seen = self._seen[client]
            while seen and now - seen[0] >= 60.0:
                seen.popleft()
            if len(seen) >= self._rate:
                wait = max(1, int(60.0 - (now - seen[0])) + 1)
                raise HTTPException(
                    429,
                    f"at most {self._rate} writes a minute from one client; try again in {wait} s",
                    headers={"Retry-After": str(wait)},
                )
            seen.append(now)
        return client

    def record(self, store: Store, domain: str, client: str, kind: str, report: dict[str, Any]) -> str:
        """Add the audit record of one write to ``store`` and keep its report; returns the record's IRI."""
        write = mint(domain, "write", uuid.uuid4().hex)
        when = dt.datetime.now(dt.UTC).replace(microsecond=0)
        accepted = bool(report.get("accepted"))
        triples = [
            (write, RDF.type, PROV.Activity),
            (write, RDF.type, ONT.Write),
            (write, PROV.endedAtTime, Literal(when)),
            (write, ONT.client, Literal(client)),
            (write, ONT.writeKind, Literal(kind)),
            (write, ONT.accepted, Literal(accepted)),
            (write, ONT.triplesAdded, Literal(int(report.get("triples_added") or 0))),
        ]
        store.add_ntriples("".join(f"{s.n3()} {p.n3()} {o.n3()} .\n" for s, p, o in triples))
        self.recent.append(
            {"id": str(write), "at": when.isoformat(), "client": client, "domain": domain, "kind": kind, **report}
        )
        return str(write)
