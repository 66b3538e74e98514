"""IdLines (ingest/idlines.py) behaves as the dict of id → first line it replaces, on any sequence of ids."""

from __future__ import annotations

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from ont_platform.ingest.idlines import IdLines

_IDS = st.text(min_size=0, max_size=12) | st.sampled_from(["e1", "e10", "1e", "e1\x00", "\ud800", "가", ""])


@settings(max_examples=300, deadline=None)
@given(ids=st.lists(_IDS, max_size=300), probes=st.lists(_IDS, max_size=30), capacity=st.integers(0, 40))
def test_it_answers_as_a_dict_of_first_lines(ids: list[str], probes: list[str], capacity: int) -> None:
    table, reference = IdLines(capacity), {}
    for line, key in enumerate(ids, start=1):
        assert table.setdefault(key, line) == reference.setdefault(key, line)
        assert len(table) == len(reference)
    for key in ids + probes:
        assert table.get(key) == reference.get(key)
        assert (key in table) == (key in reference)
        if key in reference:
            assert table[key] == reference[key]
        else:
            with pytest.raises(KeyError):
                table[key]


def test_it_grows_past_its_first_size_and_keeps_every_line() -> None:
    table = IdLines(4)
    small = table.nbytes()
    for i in range(20_000):
        table[f"n{i}"] = i + 2
    assert len(table) == 20_000 and table.nbytes() > small
    assert all(table[f"n{i}"] == i + 2 for i in range(0, 20_000, 7))
    assert "n20000" not in table and table.get("n-1") is None


def test_a_line_cannot_change_and_must_be_a_line() -> None:
    table = IdLines()
    table["a"] = 3
    table["a"] = 3  # the same line again: nothing to change
    with pytest.raises(ValueError, match="first seen on line 3"):
        table["a"] = 4
    for bad in (0, -1, True, 2.0, 1 << 64):
        with pytest.raises(ValueError, match="whole number"):
            table.setdefault("b", bad)  # type: ignore[arg-type]
    assert len(table) == 1 and 3 not in table  # type: ignore[comparison-overlap]
