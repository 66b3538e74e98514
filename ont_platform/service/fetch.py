"""The one place ont_platform opens outbound connections: a guarded URL fetcher, and a JSON poster for the
configured LLM endpoint.

A URL from a user is fetched only when every address its host resolves to is public (or explicitly allowed),
and the connection goes to the address that was checked, not to whatever the name resolves to a moment later:

1. only ``http`` and ``https``; no user name or password in the URL;
2. the host is resolved here, and the fetch is refused unless *every* address is allowed: loopback, private,
   link-local, multicast, reserved, shared (CGNAT) and unspecified addresses are refused, also when wrapped in
   IPv6 (``::ffff:127.0.0.1``, 6to4, NAT64, Teredo), unless the settings allow private URLs or list the
   network in ``allowed_networks``;
3. the request is sent to the checked address with the original ``Host`` header and, for https, the original
   name for SNI and certificate checks;
4. redirects are followed by hand, at most ``max_redirects``, and every hop goes through steps 1 to 3 again;
5. the body is read up to ``max_bytes``, counted after decompression, which is done here in bounded pieces
   (at most :data:`MAX_CODINGS` stacked content codings); bigger pages are refused, not cut;
6. the whole fetch (resolving, connecting, headers, body, every redirect hop) ends by one wall-clock deadline
   ``timeout_s`` after it began: a server that sends one byte at a time cannot stretch it; slower pages are
   refused, not cut;
7. proxy variables of the environment are ignored (a proxy would resolve names where they cannot be checked).

Error messages show a URL without its query string, fragment or credentials, so secrets in URLs are not echoed.
"""

from __future__ import annotations

import functools
import importlib
import ipaddress
import json
import os
import re
import socket
import threading
import time
import zlib
from collections.abc import Callable, Iterable, Iterator, Mapping
from dataclasses import dataclass, field
from typing import Any, TypeVar

import httpx

from ont_platform import jsonl
from ont_platform.errors import (
    FetchError,
    FetchFailed,
    URLRefused,
)
from ont_platform.redaction import check_headers
from ont_platform.service.settings import FetchLimits, Network

IPAddress = ipaddress.IPv4Address | ipaddress.IPv6Address
Resolver = Callable[[str, int], list[str]]
"""Turns a host name and port into IP address strings (``socket.getaddrinfo`` by default)."""

MAX_URL_CHARS = 2048
HTML_TYPES = ("text/html", "application/xhtml+xml", "text/plain", "application/xml", "text/xml")
_REDIRECTS = (301, 302, 303, 307, 308)
_NAT64 = ipaddress.ip_network("64:ff9b::/96")
_HOSTNAME = re.compile(r"[A-Za-z0-9_](?:[A-Za-z0-9_.-]{0,251}[A-Za-z0-9_.])?")


def redact(url: str | httpx.URL) -> str:
    """``scheme://host[:port]/path`` only: no credentials, query or fragment."""
    try:
        u = url if isinstance(url, httpx.URL) else httpx.URL(url)
        host = u.host
        if ":" in host:
            host = f"[{host}]"
        port = f":{u.port}" if u.port is not None else ""
        tail = "?…" if u.query else ""
        return f"{u.scheme}://{host}{port}{u.path}{tail}"
    except (httpx.InvalidURL, ValueError, TypeError):
        return "(unparseable URL)"


# -- addresses ----------------------------------------------------------------------------------------------------


def _embedded_ipv4(addr: IPAddress) -> ipaddress.IPv4Address | None:
    """The IPv4 address an IPv6 address carries (mapped, 6to4, NAT64, Teredo client), if any."""
    if not isinstance(addr, ipaddress.IPv6Address):
        return None
    if addr.ipv4_mapped is not None:
        return addr.ipv4_mapped
    if addr.sixtofour is not None:
        return addr.sixtofour
    if addr.teredo is not None:
        return addr.teredo[1]
    if addr in _NAT64:
        return ipaddress.IPv4Address(int(addr) & 0xFFFFFFFF)
    return None


