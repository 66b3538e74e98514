"""Property tests: random transfer graphs, questions generated from the ontology's own labels, and every
answer checked against a hop-limited breadth-first search with networkx."""

from __future__ import annotations

import csv
from pathlib import Path

import networkx as nx
import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from ont_platform import KnowledgeGraph
from ont_platform.domains import load_domain
from ont_platform.namespaces import OC

ONTO = load_domain("onchain")
CLASSES = ["Wallet", "ExchangeDeposit", "ExchangeHotWallet", "Mixer", "Bridge", "Contract", "Dex"]
TARGETS = ["Exchange", "ExchangeDeposit", "ExchangeHotWallet", "Mixer", "Bridge", "Contract"]
TEMPLATES = [
    "{s} 에서 {n}-hop 안에 {c}에 자금이 닿나요?",
    "{s}에서 {n}홉 이내로 {c}까지 가는 경로가 있나요?",
    "{s} 기준 {n}단계 안에 {c}로 이어지는 경로 있어?",
    "Does {s} reach a {c} within {n} hops?",
]


@st.composite
def graphs(draw: st.DrawFn) -> tuple[list[tuple[str, str]], list[tuple[str, str, str]]]:
    n = draw(st.integers(2, 10))
    nodes = [(f"w_{i}", draw(st.sampled_from(CLASSES))) for i in range(n)]
    ids = [x for x, _ in nodes]
    edges = [(f"e{k}", draw(st.sampled_from(ids)), draw(st.sampled_from(ids))) for k in range(draw(st.integers(0, 20)))]
    return nodes, edges


def _labels(name: str) -> list[str]:
    return [lab for lab in ONTO.labels(OC[name]) if "(" not in lab]


def _write(folder: Path, nodes: list[tuple[str, str]], edges: list[tuple[str, str, str]]) -> None:
    with (folder / "onchain_nodes.csv").open("w", newline="", encoding="utf-8") as fh:
        w = csv.writer(fh)
        w.writerow(["node_id", "address", "onto_class"])
        for i, (node, cls) in enumerate(nodes):
            w.writerow([node, "0x" + f"{i + 1:040x}", cls])
    with (folder / "onchain_edges.csv").open("w", newline="", encoding="utf-8") as fh:
        w = csv.writer(fh)
        w.writerow(["edge_id", "rel", "from", "to", "tx_hash"])
        for eid, a, b in edges:
            w.writerow([eid, "transfer", a, b, "0x" + eid[1:].zfill(4)])


@settings(max_examples=40, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(g=graphs(), data=st.data())
def test_path_answers_agree_with_networkx(tmp_path_factory, g, data) -> None:  # type: ignore[no-untyped-def]
    nodes, edges = g
    target = data.draw(st.sampled_from(TARGETS))
    label = data.draw(st.sampled_from(_labels(target)))
    hops = data.draw(st.integers(1, 4))
    start = data.draw(st.sampled_from([x for x, _ in nodes]))
    template = data.draw(st.sampled_from(TEMPLATES))
    question = template.format(s=start, n=hops, c=label)
    folder = tmp_path_factory.mktemp("g")
    _write(folder, nodes, edges)

    graph = nx.MultiDiGraph()
    graph.add_nodes_from(x for x, _ in nodes)
    for eid, a, b in edges:
        graph.add_edge(a, b, key=eid)
    allowed = {str(c).rsplit("#", 1)[-1] for c in ONTO.subclasses(OC[target])}
    wanted = {x for x, cls in nodes if cls in allowed and x != start}
    dist = nx.single_source_shortest_path_length(graph, start, cutoff=hops)
    best = min((d for x, d in dist.items() if x in wanted and d >= 1), default=None)

    with KnowledgeGraph.open() as kg:
        kg.load(folder, shacl=False)
        answer = kg.ask(question).to_json()
    if best is None:
        assert answer["intent"] == "no_path", (question, answer)
        assert answer["path"] == []
    else:
        assert answer["intent"] == "path_exists", (question, answer)
        assert len(answer["path"]) == best
        assert answer["path"][0]["from"] == start and answer["path"][-1]["to"] in wanted
        for e in answer["path"]:
            assert graph.has_edge(e["from"], e["to"], key=e["edge_id"])


@pytest.mark.slow
@settings(max_examples=25, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(g=graphs(), data=st.data())
def test_cluster_answers_agree_with_networkx(tmp_path_factory, g, data) -> None:  # type: ignore[no-untyped-def]
    nodes, edges = g
    folder = tmp_path_factory.mktemp("g")
    _write(folder, nodes, [])
    ids = [x for x, _ in nodes]
    pairs = {tuple(sorted((a, b))) for _, a, b in edges if a != b}
    with (folder / "onchain_edges.csv").open("a", newline="", encoding="utf-8") as fh:
        w = csv.writer(fh)
        for k, (a, b) in enumerate(sorted(pairs)):
            w.writerow([f"s{k}", "same_entity", a, b, ""])
    start = data.draw(st.sampled_from(ids))
    und = nx.Graph()
    und.add_nodes_from(ids)
    und.add_edges_from(pairs)
    members = set(nx.single_source_shortest_path_length(und, start, cutoff=2)) - {start}
    with KnowledgeGraph.open() as kg:
        kg.load(folder, shacl=False)
        answer = kg.ask(f"{start} 과 같은 주체로 추정되는 지갑은?").to_json()
    assert answer["intent"] == "cluster_lookup"
    assert set(answer["cited_nodes"]) - {start} == members
    assert answer["confidence"] != "high"
