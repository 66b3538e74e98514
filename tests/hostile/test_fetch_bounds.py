"""The URL fetcher against a hostile web server: decompression bombs and servers that answer slowly.

A small server on 127.0.0.1 (raw sockets, so it can send what no well-behaved server would) serves bodies that
expand to hundreds of MB, stacked and unknown content codings, response headers dripped one byte at a time and a
gzip body whose header never ends. The fetcher must refuse each one with its own error kinds, keep its memory
small while doing so, and give up at its total deadline, saying so (its own report of the deadline is what is checked:
no test depends on timing, docs/architecture.md).

Loopback is refused by the fetcher's address policy unless allowed; these tests allow exactly 127.0.0.1/32 through
the public ``AddressPolicy(allowed_networks=...)``, as the fetcher tests in ``tests/service`` do.
"""

from __future__ import annotations

import gzip
import importlib.util
import ipaddress
import socket
import socketserver
import threading
import time
import tracemalloc
import zlib
from collections.abc import Callable, Iterator
from dataclasses import dataclass

import pytest

from ont_platform.service.fetch import AddressPolicy, Fetcher, FetchFailed
from ont_platform.service.settings import FetchLimits

LOOPBACK_ONLY = (ipaddress.ip_network("127.0.0.1/32"),)
BOMB_BYTES = 256 * 1024 * 1024
"""What each bomb expands to. The old fetcher held all of it in memory at once; 256 MB shows that clearly and
stays harmless on a test machine if a regression lets it through again."""
LIMIT = 1024 * 1024
"""``max_bytes`` of the fetches here."""
EXTRA_MEMORY = 64 * 1024 * 1024
"""Generous bound on the Python memory a refused bomb may cost (the fetcher itself needs about LIMIT plus a few
64 KiB pieces)."""
DEADLINE = 1.5
"""``timeout_s`` of the slow-server fetches."""
DRIP_EVERY = 0.25
DRIP_FOR = 12.0
"""The slow server sends one byte every DRIP_EVERY seconds for DRIP_FOR seconds, then hangs up: each byte comes well
within a wait for the next one, so only a deadline on the whole fetch ends it early, with ``code="timeout"``; a
fetcher without one would wait for the hang-up and fail otherwise."""
HAS_ZSTD = importlib.util.find_spec("zstandard") is not None
PAGE = "<html><body><p>에이크미 본사는 서울에 있다.</p></body></html>".encode() * 50


# -- bodies -------------------------------------------------------------------------------------------------------


