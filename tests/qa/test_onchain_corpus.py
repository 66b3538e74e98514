"""The on-chain question corpus: questions written the way different people ask, each with what it means
(start, target, hops, direction). The expected answer is computed here, independently of the library, with
networkx over the example CSV tables; the library's answer must match it."""

from __future__ import annotations

import csv
import json
import re
from pathlib import Path

import networkx as nx
import pytest

from ont_platform import KnowledgeGraph
from ont_platform.answer import schema_errors
from ont_platform.domains import load_domain
from ont_platform.messages import lang_of
from ont_platform.namespaces import OC
from ont_platform.resources import example_dataset

HERE = Path(__file__).resolve().parent
DATA = HERE.parents[1] / "examples" / "onchain"
CORPUS = [json.loads(x) for x in (HERE / "corpus" / "onchain.jsonl").read_text(encoding="utf-8").splitlines() if x]


def _table(name: str) -> list[dict[str, str]]:
    with (DATA / name).open(encoding="utf-8", newline="") as fh:
        return list(csv.DictReader(fh))


NODES = {r["node_id"]: r for r in _table("onchain_nodes.csv")}
EDGES = _table("onchain_edges.csv")
TRANSFERS = nx.MultiDiGraph()
SAME = nx.Graph()
for r in EDGES:
    if r["rel"] == "transfer":
        TRANSFERS.add_edge(r["from"], r["to"], key=r["edge_id"], tx=r["tx_hash"])
    else:
        SAME.add_edge(r["from"], r["to"], eid=r["edge_id"])
TRANSFERS.add_nodes_from(NODES)
SAME.add_nodes_from(NODES)


def _targets(expect: dict) -> set[str]:
    if expect.get("target_node"):
        return {expect["target_node"]}
    onto = load_domain("onchain")
    allowed = {str(c).rsplit("#", 1)[-1] for c in onto.subclasses(OC[expect["target_class"]])}
    return {n for n, r in NODES.items() if r["onto_class"] in allowed}


def _shortest(start: str, targets: set[str], hops: int, backward: bool) -> int | None:
    graph = TRANSFERS.reverse(copy=False) if backward else TRANSFERS
    dist = nx.single_source_shortest_path_length(graph, start, cutoff=hops)
    found = [d for n, d in dist.items() if n in targets and n != start and d >= 1]
    return min(found) if found else None


def _check_path(answer: dict, expect: dict) -> None:
    start, hops, back = expect["start"], expect["hops"], expect["backward"]
    d = _shortest(start, _targets(expect), hops, back)
    if d is None:
        assert answer["intent"] == "no_path" and answer["path"] == []
        assert answer["cited_nodes"] == [start]
        return
    assert answer["intent"] == "path_exists"
    path = answer["path"]
    assert len(path) == d, "the path must be a shortest one"
    walk = [(e["from"], e["to"]) for e in path]
    for e in path:  # every cited edge exists with its tx hash and endpoints
        data = TRANSFERS.get_edge_data(e["from"], e["to"]) or {}
        assert e["edge_id"] in data and data[e["edge_id"]]["tx"] == e["tx_hash"]
    chain = [walk[0][0]] + [b for _, b in walk]
    assert all(walk[i][1] == walk[i + 1][0] for i in range(len(walk) - 1)), "connected walk"
    if back:
        assert chain[-1] == start and chain[0] in _targets(expect)
    else:
        assert chain[0] == start and chain[-1] in _targets(expect)
    assert answer["confidence"] == "high"


def _check_cluster(answer: dict, expect: dict, question: str) -> None:
    start = expect["start"]
    members = set(nx.single_source_shortest_path_length(SAME, start, cutoff=expect["hops"])) - {start}
    assert answer["intent"] == "cluster_lookup"
    assert set(answer["cited_nodes"]) - {start} == members
    assert answer["confidence"] != "high"
    assert all(e["tx_hash"] is None for e in answer["path"])
    if members:  # an inference is presented as one, in the question's language
        assert ("추정" if lang_of(question) == "ko" else "presumed") in answer["answer_ko"]


def _check_label(answer: dict, expect: dict) -> None:
    row = NODES[expect["start"]]
    assert answer["intent"] == "label_lookup" and answer["cited_nodes"] == [expect["start"]]
    assert row["onto_class"] in answer["answer_ko"]


def _check_flow(answer: dict, expect: dict) -> None:
    start, hops, back = expect["start"], expect["hops"], expect["backward"]
    graph = TRANSFERS.reverse(copy=False) if back else TRANSFERS
    near = set(nx.single_source_shortest_path_length(graph, start, cutoff=hops - 1))
    want = {r["edge_id"] for r in EDGES if r["rel"] == "transfer" and (r["to"] if back else r["from"]) in near}
    assert answer["intent"] == "token_flow"
    assert {e["edge_id"] for e in answer["path"]} == want


