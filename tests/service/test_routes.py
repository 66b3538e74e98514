"""Every route of the HTTP API, and every way a request can be wrong (always a 4xx with a JSON message)."""

from __future__ import annotations

import copy
import re

import pytest
from fastapi.testclient import TestClient

from ont_platform.answer import schema_errors
from ont_platform.service.app import STATIC
from tests.service.conftest import KG_Q1, ONCHAIN_Q1, PAGES_Q1


def error_of(response) -> dict:
    body = response.json()
    assert set(body) >= {"error", "message"}, body
    assert isinstance(body["message"], str) and body["message"]
    return body  # type: ignore[no-any-return]


# -- domains and questions -------------------------------------------------------------------------------------


def test_domains_lists_the_loaded_datasets_with_sample_questions(client: TestClient) -> None:
    r = client.get("/api/v1/domains")
    assert r.status_code == 200
    by_domain = {d["domain"]: d for d in r.json()}
    assert set(by_domain) == {"onchain", "kg", "pages"}
    assert by_domain["onchain"]["contract"] == "onchain_answer"
    assert ONCHAIN_Q1 in by_domain["onchain"]["examples"]


def test_ask_returns_the_seed_000_contract(client: TestClient) -> None:
    r = client.post("/api/v1/ask", json={"domain": "onchain", "question": ONCHAIN_Q1, "id": "q_001"})
    assert r.status_code == 200
    answer = r.json()
    assert schema_errors(answer, "onchain_answer") == []
    assert answer["q_id"] == "q_001"
    assert answer["intent"] == "path_exists"
    assert [(e["edge_id"], e["tx_hash"], e["from"], e["to"]) for e in answer["path"]] == [
        ("e1", "0xaa1", "n_a1", "n_h1"),
        ("e2", "0xaa2", "n_h1", "n_ex1"),
    ]
    assert answer["grounding_ok"] is True


def test_ask_answers_each_domain_with_its_contract(client: TestClient) -> None:
    kg = client.post("/api/v1/ask", json={"domain": "kg", "question": KG_Q1, "id": "q001"}).json()
    assert schema_errors(kg, "hop_decision") == []
    assert (kg["decision"], kg["answer"]) == ("answer", "pl_seoul")
    pages = client.post("/api/v1/ask", json={"domain": "pages", "question": PAGES_Q1}).json()
    assert schema_errors(pages, "page_filter_result") == []
    assert pages["status"] == "ran" and pages["count"] == 1


def test_ask_trace_adds_the_queries_that_ran(client: TestClient) -> None:
    r = client.post("/api/v1/ask/trace", json={"domain": "kg", "question": KG_Q1})
    assert r.status_code == 200
    body = r.json()
    assert body["answer"]["decision"] == "answer"
    assert body["queries"] and all("SELECT" in q or "ASK" in q for q in body["queries"])
    onchain = client.post("/api/v1/ask/trace", json={"domain": "onchain", "question": ONCHAIN_Q1}).json()
    assert onchain["answer"]["generated_query"] in onchain["queries"]


def test_an_honest_refusal_is_a_200_answer(client: TestClient) -> None:
    r = client.post("/api/v1/ask", json={"domain": "kg", "question": "박영희가 일하는 회사는 어디에 있어?"})
    assert r.status_code == 200
    assert r.json()["decision"] == "refuse"
    assert r.json()["factors"] == ["missing_start_node"]


@pytest.mark.parametrize(
    "body, field",
    [
        ({"question": ONCHAIN_Q1}, "domain"),
        ({"domain": "onchain"}, "question"),
        ({"domain": "Mars!", "question": "x"}, "domain"),
        ({"domain": "onchain", "question": ""}, "question"),
        ({"domain": "onchain", "question": 42}, "question"),
        ({"domain": "onchain", "question": "x" * 1001}, "question"),
        ({"domain": "onchain", "question": "x", "id": ""}, "id"),
        ({"domain": "onchain", "question": "x", "extra": 1}, "extra"),
    ],
)
def test_malformed_ask_bodies_get_422_naming_the_field(client: TestClient, body: dict, field: str) -> None:
    r = client.post("/api/v1/ask", json=body)
    assert r.status_code == 422
    err = error_of(r)
    assert err["error"] == "invalid_request"
    assert field in err["message"]
    assert any(field in d["loc"] for d in err["details"])


