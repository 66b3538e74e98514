"""The admin page in a real browser: ``ont serve`` in a subprocess, Debian's Chromium driven by Playwright.

What is checked is what a person sees: the answer text, the badges (intent, confidence, grounding from the
verifier), the path drawn with its node and edge labels, and the SPARQL. Data is shown as text, never run as
markup. Playwright never downloads a browser: it launches ``/usr/bin/chromium`` (``.ci/install-browser.sh``
installs it); without it this test fails and says how to install it.

A screenshot is written to the test's temporary folder; with ``ONT_UPDATE_SCREENSHOTS=1`` it also replaces
``docs/admin-page.png``.
"""

from __future__ import annotations

import csv
import os
import shutil
import signal
import subprocess
import sys
import time
from collections.abc import Iterator
from contextlib import suppress
from pathlib import Path

import httpx
import playwright.sync_api as playwright_api
import pytest

from tests.servers import free_port
from tests.service.conftest import KG_Q1, ONCHAIN_Q1

CHROMIUM = Path("/usr/bin/chromium")
CHROMIUM_ARGS = [
    "--headless",
    "--no-sandbox",
    "--disable-gpu",
    "--disable-background-networking",
    "--disable-component-update",
    "--disable-sync",
    "--no-first-run",
]
SERVE = [sys.executable, "-m", "ont_platform.cli.main", "serve"]
ROOT = Path(__file__).resolve().parents[2]
READY_TIMEOUT = 90.0
TOKEN = "admin-page-test-token-0123"

pytestmark = [pytest.mark.browser, pytest.mark.slow]


@pytest.fixture(scope="module")
def server(tmp_path_factory: pytest.TempPathFactory) -> Iterator[str]:
    """``ont serve`` (the bundled examples) on a free loopback port; stopped by its process id at the end."""
    port = free_port()
    log = tmp_path_factory.mktemp("serve") / "serve.log"
    with log.open("wb") as out:
        proc = subprocess.Popen(
            [*SERVE, "--host", "127.0.0.1", "--port", str(port)],
            stdout=out,
            stderr=subprocess.STDOUT,
            start_new_session=True,
            cwd=ROOT,
            env={**os.environ, "ONT_API_TOKEN": TOKEN},
        )
    base = f"http://127.0.0.1:{port}"
    try:
        deadline = time.monotonic() + READY_TIMEOUT
        while True:
            if proc.poll() is not None:
                raise AssertionError(f"ont serve exited with {proc.returncode}:\n{log.read_text(errors='replace')}")
            try:
                if httpx.get(f"{base}/api/v1/domains", timeout=2).status_code == 200:
                    break
            except httpx.HTTPError:
                pass
            if time.monotonic() > deadline:
                raise AssertionError(f"ont serve did not answer in {READY_TIMEOUT:g} s:\n{log.read_text()}")
            time.sleep(0.2)
        yield base
    finally:
        if proc.poll() is None:
            with suppress(ProcessLookupError):
                os.killpg(proc.pid, signal.SIGTERM)
            try:
                proc.wait(timeout=10)
            except subprocess.TimeoutExpired:
                with suppress(ProcessLookupError):
                    os.killpg(proc.pid, signal.SIGKILL)
                proc.wait(timeout=10)


@pytest.fixture(scope="module")
def browser() -> Iterator[object]:
    if not CHROMIUM.exists():
        pytest.fail(f"{CHROMIUM} is missing: run `bash .ci/install-browser.sh` (Debian's chromium)")
    with playwright_api.sync_playwright() as p:
        b = p.chromium.launch(executable_path=str(CHROMIUM), headless=True, args=CHROMIUM_ARGS)
        try:
            yield b
        finally:
            b.close()


@pytest.fixture
def page(browser, server: str) -> Iterator[object]:
    context = browser.new_context(viewport={"width": 1280, "height": 900}, locale="ko-KR")
    pg = context.new_page()
    problems: list[str] = []
    pg.on(
        "console", lambda m: problems.append(f"console {m.type}: {m.text}") if m.type in ("error", "warning") else None
    )
    pg.on("pageerror", lambda e: problems.append(f"page error: {e}"))
    pg.on("dialog", lambda d: (problems.append(f"dialog: {d.message}"), d.dismiss()))
    pg.on("request", lambda r: None if r.url.startswith(server) else problems.append(f"outside request: {r.url}"))
    pg.goto(f"{server}/")
    yield pg
    context.close()
    assert problems == []


def ask(pg, domain: str, question: str) -> None:
    pg.select_option("#domain", domain)
    pg.get_by_role("textbox", name="질문").fill(question)
    pg.get_by_role("button", name="질문하기").click()
    pg.locator("#status.done, #status.error").wait_for()
    status = pg.locator("#status")
    assert "오류" not in status.inner_text(), status.inner_text()


def _onchain_labels() -> dict[str, str]:
    from ont_platform.resources import example_dataset

    with (example_dataset("onchain") / "onchain_nodes.csv").open(encoding="utf-8") as fh:
        return {r["node_id"]: r["label"] for r in csv.DictReader(fh)}


