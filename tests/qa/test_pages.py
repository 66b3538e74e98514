"""Page questions (seed 004): the seed examples, a question set written the way different people ask, and
property tests over random inventories. Every expected URL set is computed here by filtering the CSV in plain
Python, never copied from the answer."""

from __future__ import annotations

import argparse
import contextlib
import csv
import io
import json
import re
import shutil
import tempfile
from collections.abc import Iterator
from datetime import date
from decimal import Decimal
from pathlib import Path

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from ont_platform import KnowledgeGraph
from ont_platform.answer.contracts import schema_errors
from ont_platform.errors import InputError, QueryRefused
from ont_platform.namespaces import PG
from ont_platform.qa.korean import josa
from ont_platform.sparql import pages as sparql_pages

ROOT = Path(__file__).resolve().parents[2]
DATASET = ROOT / "examples" / "pages"
SEED_EXAMPLES = ROOT / "tests" / "fixtures" / "seed_examples" / "page_filter_result.examples.json"
STRUCTURAL = ("status", "parsed_filter", "columns_used", "matched", "count")

IMP, CLK, CTR, SES, BOUNCE, PUB, UPD = (
    "impressions_30d",
    "clicks_30d",
    "ctr_30d",
    "sessions_30d",
    "bounce_rate_30d",
    "published_at",
    "updated_at",
)
TYPES = {IMP: "integer", CLK: "integer", SES: "integer", CTR: "decimal", BOUNCE: "decimal", PUB: "date", UPD: "date"}


@pytest.fixture(scope="session")
def kg() -> Iterator[KnowledgeGraph]:
    graph = KnowledgeGraph.open()
    graph.load(DATASET)
    yield graph
    graph.close()


@pytest.fixture(scope="session")
def rows() -> list[dict[str, str]]:
    with (DATASET / "pages.csv").open(encoding="utf-8", newline="") as f:
        return list(csv.DictReader(f))


# --- plain-Python filtering of the CSV --------------------------------------------------------------------------

Cond = tuple[str, str, str]


def _typed(column: str, cell: str) -> Decimal | date:
    return date.fromisoformat(cell) if TYPES.get(column, "integer") == "date" else Decimal(cell)


def holds(row: dict[str, str], cond: Cond) -> bool:
    column, op, raw = cond
    cell = (row.get(column) or "").strip()
    if not cell:
        return False  # an empty cell matches nothing, not even = 0
    a, b = _typed(column, cell), _typed(column, raw)
    return {
        "=": a == b,
        "!=": a != b,
        "<": a < b,
        "<=": a <= b,
        ">": a > b,
        ">=": a >= b,  # type: ignore[operator]
    }[op]


def expected_urls(table: list[dict[str, str]], conds: list[Cond]) -> set[str]:
    return {r["url"] for r in table if all(holds(r, c) for c in conds)}


def canonical(column: str, cell: str) -> str:
    if TYPES.get(column, "integer") == "date":
        return cell
    d = Decimal(cell)
    return str(int(d)) if d == d.to_integral_value() else format(d.normalize(), "f")


def check_answer(result: dict[str, object], table: list[dict[str, str]], conds: list[Cond]) -> None:
    """A ran answer: the filter text, the columns, the URL set and every evidence value against the CSV."""
    assert schema_errors(result, "page_filter_result") == []
    assert result["status"] == "ran", result
    assert result["parsed_filter"] == " AND ".join(f"{c} {op} {v}" for c, op, v in conds)
    used = list(dict.fromkeys(c for c, _, _ in conds))
    assert result["columns_used"] == used
    matched = result["matched"]
    assert isinstance(matched, list)
    assert {m["url"] for m in matched} == expected_urls(table, conds)
    assert result["count"] == len(matched)
    by_url = {r["url"]: r for r in table}
    for m in matched:
        row = by_url[m["url"]]
        assert m["evidence"] == ", ".join(f"{c}={canonical(c, row[c])}" for c in used)


def check_refusal(result: dict[str, object], status: str) -> None:
    assert schema_errors(result, "page_filter_result") == []
    assert result["status"] == status, result
    assert result["parsed_filter"] is None and result["columns_used"] == []
    assert result["matched"] == [] and result["count"] is None
    assert isinstance(result["hedge"], str) and len(result["hedge"]) > 20


# --- the seed ---------------------------------------------------------------------------------------------------


def test_seed_examples_are_reproduced_on_every_structural_field(kg: KnowledgeGraph) -> None:
    seeds = json.loads(SEED_EXAMPLES.read_text(encoding="utf-8"))
    assert len(seeds) == 3
    for seed in seeds:
        got = kg.ask(seed["question"]).to_json()
        assert schema_errors(got, "page_filter_result") == []
        assert got["question"] == seed["question"]
        assert {k: got[k] for k in STRUCTURAL} == {k: seed[k] for k in STRUCTURAL}


def test_seed_hedges_say_what_the_seed_says(kg: KnowledgeGraph) -> None:
    seeds = {s["status"]: s for s in json.loads(SEED_EXAMPLES.read_text(encoding="utf-8"))}
    ran = kg.ask(seeds["ran"]["question"]).to_json()["hedge"]
    assert ran.startswith(
        "'꽤 되는'을 술어 사전의 1000 회 기준으로 옮겼습니다. "
        "기준을 바꾸려면 조건을 직접 지정해 다시 실행하시면 됩니다."
    )
    assert kg.ask(seeds["clarify"]["question"]).to_json()["hedge"] == seeds["clarify"]["hedge"]
    unsupported = kg.ask(seeds["unsupported"]["question"]).to_json()["hedge"]
    assert unsupported.startswith("이 인벤토리에는 경쟁사 순위 컬럼이 없어 조건을 만들지 않았습니다. ")
    assert unsupported.endswith("순위 데이터를 컬럼으로 받으면 같은 방식으로 질의할 수 있습니다.")


