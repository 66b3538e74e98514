"""The analyser's fast path for text without Hangul (ont_platform/qa/latin.py) against Kiwi itself.

Wherever the fast path answers, its morphemes must be exactly Kiwi's (forms, tags, spans), with or without typo
correction: generated texts of words, numbers, punctuation, ids, hex strings, URLs and e-mail addresses, and every
Hangul-free question of the repository's question files. Where it declines, Kiwi answers as before.
"""

from __future__ import annotations

import json
import re
from pathlib import Path

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

import ont_platform.qa.context as context_module
from ont_platform import KnowledgeGraph
from ont_platform.qa import latin
from ont_platform.qa.analyzer import HANGUL, analyzer, morphs, needs_analyser
from ont_platform.qa.context import build_context
from ont_platform.qa.lexicon import Lexicon

ROOT = Path(__file__).resolve().parents[2]
QUESTION_FILES = [
    *sorted(ROOT.glob("examples/*/questions*.jsonl")),
    *sorted((ROOT / "tests" / "qa" / "corpus").glob("*.jsonl")),
    ROOT / "benchmarks" / "heldout" / "questions.jsonl",
    *(ROOT / "benchmarks" / f"heldout{n}" / "questions.jsonl" for n in range(2, 9)),
    ROOT / "benchmarks" / "heldout_films" / "questions.jsonl",
]
"""The question files the fast path is checked on (the held-out sets 9, 10, lubm, schema and literals are not
read)."""

_CJK = re.compile(r"[\u2e80-\u9fff\uf900-\ufaff\uff00-\uffef]")


def _hangul_free_questions() -> list[str]:
    found = set()
    for path in QUESTION_FILES:
        for line in path.read_text("utf-8").splitlines():
            question = json.loads(line).get("question") if line.strip() else None
            if isinstance(question, str) and not HANGUL.search(question) and not _CJK.search(question):
                found.add(question)
    return sorted(found)


def _same_as_kiwi(text: str) -> bool:
    """Whether the fast path answers for ``text``; when it does, its morphemes must be Kiwi's."""
    if needs_analyser(text):
        return False
    for typos in (True, False):
        assert morphs(text, typos=typos) == morphs(text, typos=typos, kiwi=True), text
    return True


def _kiwi_tokens(text: str) -> list[tuple[str, str, int, int]]:
    return [(t.form, str(t.tag), t.start, t.len) for t in analyzer().tokenize(text, typos="basic")]


def test_every_hangul_free_question_of_the_question_files_is_read_as_kiwi_reads_it() -> None:
    questions = _hangul_free_questions()
    answered = [q for q in questions if _same_as_kiwi(q)]
    assert len(questions) > 700
    # the share the fast path answers (716 of 814 when written): apostrophes and periods inside a text are Kiwi's
    assert len(answered) / len(questions) > 0.85


_WORDS = st.sampled_from(
    ["acme", "Acme", "Corp", "Inc", "e", "g", "U", "S", "the", "city", "Who", "located", "founded", "countries",
     "iPhone", "McDonald", "café", "Ünï", "ß", "DELTA", "Whowhat", "LongMixedCaseWordHere", "Z", "x", "s", "I"]
)  # fmt: skip
_PIECES = st.one_of(
    _WORDS,
    st.text(st.characters(min_codepoint=0x41, max_codepoint=0x7A, categories=["Lu", "Ll"]), min_size=1, max_size=14),
    st.text(st.characters(min_codepoint=0xC0, max_codepoint=0xFF), min_size=1, max_size=4),
    st.integers(0, 10**9).map(str),
    st.sampled_from(["1,234", "1,234.56", "3.14", "0.05", "1,00", "10,000", "2025-01-01", "12:30", "1/2", "007"]),
    st.sampled_from(["n_a1", "nd_12", "N_A1", "c_acme", "0xabcdef12", "0x" + "5" * 40, "0xab", "n_", "_x"]),
    st.sampled_from(["http://example.com/a?b=1", "www.example.com", "foo@bar.com", "#tag", "@user", "e.g.", "U.S.A."]),
    st.sampled_from(list("?!.,;:'\"%-()[]{}<>$+&*=/_~^`|\\#@") + ["—", "–", "→", "…", "...", "?!", "'s", "\t", "\n"]),
)


