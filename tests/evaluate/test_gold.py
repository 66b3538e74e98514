"""Scoring against a gold set: the bundled questions score perfectly; wrong answers lower exactly the rates they
should; ``ont eval gold`` prints the table and the JSON."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest

from ont_platform import KnowledgeGraph
from ont_platform.evaluate import evaluate_gold, score
from tests.verify.conftest import EXAMPLES, Loaded, questions, run_cli


@pytest.mark.parametrize("fixture", ["onchain", "kgraph", "pages"])
def test_bundled_gold_scores_perfectly(fixture: str, request: pytest.FixtureRequest) -> None:
    loaded: Loaded = request.getfixturevalue(fixture)
    report = evaluate_gold(loaded.kg, EXAMPLES / loaded.name / "questions.jsonl")
    overall = report.to_json()["overall"]
    assert overall["n"] == len(loaded.gold)
    for key in ("accuracy", "decision_accuracy", "verified_rate"):
        assert overall[key] == 1.0
    assert overall["path_match_rate"] in (1.0, None) and overall["url_set_match"] in (1.0, None)
    groups = report.to_json()["by_intent"]
    assert sum(g["n"] for g in groups.values()) == len(loaded.gold)


def test_wrong_answers_lower_the_right_rates(onchain: Loaded) -> None:
    answers = [onchain.answer(q) for q in onchain.gold]
    by_id = {a["q_id"]: a for a in answers}
    by_id["q_001"]["path"][0]["edge_id"] = "e999"  # path wrong, intent right
    by_id["q_002"].update(intent="path_exists")  # decision wrong
    report = evaluate_gold(
        onchain.kg, EXAMPLES / "onchain" / "questions.jsonl", answers=[a for a in answers if a["q_id"] != "q_108"]
    )
    items = {i.id: i for i in report.items}
    assert not items["q_001"].correct and items["q_001"].decision_ok and items["q_001"].path_ok is False
    assert items["q_001"].verified is False
    assert not items["q_002"].decision_ok
    assert items["q_108"].mismatches == ["no answer"] and items["q_108"].verified is None
    n = len(onchain.gold)
    overall = report.to_json()["overall"]
    assert overall["accuracy"] == pytest.approx((n - 3) / n, abs=1e-6)
    assert overall["decision_accuracy"] == pytest.approx((n - 2) / n, abs=1e-6)
    assert overall["path_match_rate"] == pytest.approx((n - 2) / n, abs=1e-6)  # q_002's path [] still matches
    table = report.table()
    assert "onchain:path_exists" in table and "q_108" in table and "no answer" in table


def test_field_comparisons() -> None:
    exp: dict[str, Any] = {
        "decision": "answer",
        "answer": "pl_seoul, pl_busan",
        "factors": [],
        "path": [{"src": "a", "rel": "r", "dst": "b"}],
    }
    got = {
        "decision": "answer",
        "answer": "pl_busan,pl_seoul",
        "factors": [],
        "path": [{"src": "a", "rel": "r", "dst": "b", "chunk_id": "c1"}],
        "reason": "다른 문장",
    }
    assert score("x", exp, got, "kg").correct
    urls = {"status": "ran", "expected_urls": ["u1", "u2"]}
    s = score(
        "p", urls, {"status": "ran", "matched": [{"url": "u2", "evidence": ""}, {"url": "u1", "evidence": ""}]}, "pages"
    )
    assert s.correct and s.urls_ok is True
    s = score("p", urls, {"status": "ran", "matched": [{"url": "u1", "evidence": ""}]}, "pages")
    assert not s.correct and s.urls_ok is False and "missing ['u2']" in s.mismatches[0]
    clarify = score("c", {"status": "clarify", "matched": []}, {"status": "clarify", "matched": []}, "pages")
    assert clarify.correct and clarify.urls_ok is None  # URL-set match counts ran items only


def test_cli_gold(tmp_path: Path, pages: Loaded, capsys: pytest.CaptureFixture[str]) -> None:
    gold = str(EXAMPLES / "pages" / "questions.jsonl")
    code, out, _ = run_cli(["eval", "gold", gold, "--data", str(EXAMPLES / "pages")], capsys)
    assert code == 0 and "pages:ran" in out and out.splitlines()[0].split()[:2] == ["group", "n"]
    answers = tmp_path / "answers.jsonl"
    wrong = pages.answer("q1")
    wrong["matched"] = []
    answers.write_text(
        "\n".join(json.dumps(a, ensure_ascii=False) for a in [wrong, pages.answer("q2"), pages.answer("q3")]) + "\n",
        encoding="utf-8",
    )
    code, out, _ = run_cli(
        ["eval", "gold", gold, "--data", str(EXAMPLES / "pages"), "--answers", str(answers), "--json"], capsys
    )
    doc = json.loads(out)
    assert code == 0 and doc["overall"]["url_set_match"] == 0.0 and doc["overall"]["n"] == 3
    assert doc["by_intent"]["pages:clarify"]["accuracy"] == 1.0
    code, _, _ = run_cli(["eval", "gold", str(tmp_path / "none.jsonl"), "--data", str(EXAMPLES / "pages")], capsys)
    assert code == 2


def test_gold_lines_need_an_id(tmp_path: Path) -> None:
    from ont_platform.errors import InputError

    bad = tmp_path / "g.jsonl"
    bad.write_text('{"question": "x"}\n', encoding="utf-8")
    with KnowledgeGraph.open() as kg, pytest.raises(InputError, match="id"):
        evaluate_gold(kg, bad)
    assert questions("kg")  # the bundled gold files are gold files as they are
