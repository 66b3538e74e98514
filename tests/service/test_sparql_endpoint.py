"""The SPARQL 1.1 Protocol endpoint ``/sparql``: real clients (SPARQLWrapper, rdflib's SPARQLStore in its three
request forms, httpx for each result format, and this library's own ``backend="remote"``) read the same rows as
``KnowledgeGraph.select`` on the served graph; updates, refused queries and unusable requests get JSON errors.

The server is uvicorn in a thread, on a socket bound to a free loopback port before it starts (no port race).
"""

from __future__ import annotations

import csv
import io
import socket
import threading
import time
from collections.abc import Iterator

import httpx
import pytest
import uvicorn
from fastapi.testclient import TestClient
from rdflib import BNode, Graph, Literal, URIRef, Variable
from rdflib.plugins.stores.sparqlstore import SPARQLStore
from rdflib.query import Result
from SPARQLWrapper import CSV, GET, JSON, POST, POSTDIRECTLY, TURTLE, URLENCODED, XML, SPARQLWrapper

from ont_platform.errors import QueryTimeout
from ont_platform.kg import KnowledgeGraph
from ont_platform.limits import Limits
from ont_platform.service import sparql_endpoint
from ont_platform.service.app import create_app
from ont_platform.service.graphs import GraphSet
from ont_platform.service.sparql_endpoint import GRAPH_NAME, ProtocolError, choose_graph, negotiate

CORE = "https://w3id.org/ont-platform/core#"
SELECTS = [
    f"SELECT ?ds ?d WHERE {{ ?ds <{CORE}domain> ?d }} ORDER BY ?d",
    "SELECT ?s ?label WHERE { ?s <http://www.w3.org/2000/01/rdf-schema#label> ?label } ORDER BY ?s ?label LIMIT 40",
    "SELECT ?s ?p ?o WHERE { ?s ?p ?o } ORDER BY ?s ?p ?o LIMIT 60",
    # an OPTIONAL that leaves ?label unbound on most rows
    "SELECT ?s ?label WHERE { ?s a ?c OPTIONAL { ?s <http://www.w3.org/2000/01/rdf-schema#label> ?label "
    "FILTER(LANG(?label) = 'en') } } ORDER BY ?s ?label LIMIT 30",
    "SELECT (COUNT(*) AS ?n) WHERE { ?s ?p ?o }",
]
ASKS = [f"ASK {{ ?ds <{CORE}domain> 'kg' }}", f"ASK {{ ?ds <{CORE}domain> 'no-such-domain' }}"]


@pytest.fixture(scope="module")
def kg(graph_set: GraphSet) -> KnowledgeGraph:
    assert len(graph_set.graphs) == 1  # the bundled examples: one graph holding the three domains
    return graph_set.graphs[0]


@pytest.fixture(scope="module")
def base(graph_set: GraphSet) -> Iterator[str]:
    """``http://127.0.0.1:PORT`` of the service (over the session's graphs) running in a thread."""
    sock = socket.socket(socket.AF_INET, socket.SOCK_STREAM)
    sock.bind(("127.0.0.1", 0))
    port = sock.getsockname()[1]
    server = uvicorn.Server(uvicorn.Config(create_app(graph_set), log_level="warning"))
    thread = threading.Thread(target=server.run, kwargs={"sockets": [sock]}, name="sparql-endpoint", daemon=True)
    thread.start()
    waited = 0.0
    while not server.started:  # readiness only: no result depends on how long this takes
        assert thread.is_alive() and waited < 60, "the server did not start"
        time.sleep(0.02)
        waited += 0.02
    try:
        yield f"http://127.0.0.1:{port}"
    finally:
        server.should_exit = True
        thread.join(timeout=30)
        sock.close()


def table(rows: list[dict[str, object]]) -> list[dict[str, object]]:
    """Rows without unbound variables, for comparing clients that drop them with ones that keep ``None``."""
    return [{k: v for k, v in row.items() if v is not None} for row in rows]