@settings(max_examples=400, deadline=None, derandomize=True, suppress_health_check=[HealthCheck.too_slow])
@given(st.lists(st.tuples(_PIECES, st.sampled_from(["", " ", " ", "  "])), min_size=1, max_size=12))
def test_generated_latin_texts_are_cut_as_kiwi_cuts_them(parts: list[tuple[str, str]]) -> None:
    text = "".join(piece + gap for piece, gap in parts)
    for candidate in (text, text.strip()):
        _same_as_kiwi(candidate)
        found = latin.tokens(candidate)
        if found is not None:
            assert found == _kiwi_tokens(candidate), candidate


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        ("Which city is Acme in?", [("Which", "SL"), ("city", "SL"), ("is", "SL"), ("Acme", "SL"), ("in", "SL"), ("?", "SF")]),
        ("It costs 1,234.56 dollars, 12% more", [("It", "SL"), ("costs", "SL"), ("1,234.56", "SN"), ("dollars", "SL"), (",", "SP"), ("12", "SN"), ("%", "SW"), ("more", "SL")]),
        ("List everyone at Acme.", [("List", "SL"), ("everyone", "SL"), ("at", "SL"), ("Acme.", "SL")]),
        ("Tell me about Station.", [("Tell", "SL"), ("me", "SL"), ("about", "SL"), ("St", "SL"), ("ation.", "SL")]),
        ("before 2025.", [("before", "SL"), ("2025.", "SN")]),
        ("(x) -- y", [("(", "SSO"), ("x", "SL"), (")", "SSC"), ("--", "SO"), ("y", "SL")]),
    ],
)  # fmt: skip
def test_known_cuts(text: str, expected: list[tuple[str, str]]) -> None:
    found = latin.tokens(text)
    assert found is not None and [(form, tag) for form, tag, _, _ in found] == expected
    assert found == _kiwi_tokens(text)


@pytest.mark.parametrize(
    "text",
    [
        "홍길동이 다니는 회사는?",  # Hangul
        "東京はどこ?",  # other scripts
        "Acme's city?",  # Kiwi reads an apostrophe as SS, SSO or SSC by its model
        "Who works at Beta Inc. now?",  # a period inside the text: Kiwi's model may split the word before it
        "Tell me about Acme. ",  # a final period followed by a space
        "pages published on 2025-01-01",  # a serial number
        'the "best" film',  # quotes are paired
        "#tag @user foo@bar.com http://x.org",  # pattern words
        "1) first",  # a list bullet
        "a\tb",  # whitespace other than spaces
    ],
)
def test_what_the_fast_path_declines(text: str) -> None:
    assert needs_analyser(text)


# --- the lexicon: labels only Kiwi reads wait, and the lexicon ends up the same --------------------------------


def _contents(lex: Lexicon) -> tuple[object, ...]:
    return (
        {k: v for k, v in lex.terms.items() if v},
        {k: v for k, v in lex.surface.items() if v},
        lex.surface_first,
        {k: v for k, v in lex.short.items() if v},
        lex.max_term,
        lex.display,
    )


@pytest.mark.parametrize(
    ("domain", "english", "korean"),
    [
        ("kg", "Which city is Acme in?", "홍길동이 다니는 회사는?"),
        ("films", "Who directed Winter Station?", "겨울 정거장의 감독은 누구야?"),
        ("onchain", "Can n_a1 reach an exchange within 3 hops?", "n_a1 에서 3-hop 안에 거래소 입금주소에 닿나요?"),
        ("pages", "top 5 pages by clicks", "클릭 많은 페이지 5개"),
    ],
)
def test_a_lexicon_read_lazily_equals_one_read_at_once(
    domain: str, english: str, korean: str, monkeypatch: pytest.MonkeyPatch
) -> None:
    with KnowledgeGraph.open() as kg:
        kg.load(ROOT / "examples" / domain, shacl=False)
        lazy = build_context(kg.store, kg.domain(domain), kg.limits).lexicon
        assert lazy._waiting  # every bundled ontology has Korean labels
        could_match_english = lazy._open  # a waiting label with more than Hangul (NFT 마켓, 30일 노출수)
        assert could_match_english == (domain in ("onchain", "pages"))
        lazy.find_terms(english)
        # labels of Hangul alone wait through an English question; the others are read for it
        assert lazy._waiting is not could_match_english
        lazy.find_terms(korean)
        assert not lazy._waiting
        monkeypatch.setattr(context_module, "Lexicon", lambda: Lexicon(_settled=True))
        eager = build_context(kg.store, kg.domain(domain), kg.limits).lexicon
        assert not eager._added and _contents(lazy) == _contents(eager)
