"""``ont validate``: JSON on stdout, exit 0 when the extraction passed, 1 when not, 2 for unusable input.

Parity with the Python guard (fenced JSON, JSON Lines batches, entry-point plugins) is in test_cli_parity.py.
"""

from __future__ import annotations

import argparse
import copy
import io
import json
import sys
from pathlib import Path
from typing import Any

import pytest

from ont_platform.cli.validate import add_parser
from ont_platform.errors import InputError
from tests.validation.conftest import KG_PAYLOAD


def run(argv: list[str], capsys: pytest.CaptureFixture[str]) -> tuple[int, Any, str]:
    """Run the command the way ``ont`` does (InputError is exit 2); returns code, parsed stdout, stderr."""
    from ont_platform.cli import main as cli

    parser = cli.build_parser()
    wired = any(isinstance(a, argparse._SubParsersAction) and "validate" in a.choices for a in parser._actions)
    if wired:
        code = cli.main(argv)
    else:  # the command module on its own, with the same error mapping as ont's main
        parser = argparse.ArgumentParser(prog="ont")
        add_parser(parser.add_subparsers(dest="command"))
        args = parser.parse_args(argv)
        try:
            code = args.func(args)
        except InputError as exc:
            print(f"error: {exc}", file=sys.stderr)
            code = 2
    out, err = capsys.readouterr()
    return code, json.loads(out) if out.strip() else None, err


def _write(tmp_path: Path, payload: Any, name: str = "extraction.json") -> str:
    path = tmp_path / name
    path.write_text(payload if isinstance(payload, str) else json.dumps(payload, ensure_ascii=False), encoding="utf-8")
    return str(path)


def test_passing_extraction_exits_0(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    code, out, _ = run(["validate", _write(tmp_path, KG_PAYLOAD), "--domain", "kg"], capsys)
    assert code == 0 and out["validation_passed"] is True and out["validator"] == "lightweight"


@pytest.mark.parametrize("validator", ["lightweight", "ontocast"])
def test_failing_extraction_exits_1_with_errors(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], validator: str
) -> None:
    bad = copy.deepcopy(KG_PAYLOAD)
    bad["relations"][0]["target_id"] = "E_3"  # worksFor a city
    code, out, err = run(["validate", _write(tmp_path, bad), "--validator", validator, "--domain", "kg"], capsys)
    assert code == 1 and out["validation_passed"] is False
    assert {"code": "range_violation", "path": "$.relations[0].target_id"}.items() <= out["validation_errors"][
        0
    ].items()
    assert "reask_message" in out and "validation failed" in err


def test_strict_also_fails_on_warnings(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    payload = copy.deepcopy(KG_PAYLOAD)
    payload["entities"][2]["label"] = "value"
    file = _write(tmp_path, payload)
    assert run(["validate", file], capsys)[0] == 0
    code, out, _ = run(["validate", file, "--strict"], capsys)
    assert code == 1 and out["validation_passed"] is True and out["warnings"][0]["code"] == "meaningless_label"
    bad = _write(tmp_path, {"entities": [{"id": "X1", "label": "a", "type": "individual"}]}, "bad.json")
    code, out, _ = run(["validate", bad, "--strict"], capsys)
    assert code == 1 and out["validation_errors"][0]["code"] == "entity_id_prefix"


def test_wrong_shape_is_a_result_not_unusable_input(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    code, out, _ = run(["validate", _write(tmp_path, [1, 2, 3])], capsys)
    assert code == 1 and out["validation_errors"][0]["code"] == "not_an_object"


@pytest.mark.parametrize(
    "argv",
    [
        ["validate", "/nonexistent/file.json"],
        ["validate", "{file}", "--validator", "no-such-validator"],
        ["validate", "{latin1}"],
        ["validate", "{directory}"],
    ],
)
def test_unusable_input_exits_2(tmp_path: Path, capsys: pytest.CaptureFixture[str], argv: list[str]) -> None:
    file = _write(tmp_path, KG_PAYLOAD)
    latin1 = tmp_path / "latin1.json"
    latin1.write_bytes('{"entities": [{"id": "E_1", "label": "café", "type": "individual"}]}'.encode("latin-1"))
    code, out, err = run([a.format(file=file, latin1=latin1, directory=tmp_path) for a in argv], capsys)
    assert code == 2 and out is None and err.startswith("error:")


def test_unknown_validator_lists_the_available_names(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    code, out, err = run(["validate", _write(tmp_path, KG_PAYLOAD), "--validator", "no-such-validator"], capsys)
    assert code == 2 and out is None
    listed = err.partition("available:")[2]
    assert "no-such-validator" in err and all(name in listed for name in ("guardrails", "lightweight", "ontocast"))


def test_text_that_is_not_json_is_a_result_as_in_the_guard(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    # OntologyGuard.validate_sync("{not json") returns an invalid_json result; the command agrees (exit 1).
    code, out, err = run(["validate", _write(tmp_path, "{not json", "broken.json")], capsys)
    assert code == 1 and [(e["code"], e["path"]) for e in out["validation_errors"]] == [("invalid_json", "$")]
    assert "validation failed" in err and "invalid_json" in err


def test_a_byte_order_mark_is_not_part_of_the_payload(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    path = tmp_path / "bom.json"
    path.write_bytes(b"\xef\xbb\xbf" + json.dumps(KG_PAYLOAD).encode())
    code, out, _ = run(["validate", str(path), "--domain", "kg"], capsys)
    assert code == 0 and out["validation_passed"] is True


def test_reads_stdin(monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]) -> None:
    monkeypatch.setattr(sys, "stdin", io.StringIO(json.dumps(KG_PAYLOAD)))
    code, out, _ = run(["validate", "-", "--domain", "kg"], capsys)
    assert code == 0 and out["validation_passed"] is True


def test_help_documents_the_command() -> None:
    parser = argparse.ArgumentParser(prog="ont")
    sub = parser.add_subparsers()
    validate = add_parser(sub)
    text = validate.format_help()
    for word in ("--validator", "--strict", "--domain", "--jsonl", "Exit 0"):
        assert word in text
