"""The ont command: help for every command, exit codes, JSON output."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

import pytest

from ont_platform.cli.main import build_parser, main

EXAMPLES = Path(__file__).resolve().parents[1] / "examples"
README = (Path(__file__).resolve().parents[1] / "README.md").read_text(encoding="utf-8")


def _commands() -> list[str]:
    parser = build_parser()
    sub = next(a for a in parser._actions if a.__class__.__name__ == "_SubParsersAction")
    return sorted(sub.choices)  # type: ignore[attr-defined]


@pytest.mark.parametrize("command", _commands())
def test_every_command_has_help_and_docs(command: str, capsys: pytest.CaptureFixture[str]) -> None:
    with pytest.raises(SystemExit) as info:
        main([command, "--help"])
    assert info.value.code == 0
    out = capsys.readouterr().out
    assert f"ont {command}" in out and len(out) > 200
    assert f"ont {command}" in README or command in ("demo",) and "ont demo" in README


def test_no_command_is_an_input_error(capsys: pytest.CaptureFixture[str]) -> None:
    assert main([]) == 2


def test_load_then_export_round_trip(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    store = tmp_path / "db"
    assert main(["load", str(EXAMPLES / "kg"), "--store", str(store), "--json"]) == 0
    report = json.loads(capsys.readouterr().out)
    assert report["domain"] == "kg" and report["triples_added"] > 0
    out = tmp_path / "kg.ttl"
    assert main(["export", str(out), "--store", str(store)]) == 0
    assert out.stat().st_size > 0 and b"@prefix" in out.read_bytes()


def test_refused_dataset_exits_2_and_names_the_line(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    bad = tmp_path / "kg"
    bad.mkdir()
    for f in (EXAMPLES / "kg").glob("*.csv"):
        (bad / f.name).write_text(f.read_text(encoding="utf-8"), encoding="utf-8")
    nodes = bad / "kg_nodes.csv"
    nodes.write_text(nodes.read_text(encoding="utf-8").replace(",Person,", ",Alien,", 1), encoding="utf-8")
    assert main(["load", str(bad)]) == 2
    err = capsys.readouterr().err
    assert "kg_nodes.csv:2" in err and "unknown class" in err


def test_ask_json_and_batch(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["ask", "--data", str(EXAMPLES / "onchain"), "--json", "n_a1 과 같은 주체로 추정되는 지갑은?"]) == 0
    doc = json.loads(capsys.readouterr().out)
    assert doc["intent"] == "cluster_lookup" and doc["confidence"] != "high"
    batch = tmp_path / "q.jsonl"
    batch.write_text(
        '{"id": "a", "question": "n_orphan 주소는 어떤 온톨로지 클래스인가요?"}\n'
        '{"id": "b", "question": "n_d4 에서 3-hop 안에 믹서(Mixer)로 가는 경로가 있나요?"}\n',
        encoding="utf-8",
    )
    assert main(["ask", "--data", str(EXAMPLES / "onchain"), "--batch", str(batch)]) == 0
    lines = [json.loads(x) for x in capsys.readouterr().out.splitlines()]
    assert [(x["q_id"], x["intent"]) for x in lines] == [("a", "label_lookup"), ("b", "no_path")]


def test_ask_bad_batch_line(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    batch = tmp_path / "q.jsonl"
    batch.write_text("{not json\n", encoding="utf-8")
    assert main(["ask", "--data", str(EXAMPLES / "onchain"), "--batch", str(batch)]) == 2
    assert "q.jsonl:1" in capsys.readouterr().err


@pytest.mark.slow
def test_demo_json_prints_every_bundled_question() -> None:
    out = subprocess.run(
        [sys.executable, "-m", "ont_platform.cli.main", "demo", "--json"],
        capture_output=True,
        text=True,
        timeout=300,
        check=True,
    )
    answers = [json.loads(x) for x in out.stdout.splitlines()]
    expected = sum(
        1
        for name in ("onchain", "kg", "pages")
        for line in (EXAMPLES / name / "questions.jsonl").read_text(encoding="utf-8").splitlines()
        if line.strip()
    )
    assert len(answers) == expected
    ids = {a.get("q_id") or a.get("query_id") for a in answers}
    assert {"q_001", "q_002", "q_003", "q_004", "q001", "q003", "q006", "q008"} <= ids


def test_version_prints_the_installed_version(capsys: pytest.CaptureFixture[str]) -> None:
    from importlib.metadata import version

    with pytest.raises(SystemExit) as info:
        main(["--version"])
    assert info.value.code == 0
    assert capsys.readouterr().out.strip() == f"ont {version('ont_platform')}"
