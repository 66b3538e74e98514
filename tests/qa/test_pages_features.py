"""Page questions over an inventory with every kind of column: predicate rows picked by the column they modify,
rank-like columns, boolean and text columns, date thresholds relative to ``as_of``, in Korean and English.

The inventory is the example one with three columns added (``avg_position`` as a ``rank``, ``indexable`` as a
``boolean``, ``title`` as ``text``) and a predicate dictionary with one phrase on two columns. Every expected URL
set is computed here by filtering the CSV in plain Python, never copied from the answer.
"""

from __future__ import annotations

import copy
import csv
import dataclasses
from collections.abc import Iterator
from datetime import date, timedelta
from decimal import Decimal
from pathlib import Path

import pytest
from rdflib import Literal
from rdflib.namespace import XSD

from ont_platform import KnowledgeGraph
from ont_platform.answer.contracts import schema_errors
from ont_platform.errors import QueryRefused
from ont_platform.namespaces import PG
from ont_platform.qa.pages.reader import read_question
from ont_platform.qa.pages.vocabulary import dataset_vocabulary
from ont_platform.sparql import pages as sparql_pages
from ont_platform.verify import Verifier

ROOT = Path(__file__).resolve().parents[2]
EXAMPLE = ROOT / "examples" / "pages"
AS_OF = date(2026, 10, 31)

IMP, CLK, CTR, SES, BOUNCE, PUB, UPD = (
    "impressions_30d",
    "clicks_30d",
    "ctr_30d",
    "sessions_30d",
    "bounce_rate_30d",
    "published_at",
    "updated_at",
)
POS, IDX, TITLE = "avg_position", "indexable", "title"
TYPES = {
    IMP: "integer",
    CLK: "integer",
    SES: "integer",
    CTR: "decimal",
    BOUNCE: "decimal",
    PUB: "date",
    UPD: "date",
    POS: "decimal",
    IDX: "boolean",
    TITLE: "text",
}
TITLES = [
    "여름 세일 모음",
    "Winter Sale: 코트",
    "니트 관리법",
    "신상 가방",
    "SALE 50%",
    "배송 안내",
    "반품, 교환 안내",
    "It's a sale",
    "블로그 홈",
    "Size chart",
    "경로 C:\\temp 안내",
    "AND clicks_30d = 5",
]
COLUMNS_CSV = """column,label_ko,aliases,type
bounce_rate_30d,이탈률,이탈율|바운스율|bounce rate,decimal
avg_position,평균 순위,순위|검색 순위|게재 순위|average position|position|ranking,rank
indexable,색인 가능,색인|인덱싱|indexable|indexed,boolean
title,제목,페이지 제목|title|titles|page title,text
"""
PREDICATES_CSV = """phrase,op,value,applies_to
거의 없는,<=,10,
이탈이 심한,>=,0.7,bounce_rate_30d
높은,>=,0.05,ctr_30d
높은,>=,5000,impressions_30d
high,>=,0.05,ctr_30d
오래된,older_than_days,365,updated_at
old,older_than_days,365,updated_at
noindex,=,false,indexable
상위권,<=,10,avg_position
"""


def feature_rows() -> list[dict[str, str]]:
    """The example inventory with the three added columns, filled deterministically (some cells empty)."""
    with (EXAMPLE / "pages.csv").open(encoding="utf-8", newline="") as f:
        rows = list(csv.DictReader(f))
    for i, r in enumerate(rows):
        r[POS] = "" if i % 9 == 4 else f"{(i * 7) % 40 + 1}.{i % 10}"
        r[IDX] = "" if i % 11 == 3 else ("false" if i % 3 == 0 else "TRUE" if i % 5 == 0 else "true")
        r[TITLE] = "" if i % 13 == 5 else TITLES[i % len(TITLES)]
    return rows


def write_inventory(
    folder: Path,
    rows: list[dict[str, str]],
    columns: str = COLUMNS_CSV,
    predicates: str = PREDICATES_CSV,
    as_of: date | None = AS_OF,
) -> Path:
    with (folder / "pages.csv").open("w", encoding="utf-8", newline="") as f:
        writer = csv.DictWriter(f, fieldnames=list(rows[0]))
        writer.writeheader()
        writer.writerows(rows)
    (folder / "columns.csv").write_text(columns, encoding="utf-8")
    (folder / "predicates.csv").write_text(predicates, encoding="utf-8")
    if as_of is not None:
        (folder / "meta.json").write_text(f'{{"as_of": "{as_of.isoformat()}"}}', encoding="utf-8")
    return folder


