"""Hostile files and text found by an attack run, each a regression test.

1. A table that is a FIFO or a symlink to a device (or out of the folder) must be refused, not read forever.
2. A header of 100,000 columns is refused in linear time.
3. Every file of a dataset folder has a size limit (``meta.json``, ``ontology.ttl``, ``shapes.ttl``).
4. ``Limits.max_cell_chars`` above Python's ``csv.field_size_limit`` works; a longer cell is the cell error.
5. Numbers of too many digits and huge literals are library errors, never bare ValueError/MemoryError.
6. JSON nested too deeply (``ont verify``, ``ont ask --batch``, ``ont eval``) exits 2 with a clear message.
7. One text policy (:mod:`ont_platform.text_policy`) for ids and labels, in the CSV loader and in ingest.
8. CSV written for people is safe to open in a spreadsheet (no formula cells).

Inputs that could hang run in a child process with a generous time limit, so a regression fails the test
instead of stopping the suite.
"""

from __future__ import annotations

import csv
import io
import json
import os
import shutil
import subprocess
import sys
import textwrap
import unicodedata
from collections.abc import Sequence
from pathlib import Path
from typing import Any

import pytest

from ont_platform import DatasetError, InputError, KnowledgeGraph
from ont_platform.ingest.datasets import build_dataset
from ont_platform.limits import Limits

ROOT = Path(__file__).resolve().parents[2]
EXAMPLES = ROOT / "examples"
CHILD_SECONDS = 60.0
"""Generous: a child that has not finished by then is stuck (the defects took minutes or forever)."""


def _copy(name: str, tmp: Path) -> Path:
    dst = tmp / name
    shutil.copytree(EXAMPLES / name, dst)
    return dst


def _append(path: Path, *rows: Sequence[str]) -> None:
    buf = io.StringIO()
    csv.writer(buf, lineterminator="\n").writerows(rows)
    with path.open("a", encoding="utf-8", newline="") as fh:
        fh.write(buf.getvalue())


def _load_in_child(folder: Path, limits: str = "Limits()", seconds: float = CHILD_SECONDS) -> dict[str, Any]:
    """Load ``folder`` in a child process; what it raised (type and message), or ``{"ok": True}``."""
    code = textwrap.dedent(f"""
        import json, sys
        from ont_platform.ingest.datasets import build_dataset
        from ont_platform.limits import Limits
        try:
            build_dataset({str(folder)!r}, limits={limits})
        except BaseException as exc:
            print(json.dumps({{"error": type(exc).__name__, "message": str(exc)[:20000],
                               "length": len(str(exc))}}))
        else:
            print(json.dumps({{"ok": True}}))
    """)
    try:
        done = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, timeout=seconds, cwd=ROOT)
    except subprocess.TimeoutExpired:
        pytest.fail(f"loading {folder.name} did not finish within {seconds} s")
    assert done.returncode == 0, done.stderr[-2000:]
    return json.loads(done.stdout.strip().splitlines()[-1])  # type: ignore[no-any-return]


def _run_cli(argv: Sequence[str], capsys: pytest.CaptureFixture[str]) -> tuple[int, str, str]:
    from tests.verify.conftest import run_cli

    return run_cli(argv, capsys)


# -- 1. only regular files inside the folder are read ---------------------------------------------------------


@pytest.mark.skipif(not hasattr(os, "mkfifo"), reason="needs FIFOs")
def test_a_fifo_table_is_refused_not_waited_on(tmp_path: Path) -> None:
    folder = _copy("kg", tmp_path)
    (folder / "kg_chunks.csv").unlink()
    os.mkfifo(folder / "kg_chunks.csv")
    got = _load_in_child(folder)
    assert got.get("error") == "DatasetError", got
    assert "kg_chunks.csv" in got["message"] and "not a regular file" in got["message"]


