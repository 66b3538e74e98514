"""An answer's generated_query is untrusted text: what is refused before it runs, and how running it is bounded."""

from __future__ import annotations

import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from ont_platform.errors import QueryError, QueryRefused, QueryTimeout
from ont_platform.verify import QueryRunner, inspect_query
from ont_platform.verify.query import (
    MAX_QUERY_CHARS,
    Isolation,
    abandoned_queries,
    node_ids,
)
from tests.verify.conftest import EXAMPLES, Loaded

P = "PREFIX oc: <https://w3id.org/ont-platform/onchain#>\nPREFIX ont: <https://w3id.org/ont-platform/core#>\n"
N = "https://w3id.org/ont-platform/id/onchain/node/"

REFUSED = {
    "service": (P + "SELECT * WHERE { SERVICE <http://127.0.0.1:9/sparql> { ?s ?p ?o } }", "SERVICE"),
    "silent service": (P + "SELECT * WHERE { SERVICE SILENT <http://127.0.0.1:9/> { ?s ?p ?o } }", "SERVICE"),
    "nested service": (P + "SELECT * WHERE { OPTIONAL { ?s ?p ?o . SERVICE <urn:x> { ?s ?p ?o } } }", "SERVICE"),
    "from": ("SELECT * FROM <http://127.0.0.1:9/g> WHERE { ?s ?p ?o }", "FROM"),
    "from named": ("SELECT * FROM NAMED <urn:g> WHERE { ?s ?p ?o }", "FROM"),
    "ask from": ("ASK FROM <urn:g> { ?s ?p ?o }", "FROM"),
    "graph": ("SELECT * WHERE { GRAPH ?g { ?s ?p ?o } }", "GRAPH"),
    "load": ("LOAD <http://127.0.0.1:9/x.ttl>", "update"),
    "insert data": ("INSERT DATA { <urn:a> <urn:b> <urn:c> }", "update"),
    "delete where": ("DELETE WHERE { ?s ?p ?o }", "update"),
    "drop all": ("DROP ALL", "update"),
    "clear": ("CLEAR DEFAULT", "update"),
    "query then update": ("SELECT * WHERE { ?s ?p ?o } ; DROP ALL", "not a SPARQL query"),
    "two queries": ("SELECT * WHERE { ?s ?p ?o } SELECT * WHERE { ?s ?p ?o }", "not a SPARQL query"),
    "star path": (P + f"SELECT ?x WHERE {{ <{N}n_a1> oc:transfer* ?x }}", "unbounded"),
    "plus path": (P + f"SELECT ?x WHERE {{ <{N}n_a1> oc:transfer+ ?x }}", "unbounded"),
    "plus inside a group": (P + f"SELECT ?x WHERE {{ <{N}n_a1> (oc:transfer|^oc:transfer)+ ?x }}", "unbounded"),
    "star in a sequence": (P + f"SELECT ?x WHERE {{ <{N}n_a1> oc:transfer/oc:transfer* ?x }}", "unbounded"),
    "star in a filter": (P + "SELECT ?x WHERE { ?x a ?c FILTER EXISTS { ?x oc:transfer* ?y } }", "unbounded"),
    "construct": ("CONSTRUCT { ?s ?p ?o } WHERE { ?s ?p ?o }", "CONSTRUCT"),
    "describe": ("DESCRIBE <urn:x>", "DESCRIBE"),
    "escape": ("SELECT * WHERE { SERVI\\u0043E <urn:x> { ?s ?p ?o } }", "escapes"),
    "cypher": ("MATCH (a)-[:transfer*1..3]->(x) RETURN x", "not a SPARQL query"),
    "empty": ("   ", "no query"),
    "undefined prefix": ("SELECT ?x WHERE { ?x zz:p ?y }", "refused"),
    "too long": ("SELECT * WHERE { ?s ?p ?o } #" + "x" * MAX_QUERY_CHARS, "over the limit"),
}


@pytest.mark.parametrize("name", sorted(REFUSED))
def test_refused_before_running(name: str) -> None:
    text, why = REFUSED[name]
    with pytest.raises(QueryRefused) as exc:
        inspect_query(text)
    assert why in str(exc.value) or (why == "refused" and str(exc.value))


def test_not_a_string_is_refused() -> None:
    with pytest.raises(QueryRefused):
        inspect_query(None)


@pytest.mark.parametrize(
    "text",
    [
        P + f"SELECT ?x WHERE {{ <{N}n_a1> (oc:transfer)/(oc:transfer)?/(oc:transfer)? ?x }} LIMIT 5",
        P + f"ASK {{ <{N}n_a1> oc:transfer ?x }}",
        P + "SELECT (COUNT(*) AS ?n) WHERE { ?s oc:transfer ?o }",
        P + "select ?s where { ?s !oc:transfer ?o } limit 1",
        P + 'SELECT ?s WHERE { ?s oc:txHash "SERVICE" }',
    ],
)
def test_bounded_reads_are_accepted(text: str) -> None:
    assert inspect_query(text).form in ("SELECT", "ASK")


def test_constants_and_node_ids() -> None:
    q = inspect_query(P + f'SELECT ?x WHERE {{ <{N}n_a1> oc:transfer ?x . ?x ont:id "n_h1" }}')
    assert node_ids(q.constants, "onchain", {"n_h1": 1}) == {"n_a1", "n_h1"}
    prefixed = inspect_query(
        f"PREFIX n: <{N}>\nPREFIX oc: <https://w3id.org/ont-platform/onchain#>\n"
        "SELECT ?x WHERE { n:n_a1 oc:transfer ?x }"
    )
    assert node_ids(prefixed.constants, "onchain", {}) == {"n_a1"}