def test_dataset_questions_file_passes(kg: KnowledgeGraph) -> None:
    lines = (DATASET / "questions.jsonl").read_text(encoding="utf-8").splitlines()
    assert lines
    for line in lines:
        item = json.loads(line)
        got = kg.ask(item["question"]).to_json()
        assert {k: got[k] for k in item["expected"]} == item["expected"], item["id"]


# --- questions the way people ask them --------------------------------------------------------------------------

RAN: list[tuple[str, list[Cond]]] = [
    # numbers, comparison words, units, spacing
    ("노출 1000 이상 클릭 0", [(IMP, ">=", "1000"), (CLK, "=", "0")]),
    ("노출이 1,000회를 넘는데 클릭은 0회인 페이지", [(IMP, ">", "1000"), (CLK, "=", "0")]),
    ("클릭수가 10 안 되는 페이지", [(CLK, "<", "10")]),
    ("클릭이 5회 이하이고 노출이 5천 이상인 페이지", [(CLK, "<=", "5"), (IMP, ">=", "5000")]),
    ("CTR 1% 미만이고 노출 1만 이상", [(CTR, "<", "0.01"), (IMP, ">=", "10000")]),
    ("클릭률이 0.5% 이하인 페이지 보여줘", [(CTR, "<=", "0.005")]),
    ("노출수 1만 회 이상이면서 CTR 2% 미만인 페이지 목록", [(IMP, ">=", "10000"), (CTR, "<", "0.02")]),
    ("노출 3천~1만 사이", [(IMP, ">=", "3000"), (IMP, "<=", "10000")]),
    ("클릭 100번 넘게 받은 페이지", [(CLK, ">", "100")]),
    ("세션이 50 미만인 페이지", [(SES, "<", "50")]),
    ("방문수 0", [(SES, "=", "0")]),
    ("노출 천 이상 클릭 없는", [(IMP, ">=", "1000"), (CLK, "=", "0")]),
    ("노출 1.5천 이상", [(IMP, ">=", "1500")]),
    ("노출량이 1k 이상인데 클릭 0", [(IMP, ">=", "1000"), (CLK, "=", "0")]),
    ("노출이 5000을 초과하지 않고 클릭이 있는 페이지", [(IMP, "<=", "5000"), (CLK, ">", "0")]),
    ("노출 수가 1000보다 많은데 클릭은 10보다 적은 페이지", [(IMP, ">", "1000"), (CLK, "<", "10")]),
    ("클릭이 정확히 3인 페이지", [(CLK, "=", "3")]),
    ("노출이1000이상이고클릭이0인페이지", [(IMP, ">=", "1000"), (CLK, "=", "0")]),
    ("  노출   1000   이상 ,  클릭   0  ", [(IMP, ">=", "1000"), (CLK, "=", "0")]),
    ("노출이 1000에서 5000 사이인 페이지", [(IMP, ">=", "1000"), (IMP, "<=", "5000")]),
    ("세션이 100 이상 500 이하", [(SES, ">=", "100"), (SES, "<=", "500")]),
    ("클릭이 0이 아닌 페이지", [(CLK, "!=", "0")]),
    ("노출 횟수 999 이하, 클릭 횟수 0", [(IMP, "<=", "999"), (CLK, "=", "0")]),
    ("클릭 수가 최소 500", [(CLK, ">=", "500")]),
    ("클릭은 최대 2번", [(CLK, "<=", "2")]),
    ("노출 15200", [(IMP, "=", "15200")]),
    ("30일 노출수가 2만 이상", [(IMP, ">=", "20000")]),
    ("노출수 >= 20000", [(IMP, ">=", "20000")]),
    ("clicks_30d = 0 AND impressions_30d >= 1000", [(CLK, "=", "0"), (IMP, ">=", "1000")]),
    ("impressions_30d>=1000, clicks_30d=0", [(IMP, ">=", "1000"), (CLK, "=", "0")]),
    ("세션수가 1000 넘고 클릭률 5% 이상", [(SES, ">", "1000"), (CTR, ">=", "0.05")]),
    ("ＣＴＲ １％ 미만", [(CTR, "<", "0.01")]),
    ("\u200b클릭\u200b 0", [(CLK, "=", "0")]),
    # vague phrases: the built-in dictionary and the dataset's predicates.csv
    ("클릭이 하나도 없는 페이지", [(CLK, "=", "0")]),
    ("클릭이 전혀 없는 페이지", [(CLK, "=", "0")]),
    ("노출이 꽤 되는 페이지", [(IMP, ">=", "1000")]),
    ("노출은 많지 않은데 클릭은 있는 페이지", [(IMP, "<", "1000"), (CLK, ">", "0")]),
    ("노출은 많은데 클릭이 거의 없는 페이지", [(IMP, ">=", "1000"), (CLK, "<=", "10")]),
    ("클릭이 거의 없는 페이지", [(CLK, "<=", "10")]),
    ("이탈이 심한 페이지", [(BOUNCE, ">=", "0.7")]),
    ("노출은 꽤 되는데 이탈이 심한 페이지", [(IMP, ">=", "1000"), (BOUNCE, ">=", "0.7")]),
    ("노출이 높은 페이지", [(IMP, ">=", "1000")]),
    ("세션이 적은 페이지", [(SES, "<", "100")]),
    ("유입이 없는 페이지", [(SES, "=", "0")]),
    ("노출은 꽤 되는데 클릭이 10 이하", [(IMP, ">=", "1000"), (CLK, "<=", "10")]),
    # dates, against the dataset's as_of 2026-10-31
    ("작년 초에 게시된 페이지", [(PUB, ">=", "2025-01-01"), (PUB, "<=", "2025-03-31")]),
    (
        "지난달 수정된 페이지 중 클릭이 하나도 없는 것",
        [(UPD, ">=", "2026-09-01"), (UPD, "<=", "2026-09-30"), (CLK, "=", "0")],
    ),
    ("2026-03-01 이후 게시된 페이지", [(PUB, ">=", "2026-03-01")]),
    ("올해 게시된 글 중 노출 1000 이상", [(PUB, ">=", "2026-01-01"), (PUB, "<=", "2026-12-31"), (IMP, ">=", "1000")]),
    ("2025년 상반기에 게시된 페이지", [(PUB, ">=", "2025-01-01"), (PUB, "<=", "2025-06-30")]),
    ("2025년 1월에 게시된 페이지", [(PUB, ">=", "2025-01-01"), (PUB, "<=", "2025-01-31")]),
    ("작년 말에 수정된 페이지", [(UPD, ">=", "2025-10-01"), (UPD, "<=", "2025-12-31")]),
    ("이번 달 수정된 페이지", [(UPD, ">=", "2026-10-01"), (UPD, "<=", "2026-10-31")]),
    ("지난주 게시된 글", [(PUB, ">=", "2026-10-19"), (PUB, "<=", "2026-10-25")]),
    ("최근 3개월 동안 수정된 페이지", [(UPD, ">=", "2026-08-01"), (UPD, "<=", "2026-10-31")]),
    ("30일 이내 업데이트된 페이지", [(UPD, ">=", "2026-10-02"), (UPD, "<=", "2026-10-31")]),
    ("2025-01-01부터 2025-03-31까지 게시된 페이지", [(PUB, ">=", "2025-01-01"), (PUB, "<=", "2025-03-31")]),
    ("게시일이 2025-01-08인 페이지", [(PUB, "=", "2025-01-08")]),
    ("수정일이 2026.09.01 이전인 페이지", [(UPD, "<=", "2026-09-01")]),
    ("6개월 넘게 수정되지 않은 페이지", [(UPD, "<", "2026-04-30")]),
    (
        "작년에 게시됐는데 올해 한 번도 수정 안 된 페이지",
        [(PUB, ">=", "2025-01-01"), (PUB, "<=", "2025-12-31"), (UPD, "<", "2026-01-01")],
    ),
    ("2025년 3월 1일 전에 발행된 글", [(PUB, "<", "2025-03-01")]),
    ("작년 초 게시, 클릭 0", [(PUB, ">=", "2025-01-01"), (PUB, "<=", "2025-03-31"), (CLK, "=", "0")]),
    ("올해 1분기 게시", [(PUB, ">=", "2026-01-01"), (PUB, "<=", "2026-03-31")]),
    ("최근 30일 동안 클릭이 0인 페이지", [(CLK, "=", "0")]),
    # English
    ("impressions >= 1000 and clicks = 0", [(IMP, ">=", "1000"), (CLK, "=", "0")]),
    ("pages with more than 10000 impressions", [(IMP, ">", "10000")]),
    ("pages with at least 1000 impressions and zero clicks", [(IMP, ">=", "1000"), (CLK, "=", "0")]),
    ("pages with no clicks", [(CLK, "=", "0")]),
    ("pages with fewer than 5 clicks", [(CLK, "<", "5")]),
    ("pages with clicks under 5 and impressions over 1000", [(CLK, "<", "5"), (IMP, ">", "1000")]),
    ("CTR below 1%", [(CTR, "<", "0.01")]),
    ("bounce rate above 70%", [(BOUNCE, ">", "0.7")]),
    ("show pages published before 2024", [(PUB, "<", "2024-01-01")]),
    ("pages updated since 2026-09-01", [(UPD, ">=", "2026-09-01")]),
    ("published after 2025-06-01 with no clicks", [(PUB, ">", "2025-06-01"), (CLK, "=", "0")]),
    ("sessions between 100 and 500", [(SES, ">=", "100"), (SES, "<=", "500")]),
    # the column after both ends of a range; English month names, quarters and halves
    ("pages with between 100 and 500 sessions", [(SES, ">=", "100"), (SES, "<=", "500")]),
    ("between 10 and 50 clicks and over 1000 impressions", [(CLK, ">=", "10"), (CLK, "<=", "50"), (IMP, ">", "1000")]),
    ("pages updated before June 1, 2025", [(UPD, "<", "2025-06-01")]),
    ("pages published on 3 March 2025", [(PUB, "=", "2025-03-03")]),
    (
        "I'd like to know which pages were updated in September 2026 and got zero clicks.",
        [(UPD, ">=", "2026-09-01"), (UPD, "<=", "2026-09-30"), (CLK, "=", "0")],
    ),
    ("pages published in Q1 2025, please", [(PUB, ">=", "2025-01-01"), (PUB, "<=", "2025-03-31")]),
    ("pages published in the second half of 2025", [(PUB, ">=", "2025-07-01"), (PUB, "<=", "2025-12-31")]),
    ("pages published in 2025, with 0 clicks", [(PUB, ">=", "2025-01-01"), (PUB, "<=", "2025-12-31"), (CLK, "=", "0")]),
    # the dataset's own column (columns.csv)
    ("이탈률이 0.7 이상인 페이지", [(BOUNCE, ">=", "0.7")]),
    ("바운스율이 0.5 이하", [(BOUNCE, "<=", "0.5")]),
    ("이탈율 80% 이상", [(BOUNCE, ">=", "0.8")]),
    # hostile text around a real condition: values only ever reach SPARQL as typed literals (markup tags are
    # not words; SPARQL keywords are, and are asked back: see UNEXPLAINED below)
    ("<b>클릭</b> 0", [(CLK, "=", "0")]),
    ("노출 1000 이상 클릭 0 " + "아" * 800, [(IMP, ">=", "1000"), (CLK, "=", "0")]),
    # more voices
    ("노출수는 높은데 클릭수가 0인 페이지 찾아줘", [(IMP, ">=", "1000"), (CLK, "=", "0")]),
    ("클릭이 한 번도 없는 페이지 목록 좀", [(CLK, "=", "0")]),
    (
        "지난 달에 업데이트 됐는데 클릭이 없는 페이지가 뭐가 있나요?",
        [(UPD, ">=", "2026-09-01"), (UPD, "<=", "2026-09-30"), (CLK, "=", "0")],
    ),
    ("노출이 2000 이상 3000 미만인 페이지", [(IMP, ">=", "2000"), (IMP, "<", "3000")]),
    ("클릭률 3% 넘는 페이지 알려줘", [(CTR, ">", "0.03")]),
    ("방문자가 100명 미만인 페이지", [(SES, "<", "100")]),
    (
        "작년에 올라온 글 중에 노출 5000 넘는 거",
        [(PUB, ">=", "2025-01-01"), (PUB, "<=", "2025-12-31"), (IMP, ">", "5000")],
    ),
    ("2024년에 작성된 페이지", [(PUB, ">=", "2024-01-01"), (PUB, "<=", "2024-12-31")]),
    ("2026년 9월 이후 수정된 페이지 중 세션 100 이하", [(UPD, ">=", "2026-09-01"), (SES, "<=", "100")]),
    (
        "작년 하반기 발행 페이지 중 클릭률 2% 미만",
        [(PUB, ">=", "2025-07-01"), (PUB, "<=", "2025-12-31"), (CTR, "<", "0.02")],
    ),
    ("노출 만 이상", [(IMP, ">=", "10000")]),
    ("클릭 천 넘는 페이지", [(CLK, ">", "1000")]),
    ("pages with impressions between 1000 and 2000", [(IMP, ">=", "1000"), (IMP, "<=", "2000")]),
    (
        "pages published in 2025 with more than 5000 impressions",
        [(PUB, ">=", "2025-01-01"), (PUB, "<=", "2025-12-31"), (IMP, ">", "5000")],
    ),
    ("pages not updated in the last 6 months", [(UPD, "<", "2026-05-01")]),
    ("impressions over 10k", [(IMP, ">", "10000")]),
    ("노출이 꽤 되는데 유입은 거의 없는 페이지", [(IMP, ">=", "1000"), (SES, "<=", "10")]),
    ("이탈률 70% 이상이면서 노출 천 이상", [(BOUNCE, ">=", "0.7"), (IMP, ">=", "1000")]),
    ("이탈이 심하고 클릭이 하나도 없는 페이지", [(BOUNCE, ">=", "0.7"), (CLK, "=", "0")]),
    ("클릭이 있긴 한데 5회 이하인 페이지", [(CLK, ">", "0"), (CLK, "<=", "5")]),
    ("올해 초 이후 수정된 페이지", [(UPD, ">=", "2026-01-01")]),
    ("2025년 이후 게시", [(PUB, ">=", "2025-01-01")]),
    ("이번 주에 수정된 페이지", [(UPD, ">=", "2026-10-26"), (UPD, "<=", "2026-11-01")]),
    ("노출은 있는데 클릭은 없는 페이지", [(IMP, ">", "0"), (CLK, "=", "0")]),
    ("노출 1000↑ 클릭 0", [(IMP, ">=", "1000"), (CLK, "=", "0")]),
    ("노출 1000이상&클릭0", [(IMP, ">=", "1000"), (CLK, "=", "0")]),
    ("클릭 수 50 이상 100 이하 페이지 뽑아줘", [(CLK, ">=", "50"), (CLK, "<=", "100")]),
    ("CTR이 5%를 넘는 페이지가 있나요", [(CTR, ">", "0.05")]),
    ("클릭률 2% 이상 3% 이하", [(CTR, ">=", "0.02"), (CTR, "<=", "0.03")]),
    ("세션 수 10 미만 & 노출 5000 이상", [(SES, "<", "10"), (IMP, ">=", "5000")]),
    ("게시일이 2024년 12월인 페이지", [(PUB, ">=", "2024-12-01"), (PUB, "<=", "2024-12-31")]),
    ("2025년 6월 이후에 수정된 적 없는 페이지", [(UPD, "<", "2025-06-01")]),
    ("지난해 3분기에 발행된 글", [(PUB, ">=", "2025-07-01"), (PUB, "<=", "2025-09-30")]),
    ("1년 넘게 업데이트 안 된 글", [(UPD, "<", "2025-10-31")]),
    ("최근 2주간 게시된 글", [(PUB, ">=", "2026-10-18"), (PUB, "<=", "2026-10-31")]),
    ("클릭이 천 회 이상인데 세션은 오백 미만", [(CLK, ">=", "1000"), (SES, "<", "500")]),
    ("pages where clicks equal 0 and impressions exceed 5000", [(CLK, "=", "0"), (IMP, ">", "5000")]),
    ("posts published since last month", [(PUB, ">=", "2026-09-01")]),
    ("bounce rate of at least 0.6 and clicks under 100", [(BOUNCE, ">=", "0.6"), (CLK, "<", "100")]),
    ("clicks greater than or equal to 100", [(CLK, ">=", "100")]),
    ("클릭 0, 노출 0 아닌 페이지", [(CLK, "=", "0"), (IMP, "!=", "0")]),
    ("노출 1000을 못 넘는 페이지", [(IMP, "<=", "1000")]),
]

