"""Cohen's kappa against values computed by hand, its edge cases, the bootstrap interval, and ``ont eval kappa``."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from ont_platform.errors import InputError
from ont_platform.evaluate import (
    cohen_kappa,
    join_labels,
    kappa_files,
    kappa_with_ci,
    read_labels,
)
from tests.verify.conftest import run_cli


def table(yy: int, yn: int, ny: int, nn: int) -> tuple[list[str], list[str]]:
    """Two raters' labels from a 2x2 table: yy items both said yes, yn rater A yes and B no, and so on."""
    a = ["yes"] * (yy + yn) + ["no"] * (ny + nn)
    b = ["yes"] * yy + ["no"] * yn + ["yes"] * ny + ["no"] * nn
    return a, b


@pytest.mark.parametrize(
    ("cells", "p_o", "p_e"),
    [
        # p_o = (yy + nn) / n; p_e = P(A yes) P(B yes) + P(A no) P(B no)
        ((20, 5, 10, 15), 35 / 50, (25 / 50) * (30 / 50) + (25 / 50) * (20 / 50)),  # kappa 0.4
        ((45, 15, 25, 15), 60 / 100, (60 / 100) * (70 / 100) + (40 / 100) * (30 / 100)),  # 0.1304
        ((25, 35, 5, 35), 60 / 100, (60 / 100) * (30 / 100) + (40 / 100) * (70 / 100)),  # 0.2593
        ((40, 9, 6, 45), 85 / 100, (49 / 100) * (46 / 100) + (51 / 100) * (54 / 100)),  # 0.6995
    ],
)
def test_two_by_two_tables(cells: tuple[int, int, int, int], p_o: float, p_e: float) -> None:
    a, b = table(*cells)
    assert cohen_kappa(a, b) == pytest.approx((p_o - p_e) / (1 - p_e), abs=1e-12)


def test_known_values() -> None:
    assert cohen_kappa(*table(20, 5, 10, 15)) == pytest.approx(0.4)
    assert cohen_kappa(*table(45, 15, 25, 15)) == pytest.approx(0.130434782608, abs=1e-9)
    assert cohen_kappa(*table(25, 35, 5, 35)) == pytest.approx(0.259259259259, abs=1e-9)


def test_three_labels_by_hand() -> None:
    # A: a a a b b c ; B: a a b b c c -> agree 4/6; marginals A (3,2,1), B (2,2,2) -> p_e = (6+4+2)/36 = 1/3
    a, b = list("aaabbc"), list("aabbcc")
    assert cohen_kappa(a, b) == pytest.approx((4 / 6 - 1 / 3) / (1 - 1 / 3))


def test_edge_cases() -> None:
    assert cohen_kappa(list("abcab"), list("abcab")) == pytest.approx(1.0)  # perfect agreement
    assert cohen_kappa(["x"] * 5, ["x"] * 5) is None  # one label for everything: undefined, not 1
    assert cohen_kappa(["x"] * 4, ["x", "x", "x", "y"]) == pytest.approx(0.0)  # agreement no better than chance
    assert cohen_kappa(list("abab"), list("baba")) == pytest.approx(-1.0)  # perfect disagreement
    assert cohen_kappa([], []) is None
    with pytest.raises(InputError):
        cohen_kappa(["a"], ["a", "b"])
    one = kappa_with_ci(["a"], ["b"])  # n < 2: a kappa may exist, an interval cannot
    assert one.n == 1 and one.ci_low is None and one.ci_high is None
    assert kappa_with_ci(["a"], ["a"]).to_json() == {"kappa": None, "ci_low": None, "ci_high": None, "n": 1}
    same = kappa_with_ci(["x"] * 10, ["x"] * 10)
    assert same.kappa is None and same.ci_low is None
    perfect = kappa_with_ci(list("aabbab"), list("aabbab"))
    assert perfect.kappa == pytest.approx(1.0) and perfect.ci_low == pytest.approx(1.0)


