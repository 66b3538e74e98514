"""Extraction: the built-in lexicon extractor, HTML reading, the LLM extractor with re-ask, and both routes."""

from __future__ import annotations

import asyncio
import json
from typing import Any

import httpx
import pytest
from fastapi.testclient import TestClient

from ont_platform.domains import load_domain
from ont_platform.service.extract import (
    LexiconExtractor,
    LLMExtractor,
    guarded,
    read_html,
    read_text,
    sentences,
)
from ont_platform.service.graphs import GraphSet
from ont_platform.service.settings import LLMSettings, ServiceSettings
from tests.service.conftest import ARTICLE, LOOPBACK_ONLY, Site

KG_TEXT = (
    "홍길동은 에이크미의 대표로 일하며 연구개발 조직도 직접 이끌고 있다. 에이크미 본사는 서울 강남구 테헤란로에 있다.\n"
    "감마랩스는 엡실론소프트를 인수했다."
)


def relations(body: dict[str, Any]) -> set[tuple[str, str, str]]:
    return {(r["source_id"], r["predicate"], r["target_id"]) for r in body["relations"]}


def test_sentences_keep_their_offsets() -> None:
    text = "  첫 문장이다.  둘째 문장!\n셋째 줄"
    parts = sentences(text)
    assert [s for _, s in parts] == ["첫 문장이다.", "둘째 문장!", "셋째 줄"]
    assert all(text[o : o + len(s)] == s for o, s in parts)


def test_the_lexicon_extractor_finds_graph_names_and_ontology_relations(graph_set: GraphSet) -> None:
    doc = read_text(KG_TEXT, "https://news.example.com/acme")
    with graph_set.lock:
        attempt = LexiconExtractor(graph_set.context("kg")).extract(doc)
    body = asyncio.run(guarded(doc, attempt, domain="kg", extractor="lexicon"))
    assert body["validation_passed"] is True, body["validation_errors"]
    assert relations(body) == {
        ("E_p_hong", "worksFor", "E_c_acme"),
        ("E_c_acme", "locatedIn", "E_pl_seoul"),
        ("E_c_gamma", "acquired", "E_c_eps"),
    }
    classes = {e["id"]: e.get("ontology_class") for e in body["entities"]}
    assert classes["E_p_hong"] == "Person" and classes["E_pl_seoul"] == "City"
    works = next(r for r in body["relations"] if r["predicate"] == "worksFor")
    (evidence,) = works["evidence"]
    assert evidence["chunk_text"] == "홍길동은 에이크미의 대표로 일하며 연구개발 조직도 직접 이끌고 있다."
    assert evidence["source_url"] == "https://news.example.com/acme"
    assert KG_TEXT[evidence["offset"] :].startswith(evidence["chunk_text"])
    hong = next(e for e in body["entities"] if e["id"] == "E_p_hong")
    assert KG_TEXT[hong["evidence"][0]["offset"] :].startswith("홍길동")


def test_onchain_text_gives_transfers_in_text_order(graph_set: GraphSet) -> None:
    doc = read_text("n_a1 지갑이 n_h1 으로 5 ETH 를 보냈다. n_h1 은 거래소 입금주소 n_ex1 로 다시 전송했다.")
    with graph_set.lock:
        attempt = LexiconExtractor(graph_set.context("onchain")).extract(doc)
    body = asyncio.run(guarded(doc, attempt, domain="onchain", extractor="lexicon"))
    assert body["validation_passed"] is True
    assert relations(body) == {("E_n_a1", "transfer", "E_n_h1"), ("E_n_h1", "transfer", "E_n_ex1")}
    assert "url" not in body
    assert all("source_url" not in ev for r in body["relations"] for ev in r["evidence"])


def test_html_is_read_by_trafilatura_without_the_page_chrome() -> None:
    doc = read_html(ARTICLE, "https://news.example.com/acme")
    assert doc.title and "에이크미" in doc.title
    assert "홍길동은 에이크미의 대표로" in doc.text
    assert "ⓒ 예시 뉴스" not in doc.text
    assert read_html("<html><body><p>짧다</p></body></html>").text.strip() == "짧다"
    empty = read_html("<html><body></body></html>")
    assert empty.text == ""
    assert [w.code for w in empty.warnings] == ["empty_text"]


def test_long_text_is_cut_with_a_warning() -> None:
    doc = read_text("가" * 50, max_chars=10)
    assert len(doc.text) == 10
    assert doc.warnings[0].code == "text_truncated"


# -- the routes --------------------------------------------------------------------------------------------------


