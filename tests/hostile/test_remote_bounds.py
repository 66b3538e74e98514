"""A hostile SPARQL endpoint against a graph opened on it: every answer is bounded in rows, bytes, depth and time.

The endpoint is a raw-socket HTTP server on 127.0.0.1 in a thread. Depending on a marker in the query it answers
with a million rows made as they are sent, a body that never ends (blanks, one endless string, an endless list
under a key nothing reads, an error page), a reply trickled a byte at a time (in the headers or in the body), JSON
nested 100,000 levels deep, or a dataset record whose ``asOf`` is not a date. The graph is opened as users open
it (``KnowledgeGraph.open(backend="remote")``) and every failure must be one of the library's errors with a clear
message, at its limit. Every sender loop here is bounded in bytes and in time, and stops when the client hangs up.

No test here times the client (docs/architecture.md: no test depends on timing): a limit is shown by the library's
own report of it (the row cap's truncation, the byte limit's error, the ``QueryTimeout`` naming its deadline) and by
what the server counted it sent before the client hung up.
"""

from __future__ import annotations

import re
import socket
import socketserver
import threading
import time
import tracemalloc
from collections.abc import Callable, Iterator
from urllib.parse import parse_qs

import pytest

from ont_platform import KnowledgeGraph
from ont_platform.errors import EndpointError, OntError, QueryTimeout
from ont_platform.limits import Limits
from ont_platform.storage.remote import DEFAULT_MAX_RESPONSE_BYTES

ROWS = 1_000_000
DEPTH = 100_000
SEND_CAP = 4 * DEFAULT_MAX_RESPONSE_BYTES  # no sender goes past this, whatever the client does
SEND_SECONDS = 30.0  # nor runs longer than this
TRICKLE_GAP = 0.05  # seconds between two bytes of a trickled reply

JSON_HEAD = b"HTTP/1.1 200 OK\r\nContent-Type: application/sparql-results+json\r\nConnection: close\r\n\r\n"
RESULTS_START = b'{"head":{"vars":["s","label"]},"results":{"bindings":['
EMPTY = b'{"head":{"vars":[]},"results":{"bindings":[]}}'
ONT = "https://w3id.org/ont-platform/core#"


def _row(i: int) -> bytes:
    return (
        b'{"s":{"type":"uri","value":"https://example.org/node/%d"},'
        b'"label":{"type":"literal","value":"a label of node number %d","xml:lang":"en"}}' % (i, i)
    )


class _Million:
    """A million rows, made batch by batch as they are sent (about 130 MB), then the end of the document. Counts
    the bytes the socket took before the client hung up (``sent``, final once ``done`` is set)."""

    def __init__(self) -> None:
        self.sent = 0
        self.done = threading.Event()

    def __call__(self, sock: socket.socket) -> None:
        self.sent = 0
        self.done.clear()
        try:
            self._send(sock, JSON_HEAD + RESULTS_START)
            for start in range(0, ROWS, 1_000):
                batch = b",".join(_row(i) for i in range(start, start + 1_000))
                self._send(sock, batch if start == 0 else b"," + batch)
            self._send(sock, b"]}}")
        finally:
            self.done.set()

    def _send(self, sock: socket.socket, data: bytes) -> None:
        sock.sendall(data)
        self.sent += len(data)


_million = _Million()