def from_result(result: Result) -> list[dict[str, object]]:
    return table([{str(k): v for k, v in row.asdict().items()} for row in result])  # type: ignore[union-attr]


# -- real clients ------------------------------------------------------------------------------------------------


@pytest.mark.parametrize("method", ["GET", "POST", "POST_FORM"])  # ?query=, application/sparql-query, a form
@pytest.mark.parametrize("fmt", ["json", "xml"])
def test_rdflib_sparqlstore_reads_what_select_returns(base: str, kg: KnowledgeGraph, method: str, fmt: str) -> None:
    store = SPARQLStore(f"{base}/sparql", returnFormat=fmt, method=method)
    graph = Graph(store=store, identifier=URIRef(GRAPH_NAME))
    try:
        for query in SELECTS:
            assert from_result(graph.query(query)) == table(kg.select(query)), query
        for query in ASKS:
            assert graph.query(query).askAnswer == kg.select(query)[0]["result"].toPython(), query
    finally:
        store.close()


def _wrapper_rows(result: dict) -> list[dict[str, str]]:
    return [{k: v["value"] for k, v in b.items()} for b in result["results"]["bindings"]]


@pytest.mark.parametrize("method, encoding", [(GET, URLENCODED), (POST, URLENCODED), (POST, POSTDIRECTLY)])
def test_sparqlwrapper_reads_what_select_returns(base: str, kg: KnowledgeGraph, method: str, encoding: str) -> None:
    client = SPARQLWrapper(f"{base}/sparql")
    client.setMethod(method)
    client.setRequestMethod(encoding)
    for query in SELECTS:
        client.setQuery(query)
        client.setReturnFormat(JSON)
        expected = [{k: str(v) for k, v in row.items() if v is not None} for row in kg.select(query)]
        assert _wrapper_rows(client.queryAndConvert()) == expected, query
    for query in ASKS:
        client.setQuery(query)
        for fmt in (JSON, XML):
            client.setReturnFormat(fmt)
            got = client.queryAndConvert()
            answer = got["boolean"] if fmt == JSON else got.getElementsByTagName("boolean")[0].firstChild.data == "true"
            assert answer is kg.select(query)[0]["result"].toPython(), query
    client.setQuery(SELECTS[-1])
    client.setReturnFormat(CSV)
    assert client.queryAndConvert().decode().splitlines()[0] == "n"


@pytest.mark.parametrize(
    "accept, fmt",
    [
        ("application/sparql-results+json", "json"),
        ("application/sparql-results+xml", "xml"),
        ("text/tab-separated-values", "tsv"),
    ],
)
def test_each_typed_result_format_round_trips(base: str, kg: KnowledgeGraph, accept: str, fmt: str) -> None:
    for query in SELECTS:
        response = httpx.get(f"{base}/sparql", params={"query": query}, headers={"Accept": accept})
        assert response.status_code == 200, response.text
        assert response.headers["content-type"].split(";")[0] == accept
        assert from_result(Result.parse(io.BytesIO(response.content), format=fmt)) == table(kg.select(query))


def test_csv_results_carry_the_lexical_forms(base: str, kg: KnowledgeGraph) -> None:
    for query in SELECTS:
        response = httpx.post(f"{base}/sparql", data={"query": query}, headers={"Accept": "text/csv"})
        assert response.status_code == 200 and response.headers["content-type"].startswith("text/csv")
        rows = list(csv.reader(io.StringIO(response.text)))
        expected = kg.select(query)
        assert rows[0] == list(expected[0])
        assert rows[1:] == [["" if v is None else str(v) for v in row.values()] for row in expected]


def test_ask_results_as_json_and_xml(base: str) -> None:
    for accept, needle in (
        ("application/sparql-results+json", b'"boolean":true'),
        ("application/sparql-results+xml", b"<boolean>true</boolean>"),
    ):
        response = httpx.get(f"{base}/sparql", params={"query": ASKS[0]}, headers={"Accept": accept})
        assert response.status_code == 200 and needle in response.content