REFUSED: list[tuple[str, str]] = [
    # whether 2024 itself is in: everyday speech and the legal reading of 이전 differ, so it is asked back
    ("2024년 이전에 게시된 페이지 목록 좀", "clarify"),
    ("pages published in the fifth quarter of 2025", "clarify"),
    ("Which pages have more than 10 likes?", "unsupported"),
    ("성과가 안 좋은 페이지를 정리해 주세요", "clarify"),
    ("클릭 수", "clarify"),
    ("잘 되는 페이지", "clarify"),
    ("1000 이상인 페이지", "clarify"),
    ("조회수 많은 페이지", "clarify"),
    ("CTR이 높은 페이지", "clarify"),
    ("작년 초", "clarify"),
    ("최근 게시된 페이지", "clarify"),
    ("클릭이 없거나 노출이 없는 페이지", "clarify"),
    ("인기 있는 페이지", "clarify"),
    ("반응이 없는 글", "clarify"),
    ("꽤 되는 페이지", "clarify"),
    ("페이지", "clarify"),
    ("?", "clarify"),
    ("노출 대비 클릭이 낮은 페이지", "clarify"),
    ("이탈률이 높은 페이지", "clarify"),
    ("지난달에 수정 안 된 페이지", "clarify"),
    ("2025-02-30 이후 게시된 페이지", "clarify"),
    ("노출 99999999999999999999 이상", "clarify"),
    ("https://shop.example.com/p/1006 클릭 수는?", "clarify"),
    ("'; DROP TABLE pages; --", "clarify"),
    ("SELECT ?s WHERE { ?s ?p ?o }", "clarify"),
    ("클릭 10% 이상", "clarify"),
    ("경쟁사보다 순위가 밀린 페이지를 알려 주세요", "unsupported"),
    ("전환율이 낮은 페이지", "unsupported"),
    ("매출이 높은 페이지", "unsupported"),
    ("클릭이 가장 많은 페이지 5개", "unsupported"),
    ("체류 시간이 짧은 페이지", "unsupported"),
    ("페이지 추이를 보여줘", "unsupported"),
    ("검색 순위가 10위 밖인 페이지", "unsupported"),
    ("평균 클릭수가 10 이상", "unsupported"),
    ("키워드별 노출", "unsupported"),
    ("최근 7일 클릭이 0인 페이지", "unsupported"),
    ("show me the conversion rate of pages with zero clicks", "unsupported"),
    ("노출 1000 이상이고 전환율 1% 미만", "unsupported"),
    ("top 10 pages by clicks", "unsupported"),
    ("Which pages got zero clicks last month?", "clarify"),
    ("클릭 수 기준으로 정렬해줘", "unsupported"),
    ("노출이 가장 적은 페이지", "unsupported"),
    ("어떤 페이지가 잘 안 돼요?", "clarify"),
    ("상태가 나쁜 페이지", "clarify"),
    ("구매 전환이 없는 페이지", "unsupported"),
    ("노출수 대비 클릭수 비율이 1% 미만", "clarify"),
    ("효율 안 나오는 페이지", "clarify"),
    ("페이지 로딩 속도가 느린 페이지", "unsupported"),
    ("작년 대비 노출이 줄어든 페이지", "unsupported"),
    ("클릭이 많고 이탈률이 낮은 페이지", "clarify"),
]


