"""A store kept on a remote SPARQL 1.1 endpoint (Oxigraph server, Virtuoso, Fuseki, GraphDB, ...).

The store works in one named graph of the server (:data:`DEFAULT_GRAPH` unless told otherwise) and never reads
or writes any other, so it can share a server with other data:

* queries are sent with ``default-graph-uri`` and ``named-graph-uri`` set to that graph (SPARQL 1.1 Protocol),
  which also overrides any ``FROM`` in the query text. Without them Virtuoso's default graph is the union of
  every graph on the server.
* updates are rewritten to name the graph: ``INSERT DATA``/``DELETE DATA`` get a ``GRAPH <g> {}`` block,
  ``DELETE``/``INSERT ... WHERE`` a ``WITH <g>``. (The protocol's ``using-graph-uri`` is not used: Virtuoso
  applies it to the inserted triples too, Oxigraph only to the ``WHERE`` part, as the standard says.)
  Graph management (``CLEAR``, ``DROP``, ``LOAD``, ...) and updates that name a graph themselves are refused.

Every request is a POST of ``application/x-www-form-urlencoded`` data and asks for
``application/sparql-results+json`` (Virtuoso's XML results do not always parse). Results come back as rdflib
terms with the lexical form the server reported. See ``docs/remote-endpoints.md`` for what differs between
servers and how each difference is handled here.

Every answer is read within bounds, so a broken or hostile endpoint costs at most a known amount of memory and
time: the JSON is parsed as it arrives (:mod:`ont_platform.storage.sparql_json`), reading stops once the rows a
caller takes are in, an answer longer than ``max_response_bytes`` (after decompression) or nesting deeper than
SPARQL results do is refused, and a deadline covers each whole exchange, headers and body, not only each wait
for the next bytes.
"""

from __future__ import annotations

import base64
import logging
import re
import threading
import time
import uuid
import zlib
from collections.abc import Iterable, Iterator
from contextlib import contextmanager, nullcontext
from dataclasses import dataclass
from typing import Any
from urllib.parse import unquote, urlsplit, urlunsplit

import httpcore
import httpx
from rdflib import Graph
from rdflib.term import Node

from ont_platform.errors import (
    EndpointError,
    InputError,
    QueryError,
    QueryTimeout,
    RDFSyntaxError,
    StoreError,
)
from ont_platform.redaction import check_headers, protect, scrub
from ont_platform.sparql.inspect import QueryShape, refuse_remote_calls, shape
from ont_platform.storage._ntriples import (
    ParsedBatch,
    RiskyNumber,
    chunks,
    parse_ntriples,
    parse_rdf,
    sparql_iri,
)
from ont_platform.storage._sparql_scan import scope_update
from ont_platform.storage.base import RdfFormat, Row, Rows, Store, check_max_rows
from ont_platform.storage.rdf_io import parse_graph, refuse_dtd, serialize_graph
from ont_platform.storage.sparql_json import Results, read_results

log = logging.getLogger(__name__)

DEFAULT_GRAPH = "https://w3id.org/ont-platform/graph/default"
"""The named graph a :class:`RemoteStore` works in unless it is given another."""

STAGING_PREFIX = "https://w3id.org/ont-platform/graph/staging/"
"""Large batches are loaded into a fresh graph under this prefix first, then added to the store's graph."""

DEFAULT_MAX_ROWS = 10_000
"""Virtuoso's ``ResultSetMaxRows`` as shipped: it cuts every result at this many rows."""

COUNT_TIMEOUT_S = 120.0
"""Least time limit of ``len()``, which counts every triple of the graph."""

MOVE_TRIPLES_PER_S = 10_000
"""Slowest rate assumed for moving a staged batch into the graph; sets that request's time limit."""

DEFAULT_MAX_RESPONSE_BYTES = 256 * 1024**2
"""Most bytes of one answer a :class:`RemoteStore` reads, counted after decompression (256 MiB): about two
million rows of two terms. A longer answer raises :class:`EndpointError`; rows a caller does not take are never
read, so the bound matters for the library's own bulk reads and for answers that never end."""

_TRANSACTION_TOO_LARGE = "SR325"
"""Virtuoso's error code for a transaction whose log went over ``TransactionAfterImageLimit`` (it is undone)."""
_RESULTS_JSON = "application/sparql-results+json"
_HEADERS = {"Accept": _RESULTS_JSON, "Accept-Encoding": "gzip"}
_MESSAGE_LIMIT = 500
_ERROR_BYTES = 64 * 1024  # read of an error page: far more than the 500 characters shown
_READ_BYTES = 64 * 1024  # one network read, and the most one step of decompression may produce


class _HTTPStatusError(EndpointError):
    """The endpoint answered with an HTTP error status (kept apart from connection failures)."""

    def __init__(self, message: str, status: int) -> None:
        super().__init__(message)
        self.status = status


class _RequestRefused(_HTTPStatusError, QueryError):
    """HTTP 400: the endpoint refused the query or update text itself (a syntax error, an unsupported form).

    It is both an :class:`EndpointError` and a :class:`QueryError`, so code written against the embedded
    backends (which raise QueryError for a bad query) catches it too.
    """


class _QueryTimedOut(EndpointError, QueryTimeout):
    """A query the endpoint did not answer within the time limit: an :class:`EndpointError` as before, and the
    :class:`QueryTimeout` the embedded store raises, so one ``except`` serves every backend."""