def test_the_librarys_remote_backend_reads_the_endpoint(base: str, kg: KnowledgeGraph) -> None:
    remote = KnowledgeGraph.open(backend="remote", endpoint=f"{base}/sparql")
    try:
        assert remote.domains() == kg.domains()
        assert len(remote) == len(kg)
        for query in SELECTS + ASKS:
            assert table(remote.select(query)) == table(kg.select(query)), query
    finally:
        remote.close()


# -- the protocol's edges, in process ----------------------------------------------------------------------------


def test_json_is_the_default_and_accept_is_negotiated(client: TestClient) -> None:
    query = SELECTS[0]
    assert client.get("/sparql", params={"query": query}).headers["content-type"] == "application/sparql-results+json"
    cases = {
        "*/*": "application/sparql-results+json",
        "application/json": "application/sparql-results+json",
        "text/csv;q=0.5, application/sparql-results+xml": "application/sparql-results+xml",
        "text/csv;q=0.9, text/tab-separated-values;q=0.1": "text/csv",
    }
    for accept, wanted in cases.items():
        response = client.get("/sparql", params={"query": query}, headers={"Accept": accept})
        assert response.headers["content-type"].split(";")[0] == wanted, accept
        assert response.headers["vary"] == "Accept"


@pytest.mark.parametrize(
    "query, accept",
    [(SELECTS[0], "image/png"), (ASKS[0], "text/csv"), (SELECTS[0], "application/sparql-results+json;q=0")],
)
def test_an_unacceptable_format_is_406(client: TestClient, query: str, accept: str) -> None:
    response = client.get("/sparql", params={"query": query}, headers={"Accept": accept})
    assert response.status_code == 406
    assert response.json()["error"] == "not_acceptable"


@pytest.mark.parametrize(
    "request_kwargs",
    [
        {"data": {"update": "INSERT DATA { <urn:a> <urn:b> <urn:c> }"}},
        {"data": {"query": "INSERT DATA { <urn:a> <urn:b> <urn:c> }"}},
        {"content": "DELETE WHERE { ?s ?p ?o }", "headers": {"Content-Type": "application/sparql-update"}},
        {"content": "DROP ALL", "headers": {"Content-Type": "application/sparql-query"}},
        {"params": {"update": "CLEAR DEFAULT"}},
    ],
    ids=[
        "update form field",
        "update as query",
        "sparql-update body",
        "update as sparql-query body",
        "update parameter",
    ],
)
def test_updates_are_refused_with_403(client: TestClient, kg: KnowledgeGraph, request_kwargs: dict) -> None:
    before = len(kg)
    response = client.post("/sparql", **request_kwargs)
    assert response.status_code == 403
    body = response.json()
    assert body["error"] == "update_refused" and "read-only" in body["message"]
    assert len(kg) == before


@pytest.mark.parametrize(
    "query, reason",
    [
        ("SELECT * WHERE { SERVICE <http://example.org/sparql> { ?s ?p ?o } }", "SERVICE"),
        ("SELECT * FROM <http://example.org/g> WHERE { ?s ?p ?o }", "FROM"),
        ("SELECT * WHERE { ?s <urn:p>* ?o }", "unbounded"),
        ("SELECT * WHERE { GRAPH ?g { ?s ?p ?o } }", "GRAPH"),
        ("SELEKT nothing", "not a SPARQL query"),
    ],
)
def test_a_refused_query_is_400_with_the_reason(client: TestClient, query: str, reason: str) -> None:
    response = client.get("/sparql", params={"query": query})
    assert response.status_code == 400
    body = response.json()
    assert body["error"] == "query_refused" and reason in body["message"]


CONSTRUCTS = [
    f"CONSTRUCT {{ ?ds <urn:x:domain> ?d }} WHERE {{ ?ds <{CORE}domain> ?d }}",
    "CONSTRUCT { ?s a ?c } WHERE { ?s a ?c } ORDER BY ?s ?c LIMIT 40",
    "DESCRIBE <https://w3id.org/ont-platform/id/kg/node/p_hong>",
]