# Questions that used to run with a word left unread and are now asked back, the word named in the hedge.
UNEXPLAINED: list[dict[str, str]] = [
    {
        "question": "세션이 50 미만인 블로그 글",
        "word": "블로그",
        "note": "ran as sessions_30d < 50, which returned shop pages too: the inventory has no column for the blog, "
        "so '블로그' is a condition the filter dropped; clarify is the honest outcome",
    },
    {
        "question": "클릭 = 0 } ; DELETE WHERE { ?s ?p ?o }",
        "word": "DELETE",
        "note": "ran as clicks_30d = 0, ignoring the pasted SPARQL; the words of the update are now named and asked "
        "about instead (nothing of it reaches SPARQL either way)",
    },
    {
        "question": 'clicks = "0"^^<http://evil.example/x> } INSERT DATA { <a> <b> <c> }',
        "word": "INSERT",
        "note": "ran as clicks_30d = 0, ignoring the pasted SPARQL; now asked back, naming the words",
    },
]


@pytest.mark.parametrize("item", UNEXPLAINED, ids=[f"unexplained-{i}" for i in range(len(UNEXPLAINED))])
def test_a_word_the_reading_does_not_use_is_asked_back(kg: KnowledgeGraph, item: dict[str, str]) -> None:
    result = kg.ask(item["question"]).to_json()
    check_refusal(result, "clarify")
    assert f"'{item['word']}'" in result["hedge"], result["hedge"]