class RemoteStore(Store):
    """A :class:`~ont_platform.storage.base.Store` on a remote SPARQL 1.1 endpoint.

    Args:
        query_url: the endpoint's query URL (Oxigraph: ``http://host:7878/query``, Virtuoso:
            ``http://host:8890/sparql``).
        update_url: the update URL (Oxigraph: ``.../update``); defaults to ``query_url`` (Virtuoso, Fuseki's
            combined endpoint).
        graph: the named graph the store works in; :data:`DEFAULT_GRAPH` by default.
        timeout: seconds to wait for any one request (a method's ``timeout`` overrides it for that call).
        headers: extra HTTP headers sent with every request, e.g. ``Authorization``. Their values are never
            repeated in error messages.
        max_rows: the most rows the endpoint returns for one query (Virtuoso's ``ResultSetMaxRows``). A result
            of exactly this many rows, or one Virtuoso marks with ``X-SPARQL-MaxRows``, is checked with a COUNT
            and, when it was cut, fetched again in pages. ``None``: the endpoint never cuts results.
        max_response_bytes: the most bytes of one answer read (after decompression);
            :data:`DEFAULT_MAX_RESPONSE_BYTES` by default. A longer answer raises :class:`EndpointError`.
        transport: an httpx transport for the store's own client (retries, custom TLS, tests). With one of your
            own, the deadline of a request is checked between the chunks of its body only; the store's own
            transport also cuts every connect, read and write short at it.

    Nothing is sent at construction; the first request goes out when a method needs it.
    """

    backend = "remote"

    chunk_triples = 1_000
    """Triples per request when loading (Virtuoso refuses ``INSERT DATA`` past 4,990 triples and an
    ``INSERT {...} WHERE {}`` template past 1,427)."""
    chunk_chars = 1_000_000
    """Characters of SPARQL text per loading request (Virtuoso refuses strings over 10 MB)."""

    def __init__(
        self,
        query_url: str,
        update_url: str | None = None,
        *,
        graph: str | None = None,
        timeout: float = 30.0,
        headers: dict[str, str] | None = None,
        max_rows: int | None = DEFAULT_MAX_ROWS,
        max_response_bytes: int = DEFAULT_MAX_RESPONSE_BYTES,
        transport: httpx.BaseTransport | None = None,
    ) -> None:
        self.query_url = _check_url(query_url, "query_url")
        self.update_url = _check_url(update_url, "update_url") if update_url else self.query_url
        self.graph = graph or DEFAULT_GRAPH
        try:
            self._g = sparql_iri(self.graph)
        except ValueError as exc:
            raise InputError(f"graph: {exc}") from exc
        if not re.match(r"[A-Za-z][A-Za-z0-9+.-]*:", self.graph):
            raise InputError(f"graph must be an absolute IRI, got {self.graph!r}")
        if max_rows is not None and max_rows < 1:
            raise InputError("max_rows must be a positive number of rows or None")
        self.max_rows = max_rows
        if isinstance(max_response_bytes, bool) or not isinstance(max_response_bytes, int) or max_response_bytes < 1:
            raise InputError(f"max_response_bytes must be a positive number of bytes, not {max_response_bytes!r}")
        self.max_response_bytes = max_response_bytes
        self.timeout = timeout
        # a value httpx would refuse is refused here, by name: httpx's own error quotes the value (the token)
        headers = check_headers(headers, "remote endpoint")
        self._secrets = _secrets(headers, (self.query_url, self.update_url))
        protect(self._secrets)  # httpx logs every request's URL (credentials, query token) at INFO
        self._network = _DeadlineNetwork() if transport is None else None
        self._client = httpx.Client(
            timeout=timeout,
            headers=dict(headers or {}),
            follow_redirects=False,
            transport=transport if self._network is None else _DeadlineTransport(self._network),
        )
        self._closed = False
        self._numbers_ok: set[tuple[str, str]] = set()

    @property
    def redacted(self) -> tuple[str, ...]:
        """The header values and URL credentials this store was given (see :attr:`Store.redacted`)."""
        return tuple(self._secrets)

    @property
    def generation(self) -> int | None:
        """Always ``None``: other clients of the endpoint can change the data at any time."""
        return None

    def __repr__(self) -> str:
        return f"RemoteStore({_public_url(self.query_url)!r}, graph={self.graph!r})"

    # --- reads ------------------------------------------------------------------------------------------

    def select(
        self, query: str, *, timeout: float | None = None, max_rows: int | None = None, untrusted: bool = False
    ) -> Rows:
        """Run a SELECT in the store's graph.

        ``timeout`` bounds the whole call: every request it sends (one, or a count and pages when the endpoint
        cut the result), connecting, headers and body, must be done within that many seconds in all, else
        :class:`QueryTimeout` (also an :class:`EndpointError`). Without it each request gets the store's
        ``timeout``. With ``max_rows`` the answer is read only until ``max_rows + 1`` rows are in (and no further
        than the query's own final ``LIMIT``); the rest is never read and the rows come back
        ``truncated``.

        ``DISTINCT``/``REDUCED`` results are also de-duplicated here (Virtuoso can repeat rows for ``p+``).
        A result the endpoint cut at its row limit is fetched again in pages and checked against a COUNT; a
        cut result that cannot be paged safely (it has its own ``ORDER BY`` or ``OFFSET``, or a ``LIMIT`` that is
        not the last thing in the query) raises
        :class:`EndpointError` rather than coming back incomplete.
        """
        check_max_rows(max_rows)
        found = shape(query)  # the lexer, not rdflib's parser: see ont_platform.sparql.inspect
        if found.form != "SELECT":
            raise QueryError(f"select() runs SELECT queries, got {found.form or 'no query form'}")
        refuse_remote_calls(found)
        deadline = None if timeout is None else _Deadline.after(timeout)
        want = None if max_rows is None else max_rows + 1
        if found.trailing_limit is not None:  # a server that sends more rows than LIMIT is not read past it
            limit = found.trailing_limit[1]
            want = limit if want is None else min(want, limit)
        variables, rows, cap, stopped = self._select_request(query, deadline, row_cap=want)
        if stopped and max_rows is not None and len(rows) > max_rows:
            out = Rows.capped(_dedupe(rows) if found.distinct else rows, max_rows)
            out.truncated = True  # more rows than the caller takes: the rest of the answer was not read
            return out
        if cap is not None:
            rows = self._complete(query, found, variables, rows, cap, deadline, enough=want)
        if found.distinct:
            rows = _dedupe(rows)
        return Rows.capped(rows, max_rows)

    def ask(self, query: str, *, timeout: float | None = None, untrusted: bool = False) -> bool:
        """Run an ASK in the store's graph; ``timeout`` bounds the whole request, headers and body."""
        found = shape(query)
        if found.form != "ASK":
            raise QueryError(f"ask() runs ASK queries, got {found.form or 'no query form'}")
        refuse_remote_calls(found)
        results, _ = self._query(query, None if timeout is None else _Deadline.after(timeout), "ASK")
        value = results.boolean
        if not isinstance(value, bool):
            raise EndpointError("ASK: the endpoint's answer has no boolean")
        return value

    def __len__(self) -> int:
        # A count scans the whole graph, and right after a large load a server may still be busy with it
        # (dropping the staging graph, writing a checkpoint): allow it more than one ordinary request.
        limit = max(self.timeout, COUNT_TIMEOUT_S)
        count = "SELECT (COUNT(*) AS ?n) WHERE { ?s ?p ?o }"
        _, rows, _, _ = self._select_request(count, _Deadline.after(limit), row_cap=2)
        return _count(rows, "n")

    def dump(self, fmt: RdfFormat = RdfFormat.NTRIPLES) -> bytes:
        """Serialise the store's graph (N-Triples lines come sorted)."""
        fmt = _format(fmt)
        graph = Graph()
        for triple in self._all_triples():
            graph.add(triple)
        if fmt is RdfFormat.NTRIPLES:
            text = graph.serialize(format="nt")
            lines = sorted(line for line in text.splitlines() if line.strip())
            return ("\n".join(lines) + "\n" if lines else "").encode("utf-8")
        return serialize_graph(graph, fmt)

    # --- writes -----------------------------------------------------------------------------------------

    def add_ntriples(self, data: str) -> None:
        """Add the triples of an N-Triples document, all or nothing.

        Every line is read first (pyoxigraph's parser): a malformed line raises :class:`RDFSyntaxError` before
        anything is sent.
        A batch that fits in one request is sent as one ``INSERT DATA``. A larger batch goes in chunks into a
        fresh staging graph, then one ``ADD`` moves it into the store's graph; if any request fails the staging
        graph is dropped and the store's graph was never touched. Numbers the endpoint cannot hold exactly
        (integers beyond 64 bits, decimals with more than 15 digits, on Virtuoso) raise :class:`InputError`.
        """
        if isinstance(data, bytes):
            data = _decode(data)
        self._ensure_open()
        self._add_batch(parse_ntriples(data))

    def _add_batch(self, batch: ParsedBatch) -> None:
        if not batch:
            return
        if batch.risky:
            self._check_numbers(batch.risky)
        self._load(batch)

    def load_rdf(self, data: bytes, fmt: RdfFormat) -> None:
        """Parse Turtle, N-Triples or JSON-LD locally and add the triples, all or nothing.

        Input that declares a DOCTYPE or ENTITY is refused before parsing; JSON-LD that would fetch a remote
        ``@context`` is refused too. Parser failures raise :class:`RDFSyntaxError`. Turtle and N-Triples are
        read with Oxigraph's parser, keeping lexical forms; JSON-LD with rdflib.
        """
        fmt = _format(fmt)
        raw = data.encode("utf-8") if isinstance(data, str) else bytes(data)
        refuse_dtd(raw)
        if fmt is RdfFormat.NTRIPLES:
            self.add_ntriples(_decode(raw))  # read by pyoxigraph, so lexical forms stay exactly as written
        elif fmt is RdfFormat.TURTLE:
            # Oxigraph's parser, as the embedded backend uses: it keeps lexical forms ("Z" stays "Z")
            self._ensure_open()
            self._add_batch(parse_rdf(_decode(raw), "Turtle"))
        else:
            graph = parse_graph(raw, fmt)  # refuses remote JSON-LD contexts; parser errors become RDFSyntaxError
            self.add_ntriples(graph.serialize(format="nt"))

    def update(self, sparql_update: str) -> None:
        """Run a SPARQL UPDATE in the store's graph.

        Supported: ``INSERT DATA``, ``DELETE DATA``, ``DELETE WHERE`` and ``DELETE``/``INSERT ... WHERE``,
        several separated by ``;``. They are rewritten to name the store's graph. Refused with
        :class:`QueryRefused`: graph management (``LOAD``, ``CLEAR``, ``DROP``, ``CREATE``, ``ADD``, ``MOVE``,
        ``COPY``) and operations that name graphs themselves (``GRAPH``, ``WITH``, ``USING``) or call other
        services (``SERVICE``).

        A request the endpoint refuses changes nothing. One limit to know: Virtuoso does not undo the earlier
        operations of a multi-operation request when a later one fails while running (errors found while
        compiling, such as syntax errors, stop the whole request); send operations that may fail alone.
        """
        self._ensure_open()
        text, risky = scope_update(sparql_update, self._g)
        if risky:
            self._check_numbers(risky)
        self._post_update(text, "UPDATE", text_from_caller=True)

    def clear(self) -> None:
        self._post_update(f"DROP SILENT GRAPH {self._g}", "clear")

    def close(self) -> None:
        if not self._closed:
            self._closed = True
            self._client.close()

    # --- loading ----------------------------------------------------------------------------------------

    def _load(self, batch: ParsedBatch) -> None:
        try:
            self._load_staged(batch)
        except _HTTPStatusError as exc:
            if f"Error {_TRANSACTION_TOO_LARGE}:" not in str(exc).split("\n", 1)[0]:  # the server's line, not the data
                raise
            # the server undid that request and the staging graph is gone: say so, and what to change, instead
            # of its bare error code
            raise EndpointError(
                f"the endpoint refused to write a batch of {len(batch):,} triples: one request went over its"
                " limit for a single transaction and was undone, so nothing was written. Virtuoso caps the log of"
                " one transaction (TransactionAfterImageLimit in the [Parameters] of virtuoso.ini, 50 MB by"
                " default; a load moves its whole batch in one transaction): raise it,"
                f" or load the data in smaller batches. The server said: {exc}"
            ) from exc

    def _load_staged(self, batch: ParsedBatch) -> None:
        parts = list(chunks(batch, max_triples=self.chunk_triples, max_chars=self.chunk_chars))
        if len(parts) == 1:
            self._post_update(_insert(self._g, *parts[0]), "add")
            return
        staging = sparql_iri(STAGING_PREFIX + uuid.uuid4().hex)
        # Moving or dropping the staged batch is one request whose time grows with the batch (the Oxigraph
        # server copies 1.2M triples in about a minute): allow it at least a second per 10,000 triples.
        whole = max(self.timeout, len(batch) / MOVE_TRIPLES_PER_S)
        try:
            for i, part in enumerate(parts, start=1):
                self._post_update(_insert(staging, *part), f"add (chunk {i} of {len(parts)})")
            self._post_update(f"ADD {staging} TO {self._g}", "add (moving the staged batch)", timeout=whole)
        except BaseException:
            self._drop_quietly(staging, whole)
            raise
        self._drop_quietly(staging, whole)

    def _drop_quietly(self, graph: str, timeout: float | None = None) -> None:
        try:
            self._post_update(f"DROP SILENT GRAPH {graph}", "drop staging graph", timeout=timeout)
        except EndpointError as exc:
            log.warning("could not drop staging graph %s: %s", graph, exc)

    def _check_numbers(self, risky: list[RiskyNumber]) -> None:
        """Ask the endpoint to read each risky number back; refuse the batch if any comes back different.

        Virtuoso 7.2 silently wraps xsd:integer values from 2^63 to 2^64-1 into negative numbers, refuses larger
        ones, and rounds decimals to about 15 fractional digits; Oxigraph keeps them all. Probing the endpoint
        tells the two apart without guessing which server it is.
        """
        todo: dict[tuple[str, str], RiskyNumber] = {}
        for r in risky:
            key = (r.lexical, r.datatype)
            if key not in self._numbers_ok:
                todo.setdefault(key, r)
        items = list(todo.values())
        for start in range(0, len(items), 200):
            group = items[start : start + 200]
            values = " ".join(f"({i} {r.sparql})" for i, r in enumerate(group))
            probe = f"SELECT ?i ?v WHERE {{ VALUES (?i ?v) {{ {values} }} }}"
            try:
                _, rows, _, _ = self._select_request(probe, None, scoped=False, row_cap=len(group) + 1)
            except _HTTPStatusError as exc:
                if exc.status >= 500:
                    raise
                first = group[0]
                raise InputError(
                    f"the endpoint refuses numbers this batch holds (first: line {first.line}, "
                    f"{first.lexical}^^<{first.datatype}>): {exc}. Keep exact big values as xsd:string."
                ) from exc
            seen = {int(str(row["i"])): row["v"] for row in rows if row.get("i") is not None}
            bad = [
                (r, seen.get(i)) for i, r in enumerate(group) if seen.get(i) is None or not r.same_value(str(seen[i]))
            ]
            if bad:
                shown = "; ".join(
                    f"line {r.line}: {r.lexical}^^<{r.datatype}> comes back as {got if got is None else str(got)}"
                    for r, got in bad[:5]
                )
                more = f" (and {len(bad) - 5} more)" if len(bad) > 5 else ""
                raise InputError(
                    f"the endpoint cannot hold these numbers exactly, nothing was written: {shown}{more}. "
                    "Keep exact big values as xsd:string (the data model does)."
                )
            self._numbers_ok.update((r.lexical, r.datatype) for r in group)

    # --- paging -----------------------------------------------------------------------------------------

    def _complete(
        self,
        query: str,
        scan: QueryShape,
        variables: list[str],
        rows: list[Row],
        cap: int,
        deadline: _Deadline | None,
        *,
        enough: int | None = None,
    ) -> list[Row]:
        """Return the full result of a SELECT whose first answer may have been cut at ``cap`` rows.

        The query becomes a subquery grouped by all its variables, with the number of rows in each group; the
        groups are fetched in pages and checked against their COUNT and the total number of rows, then
        expanded back. That is exact for bags and sets alike without relying on a sort (Virtuoso refuses
        ``ORDER BY`` with ``OFFSET + LIMIT`` above 10,000 rows).

        ``enough``: the caller takes no more rows than this (its row limit plus one); paging stops once that many
        are in, and the rest of the result is neither fetched nor counted.
        """
        why = f"the endpoint cut the result at {cap} rows (its row limit)"
        if scan.modifiers == {"LIMIT"} and scan.trailing_limit is not None:
            # Without ORDER BY any n solutions are a correct answer to `LIMIT n`: fetch the whole result in
            # pages and keep the first n (after removing duplicates when the query asks for DISTINCT).
            at, limit = scan.trailing_limit
            if limit <= len(rows):
                return rows[:limit]
            unlimited = query[:at]
            need = limit if enough is None else min(limit, enough)
            full = self._complete(unlimited, shape(unlimited), variables, rows, cap, deadline, enough=need)
            return (_dedupe(full) if scan.distinct else full)[:limit]
        if scan.modifiers:
            parts = sorted(scan.modifiers)
            raise EndpointError(
                f"SELECT: {why}, and a query with {', '.join(parts)} cannot be fetched in pages safely; "
                "narrow the query or raise the endpoint's limit (Virtuoso: ResultSetMaxRows)"
            )
        prologue, body = query[: scan.body_start], query[scan.body_start :]
        mult = _fresh_var("ont_rows", variables)
        keys = " ".join(f"?{v}" for v in variables)
        group_by = f" GROUP BY {keys}" if variables else ""
        grouped = f"SELECT {keys} (COUNT(*) AS ?{mult}) WHERE {{ {{ {body}\n}} }}{group_by}"
        n_groups, n_rows = _fresh_var("ont_groups", variables), _fresh_var("ont_total", variables)
        count_q = f"{prologue}SELECT (COUNT(*) AS ?{n_groups}) (SUM(?{mult}) AS ?{n_rows}) WHERE {{ {grouped}\n}}"
        _, counted, _, _ = self._select_request(count_q, deadline, row_cap=2)
        groups = _count(counted, n_groups)
        total = _int(counted[0].get(n_rows), n_rows)  # SUM over no groups is unbound: 0 rows
        if total == len(rows):
            return rows
        page = cap
        found: dict[tuple[Node | None, ...], int] = {}
        held = 0  # rows of the result in `found`: one per group when the caller de-duplicates them
        for offset in range(0, groups, page):
            query_page = f"{prologue}{grouped}\nLIMIT {page} OFFSET {offset}"
            _, part, _, _ = self._select_request(query_page, deadline, row_cap=page)
            for row in part:
                key = tuple(row.get(v) for v in variables)
                if key in found:
                    raise EndpointError(f"SELECT: {why}, and its pages overlapped; the result cannot be trusted")
                found[key] = n = _int(row.get(mult), mult)
                held += 1 if scan.distinct else n
            if enough is not None and held >= enough:
                return _expand(variables, found)  # the caller takes no more: the rest is not fetched
            if len(part) < page:
                break  # the endpoint ran out of groups early (a count it cannot keep to): checked below
        if len(found) != groups or sum(found.values()) != total:
            raise EndpointError(
                f"SELECT: {why}; paging found {sum(found.values())} of {total} rows, the result cannot be trusted"
            )
        return _expand(variables, found)

    def _all_triples(self) -> Iterator[tuple[Node, Node, Node]]:
        total = len(self)
        if total == 0:
            return iter(())
        query = "SELECT ?s ?p ?o WHERE { ?s ?p ?o }"
        _, rows, cap, _ = self._select_request(query, None)
        triples = {(r["s"], r["p"], r["o"]) for r in rows}
        if cap is None and len(triples) == total:
            return iter(triples)  # type: ignore[arg-type]
        page = cap or len(rows) or 1
        triples = set()
        for offset in range(0, total, page):
            _, rows, _, _ = self._select_request(f"{query} LIMIT {page} OFFSET {offset}", None, row_cap=page)
            triples.update((r["s"], r["p"], r["o"]) for r in rows)
        if len(triples) != total:
            raise EndpointError(
                f"dump: the endpoint counts {total} triples but paging returned {len(triples)}; "
                "was the graph written to meanwhile?"
            )
        return iter(triples)  # type: ignore[arg-type]

    # --- HTTP -------------------------------------------------------------------------------------------

    def _select_request(
        self, query: str, deadline: _Deadline | None, *, scoped: bool = True, row_cap: int | None = None
    ) -> tuple[list[str], list[Row], int | None, bool]:
        """One SELECT request: variables, rows, the row limit if the answer may have been cut, and whether
        reading stopped at ``row_cap`` rows (the rest of the answer unread).

        ``deadline``: the caller's, shared by every request of one call; ``None`` gives this request alone the
        store's ``timeout``.
        """
        results, headers = self._query(query, deadline, "SELECT", scoped=scoped, row_cap=row_cap)
        rows = results.rows
        cap: int | None = None
        header = headers.get("x-sparql-maxrows")
        if header is not None:
            try:
                cap = int(header)
            except ValueError:
                cap = self.max_rows
            if cap is not None and len(rows) < cap:
                cap = None
        elif self.max_rows is not None and len(rows) == self.max_rows:
            cap = self.max_rows
        return results.variables, rows, cap, results.stopped

    def _query(
        self, query: str, deadline: _Deadline | None, what: str, *, scoped: bool = True, row_cap: int | None = None
    ) -> tuple[Results, httpx.Headers]:
        """Send a query and read its SPARQL JSON answer as it arrives (``what``: ``SELECT`` or ``ASK``)."""
        data: dict[str, str] = {"query": query}
        if scoped:
            data["default-graph-uri"] = self.graph
            data["named-graph-uri"] = self.graph
        with self._exchange(self.query_url, data, deadline, what, text_from_caller=True) as (response, body):
            state = response.headers.get("x-sql-state")
            if state:
                message = response.headers.get("x-sql-message", "")
                raise EndpointError(
                    f"{what}: the endpoint returned an incomplete result ({self._scrub(state)}: "
                    f"{self._scrub(message)[:_MESSAGE_LIMIT]})"
                )
            kind = self._scrub(response.headers.get("content-type", "no content type"))[:100]
            results = read_results(body, what=what, content_type=kind, select=what != "ASK", row_cap=row_cap)
        return results, response.headers

    def _post_update(
        self, update: str, what: str, *, text_from_caller: bool = False, timeout: float | None = None
    ) -> None:
        deadline = None if timeout is None else _Deadline.after(timeout)
        with self._exchange(
            self.update_url,
            {"update": update},
            deadline,
            what,
            text_from_caller=text_from_caller,
            limit=_ERROR_BYTES,
            cut=True,
        ) as (_, body):
            for _ in body:  # the few bytes of an update's answer, so the connection can serve the next request
                pass

    @contextmanager
    def _exchange(
        self,
        url: str,
        data: dict[str, str],
        deadline: _Deadline | None,
        what: str,
        *,
        text_from_caller: bool,
        limit: int | None = None,
        cut: bool = False,
    ) -> Iterator[tuple[httpx.Response, Iterator[bytes]]]:
        """POST one request; yield the response and its body as chunks, and close the response afterwards.

        The whole exchange (connecting, sending, the headers, the body) must end by ``deadline``; the body may
        be at most ``limit`` bytes long once decompressed (``max_response_bytes`` unless given; ``cut``: the
        rest is left unread instead of raising). An error status raises with the start of its text
        (``text_from_caller``: a 400 means the caller's query or update was refused).
        """
        self._ensure_open()
        deadline = deadline or _Deadline.after(self.timeout)
        bounds = _Bounds(what, _public_url(url), deadline, url == self.query_url and "query" in data)
        left = deadline.left()
        if left <= 0:
            raise bounds.timed_out(reading=False)
        with self._network.hold(deadline) if self._network is not None else nullcontext():
            try:
                request = self._client.build_request("POST", url, data=data, headers=_HEADERS, timeout=left)
                response = self._client.send(request, stream=True)
            except httpx.TimeoutException as exc:
                raise bounds.timed_out(reading=False) from exc
            except httpx.HTTPError as exc:
                raise EndpointError(
                    f"{what}: cannot reach the SPARQL endpoint {bounds.where}: "
                    f"{self._scrub(str(exc)) or type(exc).__name__}"
                ) from exc
            except RuntimeError as exc:  # the client was closed under us
                raise StoreError(f"{what}: the remote store is closed") from exc
            try:
                if response.status_code >= 300:
                    raise self._status_error(response, bounds, text_from_caller)
                yield response, self._body(response, bounds, limit or self.max_response_bytes, cut=cut)
            finally:
                response.close()

    def _body(self, response: httpx.Response, bounds: _Bounds, limit: int, *, cut: bool = False) -> Iterator[bytes]:
        """The body of ``response``, decompressed, in pieces, within ``bounds``: more than ``limit`` bytes raise
        :class:`EndpointError` (``cut``: end quietly at ``limit`` instead)."""
        raw_chunks: Iterable[bytes]
        if response.is_stream_consumed:  # a test transport hands over a body it has already read (and decoded)
            decoder, raw_chunks = _Decoder(None, bounds.what), [response.content]
        else:
            decoder = _Decoder(response.headers.get("content-encoding"), bounds.what)
            raw_chunks = response.iter_raw(_READ_BYTES)
        total = 0
        try:
            for raw in raw_chunks:
                for piece in decoder.decode(raw):
                    total += len(piece)
                    if total > limit:
                        if cut:
                            yield piece[: len(piece) - (total - limit)]
                            return
                        raise EndpointError(
                            f"{bounds.what}: the answer from {bounds.where} is more than {limit} bytes long "
                            "(the store's max_response_bytes); narrow the query or raise the limit"
                        )
                    yield piece
                if bounds.deadline.left() <= 0:
                    raise bounds.timed_out(reading=True)
        except httpx.TimeoutException as exc:
            raise bounds.timed_out(reading=True) from exc
        except httpx.HTTPError as exc:
            raise EndpointError(
                f"{bounds.what}: the connection to {bounds.where} broke while reading the answer: "
                f"{self._scrub(str(exc)) or type(exc).__name__}"
            ) from exc

    def _status_error(self, response: httpx.Response, bounds: _Bounds, text_from_caller: bool) -> EndpointError:
        """The error for an HTTP error status, with the start of the server's message (read within bounds)."""
        try:
            raw = b"".join(self._body(response, bounds, _ERROR_BYTES, cut=True))
        except EndpointError as exc:  # a message cut short by the deadline or the connection: say what came
            raw = b""
            log.debug("reading an error page failed: %s", exc)
        try:
            text = raw.decode(response.charset_encoding or "utf-8", errors="replace")
        except LookupError:
            text = raw.decode("utf-8", errors="replace")
        message = self._scrub(text.strip())
        if len(message) > _MESSAGE_LIMIT:
            message = message[:_MESSAGE_LIMIT] + " ..."
        error = _RequestRefused if response.status_code == 400 and text_from_caller else _HTTPStatusError
        return error(
            f"{bounds.what}: HTTP {response.status_code} from {bounds.where}: {message or response.reason_phrase}",
            response.status_code,
        )

    def _scrub(self, text: str) -> str:
        return scrub(text, self._secrets)

    def _ensure_open(self) -> None:
        if self._closed:
            raise StoreError("the remote store is closed")


