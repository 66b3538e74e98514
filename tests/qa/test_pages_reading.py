"""Properties of the page reading, over generated predicate tables and generated questions.

* A phrase with several rows takes the row of the column it modifies (a model of the rule, written here,
  decides what each random table should give, and the URL set is checked by filtering the CSV in Python).
* Numbers, ranks, true/false and text values go to the column they modify, in any mix.
* The reading accounts for the question: a content word no part of it explains makes the answer ``clarify``,
  naming the word; the page family's context words (``cues.json``) do not.
"""

from __future__ import annotations

import tempfile
from collections.abc import Iterator
from decimal import Decimal
from pathlib import Path

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from ont_platform import KnowledgeGraph
from ont_platform.qa.korean import josa
from ont_platform.qa.pages import account
from ont_platform.qa.pages.vocabulary import dataset_vocabulary
from tests.qa.test_pages_features import (
    CLK,
    CTR,
    IDX,
    IMP,
    POS,
    SES,
    TITLE,
    Cond,
    check_answer,
    check_refusal,
    feature_rows,
    write_inventory,
)

ROWS = feature_rows()
LABELS = {IMP: "노출", CLK: "클릭", SES: "세션", CTR: "클릭률", POS: "평균 순위"}
PHRASES = ["쏠쏠한", "미미한", "두둑한"]  # not in the built-in dictionary: only the generated rows define them
VALUES = {
    IMP: ["100", "1000", "5000"],
    CLK: ["0", "10", "300"],
    SES: ["50", "500"],
    CTR: ["0.01", "0.05"],
    POS: ["3", "10.5"],
    "": ["10", "100", "1000"],
}


@pytest.fixture(scope="module")
def fkg(tmp_path_factory: pytest.TempPathFactory) -> Iterator[KnowledgeGraph]:
    folder = write_inventory(tmp_path_factory.mktemp("reading"), ROWS)
    graph = KnowledgeGraph.open()
    graph.load(folder)
    yield graph
    graph.close()


def fmt(raw: str) -> str:
    d = Decimal(raw)
    return str(int(d)) if d == d.to_integral_value() else format(d.normalize(), "f")


# --- 1. rows of one phrase, picked by the column it modifies ---------------------------------------------------

Row = tuple[str, str, str, str]  # phrase, op, value, applies_to ('' for any column)


@st.composite
def tables(draw: st.DrawFn) -> list[Row]:
    rows = []
    phrases = draw(st.lists(st.sampled_from(PHRASES), min_size=1, max_size=2, unique=True))
    columns = draw(st.lists(st.sampled_from(["", IMP, CLK, SES, CTR, POS]), min_size=1, max_size=3, unique=True))
    for _ in range(draw(st.integers(min_value=1, max_value=5))):
        phrase = draw(st.sampled_from(phrases))
        applies = draw(st.sampled_from(columns))
        op = draw(st.sampled_from([">=", "<=", ">", "<", "="]))
        rows.append((phrase, op, draw(st.sampled_from(VALUES[applies])), applies))
    return rows


def expected(table: list[Row], phrase: str, column: str | None) -> Cond | None:
    """What the rule gives: the row for the column the phrase modifies, or None for 'ask back'."""
    mine = [r for r in table if r[0] == phrase]
    if column is None:  # no column named: only a phrase all of whose rows name one column names it
        tied = {r[3] for r in mine}
        if len(tied) != 1 or "" in tied:
            return None
        column = tied.pop()
    for tier in ([r for r in mine if r[3] == column], [r for r in mine if r[3] == "" and column != POS]):
        distinct = {(op, Decimal(value)) for _, op, value, _ in tier}
        if len(distinct) == 1:
            op, value = distinct.pop()
            return column, op, fmt(str(value))
        if distinct:
            return None
    return None


