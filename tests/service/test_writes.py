"""Writes over HTTP: only with the API token, rate limited per client, all or nothing, recorded in the graph.

Each test has its own graph (the session's example graphs stay unwritten for the other tests).
"""

from __future__ import annotations

from collections.abc import Callable, Iterator

import pytest
from fastapi.testclient import TestClient
from rdflib import RDF

from ont_platform import KnowledgeGraph
from ont_platform.namespaces import ONT
from ont_platform.resources import example_dataset
from ont_platform.service.app import create_app
from ont_platform.service.settings import ServiceSettings
from tests.service.conftest import LOOPBACK_ONLY, Site

TOKEN = "t0ken-for-the-tests-only"
AUTH = {"Authorization": f"Bearer {TOKEN}"}
TEXT = "홍길동은 베타에 자문으로 일한다."
GOOD = {
    "entities": [
        {"id": "E_p_hong", "label": "홍길동", "type": "individual", "ontology_class": "Person"},
        {"id": "E_2", "label": "베타", "type": "individual", "ontology_class": "Company"},
    ],
    "relations": [
        {
            "id": "R_1",
            "source_id": "E_p_hong",
            "predicate": "worksFor",
            "target_id": "E_2",
            "evidence": {"chunk_text": TEXT},
        }
    ],
}
BAD = {
    "entities": GOOD["entities"],
    "relations": [{**GOOD["relations"][0], "predicate": "marriedTo"}],
}  # not a relation of the ontology


@pytest.fixture
def served() -> Iterator[Callable[..., tuple[TestClient, KnowledgeGraph]]]:
    opened: list[tuple[TestClient, KnowledgeGraph]] = []

    def make(settings: ServiceSettings) -> tuple[TestClient, KnowledgeGraph]:
        kg = KnowledgeGraph.open()
        kg.load(example_dataset("kg"))
        c = TestClient(create_app({"kg": kg}, settings), raise_server_exceptions=False)
        opened.append((c, kg))
        return c, kg

    yield make
    for c, kg in opened:
        c.close()
        kg.close()


def _writes(kg: KnowledgeGraph) -> int:
    return len(list(kg.triples((None, RDF.type, ONT.Write))))


def test_without_a_token_configured_the_service_is_read_only(
    served: Callable[..., tuple[TestClient, KnowledgeGraph]],
) -> None:
    c, kg = served(ServiceSettings())
    size = len(kg)
    r = c.post("/api/v1/ingest", json=GOOD, headers=AUTH)
    assert r.status_code == 403 and r.json()["error"] == "read_only"
    assert len(kg) == size
    assert c.get("/api/v1/writes").json()["writable"] is False


@pytest.mark.parametrize(
    "headers",
    [
        {},
        {"Authorization": "Bearer wrong-token-of-the-same-size"},
        {"Authorization": TOKEN},
        {"Authorization": f"Basic {TOKEN}"},
    ],
)
def test_a_write_without_the_token_gets_401_and_changes_nothing(
    served: Callable[..., tuple[TestClient, KnowledgeGraph]], headers: dict[str, str]
) -> None:
    c, kg = served(ServiceSettings(api_token=TOKEN))
    size = len(kg)
    r = c.post("/api/v1/ingest", json=GOOD, headers=headers)
    assert r.status_code == 401 and r.json()["error"] == "unauthorized"
    assert r.headers["WWW-Authenticate"].startswith("Bearer")
    assert len(kg) == size


def test_a_good_payload_lands_resolved_and_recorded(served: Callable[..., tuple[TestClient, KnowledgeGraph]]) -> None:
    c, kg = served(ServiceSettings(api_token=TOKEN))
    r = c.post("/api/v1/ingest", json=GOOD, headers=AUTH)
    body = r.json()
    assert r.status_code == 200 and body["accepted"], body
    assert body["linked"] == {"E_p_hong": "p_hong", "E_2": "c_beta"} and body["triples_added"] > 0
    assert _writes(kg) == 1 and body["write"].startswith("https://w3id.org/ont-platform/id/kg/write/")
    answer = c.post("/api/v1/ask", json={"question": "홍길동이 다니는 회사는?", "domain": "kg"}).json()
    assert "c_beta" in answer["answer"].split(", ")
    (last,) = c.get("/api/v1/writes").json()["writes"]
    assert last["accepted"] and last["kind"] == "ingest" and last["id"] == body["write"]


def test_a_bad_payload_is_refused_whole(served: Callable[..., tuple[TestClient, KnowledgeGraph]]) -> None:
    c, kg = served(ServiceSettings(api_token=TOKEN))
    before = {t for t in kg if not str(t[0]).startswith("https://w3id.org/ont-platform/id/kg/write/")}
    r = c.post("/api/v1/ingest", json=BAD, headers=AUTH)
    assert r.status_code == 422 and r.json()["accepted"] is False and r.json()["errors"]
    after = {t for t in kg if not str(t[0]).startswith("https://w3id.org/ont-platform/id/kg/write/")}
    assert after == before  # only the audit record was added
    assert _writes(kg) == 1


def test_writes_are_rate_limited_per_client(served: Callable[..., tuple[TestClient, KnowledgeGraph]]) -> None:
    c, _ = served(ServiceSettings(api_token=TOKEN, write_rate_per_min=2))
    codes = [c.post("/api/v1/ingest", json=GOOD, headers=AUTH).status_code for _ in range(3)]
    assert codes[:2] == [200, 200] and codes[2] == 429
    r = c.post("/api/v1/ingest", json=GOOD, headers=AUTH)
    assert r.json()["error"] == "rate_limited" and int(r.headers["Retry-After"]) >= 1


def test_extract_url_with_ingest_needs_the_token_before_fetching(
    served: Callable[..., tuple[TestClient, KnowledgeGraph]], site: Site
) -> None:
    c, kg = served(ServiceSettings(api_token=TOKEN, allowed_networks=LOOPBACK_ONLY))
    fetched = len(site.requests)
    r = c.post("/api/v1/extract/url?ingest=true", json={"url": site.url("/article")})
    assert r.status_code == 401 and len(site.requests) == fetched
    r = c.post("/api/v1/extract/url?ingest=true", json={"url": site.url("/article")}, headers=AUTH)
    body = r.json()
    assert r.status_code in (200, 422), body
    assert body["extraction"]["url"] == site.url("/article") and "accepted" in body["ingest"]
    assert _writes(kg) == 1
