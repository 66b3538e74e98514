"""Genuine answers corrupted in every way the checks cover: each corruption is caught by the check meant for it.

Every case starts from the answer ``ask`` gives to a bundled question (which passes), changes one thing, and
asserts the named check fails (and, for citation faults, that ``grounding_ok`` turns false).
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

import pytest

from tests.verify.conftest import Loaded

Answer = dict[str, Any]


@dataclass(frozen=True)
class Corruption:
    name: str
    qid: str
    mutate: Callable[[Answer], None]
    check: str
    question: str | None = "own"  # "own": the gold question; None: no question; else this text
    grounded: bool = True  # whether grounding_ok stays true
    detail: str = ""  # a piece of the failure's detail


def _set(**fields: Any) -> Callable[[Answer], None]:
    def f(a: Answer) -> None:
        a.update(fields)

    return f


def _step(i: int, **fields: Any) -> Callable[[Answer], None]:
    def f(a: Answer) -> None:
        a["path"][i].update(fields)

    return f


def _chain(*fs: Callable[[Answer], None]) -> Callable[[Answer], None]:
    def f(a: Answer) -> None:
        for g in fs:
            g(a)

    return f


def _drop_step(i: int) -> Callable[[Answer], None]:
    def f(a: Answer) -> None:
        del a["path"][i]

    return f


def _query(text: str) -> Callable[[Answer], None]:
    return _set(generated_query=text)


PREFIX = "PREFIX oc: <https://w3id.org/ont-platform/onchain#>\nPREFIX ont: <https://w3id.org/ont-platform/core#>\n"
N = "https://w3id.org/ont-platform/id/onchain/node/"

ONCHAIN = [
    # citations
    Corruption(
        "hallucinated tx hash on a real edge",
        "q_001",
        _step(0, tx_hash="0xdeadbeef"),
        "citations",
        grounded=False,
        detail="hallucinated",
    ),
    Corruption(
        "tx hash of another edge",
        "q_001",
        _step(0, tx_hash="0xaa2"),
        "citations",
        grounded=False,
        detail="belongs to edge e2",
    ),
    Corruption("tx hash upper-cased is the same hash", "q_001", _step(0, tx_hash="0xAA1"), "", grounded=True),
    Corruption("tx hash dropped from a transfer", "q_001", _step(1, tx_hash=None), "citations", grounded=False),
    Corruption(
        "tx hash on an inferred link",
        "q_003",
        _step(0, tx_hash="0xaa1"),
        "citations",
        grounded=False,
        detail="inferred",
    ),
    Corruption(
        "edge id that does not exist", "q_001", _step(1, edge_id="e999"), "citations", grounded=False, detail="e999"
    ),
    Corruption(
        "edge ends swapped",
        "q_001",
        _step(0, **{"from": "n_h1", "to": "n_a1"}),
        "citations",
        grounded=False,
        detail="runs n_a1 → n_h1",
    ),
    Corruption(
        "cited node that does not exist",
        "q_004",
        _set(cited_nodes=["n_orphan", "n_ghost"]),
        "citations",
        grounded=False,
        detail="n_ghost",
    ),
    # path
    Corruption("path not connected", "q_106", _drop_step(1), "path", detail="not connected"),
    Corruption("path not from the question's start", "q_001", _drop_step(0), "path", detail="start node n_a1"),
    Corruption(
        "path node left out of cited_nodes", "q_001", _set(cited_nodes=["n_a1", "n_ex1"]), "path", detail="n_h1"
    ),
    Corruption(
        "path longer than the hop limit",
        "q_103",
        lambda a: None,
        "path",
        question="n_w8 에서 3-hop 안에 믹서(Mixer)로 가는 경로가 있나요?",
        detail="over the hop limit of 3",
    ),
    # yes/no against BFS
    Corruption(
        "no_path where a path exists",
        "q_001",
        _set(intent="no_path", path=[], cited_nodes=["n_a1"], generated_query=""),
        "bfs",
        detail="2-hop path",
    ),
    Corruption(
        "path_exists where no path exists (invented path)",
        "q_108",
        _set(
            intent="path_exists",
            path=[{"edge_id": "e18", "tx_hash": "0xab18", "from": "n_w4", "to": "n_mx1"}],
            cited_nodes=["n_w4", "n_mx1"],
        ),
        "bfs",
        detail="finds no",
    ),
    Corruption(
        "invented edge to a target",
        "q_002",
        _set(
            intent="path_exists",
            path=[{"edge_id": "e1", "tx_hash": "0xaa1", "from": "n_d4", "to": "n_mx1"}],
            cited_nodes=["n_d4", "n_mx1"],
        ),
        "bfs",
        grounded=False,
    ),
    Corruption(
        "a path but not a shortest one",
        "q_001",
        _set(
            path=[
                {"edge_id": "e1", "tx_hash": "0xaa1", "from": "n_a1", "to": "n_h1"},
                {"edge_id": "e13", "tx_hash": "0xab13", "from": "n_h1", "to": "n_ct1"},
                {"edge_id": "e14", "tx_hash": "0xab14", "from": "n_ct1", "to": "n_w2"},
                {"edge_id": "e29", "tx_hash": "0xab29", "from": "n_w2", "to": "n_ex3"},
            ],
            cited_nodes=["n_a1", "n_h1", "n_ct1", "n_w2", "n_ex3"],
        ),
        "bfs",
        question="n_a1 에서 4-hop 안에 거래소 입금주소(ExchangeDeposit)에 자금이 닿나요?",
        detail="shortest",
    ),
    Corruption(
        "cluster missing a member",
        "q_003",
        _chain(_drop_step(1), _set(cited_nodes=["n_a1", "n_b2"])),
        "bfs",
        detail="missing ['n_h1']",
    ),
    # decision consistency
    Corruption(
        "path_exists over an inferred link",
        "q_107",
        _set(
            path=[
                {"edge_id": "e9", "tx_hash": None, "from": "n_a1", "to": "n_b2"},
                {"edge_id": "e11", "tx_hash": "0xab11", "from": "n_b2", "to": "n_br1"},
            ],
            cited_nodes=["n_a1", "n_b2", "n_br1"],
        ),
        "decision",
        question=None,
        detail="never a transfer",
    ),
    Corruption("no_path that carries a path", "q_001", _set(intent="no_path"), "decision", question=None),
    Corruption("path_exists with an empty path", "q_002", _set(intent="path_exists"), "decision", question=None),
    # inference
    Corruption("high confidence over same_entity", "q_003", _set(confidence="high"), "inference", detail="at most mid"),
    Corruption(
        "inference stated as a fact",
        "q_003",
        _set(answer_ko="n_b2 와 n_h1 은 n_a1 과 같은 주체입니다."),
        "inference",
        detail="추정",
    ),
    # the generated query
    Corruption(
        "SERVICE in the query",
        "q_001",
        _query(PREFIX + "SELECT ?x WHERE { SERVICE <http://127.0.0.1:9/sparql> { ?x oc:transfer ?y } }"),
        "query",
        detail="SERVICE",
    ),
    Corruption("LOAD in the query", "q_001", _query("LOAD <http://127.0.0.1:9/data.ttl>"), "query", detail="update"),
    Corruption(
        "FROM in the query",
        "q_001",
        _query(PREFIX + "SELECT ?x FROM <http://127.0.0.1:9/g> WHERE { ?x oc:transfer ?y }"),
        "query",
        detail="FROM",
    ),
    Corruption(
        "FROM NAMED in the query",
        "q_001",
        _query(PREFIX + "SELECT ?x FROM NAMED <urn:g> WHERE { ?x oc:transfer ?y }"),
        "query",
        detail="FROM",
    ),
    Corruption(
        "INSERT in the query",
        "q_001",
        _query(PREFIX + f"INSERT DATA {{ <{N}n_a1> oc:transfer <{N}n_d4> }}"),
        "query",
        detail="update",
    ),
    Corruption(
        "DELETE after a query",
        "q_001",
        _query(PREFIX + "SELECT * WHERE { ?s ?p ?o } ; DELETE WHERE { ?s ?p ?o }"),
        "query",
        detail="refused",
    ),
    Corruption(
        "unbounded * path",
        "q_001",
        _query(PREFIX + f"SELECT ?x WHERE {{ <{N}n_a1> oc:transfer* ?x }}"),
        "query",
        detail="unbounded",
    ),
    Corruption(
        "unbounded + path",
        "q_001",
        _query(PREFIX + f"SELECT ?x WHERE {{ <{N}n_a1> oc:transfer+ ?x }}"),
        "query",
        detail="unbounded",
    ),
    Corruption(
        "CONSTRUCT query",
        "q_001",
        _query(PREFIX + "CONSTRUCT { ?s ?p ?o } WHERE { ?s ?p ?o }"),
        "query",
        detail="CONSTRUCT",
    ),
    Corruption(
        "Cypher instead of SPARQL",
        "q_001",
        _query("MATCH p=(a {node_id:'n_a1'})-[:transfer*1..3]->(x) RETURN p"),
        "query",
        detail="not a SPARQL",
    ),
    Corruption(
        "query whose node set differs",
        "q_001",
        _query(PREFIX + "SELECT ?x WHERE { ?x a oc:Mixer }"),
        "query",
        detail="node set differs",
    ),
    Corruption(
        "query of another question", "q_001", lambda a: None, "query", detail="node set differs"
    ),  # replaced below with q_101's query
    Corruption("no query behind cited nodes", "q_001", _query(""), "query", detail="no generated_query"),
    # schema
    Corruption("intent outside the enum", "q_001", _set(intent="maybe"), "schema", grounded=False),
    Corruption("confidence outside the enum", "q_001", _set(confidence="certain"), "schema", grounded=False),
    Corruption("required field missing", "q_001", lambda a: a.pop("cited_nodes"), "schema", grounded=False),
]


@pytest.mark.parametrize("c", ONCHAIN, ids=[c.name for c in ONCHAIN])
def test_onchain_corruption(onchain: Loaded, c: Corruption) -> None:
    a = onchain.answer(c.qid)
    if c.name == "query of another question":
        a["generated_query"] = onchain.answer("q_101")["generated_query"]
    c.mutate(a)
    _assert_caught(onchain, a, c)


HOPS = [
    Corruption(
        "wrong chunk id",
        "q001",
        _step(0, chunk_id="ch_12"),
        "citations",
        grounded=False,
        detail="not the chunk of edge r01",
    ),
    Corruption(
        "chunk that does not exist", "q001", _step(1, chunk_id="ch_999"), "citations", grounded=False, detail="ch_999"
    ),
    Corruption("chunk dropped", "q001", _step(1, chunk_id=None), "citations", grounded=False),
    Corruption(
        "hop that is not an edge",
        "q001",
        _step(0, dst="c_beta"),
        "citations",
        grounded=False,
        detail="no worksFor edge",
    ),
    Corruption("hop with the wrong relation", "q001", _step(0, rel="foundedBy"), "citations", grounded=False),
    Corruption(
        "hop written backwards",
        "q001",
        _step(0, src="c_acme", dst="p_hong"),
        "citations",
        grounded=False,
        detail="runs p_hong → c_acme",
    ),
    Corruption(
        "node that does not exist",
        "q001",
        _step(1, dst="pl_atlantis"),
        "citations",
        grounded=False,
        detail="pl_atlantis",
    ),
    Corruption(
        "relation outside the ontology",
        "q001",
        _step(1, rel="ownedBy"),
        "citations",
        grounded=False,
        detail="not in the ontology",
    ),
    Corruption("path not connected", "q008", _drop_step(1), "path", detail="not connected"),
    Corruption(
        "path longer than the hop limit",
        "q008",
        _chain(
            lambda a: a["path"].append({"src": "pl_kr", "rel": "partOf", "dst": "pl_asia", "chunk_id": "ch_22"}),
            _set(decision="answer", answer="pl_asia", factors=[], hedge=None),
        ),
        "path",
        detail="over the hop limit of 3",
    ),
    Corruption(
        "path not from the question's start",
        "q101",
        _set(
            path=[
                {"src": "p_hong", "rel": "worksFor", "dst": "c_acme", "chunk_id": "ch_11"},
                {"src": "c_acme", "rel": "locatedIn", "dst": "pl_seoul", "chunk_id": "ch_12"},
            ],
            answer="pl_seoul",
        ),
        "path",
        detail="p_gilsun",
    ),
    Corruption(
        "answer over an ungrounded hop (flag false)",
        "q003",
        _set(decision="answer", answer="c_beta", factors=[], hedge=None),
        "decision",
        detail="grounded=false",
    ),
    Corruption(
        "answer over an unflagged hop that cites a chunk",
        "q105",
        _set(decision="answer", answer="c_beta", factors=[], hedge=None),
        "decision",
        detail="ungrounded",
    ),
    Corruption(
        "answer over a chunk that does not mention both ends",
        "q102",
        _set(decision="answer", answer="c_delta", factors=[], hedge=None),
        "decision",
        detail="does not mention c_delta",
    ),
    Corruption(
        "answer without a start node",
        "q006",
        _set(decision="answer", answer="pl_seoul", factors=[]),
        "decision",
        detail="without a path",
    ),
    Corruption(
        "answer that is not where the path ends",
        "q001",
        _set(answer="pl_busan"),
        "decision",
        detail="not where the path ends",
    ),
    Corruption("answer with factors", "q001", _set(factors=["ungrounded_hop"]), "decision"),
    Corruption(
        "refuse for an ungrounded hop when every hop is grounded",
        "q001",
        _set(decision="refuse", answer=None, factors=["ungrounded_hop"]),
        "decision",
        detail="every hop on the path is grounded",
    ),
    Corruption("refuse without a factor", "q003", _set(factors=[]), "decision"),
    Corruption(
        "refuse for a missing start node the question names",
        "q103",
        _set(factors=["missing_start_node"]),
        "decision",
        detail="names node p_yoon",
    ),
    Corruption("max_hops without hop_limit_exceeded", "q008", _set(factors=["missing_edge"]), "decision"),
    Corruption("max_hops with an answer", "q008", _set(answer="pl_kr"), "decision", detail="null answer"),
    Corruption(
        "hop_limit_exceeded on a refusal", "q003", _set(factors=["ungrounded_hop", "hop_limit_exceeded"]), "decision"
    ),
    Corruption("decision outside the enum", "q001", _set(decision="guess"), "schema", grounded=False),
    Corruption("reason too short", "q001", _set(reason="짧음"), "schema", grounded=False),
]


@pytest.mark.parametrize("c", HOPS, ids=[c.name for c in HOPS])
def test_hop_corruption(kgraph: Loaded, c: Corruption) -> None:
    a = kgraph.answer(c.qid)
    c.mutate(a)
    _assert_caught(kgraph, a, c)


PAGES = [
    Corruption(
        "an extra URL",
        "q1",
        lambda a: (
            a["matched"].append(
                {"url": "https://shop.example.com/p/1004", "evidence": "impressions_30d=999, clicks_30d=0"}
            ),
            a.update(count=2),
        ),
        "urls",
        detail="extra ['https://shop.example.com/p/1004']",
    ),
    Corruption(
        "a URL left out", "q1", _set(matched=[], count=0), "urls", detail="missing ['https://shop.example.com/p/1006']"
    ),
    Corruption(
        "a URL not in the inventory",
        "q1",
        _set(matched=[{"url": "https://shop.example.com/p/9999", "evidence": "impressions_30d=15200, clicks_30d=0"}]),
        "citations",
        grounded=False,
        detail="not in the inventory",
    ),
    Corruption("count that does not count", "q1", _set(count=3), "urls", detail="count is 3"),
    Corruption(
        "column not in the dictionary",
        "q1",
        _set(parsed_filter="impressions_30d >= 1000 AND conversions_30d = 0"),
        "filter",
        detail="not in the column dictionary",
    ),
    Corruption(
        "columns_used not the filter's",
        "q1",
        _set(columns_used=["impressions_30d"]),
        "filter",
        detail="differs from the filter's columns",
    ),
    Corruption(
        "operator outside the set",
        "q1",
        _set(parsed_filter="impressions_30d ~ 1000 AND clicks_30d = 0"),
        "filter",
        detail="cannot read",
    ),
    Corruption(
        "threshold nobody wrote",
        "q1",
        _set(parsed_filter="impressions_30d >= 1234 AND clicks_30d = 0"),
        "filter",
        detail="neither written in the question nor in the predicate dictionary",
    ),
    Corruption(
        "filter changed, rows kept",
        "q1",
        _set(parsed_filter="impressions_30d >= 1000 AND clicks_30d > 0"),
        "urls",
        detail="differ from running the filter",
    ),
    Corruption(
        "evidence with a wrong value",
        "q1",
        lambda a: a["matched"][0].update(evidence="impressions_30d=15000, clicks_30d=0"),
        "evidence",
        detail="inventory has 15200",
    ),
    Corruption(
        "evidence missing a column",
        "q1",
        lambda a: a["matched"][0].update(evidence="clicks_30d=0"),
        "evidence",
        detail="does not show impressions_30d",
    ),
    Corruption("ran without a filter", "q1", _set(parsed_filter=None), "filter"),
    Corruption(
        "clarify with rows",
        "q2",
        _set(matched=[{"url": "https://shop.example.com/p/1006", "evidence": "clicks_30d=0"}], count=1),
        "empty",
        detail="carries 1 matched row",
    ),
    Corruption("clarify with a count of zero", "q2", _set(count=0), "empty", detail="null count"),
    Corruption(
        "unsupported with a filter", "q3", _set(parsed_filter="clicks_30d = 0", columns_used=["clicks_30d"]), "empty"
    ),
    Corruption("status outside the enum", "q1", _set(status="done"), "schema", grounded=False),
]


@pytest.mark.parametrize("c", PAGES, ids=[c.name for c in PAGES])
def test_page_corruption(pages: Loaded, c: Corruption) -> None:
    a = pages.answer(c.qid)
    c.mutate(a)
    _assert_caught(pages, a, c)


def _assert_caught(loaded: Loaded, a: Answer, c: Corruption) -> None:
    question = loaded.question(c.qid) if c.question == "own" else c.question
    report = loaded.verifier.verify(a, question=question)
    failed = report.checks_failed()
    details = " | ".join(f"{f.check}: {f.detail}" for f in report.failures)
    if not c.check:  # not a corruption: an equivalent answer that must still pass
        assert report.ok, details
        return
    assert not report.ok
    assert c.check in failed, details
    assert report.grounding_ok is c.grounded, details
    if c.detail:
        assert any(c.detail in f.detail for f in report.failures if f.check == c.check), details
    assert report.to_json()["ok"] is False


def test_gold_node_set_mismatch_is_caught(onchain: Loaded) -> None:
    a = onchain.answer("q_001")
    gold = dict(onchain.gold["q_001"]["expected"], cited_nodes=["n_a1", "n_w3", "n_dex1"], path=[])
    report = onchain.verifier.verify(a, question=onchain.question("q_001"), gold=gold)
    assert [f.check for f in report.failures] == ["query"]
    assert "gold node set" in report.failures[0].detail


def test_gold_url_set_mismatch_is_caught(pages: Loaded) -> None:
    a = pages.answer("q1")
    report = pages.verifier.verify(a, gold={"status": "ran", "expected_urls": ["https://shop.example.com/p/1004"]})
    assert [f.check for f in report.failures] == ["urls"]
    assert "gold set" in report.failures[0].detail
