"""Fixtures for the HTTP service: one app over the bundled examples, a test client, and a small web site on
127.0.0.1 that serves pages, redirects, slow and oversized answers for the URL fetcher.

Loading the three example datasets takes a few seconds, so the graphs are loaded once per session; apps with
other settings reuse the same :class:`GraphSet`.
"""

from __future__ import annotations

import ipaddress
import threading
from collections.abc import Callable, Iterator
from dataclasses import dataclass, field
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer

import pytest
from fastapi import FastAPI
from fastapi.testclient import TestClient

from ont_platform.service.app import create_app
from ont_platform.service.graphs import GraphSet
from ont_platform.service.settings import ServiceSettings

ONCHAIN_Q1 = "n_a1 에서 3-hop 안에 거래소 입금주소(ExchangeDeposit)에 자금이 닿나요?"
KG_Q1 = "홍길동이 다니는 회사는 어느 도시에 있나요?"
PAGES_Q1 = "노출은 꽤 되는데 클릭이 하나도 없는 페이지를 알려 주세요"

ARTICLE = """<!doctype html>
<html lang="ko"><head><meta charset="utf-8"><title>에이크미 소식 | 뉴스</title></head>
<body><nav><a href="/">홈</a> <a href="/about">소개</a></nav>
<article><h1>에이크미, 서울 본사 확장</h1>
<p>홍길동은 에이크미의 대표로 일하며 연구개발 조직도 직접 이끌고 있다. 에이크미 본사는 서울 강남구 테헤란로에 있다.</p>
<p>감마랩스는 지난해 엡실론소프트를 인수했다. 업계는 이번 확장이 두 회사의 협력에도 영향을 줄 것으로 본다.</p>
</article><footer>ⓒ 예시 뉴스</footer></body></html>"""


@pytest.fixture(scope="session")
def app() -> Iterator[FastAPI]:
    """The service over the three bundled example datasets, with default settings."""
    application = create_app()
    with TestClient(application):  # runs the lifespan: verifiers are closed at the end
        yield application


@pytest.fixture(scope="session")
def graph_set(app: FastAPI) -> GraphSet:
    return app.state.graphs  # type: ignore[no-any-return]


@pytest.fixture(scope="session")
def client(app: FastAPI) -> Iterator[TestClient]:
    with TestClient(app, raise_server_exceptions=False) as c:
        yield c


@pytest.fixture
def make_client(graph_set: GraphSet) -> Iterator[Callable[..., TestClient]]:
    """A client of an app over the session's graphs with other settings (or fetcher, or LLM transport)."""
    opened: list[TestClient] = []

    def make(settings: ServiceSettings | None = None, **kwargs: object) -> TestClient:
        c = TestClient(create_app(graph_set, settings, **kwargs), raise_server_exceptions=False)  # type: ignore[arg-type]
        opened.append(c)
        return c

    yield make
    for c in opened:
        c.close()


# -- a small web site on loopback ----------------------------------------------------------------------------


@dataclass
class Site:
    """The local web site: its base URL and the requests it received (path, Host header)."""

    base: str
    port: int
    requests: list[tuple[str, str]]
    slow: threading.Event = field(default_factory=threading.Event)
    """``/slow`` answers only once this is set: a test makes the site slow for exactly as long as it needs."""

    def url(self, path: str) -> str:
        return f"{self.base}{path}"


LOOPBACK_ONLY = (ipaddress.ip_network("127.0.0.1/32"),)


class _Handler(BaseHTTPRequestHandler):
    protocol_version = "HTTP/1.1"
    site: Site

    def log_message(self, format: str, *args: object) -> None:  # quiet
        return

    def _send(
        self, status: int, body: bytes, ctype: str = "text/html; charset=utf-8", extra: dict[str, str] | None = None
    ) -> None:
        self.send_response(status)
        self.send_header("Content-Type", ctype)
        self.send_header("Content-Length", str(len(body)))
        for k, v in (extra or {}).items():
            self.send_header(k, v)
        self.end_headers()
        self.wfile.write(body)

    def do_GET(self) -> None:
        self.site.requests.append((self.path, self.headers.get("Host", "")))
        path = self.path.split("?", 1)[0]
        if path == "/article":
            self._send(200, ARTICLE.encode("utf-8"))
        elif path.startswith("/redirect-to/"):
            target = path[len("/redirect-to/") :]
            self._send(302, b"", extra={"Location": f"http://{target}"})
        elif path == "/redirect-local":
            self._send(302, b"", extra={"Location": "/article"})
        elif path == "/loop":
            self._send(302, b"", extra={"Location": "/loop"})
        elif path == "/big":
            self._send(200, b"<p>" + b"x" * 200_000 + b"</p>")
        elif path == "/big-undeclared":
            self.send_response(200)
            self.send_header("Content-Type", "text/html")
            self.send_header("Connection", "close")
            self.end_headers()
            for _ in range(50):
                self.wfile.write(b"<p>" + b"y" * 10_000 + b"</p>")
            self.close_connection = True
        elif path == "/slow":
            self.site.slow.wait(120)  # until the test lets it answer (the bound only ends a forgotten request)
            self._send(200, b"<p>late</p>")
        elif path == "/image":
            self._send(200, b"\x89PNG\r\n", ctype="image/png")
        elif path == "/missing":
            self._send(404, b"<p>not here</p>")
        else:
            self._send(404, b"")


class _Server(ThreadingHTTPServer):
    daemon_threads = True

    def handle_error(self, request: object, client_address: object) -> None:
        # A client that gave up (a timeout or size test) leaves a broken pipe behind; that is expected.
        import sys

        if not isinstance(sys.exc_info()[1], (BrokenPipeError, ConnectionResetError)):
            super().handle_error(request, client_address)  # type: ignore[arg-type]


@pytest.fixture(scope="session")
def site() -> Iterator[Site]:
    """A threaded HTTP server on 127.0.0.1 (a free port), stopped at the end of the session."""
    handler = type("Handler", (_Handler,), {})
    server = _Server(("127.0.0.1", 0), handler)
    port = int(server.server_address[1])
    info = Site(base=f"http://127.0.0.1:{port}", port=port, requests=[])
    handler.site = info  # type: ignore[attr-defined]
    thread = threading.Thread(target=server.serve_forever, name="test-site", daemon=True)
    thread.start()
    try:
        yield info
    finally:
        server.shutdown()
        server.server_close()
        thread.join(timeout=5)