# --- functions ----------------------------------------------------------------------------------------------


def _insert(graph: str, triples: list[str], has_bnodes: bool) -> str:
    body = " .\n".join(triples) + " ."
    if has_bnodes:  # Virtuoso refuses blank nodes in INSERT DATA; a template with one solution is the same
        return f"INSERT {{ GRAPH {graph} {{\n{body}\n}} }} WHERE {{}}"
    return f"INSERT DATA {{ GRAPH {graph} {{\n{body}\n}} }}"


def _count(rows: list[Row], var: str) -> int:
    if len(rows) != 1:
        raise EndpointError(f"COUNT: expected one row, got {len(rows)}")
    return _int(rows[0].get(var), var)


def _int(term: Node | None, var: str) -> int:
    try:
        return int(str(term)) if term is not None else 0
    except ValueError as exc:
        raise EndpointError(f"expected an integer for ?{var}, got {term!r}") from exc


def _expand(variables: list[str], groups: dict[tuple[Node | None, ...], int]) -> list[Row]:
    """Rows back from groups of identical rows and their sizes."""
    return [dict(zip(variables, key, strict=True)) for key, n in groups.items() for _ in range(n)]


def _dedupe(rows: list[Row]) -> list[Row]:
    seen: set[tuple[tuple[str, Node | None], ...]] = set()
    out: list[Row] = []
    for row in rows:
        key = tuple(row.items())
        if key not in seen:
            seen.add(key)
            out.append(row)
    return out


