"""Answers for people: names beside ids in answer texts and the CLI, and a notebook display (``_repr_html_``).

The contract fields keep ids; only the texts and views gain the labels, which are read from the graph here.
"""

from __future__ import annotations

import csv
from html.parser import HTMLParser
from pathlib import Path

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from ont_platform import KnowledgeGraph
from ont_platform.answer.contracts import Hop, HopDecision
from ont_platform.answer.html import path_svg, table
from ont_platform.resources import example_dataset
from ont_platform.view import render

EXAMPLES = Path(__file__).resolve().parents[1] / "examples"


def _labels(domain: str, name: str) -> dict[str, str]:
    with (example_dataset(domain) / name).open(encoding="utf-8") as fh:
        return {r["node_id"]: r["label"] for r in csv.DictReader(fh) if r.get("label")}


@pytest.fixture(scope="module")
def onchain() -> KnowledgeGraph:
    kg = KnowledgeGraph.open()
    kg.load(EXAMPLES / "onchain", shacl=False)
    return kg


@pytest.fixture(scope="module")
def entities() -> KnowledgeGraph:
    kg = KnowledgeGraph.open()
    kg.load(EXAMPLES / "kg", shacl=False)
    return kg


def test_labels_are_read_from_the_graph_and_unknown_ids_left_out(entities: KnowledgeGraph) -> None:
    table_labels = _labels("kg", "kg_nodes.csv")
    some = sorted(table_labels)[:5]
    assert entities.labels([*some, "no_such_node"]) == {i: table_labels[i] for i in some}
    assert entities.labels([]) == {}


@pytest.mark.parametrize(
    "question", ["n_w1에서 거래소까지 가는 경로가 있어?", "n_w1 에서 나간 돈은 어디로 갔어?", "n_hot1은 어떤 주소야?"]
)
def test_onchain_answer_texts_name_every_cited_node(onchain: KnowledgeGraph, question: str) -> None:
    labels = _labels("onchain", "onchain_nodes.csv")
    answer = onchain.ask(question)
    assert answer.cited_nodes
    for node in answer.cited_nodes:
        if labels.get(node) and labels[node] != node:
            assert labels[node] in answer.answer_ko, (node, answer.answer_ko)
    assert set(answer.cited_nodes) <= set(labels)  # the contract keeps ids, not labels


def test_the_cli_view_puts_labels_beside_ids(entities: KnowledgeGraph) -> None:
    answer = entities.ask("홍길동이 다니는 회사는 어느 도시에 있어?")
    labels = entities.labels([answer.answer or "", *(h.src for h in answer.path), *(h.dst for h in answer.path)])
    shown = render(answer, "q", labels)
    for hop in answer.path:
        assert f"{hop.src} ({labels[hop.src]})" in shown and f"{hop.dst} ({labels[hop.dst]})" in shown
    assert render(answer, "q") != shown  # without labels, ids alone


class _Texts(HTMLParser):
    def __init__(self) -> None:
        super().__init__()
        self.tags: list[str] = []
        self.text: list[str] = []

    def handle_starttag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        self.tags.append(tag)

    def handle_data(self, data: str) -> None:
        self.text.append(data)


def _parse(html: str) -> _Texts:
    parser = _Texts()
    parser.feed(html)
    return parser


@settings(max_examples=60, deadline=None)
@given(st.text(min_size=1, max_size=30), st.text(min_size=1, max_size=30), st.text(min_size=20, max_size=60))
def test_the_notebook_display_escapes_whatever_the_data_holds(node: str, rel: str, reason: str) -> None:
    decision = HopDecision(
        query_id="q",
        decision="answer",
        answer=node,
        path=[Hop(src=node, rel=rel, dst="b", chunk_id="<script>x</script>")],
        factors=[],
        reason=reason,
        evidence="evidence!",
        hedge=None,
    )
    parsed = _parse(decision._repr_html_())
    assert "script" not in parsed.tags
    assert set(parsed.tags) <= {
        "div",
        "strong",
        "table",
        "tr",
        "th",
        "td",
        "br",
        "svg",
        "rect",
        "text",
        "title",
        "line",
        "polygon",
    }
    assert reason.strip() == "" or reason in "".join(parsed.text)


def test_answers_and_reports_display_in_notebooks(onchain: KnowledgeGraph) -> None:
    answer = onchain.ask("n_w1에서 거래소까지 가는 경로가 있어?")
    html = answer._repr_html_()
    assert "<svg" in html and all(e.to in html for e in answer.path)
    report = KnowledgeGraph.open().load(EXAMPLES / "kg", shacl=False)
    shown = _parse(report._repr_html_())
    assert "LoadReport" in shown.text and str(report.triples_added) in shown.text
    assert path_svg([]) == "" and "<table>" in table("t", {})


def test_the_ids_an_answer_names_are_each_listed_once(entities: KnowledgeGraph, onchain: KnowledgeGraph) -> None:
    from ont_platform.view import node_ids

    kg_answer = entities.ask("홍길동이 다니는 회사는 어느 도시에 있어?")
    ids = node_ids(kg_answer)
    assert ids[0] == kg_answer.answer and len(ids) == len(set(ids))
    assert {h.src for h in kg_answer.path} | {h.dst for h in kg_answer.path} <= set(ids)
    path_answer = onchain.ask("n_w1에서 거래소까지 가는 경로가 있어?")
    assert set(node_ids(path_answer)) == set(path_answer.cited_nodes) | {e.to for e in path_answer.path}