@pytest.fixture(scope="module")
def rows() -> list[dict[str, str]]:
    return feature_rows()


@pytest.fixture(scope="module")
def fkg(tmp_path_factory: pytest.TempPathFactory, rows: list[dict[str, str]]) -> Iterator[KnowledgeGraph]:
    folder = write_inventory(tmp_path_factory.mktemp("features"), rows)
    graph = KnowledgeGraph.open()
    graph.load(folder)
    yield graph
    graph.close()


# --- plain-Python filtering ----------------------------------------------------------------------------------

Cond = tuple[str, str, str]


def quoted(text: str) -> str:
    return "'" + text.replace("\\", "\\\\").replace("'", "\\'") + "'"


def holds(row: dict[str, str], cond: Cond) -> bool:
    column, op, raw = cond
    cell = (row.get(column) or "").strip()
    if not cell:
        return False  # an empty cell matches nothing
    kind = TYPES[column]
    if kind == "text":
        inside = raw.lower() in cell.lower()
        return inside if op == "contains" else not inside
    if kind == "boolean":
        return (cell.lower() == raw) == (op == "=")
    a: Decimal | date = date.fromisoformat(cell) if kind == "date" else Decimal(cell)
    b: Decimal | date = date.fromisoformat(raw) if kind == "date" else Decimal(raw)
    return {"=": a == b, "!=": a != b, "<": a < b, "<=": a <= b, ">": a > b, ">=": a >= b}[op]  # type: ignore[operator]


def expected_urls(table: list[dict[str, str]], conds: list[Cond]) -> set[str]:
    return {r["url"] for r in table if all(holds(r, c) for c in conds)}


def canonical(column: str, cell: str) -> str:
    kind = TYPES[column]
    if kind == "text":
        return quoted(cell)
    if kind == "boolean":
        return cell.lower()
    if kind == "date":
        return cell
    d = Decimal(cell)
    return str(int(d)) if d == d.to_integral_value() else format(d.normalize(), "f")


def shown(column: str, value: str) -> str:
    return quoted(value) if TYPES[column] == "text" else value


def check_answer(result: dict[str, object], table: list[dict[str, str]], conds: list[Cond]) -> None:
    """A ran answer: the filter text, the columns, the URL set and every evidence value against the CSV."""
    assert schema_errors(result, "page_filter_result") == []
    assert result["status"] == "ran", result
    assert result["parsed_filter"] == " AND ".join(f"{c} {op} {shown(c, v)}" for c, op, v in conds)
    used = list(dict.fromkeys(c for c, _, _ in conds))
    assert result["columns_used"] == used
    matched = result["matched"]
    assert isinstance(matched, list)
    assert {m["url"] for m in matched} == expected_urls(table, conds)
    assert result["count"] == len(matched)
    by_url = {r["url"]: r for r in table}
    for m in matched:
        assert m["evidence"] == ", ".join(f"{c}={canonical(c, by_url[m['url']][c])}" for c in used)


def check_refusal(result: dict[str, object], status: str) -> None:
    assert schema_errors(result, "page_filter_result") == []
    assert result["status"] == status, result
    assert result["parsed_filter"] is None and result["columns_used"] == []
    assert result["matched"] == [] and result["count"] is None


YEAR_AGO = (AS_OF - timedelta(days=365)).isoformat()