def _fresh_var(base: str, taken: Iterable[str]) -> str:
    taken = set(taken)
    name, i = base, 0
    while name in taken:
        i += 1
        name = f"{base}{i}"
    return name


def _format(fmt: RdfFormat | str) -> RdfFormat:
    return fmt if isinstance(fmt, RdfFormat) else RdfFormat.parse(str(fmt))


def _decode(data: bytes | bytearray) -> str:
    try:
        return bytes(data).decode("utf-8-sig")
    except UnicodeDecodeError as exc:
        raise RDFSyntaxError(f"RDF input is not UTF-8: {exc}") from exc


def _check_url(url: str | None, name: str) -> str:
    if not isinstance(url, str) or urlsplit(url).scheme not in ("http", "https") or not urlsplit(url).hostname:
        raise InputError(f"{name} must be an http(s) URL, got {_public_url(str(url))!r}")
    return url


def _public_url(url: str) -> str:
    """The URL without user name, password, query or fragment."""
    try:
        parts = urlsplit(url)
    except ValueError:
        return "<invalid URL>"
    host = parts.hostname or ""
    if parts.port:
        host = f"{host}:{parts.port}"
    return urlunsplit((parts.scheme, host, parts.path, "", ""))


def _secrets(headers: dict[str, str], urls: Iterable[str]) -> list[str]:
    found: list[str] = []
    for value in headers.values():
        value = str(value)
        found.append(value)
        scheme, _, credential = value.partition(" ")
        if credential and scheme.isalpha():
            found.append(credential)  # "Bearer <token>": the token alone, too
    for url in urls:
        parts = urlsplit(url)
        found.extend(x for x in (parts.password, parts.username) if x)
        found.extend(unquote(x) for x in (parts.password, parts.username) if x)
        if parts.username is not None or parts.password is not None:
            # httpx sends URL credentials as Basic auth: an endpoint that echoes the header shows them encoded
            pair = f"{unquote(parts.username or '')}:{unquote(parts.password or '')}"
            found.append(base64.b64encode(pair.encode("utf-8")).decode("ascii"))
        if parts.query:
            found.append(parts.query)
            found.append(unquote(parts.query))
    return [s for s in found if s]