def _kind(addr: IPAddress) -> str | None:
    """Why an address is not public (``loopback``, ``private`` ...), or None for a public unicast address."""
    if addr.is_unspecified:
        return "unspecified"
    if addr.is_loopback:
        return "loopback"
    if addr.is_link_local:
        return "link-local"
    if addr.is_multicast:
        return "multicast"
    if isinstance(addr, ipaddress.IPv4Address) and addr in ipaddress.ip_network("100.64.0.0/10"):
        return "shared (carrier-grade NAT)"
    if addr.is_private:
        return "private"
    if addr.is_reserved:
        return "reserved"
    if not addr.is_global:
        return "non-public"
    return None


@dataclass(frozen=True, slots=True)
class AddressPolicy:
    """Which addresses may be fetched: public unicast ones, plus ``allowed_networks``, plus every non-public
    one when ``allow_private`` (multicast and unspecified addresses stay refused unless listed)."""

    allow_private: bool = False
    allowed_networks: tuple[Network, ...] = ()

    def refusal(self, addr: IPAddress) -> str | None:
        """Why ``addr`` may not be fetched, or None when it may."""
        inner = _embedded_ipv4(addr)
        candidates = [addr] if inner is None else [inner, addr]
        if any(c in net for c in candidates for net in self.allowed_networks if c.version == net.version):
            return None
        for c in candidates:
            kind = _kind(c)
            if kind is None:
                continue
            if self.allow_private and kind not in ("multicast", "unspecified"):
                continue
            shown = str(c) if c is addr else f"{c} (inside {addr})"
            article = "an" if kind[0] in "aeiou" else "a"
            return f"{shown} is {article} {kind} address"
        return None


def system_resolver(host: str, port: int) -> list[str]:
    """Every address ``host`` resolves to, via the system resolver."""
    infos = socket.getaddrinfo(host, port, type=socket.SOCK_STREAM, proto=socket.IPPROTO_TCP)
    return [str(info[4][0]) for info in infos]


# -- the fetcher ------------------------------------------------------------------------------------------------


@dataclass
class FetchedPage:
    """A fetched page: the URL asked for, the URL that answered (after redirects), the body, and the redirect
    targets in order (shown without query strings, like every URL in a message)."""

    url: str
    final_url: str
    status: int
    content_type: str
    charset: str | None
    body: bytes
    redirects: list[str] = field(default_factory=list)

    def text(self) -> str | bytes:
        """The body decoded with the charset the server declared, or the raw bytes when it declared none (the
        HTML reader then looks for a ``<meta charset>``)."""
        if self.charset:
            try:
                return self.body.decode(self.charset, errors="replace")
            except LookupError:
                return self.body
        return self.body