FEATURES: list[tuple[str, list[Cond]]] = [
    # 1. one phrase, several rows: the column the phrase modifies picks the row
    ("클릭률이 높은 페이지", [(CTR, ">=", "0.05")]),
    ("노출이 높은 페이지", [(IMP, ">=", "5000")]),
    ("클릭이 높은 페이지", [(CLK, ">=", "1000")]),  # no row for clicks: the built-in row for any count column
    ("노출은 높은데 클릭률은 높지 않은 페이지", [(IMP, ">=", "5000"), (CTR, "<", "0.05")]),
    ("높은 클릭률의 페이지", [(CTR, ">=", "0.05")]),
    ("pages with high ctr", [(CTR, ">=", "0.05")]),
    ("pages with high impressions", [(IMP, ">=", "1000")]),  # 'high' has a dataset row for ctr only
    ("이탈이 심하고 클릭이 하나도 없는 페이지", [(BOUNCE, ">=", "0.7"), (CLK, "=", "0")]),
    # 2. ranks: a smaller number is a higher rank
    ("순위가 10위 이내인 페이지", [(POS, "<=", "10")]),
    ("검색 순위가 10위 밖인 페이지", [(POS, ">", "10")]),
    ("10위 밖으로 밀린 페이지", [(POS, ">", "10")]),
    ("순위 20위 아래로 떨어진 페이지", [(POS, ">", "20")]),
    ("5위 이하로 밀린 페이지", [(POS, ">", "5")]),
    ("상위 5위 안에 드는 페이지", [(POS, "<=", "5")]),
    ("순위가 10위까지인 페이지", [(POS, "<=", "10")]),
    ("순위가 10위보다 높은 페이지", [(POS, "<", "10")]),
    ("평균 순위 3.5 이하", [(POS, "<=", "3.5")]),  # a plain number on a rank column is its value
    ("순위가 상위권인 페이지", [(POS, "<=", "10")]),
    ("순위 5위 이내이고 노출 1000 이상", [(POS, "<=", "5"), (IMP, ">=", "1000")]),
    ("pages ranked within the top 10", [(POS, "<=", "10")]),
    ("pages ranked outside the top 20", [(POS, ">", "20")]),
    ("pages that rank in the top 3 with more than 1000 impressions", [(POS, "<=", "3"), (IMP, ">", "1000")]),
    ("pages with average position worse than 10", [(POS, ">", "10")]),
    ("position 10th or worse", [(POS, ">=", "10")]),
    ("average position below 5", [(POS, "<", "5")]),
    # 3. numbers go to the column they modify, Korean number words included
    ("노출 1000 이상이고 클릭 5 미만", [(IMP, ">=", "1000"), (CLK, "<", "5")]),
    ("노출 5천 이상 클릭 천 회 이하", [(IMP, ">=", "5000"), (CLK, "<=", "1000")]),
    ("1만 회 넘게 노출됐지만 클릭은 5번 미만인 페이지", [(IMP, ">", "10000"), (CLK, "<", "5")]),
    # 4. boolean and text columns
    ("색인되지 않은 페이지", [(IDX, "=", "false")]),
    ("색인 안 된 페이지", [(IDX, "=", "false")]),
    ("색인된 페이지", [(IDX, "=", "true")]),
    ("순위 5위 안 색인된 페이지", [(POS, "<=", "5"), (IDX, "=", "true")]),  # 안 closes the rank, negates nothing
    ("미색인 페이지", [(IDX, "=", "false")]),
    ("noindex 페이지", [(IDX, "=", "false")]),
    ("indexable 이 false 인 페이지", [(IDX, "=", "false")]),
    ("indexable = true 이고 클릭 0", [(IDX, "=", "true"), (CLK, "=", "0")]),
    ("not indexable", [(IDX, "=", "false")]),
    ("pages that are not indexable", [(IDX, "=", "false")]),
    ("non-indexable pages", [(IDX, "=", "false")]),
    ("indexable pages", [(IDX, "=", "true")]),
    ("제목에 '세일'이 들어간 페이지", [(TITLE, "contains", "세일")]),
    ("제목에 세일이 들어간 페이지", [(TITLE, "contains", "세일")]),
    ("제목에 세일이 안 들어간 페이지", [(TITLE, "not_contains", "세일")]),
    ("제목에 '반품, 교환'이 포함된 페이지", [(TITLE, "contains", "반품, 교환")]),
    ("title contains sale", [(TITLE, "contains", "sale")]),
    ('pages whose title contains "it\'s"', [(TITLE, "contains", "it's")]),
    ("pages with 'sale' in the title", [(TITLE, "contains", "sale")]),
    ("title doesn't contain sale", [(TITLE, "not_contains", "sale")]),
    ("title contains 'AND clicks_30d = 5'", [(TITLE, "contains", "AND clicks_30d = 5")]),
    ("title contains 'c:\\temp'", [(TITLE, "contains", "c:\\temp")]),
    (
        "노출 1000 이상이고 제목에 sale 포함되고 색인된 페이지",
        [(IMP, ">=", "1000"), (TITLE, "contains", "sale"), (IDX, "=", "true")],
    ),
    ("titles containing '2025' and not indexable", [(TITLE, "contains", "2025"), (IDX, "=", "false")]),
    # 5. date thresholds relative to as_of
    ("오래된 페이지", [(UPD, "<", YEAR_AGO)]),
    ("오래되지 않은 페이지", [(UPD, ">=", YEAR_AGO)]),
    ("old pages", [(UPD, "<", YEAR_AGO)]),
    ("오래된 페이지 중 클릭이 없는 것", [(UPD, "<", YEAR_AGO), (CLK, "=", "0")]),
    ("not updated in over a year", [(UPD, "<", YEAR_AGO)]),
    ("pages not updated for more than 6 months", [(UPD, "<", "2026-04-30")]),
    ("1년 넘게 업데이트 안 된 글", [(UPD, "<", YEAR_AGO)]),
]

