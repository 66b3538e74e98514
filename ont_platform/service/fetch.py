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
5. the body is read up to ``max_bytes`` (decompressed) and the whole fetch, redirects included, within
   ``timeout_s``; bigger or slower pages are refused, not cut;
6. proxy variables of the environment are ignored (a proxy would resolve names where they cannot be checked).

Error messages show a URL without its query string, fragment or credentials, so secrets in URLs are not echoed.
"""

from __future__ import annotations

import ipaddress
import json
import re
import socket
import time
from collections.abc import Callable, Mapping
from dataclasses import dataclass, field
from typing import Any

import httpx

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

    def __init__(self, policy: AddressPolicy | None = None, limits: FetchLimits | None = None, *,
                 resolver: Resolver | None = None, transport: httpx.BaseTransport | None = None) -> None:
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
                raise FetchFailed(f"the host of {redact(url)} resolved to something that is not an address",
                                  code="unresolvable") from exc
        if not addresses:
            raise FetchFailed(f"the host of {redact(url)} has no address", code="unresolvable")
        for addr in addresses:
            why = self.policy.refusal(addr)
            if why is not None:
                raise URLRefused(f"{redact(url)} is refused: {why} (set allow_private_urls or allowed_networks "
                                 "to fetch such addresses)")
        return addresses[0]

    def fetch(self, url: str) -> FetchedPage:
        """GET ``url`` with every safety rule of this module; returns the page of the last hop."""
        deadline = time.monotonic() + self.limits.timeout_s
        first = current = self.check_url(url)
        redirects: list[str] = []
        for _ in range(self.limits.max_redirects + 1):
            address = self.resolve(current)
            status, headers, body = self._get(current, address, deadline)
            if status in _REDIRECTS and headers.get("location"):
                try:
                    target = current.join(headers["location"])
                except Exception as exc:
                    raise FetchFailed(f"{redact(current)} redirects to an invalid URL", code="bad_response") from exc
                redirects.append(redact(target))
                current = self.check_url(str(target))
                continue
            if not 200 <= status < 300:
                raise FetchFailed(f"{redact(current)} answered HTTP {status}", code="status")
            ctype, charset = _content_type(headers.get("content-type", ""))
            if ctype and ctype not in HTML_TYPES:
                raise FetchFailed(f"{redact(current)} is {ctype}, not an HTML or text page", code="content_type")
            return FetchedPage(url=_public(first), final_url=_public(current), status=status,
                               content_type=ctype or "text/html", charset=charset, body=body, redirects=redirects)
        raise FetchFailed(f"{redact(first)} redirects more than {self.limits.max_redirects} times", code="redirects")

    def _get(self, url: httpx.URL, address: IPAddress, deadline: float) -> tuple[int, Mapping[str, str], bytes]:
        remaining = deadline - time.monotonic()
        if remaining <= 0:
            raise FetchFailed(f"fetching {redact(url)} took longer than {self.limits.timeout_s:g} s", code="timeout")
        pinned = url.copy_with(host=str(address))
        headers = {"Host": url.netloc.decode("ascii"), "User-Agent": self.limits.user_agent,
                   "Accept": "text/html,application/xhtml+xml;q=0.9,text/plain;q=0.8"}
        extensions: dict[str, Any] = {}
        if url.scheme == "https":
            extensions["sni_hostname"] = url.raw_host.decode("ascii").rstrip(".")
        timeout = httpx.Timeout(remaining, connect=min(self.limits.connect_timeout_s, remaining))
        # One client per hop: a pooled connection opened (and certificate-checked) for one host name must never
        # carry a request for another name that happens to resolve to the same address.
        try:
            with httpx.Client(transport=self.transport, trust_env=False, follow_redirects=False,
                              timeout=timeout) as client:
                request = client.build_request("GET", pinned, headers=headers, extensions=extensions)
                response = client.send(request, stream=True)
                try:
                    if response.status_code in _REDIRECTS or not 200 <= response.status_code < 300:
                        return response.status_code, dict(response.headers), b""
                    declared = response.headers.get("content-length", "")
                    if declared.isdigit() and int(declared) > self.limits.max_bytes:
                        raise FetchFailed(f"{redact(url)} is {int(declared)} bytes, over the limit of "
                                          f"{self.limits.max_bytes}", code="too_large")
                    chunks: list[bytes] = []
                    size = 0
                    for chunk in response.iter_bytes():
                        size += len(chunk)
                        if size > self.limits.max_bytes:
                            raise FetchFailed(f"{redact(url)} is over the limit of {self.limits.max_bytes} bytes",
                                              code="too_large")
                        if time.monotonic() > deadline:
                            raise FetchFailed(f"fetching {redact(url)} took longer than {self.limits.timeout_s:g} s",
                                              code="timeout")
                        chunks.append(chunk)
                    return response.status_code, dict(response.headers), b"".join(chunks)
                finally:
                    response.close()
        except httpx.TimeoutException as exc:
            raise FetchFailed(f"fetching {redact(url)} took longer than allowed", code="timeout") from exc
        except (httpx.TransportError, httpx.DecodingError) as exc:
            raise FetchFailed(f"could not fetch {redact(url)}: {type(exc).__name__}", code="connect") from exc


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


def post_json(url: str, body: Mapping[str, Any], *, headers: Mapping[str, str] | None = None,
              timeout_s: float = 60.0, max_bytes: int = 2 * 1024 * 1024,
              transport: httpx.BaseTransport | None = None) -> Any:
    """POST ``body`` as JSON to an endpoint the operator configured (an LLM API) and return the parsed JSON.

    The address policy does not apply (a local model server is a normal setup), but redirects are not
    followed, proxies from the environment are ignored, the answer is bounded in size and time, and errors
    never include the request headers (which carry the API key).
    """
    sent = check_headers(headers, f"the LLM endpoint {redact(url)}")
    try:
        with httpx.Client(transport=transport, trust_env=False, follow_redirects=False,
                          timeout=httpx.Timeout(timeout_s)) as client, \
                client.stream("POST", url, json=dict(body), headers=sent) as response:
            chunks: list[bytes] = []
            size = 0
            for chunk in response.iter_bytes():
                size += len(chunk)
                if size > max_bytes:
                    raise FetchFailed(f"the LLM endpoint {redact(url)} answered more than {max_bytes} bytes",
                                      code="too_large")
                chunks.append(chunk)
            status = response.status_code
    except httpx.TimeoutException as exc:
        raise FetchFailed(f"the LLM endpoint {redact(url)} did not answer within {timeout_s:g} s",
                          code="timeout") from exc
    except (httpx.TransportError, httpx.DecodingError, httpx.InvalidURL) as exc:
        raise FetchFailed(f"could not reach the LLM endpoint {redact(url)}: {type(exc).__name__}",
                          code="connect") from exc
    if not 200 <= status < 300:
        raise FetchFailed(f"the LLM endpoint {redact(url)} answered HTTP {status}", code="status")
    try:
        return json.loads(b"".join(chunks))
    except (json.JSONDecodeError, UnicodeDecodeError) as exc:
        raise FetchFailed(f"the LLM endpoint {redact(url)} did not answer with JSON", code="bad_response") from exc


__all__ = [
    "HTML_TYPES",
    "MAX_URL_CHARS",
    "AddressPolicy",
    "FetchError",
    "FetchFailed",
    "FetchedPage",
    "Fetcher",
    "Resolver",
    "URLRefused",
    "post_json",
    "redact",
    "system_resolver",
]