class Fetcher:
    """Fetch http(s) URLs under an :class:`AddressPolicy` and :class:`FetchLimits`.

    ``resolver`` and ``transport`` can be replaced (tests give a fake resolver, or an ``httpx.MockTransport``);
    the policy is applied to whatever the resolver returns.

    Raises :class:`URLRefused` (nothing was sent) or :class:`FetchFailed`.
    """

    def __init__(
        self,
        policy: AddressPolicy | None = None,
        limits: FetchLimits | None = None,
        *,
        resolver: Resolver | None = None,
        transport: httpx.BaseTransport | None = None,
    ) -> None:
        self.policy = policy or AddressPolicy()
        self.limits = limits or FetchLimits()
        self.resolver = resolver or system_resolver
        self.transport = transport

    def check_url(self, url: str) -> httpx.URL:
        """The parsed URL, or URLRefused for a scheme, form or length that is never fetched."""
        if not isinstance(url, str) or not url.strip():
            raise URLRefused("the URL is empty")
        if len(url) > MAX_URL_CHARS:
            raise URLRefused(f"the URL is longer than {MAX_URL_CHARS} characters")
        try:
            parsed = httpx.URL(url.strip())
        except Exception as exc:  # httpx.InvalidURL and friends
            raise URLRefused("not a valid URL") from exc
        if parsed.scheme not in ("http", "https"):
            raise URLRefused(f"only http and https URLs are fetched, not {parsed.scheme or 'a relative URL'}")
        if parsed.userinfo:
            raise URLRefused("URLs with a user name or password are not fetched")
        if not parsed.host:
            raise URLRefused("the URL has no host")
        host = parsed.raw_host.decode("ascii", errors="replace")
        if not (_HOSTNAME.fullmatch(host) or host.startswith("[") or ":" in host):
            raise URLRefused("not a valid URL: the host is not a host name or an IP address")
        return parsed

    def resolve(self, url: httpx.URL) -> IPAddress:
        """The address to connect to: every address of the host must be allowed; the first one is used."""
        host = url.raw_host.decode("ascii").rstrip(".")
        port = url.port or (443 if url.scheme == "https" else 80)
        try:
            literal = ipaddress.ip_address(host.strip("[]").split("%", 1)[0])
            raw = [str(literal)]
        except ValueError:
            try:
                raw = self.resolver(host, port)
            except (OSError, UnicodeError) as exc:
                raise FetchFailed(f"cannot resolve the host of {redact(url)}", code="unresolvable") from exc
        addresses: list[IPAddress] = []
        for text in raw:
            try:
                addresses.append(ipaddress.ip_address(str(text).split("%", 1)[0]))
            except ValueError as exc:
                raise FetchFailed(
                    f"the host of {redact(url)} resolved to something that is not an address", code="unresolvable"
                ) from exc
        if not addresses:
            raise FetchFailed(f"the host of {redact(url)} has no address", code="unresolvable")
        for addr in addresses:
            why = self.policy.refusal(addr)
            if why is not None:
                raise URLRefused(
                    f"{redact(url)} is refused: {why} (set allow_private_urls or allowed_networks "
                    "to fetch such addresses)"
                )
        return addresses[0]

    def fetch(self, url: str) -> FetchedPage:
        """GET ``url`` with every safety rule of this module; returns the page of the last hop.

        The whole call, every redirect hop included, ends within ``limits.timeout_s`` (plus the moment it takes
        to notice): past the deadline it raises :class:`FetchFailed` with ``code="timeout"``.
        """
        first = current = self.check_url(url)
        redirects: list[str] = []
        deadline = _Deadline(self.limits.timeout_s)
        try:
            for _ in range(self.limits.max_redirects + 1):
                address = _in_time(
                    deadline, functools.partial(self.resolve, current), functools.partial(self._late, current)
                )
                status, headers, body = self._get(current, address, deadline)
                if status in _REDIRECTS and headers.get("location"):
                    try:
                        target = current.join(headers["location"])
                    except Exception as exc:
                        raise FetchFailed(
                            f"{redact(current)} redirects to an invalid URL", code="bad_response"
                        ) from exc
                    redirects.append(redact(target))
                    current = self.check_url(str(target))
                    continue
                if not 200 <= status < 300:
                    raise FetchFailed(f"{redact(current)} answered HTTP {status}", code="status")
                ctype, charset = _content_type(headers.get("content-type", ""))
                if ctype and ctype not in HTML_TYPES:
                    raise FetchFailed(f"{redact(current)} is {ctype}, not an HTML or text page", code="content_type")
                return FetchedPage(
                    url=_public(first),
                    final_url=_public(current),
                    status=status,
                    content_type=ctype or "text/html",
                    charset=charset,
                    body=body,
                    redirects=redirects,
                )
        finally:
            deadline.close()
        raise FetchFailed(f"{redact(first)} redirects more than {self.limits.max_redirects} times", code="redirects")

    def _late(self, url: httpx.URL) -> FetchFailed:
        return FetchFailed(f"fetching {redact(url)} took longer than {self.limits.timeout_s:g} s", code="timeout")

    def _get(self, url: httpx.URL, address: IPAddress, deadline: _Deadline) -> tuple[int, Mapping[str, str], bytes]:
        remaining = deadline.remaining
        if remaining <= 0:
            raise self._late(url)
        pinned = url.copy_with(host=str(address))
        headers = {
            "Host": url.netloc.decode("ascii"),
            "User-Agent": self.limits.user_agent,
            "Accept": "text/html,application/xhtml+xml;q=0.9,text/plain;q=0.8",
            "Accept-Encoding": accepted_codings(),
        }
        # httpcore calls the trace hook with each new connection: the deadline takes its socket from there.
        extensions: dict[str, Any] = {"trace": deadline.trace}
        if url.scheme == "https":
            extensions["sni_hostname"] = url.raw_host.decode("ascii").rstrip(".")
        # Each operation's own timeout is capped by what is left of the whole fetch; the deadline's timer covers
        # what these cannot (a read timeout starts again with every byte that arrives).
        timeout = httpx.Timeout(remaining, connect=min(self.limits.connect_timeout_s, remaining))

        def in_time() -> None:
            if deadline.passed:
                raise self._late(url)

        # One client per hop: a pooled connection opened (and certificate-checked) for one host name must never
        # carry a request for another name that happens to resolve to the same address.
        try:
            with httpx.Client(
                transport=self.transport, trust_env=False, follow_redirects=False, timeout=timeout
            ) as client:
                request = client.build_request("GET", pinned, headers=headers, extensions=extensions)
                response = client.send(request, stream=True)
                try:
                    if response.status_code in _REDIRECTS or not 200 <= response.status_code < 300:
                        return response.status_code, dict(response.headers), b""
                    declared = response.headers.get("content-length", "")
                    if declared.isdigit() and int(declared) > self.limits.max_bytes:
                        raise FetchFailed(
                            f"{redact(url)} is {int(declared)} bytes, over the limit of {self.limits.max_bytes}",
                            code="too_large",
                        )
                    body = _read_body(
                        response,
                        self.limits.max_bytes,
                        redact(url),
                        f"{redact(url)} is over the limit of {self.limits.max_bytes} bytes",
                        in_time,
                    )
                    # A close-delimited body that the deadline cut short ends like a whole one: not a page.
                    in_time()
                    return response.status_code, dict(response.headers), body
                finally:
                    response.close()
        except httpx.TimeoutException as exc:
            raise self._late(url) from exc
        except (httpx.TransportError, httpx.DecodingError) as exc:
            if deadline.passed:  # the deadline shut the socket down under a read or a write
                raise self._late(url) from exc
            raise FetchFailed(f"could not fetch {redact(url)}: {type(exc).__name__}", code="connect") from exc
        finally:
            deadline.release()


