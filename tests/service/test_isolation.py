"""One slow or hostile request must not hold up the others, and a flood is shed with 503 rather than queued.

The slow requests here are made slow by events the test controls (a fetch, a query check or an extraction that
waits until the test lets it go), so nothing depends on how fast this machine is: with requests serialised the
asker would wait for the release that only comes after it answered, and the test fails at its generous join.
"""

from __future__ import annotations

import os
import signal
import threading
from collections.abc import Callable, Iterator
from typing import Any

import pytest
from fastapi.testclient import TestClient

from ont_platform.errors import QueryTimeout
from ont_platform.kg import KnowledgeGraph
from ont_platform.limits import Limits
from ont_platform.resources import example_dataset
from ont_platform.service.graphs import GraphSet
from ont_platform.service.settings import ServiceSettings
from ont_platform.verify import Verifier
from ont_platform.verify import query as query_module
from tests.service.conftest import KG_Q1, ONCHAIN_Q1

JOIN_S = 120.0
"""How long the test waits for a request it expects to finish; generous, it only ends a broken run."""


class HeldFetcher:
    """A fetcher whose every fetch waits until the test releases it."""

    def __init__(self) -> None:
        self.entered = threading.Event()
        self.release = threading.Event()

    def fetch(self, url: str) -> Any:
        self.entered.set()
        self.release.wait(JOIN_S)
        raise QueryTimeout("held fetch released", limit=1.0)


def _in_thread(work: Callable[[], Any]) -> tuple[threading.Thread, dict[str, Any]]:
    box: dict[str, Any] = {}

    def run() -> None:
        try:
            box["out"] = work()
        except BaseException as exc:  # noqa: BLE001 - reported by the test
            box["err"] = exc

    thread = threading.Thread(target=run, daemon=True)
    thread.start()
    return thread, box


@pytest.fixture
def held() -> Iterator[HeldFetcher]:
    fetcher = HeldFetcher()
    yield fetcher
    fetcher.release.set()


def test_a_held_fetch_does_not_delay_a_question(make_client: Callable[..., TestClient], held: HeldFetcher) -> None:
    client = make_client(fetcher=held)
    slow, _ = _in_thread(lambda: client.post("/api/v1/extract/url", json={"url": "https://example.org/"}))
    assert held.entered.wait(JOIN_S)
    answered, box = _in_thread(lambda: client.post("/api/v1/ask", json={"domain": "kg", "question": KG_Q1}))
    answered.join(JOIN_S)
    assert not answered.is_alive(), "a question waited for an unrelated fetch"
    assert box["out"].status_code == 200 and box["out"].json()["decision"] == "answer"
    assert slow.is_alive()  # the fetch is still held: the question really ran beside it
    held.release.set()
    slow.join(JOIN_S)


def test_a_query_check_in_progress_does_not_delay_a_question(
    make_client: Callable[..., TestClient], monkeypatch: pytest.MonkeyPatch
) -> None:
    entered, release = threading.Event(), threading.Event()
    real = query_module._INSPECTOR.inspect

    def held_inspect(text: str, timeout: float) -> Any:
        entered.set()
        release.wait(JOIN_S)
        return real(text, timeout)

    monkeypatch.setattr(query_module._INSPECTOR, "inspect", held_inspect)
    client = make_client()
    answer = client.post("/api/v1/ask", json={"domain": "onchain", "question": ONCHAIN_Q1}).json()
    assert answer.get("generated_query")
    try:
        slow, slow_box = _in_thread(lambda: client.post("/api/v1/verify", json={"answer": answer}))
        assert entered.wait(JOIN_S)
        for domain, question in (("kg", KG_Q1), ("onchain", ONCHAIN_Q1)):
            asked, box = _in_thread(
                lambda d=domain, q=question: client.post(  # type: ignore[misc]
                    "/api/v1/ask", json={"domain": d, "question": q}
                )
            )
            asked.join(JOIN_S)
            assert not asked.is_alive(), f"a {domain} question waited for a verification in progress"
            assert box["out"].status_code == 200
        assert slow.is_alive()
    finally:
        release.set()
    slow.join(JOIN_S)
    assert slow_box["out"].status_code == 200 and slow_box["out"].json()["ok"] is True