@pytest.mark.skipif(not Path("/dev/zero").exists(), reason="needs /dev/zero")
def test_a_symlink_to_dev_zero_is_refused(tmp_path: Path) -> None:
    folder = _copy("kg", tmp_path)
    (folder / "kg_chunks.csv").unlink()
    (folder / "kg_chunks.csv").symlink_to("/dev/zero")
    got = _load_in_child(folder)
    assert got.get("error") == "DatasetError", got
    assert "kg_chunks.csv" in got["message"]


def test_a_symlink_out_of_the_folder_is_refused_one_inside_is_read(tmp_path: Path) -> None:
    folder = _copy("kg", tmp_path)
    outside = tmp_path / "elsewhere.csv"
    (folder / "kg_chunks.csv").rename(outside)
    (folder / "kg_chunks.csv").symlink_to(outside)
    with pytest.raises(DatasetError, match=r"kg_chunks\.csv: .*outside the dataset folder"):
        build_dataset(folder)
    (folder / "kg_chunks.csv").unlink()
    outside.rename(folder / "chunks-v2.csv")
    (folder / "kg_chunks.csv").symlink_to("chunks-v2.csv")
    assert build_dataset(folder).counts["chunks"] > 0


@pytest.mark.skipif(not hasattr(os, "mkfifo"), reason="needs FIFOs")
def test_a_fifo_meta_json_is_refused(tmp_path: Path) -> None:
    folder = _copy("pages", tmp_path)
    (folder / "meta.json").unlink()
    os.mkfifo(folder / "meta.json")
    got = _load_in_child(folder)
    assert got.get("error") == "DatasetError", got
    assert "meta.json" in got["message"] and "not a regular file" in got["message"]


# -- 2. a very wide header is refused quickly -------------------------------------------------------------------


@pytest.mark.parametrize("kind", ["distinct", "duplicate"])
def test_a_header_of_100k_columns_is_refused_quickly(tmp_path: Path, kind: str) -> None:
    folder = _copy("kg", tmp_path)
    extra = [f"x{i}" for i in range(100_000)] if kind == "distinct" else [f"x{i // 2}" for i in range(100_000)]
    (folder / "kg_nodes.csv").write_text(
        ",".join(["node_id", "class", "label", "aliases", *extra]) + "\n", encoding="utf-8"
    )
    # took 187 s when the duplicate check was quadratic; linear it is well under a second (plus the child's start)
    got = _load_in_child(folder, seconds=30)
    assert got.get("error") == "DatasetError", got
    assert "kg_nodes.csv:1" in got["message"]
    assert got["length"] < 10_000, "the message lists a bounded number of column names"


# -- 3. every file kind has a size limit ------------------------------------------------------------------------


def test_a_large_meta_json_is_refused(tmp_path: Path) -> None:
    folder = _copy("pages", tmp_path)
    (folder / "meta.json").write_text(json.dumps({"as_of": "2024-05-01", "pad": "x" * (2 << 20)}), encoding="utf-8")
    with pytest.raises(DatasetError, match=r"meta\.json: file is \d+ bytes, over the limit of 1048576"):
        build_dataset(folder)


def test_a_large_ontology_file_is_refused(tmp_path: Path) -> None:
    folder = _copy("films", tmp_path)
    with (folder / "ontology.ttl").open("a", encoding="utf-8") as fh:
        line = "# " + "x" * 1022 + "\n"
        for _ in range(17 * 1024):
            fh.write(line)
    with pytest.raises(DatasetError, match=r"ontology\.ttl: file is \d+ bytes, over the limit"):
        build_dataset(folder)


# -- 4. max_cell_chars above csv's own field limit ----------------------------------------------------------------


def test_max_cell_chars_above_csv_field_limit_is_honoured(tmp_path: Path) -> None:
    folder = _copy("kg", tmp_path)
    _append(folder / "kg_chunks.csv", ["ch_long", "가" * 150_000])
    built = build_dataset(folder, limits=Limits(max_cell_chars=200_000))
    assert built.counts["chunks"] == 21
    before = csv.field_size_limit()
    assert before > 200_000  # raised for the load, never lowered again


