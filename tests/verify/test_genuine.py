"""Genuine answers pass: every bundled question's answer from ``ask``, with and without its question and gold;
the seed examples themselves; and the ``ont verify`` command with its exit codes."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from ont_platform import KnowledgeGraph
from ont_platform.answer import schema_errors
from ont_platform.verify import (
    CHECKS,
    VerifyReport,
    read_gold,
    verify_answer,
    verify_file,
)
from tests.verify.conftest import EXAMPLES, Loaded, questions, run_cli

SEEDS = Path(__file__).resolve().parents[1] / "fixtures" / "seed_examples"


def _all(loaded: Loaded) -> list[tuple[str, str, dict]]:
    return [(qid, loaded.question(qid), loaded.answer(qid)) for qid in loaded.gold]


@pytest.mark.parametrize("fixture", ["onchain", "kgraph", "pages"])
def test_every_bundled_answer_passes(fixture: str, request: pytest.FixtureRequest) -> None:
    loaded: Loaded = request.getfixturevalue(fixture)
    for qid, question, answer in _all(loaded):
        for q, gold in ((question, loaded.gold[qid]["expected"]), (None, None)):
            report = loaded.verifier.verify(answer, question=q, gold=gold)
            assert report.to_json() == {"id": report.id, "ok": True, "grounding_ok": True, "failures": []}, (
                qid,
                q is not None,
                report.to_json(),
            )


def test_real_onchain_answers_pass() -> None:
    with KnowledgeGraph.open() as kg:
        kg.load(EXAMPLES / "onchain-real", shacl=False)  # the shapes pass on it elsewhere; here only answers matter
        answers = [kg.ask(q["question"], qid=q["id"]) for q in questions("onchain-real")]
        reports = verify_file(kg, answers, questions=EXAMPLES / "onchain-real" / "questions.jsonl")
    assert [r.id for r in reports] == [q["id"] for q in questions("onchain-real")]
    assert all(r.ok for r in reports), [r.to_json() for r in reports if not r.ok]


def test_report_shape_and_check_names(onchain: Loaded) -> None:
    a = onchain.answer("q_001")
    a["path"][0]["tx_hash"] = "0xdead"
    out = verify_answer(onchain.kg, a, question=onchain.question("q_001"))
    assert isinstance(out, VerifyReport)
    doc = out.to_json()
    assert list(doc) == ["id", "ok", "grounding_ok", "failures"]
    assert doc["id"] == "q_001" and doc["ok"] is False and doc["grounding_ok"] is False
    assert all(set(f) == {"check", "detail"} and f["check"] in CHECKS for f in doc["failures"])


def test_models_and_dicts_are_the_same_input(kgraph: Loaded) -> None:
    model = kgraph.kg.ask(kgraph.question("q001"), qid="q001")
    assert kgraph.verifier.verify(model).to_json() == kgraph.verifier.verify(model.to_json()).to_json()


def test_seed_examples_pass_except_for_their_cypher(onchain: Loaded, kgraph: Loaded, pages: Loaded) -> None:
    """The seeds' own example outputs are grounded in the bundled data; seed 000's generated_query is Cypher,
    which cannot run on an RDF graph, so that one check fails for each of them and nothing else does."""
    for loaded, name in ((onchain, "onchain_answer"), (kgraph, "hop_decision"), (pages, "page_filter_result")):
        examples = json.loads((SEEDS / f"{name}.examples.json").read_text(encoding="utf-8"))
        for ex in examples:
            out = ex.get("output", ex)
            assert schema_errors(out, name) == []
            gold = read_gold(EXAMPLES / loaded.name / "questions.jsonl")
            line = gold.get(out.get("q_id") or out.get("query_id") or out.get("question"))
            report = loaded.verifier.verify(out, question=line["question"] if line else None)
            assert report.grounding_ok, report.to_json()
            if name == "onchain_answer":
                assert [f.check for f in report.failures] == ["query"], report.to_json()
                assert "not a SPARQL query" in report.failures[0].detail
            else:
                assert report.ok, report.to_json()


def test_broken_lines_and_unknown_contracts(onchain: Loaded) -> None:
    reports = verify_file(onchain.kg, ['{"q_id": "q_001"', "[1, 2]", '{"hello": "world"}', onchain.answer("q_001")])
    assert [r.checks_failed() for r in reports] == [{"json"}, {"json"}, {"schema"}, set()]
    assert reports[0].id == "line 1" and not reports[0].grounding_ok


def test_answer_for_a_domain_that_is_not_loaded(onchain: Loaded, kgraph: Loaded) -> None:
    report = onchain.verifier.verify(kgraph.answer("q001"))
    assert [f.check for f in report.failures] == ["data"]


def test_graph_too_large_for_a_snapshot_is_reported(kgraph: Loaded) -> None:
    from ont_platform.verify import Verifier

    with Verifier(kgraph.kg, max_snapshot_rows=5) as small:
        report = small.verify(kgraph.answer("q001"))
    assert [f.check for f in report.failures] == ["data"] and "too large" in report.failures[0].detail


# -- the command -------------------------------------------------------------------------------------------------


def _write(tmp_path: Path, name: str, docs: list[object]) -> Path:
    path = tmp_path / name
    path.write_text(
        "".join((d if isinstance(d, str) else json.dumps(d, ensure_ascii=False)) + "\n" for d in docs), encoding="utf-8"
    )
    return path


def test_cli_verify_exit_codes(tmp_path: Path, kgraph: Loaded, capsys: pytest.CaptureFixture[str]) -> None:
    good = [kgraph.answer(q) for q in kgraph.gold]
    data = str(EXAMPLES / "kg")
    gold = str(EXAMPLES / "kg" / "questions.jsonl")
    code, out, err = run_cli(
        ["verify", "--data", data, "--questions", gold, str(_write(tmp_path, "good.jsonl", good))], capsys
    )
    assert code == 0, err
    lines = [json.loads(x) for x in out.splitlines()]
    assert [x["id"] for x in lines] == list(kgraph.gold) and all(x["ok"] for x in lines)
    assert "0 failed" in err

    bad = [*good[:2], dict(good[0], decision="answer", answer="pl_seoul", query_id="bad"), "not json"]
    bad[2]["path"] = [dict(bad[2]["path"][0], chunk_id="ch_999")]
    code, out, err = run_cli(["verify", "--data", data, str(_write(tmp_path, "bad.jsonl", bad))], capsys)
    assert code == 1
    lines = [json.loads(x) for x in out.splitlines()]
    assert [x["ok"] for x in lines] == [True, True, False, False]
    assert lines[2]["grounding_ok"] is False and lines[3]["failures"][0]["check"] == "json"

    code, _, err = run_cli(["verify", "--data", data, str(tmp_path / "missing.jsonl")], capsys)
    assert code == 2 and "no such file" in err
    code, _, err = run_cli(["verify", str(_write(tmp_path, "x.jsonl", good))], capsys)
    assert code == 2 and "no dataset" in err
    code, _, err = run_cli(["verify", "--data", data, str(_write(tmp_path, "empty.jsonl", []))], capsys)
    assert code == 2 and "no answers" in err


def test_cli_verify_process_isolation(tmp_path: Path, onchain: Loaded, capsys: pytest.CaptureFixture[str]) -> None:
    answers = [onchain.answer("q_001"), onchain.answer("q_003")]
    code, out, err = run_cli(
        [
            "verify",
            "--data",
            str(EXAMPLES / "onchain"),
            "--isolation",
            "process",
            str(_write(tmp_path, "a.jsonl", answers)),
        ],
        capsys,
    )
    assert code == 0, (out, err)


def test_one_graph_holding_every_domain(onchain: Loaded, kgraph: Loaded, pages: Loaded) -> None:
    """As ``ont demo`` loads them: each answer is checked against its own domain's part of the graph."""
    with KnowledgeGraph.open() as kg:
        for name in ("onchain", "kg", "pages"):
            kg.load(EXAMPLES / name, shacl=False)
        answers = [loaded.answer(q) for loaded in (onchain, kgraph, pages) for q in loaded.gold]
        reports = verify_file(kg, answers)
        assert all(r.ok for r in reports), [r.to_json() for r in reports if not r.ok]
        wrong = onchain.answer("q_003")
        wrong["path"][0]["edge_id"] = "r01"  # an edge id of the kg domain is no on-chain edge
        assert "citations" in verify_file(kg, [wrong])[0].checks_failed()
