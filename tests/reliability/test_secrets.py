"""Secrets from configuration never show in an error message, an HTTP error body or a log line.

The secrets are a remote SPARQL endpoint's headers (a bearer token, an API key header), its URL credentials and
query token, and the LLM API key of the service settings. Every test configures one, provokes errors (an endpoint
that answers errors quoting the whole request it got, a refused connection, a header value HTTP cannot carry, a
transport library that quotes the header in its exception), and looks for the secret (and its Basic-auth form)
in the exception text with its whole traceback, in the response body, in stderr and in the captured logs.
"""

from __future__ import annotations

import base64
import http.server
import logging
import socket
import threading
import traceback
from collections.abc import Iterator
from typing import Any, ClassVar

import httpx
import pytest
from fastapi.testclient import TestClient

from ont_platform import KnowledgeGraph
from ont_platform.cli.main import main
from ont_platform.errors import EndpointError, InputError, OntError
from ont_platform.service.app import create_app
from ont_platform.service.settings import LLMSettings, ServiceSettings
from ont_platform.storage.remote import RemoteStore

TOKEN = "tok-9f8e7d6c5b4a3928"
API_KEY = "sk-live-0123456789abcdef"
PASSWORD = "pw-Zq8uX3vN"
QUERY_TOKEN = "qt-77aa66bb55cc"
SECRETS = (TOKEN, API_KEY, PASSWORD, QUERY_TOKEN, base64.b64encode(f"alice:{PASSWORD}".encode()).decode())
SELECT = "SELECT ?s WHERE { ?s ?p ?o } LIMIT 1"


def assert_clean(*texts: str) -> None:
    for text in texts:
        for secret in SECRETS:
            assert secret not in text, f"a configured secret leaked: ...{text[max(0, text.find(secret) - 80) :][:200]}"


def full_text(exc: BaseException) -> str:
    """The message and the whole traceback, chained causes included, as a log handler would write it."""
    return "".join(traceback.format_exception(exc))


class _Echo(http.server.BaseHTTPRequestHandler):
    """Answers every request with an error that quotes the request: path with query, every header, the body."""

    received: ClassVar[list[dict[str, str]]] = []

    def _answer(self) -> None:
        length = int(self.headers.get("Content-Length") or 0)
        body = self.rfile.read(length).decode("latin-1")
        type(self).received.append(dict(self.headers))
        status = 401 if "/chat/" in self.path else 500
        text = f"refused {self.command} {self.path}\nheaders: {dict(self.headers)}\nbody: {body}".encode()
        self.send_response(status)
        self.send_header("Content-Type", "text/plain")
        self.send_header("Content-Length", str(len(text)))
        self.end_headers()
        self.wfile.write(text)

    do_GET = do_POST = _answer

    def log_message(self, *args: Any) -> None:
        pass


@pytest.fixture(scope="module")
def echo() -> Iterator[str]:
    """An HTTP server on 127.0.0.1 that quotes each request back in an error."""
    server = http.server.ThreadingHTTPServer(("127.0.0.1", 0), _Echo)
    thread = threading.Thread(target=server.serve_forever, daemon=True)
    thread.start()
    yield f"http://127.0.0.1:{server.server_address[1]}"
    server.shutdown()
    server.server_close()


@pytest.fixture
def logs(caplog: pytest.LogCaptureFixture) -> pytest.LogCaptureFixture:
    caplog.set_level(logging.DEBUG)
    return caplog


def closed_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


# -- the remote store ---------------------------------------------------------------------------------------------


def test_endpoint_quoting_the_request_does_not_leak_headers(echo: str, logs: pytest.LogCaptureFixture) -> None:
    _Echo.received.clear()
    store = RemoteStore(f"{echo}/sparql", headers={"Authorization": f"Bearer {TOKEN}", "X-Api-Key": API_KEY})
    with pytest.raises(EndpointError) as info:
        store.select(SELECT)
    assert any(TOKEN in h.get("Authorization", "") for h in _Echo.received), "the token was not even sent"
    assert "refused POST" in str(info.value)  # the endpoint's own text is shown, scrubbed
    with pytest.raises(OntError) as update:
        store.add_ntriples("<urn:a> <urn:b> <urn:c> .\n")
    store.close()
    assert_clean(full_text(info.value), full_text(update.value), logs.text, repr(store))


def test_url_credentials_and_query_tokens_stay_hidden(echo: str, logs: pytest.LogCaptureFixture) -> None:
    _Echo.received.clear()
    url = f"{echo.replace('http://', f'http://alice:{PASSWORD}@')}/sparql?token={QUERY_TOKEN}"
    store = RemoteStore(url)
    with pytest.raises(EndpointError) as info:
        store.select(SELECT)
    # the credentials went out as Basic auth, and the endpoint quoted that header back
    assert any("Basic" in h.get("Authorization", "") for h in _Echo.received)
    store.close()
    assert_clean(full_text(info.value), logs.text, repr(store))


def test_refused_connection_does_not_leak(logs: pytest.LogCaptureFixture) -> None:
    port = closed_port()
    store = RemoteStore(
        f"http://alice:{PASSWORD}@127.0.0.1:{port}/q?key={QUERY_TOKEN}", headers={"Authorization": f"Bearer {TOKEN}"}
    )
    with pytest.raises(EndpointError) as info:
        store.ask("ASK { ?s ?p ?o }")
    store.close()
    assert_clean(full_text(info.value), logs.text)