# -- bodies: content codings decoded here, in bounded pieces -----------------------------------------------------

MAX_CODINGS = 2
"""Most content codings one body may stack (``Content-Encoding: gzip, gzip``); a body with more is refused.
Servers use one; every further layer multiplies what a few bytes can expand to."""
_PIECE = 64 * 1024
"""Most bytes a decoder hands on before they are counted. httpx decodes a whole network read in one call, so one
64 KiB read of a gzip bomb became ~64 MB (``gzip, gzip``: gigabytes) before the first byte could be counted."""
_ZSTD_WINDOW = 8 * 1024 * 1024
"""Largest zstd window accepted. A zstd decoder allocates the window its frame asks for; RFC 9659 caps the window
of the ``zstd`` content coding at 8 MB."""

_Decoder = Callable[[Iterable[bytes]], Iterator[bytes]]
"""Turns the pieces of an encoded stream into decoded pieces of at most about ``_PIECE`` bytes each."""
_T = TypeVar("_T")


class _Undecodable(Exception):
    """A body that is not valid in the content coding it declared (the message names the coding)."""


def _inflate(source: Iterable[bytes], wbits: int) -> Iterator[bytes]:
    """gzip, zlib or raw deflate (by ``wbits``). ``max_length`` makes zlib stop once a piece is full; the input
    it did not use yet waits in ``unconsumed_tail`` for the next call. Bytes after the end of the stream are
    ignored, as httpx and browsers do."""
    unpacker = zlib.decompressobj(wbits)
    try:
        for data in source:
            while not unpacker.eof:
                piece = unpacker.decompress(data, _PIECE)
                if piece:
                    yield piece
                data = unpacker.unconsumed_tail
                if not data and len(piece) < _PIECE:
                    break  # all input used, and zlib had no more output for it
        rest = unpacker.flush()
    except zlib.error as exc:
        raise _Undecodable("gzip" if wbits > zlib.MAX_WBITS else "deflate") from exc
    if rest:
        yield rest


def _gunzip(source: Iterable[bytes]) -> Iterator[bytes]:
    return _inflate(source, zlib.MAX_WBITS | 16)


def _deflate(source: Iterable[bytes]) -> Iterator[bytes]:
    """``deflate`` is zlib-wrapped by the standard (RFC 9110) but sent raw by some servers; httpx and browsers
    take both, so the first two bytes decide (a zlib header: method 8, window at most 32 KiB, a multiple of 31)."""
    chunks = iter(source)
    head = b""
    for data in chunks:
        head += data
        if len(head) >= 2:
            break
    wrapped = len(head) >= 2 and head[0] & 0x0F == 8 and head[0] >> 4 <= 7 and ((head[0] << 8) | head[1]) % 31 == 0
    yield from _inflate(_chain(head, chunks), zlib.MAX_WBITS if wrapped else -zlib.MAX_WBITS)