@pytest.mark.parametrize("item", CORPUS, ids=[c["id"] for c in CORPUS])
def test_onchain_corpus(onchain_kg: KnowledgeGraph, item: dict) -> None:
    answer = onchain_kg.ask(item["question"], qid=item["id"]).to_json()
    assert schema_errors(answer, "onchain_answer") == []
    assert answer["grounding_ok"] is True
    expect = item["expect"]
    kind = expect["kind"]
    if kind == "path":
        _check_path(answer, expect)
    elif kind == "cluster":
        _check_cluster(answer, expect, item["question"])
    elif kind == "label":
        _check_label(answer, expect)
    elif kind == "flow":
        _check_flow(answer, expect)
    elif kind == "not_understood":
        assert answer["confidence"] == "low" and answer["path"] == [] and answer["cited_nodes"] == []
        assert all(f"'{w}'" in answer["answer_ko"] for w in expect["words"]), answer["answer_ko"]
    else:
        assert answer["intent"] == expect["intent"]
        assert answer["path"] == [] and answer["cited_nodes"] == []
        if lang_of(item["question"]) == "ko":
            assert "없는 노드" in answer["answer_ko"] or "찾지 못했습니다" in answer["answer_ko"]
        else:
            assert "not a node of the graph" in answer["answer_ko"] or "found no node" in answer["answer_ko"]


@pytest.mark.parametrize(
    ("question", "cls"),
    [
        ("지갑 W7에서 거래소로 곧바로 넘어간 주소가 있습니까?", "Exchange"),
        ("Did money from n_w7 go to an exchange hot wallet?", "ExchangeHotWallet"),
    ],
)
def test_the_destination_class_is_the_target_not_the_head_noun(question: str, cls: str) -> None:
    """'거래소로 넘어간 주소': the path goes to an exchange; '주소' is the head noun, and taking it as the target
    answered with any address one hop away."""
    with KnowledgeGraph.open() as kg:
        kg.load(example_dataset("onchain"))
        got = kg.ask(question).model_dump(by_alias=True)
    assert got["answer_ko"].endswith(f"→ {cls})"), got["answer_ko"]  # the reading names the target class


@pytest.mark.parametrize("question", ["n_w7은 지갑이야 컨트랙트야?", "Is n_w7 a wallet or a contract?"])
def test_a_class_said_of_the_start_asks_what_it_is(question: str) -> None:
    """'지갑이야 컨트랙트야?': the classes are predicated of n_w7 (a copula follows them); it is a label question,
    never a path to some contract."""
    with KnowledgeGraph.open() as kg:
        kg.load(example_dataset("onchain"))
        got = kg.ask(question).model_dump(by_alias=True)
    with (example_dataset("onchain") / "onchain_nodes.csv").open(encoding="utf-8") as fh:
        cls = {r["node_id"]: r["onto_class"] for r in csv.DictReader(fh)}["n_w7"]
    assert got["intent"] == "label_lookup" and f"({cls})" in got["answer_ko"], got["answer_ko"]


def test_a_class_said_of_where_the_money_went_is_no_label_question() -> None:
    """'n_w1이 보낸 곳이 거래소인가?' asks where n_w1's money went; the copula belongs to '보낸 곳', so answering
    with n_w1's own class would answer another question."""
    with KnowledgeGraph.open() as kg:
        kg.load(example_dataset("onchain"))
        got = kg.ask("n_w1이 보낸 곳이 거래소인가?").model_dump(by_alias=True)
    assert got["intent"] != "label_lookup", got["answer_ko"]


_SAME_QUESTION = [
    (
        "n_a1 에서 3-hop 안에 거래소 입금주소(ExchangeDeposit)에 자금이 닿나요?",
        "Starting from n_a1, can funds reach an exchange deposit address in three hops or fewer?",
    ),
    ("n_a1 과 같은 주체로 추정되는 지갑은?", "Which wallets are believed to belong to the same owner as n_a1?"),
    ("n_zz9 에서 거래소로 간 경로가 있나요?", "Is there a path from n_zz9 to an exchange?"),
    ("n_a1 에서 1-hop 안에 나간 돈은 어디로 갔나요?", "Where did the money from n_a1 go, one hop out?"),
    ("n_mx1 은 어떤 주소인가요?", "What kind of address is n_mx1?"),
    ("n_ex2 가 좋아하는 음식은?", "What food does n_ex2 like?"),
]


@pytest.mark.parametrize(("korean", "english"), _SAME_QUESTION)
def test_an_english_question_is_answered_and_refused_in_english(
    onchain_kg: KnowledgeGraph, korean: str, english: str
) -> None:
    """``answer_ko`` holds the text in the question's language (the contract keeps the field's name); the
    structured fields (intent, query, path, cited nodes, confidence) are the same whatever the language."""
    ko = onchain_kg.ask(korean).to_json()
    en = onchain_kg.ask(english).to_json()
    assert {k: v for k, v in ko.items() if k != "answer_ko"} == {k: v for k, v in en.items() if k != "answer_ko"}
    # node labels (in parentheses) and quoted labels or words are the data's and the question's, not the reply's
    own = re.sub(r"\([^()]*\)|'[^']*'", "", en["answer_ko"])
    assert not re.search(r"[가-힣]", own), en["answer_ko"]
    assert re.search(r"[가-힣]", re.sub(r"\([^()]*\)|'[^']*'", "", ko["answer_ko"])), ko["answer_ko"]
    assert ("Read as:" in en["answer_ko"]) == ("읽은 질문:" in ko["answer_ko"])
    if ko["intent"] == "cluster_lookup" and len(ko["cited_nodes"]) > 1:  # an inference, said as one
        assert "추정" in ko["answer_ko"] and "presumed" in en["answer_ko"]