def test_extract_text_route(client: TestClient) -> None:
    r = client.post("/api/v1/extract/text", json={"text": KG_TEXT, "url": "https://news.example.com/acme"})
    assert r.status_code == 200
    body = r.json()
    assert set(body) >= {"url", "title", "entities", "relations", "validation_passed", "validation_errors", "warnings"}
    assert body["url"] == "https://news.example.com/acme"
    assert body["domain"] == "kg" and body["extractor"] == "lexicon"
    assert ("E_p_hong", "worksFor", "E_c_acme") in relations(body)
    onchain = client.post(
        "/api/v1/extract/text", json={"text": "n_a1 과 n_b2 는 같은 주체로 추정된다.", "domain": "onchain"}
    ).json()
    assert relations(onchain) == {("E_n_a1", "same_entity", "E_n_b2")}


@pytest.mark.parametrize(
    "body",
    [
        {},
        {"text": ""},
        {"text": 5},
        {"text": "x", "url": "ftp://a/b"},
        {"text": "x", "url": "javascript:alert(1)"},
        {"text": "x", "domain": "Mars!"},
        {"text": "x", "extractor": "magic"},
        {"text": "x", "unknown": True},
    ],
)
def test_malformed_extract_text_bodies_get_422(client: TestClient, body: dict) -> None:
    r = client.post("/api/v1/extract/text", json=body)
    assert r.status_code == 422
    assert r.json()["error"] == "invalid_request"


def test_asking_for_the_llm_without_one_configured_is_422(client: TestClient) -> None:
    r = client.post("/api/v1/extract/text", json={"text": KG_TEXT, "extractor": "llm"})
    assert r.status_code == 422
    assert "no LLM endpoint is configured" in r.json()["message"]


def test_extract_url_refuses_loopback_by_default(client: TestClient, site: Site) -> None:
    before = len(site.requests)
    r = client.post("/api/v1/extract/url", json={"url": site.url("/article")})
    assert r.status_code == 400
    assert r.json()["error"] == "url_refused"
    assert "loopback" in r.json()["message"]
    assert len(site.requests) == before


def test_extract_url_fetches_an_allowed_page_and_extracts(make_client, site: Site) -> None:
    c = make_client(ServiceSettings(allowed_networks=LOOPBACK_ONLY))
    r = c.post("/api/v1/extract/url", json={"url": site.url("/article")})
    assert r.status_code == 200, r.text
    body = r.json()
    assert body["url"] == site.url("/article")
    assert "에이크미" in body["title"]
    assert body["validation_passed"] is True
    assert {("E_p_hong", "worksFor", "E_c_acme"), ("E_c_gamma", "acquired", "E_c_eps")} <= relations(body)
    assert all(ev["source_url"] == site.url("/article") for r in body["relations"] for ev in r["evidence"])
    # seed 001's form: the URL as a query parameter
    r = c.post(f"/api/v1/extract/url?url={site.url('/redirect-local')}")
    assert r.status_code == 200
    assert "redirected" in {w["code"] for w in r.json()["warnings"]}


@pytest.mark.parametrize(
    "path, status, code",
    [
        ("/redirect-to/10.0.0.1/", 400, "url_refused"),
        ("/missing", 502, "fetch_status"),
        ("/image", 502, "fetch_content_type"),
    ],
)
def test_extract_url_failures_map_to_statuses(make_client, site: Site, path: str, status: int, code: str) -> None:
    c = make_client(ServiceSettings(allowed_networks=LOOPBACK_ONLY))
    r = c.post("/api/v1/extract/url", json={"url": site.url(path)})
    assert r.status_code == status
    assert r.json()["error"] == code


def test_extract_url_needs_a_url(client: TestClient) -> None:
    assert client.post("/api/v1/extract/url").status_code == 422
    assert client.post("/api/v1/extract/url", json={"url": "file:///etc/passwd"}).status_code == 422
    r = client.post("/api/v1/extract/url?url=file:///etc/passwd")
    assert r.status_code == 400 and r.json()["error"] == "url_refused"
    r = client.post("/api/v1/extract/url?url=https://a.example/", json={"url": "https://b.example/"})
    assert r.status_code == 422


# -- the LLM extractor ----------------------------------------------------------------------------------------

API_KEY = "sk-test-do-not-echo"


class ChatServer:
    """An OpenAI-compatible chat endpoint as an httpx transport: answers with scripted contents in turn, then
    with HTTP 500 (or always with ``status``)."""

    def __init__(self, *contents: str, status: int = 200) -> None:
        self.contents = list(contents)
        self.status = status
        self.requests: list[dict[str, Any]] = []
        self.headers: list[httpx.Headers] = []

    def transport(self) -> httpx.MockTransport:
        return httpx.MockTransport(self.handle)

    def handle(self, request: httpx.Request) -> httpx.Response:
        assert request.url.path.endswith("/chat/completions")
        self.requests.append(json.loads(request.content))
        self.headers.append(request.headers)
        if self.status != 200 or not self.contents:
            return httpx.Response(self.status if self.status != 200 else 500, json={"error": {"message": "nope"}})
        return httpx.Response(
            200, json={"choices": [{"message": {"role": "assistant", "content": self.contents.pop(0)}}]}
        )