def _chain(first: bytes, rest: Iterator[bytes]) -> Iterator[bytes]:
    if first:
        yield first
    yield from rest


class _Feed:
    """A file-like ``read`` over an iterator of chunks, for decoders that pull their input."""

    def __init__(self, chunks: Iterable[bytes]) -> None:
        self._chunks = iter(chunks)
        self._rest = b""

    def read(self, size: int = -1) -> bytes:
        while not self._rest:
            chunk = next(self._chunks, None)
            if chunk is None:
                return b""
            self._rest = chunk
        if size < 0:
            size = len(self._rest)
        out, self._rest = self._rest[:size], self._rest[size:]
        return out


def _unzstd(source: Iterable[bytes]) -> Iterator[bytes]:
    """zstd through zstandard's ``stream_reader``, whose ``read(n)`` returns at most ``n`` bytes however far the
    input would expand (``decompressobj().decompress`` returns everything its input holds at once)."""
    zstandard: Any = importlib.import_module("zstandard")
    reader = zstandard.ZstdDecompressor(max_window_size=_ZSTD_WINDOW).stream_reader(
        _Feed(source), read_size=_PIECE, read_across_frames=True, closefd=False
    )
    while True:
        try:
            piece: bytes = reader.read(_PIECE)
        except zstandard.ZstdError as exc:
            raise _Undecodable("zstd") from exc
        if not piece:
            return
        yield piece


def _unbrotli(source: Iterable[bytes]) -> Iterator[bytes]:
    """br through Brotli's ``Decompressor``, with ``output_buffer_limit`` (Brotli 1.2 and later): once a piece is
    full the decoder keeps the rest, and ``process(b"")`` hands it on until it can take more input."""
    brotli: Any = importlib.import_module("brotli")
    unpacker = brotli.Decompressor()
    try:
        for data in source:
            piece: bytes = unpacker.process(data, output_buffer_limit=_PIECE)
            while True:
                if piece:
                    yield piece
                if unpacker.can_accept_more_data():
                    break
                piece = unpacker.process(b"", output_buffer_limit=_PIECE)
    except brotli.error as exc:
        raise _Undecodable("br") from exc


@functools.cache
def _decoders() -> dict[str, _Decoder]:
    """The content codings decoded here: gzip and deflate always, zstd with ``zstandard`` installed, br with
    ``brotli`` 1.2 or later (older versions cannot bound their output, so br is then neither asked for nor
    accepted)."""
    found: dict[str, _Decoder] = {"gzip": _gunzip, "x-gzip": _gunzip, "deflate": _deflate}
    try:
        importlib.import_module("zstandard")
        found["zstd"] = _unzstd
    except ImportError:
        pass
    try:
        brotli: Any = importlib.import_module("brotli")
        if hasattr(brotli.Decompressor, "can_accept_more_data"):
            found["br"] = _unbrotli
    except ImportError:
        pass
    return found


def accepted_codings() -> str:
    """The ``Accept-Encoding`` this module sends: the content codings it can decode within its bounds."""
    return ", ".join(name for name in _decoders() if name != "x-gzip")


def _codings(headers: httpx.Headers, where: str) -> list[str]:
    """The content codings of a response, in the order they were applied; FetchFailed (``bad_response``) for
    more than MAX_CODINGS of them or one not decoded here (httpx would pass an unknown one through as if it were
    the page)."""
    names = [v.strip().lower() for v in headers.get_list("content-encoding", split_commas=True)]
    names = [n for n in names if n and n != "identity"]
    if len(names) > MAX_CODINGS:
        raise FetchFailed(
            f"{where} stacks {len(names)} content codings; at most {MAX_CODINGS} are decoded", code="bad_response"
        )
    for name in names:
        if name not in _decoders():
            raise FetchFailed(
                f"{where} uses the content coding {name[:40]!r}, which is not decoded here (only {accepted_codings()})",
                code="bad_response",
            )
    return names