REFUSED: list[tuple[str, str, tuple[str, ...]]] = [
    ("높은 페이지", "clarify", ("ctr_30d", "impressions_30d")),  # two rows, no column named: never a guess
    ("순위가 높은 페이지", "clarify", ("순위 컬럼",)),  # a rank takes only rows that name it
    ("제목", "clarify", ("title",)),
    ("색인 여부", "clarify", ("indexable",)),
    ("상위 10 페이지", "unsupported", ("상위",)),  # an ordering, not a filter
    ("top 10 pages by clicks", "unsupported", ("top",)),
    ("클릭 상위 10위", "clarify", ("clicks_30d",)),
    ("제목에 세일이 들어간 블로그 글", "clarify", ("'블로그'",)),
]


@pytest.mark.parametrize(("question", "conds"), FEATURES, ids=[f"feature-{i}" for i in range(len(FEATURES))])
def test_feature_questions_run_the_intended_filter(
    fkg: KnowledgeGraph, rows: list[dict[str, str]], question: str, conds: list[Cond]
) -> None:
    check_answer(fkg.ask(question).to_json(), rows, conds)


@pytest.mark.parametrize(("question", "status", "words"), REFUSED, ids=[f"refused-{i}" for i in range(len(REFUSED))])
def test_feature_questions_are_refused_with_a_reason(
    fkg: KnowledgeGraph, question: str, status: str, words: tuple[str, ...]
) -> None:
    result = fkg.ask(question).to_json()
    check_refusal(result, status)
    for word in words:
        assert word in result["hedge"], result["hedge"]


def test_every_feature_answer_passes_the_verifier(fkg: KnowledgeGraph) -> None:
    verifier = Verifier(fkg)
    try:
        for question, _ in FEATURES:
            answer = fkg.ask(question).to_json()
            report = verifier.verify(answer, question=question)
            assert report.ok, (question, [f"{f.check}: {f.detail}" for f in report.failures])
    finally:
        verifier.close()


@pytest.mark.parametrize(
    ("question", "replace", "check"),
    [
        ("제목에 '세일'이 들어간 페이지", ("'세일'", "'코트'"), "urls"),
        ("제목에 '세일'이 들어간 페이지", ("contains", "not_contains"), "urls"),
        ("색인되지 않은 페이지", ("false", "true"), "urls"),
        ("색인되지 않은 페이지", ("=", ">"), "filter"),
        ("title contains sale", ("contains", ">="), "filter"),
        ("순위가 10위 이내인 페이지", ("<= 10", "<= 12"), "filter"),
    ],
)
def test_the_verifier_catches_a_changed_filter(
    fkg: KnowledgeGraph, question: str, replace: tuple[str, str], check: str
) -> None:
    answer = fkg.ask(question).to_json()
    answer["parsed_filter"] = answer["parsed_filter"].replace(*replace)
    verifier = Verifier(fkg)
    try:
        report = verifier.verify(answer, question=question)
    finally:
        verifier.close()
    assert not report.ok and check in report.checks_failed(), [f"{f.check}: {f.detail}" for f in report.failures]


def test_the_verifier_reads_quoted_evidence(fkg: KnowledgeGraph) -> None:
    answer = fkg.ask("제목에 '반품, 교환'이 포함된 페이지").to_json()
    assert answer["count"] and {m["evidence"] for m in answer["matched"]} == {"title='반품, 교환 안내'"}
    answer["matched"][0]["evidence"] = "title='반품'"
    verifier = Verifier(fkg)
    try:
        report = verifier.verify(answer, question="제목에 '반품, 교환'이 포함된 페이지")
    finally:
        verifier.close()
    assert "evidence" in report.checks_failed()


def test_hedges_name_the_row_and_the_reference_date(fkg: KnowledgeGraph) -> None:
    ctr = fkg.ask("클릭률이 높은 페이지").to_json()["hedge"]
    assert "predicates.csv" in ctr and "0.05" in ctr
    old = fkg.ask("오래된 페이지").to_json()["hedge"]
    assert "365" in old and YEAR_AGO in old and AS_OF.isoformat() in old
    noindex = fkg.ask("noindex 페이지").to_json()["hedge"]
    assert "indexable = false" in noindex