def test_a_domain_that_is_not_loaded_is_not_found_by_name(client: TestClient) -> None:
    r = client.post("/api/v1/ask", json={"domain": "mars", "question": "x"})
    assert r.status_code == 404 and "'mars'" in error_of(r)["message"]
    r = client.post("/api/v1/extract/text", json={"text": "x", "domain": "mars"})
    assert r.status_code == 404


def test_a_question_of_only_spaces_is_refused_with_the_librarys_message(client: TestClient) -> None:
    r = client.post("/api/v1/ask", json={"domain": "onchain", "question": "   "})
    assert r.status_code == 422
    assert error_of(r) == {"error": "invalid_input", "message": "empty question"}


@pytest.mark.parametrize(
    "content, ctype, expected",
    [
        (b"{not json", "application/json", "not valid JSON"),
        (b"[1, 2]", "application/json", "JSON object"),
        (b'"text"', "application/json", "JSON object"),
        (b"", "application/json", "JSON object"),
        (b"domain=onchain", "application/x-www-form-urlencoded", "JSON object"),
        ("\udcff".encode("utf-8", "surrogatepass"), "application/json", ""),
    ],
)
def test_bodies_that_are_not_json_objects_get_422(
    client: TestClient, content: bytes, ctype: str, expected: str
) -> None:
    r = client.post("/api/v1/ask", content=content, headers={"Content-Type": ctype})
    assert r.status_code == 422, r.text
    assert expected in error_of(r)["message"]


def test_a_domain_that_is_not_loaded_is_404() -> None:
    from ont_platform import KnowledgeGraph
    from ont_platform.resources import example_dataset
    from ont_platform.service.app import create_app

    with KnowledgeGraph.open() as kg:
        kg.load(example_dataset("kg"))
        with TestClient(create_app(kg), raise_server_exceptions=False) as c:
            r = c.post("/api/v1/ask", json={"domain": "onchain", "question": ONCHAIN_Q1})
            assert r.status_code == 404
            assert error_of(r)["message"] == "no 'onchain' dataset is loaded (loaded: kg)"
            r = c.get("/api/v1/domains")
            assert [d["domain"] for d in r.json()] == ["kg"]


def test_oversized_bodies_get_413(client: TestClient) -> None:
    big = b'{"domain": "onchain", "question": "' + b"x" * (5 * 1024 * 1024) + b'"}'
    r = client.post("/api/v1/ask", content=big, headers={"Content-Type": "application/json"})
    assert r.status_code == 413
    assert error_of(r)["error"] == "body_too_large"

    def chunks():  # no Content-Length: counted as it arrives
        yield b'{"domain": "onchain", "question": "'
        for _ in range(5):
            yield b"x" * (1024 * 1024)
        yield b'"}'

    r = client.post("/api/v1/ask", content=chunks(), headers={"Content-Type": "application/json"})
    assert r.status_code == 413


def test_unknown_routes_and_methods_answer_json(client: TestClient) -> None:
    r = client.get("/api/v1/nothing")
    assert r.status_code == 404 and error_of(r)["error"] == "not_found"
    r = client.get("/api/v1/ask")
    assert r.status_code == 405 and error_of(r)["error"] == "method_not_allowed"


# -- verification -------------------------------------------------------------------------------------------------


def test_verify_passes_a_genuine_answer(client: TestClient) -> None:
    answer = client.post("/api/v1/ask", json={"domain": "onchain", "question": ONCHAIN_Q1, "id": "q_001"}).json()
    r = client.post("/api/v1/verify", json={"answer": answer, "question": ONCHAIN_Q1})
    assert r.status_code == 200
    assert r.json() == {"id": "q_001", "ok": True, "grounding_ok": True, "failures": []}


def test_verify_catches_an_invented_transaction(client: TestClient) -> None:
    answer = client.post("/api/v1/ask", json={"domain": "onchain", "question": ONCHAIN_Q1, "id": "q_001"}).json()
    forged = copy.deepcopy(answer)
    forged["path"][0]["tx_hash"] = "0xdead"
    report = client.post("/api/v1/verify", json={"answer": forged, "question": ONCHAIN_Q1}).json()
    assert report["ok"] is False and report["grounding_ok"] is False
    assert any(f["check"] == "citations" and "0xdead" in f["detail"] for f in report["failures"])


def test_verify_checks_kg_answers_against_the_kg_graph(client: TestClient) -> None:
    answer = client.post("/api/v1/ask", json={"domain": "kg", "question": KG_Q1, "id": "q001"}).json()
    assert client.post("/api/v1/verify", json={"answer": answer, "question": KG_Q1}).json()["ok"] is True
    answer["path"][0]["chunk_id"] = "ch_999"
    report = client.post("/api/v1/verify", json={"answer": answer}).json()
    assert report["grounding_ok"] is False