@pytest.mark.parametrize(("question", "conds"), RAN, ids=[f"ran-{i}" for i in range(len(RAN))])
def test_question_runs_the_intended_filter(
    kg: KnowledgeGraph, rows: list[dict[str, str]], question: str, conds: list[Cond]
) -> None:
    result = kg.ask(question).to_json()
    assert result["question"] == question
    check_answer(result, rows, conds)


@pytest.mark.parametrize(("question", "status"), REFUSED, ids=[f"refused-{i}" for i in range(len(REFUSED))])
def test_question_is_refused_without_rows(kg: KnowledgeGraph, question: str, status: str) -> None:
    check_refusal(kg.ask(question).to_json(), status)


def test_the_question_set_is_large_enough() -> None:
    assert len(RAN) + len(REFUSED) >= 63 + 3


@pytest.mark.parametrize("question", ["", "   ", "\u200b", "클릭 0 " + "가" * 1000])
def test_unusable_questions_raise_input_error(kg: KnowledgeGraph, question: str) -> None:
    with pytest.raises(InputError):
        kg.ask(question)


def test_hedges_are_templated_from_the_facts(kg: KnowledgeGraph) -> None:
    dated = kg.ask("작년 초에 게시된 페이지").to_json()["hedge"]
    assert "'작년 초'를 published_at >= 2025-01-01 AND published_at <= 2025-03-31 조건으로" in dated
    assert "2026-10-31" in dated
    dataset = kg.ask("이탈이 심한 페이지").to_json()["hedge"]
    assert "predicates.csv" in dataset and "0.7" in dataset
    none = kg.ask("노출이 0인 페이지").to_json()
    assert none["count"] == 0 and "조건에 맞는 페이지가 없습니다" in none["hedge"]
    assert "전환율 컬럼이 없어" in kg.ask("전환율이 낮은 페이지").to_json()["hedge"]
    mismatch = kg.ask("CTR이 높은 페이지").to_json()["hedge"]
    assert "클릭률(ctr_30d)" in mismatch and "술어 사전에 없어" in mismatch