def _gzip_zeros(size: int) -> bytes:
    """A gzip stream of ``size`` zero bytes, compressed piece by piece (never ``size`` bytes in memory)."""
    packer = zlib.compressobj(9, zlib.DEFLATED, zlib.MAX_WBITS | 16)
    zeros = bytes(1024 * 1024)
    parts = [packer.compress(zeros) for _ in range(size // len(zeros))]
    parts.append(packer.flush())
    return b"".join(parts)


def _zstd_zeros(size: int) -> bytes:
    import zstandard

    packer = zstandard.ZstdCompressor(level=3).compressobj(size=size)
    zeros = bytes(1024 * 1024)
    parts = [packer.compress(zeros) for _ in range(size // len(zeros))]
    parts.append(packer.flush())
    return b"".join(parts)


@dataclass(frozen=True)
class Bodies:
    gzip_bomb: bytes
    double_gzip_bomb: bytes
    zstd_bomb: bytes | None


@pytest.fixture(scope="module")
def bodies() -> Bodies:
    inner = _gzip_zeros(BOMB_BYTES)
    return Bodies(
        gzip_bomb=inner,
        double_gzip_bomb=gzip.compress(inner, 9),
        zstd_bomb=_zstd_zeros(BOMB_BYTES) if HAS_ZSTD else None,
    )


# -- the hostile server -------------------------------------------------------------------------------------------


def _head(coding: str | None = None, length: int | None = None) -> bytes:
    lines = ["HTTP/1.1 200 OK", "Content-Type: text/html; charset=utf-8", "Connection: close"]
    if coding is not None:
        lines.append(f"Content-Encoding: {coding}")
    if length is not None:
        lines.append(f"Content-Length: {length}")
    return ("\r\n".join(lines) + "\r\n\r\n").encode("ascii")


class _Hostile(socketserver.BaseRequestHandler):
    routes: dict[str, Callable[[socket.socket], None]]

    def handle(self) -> None:
        sock: socket.socket = self.request
        sock.settimeout(10)
        request = b""
        try:
            while b"\r\n\r\n" not in request and len(request) < 65536:
                data = sock.recv(4096)
                if not data:
                    return
                request += data
            path = request.split(b" ", 2)[1].decode("ascii")
            route = self.routes.get(path)
            if route is None:
                sock.sendall(b"HTTP/1.1 404 Not Found\r\nContent-Length: 0\r\nConnection: close\r\n\r\n")
            else:
                route(sock)
        except OSError:  # the fetcher hung up, as it should when it refuses
            return


def _drip(sock: socket.socket, stop: threading.Event) -> None:
    """Send one byte every DRIP_EVERY seconds for at most DRIP_FOR seconds (or until the tests end), then hang
    up (the handler returns and the server closes the connection)."""
    end = time.monotonic() + DRIP_FOR
    while time.monotonic() < end and not stop.wait(DRIP_EVERY):
        sock.sendall(b"a")


class _Server(socketserver.ThreadingTCPServer):
    daemon_threads = True
    allow_reuse_address = True


@dataclass
class Hostile:
    base: str

    def url(self, path: str) -> str:
        return f"{self.base}{path}"


@pytest.fixture(scope="module")
def hostile(bodies: Bodies) -> Iterator[Hostile]:
    stop = threading.Event()

    def send(coding: str | None, body: bytes) -> Callable[[socket.socket], None]:
        return lambda sock: sock.sendall(_head(coding, len(body)) + body)

    def slow_headers(sock: socket.socket) -> None:
        sock.sendall(b"HTTP/1.1 200 OK\r\nX-Drip: ")
        _drip(sock, stop)

    def slow_gzip_header(sock: socket.socket) -> None:
        # A gzip member whose header has a comment field (FLG.FCOMMENT): the comment runs until a zero byte, and
        # until then no decoder can give a single byte of body.
        sock.sendall(_head("gzip") + b"\x1f\x8b\x08\x10\x00\x00\x00\x00\x00\xff")
        _drip(sock, stop)

    routes: dict[str, Callable[[socket.socket], None]] = {
        "/gzip-bomb": send("gzip", bodies.gzip_bomb),
        "/double-gzip-bomb": send("gzip, gzip", bodies.double_gzip_bomb),
        "/triple-gzip": send("gzip, gzip, gzip", gzip.compress(gzip.compress(gzip.compress(PAGE)))),
        "/unknown-coding": send("x-hostile", PAGE),
        "/gzip-page": send("gzip", gzip.compress(PAGE)),
        "/double-gzip-page": send("gzip, gzip", gzip.compress(gzip.compress(PAGE))),
        "/deflate-zlib-page": send("deflate", zlib.compress(PAGE)),
        "/deflate-raw-page": send("deflate", zlib.compress(PAGE, wbits=-zlib.MAX_WBITS)),
        "/slow-headers": slow_headers,
        "/slow-gzip-header": slow_gzip_header,
    }
    if bodies.zstd_bomb is not None:
        import zstandard

        routes["/zstd-bomb"] = send("zstd", bodies.zstd_bomb)
        routes["/zstd-page"] = send("zstd", zstandard.ZstdCompressor().compress(PAGE))
    handler = type("Handler", (_Hostile,), {"routes": routes})
    server = _Server(("127.0.0.1", 0), handler)
    thread = threading.Thread(target=server.serve_forever, name="hostile-site", daemon=True)
    thread.start()
    try:
        yield Hostile(base=f"http://127.0.0.1:{server.server_address[1]}")
    finally:
        stop.set()
        server.shutdown()
        server.server_close()
        thread.join(timeout=5)


def fetcher(**limits: object) -> Fetcher:
    settings = {"max_bytes": LIMIT, "timeout_s": 30.0, **limits}
    return Fetcher(AddressPolicy(allowed_networks=LOOPBACK_ONLY), FetchLimits(**settings))  # type: ignore[arg-type]


def refused_within_memory(url: str) -> tuple[FetchFailed, int]:
    """The error of fetching ``url`` and the peak Python memory the fetch added (tracemalloc)."""
    started = not tracemalloc.is_tracing()
    if started:
        tracemalloc.start()
    try:
        tracemalloc.reset_peak()
        base = tracemalloc.get_traced_memory()[0]
        with pytest.raises(FetchFailed) as info:
            fetcher().fetch(url)
        peak = tracemalloc.get_traced_memory()[1] - base
    finally:
        if started:
            tracemalloc.stop()
    return info.value, peak


# -- decompression bombs ------------------------------------------------------------------------------------------


BOMBS = [
    pytest.param("/gzip-bomb", id="gzip"),
    pytest.param("/double-gzip-bomb", id="gzip-gzip"),
    pytest.param(
        "/zstd-bomb",
        id="zstd",
        marks=pytest.mark.skipif(
            not HAS_ZSTD, reason="zstandard is not installed: the fetcher neither asks for nor accepts zstd bodies"
        ),
    ),
]


@pytest.mark.parametrize("path", BOMBS)
def test_a_decompression_bomb_is_refused_as_too_large_without_expanding_it(hostile: Hostile, path: str) -> None:
    error, peak = refused_within_memory(hostile.url(path))
    assert error.code == "too_large", error
    assert "over the limit" in str(error)
    assert peak < EXTRA_MEMORY, f"the fetch took {peak / 2**20:.0f} MiB of memory before refusing the bomb"


@pytest.mark.parametrize(
    "path, why",
    [
        ("/triple-gzip", "content codings"),
        ("/unknown-coding", "x-hostile"),
    ],
)
def test_stacked_or_unknown_content_codings_are_refused(hostile: Hostile, path: str, why: str) -> None:
    with pytest.raises(FetchFailed, match=why) as info:
        fetcher().fetch(hostile.url(path))
    assert info.value.code == "bad_response"


@pytest.mark.parametrize(
    "path",
    [
        "/gzip-page",
        "/double-gzip-page",
        "/deflate-zlib-page",
        "/deflate-raw-page",
        pytest.param("/zstd-page", marks=pytest.mark.skipif(not HAS_ZSTD, reason="zstandard is not installed")),
    ],
)
def test_encoded_pages_within_the_limit_are_decoded(hostile: Hostile, path: str) -> None:
    # Not an attack: the decoder that replaced httpx's must still read what real servers send.
    page = fetcher().fetch(hostile.url(path))
    assert page.body == PAGE


# -- slow servers -------------------------------------------------------------------------------------------------


@pytest.mark.parametrize(
    "path",
    [
        pytest.param("/slow-headers", id="headers"),
        pytest.param("/slow-gzip-header", id="body-without-output"),
    ],
)
def test_a_slow_server_is_given_up_on_at_the_total_deadline(hostile: Hostile, path: str) -> None:
    with pytest.raises(FetchFailed) as info:
        fetcher(timeout_s=DEADLINE, connect_timeout_s=DEADLINE).fetch(hostile.url(path))
    assert info.value.code == "timeout", info.value
    # the fetcher's own report that its total deadline ran out (not a wait for one byte, not the hang-up)
    assert f"took longer than {DEADLINE:g} s" in str(info.value), info.value
