"""The analyser's handling of ids, hex strings and characters outside the Basic Multilingual Plane."""

from __future__ import annotations

from hypothesis import given, settings
from hypothesis import strategies as st

from ont_platform.qa.analyzer import morphs


def test_an_id_is_one_proper_noun_and_the_words_after_it_stay_whole() -> None:
    ms = morphs("nd_0 의 보관은?")
    assert ms[0].form == "nd_0" and ms[0].tag == "NNP" and (ms[0].start, ms[0].end) == (0, 4)
    assert "보관" in [m.form for m in ms]
    hexed = morphs("0xAbC123 에서 n_a1 로")
    assert [m.form for m in hexed if m.tag == "NNP"] == ["0xAbC123", "n_a1"]


@settings(max_examples=300, deadline=None)
@given(
    st.lists(
        st.one_of(st.characters(min_codepoint=0x10000), st.sampled_from(["n_a1", "가", " ", "!", "의"])), max_size=30
    ).map("".join)
)
def test_any_text_with_ids_and_astral_characters_is_analysed_with_spans_into_it(text: str) -> None:
    # kiwipiepy's own pattern words aborted the process on such text; spans must index the text itself
    for m in morphs(text):
        assert 0 <= m.start <= m.end <= len(text)
        if m.tag == "NNP" and "_" in m.form:
            assert text[m.start : m.end] == m.form