def test_the_answer_comes_from_the_sparql_that_ran(kg: KnowledgeGraph) -> None:
    answer, queries = kg.trace("노출은 꽤 되는데 클릭이 하나도 없는 페이지를 알려 주세요")
    result = answer.to_json()
    query = queries[-1]
    assert "LIMIT" in query and "ORDER BY ?url" in query
    assert {str(r["url"]) for r in kg.select(query)} == {m["url"] for m in result["matched"]}


def test_the_same_answers_on_rdflib(rows: list[dict[str, str]]) -> None:
    with KnowledgeGraph.open(backend="rdflib") as other:
        other.load(DATASET)
        for question, conds in RAN[:12] + RAN[45:50]:
            check_answer(other.ask(question).to_json(), rows, conds)


# --- query builder --------------------------------------------------------------------------------------------


def test_filter_query_refuses_what_it_cannot_write() -> None:
    ok = sparql_pages.Comparison(0, ">=", "1", "integer")
    with pytest.raises(QueryRefused):
        sparql_pages.filter_pages([], [ok], limit=5)
    with pytest.raises(QueryRefused):
        sparql_pages.filter_pages(
            [PG.clicks_30d], [sparql_pages.Comparison(0, ") || true || (", "1", "integer")], limit=5
        )
    with pytest.raises(QueryRefused):
        sparql_pages.filter_pages([PG.clicks_30d], [sparql_pages.Comparison(0, "=", "1", "string")], limit=5)
    with pytest.raises(QueryRefused):
        sparql_pages.filter_pages([PG.clicks_30d], [sparql_pages.Comparison(1, "=", "1", "integer")], limit=5)
    text = sparql_pages.filter_pages(
        [PG.clicks_30d], [sparql_pages.Comparison(0, "=", '0" } DELETE {', "integer")], limit=5
    )
    assert '\\"' in text and text.rstrip().endswith("LIMIT 5")


# --- a dataset without the extra column and predicates -----------------------------------------------------------


@pytest.fixture(scope="session")
def bare_kg() -> Iterator[KnowledgeGraph]:
    with tempfile.TemporaryDirectory() as tmp:
        shutil.copyfile(DATASET / "pages.csv", Path(tmp) / "pages.csv")
        text = (Path(tmp) / "pages.csv").read_text(encoding="utf-8").splitlines()
        header = text[0].split(",")
        drop = header.index(BOUNCE)
        kept = [",".join(c for i, c in enumerate(line.split(",")) if i != drop) for line in text]
        (Path(tmp) / "pages.csv").write_text("\n".join(kept) + "\n", encoding="utf-8")
        graph = KnowledgeGraph.open()
        graph.load(tmp)
        yield graph
        graph.close()


def test_without_the_dataset_column_bounce_rate_is_unsupported(bare_kg: KnowledgeGraph) -> None:
    check_refusal(bare_kg.ask("이탈률이 0.7 이상인 페이지").to_json(), "unsupported")
    check_refusal(bare_kg.ask("이탈이 심한 페이지").to_json(), "unsupported")
    # without predicates.csv, '거의 없는' is not in the dictionary; '없는' still is (= 0)
    result = bare_kg.ask("클릭이 없는 페이지").to_json()
    assert result["parsed_filter"] == "clicks_30d = 0"
    # no meta.json: relative dates count from today
    hedge = bare_kg.ask("올해 게시된 페이지").to_json()["hedge"]
    assert "meta.json" in hedge and date.today().isoformat() in hedge


# --- the command line -----------------------------------------------------------------------------------------


def run_cli(argv: list[str]) -> tuple[int, str]:
    """``ont pages ...`` with the exit-code mapping of ``ont`` (InputError → 2)."""
    from ont_platform.cli.pages import add_parser

    parser = argparse.ArgumentParser(prog="ont")
    add_parser(parser.add_subparsers(dest="command"))
    args = parser.parse_args(argv)
    out = io.StringIO()
    with contextlib.redirect_stdout(out):
        try:
            code = int(args.func(args))
        except InputError:
            code = 2
    return code, out.getvalue()