# --- bounded exchanges ----------------------------------------------------------------------------------------


@dataclass(frozen=True, slots=True)
class _Deadline:
    """The moment a request, or every request of one call, must be done by, and the limit it came from."""

    at: float
    """A :func:`time.monotonic` reading."""
    limit: float
    """Seconds, as the caller gave them (for messages and :attr:`QueryTimeout.limit`)."""

    @classmethod
    def after(cls, seconds: float) -> _Deadline:
        return cls(time.monotonic() + seconds, seconds)

    def left(self) -> float:
        return self.at - time.monotonic()


@dataclass(frozen=True, slots=True)
class _Bounds:
    """What one exchange is, for its error messages, and the deadline it must keep."""

    what: str
    where: str
    deadline: _Deadline
    query: bool
    """A query (its timeout is the query's time limit: :class:`QueryTimeout`), not an update."""

    def timed_out(self, *, reading: bool) -> EndpointError:
        limit = self.deadline.limit
        if reading:
            message = f"{self.what}: the answer from {self.where} did not arrive in full within {limit:g} s"
        else:
            message = f"{self.what}: no answer from {self.where} within {limit:g} s"
        if self.query:
            return _QueryTimedOut(f"{message} (the query's time limit)", limit=limit)
        return EndpointError(message)


class _Decoder:
    """Undoes one layer of gzip or deflate in pieces of at most ``_READ_BYTES``, so the bytes can be counted as
    they grow. httpx's own decoders expand a whole network read at once: with ``Content-Encoding: gzip, gzip`` a
    few KB become hundreds of MB inside one read. Stacked or other encodings (the store asks for gzip only) are
    refused."""

    def __init__(self, encoding: str | None, what: str) -> None:
        self._what = what
        codings = [c.strip().lower() for c in (encoding or "").split(",")]
        codings = [c for c in codings if c and c != "identity"]
        if not codings:
            self._z = None
        elif codings in (["gzip"], ["x-gzip"]):
            self._z = zlib.decompressobj(16 + zlib.MAX_WBITS)
        elif codings == ["deflate"]:
            self._z = zlib.decompressobj(zlib.MAX_WBITS)
        else:
            raise EndpointError(
                f"{what}: the endpoint answered with Content-Encoding {(encoding or '')[:60]!r}; "
                "only one layer of gzip or deflate is read"
            )

    def decode(self, data: bytes) -> Iterator[bytes]:
        if self._z is None:
            if data:
                yield data
            return
        try:
            while True:
                out = self._z.decompress(data, _READ_BYTES)
                data = self._z.unconsumed_tail
                if out:
                    yield out
                if not data and len(out) < _READ_BYTES:  # a full piece may leave more output behind
                    break
        except zlib.error as exc:
            raise EndpointError(f"{self._what}: the endpoint's compressed answer is corrupt ({exc})") from exc