def test_a_cell_over_the_csv_field_limit_is_the_cell_error(tmp_path: Path) -> None:
    folder = _copy("kg", tmp_path)
    _append(folder / "kg_chunks.csv", ["ch_long", "가" * 300_000])
    with pytest.raises(DatasetError) as err:
        build_dataset(folder)
    text = str(err.value)
    assert "kg_chunks.csv:22: a cell of more than 100000 characters is over the limit" in text
    assert "field larger than field limit" not in text


def test_the_process_wide_csv_limit_is_never_lowered(tmp_path: Path) -> None:
    folder = _copy("kg", tmp_path)
    old = csv.field_size_limit(10**8)
    try:
        build_dataset(folder)
        assert csv.field_size_limit() == 10**8
    finally:
        csv.field_size_limit(old)


# -- 5. digits and huge literals ----------------------------------------------------------------------------------


def test_a_100k_digit_as_of_is_a_dataset_error(tmp_path: Path) -> None:
    folder = _copy("pages", tmp_path)
    (folder / "meta.json").write_text('{"as_of": ' + "1" * 100_000 + "}", encoding="utf-8")
    with pytest.raises(DatasetError, match=r"meta\.json"):
        build_dataset(folder)


def test_a_huge_as_of_string_gives_a_short_message(tmp_path: Path) -> None:
    folder = _copy("pages", tmp_path)
    (folder / "meta.json").write_text(json.dumps({"as_of": "9" * 500_000}), encoding="utf-8")
    with pytest.raises(DatasetError) as err:
        build_dataset(folder)
    assert "as_of must be YYYY-MM-DD" in str(err.value) and len(str(err.value)) < 2_000