@pytest.mark.slow
@settings(max_examples=60, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(table=tables(), data=st.data())
def test_a_phrase_takes_the_row_of_the_column_it_modifies(table: list[Row], data: st.DataObject) -> None:
    phrase = data.draw(st.sampled_from(sorted({r[0] for r in table}) + PHRASES[:1]))
    named = [r[3] for r in table if r[3]]  # the table's own columns, more often than the others
    column = data.draw(st.sampled_from([None, IMP, CLK, SES, CTR, POS, *named, *named]))
    csv_rows = "phrase,op,value,applies_to\n" + "".join(f"{p},{op},{v},{a}\n" for p, op, v, a in table)
    if column is None:
        question = f"{phrase} 페이지"
    else:
        question = f"{josa(LABELS[column], '이', '가')} {phrase} 페이지"
    want = expected(table, phrase, column)
    with tempfile.TemporaryDirectory() as tmp, KnowledgeGraph.open() as graph:
        graph.load(write_inventory(Path(tmp), ROWS, predicates=csv_rows), shacl=False)
        result = graph.ask(question).to_json()
    if want is None:
        check_refusal(result, "clarify")
    else:
        check_answer(result, ROWS, [want])


# --- 3. numbers, ranks, true/false and text go to the column they modify -----------------------------------------

KO_OPS = [
    ("이상", ">="),
    ("이하", "<="),
    ("미만", "<"),
    ("초과", ">"),
    ("넘는", ">"),
    ("보다 적은", "<"),
    ("안 되는", "<"),
]
EN_OPS = [("at least", ">="), ("more than", ">"), ("fewer than", "<"), ("at most", "<="), ("under", "<")]
KO_WORDS = {500: "오백", 1000: "천", 3000: "삼천", 10000: "만", 20000: "이만"}


def ko_number(n: int, draw: st.DrawFn) -> str:
    forms = [str(n), f"{n:,}"]
    if n in KO_WORDS:
        forms.append(KO_WORDS[n])
    if n and n % 1000 == 0:
        forms.append(f"{n // 1000}천")
    if n and n % 10000 == 0:
        forms.append(f"{n // 10000}만")
    return draw(st.sampled_from(forms)) + draw(st.sampled_from(["", "회", " 회"]))


@st.composite
def questions(draw: st.DrawFn) -> tuple[str, list[Cond]]:
    english = draw(st.booleans())
    kinds = draw(
        st.lists(st.sampled_from(["count", "count2", "rank", "flag", "text"]), min_size=1, max_size=3, unique=True)
    )
    parts, conds = [], []
    for kind in kinds:
        if kind in ("count", "count2"):
            column = {"count": IMP, "count2": CLK}[kind]
            n = draw(st.sampled_from([0, 5, 100, 500, 1000, 3000, 10000, 20000]))
            if english:
                word, op = draw(st.sampled_from(EN_OPS))
                parts.append(f"{word} {n} {'impressions' if column == IMP else 'clicks'}")
            else:
                word, op = draw(st.sampled_from(KO_OPS))
                parts.append(f"{LABELS[column]} {ko_number(n, draw)} {word}")
            conds.append((column, op, str(n)))
        elif kind == "rank":
            n = draw(st.integers(min_value=1, max_value=30))
            inside = draw(st.booleans())
            if english:
                parts.append(f"ranked {'within' if inside else 'outside'} the top {n}")
            else:
                parts.append(f"순위 {n}위 {draw(st.sampled_from(['이내', '안', '까지'])) if inside else '밖'}")
            conds.append((POS, "<=" if inside else ">", str(n)))
        elif kind == "flag":
            value = draw(st.booleans())
            if english:
                parts.append("indexable" if value else "not indexable")
            else:
                parts.append("색인된" if value else draw(st.sampled_from(["색인되지 않은", "색인 안 된"])))
            conds.append((IDX, "=", "true" if value else "false"))
        else:
            word = draw(st.sampled_from(["세일", "sale", "안내", "코트", "chart"]))
            parts.append(f"title contains '{word}'" if english else f"제목에 '{word}' 포함")
            conds.append((TITLE, "contains", word))
    joiner = " and " if english else draw(st.sampled_from([", ", " 그리고 ", " "]))
    return joiner.join(parts) + (" pages" if english else " 페이지"), conds


@settings(
    max_examples=100, deadline=None, suppress_health_check=[HealthCheck.too_slow, HealthCheck.function_scoped_fixture]
)
@given(question=questions())
def test_every_value_goes_to_the_column_it_modifies(fkg: KnowledgeGraph, question: tuple[str, list[Cond]]) -> None:
    text, conds = question
    check_answer(fkg.ask(text).to_json(), ROWS, conds)


# --- 6. the reading accounts for the question ------------------------------------------------------------------

UNREAD_KO = ["블로그", "모바일", "영어", "카테고리", "이미지", "쇼핑몰", "배너"]
UNREAD_EN = ["blog", "mobile", "category", "images", "banner"]
CONTEXT_KO = ["URL 목록 뽑아줘", "리스트 좀 알려주세요", "몇 개야?", "찾아 줄래요?"]


@settings(
    max_examples=50, deadline=None, suppress_health_check=[HealthCheck.too_slow, HealthCheck.function_scoped_fixture]
)
@given(question=questions(), data=st.data())
def test_a_word_nothing_explains_is_named_and_asked_back(
    fkg: KnowledgeGraph, question: tuple[str, list[Cond]], data: st.DataObject
) -> None:
    text, _ = question
    english = text.endswith(" pages")
    word = data.draw(st.sampled_from(UNREAD_EN if english else UNREAD_KO))
    at = data.draw(st.sampled_from(["start", "end"]))
    asked = (
        f"{word} {text}"
        if at == "start"
        else f"{text[: -len(' pages' if english else ' 페이지')]} {word} " + ("pages" if english else "페이지")
    )
    result = fkg.ask(asked).to_json()
    check_refusal(result, "clarify")
    assert f"'{word}'" in result["hedge"], (asked, result["hedge"])


@settings(
    max_examples=50, deadline=None, suppress_health_check=[HealthCheck.too_slow, HealthCheck.function_scoped_fixture]
)
@given(question=questions(), tail=st.sampled_from(CONTEXT_KO))
def test_the_page_familys_context_words_need_no_explaining(
    fkg: KnowledgeGraph, question: tuple[str, list[Cond]], tail: str
) -> None:
    text, conds = question
    if text.endswith(" pages"):
        text = text + " — list them"  # 'list' is a language-level filler
    else:
        text = f"{text} {tail}"
    check_answer(fkg.ask(text).to_json(), ROWS, conds)


@pytest.mark.parametrize(
    ("question", "words"),
    [
        ("세션이 50 미만인 블로그 글", ["블로그"]),
        ("노출 1000 이상 클릭 0 모바일 페이지", ["모바일"]),
        ("pages with zero clicks on mobile", ["mobile"]),
        ("노출 대비 클릭이 적은 페이지", ["대비"]),
    ],
)
def test_unexplained_words_are_named(fkg: KnowledgeGraph, question: str, words: list[str]) -> None:
    result = fkg.ask(question).to_json()
    check_refusal(result, "clarify")
    for w in words:
        assert f"'{w}'" in result["hedge"]


@pytest.mark.parametrize(
    "question",
    [
        "회의에서 얘기 나온 건데, 노출 1000 이상 클릭 0 페이지 알려줘",  # a clause with no part of the reading is context
        "안녕하세요. 노출 1000 이상 클릭 0 페이지 알려주세요.",
        "노출 1000 이상 클릭 0 페이지 URL 목록 뽑아줘",
        "<b>노출</b> 1000 이상 클릭 0",
        "방문자가 100명 미만인 페이지",  # '방문' at the start of '방문자' explains the word
    ],
)
def test_context_markup_and_word_starts_need_no_explaining(fkg: KnowledgeGraph, question: str) -> None:
    assert fkg.ask(question).to_json()["status"] == "ran"


def test_a_leftover_word_that_is_an_unsupported_concept_makes_it_unsupported(fkg: KnowledgeGraph) -> None:
    vocab = dataset_vocabulary(fkg._context("pages"))
    concept = account.unsupported_among(vocab, ["모바일", "전환율"])
    assert concept is not None and concept.label == "전환율"
    assert account.unsupported_among(vocab, ["모바일"]) is None
    # a column the dataset adds takes its concept's words away: 제목 is a column here, 본문 still is not
    assert account.unsupported_among(vocab, ["제목"]) is None
    body = account.unsupported_among(vocab, ["본문"])
    assert body is not None and body.label == "본문"


def test_the_cues_are_pages_words_in_the_cues_file() -> None:
    from ont_platform.qa.lexicon import cues

    context = cues()["inventory"]["context"]
    assert {"목록", "URL", "뽑", "몇 개"} <= set(context)