def _bounded(chunks: Iterable[bytes], limit: int, too_large: str) -> Iterator[bytes]:
    size = 0
    for chunk in chunks:
        size += len(chunk)
        if size > limit:
            raise FetchFailed(too_large, code="too_large")
        yield chunk


def _read_body(
    response: httpx.Response, limit: int, where: str, too_large: str, in_time: Callable[[], None] = lambda: None
) -> bytes:
    """The body of a streamed ``response``, read raw and decoded here: FetchFailed (``too_large``, message
    ``too_large``) as soon as the raw bytes, or the output of any decoding layer, pass ``limit``, so no more than
    about ``limit`` plus one piece per layer is ever held. ``in_time`` runs after every piece (it raises when
    the fetch's deadline has passed)."""
    codings = _codings(response.headers, where)
    if response.is_stream_consumed:
        # Built in memory by the transport (httpx.MockTransport, from bytes), which httpx has read and decoded
        # already: nothing came over a network, and there is nothing raw left to read.
        if len(response.content) > limit:
            raise FetchFailed(too_large, code="too_large")
        return response.content
    stream = _bounded(response.iter_raw(), limit, too_large)
    for name in reversed(codings):
        stream = _bounded(_decoders()[name](stream), limit, f"{too_large} once decompressed")
    chunks: list[bytes] = []
    try:
        for piece in stream:
            in_time()
            chunks.append(piece)
    except _Undecodable as exc:
        raise FetchFailed(f"{where} sent a body that is not valid {exc}", code="bad_response") from exc
    return b"".join(chunks)


# -- the deadline of a fetch -------------------------------------------------------------------------------------


def _shut(sock: socket.socket) -> None:
    try:
        sock.shutdown(socket.SHUT_RDWR)
    except OSError:  # already closed by the peer
        pass


class _Deadline:
    """The wall-clock end of one fetch, enforced on its sockets.

    httpx's timeouts bound each operation: a read waits at most so long *for its next bytes*, so a server that
    sends one byte every few seconds held a fetch for 42 s against a 10 s limit. Here a timer thread, at the
    deadline, shuts down every socket the fetch has open; a read or write blocked on one returns at once, and the
    fetch fails with ``timeout``. Shutting a socket down wakes a blocked reader; closing it would not.

    The sockets come from httpcore's ``trace`` request extension (``connection.connect_tcp.complete`` hands over
    each new connection). The timer works on a duplicate of each socket's descriptor, closed only under the lock
    it also takes: a descriptor that httpx closed and the system gave to another connection is never touched.
    A transport that makes no connections of its own (``httpx.MockTransport``) calls no trace hook and needs none.
    """

    def __init__(self, seconds: float) -> None:
        self.at = time.monotonic() + seconds
        self._lock = threading.Lock()
        self._sockets: list[socket.socket] = []
        self._expired = False
        self._closed = False
        self._timer = threading.Timer(seconds, self._expire)
        self._timer.name = "ont-fetch-deadline"
        self._timer.daemon = True
        self._timer.start()

    @property
    def remaining(self) -> float:
        return self.at - time.monotonic()

    @property
    def passed(self) -> bool:
        return self._expired or time.monotonic() >= self.at

    def trace(self, event: str, info: Mapping[str, Any]) -> None:
        """httpcore's trace hook: keep a duplicate of each new connection's socket."""
        if event != "connection.connect_tcp.complete":
            return
        stream = info.get("return_value")
        sock = stream.get_extra_info("socket") if stream is not None else None
        if not isinstance(sock, socket.socket):
            return
        try:
            watched = socket.socket(fileno=os.dup(sock.fileno()))
        except OSError as exc:  # out of descriptors: do not go on with a connection the deadline cannot stop
            raise FetchFailed("could not watch the connection for the fetch's deadline", code="connect") from exc
        with self._lock:
            if self._closed:
                watched.close()
                return
            self._sockets.append(watched)
            if self._expired:
                _shut(watched)

    def _expire(self) -> None:
        with self._lock:
            if self._closed:
                return
            self._expired = True
            for sock in self._sockets:
                _shut(sock)

    def release(self) -> None:
        """Close the duplicates of the sockets so far (their hop is over)."""
        with self._lock:
            for sock in self._sockets:
                sock.close()
            self._sockets.clear()

    def close(self) -> None:
        """Stop the timer and release every socket: the fetch is over."""
        self._timer.cancel()
        with self._lock:
            self._closed = True
        self.release()