@pytest.mark.parametrize("query", CONSTRUCTS)
@pytest.mark.parametrize(
    "accept, fmt",
    [
        (None, "turtle"),
        ("text/turtle", "turtle"),
        ("application/n-triples", "nt"),
        ("text/plain;q=0.5, */*;q=0.1", "nt"),
        ("application/rdf+xml", "xml"),
    ],
)
def test_construct_and_describe_send_the_graph_query_gives(
    client: TestClient, kg: KnowledgeGraph, query: str, accept: str | None, fmt: str
) -> None:
    response = client.get("/sparql", params={"query": query}, headers={"Accept": accept} if accept else {})
    assert response.status_code == 200, response.text
    assert response.headers["content-type"].split(";")[0] == sparql_endpoint.GRAPH_MEDIA_TYPES[fmt].split(";")[0]
    got = Graph().parse(data=response.text, format=fmt)
    expected = kg.query(query)
    assert isinstance(expected, Graph) and len(expected) > 0
    assert set(got) == set(expected)


def test_a_graph_in_a_results_format_is_not_acceptable(client: TestClient) -> None:
    response = client.get(
        "/sparql", params={"query": CONSTRUCTS[0]}, headers={"Accept": "application/sparql-results+json"}
    )
    assert response.status_code == 406 and response.json()["error"] == "not_acceptable"


def test_sparqlwrapper_and_sparqlstore_read_constructed_graphs(base: str, kg: KnowledgeGraph) -> None:
    client = SPARQLWrapper(f"{base}/sparql")
    client.setQuery(CONSTRUCTS[1])
    client.setReturnFormat(TURTLE)
    got = Graph().parse(data=client.queryAndConvert(), format="turtle")
    assert set(got) == set(kg.query(CONSTRUCTS[1]))  # type: ignore[arg-type]
    store = SPARQLStore(f"{base}/sparql")
    try:
        remote = Graph(store=store, identifier=URIRef(GRAPH_NAME)).query(CONSTRUCTS[1])
        assert set(remote.graph) == set(kg.query(CONSTRUCTS[1]))  # type: ignore[arg-type, union-attr]
    finally:
        store.close()


def test_a_query_that_runs_out_of_time_is_503(client: TestClient, monkeypatch: pytest.MonkeyPatch) -> None:
    def too_slow(self: object, query: object) -> object:
        raise QueryTimeout("query did not finish within 10 s", limit=10.0)

    monkeypatch.setattr(sparql_endpoint.QueryRunner, "run", too_slow)
    response = client.get("/sparql", params={"query": SELECTS[0]})
    assert response.status_code == 503
    assert response.json() == {"error": "query_timeout", "message": "query did not finish within 10 s"}


@pytest.mark.parametrize(
    "kwargs, status, code",
    [
        ({"data": {}}, 400, "query_missing"),
        ({"content": SELECTS[0], "headers": {"Content-Type": "text/plain"}}, 415, "unsupported_media_type"),
        ({"data": {"query": SELECTS[0]}, "params": {"query": SELECTS[1]}}, 400, "invalid_sparql_request"),
        (
            {"content": b"\xff\xfe", "headers": {"Content-Type": "application/sparql-query"}},
            400,
            "invalid_sparql_request",
        ),
        ({"data": {"query": SELECTS[0], "default-graph-uri": "http://example.org/other"}}, 400, "dataset_refused"),
        (
            {
                "content": "&".join(["named-graph-uri=x"] * 1001) + "&query=ASK{}",
                "headers": {"Content-Type": "application/x-www-form-urlencoded"},
            },
            400,
            "invalid_sparql_request",
        ),
    ],
)
def test_unusable_requests_get_json_errors(client: TestClient, kwargs: dict, status: int, code: str) -> None:
    response = client.post("/sparql", **kwargs)
    assert response.status_code == status
    assert response.json()["error"] == code and response.json()["message"]