def test_cli_json_and_exit_codes(rows: list[dict[str, str]]) -> None:
    code, out = run_cli(
        ["pages", "노출은 꽤 되는데 클릭이 하나도 없는 페이지를 알려 주세요", "--inventory", str(DATASET), "--json"]
    )
    assert code == 0
    check_answer(json.loads(out), rows, [(IMP, ">=", "1000"), (CLK, "=", "0")])
    code, out = run_cli(
        ["pages", "성과가 안 좋은 페이지를 정리해 주세요", "--inventory", str(DATASET / "pages.csv"), "--json"]
    )
    assert code == 1 and json.loads(out)["status"] == "clarify"
    code, out = run_cli(["pages", "경쟁사보다 순위가 밀린 페이지", "--inventory", str(DATASET)])
    assert code == 1 and out.startswith("status: unsupported")


def test_cli_lone_csv_uses_the_files_beside_it(tmp_path: Path) -> None:
    for name in ("columns.csv", "predicates.csv", "meta.json"):
        shutil.copyfile(DATASET / name, tmp_path / name)
    shutil.copyfile(DATASET / "pages.csv", tmp_path / "inventory-2026-10.csv")
    code, out = run_cli(["pages", "이탈이 심한 페이지", "--inventory", str(tmp_path / "inventory-2026-10.csv")])
    assert code == 0
    assert "filter: bounce_rate_30d >= 0.7" in out and "https://shop.example.com/p/1006" in out


def test_cli_unusable_input_exits_2(tmp_path: Path) -> None:
    assert run_cli(["pages", "클릭 0", "--inventory", str(tmp_path / "missing.csv")])[0] == 2
    (tmp_path / "notes.txt").write_text("url\n", encoding="utf-8")
    assert run_cli(["pages", "클릭 0", "--inventory", str(tmp_path / "notes.txt")])[0] == 2
    (tmp_path / "bad.csv").write_text("url,clicks_30d\nnot-a-url,x\n", encoding="utf-8")
    assert run_cli(["pages", "클릭 0", "--inventory", str(tmp_path / "bad.csv")])[0] == 2
    assert run_cli(["pages", "   ", "--inventory", str(DATASET)])[0] == 2


# --- properties -------------------------------------------------------------------------------------------------

LABELS = {
    IMP: ["노출", "노출수", "노출 횟수", "임프레션", "impressions", "impressions_30d"],
    CLK: ["클릭", "클릭수", "클릭 횟수", "clicks", "clicks_30d"],
    SES: ["세션", "방문수", "유입수", "sessions", "sessions_30d"],
    CTR: ["CTR", "클릭률", "ctr_30d"],
    PUB: ["게시일", "발행일", "작성일", "published_at"],
}
KO_OPS = [
    ("이상", ">="),
    ("이하", "<="),
    ("미만", "<"),
    ("초과", ">"),
    ("넘는", ">"),
    ("인", "="),
    ("보다 많은", ">"),
    ("보다 적은", "<"),
    ("안 되는", "<"),
]
EN_OPS = [
    ("at least", ">="),
    ("more than", ">"),
    ("fewer than", "<"),
    ("at most", "<="),
    ("exactly", "="),
    (">=", ">="),
    ("<", "<"),
    ("=", "="),
]
KO_DATE_OPS = [("이후", ">="), ("이전", "<="), ("부터", ">="), ("까지", "<="), ("전에", "<"), ("후에", ">")]
EN_DATE_OPS = [("after", ">"), ("before", "<"), ("since", ">="), ("until", "<=")]


def number_forms(n: int) -> list[str]:
    forms = [str(n), f"{n:,}"]
    if n and n % 1000 == 0:
        forms += [f"{n // 1000}천", f"{n // 1000}k"]
    if n and n % 10000 == 0:
        forms.append(f"{n // 10000}만")
    return forms


def date_forms(d: date) -> list[str]:
    return [d.isoformat(), f"{d.year}.{d.month:02d}.{d.day:02d}", f"{d.year}년 {d.month}월 {d.day}일"]


def fmt(value: Decimal) -> str:
    return str(int(value)) if value == value.to_integral_value() else format(value.normalize(), "f")


@st.composite
def conditions(draw: st.DrawFn) -> tuple[str, list[Cond]]:
    """A question built from column labels, comparison words and values, with the conditions it means."""
    columns = draw(st.lists(st.sampled_from([IMP, CLK, SES, CTR, PUB]), min_size=1, max_size=3, unique=True))
    english = draw(st.booleans())
    parts, conds = [], []
    for column in columns:
        label = draw(st.sampled_from(LABELS[column]))
        if column == PUB:
            day = draw(st.dates(min_value=date(2022, 1, 1), max_value=date(2026, 12, 31)))
            word, op = draw(st.sampled_from(EN_DATE_OPS if english else KO_DATE_OPS))
            shown = day.isoformat() if english else draw(st.sampled_from(date_forms(day)))
            parts.append(f"{label} {word} {shown}" if english else f"{label} {shown} {word}")
            conds.append((column, op, day.isoformat()))
            continue
        if column == CTR:
            hundredths = draw(st.integers(min_value=0, max_value=900))
            value = Decimal(hundredths) / 10000
            number = draw(st.sampled_from([fmt(value), f"{fmt(value * 100)}%"]))
        else:
            n = draw(st.sampled_from([0, 1, 5, 10, 99, 100, 500, 999, 1000, 1001, 3000, 10000, 20000]))
            value, number = Decimal(n), draw(st.sampled_from(number_forms(n)))
        if english:
            word, op = draw(st.sampled_from(EN_OPS))
            parts.append(f"{label} {word} {number}")
        else:
            word, op = draw(st.sampled_from(KO_OPS))
            particle = draw(st.sampled_from(["", " ", "이 " if josa(label, "이", "가").endswith("이") else "가 "]))
            parts.append(f"{label}{particle}{number} {word}")
        conds.append((column, op, fmt(value)))
    joiner = " and " if english else draw(st.sampled_from([", ", " 그리고 ", " "]))
    return joiner.join(parts) + (" pages" if english else " 페이지"), conds


