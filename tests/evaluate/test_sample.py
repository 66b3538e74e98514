"""The stratified spot-check sample: every stratum represented, the rate respected, the seed fixed."""

from __future__ import annotations

import csv
import io
import json
import math
from pathlib import Path
from typing import Any

import pytest

from ont_platform.errors import InputError
from ont_platform.evaluate import (
    read_labels,
    stratified_sample,
    stratum_of,
    write_sample_csv,
)
from tests.verify.conftest import run_cli


def answers() -> list[dict[str, Any]]:
    out: list[dict[str, Any]] = []
    for i in range(200):
        out.append(
            {
                "q_id": f"a{i:03d}",
                "intent": "path_exists" if i % 4 else "no_path",
                "path": [],
                "cited_nodes": [],
                "confidence": "high",
                "answer_ko": "",
                "generated_query": "",
                "grounding_ok": True,
            }
        )
    for i in range(7):
        out.append(
            {
                "q_id": f"c{i}",
                "intent": "cluster_lookup",
                "path": [],
                "cited_nodes": [],
                "confidence": "mid",
                "answer_ko": "추정",
                "generated_query": "",
                "grounding_ok": True,
            }
        )
    for i in range(30):
        out.append(
            {
                "query_id": f"k{i:02d}",
                "decision": ["answer", "refuse", "max_hops"][i % 3],
                "answer": None,
                "path": [],
                "factors": [],
                "reason": "",
                "evidence": "",
                "hedge": None,
            }
        )
    out.append(
        {
            "question": "클릭 0",
            "status": "ran",
            "parsed_filter": "clicks_30d = 0",
            "columns_used": [],
            "matched": [],
            "count": 0,
            "hedge": "",
        }
    )
    return out


def test_every_stratum_at_the_rate() -> None:
    rows = stratified_sample(answers(), rate=0.05, seed=1)
    sizes = {
        "onchain:path_exists": 150,
        "onchain:no_path": 50,
        "onchain:cluster_lookup": 7,
        "kg:answer": 10,
        "kg:refuse": 10,
        "kg:max_hops": 10,
        "pages:ran": 1,
    }
    got: dict[str, int] = {}
    for r in rows:
        got[r.stratum] = got.get(r.stratum, 0) + 1
    assert got == {s: max(1, math.ceil(0.05 * n)) for s, n in sizes.items()}
    assert [r.stratum for r in rows] == sorted(r.stratum for r in rows)
    assert len({r.item_id for r in rows}) == len(rows)


def test_seeded_and_stable() -> None:
    first = stratified_sample(answers(), rate=0.05, seed=1)
    assert first == stratified_sample(list(reversed(answers())), rate=0.05, seed=1)  # input order does not matter
    assert first != stratified_sample(answers(), rate=0.05, seed=2)
    more = [
        *answers(),
        {
            "query_id": "k99",
            "decision": "answer",
            "answer": None,
            "path": [],
            "factors": [],
            "reason": "",
            "evidence": "",
            "hedge": None,
        },
    ]
    onchain = [r for r in first if r.stratum.startswith("onchain")]
    assert onchain == [r for r in stratified_sample(more, rate=0.05, seed=1) if r.stratum.startswith("onchain")]


def test_rate_bounds_and_strata() -> None:
    assert len(stratified_sample(answers(), rate=1.0)) == len(answers())
    for bad in (0, -0.1, 1.5):
        with pytest.raises(InputError):
            stratified_sample(answers(), rate=bad)
    assert stratum_of({"q_id": "x", "intent": "token_flow"}) == "onchain:token_flow"
    assert stratum_of({"status": "clarify"}) == "pages:clarify"
    assert stratum_of({}) == "unknown"
    dupes = stratified_sample([{"q_id": "same", "intent": "no_path"}] * 3, rate=1.0)
    assert [r.item_id for r in dupes] == ["same", "same#2", "same#3"]


def test_csv_is_a_label_file() -> None:
    buf = io.StringIO()
    write_sample_csv(stratified_sample(answers(), rate=0.05, seed=1, questions={"c3": "같은 주체는?"}), buf)
    rows = list(csv.DictReader(io.StringIO(buf.getvalue())))
    assert list(rows[0]) == ["item_id", "stratum", "question", "summary", "label", "note"]
    assert all(r["label"] == "" for r in rows)
    filled = buf.getvalue().replace(",,\n", ",ok,\n")
    assert set(read_labels(io.StringIO(filled)).values()) == {"ok"}


def test_cli_sample(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    src = tmp_path / "answers.jsonl"
    src.write_text("".join(json.dumps(a, ensure_ascii=False) + "\n" for a in answers()), encoding="utf-8")
    out_csv = tmp_path / "sample.csv"
    code, out, err = run_cli(
        ["eval", "sample", str(src), "--rate", "0.05", "--seed", "1", "--out", str(out_csv)], capsys
    )
    assert code == 0 and out == "" and "sampled 16 of 238 answer(s) from 7 strata" in err
    rows = list(csv.DictReader(io.StringIO(out_csv.read_text(encoding="utf-8"))))
    assert [r["item_id"] for r in rows] == [r.item_id for r in stratified_sample(answers(), rate=0.05, seed=1)]
    code, out, _ = run_cli(["eval", "sample", str(src), "--seed", "1"], capsys)
    assert code == 0 and out == out_csv.read_text(encoding="utf-8")
    (tmp_path / "bad.jsonl").write_text("{nope\n", encoding="utf-8")
    code, _, err = run_cli(["eval", "sample", str(tmp_path / "bad.jsonl")], capsys)
    assert code == 2 and "not JSON" in err
    code, _, err = run_cli(["eval", "sample", str(src), "--rate", "2"], capsys)
    assert code == 2