def test_bootstrap_interval_is_seeded_and_brackets_kappa() -> None:
    a, b = table(40, 9, 6, 45)
    first = kappa_with_ci(a, b, seed=7)
    assert first == kappa_with_ci(a, b, seed=7)
    assert first != kappa_with_ci(a, b, seed=8)
    assert first.ci_low is not None and first.ci_high is not None and first.kappa is not None
    assert first.ci_low < first.kappa < first.ci_high
    assert 0.5 < first.ci_low < 0.65 and 0.75 < first.ci_high < 0.9  # n = 100, kappa 0.70: about +-0.14
    narrow = kappa_with_ci(a, b, seed=7, confidence=0.5)
    assert first.ci_low < narrow.ci_low < narrow.ci_high < first.ci_high  # type: ignore[operator]
    with pytest.raises(InputError):
        kappa_with_ci(a, b, confidence=1.5)


def _csv(path: Path, rows: list[tuple[str, str]], head: str = "item_id,label") -> Path:
    path.write_text(head + "\n" + "".join(f"{i},{lab}\n" for i, lab in rows), encoding="utf-8")
    return path


def test_label_files_join_on_item_id_in_any_order(tmp_path: Path) -> None:
    a, b = table(20, 5, 10, 15)
    ids = [f"i{k:02d}" for k in range(len(a))]
    pa = _csv(tmp_path / "a.csv", list(zip(ids, a, strict=True)))
    pb = _csv(tmp_path / "b.csv", list(reversed(list(zip(ids, b, strict=True)))) + [("extra", "yes")])
    result, unmatched = kappa_files(pa, pb)
    assert result.kappa == pytest.approx(0.4) and result.n == 50
    assert unmatched == {"only_a": 0, "only_b": 1}
    ids2, la, lb = join_labels({"x": "1", "y": "2"}, {"y": "2", "z": "3"})
    assert (ids2, la, lb) == (["y"], ["2"], ["2"])


def test_label_file_problems(tmp_path: Path) -> None:
    with pytest.raises(InputError, match="item_id and label"):
        read_labels(_csv(tmp_path / "h.csv", [("a", "b")], head="id,value"))
    with pytest.raises(InputError, match="more than once"):
        read_labels(_csv(tmp_path / "d.csv", [("a", "x"), ("a", "y")]))
    with pytest.raises(InputError, match="cannot read"):
        read_labels(tmp_path / "none.csv")
    # extra columns ignored, unlabelled rows skipped, a BOM tolerated
    (tmp_path / "s.csv").write_text(
        "\ufeffitem_id,stratum,label,note\nq1,kg:answer,ok,\nq2,kg:refuse,,\n", encoding="utf-8"
    )
    assert read_labels(tmp_path / "s.csv") == {"q1": "ok"}


def test_cli_kappa(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    a, b = table(40, 9, 6, 45)
    ids = [f"i{k}" for k in range(len(a))]
    pa = _csv(tmp_path / "a.csv", list(zip(ids, a, strict=True)))
    pb = _csv(tmp_path / "b.csv", list(zip(ids, b, strict=True)))
    code, out, _ = run_cli(["eval", "kappa", str(pa), str(pb), "--seed", "3"], capsys)
    doc = json.loads(out)
    assert code == 0 and list(doc) == ["kappa", "ci_low", "ci_high", "n"]
    assert doc["kappa"] == pytest.approx(0.6995, abs=1e-4) and doc["n"] == 100
    code, out, err = run_cli(["eval", "kappa", str(pa), str(pb), "--seed", "3", "--require", "0.6"], capsys)
    assert code == 1 and "not met" in err  # the lower bound is below 0.6 with 100 items
    code, out, _ = run_cli(["eval", "kappa", str(pa), str(pa), "--require", "0.6"], capsys)
    assert code == 0 and json.loads(out)["ci_low"] == 1.0
    empty = _csv(tmp_path / "e.csv", [("zz", "yes")])
    code, _, err = run_cli(["eval", "kappa", str(pa), str(empty)], capsys)
    assert code == 2 and "no item is labelled in both" in err