def test_rows_that_disagree_on_one_column_are_asked_back(tmp_path: Path, rows: list[dict[str, str]]) -> None:
    preds = PREDICATES_CSV + "쏠쏠한,>=,100,clicks_30d\n쏠쏠한,>=,500,clicks_30d\n쏠쏠한,>=,5000,impressions_30d\n"
    with KnowledgeGraph.open() as graph:
        graph.load(write_inventory(tmp_path, rows, predicates=preds))
        result = graph.ask("클릭이 쏠쏠한 페이지").to_json()
        check_refusal(result, "clarify")
        assert ">= 100" in result["hedge"] and ">= 500" in result["hedge"]
        check_answer(graph.ask("노출이 쏠쏠한 페이지").to_json(), rows, [(IMP, ">=", "5000")])


# --- rank-like comes from the definition, not from the name ----------------------------------------------------


def test_rank_is_the_columns_type_not_its_name(tmp_path: Path, rows: list[dict[str, str]]) -> None:
    renamed = [{("serp_slot" if k == POS else k): v for k, v in r.items()} for r in rows]
    as_rank = COLUMNS_CSV.replace(
        "avg_position,평균 순위,순위|검색 순위|게재 순위|average position|position|ranking,rank",
        "serp_slot,게재 위치,slot,rank",
    )
    (tmp_path / "a").mkdir()
    with KnowledgeGraph.open() as graph:
        graph.load(write_inventory(tmp_path / "a", renamed, columns=as_rank, predicates="phrase,op,value,applies_to\n"))
        result = graph.ask("게재 위치가 10위 이내").to_json()
        assert result["parsed_filter"] == "serp_slot <= 10"
        assert {m["url"] for m in result["matched"]} == {r["url"] for r in rows if r[POS] and Decimal(r[POS]) <= 10}
    as_decimal = COLUMNS_CSV.replace("position|ranking,rank", "position|ranking,decimal")
    (tmp_path / "b").mkdir()
    with KnowledgeGraph.open() as graph:
        graph.load(write_inventory(tmp_path / "b", rows, columns=as_decimal, predicates="phrase,op,value,applies_to\n"))
        result = graph.ask("평균 순위가 10위 이내").to_json()
        assert result["status"] == "clarify"  # '위' is not read as a rank on a plain decimal column
        assert graph.ask("평균 순위 10 이하").to_json()["parsed_filter"] == "avg_position <= 10"


def test_a_builtin_column_is_rank_like_through_the_ontology(fkg: KnowledgeGraph) -> None:
    ctx = fkg._context("pages")
    graph = copy.deepcopy(ctx.onto.graph)
    graph.add((PG.sessions_30d, PG.rankLike, Literal("true", datatype=XSD.boolean)))
    other = dataclasses.replace(
        ctx, onto=dataclasses.replace(ctx.onto, graph=graph), cache={}, lexicon=copy.deepcopy(ctx.lexicon)
    )
    assert dataset_vocabulary(other).columns[SES].rank
    assert not dataset_vocabulary(ctx).columns[SES].rank
    read = read_question(other, "세션 3위 이내")
    assert [(c.column, c.op, str(c.value)) for c in read.conditions] == [(SES, "<=", "3")]
    assert read_question(ctx, "세션 3위 이내").status != "ran"


# --- the query builder --------------------------------------------------------------------------------------


def test_text_and_boolean_comparisons_are_escaped_literals() -> None:
    hostile = "'\" } ; DROP ALL ; { \\"
    text = sparql_pages.filter_pages([PG.title], [sparql_pages.Comparison(0, "contains", hostile, "string")], limit=5)
    assert 'FILTER(CONTAINS(LCASE(STR(?v0)), "\'\\" } ; drop all ; { \\\\"))' in text
    negated = sparql_pages.filter_pages(
        [PG.title], [sparql_pages.Comparison(0, "not_contains", "A", "string")], limit=5
    )
    assert 'FILTER(!CONTAINS(LCASE(STR(?v0)), "a"))' in negated
    flag = sparql_pages.filter_pages([PG.indexable], [sparql_pages.Comparison(0, "=", "false", "boolean")], limit=5)
    assert 'FILTER(?v0 = "false"^^<http://www.w3.org/2001/XMLSchema#boolean>)' in flag
    for op, value, datatype in (
        (">=", "x", "string"),
        ("contains", "1", "integer"),
        ("<", "true", "boolean"),
        ("=", "maybe", "boolean"),
    ):
        bad = sparql_pages.Comparison(0, op, value, datatype)
        with pytest.raises(QueryRefused):
            sparql_pages.filter_pages([PG.title], [bad], limit=5)