class _DeadlineNetwork(httpcore.NetworkBackend):
    """httpcore's socket backend with every connect, read and write cut short at the deadline of the request the
    calling thread is making (:meth:`hold`).

    httpx's timeouts bound each wait for the next bytes and restart with every byte, so a reply trickled one
    byte at a time (its headers included, where nothing of the store's sees it) runs on long past the limit.
    Here each wait is given at most the time left, and none once it is gone.
    """

    def __init__(self) -> None:
        self._inner = httpcore.SyncBackend()
        self._local = threading.local()

    @contextmanager
    def hold(self, deadline: _Deadline) -> Iterator[None]:
        before = getattr(self._local, "at", None)
        self._local.at = deadline.at
        try:
            yield
        finally:
            self._local.at = before

    def clamp(self, timeout: float | None, error: type[httpcore.TimeoutException]) -> float | None:
        at: float | None = getattr(self._local, "at", None)
        if at is None:
            return timeout
        left = at - time.monotonic()
        if left <= 0:
            raise error("the request's deadline has passed")
        return left if timeout is None else min(timeout, left)

    def connect_tcp(
        self,
        host: str,
        port: int,
        timeout: float | None = None,
        local_address: str | None = None,
        socket_options: Any = None,
    ) -> httpcore.NetworkStream:
        stream = self._inner.connect_tcp(
            host, port, self.clamp(timeout, httpcore.ConnectTimeout), local_address, socket_options
        )
        return _DeadlineStream(stream, self)

    def connect_unix_socket(
        self, path: str, timeout: float | None = None, socket_options: Any = None
    ) -> httpcore.NetworkStream:
        stream = self._inner.connect_unix_socket(path, self.clamp(timeout, httpcore.ConnectTimeout), socket_options)
        return _DeadlineStream(stream, self)

    def sleep(self, seconds: float) -> None:
        self._inner.sleep(seconds)