def test_a_flood_beyond_the_waiting_room_gets_503_with_retry_after(
    make_client: Callable[..., TestClient], held: HeldFetcher
) -> None:
    client = make_client(ServiceSettings(max_active=1, max_waiting=0), fetcher=held)
    slow, _ = _in_thread(lambda: client.post("/api/v1/extract/url", json={"url": "https://example.org/"}))
    assert held.entered.wait(JOIN_S)
    refused = client.post("/api/v1/ask", json={"domain": "kg", "question": KG_Q1})
    assert refused.status_code == 503
    assert refused.json()["error"] == "busy"
    assert refused.headers["Retry-After"] == "1"
    assert client.get("/").status_code == 200  # the admin page is not counted
    held.release.set()
    slow.join(JOIN_S)
    again = client.post("/api/v1/ask", json={"domain": "kg", "question": KG_Q1})
    assert again.status_code == 200  # the turn came back


def test_a_waiting_request_gives_up_at_its_wait_limit(
    make_client: Callable[..., TestClient], held: HeldFetcher
) -> None:
    client = make_client(ServiceSettings(max_active=1, max_waiting=4, wait_s=0.2), fetcher=held)
    slow, _ = _in_thread(lambda: client.post("/api/v1/extract/url", json={"url": "https://example.org/"}))
    assert held.entered.wait(JOIN_S)
    waited = client.post("/api/v1/ask", json={"domain": "kg", "question": KG_Q1})
    assert waited.status_code == 503 and "no turn came within 0.2 s" in waited.json()["message"]
    held.release.set()
    slow.join(JOIN_S)


def test_a_hostile_generated_query_is_stopped_at_the_check_not_parsed_for_a_minute() -> None:
    """9.5 KB of ``FILTER(?o = 1 || ...)`` takes rdflib's parser about two seconds, 90 KB over forty; the check
    runs in a worker killed at the graph's query limit."""
    with KnowledgeGraph.open(limits=Limits(query_timeout_s=0.5)) as kg:
        kg.load(example_dataset("onchain"))
        answer = kg.ask(ONCHAIN_Q1).to_json()
        answer["generated_query"] = (
            "SELECT ?x WHERE { ?x ?p ?o FILTER(" + " || ".join(f"?o = {i}" for i in range(3_000)) + ") }"
        )
        with Verifier(kg) as verifier:
            report = verifier.verify(answer, question=ONCHAIN_Q1)
    assert not report.ok
    assert any("parsing it took longer than the time limit of 0.5 s" in f.detail for f in report.failures), (
        report.to_json()
    )


def test_one_verifier_serves_many_threads_with_the_same_reports() -> None:
    """The service shares one verifier per graph between its request threads."""
    with KnowledgeGraph.open() as kg:
        kg.load(example_dataset("kg"))
        answers = [kg.ask(q).to_json() for q in (KG_Q1, "에이크미는 어느 도시에 있나요?")]
        answers.append({**answers[0], "final_answer": "pl_busan"})
        with Verifier(kg) as alone:
            expected = [alone.verify(a).to_json() for a in answers]
        with Verifier(kg) as shared:
            graph_set_like = [
                (_in_thread(lambda a=a: shared.verify(a).to_json()), i)  # type: ignore[misc]
                for _ in range(4)
                for i, a in enumerate(answers)
            ]
            for (thread, box), i in graph_set_like:
                thread.join(JOIN_S)
                assert box.get("out") == expected[i], box.get("err")


def test_the_graph_set_takes_no_lock_of_its_own_around_work(graph_set: GraphSet) -> None:
    """Its lock guards the verifier cache only: taken and held by the test, questions still get answered."""
    with graph_set.lock:
        asked, box = _in_thread(lambda: graph_set.ask("kg", KG_Q1))
        asked.join(JOIN_S)
        assert not asked.is_alive()
    assert box["out"].answer.decision == "answer"


