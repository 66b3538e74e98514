"""Schemathesis against the OpenAPI document: generated requests, valid and invalid, never get a 5xx.

Each operation gets a bounded number of generated requests that fit the document (positive) and that break
it (negative). Host names in generated URLs resolve to a documentation address, refused as non-public, so no
lookup or connection leaves the process.

Schemathesis's Hypothesis strategies are used directly (its lazy pytest fixture loader does not run under
pytest 9), one test per operation and mode.
"""

from __future__ import annotations

import httpx
import pytest
import schemathesis
from hypothesis import HealthCheck, given, settings
from schemathesis import GenerationMode
from schemathesis.checks import not_a_server_error

from ont_platform.service.app import create_app
from ont_platform.service.fetch import AddressPolicy, Fetcher
from ont_platform.service.graphs import GraphSet
from ont_platform.service.settings import ServiceSettings

MAX_EXAMPLES = 12
OPERATIONS = [
    ("GET", "/api/v1/domains"),
    ("POST", "/api/v1/ask"),
    ("POST", "/api/v1/ask/trace"),
    ("POST", "/api/v1/verify"),
    ("GET", "/api/v1/nodes/{domain}/{node_id}"),
    ("POST", "/api/v1/extract/text"),
    ("POST", "/api/v1/extract/url"),
    ("POST", "/api/v1/ingest"),
    ("GET", "/api/v1/writes"),  # the fuzzed app has no token: writes get 403
    ("GET", "/sparql"),
    ("POST", "/sparql"),
    ("GET", "/sparql/{domain}"),
    ("POST", "/sparql/{domain}"),
    ("GET", "/health"),
]


class _Refuse(httpx.BaseTransport):
    def handle_request(self, request: httpx.Request) -> httpx.Response:
        raise AssertionError(f"no request should leave the fetcher, but {request.url} did")


@pytest.fixture(scope="module")
def api_schema(graph_set: GraphSet) -> schemathesis.BaseSchema:
    fetcher = Fetcher(AddressPolicy(), resolver=lambda host, port: ["192.0.2.1"], transport=_Refuse())
    app = create_app(graph_set, ServiceSettings(), fetcher=fetcher)
    return schemathesis.openapi.from_asgi("/openapi.json", app)


def test_every_operation_is_fuzzed(api_schema: schemathesis.BaseSchema) -> None:
    documented = {(op.ok().method.upper(), op.ok().path) for op in api_schema.get_all_operations()}
    assert documented == set(OPERATIONS)


# Negative mode needs an input that can be broken: GET /domains takes none, and any text is a valid node id.
UNBREAKABLE = {
    ("GET", "/health"),
    ("GET", "/api/v1/domains"),
    ("GET", "/api/v1/nodes/{domain}/{node_id}"),
    ("GET", "/api/v1/writes"),
}
CASES = [(m, p, GenerationMode.POSITIVE) for m, p in OPERATIONS] + [
    (m, p, GenerationMode.NEGATIVE) for m, p in OPERATIONS if (m, p) not in UNBREAKABLE
]


@pytest.mark.parametrize("method, path, mode", CASES, ids=[f"{m} {p} {g}" for m, p, g in CASES])
def test_no_generated_request_gets_a_server_error(
    api_schema: schemathesis.BaseSchema, method: str, path: str, mode: GenerationMode
) -> None:
    operation = api_schema[path][method]

    @given(case=operation.as_strategy(generation_mode=mode))
    @settings(
        max_examples=MAX_EXAMPLES,
        deadline=None,
        derandomize=True,
        database=None,
        suppress_health_check=list(HealthCheck),
    )
    def run(case: schemathesis.Case) -> None:
        response = case.call()
        case.validate_response(response, checks=[not_a_server_error])
        if response.status_code >= 400:
            body = response.json()
            assert isinstance(body.get("error"), str) and isinstance(body.get("message"), str), body

    run()
