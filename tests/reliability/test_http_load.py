"""Concurrency over HTTP: ``ont serve`` in its own process on 127.0.0.1, ten clients for three seconds
(:mod:`benchmarks.http_load`, the load benchmark's own code), no request fails and every answer is the one the
library gives in this process for the same question."""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any

import pytest

from ont_platform.service.app import _bundled_examples
from tests.benchmarks import benchmark

http_load = benchmark("http_load")


@pytest.fixture(scope="module")
def server(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Any]:
    with http_load.serve(log_dir=tmp_path_factory.mktemp("serve")) as running:
        yield running
    assert running.process.returncode is not None, "the server outlived its stop"


@pytest.fixture(scope="module")
def expected() -> dict[Any, Any]:
    """Each example question answered in this process, over the same bundled datasets the server holds."""
    kg, _ = _bundled_examples(None)
    try:
        return {q: kg.ask(q.text, domain=q.domain, qid=q.id).to_json() for q in http_load.example_questions()}
    finally:
        kg.close()


@pytest.mark.slow
def test_concurrent_clients_get_the_in_process_answers(server: Any, expected: dict[Any, Any]) -> None:
    stats = http_load.run_load(server.base_url, clients=10, seconds=3.0, expected=expected, seed=11)
    summary = stats.summary()
    assert stats.error_count == 0, (summary["error_kinds"], stats.examples)
    assert stats.requests >= 10, summary
    assert {"ask", "verify"} <= set(stats.by_route), summary
    assert server.process.poll() is None, "the server died under load"