@pytest.mark.parametrize(
    "body", [b'{"domain":"kg","question":"\xff\xfe"}', b"[" * 100_000], ids=["invalid-utf8", "deep-json"]
)
def test_a_body_that_cannot_be_decoded_gets_a_documented_code(client: TestClient, body: bytes) -> None:
    response = client.post("/api/v1/ask", content=body, headers={"content-type": "application/json"})
    assert response.status_code == 400
    assert response.json()["error"] == "invalid_body"


def test_a_callers_slow_query_holds_no_worker_the_questions_need() -> None:
    """A cross product sent as an answer's generated_query (or through select) runs in a worker of its own: a
    question asked meanwhile gets its answer, not 'another query held the worker for the whole time limit'."""
    with KnowledgeGraph.open(limits=Limits(query_timeout_s=60.0)) as kg:
        kg.load(example_dataset("kg"))
        kg.ask(KG_Q1)  # the library's worker is forked and warm
        slow_query = "SELECT (COUNT(*) AS ?n) WHERE { ?a ?b ?c . ?d ?e ?f . ?g ?h ?i . ?j ?k ?l . ?m ?n2 ?o }"
        slow, box = _in_thread(lambda: kg.select(slow_query))
        store = kg.store
        started = threading.Event()
        for _ in range(600):  # until the caller's worker runs the slow query (it is forked on first use)
            if store.worker_pid(untrusted=True) is not None:  # type: ignore[attr-defined]
                started.set()
                break
            slow.join(0.1)
        assert started.is_set() and slow.is_alive()
        answer = kg.ask(KG_Q1)  # before: waited for the worker the whole 60 s, then QueryTimeout
        assert answer.decision == "answer"
        assert slow.is_alive()  # the question really ran beside the slow one
        os.kill(store.worker_pid(untrusted=True), signal.SIGKILL)  # type: ignore[attr-defined]
        slow.join(JOIN_S)
    assert "err" in box  # the killed worker is reported as a store error, not as rows


def test_workers_for_callers_text_yield_the_cpu_to_questions() -> None:
    """On two cores, a parse or a query a caller sent would otherwise take a core from the questions."""
    own = os.getpriority(os.PRIO_PROCESS, 0)
    with KnowledgeGraph.open() as kg:
        kg.load(example_dataset("kg"))
        kg.ask(KG_Q1)
        kg.select("SELECT * WHERE { ?s ?p ?o } LIMIT 1")  # a caller's query: parsed and run in yielding workers
        store = kg.store
        questions = store.worker_pid()  # type: ignore[attr-defined]
        callers = store.worker_pid(untrusted=True)  # type: ignore[attr-defined]
        assert questions is not None and callers is not None
        assert os.getpriority(os.PRIO_PROCESS, questions) == own
        assert os.getpriority(os.PRIO_PROCESS, callers) > own
        parser = query_module.inspection_worker_pid()
        assert parser is not None and os.getpriority(os.PRIO_PROCESS, parser) > own


def test_the_service_reads_back_only_so_many_rows_of_an_answers_query(client: TestClient) -> None:
    """Rows read back are converted in the server process, whose interpreter every request shares: the service
    reads at most ``verify_max_rows`` of them (a path's query names a few nodes, not thousands of rows); the
    library's own limit is ten times that."""
    cap = ServiceSettings().verify_max_rows
    assert cap < Limits().max_result_rows
    answer = client.post("/api/v1/ask", json={"domain": "onchain", "question": ONCHAIN_Q1}).json()
    answer["generated_query"] = "SELECT * WHERE { ?s ?p ?o }"  # every triple of the three examples
    report = client.post("/api/v1/verify", json={"answer": answer}).json()
    assert not report["ok"]
    assert any(f"more than {cap} rows" in f["detail"] for f in report["failures"]), report