class _DeadlineStream(httpcore.NetworkStream):
    """One connection of :class:`_DeadlineNetwork`."""

    def __init__(self, inner: httpcore.NetworkStream, network: _DeadlineNetwork) -> None:
        self._inner = inner
        self._network = network

    def read(self, max_bytes: int, timeout: float | None = None) -> bytes:
        return self._inner.read(max_bytes, self._network.clamp(timeout, httpcore.ReadTimeout))

    def write(self, buffer: bytes, timeout: float | None = None) -> None:
        self._inner.write(buffer, self._network.clamp(timeout, httpcore.WriteTimeout))

    def close(self) -> None:
        self._inner.close()

    def start_tls(
        self, ssl_context: Any, server_hostname: str | None = None, timeout: float | None = None
    ) -> httpcore.NetworkStream:
        tls = self._inner.start_tls(ssl_context, server_hostname, self._network.clamp(timeout, httpcore.ConnectTimeout))
        return _DeadlineStream(tls, self._network)

    def get_extra_info(self, info: str) -> Any:
        return self._inner.get_extra_info(info)


class _DeadlineTransport(httpx.HTTPTransport):
    """httpx's transport with its connections made by :class:`_DeadlineNetwork`.

    httpx takes no network backend, so the connection pool its constructor made is replaced by one with the same
    settings (httpx's defaults) and this backend. HTTPTransport has kept its pool in ``_pool`` since httpx 0.18;
    tests/hostile/test_remote_bounds.py (a reply trickled in its headers) fails if that ever changes.
    """

    def __init__(self, network: _DeadlineNetwork) -> None:
        ssl_context = httpx.create_ssl_context()
        super().__init__(verify=ssl_context)
        self._pool = httpcore.ConnectionPool(
            ssl_context=ssl_context,
            max_connections=100,
            max_keepalive_connections=20,
            keepalive_expiry=5.0,
            network_backend=network,
        )
