"""``/health``, the self-hosted route list at ``/docs``, which requests take an admission turn, and ``ont serve``
on a port it cannot use: refused (exit 2) before anything is loaded or announced."""

from __future__ import annotations

import re
import socket
import subprocess
import sys
import threading
from pathlib import Path

import httpx
import pytest
from fastapi.testclient import TestClient

from ont_platform.cli.main import main
from ont_platform.service.app import STATIC, Admission, create_app
from ont_platform.service.graphs import GraphSet

SERVE = [sys.executable, "-m", "ont_platform.cli.main", "serve"]


def test_health_names_the_domains_and_counts_the_triples(client: TestClient, graph_set: GraphSet) -> None:
    response = client.get("/health")
    assert response.status_code == 200
    assert response.json() == {
        "status": "ok",
        "domains": ["kg", "onchain", "pages"],
        "triples": sum(len(kg) for kg in graph_set.graphs),
    }


def test_health_and_pages_take_no_admission_turn_but_sparql_does(graph_set: GraphSet) -> None:
    # No turn is ever free: a counted request is refused at once, one that is not counted goes through.
    with TestClient(Admission(create_app(graph_set), max_active=0, max_waiting=0, wait_s=1.0)) as c:
        assert c.get("/health").status_code == 200
        assert c.get("/docs").status_code == 200
        for path in ("/sparql", "/sparql/kg", "/api/v1/domains"):
            response = c.get(path)
            assert response.status_code == 503 and response.json()["error"] == "busy", path


def test_docs_is_served_from_this_server_only(client: TestClient) -> None:
    response = client.get("/docs")
    assert response.status_code == 200 and response.headers["content-type"].startswith("text/html")
    assert "script-src 'self'" in response.headers["content-security-policy"]
    assert '<script src="/static/docs.js"' in response.text
    for name in ("docs.html", "docs.js", "docs.css"):
        text = (STATIC / name).read_text(encoding="utf-8")
        assert not re.search(r"https?://", text), f"{name} names an outside address"
        assert "innerHTML" not in text and "style=" not in text
    assert client.get("/static/docs.js").status_code == 200
    paths = client.get("/openapi.json").json()["paths"]
    assert {"/sparql", "/sparql/{domain}", "/health"} <= set(paths)


# -- ont serve and its port ------------------------------------------------------------------------------------


def test_a_busy_port_is_refused_before_anything_is_served(capsys: pytest.CaptureFixture[str]) -> None:
    holder = socket.socket(socket.AF_INET, socket.SOCK_STREAM)
    holder.bind(("127.0.0.1", 0))
    holder.listen()
    port = holder.getsockname()[1]
    try:
        code = main(["serve", "--host", "127.0.0.1", "--port", str(port)])
    finally:
        holder.close()
    err = capsys.readouterr().err
    assert code == 2
    assert f"port {port} on 127.0.0.1 is already in use" in err
    assert "serving" not in err and "loaded" not in err


def test_an_unknown_host_is_refused_with_exit_2(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["serve", "--host", "no-such-host.invalid", "--port", "0"]) == 2
    err = capsys.readouterr().err
    assert "--host" in err and "serving" not in err


@pytest.mark.slow
def test_serve_on_port_zero_announces_the_port_it_listens_on(tmp_path: Path) -> None:
    """The socket that was checked is the one uvicorn serves: ``--port 0`` gets a port from the system, and the
    "serving" line names it."""
    proc = subprocess.Popen(
        [*SERVE, "--host", "127.0.0.1", "--port", "0"], stderr=subprocess.PIPE, stdout=subprocess.DEVNULL, text=True
    )
    try:
        assert proc.stderr is not None
        # the announcement, after whatever the process logs before it (a warning of a library, for instance)
        seen: list[str] = []
        found = None
        while found is None and len(seen) < 50:
            line = proc.stderr.readline()
            if not line:
                break
            seen.append(line)
            found = re.search(r"serving .* at http://127\.0\.0\.1:(\d+)/", line)
        assert found, seen
        port = int(found.group(1))
        assert port != 0
        # the socket is bound before the announcement but listens only once the server is up (bind()'s docstring):
        # until then a client is refused, so the test waits for it, bounded in tries, asserting no time
        response = None
        for _ in range(600):
            try:
                response = httpx.get(f"http://127.0.0.1:{port}/health", timeout=30)
                break
            except httpx.ConnectError:
                assert proc.poll() is None, "ont serve ended before it listened"
                threading.Event().wait(0.1)
        assert response is not None and response.status_code == 200 and response.json()["status"] == "ok"
    finally:
        proc.terminate()
        try:
            proc.wait(timeout=30)
        except subprocess.TimeoutExpired:
            proc.kill()
            proc.wait()
        if proc.stderr is not None:
            proc.stderr.close()