def _endless(prefix: bytes, filler: bytes, head: bytes = JSON_HEAD) -> Callable[[socket.socket], None]:
    """A body that starts with ``prefix`` and repeats ``filler`` until the client hangs up (or the caps)."""

    def send(sock: socket.socket) -> None:
        sock.sendall(head + prefix)
        block = filler * (1024 * 1024 // len(filler))
        sent, started = 0, time.monotonic()
        while sent < SEND_CAP and time.monotonic() - started < SEND_SECONDS:
            sock.sendall(block)
            sent += len(block)

    return send


def _trickle(where: str) -> Callable[[socket.socket], None]:
    """A valid answer sent one byte at a time: the padding is in a header or in the JSON body."""

    def send(sock: socket.socket) -> None:
        if where == "headers":
            first, slow = b"HTTP/1.1 200 OK\r\n", b"X-Padding: " + b"a" * 2_000 + b"\r\n"
            rest = b"Content-Type: application/sparql-results+json\r\nConnection: close\r\n\r\n" + EMPTY
        else:
            first, slow, rest = JSON_HEAD, b'{"head":{"vars":["s"]},' + b" " * 2_000, b'"results":{"bindings":[]}}'
        sock.sendall(first)
        started = time.monotonic()
        for byte in slow:
            if time.monotonic() - started > SEND_SECONDS:
                return
            sock.sendall(bytes([byte]))
            time.sleep(TRICKLE_GAP)
        sock.sendall(rest)

    return send


def _answer(body: bytes) -> Callable[[socket.socket], None]:
    def send(sock: socket.socket) -> None:
        sock.sendall(JSON_HEAD + body)

    return send


def _binding(var: str, term: bytes) -> bytes:
    return b'{"head":{"vars":["%s"]},"results":{"bindings":[{"%s":%s}]}}' % (var.encode(), var.encode(), term)


DEEP = b"[" * DEPTH + b"]" * DEPTH
ROUTES: dict[str, Callable[[socket.socket], None]] = {
    "urn:hostile:million": _million,
    "urn:hostile:endless-space": _endless(RESULTS_START, b" "),
    "urn:hostile:endless-string": _endless(RESULTS_START + b'{"s":{"type":"literal","value":"', b"a"),
    "urn:hostile:endless-extra": _endless(b'{"head":{"vars":["s"]},"extra":[', b'"' + b"x" * 1_021 + b'",'),
    "urn:hostile:endless-error": _endless(
        b"the server is sad: ",
        b"sad ",
        head=b"HTTP/1.1 500 Internal Server Error\r\nContent-Type: text/plain\r\nConnection: close\r\n\r\n",
    ),
    "urn:hostile:trickle-headers": _trickle("headers"),
    "urn:hostile:trickle-body": _trickle("body"),
    "urn:hostile:deep-binding": _answer(RESULTS_START + b'{"s":' + DEEP + b"}]}}"),
    "urn:hostile:deep-head": _answer(b'{"head":{"vars":' + DEEP + b'},"results":{"bindings":[]}}'),
    "urn:hostile:deep-extra": _answer(b'{"head":{"vars":[]},"results":{"bindings":[]},"extra":' + DEEP + b"}"),
    "urn:hostile:deep-ask": _answer(b'{"head":{},"boolean":' + DEEP + b"}"),
}


class _Handler(socketserver.BaseRequestHandler):
    """Reads one POST, picks the answer by the marker its query names, and closes the connection."""

    def handle(self) -> None:
        sock: socket.socket = self.request
        sock.settimeout(SEND_SECONDS)
        try:
            query = _read_query(sock)
            send = next((route for marker, route in ROUTES.items() if marker in query), None)
            if send is None:
                send = _answer(_ordinary(query))
            send(sock)
        except OSError:  # the client hung up: that is how every bounded read ends
            pass


def _read_query(sock: socket.socket) -> str:
    """The request's form fields (the query, the graph it is sent with), one per line."""
    data = b""
    while b"\r\n\r\n" not in data:
        chunk = sock.recv(65_536)
        if not chunk:
            return ""
        data += chunk
    head, _, body = data.partition(b"\r\n\r\n")
    length = re.search(rb"(?im)^content-length:\s*(\d+)", head)
    while length and len(body) < int(length.group(1)):
        chunk = sock.recv(65_536)
        if not chunk:
            break
        body += chunk
    form = parse_qs(body.decode("utf-8", "replace"))
    return "\n".join(value for values in form.values() for value in values)  # the query and the graph it names


def _ordinary(query: str) -> bytes:
    """Plausible answers for the queries a question context sends: one onchain dataset whose asOf is no date."""
    if re.search(r"(?i)\bASK\s*\{", query):
        return b'{"head":{},"boolean":false}'
    if f"{ONT}asOf" in query:
        return _binding(
            "d", b'{"type":"literal","value":"next tuesday","datatype":"http://www.w3.org/2001/XMLSchema#date"}'
        )
    if f"{ONT}Dataset" in query and f"{ONT}domain" in query:
        return _binding("d", b'{"type":"literal","value":"onchain"}')
    return EMPTY


class _Server(socketserver.ThreadingTCPServer):
    daemon_threads = True
    allow_reuse_address = True


@pytest.fixture(scope="module")
def endpoint() -> Iterator[str]:
    server = _Server(("127.0.0.1", 0), _Handler)
    thread = threading.Thread(target=server.serve_forever, daemon=True)
    thread.start()
    try:
        yield f"http://127.0.0.1:{server.server_address[1]}/sparql"
    finally:
        server.shutdown()
        server.server_close()


def graph(endpoint: str, **limits: float) -> KnowledgeGraph:
    return KnowledgeGraph.open(backend="remote", endpoint=endpoint, limits=Limits(**limits))  # type: ignore[arg-type]


def select(marker: str) -> str:
    return f"SELECT ?s ?label WHERE {{ ?s <{marker}> ?label }}"


# --- rows --------------------------------------------------------------------------------------------------------


@pytest.mark.slow
def test_a_million_rows_stop_at_the_row_limit(endpoint: str) -> None:
    with graph(endpoint, query_timeout_s=60.0) as kg:
        tracemalloc.start()
        try:
            rows = kg.select(select("urn:hostile:million"))
            _, peak = tracemalloc.get_traced_memory()
        finally:
            tracemalloc.stop()
    assert len(rows) == kg.limits.max_result_rows and rows.truncated
    assert str(rows[0]["s"]) == "https://example.org/node/0" and str(rows[-1]["label"]).endswith(" 9999")
    # the whole answer is ~130 MB of JSON: reading only what is kept stays far below it
    assert peak < 100 * 1024**2, f"peak {peak / 1024**2:.0f} MB while reading 10,001 rows"
    # and the client hung up after the rows it keeps: the server got a small part of the answer out (what the rows
    # kept take, and what the two sockets' buffers hold), not the whole
    assert _million.done.wait(120), "the server is still sending: the client did not hang up"
    whole = ROWS * len(_row(0))  # less than the whole answer: later rows have longer numbers
    assert _million.sent < whole // 4, f"the server sent {_million.sent} of about {whole} bytes"


# --- bytes -------------------------------------------------------------------------------------------------------


@pytest.mark.parametrize(
    "marker", ["urn:hostile:endless-space", "urn:hostile:endless-string", "urn:hostile:endless-extra"]
)
def test_an_endless_answer_is_refused_at_a_byte_limit(endpoint: str, marker: str) -> None:
    """Blanks or one string are refused at sparql_json.MAX_VALUE_BYTES, endless values the parser reads past at
    remote.DEFAULT_MAX_RESPONSE_BYTES."""
    with graph(endpoint, query_timeout_s=60.0) as kg:
        with pytest.raises(EndpointError, match=r"more than \d+ bytes") as info:
            kg.select(select(marker))
    assert str(info.value).startswith("SELECT: ")


def test_an_endless_error_page_is_cut(endpoint: str) -> None:
    with graph(endpoint, query_timeout_s=60.0) as kg:
        tracemalloc.start()
        try:
            with pytest.raises(EndpointError, match="HTTP 500 .*the server is sad") as info:
                kg.select(select("urn:hostile:endless-error"))
            _, peak = tracemalloc.get_traced_memory()
        finally:
            tracemalloc.stop()
    assert len(str(info.value)) < 1_000
    assert peak < 50 * 1024**2, f"peak {peak / 1024**2:.0f} MB to read an error message"


# --- time --------------------------------------------------------------------------------------------------------


@pytest.mark.parametrize("where", ["headers", "body"])
def test_a_trickled_reply_is_stopped_at_the_query_deadline(endpoint: str, where: str) -> None:
    """Every byte comes well within httpx's wait for the next one, and the whole reply takes 100 s: only a deadline
    on the whole answer stops it, and the library says so, naming its limit (not timed here)."""
    limit = 1.5
    with graph(endpoint, query_timeout_s=limit) as kg:
        with pytest.raises(QueryTimeout, match="1.5 s") as info:
            kg.select(select(f"urn:hostile:trickle-{where}"))
    assert isinstance(info.value, EndpointError) and info.value.limit == limit


# --- depth -------------------------------------------------------------------------------------------------------


@pytest.mark.parametrize("marker", ["urn:hostile:deep-binding", "urn:hostile:deep-head", "urn:hostile:deep-extra"])
def test_deeply_nested_json_is_refused(endpoint: str, marker: str) -> None:
    with graph(endpoint) as kg:
        with pytest.raises(EndpointError, match="nests deeper than") as info:
            kg.select(select(marker))
    assert "SELECT" in str(info.value)


def test_deeply_nested_ask_answer_is_refused(endpoint: str) -> None:
    with graph(endpoint) as kg:
        with pytest.raises(EndpointError, match="nests deeper than"):
            kg.select("ASK { ?s <urn:hostile:deep-ask> ?o }")


def test_deeply_nested_json_while_opening_is_a_library_error(endpoint: str) -> None:
    """The graph's own first read (the loaded domains, as ``ont serve`` does at start-up) meets the same answer."""
    deep = KnowledgeGraph.open(backend="remote", endpoint=endpoint, graph_iri="urn:hostile:deep-binding")
    with deep as kg, pytest.raises(EndpointError, match="nests deeper than"):
        kg.domains()


# --- values ------------------------------------------------------------------------------------------------------


def test_an_as_of_that_is_not_a_date_is_a_library_error(endpoint: str) -> None:
    with graph(endpoint) as kg:
        with pytest.raises(OntError, match="asOf") as info:
            kg.ask("n_a1 에서 3-hop 안에 거래소에 닿나요?")
    assert "next tuesday" in str(info.value)