def test_a_korean_question_shows_the_answer_the_path_and_the_sparql(page, tmp_path: Path) -> None:
    expect = playwright_api.expect
    assert page.locator("#domain option").all_text_contents() == [
        "kg · 인물·회사·장소",
        "onchain · 온체인 거래",
        "pages · 페이지 인벤토리",
    ]
    ask(page, "onchain", ONCHAIN_Q1)

    card = page.locator("#answer-card")
    expect(card).to_be_visible()
    label = _onchain_labels()  # names beside ids, read from the example's node table
    expect(page.locator("#answer-text")).to_have_text(
        f"예. n_a1({label['n_a1']}) → n_h1({label['n_h1']}) → n_ex1({label['n_ex1']}) 2-hop 경로로 거래소 "
        f"입금주소(n_ex1 · {label['n_ex1']})에 닿습니다. 두 전송 모두 관측된 트랜잭션(0xaa1, 0xaa2)입니다. "
        "(읽은 질문: n_a1 →transfer(≤3 홉)→ ExchangeDeposit)"
    )
    badges = page.locator("#badges .badge")
    expect(badges).to_have_text(["의도: path_exists · 경로 있음", "확신도: 높음", "근거 확인됨", "검증 통과"])

    graph = page.locator("svg.path-graph")
    expect(graph).to_be_visible()
    nodes = graph.locator("g.node")
    expect(nodes).to_have_count(3)
    assert [n.locator("text.node-id").text_content() for n in nodes.all()] == ["n_a1", "n_h1", "n_ex1"]
    classes = [n.locator("text.node-class").text_content() for n in nodes.all()]
    assert classes == ["Wallet · 지갑", "Wallet · 지갑", "ExchangeDeposit · 거래소 입금주소"]
    expect(graph.locator("g.edge-label text")).to_have_text(["0xaa1", "0xaa2"])
    expect(graph.locator("path.edge.observed")).to_have_count(2)
    # The path reads left to right in hop order.
    xs = [n.bounding_box()["x"] for n in nodes.all()]
    assert xs == sorted(xs) and len(set(xs)) == 3
    expect(page.locator("#path-list li")).to_have_text(["n_a1 → n_h1: e1 · tx 0xaa1", "n_h1 → n_ex1: e2 · tx 0xaa2"])

    sparql = page.locator("#sparql")
    expect(sparql).to_be_visible()
    expect(sparql).to_contain_text("SELECT ?nid1 ?nid2 WHERE")
    expect(sparql).to_contain_text("oc:transfer")
    expect(sparql).to_contain_text("onchain#ExchangeDeposit")

    shot = tmp_path / "admin-page.png"
    page.screenshot(path=str(shot), full_page=True)
    assert shot.stat().st_size > 10_000
    if os.environ.get("ONT_UPDATE_SCREENSHOTS") == "1":
        shutil.copyfile(shot, ROOT / "docs" / "admin-page.png")


def test_a_refusal_and_an_ungrounded_hop_are_shown_as_such(page) -> None:
    expect = playwright_api.expect
    ask(page, "kg", "에이크미가 인수한 회사는 어디인가요?")
    expect(page.locator("#badges .badge").first).to_have_text("결정: refuse · 답하지 않음")
    expect(page.locator("#answer-facts")).to_contain_text("ungrounded_hop")
    label = page.locator("svg.path-graph g.edge-label.ungrounded text")
    expect(label).to_have_text("acquired · 근거 없음")
    expect(page.locator("svg.path-graph path.edge.ungrounded")).to_have_count(1)

    ask(page, "kg", KG_Q1)
    expect(page.locator("#badges .badge").first).to_have_text("결정: answer · 답함")
    expect(page.locator("svg.path-graph g.edge-label text")).to_have_text(["worksFor · ch_11", "locatedIn · ch_12"])
    expect(page.locator("svg.path-graph g.node.goal text.node-id")).to_have_text("pl_seoul")
    expect(page.locator("#sparql")).to_contain_text("# 질의 1 /")


def test_text_from_the_request_is_shown_not_run(page) -> None:
    expect = playwright_api.expect
    hostile = '<img src=x onerror="alert(1)"> 노출은 꽤 되는데 클릭이 하나도 없는 페이지 <script>alert(2)</script>'
    ask(page, "pages", hostile)
    expect(page.locator("#answer-facts dd").first).to_have_text(hostile)
    assert page.locator("main img, main script").count() == 0


def test_the_last_writes_are_listed_with_their_report(page, server: str) -> None:
    """A write through the API shows on the page: accepted, what was created, its record in the graph. (A new
    company with no relation: the other tests' answers stay the same.)"""
    payload = {
        "entities": [{"id": "E_admin_1", "label": "감마 로보틱스", "type": "individual", "ontology_class": "Company"}]
    }
    r = httpx.post(f"{server}/api/v1/ingest", json=payload, headers={"Authorization": f"Bearer {TOKEN}"}, timeout=30)
    assert r.status_code == 200 and r.json()["accepted"], r.text
    page.reload()
    item = page.locator("#writes-list li").first
    item.wait_for()
    text = item.inner_text()
    assert "반영" in text and "E_admin_1" in text and r.json()["write"] in text
    assert "API 토큰" in page.locator("#writes-state").inner_text()