def test_verify_reports_on_an_answer_it_cannot_read(client: TestClient) -> None:
    report = client.post("/api/v1/verify", json={"answer": {"hello": "world"}}).json()
    assert report["ok"] is False and report["grounding_ok"] is False
    assert report["failures"][0]["check"] == "schema"


@pytest.mark.parametrize(
    "body", [{}, {"answer": []}, {"answer": "text"}, {"answer": {}, "question": 3}, {"answer": {}, "gold": {}}]
)
def test_malformed_verify_bodies_get_422(client: TestClient, body: dict) -> None:
    r = client.post("/api/v1/verify", json=body)
    assert r.status_code == 422
    error_of(r)


# -- nodes --------------------------------------------------------------------------------------------------------


def test_node_facts(client: TestClient) -> None:
    r = client.get("/api/v1/nodes/onchain/n_ex1")
    assert r.status_code == 200
    node = r.json()
    assert node["label"] == "거래소 X 입금주소 1"
    assert node["classes"] == [
        {
            "iri": "https://w3id.org/ont-platform/onchain#ExchangeDeposit",
            "name": "ExchangeDeposit",
            "label": "거래소 입금주소",
        }
    ]
    assert node["address"] == "0xb3c193beaba754f95866864d98727336c8793a23"
    kg = client.get("/api/v1/nodes/kg/p_hong").json()
    assert (kg["label"], kg["classes"][0]["name"]) == ("홍길동", "Person")


@pytest.mark.parametrize(
    "path",
    [
        "/api/v1/nodes/kg/nobody",
        "/api/v1/nodes/mars/n_a1",
        "/api/v1/nodes/pages/x",
        "/api/v1/nodes/kg/%3E%20%7D%20DROP",
        "/api/v1/nodes/onchain/a/b",
    ],
)
def test_unknown_nodes_and_domains_are_404(client: TestClient, path: str) -> None:
    r = client.get(path)
    assert r.status_code == 404
    assert error_of(r)["error"] == "not_found"


# -- the page and the OpenAPI document -----------------------------------------------------------------------


def test_the_admin_page_and_its_files_are_served_with_a_strict_policy(client: TestClient) -> None:
    r = client.get("/")
    assert r.status_code == 200
    assert r.headers["content-type"].startswith("text/html")
    assert "지식그래프 질의" in r.text
    csp = r.headers["content-security-policy"]
    assert "default-src 'none'" in csp and "script-src 'self'" in csp
    for name, ctype in (("app.js", "javascript"), ("app.css", "text/css")):
        f = client.get(f"/static/{name}")
        assert f.status_code == 200 and ctype in f.headers["content-type"]


def test_the_page_loads_nothing_from_elsewhere_and_writes_no_markup_from_data() -> None:
    for path in STATIC.iterdir():
        text = path.read_text(encoding="utf-8")
        urls = set(re.findall(r"(?:https?:)?//[A-Za-z0-9.-]+\.[A-Za-z]{2,}[^\s\"')]*", text))
        assert urls <= {"http://www.w3.org/2000/svg"}, (path.name, urls)
        assert "@import" not in text and "@font-face" not in text
    js = (STATIC / "app.js").read_text(encoding="utf-8")
    for sink in ("innerHTML", "outerHTML", "insertAdjacentHTML", "document.write", "eval(", "new Function"):
        assert sink not in js, sink


def test_openapi_document_lists_every_route(client: TestClient) -> None:
    doc = client.get("/openapi.json").json()
    assert doc["openapi"].startswith("3.")
    assert set(doc["paths"]) == {
        "/api/v1/domains",
        "/api/v1/ask",
        "/api/v1/ask/trace",
        "/api/v1/verify",
        "/api/v1/nodes/{domain}/{node_id}",
        "/api/v1/extract/text",
        "/api/v1/ingest",
        "/api/v1/writes",
        "/api/v1/extract/url",
        "/sparql",
        "/sparql/{domain}",
        "/health",
    }
    docs = client.get("/docs")  # self-hosted: nothing loaded from a CDN
    assert docs.status_code == 200 and "cdn" not in docs.text.lower()


def test_the_service_package_exports_what_it_lists() -> None:
    from ont_platform import service

    assert service.__all__ == sorted(service.__all__)
    for name in service.__all__:
        assert getattr(service, name) is not None, name