def _in_time(deadline: _Deadline, work: Callable[[], _T], late: Callable[[], FetchFailed]) -> _T:
    """``work()`` (resolving a host name) in a daemon thread, or ``late()`` raised once the deadline passes
    first: the system resolver cannot be interrupted, and a slow name server would otherwise add its own
    timeouts to every redirect hop. An abandoned lookup ends by itself when the resolver gives up."""
    results: list[_T] = []
    errors: list[BaseException] = []
    finished = threading.Event()

    def run() -> None:
        try:
            results.append(work())
        except BaseException as exc:  # noqa: BLE001 - handed to the caller's thread, which raises it
            errors.append(exc)
        finally:
            finished.set()

    threading.Thread(target=run, name="ont-fetch-resolve", daemon=True).start()
    if not finished.wait(max(0.0, deadline.remaining)):
        raise late()
    if errors:
        raise errors[0]
    return results[0]


def _content_type(value: str) -> tuple[str, str | None]:
    parts = [p.strip() for p in value.split(";")]
    ctype = parts[0].lower() if parts and parts[0] else ""
    charset = None
    for p in parts[1:]:
        if p.lower().startswith("charset="):
            charset = p.split("=", 1)[1].strip().strip('"') or None
    return ctype, charset


def _public(url: httpx.URL) -> str:
    """The URL as it may be shown back: without credentials (never present) and without a fragment."""
    return str(url.copy_with(fragment=None))


# -- JSON for the configured LLM endpoint ------------------------------------------------------------------------


def post_json(
    url: str,
    body: Mapping[str, Any],
    *,
    headers: Mapping[str, str] | None = None,
    timeout_s: float = 60.0,
    max_bytes: int = 2 * 1024 * 1024,
    transport: httpx.BaseTransport | None = None,
) -> Any:
    """POST ``body`` as JSON to an endpoint the operator configured (an LLM API) and return the parsed JSON.

    The address policy does not apply (a local model server is a normal setup), but redirects are not
    followed, proxies from the environment are ignored, the answer is bounded in size (counted after
    decompression, as for :class:`Fetcher`) and time (``timeout_s`` for each network operation), and errors never
    include the request headers (which carry the API key).
    """
    sent = check_headers(headers, f"the LLM endpoint {redact(url)}")
    if not any(name.lower() == "accept-encoding" for name in sent):
        sent["Accept-Encoding"] = accepted_codings()
    try:
        with (
            httpx.Client(
                transport=transport, trust_env=False, follow_redirects=False, timeout=httpx.Timeout(timeout_s)
            ) as client,
            client.stream("POST", url, json=dict(body), headers=sent) as response,
        ):
            answer = _read_body(
                response,
                max_bytes,
                f"the LLM endpoint {redact(url)}",
                f"the LLM endpoint {redact(url)} answered more than {max_bytes} bytes",
            )
            status = response.status_code
    except httpx.TimeoutException as exc:
        raise FetchFailed(
            f"the LLM endpoint {redact(url)} did not answer within {timeout_s:g} s", code="timeout"
        ) from exc
    except (httpx.TransportError, httpx.DecodingError, httpx.InvalidURL) as exc:
        raise FetchFailed(
            f"could not reach the LLM endpoint {redact(url)}: {type(exc).__name__}", code="connect"
        ) from exc
    if not 200 <= status < 300:
        raise FetchFailed(f"the LLM endpoint {redact(url)} answered HTTP {status}", code="status")
    try:
        return jsonl.loads(answer.decode("utf-8") if isinstance(answer, bytes) else answer, where="the LLM's answer")
    except (json.JSONDecodeError, UnicodeDecodeError, jsonl.TooDeep) as exc:
        raise FetchFailed(f"the LLM endpoint {redact(url)} did not answer with JSON", code="bad_response") from exc


__all__ = [
    "HTML_TYPES",
    "MAX_CODINGS",
    "MAX_URL_CHARS",
    "AddressPolicy",
    "FetchError",
    "FetchFailed",
    "FetchedPage",
    "Fetcher",
    "Resolver",
    "URLRefused",
    "accepted_codings",
    "post_json",
    "redact",
    "system_resolver",
]