def test_a_100k_digit_number_in_a_batch_exits_2(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    batch = tmp_path / "batch.jsonl"
    batch.write_text('{"id": ' + "7" * 100_000 + ', "question": "n_a1 에서 거래소에 닿나요?"}\n', encoding="utf-8")
    code, _out, err = _run_cli(["ask", "--data", str(EXAMPLES / "onchain"), "--batch", str(batch)], capsys)
    assert code == 2, err
    assert f"{batch}:1" in err and "digits" in err


def test_a_50mb_line_is_refused_before_parsing(tmp_path: Path) -> None:
    from ont_platform.jsonl import strict_jsonl

    big = tmp_path / "big.jsonl"
    big.write_text(json.dumps({"id": "q", "question": "x" * (50 << 20)}) + "\n", encoding="utf-8")
    with pytest.raises(InputError, match=r"big\.jsonl:1: .*over the limit"):
        list(strict_jsonl(big))


# -- 6. JSON nested too deeply ------------------------------------------------------------------------------------

DEEP = "[" * 100_000
MID = "[" * 150 + "]" * 150
"""Deeper than the readers allow but not deep enough to exhaust Python's recursion."""


@pytest.mark.parametrize("line", [DEEP, MID], ids=["100k", "150"])
def test_verify_exits_2_on_deep_json(tmp_path: Path, capsys: pytest.CaptureFixture[str], line: str) -> None:
    answers = tmp_path / "answers.jsonl"
    answers.write_text(line + "\n", encoding="utf-8")
    code, _out, err = _run_cli(["verify", str(answers), "--data", str(EXAMPLES / "kg")], capsys)
    assert code == 2, err
    assert "nested deeper than" in err and "Traceback" not in err


def test_verify_from_stdin_exits_2_on_deep_json(
    capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setattr(sys, "stdin", io.StringIO(DEEP + "\n"))
    code, _out, err = _run_cli(["verify", "-", "--data", str(EXAMPLES / "kg")], capsys)
    assert code == 2, err
    assert "nested deeper than" in err


def test_verify_questions_file_exits_2_on_deep_json(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    questions = tmp_path / "q.jsonl"
    questions.write_text(DEEP + "\n", encoding="utf-8")
    answers = tmp_path / "a.jsonl"
    answers.write_text('{"query_id": "q1"}\n', encoding="utf-8")
    code, _out, err = _run_cli(
        ["verify", str(answers), "--questions", str(questions), "--data", str(EXAMPLES / "kg")], capsys
    )
    assert code == 2, err
    assert "nested deeper than" in err


def test_ask_batch_exits_2_on_deep_json(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    batch = tmp_path / "batch.jsonl"
    batch.write_text(DEEP + "\n", encoding="utf-8")
    code, _out, err = _run_cli(["ask", "--data", str(EXAMPLES / "kg"), "--batch", str(batch)], capsys)
    assert code == 2, err
    assert f"{batch}:1" in err and "nested deeper than" in err


@pytest.mark.parametrize("which", ["gold", "answers"])
def test_eval_gold_exits_2_on_deep_json(tmp_path: Path, capsys: pytest.CaptureFixture[str], which: str) -> None:
    deep = tmp_path / "deep.jsonl"
    deep.write_text('{"id": "x"}\n' + DEEP + "\n", encoding="utf-8")
    gold = deep if which == "gold" else EXAMPLES / "kg" / "questions.jsonl"
    argv = ["eval", "gold", str(gold), "--data", str(EXAMPLES / "kg"), "--no-verify"]
    if which == "answers":
        argv += ["--answers", str(deep)]
    code, _out, err = _run_cli(argv, capsys)
    assert code == 2, err
    assert f"{deep}:2" in err and "nested deeper than" in err


def test_eval_sample_exits_2_on_deep_json(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    answers = tmp_path / "answers.jsonl"
    answers.write_text(DEEP + "\n", encoding="utf-8")
    code, _out, err = _run_cli(["eval", "sample", str(answers)], capsys)
    assert code == 2, err
    assert "nested deeper than" in err


def test_read_jsonl_does_not_recurse_on_deep_lines(tmp_path: Path) -> None:
    from ont_platform.jsonl import MAX_DEPTH, read_jsonl

    path = tmp_path / "x.jsonl"
    ok = "[" * MAX_DEPTH + "]" * MAX_DEPTH
    strings = json.dumps(["[" * 10_000, "{" * 10_000])  # brackets inside strings are text
    path.write_text(ok + "\n" + strings + "\n", encoding="utf-8")
    assert [n for n, _ in read_jsonl(path)] == [1, 2]
    path.write_text("[" * (MAX_DEPTH + 1) + "]" * (MAX_DEPTH + 1) + "\n", encoding="utf-8")
    with pytest.raises(InputError, match="nested deeper than"):
        list(read_jsonl(path))


# -- 7. one policy for ids and labels ------------------------------------------------------------------------------

BAD_LABELS = {
    "nul": "홍\x00길동",
    "control": "홍\x07길동",
    "c1": "홍\x85길동",
    "tab": "홍\t길동",
    "bidi-override": "\u202e홍길동",
    "bidi-isolate": "홍\u2066길동",
    "zero-width": "홍\u200b길동",
    "bom": "\ufeff홍길동",
    "line-separator": "홍\u2028길동",
    "hangul-filler": "\u3164",
}


@pytest.mark.parametrize("label", list(BAD_LABELS.values()), ids=list(BAD_LABELS))
def test_the_csv_loader_refuses_unsafe_labels(tmp_path: Path, label: str) -> None:
    folder = _copy("kg", tmp_path)
    _append(folder / "kg_nodes.csv", ["p_new", "Person", label, ""])
    # a NUL byte makes the whole file not a text table, before any cell is read
    expected = r"kg_nodes\.csv: contains NUL bytes" if "\x00" in label else r"kg_nodes\.csv:\d+: .*label"
    with pytest.raises(DatasetError, match=expected):
        build_dataset(folder)


def test_the_csv_loader_refuses_ids_differing_by_invisible_characters(tmp_path: Path) -> None:
    folder = _copy("kg", tmp_path)
    _append(folder / "kg_nodes.csv", ["p_twin", "Person", "쌍둥이", ""], ["p_twin\u200b", "Person", "쌍둥이2", ""])
    with pytest.raises(DatasetError, match=r"kg_nodes\.csv:\d+: .*node_id"):
        build_dataset(folder)


def test_the_csv_loader_normalises_ids_nfkc(tmp_path: Path) -> None:
    folder = _copy("kg", tmp_path)
    _append(folder / "kg_nodes.csv", ["ｐ_ｈｏｎｇ", "Person", "전각", ""])  # NFKC: p_hong, already there
    with pytest.raises(DatasetError, match=r"duplicate node_id 'p_hong'"):
        build_dataset(folder)


def test_the_csv_loader_refuses_mixed_script_ids(tmp_path: Path) -> None:
    folder = _copy("kg", tmp_path)
    _append(folder / "kg_nodes.csv", ["p_h\u043eng", "Person", "가짜", ""])  # Cyrillic o
    with pytest.raises(DatasetError, match=r"mixes the Latin and Cyrillic scripts"):
        build_dataset(folder)


def test_the_csv_loader_keeps_legitimate_text(tmp_path: Path) -> None:
    folder = _copy("kg", tmp_path)
    _append(
        folder / "kg_nodes.csv",
        ["p_홍길동2", "Person", "Москва 홍길동 (Moscow)", "별칭|Alias"],
        ["москва", "Person", "Москва", ""],
    )
    _append(folder / "kg_chunks.csv", ["ch_multi", "첫 줄\n둘째 줄\t탭"])
    built = build_dataset(folder)
    assert built.counts["nodes"] == 24
    assert "첫 줄\\n둘째 줄\\t탭" in built.text()


def _payload(*entities: tuple[str, str], chunk: str = "홍길동은 에이씨미에서 일한다.") -> dict[str, Any]:
    ents = [{"id": i, "label": label, "type": "individual", "ontology_class": "Person"} for i, label in entities]
    ents.append({"id": "E_co", "label": "에이씨미", "type": "individual", "ontology_class": "Company"})
    return {
        "entities": ents,
        "relations": [
            {
                "id": "R_1",
                "source_id": entities[0][0],
                "predicate": "worksFor",
                "target_id": "E_co",
                "evidence": {"chunk_text": chunk},
            }
        ],
    }


@pytest.mark.parametrize("label", list(BAD_LABELS.values()), ids=list(BAD_LABELS))
def test_ingest_refuses_unsafe_labels_as_the_loader_does(label: str) -> None:
    with KnowledgeGraph.open() as kg:
        report = kg.ingest(_payload(("E_1", label)), domain="kg")
        assert not report.accepted
        assert any(e.path == "$.entities[0].label" for e in report.errors), report.errors
        assert len(kg.store) == 0


def test_ingest_refuses_ids_differing_by_invisible_characters() -> None:
    with KnowledgeGraph.open() as kg:
        report = kg.ingest(_payload(("E_1", "홍길동"), ("E_1\u200b", "홍길동")), domain="kg")
        assert not report.accepted
        assert any(e.path == "$.entities[1].id" for e in report.errors), report.errors


@pytest.mark.parametrize("ids", [("E_1", "E_１"), ("E_１", "E_1")], ids=["ascii-first", "wide-first"])
def test_ingest_treats_nfkc_equal_ids_as_one(ids: tuple[str, str]) -> None:
    with KnowledgeGraph.open() as kg:
        report = kg.ingest(_payload((ids[0], "홍길동"), (ids[1], "홍길동")), domain="kg")  # "１" is full width
        assert not report.accepted
        assert any(e.code == "duplicate_id" and e.path == "$.entities[1].id" for e in report.errors), report.errors


def test_ingest_refuses_unsafe_chunk_text_and_keeps_line_breaks() -> None:
    with KnowledgeGraph.open() as kg:
        report = kg.ingest(_payload(("E_1", "홍길동"), chunk="홍길동은\u202e 에이씨미에서 일한다."), domain="kg")
        assert not report.accepted
        assert any("chunk_text" in e.path for e in report.errors), report.errors
        report = kg.ingest(_payload(("E_1", "홍길동"), chunk="홍길동은\n에이씨미에서 일한다."), domain="kg")
        assert report.accepted, report.errors


def test_ingest_and_the_loader_keep_labels_as_written(tmp_path: Path) -> None:
    """Labels are checked, not rewritten (ids are NFKC): a label is the name as its source writes it."""
    with KnowledgeGraph.open() as kg:
        report = kg.ingest(_payload(("E_1", "ＨＯＮＧ")), domain="kg")
        assert report.accepted, report.errors
        labels = {
            str(r["l"])
            for r in kg.store.select("SELECT ?l WHERE { ?s <http://www.w3.org/2000/01/rdf-schema#label> ?l }")
        }
        assert "ＨＯＮＧ" in labels
    folder = _copy("kg", tmp_path)
    _append(folder / "kg_nodes.csv", ["p_wide", "Person", "ＨＯＮＧ", ""])
    assert '"ＨＯＮＧ"' in build_dataset(folder).text()


def test_the_policy_covers_every_control_format_and_separator_character() -> None:
    from ont_platform.text_policy import UnsafeText, clean_text

    missed = []
    for cp in range(0x110000):
        ch = chr(cp)
        if unicodedata.category(ch) in ("Cc", "Cf", "Cs", "Zl", "Zp") and ch not in "\t\n\r":
            try:
                clean_text(f"a{ch}b", "text")
            except UnsafeText:
                continue
            missed.append(f"U+{cp:04X}")
    assert not missed, missed
    assert clean_text("a\tb\nc\r\nd", "text") == "a\tb\nc\r\nd"
    for kind in ("id", "label"):
        with pytest.raises(UnsafeText):
            clean_text("a\tb", kind)  # type: ignore[arg-type]
    assert clean_text("ﬁ①", "id") == "fi1"
    assert clean_text("ﬁ①", "label") == "ﬁ①"


# -- 8. spreadsheet-safe CSV ----------------------------------------------------------------------------------------


@pytest.mark.parametrize("lead", ["=", "+", "-", "@", "\t", "\r"])
def test_sample_csv_neutralises_formula_cells(lead: str) -> None:
    from ont_platform.evaluate import write_sample_csv
    from ont_platform.evaluate.sample import SampleRow

    out = io.StringIO()
    write_sample_csv([SampleRow(f"{lead}1+1", f"{lead}s", f"{lead}q", f"{lead}sum")], out)
    rows = list(csv.reader(io.StringIO(out.getvalue())))
    assert rows[1][:4] == [f"'{lead}1+1", f"'{lead}s", f"'{lead}q", f"'{lead}sum"]


def test_ont_eval_sample_writes_no_formula(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    answers = tmp_path / "answers.jsonl"
    answers.write_text(
        json.dumps(
            {
                "q_id": "=1+1",
                "intent": "path_exists",
                "path": [],
                "cited_nodes": [],
                "confidence": "high",
                "answer_ko": "",
                "question": "@SUM(A1)",
            }
        )
        + "\n",
        encoding="utf-8",
    )
    code, out, err = _run_cli(["eval", "sample", str(answers), "--rate", "1"], capsys)
    assert code == 0, err
    rows = list(csv.reader(io.StringIO(out)))
    assert rows[1][0] == "'=1+1" and rows[1][2] == "'@SUM(A1)"
