"""Number words that cannot be what they seem are refused naming them, never read as another number.

Before: "0-hop" fell back to the default limit and answered a 2-hop path, "-5-hop" and "1e308-hop" were read as
5 and 308 hops, and "노출이 -5 이상" ran ``impressions_30d >= 5``.
"""

from __future__ import annotations

from collections.abc import Iterator

import pytest

from ont_platform import KnowledgeGraph
from ont_platform.resources import example_dataset


@pytest.fixture(scope="module")
def kg() -> Iterator[KnowledgeGraph]:
    with KnowledgeGraph.open() as graph:
        for name in ("onchain", "kg", "pages"):
            graph.load(example_dataset(name))
        yield graph


@pytest.mark.parametrize("count", ["0", "-5", "1e308", "1.5", "-1"])
def test_an_unreadable_hop_count_is_not_an_onchain_claim(kg: KnowledgeGraph, count: str) -> None:
    answer = kg.ask(f"n_a1 에서 {count}-hop 안에 거래소에 닿나요?", domain="onchain")
    assert answer.confidence == "low" and answer.path == []
    assert count.lstrip("-").split(".")[0] in answer.answer_ko


def test_a_readable_hop_count_still_answers(kg: KnowledgeGraph) -> None:
    answer = kg.ask("n_a1 에서 3-hop 안에 거래소에 닿나요?", domain="onchain")
    assert answer.confidence == "high" and answer.path


@pytest.mark.parametrize("count", ["0", "-2", "2e1"])
def test_an_unreadable_hop_count_is_refused_on_entities(kg: KnowledgeGraph, count: str) -> None:
    answer = kg.ask(f"{count}홉 안에서 홍길동이 다니는 회사는 어느 도시에 있나요?", domain="kg")
    assert answer.decision == "refuse"
    assert count.lstrip("-").split("e")[-1] in answer.reason


@pytest.mark.parametrize("value", ["-5", "1e3"])
def test_a_signed_or_scientific_number_is_asked_back_on_pages(kg: KnowledgeGraph, value: str) -> None:
    answer = kg.ask(f"노출이 {value} 이상인 페이지", domain="pages")
    assert answer.status == "clarify" and answer.parsed_filter is None


def test_a_range_dash_is_still_a_range(kg: KnowledgeGraph) -> None:
    answer = kg.ask("노출이 10-20 사이인 페이지", domain="pages")
    assert answer.parsed_filter == "impressions_30d >= 10 AND impressions_30d <= 20"