# 4.5 M solutions to count: a second or so on the example graph, long past the time limits used here.
RDFLIB_SLOW = "SELECT (COUNT(*) AS ?n) WHERE { ?a ?b ?c . ?d ?e ?f }"  # a second or two in rdflib, no rows on the way
ENDLESS = "SELECT (COUNT(*) AS ?n) WHERE { ?a ?b ?c . ?d ?e ?f . ?g ?h ?i . ?j ?k ?l }"


@pytest.mark.parametrize("isolation", ["thread", "process"])
def test_oxigraph_runner_kills_a_runaway_query(onchain: Loaded, isolation: Isolation) -> None:
    """On the embedded store the query runs in the store's worker process whatever ``isolation`` says."""
    store = onchain.kg.store
    with QueryRunner(store, timeout=0.5, max_rows=3, isolation=isolation) as runner:
        first = runner.run(inspect_query(P + f"SELECT ?x WHERE {{ <{N}n_a1> oc:transfer ?x }} ORDER BY ?x"))
        assert [str(r["x"]) for r in first.rows] == [f"{N}n_h1", f"{N}n_w3"] and not first.truncated
        pid = store.worker_pid(untrusted=True)  # type: ignore[attr-defined]  # a caller's query: its own worker
        with pytest.raises(QueryTimeout, match=r"time limit of 0\.5 s") as info:  # the library's own deadline
            runner.run(inspect_query(ENDLESS))
        assert info.value.limit == 0.5
        assert not Path(f"/proc/{pid}").exists()  # killed and reaped
        assert abandoned_queries() == 0  # nothing left running in this process
        again = runner.run(inspect_query("SELECT * WHERE { ?s ?p ?o }"))  # a fresh worker takes over
        assert len(again.rows) == 3 and again.truncated
        assert runner.run(inspect_query("ASK { ?s ?p ?o }")).boolean is True
        with pytest.raises(QueryError, match="failed"):
            runner.run(inspect_query("SELECT * WHERE { ?s ?p ?o FILTER(<urn:f>(?s)) }"))


@pytest.fixture(scope="module")
def rdflib_onchain() -> Iterator[Any]:
    from ont_platform import KnowledgeGraph

    kg = KnowledgeGraph.open(backend="rdflib")
    kg.load(EXAMPLES / "onchain")
    yield kg
    kg.close()


@pytest.mark.slow
def test_rdflib_thread_runner_abandons_and_bounds_slow_queries(rdflib_onchain: Any) -> None:
    with QueryRunner(rdflib_onchain.store, timeout=0.05, max_rows=7) as runner:
        out = runner.run(inspect_query("SELECT * WHERE { ?s ?p ?o }"))
        assert len(out.rows) == 7 and out.truncated
        assert runner.run(inspect_query(P + f"ASK {{ <{N}n_a1> oc:transfer ?x }}")).boolean is True
        with pytest.raises(QueryTimeout, match=r"did not finish within 0\.05 s"):
            runner.run(inspect_query(RDFLIB_SLOW))
        with pytest.raises(QueryTimeout):
            runner.run(inspect_query(RDFLIB_SLOW))
        with pytest.raises(QueryError, match="still running"):  # two abandoned queries: no third one starts
            runner.run(inspect_query("SELECT * WHERE { ?s ?p ?o } LIMIT 1"))
        deadline = time.monotonic() + 60
        while abandoned_queries() and time.monotonic() < deadline:  # they stop on their own
            time.sleep(0.05)
        assert abandoned_queries() == 0
        assert len(runner.run(inspect_query("SELECT * WHERE { ?s ?p ?o } LIMIT 1")).rows) == 1


def test_rdflib_process_runner_runs_on_a_killable_copy(rdflib_onchain: Any) -> None:
    with QueryRunner(rdflib_onchain.store, timeout=0.5, max_rows=3, isolation="process") as runner:
        first = runner.run(inspect_query(P + f"SELECT ?x WHERE {{ <{N}n_a1> oc:transfer ?x }} ORDER BY ?x"))
        assert [str(r["x"]) for r in first.rows] == [f"{N}n_h1", f"{N}n_w3"]
        with pytest.raises(QueryTimeout, match=r"time limit of 0\.5 s"):
            runner.run(inspect_query(ENDLESS))
        assert runner.run(inspect_query("ASK { ?s ?p ?o }")).boolean is True
        assert runner.holds_copy
    assert not runner.holds_copy and len(rdflib_onchain) > 0


def test_a_timed_out_query_is_a_query_failure(onchain: Loaded) -> None:
    from ont_platform.verify import Verifier

    a = onchain.answer("q_001")
    a["generated_query"] = ENDLESS
    with Verifier(onchain.kg, isolation="process", timeout=0.5) as v:
        report = v.verify(a)
    assert [f.check for f in report.failures] == ["query"]
    assert "time limit of 0.5 s" in report.failures[0].detail
    assert report.grounding_ok


def test_generated_query_never_writes(onchain: Loaded) -> None:
    before = len(onchain.kg)
    a = onchain.answer("q_001")
    for text in ("INSERT DATA { <urn:a> <urn:b> <urn:c> }", "DROP ALL", "CLEAR DEFAULT"):
        a["generated_query"] = text
        assert "query" in onchain.verifier.verify(a).checks_failed()
    assert len(onchain.kg) == before