counts = st.one_of(st.just(""), st.integers(min_value=0, max_value=25000).map(str))
ratios = st.one_of(st.just(""), st.integers(min_value=0, max_value=1000).map(lambda n: fmt(Decimal(n) / 10000)))
days = st.one_of(st.just(""), st.dates(min_value=date(2022, 1, 1), max_value=date(2026, 12, 31)).map(date.isoformat))
FIELDS = ["url", IMP, CLK, SES, CTR, PUB]


@st.composite
def inventories(draw: st.DrawFn) -> list[dict[str, str]]:
    n = draw(st.integers(min_value=1, max_value=10))
    return [
        {
            "url": f"https://site.example/p/{i}",
            IMP: draw(counts),
            CLK: draw(counts),
            SES: draw(counts),
            CTR: draw(ratios),
            PUB: draw(days),
        }
        for i in range(n)
    ]


def load_inventory(table: list[dict[str, str]], folder: Path, backend: str = "oxigraph") -> KnowledgeGraph:
    with (folder / "pages.csv").open("w", encoding="utf-8", newline="") as f:
        writer = csv.DictWriter(f, fieldnames=FIELDS)
        writer.writeheader()
        writer.writerows(table)
    graph = KnowledgeGraph.open(backend=backend)  # type: ignore[arg-type]
    graph.load(folder, shacl=False)
    return graph


@pytest.mark.slow
@settings(max_examples=60, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(table=inventories(), question=conditions(), backend=st.sampled_from(["oxigraph", "rdflib"]))
def test_random_inventories_match_a_plain_python_filter(
    table: list[dict[str, str]], question: tuple[str, list[Cond]], backend: str
) -> None:
    text, conds = question
    with tempfile.TemporaryDirectory() as tmp:
        graph = load_inventory(table, Path(tmp), backend)
        try:
            result = graph.ask(text).to_json()
        finally:
            graph.close()
    assert schema_errors(result, "page_filter_result") == []
    assert result["status"] == "ran", (text, result)
    assert {m["url"] for m in result["matched"]} == expected_urls(table, conds), (text, result["parsed_filter"])
    assert result["count"] == len(result["matched"])


@settings(max_examples=40, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(question=conditions())
def test_generated_questions_on_the_example_inventory(
    kg: KnowledgeGraph, rows: list[dict[str, str]], question: tuple[str, list[Cond]]
) -> None:
    text, conds = question
    check_answer(kg.ask(text).to_json(), rows, conds)


@settings(max_examples=150, deadline=None)
@given(text=st.text(min_size=1, max_size=200))
def test_any_text_gives_a_valid_answer_or_an_input_error(kg: KnowledgeGraph, text: str) -> None:
    try:
        result = kg.ask(text).to_json()
    except InputError:
        return
    assert schema_errors(result, "page_filter_result") == []
    assert result["question"] == text
    if result["status"] != "ran":
        assert result["matched"] == [] and result["count"] is None and result["parsed_filter"] is None
    else:
        assert result["count"] == len(result["matched"])


@pytest.mark.parametrize(
    "question",
    [
        "<script>alert(1)</script> 노출 <b>alert(2)</b> 클릭 페이지",
        "노출이 alert(1000) 인 페이지",
        "console.log(0) 클릭 페이지",
    ],
)
def test_numbers_inside_pasted_code_are_not_filter_values(kg: KnowledgeGraph, question: str) -> None:
    result = kg.ask(question).to_json()
    assert result["status"] != "ran" and result["matched"] == [] and result["count"] is None


def test_a_date_word_the_prefix_table_reads_as_equality_is_not_a_crash(kg: KnowledgeGraph) -> None:
    """'on <date>' is read by a pattern without a '!=' group; it once raised IndexError from the reader."""
    answer = kg.ask("pages updated on 2026-10-20", domain="pages").to_json()
    assert answer["status"] == "ran"
    assert answer["parsed_filter"] == "updated_at = 2026-10-20"


_SAME_QUESTION = [
    ("노출 1000 이상이고 클릭 0인 페이지", "pages with at least 1000 impressions and 0 clicks"),
    ("클릭이 많은 페이지", "pages with a lot of clicks"),
    ("작년에 게시된 페이지", "pages published last year"),
    ("블로그 글 중 노출 100 이상", "blog posts with at least 100 impressions"),
    ("노출이 많은 페이지 또는 클릭이 많은 페이지", "pages with many impressions or many clicks"),
    ("매출이 높은 페이지", "pages with high revenue"),
]


@pytest.mark.parametrize(("korean", "english"), _SAME_QUESTION)
def test_an_english_question_is_answered_and_refused_in_english(kg: KnowledgeGraph, korean: str, english: str) -> None:
    """The hedge is written in the question's language from the message catalogue; the filter, the rows and the
    status are the same whatever the language, and columns are named by their label in that language."""
    ko = kg.ask(korean).to_json()
    en = kg.ask(english).to_json()
    assert {k: v for k, v in ko.items() if k not in ("question", "hedge")} == {
        k: v for k, v in en.items() if k not in ("question", "hedge")
    }
    # words quoted back from the question are the question's, not the reply's
    assert not re.search(r"[가-힣]", re.sub(r"'[^']*'", "", en["hedge"])), en["hedge"]
    assert re.search(r"[가-힣]", re.sub(r"'[^']*'", "", ko["hedge"])), ko["hedge"]
    if "impressions_30d" in ko["hedge"]:  # a column list: Korean labels for Korean, English ones for English
        assert "노출(impressions_30d)" in ko["hedge"] and "impressions (impressions_30d)" in en["hedge"]