LLM = LLMSettings(base_url="http://llm.invalid/v1", model="test-model", api_key=API_KEY, max_reasks=2)
BAD = json.dumps(
    {
        "entities": [
            {"id": "1", "label": "홍길동", "type": "individual", "ontology_class": "Person"},
            {"id": "E_2", "label": "에이크미", "type": "individual", "ontology_class": "Company"},
        ],
        "relations": [{"id": "R_1", "source_id": "1", "predicate": "worksFor", "target_id": "E_2"}],
    },
    ensure_ascii=False,
)
GOOD = (
    "```json\n"
    + json.dumps(
        {
            "entities": [
                {
                    "id": "E_1",
                    "label": "홍길동",
                    "type": "individual",
                    "ontology_class": "Person",
                    "evidence": {"offset": 0},
                },
                {"id": "E_2", "label": "에이크미", "type": "individual", "ontology_class": "Company"},
            ],
            "relations": [
                {
                    "id": "R_1",
                    "source_id": "E_1",
                    "predicate": "worksFor",
                    "target_id": "E_2",
                    "confidence": 0.9,
                    "evidence": {"offset": 0, "chunk_text": "홍길동은 에이크미의 대표로 일하며"},
                }
            ],
        },
        ensure_ascii=False,
    )
    + "\n```"
)


def test_the_llm_extractor_is_re_asked_until_the_guard_passes_it() -> None:
    server = ChatServer(BAD, GOOD)
    extractor = LLMExtractor(LLM, load_domain("kg"), transport=server.transport())
    doc = read_text(KG_TEXT, "https://news.example.com/acme")
    body = asyncio.run(guarded(doc, extractor.extract(doc), domain="kg", extractor="llm", max_reasks=2))
    assert body["validation_passed"] is True
    assert body["attempts"] == 2
    assert relations(body) == {("E_1", "worksFor", "E_2")}
    assert body["relations"][0]["evidence"][0]["source_url"] == "https://news.example.com/acme"
    first, second = server.requests
    assert first["model"] == "test-model"
    assert "worksFor" in first["messages"][0]["content"] and first["messages"][1]["content"] == KG_TEXT
    reask = second["messages"][-1]["content"]
    assert "entity_id_prefix" in reask and "$.entities[0].id" in reask
    assert server.headers[0]["authorization"] == f"Bearer {API_KEY}"


def test_the_llm_extractor_stops_after_max_reasks() -> None:
    server = ChatServer(BAD, "not json at all", BAD)
    extractor = LLMExtractor(LLM, load_domain("kg"), transport=server.transport())
    doc = read_text(KG_TEXT)
    body = asyncio.run(guarded(doc, extractor.extract(doc), domain="kg", extractor="llm", max_reasks=2))
    assert body["validation_passed"] is False
    assert body["attempts"] == 3
    assert {e["code"] for e in body["validation_errors"]} >= {"entity_id_prefix"}


def test_the_llm_route_uses_the_configured_endpoint(make_client) -> None:
    server = ChatServer(GOOD)
    c = make_client(ServiceSettings(llm=LLM), llm_transport=server.transport())
    r = c.post("/api/v1/extract/text", json={"text": KG_TEXT})
    assert r.status_code == 200
    assert r.json()["extractor"] == "llm" and r.json()["validation_passed"] is True
    r = c.post("/api/v1/extract/text", json={"text": KG_TEXT, "extractor": "lexicon"})
    assert r.json()["extractor"] == "lexicon"


def test_llm_endpoint_errors_never_show_the_api_key(make_client) -> None:
    c = make_client(ServiceSettings(llm=LLM), llm_transport=ChatServer(status=401).transport())
    r = c.post("/api/v1/extract/text", json={"text": KG_TEXT})
    assert r.status_code == 502
    assert r.json()["error"] == "fetch_status"
    assert API_KEY not in r.text
    assert API_KEY not in repr(LLM)


def test_an_llm_failing_during_a_re_ask_is_a_502_not_a_500(make_client) -> None:
    server = ChatServer(BAD)  # the re-ask gets HTTP 500
    c = make_client(ServiceSettings(llm=LLM), llm_transport=server.transport())
    r = c.post("/api/v1/extract/text", json={"text": KG_TEXT})
    assert r.status_code == 502
    assert r.json()["error"] == "fetch_status"
    assert len(server.requests) == 2