@pytest.mark.parametrize("bad", ["\n", "\r\nX-Injected: 1", "\x00", "é", "\x7f"])
def test_a_header_value_http_cannot_carry_is_refused_by_name(
    bad: str, echo: str, logs: pytest.LogCaptureFixture
) -> None:
    # h11 would refuse it while sending, with "Illegal header value b'Bearer <token>...'" as its message
    with pytest.raises(InputError, match="Authorization") as info:
        RemoteStore(f"{echo}/sparql", headers={"Authorization": f"Bearer {TOKEN}{bad}"})
    assert_clean(full_text(info.value), logs.text)


def test_opening_a_graph_on_a_failing_endpoint_does_not_leak(
    echo: str, logs: pytest.LogCaptureFixture, capsys: pytest.CaptureFixture[str]
) -> None:
    with KnowledgeGraph.open(
        backend="remote", endpoint=f"{echo}/sparql", headers={"Authorization": f"Bearer {TOKEN}"}
    ) as kg:
        with pytest.raises(OntError) as info:
            kg.ask("n_a1 에서 3-hop 안에 거래소에 닿나요?")
        assert_clean(full_text(info.value))
    url = f"{echo.replace('http://', f'http://alice:{PASSWORD}@')}/sparql?token={QUERY_TOKEN}"
    code = main(["ask", "n_a1 에서 닿나요?", "--backend", "remote", "--endpoint", url])
    out, err = capsys.readouterr()
    assert code != 0 and err
    assert_clean(out, err, logs.text)


# -- the service and its LLM key ------------------------------------------------------------------------------------


@pytest.fixture(scope="module")
def kg_graph() -> Iterator[KnowledgeGraph]:
    from ont_platform.resources import example_dataset

    kg = KnowledgeGraph.open()
    kg.load(example_dataset("kg"))
    yield kg
    kg.close()


def test_llm_key_is_kept_out_of_settings_text() -> None:
    settings = ServiceSettings.from_env(
        {"ONT_LLM_BASE_URL": "http://127.0.0.1:9/v1", "ONT_LLM_MODEL": "m", "ONT_LLM_API_KEY": API_KEY}
    )
    assert settings.llm is not None and settings.llm.api_key == API_KEY
    assert_clean(repr(settings), str(settings), repr(settings.llm))
    for bad in ("\n", "é", "\r\nX: y"):
        with pytest.raises(InputError) as info:
            LLMSettings(base_url="http://127.0.0.1:9/v1", model="m", api_key=API_KEY + bad)
        assert_clean(full_text(info.value))


def _extract(client: TestClient) -> Any:
    return client.post("/api/v1/extract/text", json={"text": "홍길동은 에이크미에서 일한다.", "extractor": "llm"})


def test_llm_endpoint_errors_hide_the_key(echo: str, kg_graph: KnowledgeGraph, logs: pytest.LogCaptureFixture) -> None:
    _Echo.received.clear()
    settings = ServiceSettings(llm=LLMSettings(base_url=f"{echo}/v1", model="m", api_key=API_KEY))
    with TestClient(create_app(kg_graph, settings), raise_server_exceptions=False) as client:
        response = _extract(client)
    assert response.status_code == 502, response.text
    assert any(API_KEY in h.get("Authorization", "") for h in _Echo.received), "the key was not even sent"
    assert_clean(response.text, logs.text)


def test_llm_unreachable_hides_the_key(kg_graph: KnowledgeGraph, logs: pytest.LogCaptureFixture) -> None:
    settings = ServiceSettings(
        llm=LLMSettings(base_url=f"http://127.0.0.1:{closed_port()}/v1", model="m", api_key=API_KEY)
    )
    with TestClient(create_app(kg_graph, settings), raise_server_exceptions=False) as client:
        response = _extract(client)
    assert response.status_code == 502, response.text
    assert_clean(response.text, logs.text)


def test_a_transport_quoting_the_header_is_scrubbed_from_logs(
    kg_graph: KnowledgeGraph, logs: pytest.LogCaptureFixture
) -> None:
    """A client library that puts the header into its exception (as h11 does for a value it refuses): the
    service's error body names only the exception type, and its logged traceback is scrubbed."""

    def handler(request: httpx.Request) -> httpx.Response:
        raise httpx.ConnectError(f"proxy refused {request.headers['Authorization']}", request=request)

    settings = ServiceSettings(llm=LLMSettings(base_url="http://127.0.0.1:9/v1", model="m", api_key=API_KEY))
    app = create_app(kg_graph, settings, llm_transport=httpx.MockTransport(handler))
    with TestClient(app, raise_server_exceptions=False) as client:
        response = _extract(client)
    assert response.status_code == 502, response.text
    assert any(r.name == "ont_platform.service" and r.levelno >= logging.ERROR for r in logs.records)
    assert "ConnectError" in logs.text  # the traceback is there, only the key is gone
    assert_clean(response.text, logs.text)


def test_a_store_says_what_to_redact_and_the_generation_stays_a_property() -> None:
    remote = RemoteStore("http://ada:s3cret-pass@127.0.0.1:9/sparql", headers={"Authorization": "Bearer tok-123456"})
    assert {"s3cret-pass", "Bearer tok-123456"} <= set(remote.redacted)
    assert "s3cret-pass" not in repr(remote) and remote.generation is None
    embedded = KnowledgeGraph.open()
    assert embedded.store.redacted == () and isinstance(embedded.store.generation, int)
