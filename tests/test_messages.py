"""The message catalogue: every code in both languages with the same facts, every code the package names is
there, and the particles agree with the word before them."""

from __future__ import annotations

import ast
import re
from pathlib import Path

import pytest
from hypothesis import given
from hypothesis import strategies as st

from ont_platform.messages import LANGS, catalogue, fields_of, lang_of, say
from ont_platform.messages.particles import attach, glued, has_batchim

PACKAGE = Path(__file__).resolve().parent.parent / "ont_platform"


def _codes_named_in_code() -> set[str]:
    """Every literal first argument of ``say(...)`` and ``Misread(...)`` in the package."""
    found = set()
    for path in PACKAGE.rglob("*.py"):
        for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
            if (
                isinstance(node, ast.Call)
                and isinstance(node.func, ast.Name)
                and node.func.id in ("say", "Misread")
                and node.args
                and isinstance(node.args[0], ast.Constant)
                and isinstance(node.args[0].value, str)
            ):
                found.add(node.args[0].value)
    return found


def test_every_code_has_both_languages_with_the_same_fields() -> None:
    assert len(catalogue()) > 20
    for code, texts in catalogue().items():
        assert set(texts) == set(LANGS), code
        assert fields_of(texts["ko"]) == fields_of(texts["en"]), code
        assert texts["ko"] != texts["en"], code


def test_every_code_the_package_names_is_in_the_catalogue() -> None:
    named = _codes_named_in_code()
    assert named, "the scan found no say() call"
    assert sorted(named - set(catalogue())) == []


def test_english_texts_hold_no_hangul_and_korean_texts_do() -> None:
    for code, texts in catalogue().items():
        assert lang_of(texts["en"]) == "en", code
        if re.sub(r"\{[^}]*\}", "", texts["ko"]).strip(" ().;,"):  # a text of fields and marks only has no words
            assert lang_of(texts["ko"]) == "ko", code


def test_a_missing_field_is_a_programming_error() -> None:
    with pytest.raises(KeyError):
        say("entities.missing_start", "en")


@pytest.mark.parametrize(
    ("word", "particle", "expected"),
    [
        ("홍길동", "은", "홍길동은"),
        ("에이크미", "은", "에이크미는"),
        ("에이크미", "가", "에이크미가"),
        ("서울", "을", "서울을"),
        ("서울", "로", "서울로"),  # ㄹ batchim takes 로
        ("회사", "로", "회사로"),
        ("부산", "로", "부산으로"),
        ("n_d4", "은", "n_d4 은"),
        ("locatedIn", "로", "locatedIn 으로"),
        ("worksFor", "로", "worksFor 로"),
    ],
)
def test_particles_agree_with_the_word_before_them(word: str, particle: str, expected: str) -> None:
    assert attach(word, particle) == expected
    assert say("entities.hop", "ko", src=word, rel="r", way="", dst="x").startswith(attach(word, "이"))


@given(st.from_regex(r"[가-힣]{1,6}", fullmatch=True), st.sampled_from(["은", "이", "을", "과"]))
def test_either_form_of_a_particle_gives_the_same_text(word: str, particle: str) -> None:
    other = {"은": "는", "이": "가", "을": "를", "과": "와"}[particle]
    assert attach(word, particle) == attach(word, other)
    assert attach(word, particle).startswith(word) and has_batchim(word) is not None


@pytest.mark.parametrize(
    ("text", "particle", "expected"),
    [
        ("'10위'", "은", "'10위'는"),
        ("'1000'", "은", "'1000'은"),
        ("'회사'", "은", "'회사'는"),
        ("'CTR'", "이", "'CTR'이"),  # a Latin word takes the form with batchim, glued on
        ("클릭(clicks_30d)", "이", "클릭(clicks_30d)이"),  # agrees with the label, not with the name
        ("회사(c_1)", "이", "회사(c_1)가"),
        ("'a', '회사' …", "을", "'a', '회사' …를"),  # the last word shown before the ellipsis
    ],
)
def test_a_glued_particle_agrees_with_the_quoted_or_named_word(text: str, particle: str, expected: str) -> None:
    assert glued(text, particle) == expected
    assert say("pages.bare_column", "ko", col=text, label="x", example="y").startswith(glued(text, "은") + " ")


@given(st.from_regex(r"[가-힣]{1,6}", fullmatch=True), st.sampled_from(["은", "이", "을", "과"]))
def test_a_glued_particle_is_the_attached_one_without_a_space(word: str, particle: str) -> None:
    attached = attach(word, particle)
    assert glued(f"'{word}'", particle) == f"'{word}'" + attached[len(word) :]
    assert glued(f"{word}(n_1)", particle) == f"{word}(n_1)" + attached[len(word) :]


_SENTENCE_END = re.compile(r"[가-힣](?:다|요)\.")
"""The end of a Korean statement (…습니다. …주세요.): what a message says. Questions are what users type (an
API example), and word lists and patterns for reading questions end no sentence."""


def _korean_sentences_in_code(folder: Path) -> list[str]:
    """String constants (f-string parts too) other than docstrings under ``folder`` that end a Korean sentence."""
    found = []
    for path in sorted(folder.rglob("*.py")):
        tree = ast.parse(path.read_text(encoding="utf-8"))
        docs = {
            id(node.value)
            for node in ast.walk(tree)
            if isinstance(node, ast.Expr) and isinstance(node.value, ast.Constant)  # docstrings, attribute docs
        }
        found += [
            f"{path.relative_to(folder)}:{node.lineno}"
            for node in ast.walk(tree)
            if isinstance(node, ast.Constant)
            and isinstance(node.value, str)
            and id(node) not in docs
            and _SENTENCE_END.search(node.value)
        ]
    return found


@pytest.mark.parametrize("area", ["qa", "cli", "service", "answer", "verify"])
def test_no_korean_sentence_is_written_in_code(area: str) -> None:
    """Every text a person reads comes from the catalogue in the question's language, so the answerers, the
    command line, the service and the verifier write no Korean sentence of their own."""
    assert _korean_sentences_in_code(PACKAGE / area) == []


def test_a_korean_sentence_in_code_is_found(tmp_path: Path) -> None:
    (tmp_path / "m.py").write_text(
        '"""모듈 설명입니다."""\n'
        'X = f"{1}번 노드가 없습니다. 다시 물어 주세요."\n'
        'Y = r"(?:이야|입니까|예요)"\n'
        'Z = "n_a1 에서 자금이 닿나요?"\n',
        encoding="utf-8",
    )
    assert _korean_sentences_in_code(tmp_path) == ["m.py:2"]