def test_naming_the_served_graph_changes_nothing(client: TestClient, kg: KnowledgeGraph) -> None:
    response = client.get(
        "/sparql", params={"query": SELECTS[0], "default-graph-uri": GRAPH_NAME, "named-graph-uri": GRAPH_NAME}
    )
    assert response.status_code == 200
    assert from_result(Result.parse(io.BytesIO(response.content), format="json")) == table(kg.select(SELECTS[0]))


def test_get_without_a_query_is_the_service_description(client: TestClient) -> None:
    response = client.get("/sparql")
    assert response.status_code == 200 and response.headers["content-type"].startswith("text/turtle")
    sd = Graph().parse(data=response.text, format="turtle")
    SD = sparql_endpoint.SD
    service = next(sd.subjects(SD.endpoint, URIRef("http://testserver/sparql")))
    assert (service, SD.supportedLanguage, SD.SPARQL11Query) in sd
    formats = {str(o).rsplit("/", 1)[1] for o in sd.objects(service, SD.resultFormat)}
    assert formats == {"SPARQL_Results_JSON", "SPARQL_Results_XML", "SPARQL_Results_CSV", "SPARQL_Results_TSV"}


def test_one_domains_graph_at_sparql_domain(client: TestClient, kg: KnowledgeGraph) -> None:
    query = SELECTS[-1]
    response = client.get("/sparql/kg", params={"query": query})
    assert from_result(Result.parse(io.BytesIO(response.content), format="json")) == table(kg.select(query))
    missing = client.get("/sparql/nope", params={"query": query})
    assert missing.status_code == 404 and missing.json()["error"] == "not_found"


def test_graphs_holding_different_domains_are_asked_one_by_one() -> None:
    a, b = object(), object()
    assert choose_graph([a], ["kg", "pages"], {"kg": a, "pages": a}) is a  # type: ignore[list-item, dict-item]
    with pytest.raises(ProtocolError) as refused:
        choose_graph([a, b], ["kg", "pages"], {"kg": a, "pages": b})  # type: ignore[list-item, dict-item]
    assert refused.value.status == 404 and "/sparql/{domain}" in refused.value.message


def test_rows_past_the_limit_are_cut_and_the_cut_is_said(graph_set: GraphSet, kg: KnowledgeGraph) -> None:
    capped = KnowledgeGraph(kg.store, limits=Limits(max_result_rows=2))  # the same store, a lower row cap
    with TestClient(create_app(GraphSet(capped))) as c:
        response = c.get("/sparql", params={"query": SELECTS[2]})
    assert response.headers["x-sparql-maxrows"] == "2"
    assert len(response.json()["results"]["bindings"]) == 2


def test_tsv_writes_every_term_on_one_line() -> None:
    outcome = sparql_endpoint.QueryOutcome(
        "SELECT",
        [
            {"a": URIRef("urn:x"), "b": Literal('tab\there\nnew "q" \\', lang="ko"), "c": None},
            {"a": BNode("b0"), "b": Literal(5), "c": Literal("plain")},
        ],
    )
    text = sparql_endpoint.serialize(outcome, "tsv").decode()
    assert text.splitlines() == [
        "?a\t?b\t?c",
        '<urn:x>\t"tab\\there\\nnew \\"q\\" \\\\"@ko\t',
        '_:b0\t"5"^^<http://www.w3.org/2001/XMLSchema#integer>\t"plain"',
    ]
    parsed = Result.parse(io.BytesIO(text.encode()), format="tsv")
    assert list(parsed)[0][Variable("b")] == Literal('tab\there\nnew "q" \\', lang="ko")  # type: ignore[index]


def test_negotiation_prefers_the_highest_q() -> None:
    assert negotiate(None, "SELECT") == negotiate("", "ASK") == "json"
    assert negotiate("text/tab-separated-values;q=0.4, text/csv;q=0.8", "SELECT") == "csv"
    assert negotiate("text/*, application/sparql-results+xml;q=0.1", "ASK") == "xml"
