"""``ont validate`` accepts what the Python guard accepts, and says the same about it.

* a Markdown-fenced JSON file gives the very result ``OntologyGuard(...).validate_sync(text)`` gives;
* a JSON Lines batch (``--jsonl`` or a ``.jsonl`` name) gives one result per non-blank line, with its line number;
* ``--validator NAME`` finds a validator installed as an entry-point plugin (a real distribution on
  ``PYTHONPATH`` of a child process, found by ``importlib.metadata``), and an unknown name lists it.
"""

from __future__ import annotations

import copy
import json
import os
import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest

from ont_platform.validation import OntologyGuard
from tests.validation.conftest import KG_PAYLOAD
from tests.validation.test_cli import run

ROOT = Path(__file__).resolve().parents[2]

TEXT = json.dumps(KG_PAYLOAD, ensure_ascii=False)
BROKEN = copy.deepcopy(KG_PAYLOAD)
BROKEN["entities"][0]["label"] = 5  # wrong_type
BROKEN["relations"][1]["confidence"] = 1.5  # confidence_range, independent of the first fault

FENCED = {
    "json fence": f"```json\n{TEXT}\n```",
    "bare fence": f"```\n{TEXT}\n```\n",
    "fence with spaces around": f"\n  ```JSON\n{json.dumps(KG_PAYLOAD, indent=2, ensure_ascii=False)}\n```  \n",
    "fenced broken payload": f"```json\n{json.dumps(BROKEN, ensure_ascii=False)}\n```",
    "fenced text that is not JSON": '```json\n{"entities": [\n```',
    "prose around the JSON": f"Here is the extraction:\n{TEXT}",
    "empty file": "",
}


@pytest.mark.parametrize("domain", [None, "kg"])
@pytest.mark.parametrize("name", list(FENCED))
def test_cli_gives_the_guards_result_for_the_same_text(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], name: str, domain: str | None
) -> None:
    text = FENCED[name]
    path = tmp_path / "answer.json"
    path.write_text(text, encoding="utf-8")
    expected = OntologyGuard("lightweight", ontology=domain).validate_sync(text).as_dict()
    code, out, _ = run(["validate", str(path)] + (["--domain", domain] if domain else []), capsys)
    assert out == expected
    assert code == (0 if expected["validation_passed"] else 1)


def test_fenced_json_passes_where_plain_json_passes(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    path = tmp_path / "answer.md"
    path.write_text(FENCED["json fence"], encoding="utf-8")
    code, out, _ = run(["validate", str(path), "--domain", "kg"], capsys)
    assert code == 0 and out["validation_passed"] is True and out["checks"]["ontology"] == "passed"


def test_fenced_json_from_stdin(monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]) -> None:
    import io

    monkeypatch.setattr(sys, "stdin", io.StringIO(FENCED["fenced broken payload"]))
    code, out, _ = run(["validate", "-"], capsys)
    assert code == 1
    assert {(e["code"], e["path"]) for e in out["validation_errors"]} == {
        ("wrong_type", "$.entities[0].label"),
        ("confidence_range", "$.relations[1].confidence"),
    }


# --- JSON Lines batches --------------------------------------------------------------------------------------


def _lines(out: str) -> list[dict[str, Any]]:
    return [json.loads(line) for line in out.splitlines()]


def _batch(tmp_path: Path, lines: list[str], name: str = "batch.jsonl") -> str:
    path = tmp_path / name
    path.write_text("\n".join(lines) + "\n", encoding="utf-8")
    return str(path)


def test_batch_prints_one_result_per_line_with_its_number(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    lines = [TEXT, "", "   ", json.dumps(BROKEN, ensure_ascii=False), "{not json", TEXT]
    file = _batch(tmp_path, lines)
    from ont_platform.cli.main import main

    code = main(["validate", file, "--domain", "kg"])
    captured = capsys.readouterr()
    results = _lines(captured.out)
    assert code == 1
    assert [r["line"] for r in results] == [1, 4, 5, 6]  # blank lines are skipped, numbers are the file's
    assert [r["validation_passed"] for r in results] == [True, False, False, True]
    guard = OntologyGuard("lightweight", ontology="kg")
    for r in results:
        assert {k: v for k, v in r.items() if k != "line"} == guard.validate_sync(lines[r["line"] - 1]).as_dict()
    assert [e["code"] for e in results[2]["validation_errors"]] == ["invalid_json"]  # that line's failure only
    assert "2 of 4" in captured.err and "line 4, 5" in captured.err


def test_batch_of_passing_payloads_exits_0(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    from ont_platform.cli.main import main

    assert main(["validate", _batch(tmp_path, [TEXT, TEXT, TEXT]), "--domain", "kg"]) == 0
    assert [r["line"] for r in _lines(capsys.readouterr().out)] == [1, 2, 3]


def test_batch_flag_for_other_names_and_stdin(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    import io

    from ont_platform.cli.main import main

    plain = _batch(tmp_path, [TEXT, TEXT], name="batch.txt")
    assert main(["validate", plain, "--jsonl"]) == 0
    assert len(_lines(capsys.readouterr().out)) == 2
    # without --jsonl the same file is one payload: two JSON documents in a row are not JSON
    assert main(["validate", plain]) == 1
    assert [e["code"] for e in json.loads(capsys.readouterr().out)["validation_errors"]] == ["invalid_json"]
    monkeypatch.setattr(sys, "stdin", io.StringIO(TEXT + "\r\n" + json.dumps(BROKEN) + "\r\r" + TEXT + "\n"))
    assert main(["validate", "-", "--jsonl"]) == 1
    assert [(r["line"], r["validation_passed"]) for r in _lines(capsys.readouterr().out)] == [
        (1, True),
        (2, False),
        (4, True),
    ]


def test_batch_strict_fails_on_warnings(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    from ont_platform.cli.main import main

    warned = copy.deepcopy(KG_PAYLOAD)
    warned["entities"][2]["label"] = "value"  # meaningless_label: a warning
    file = _batch(tmp_path, [TEXT, json.dumps(warned, ensure_ascii=False)])
    assert main(["validate", file]) == 0
    capsys.readouterr()
    assert main(["validate", file, "--strict"]) == 1
    results = _lines(capsys.readouterr().out)
    assert [(r["line"], r["validation_passed"], len(r["warnings"])) for r in results] == [(1, True, 0), (2, True, 1)]


def test_a_line_separator_inside_a_string_does_not_split_a_line(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    from ont_platform.cli.main import main

    payload = copy.deepcopy(KG_PAYLOAD)
    payload["entities"][0]["label"] = "홍길동\u2028\u0085"
    assert main(["validate", _batch(tmp_path, [json.dumps(payload, ensure_ascii=False)])]) == 0
    assert [r["line"] for r in _lines(capsys.readouterr().out)] == [1]


@pytest.mark.parametrize("content", ["", "\n\n   \n"])
def test_batch_without_payloads_is_unusable(tmp_path: Path, capsys: pytest.CaptureFixture[str], content: str) -> None:
    from ont_platform.cli.main import main

    path = tmp_path / "empty.jsonl"
    path.write_text(content, encoding="utf-8")
    assert main(["validate", str(path)]) == 2
    captured = capsys.readouterr()
    assert captured.out == "" and "no payload" in captured.err


def test_unreadable_batch_is_unusable(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    from ont_platform.cli.main import main

    path = tmp_path / "latin1.jsonl"
    path.write_bytes(TEXT.encode("utf-8") + b"\n" + "café".encode("latin-1") + b"\n")
    assert main(["validate", str(path)]) == 2
    assert main(["validate", str(tmp_path / "missing.jsonl")]) == 2
    captured = capsys.readouterr()
    assert captured.out == "" and captured.err.count("error:") == 2


# --- a validator installed as an entry-point plugin ----------------------------------------------------------

PLUGIN_MODULE = '''
"""A validator plugin for the test: the standard checks, plus: no label may contain "X"."""

from ont_platform.validation import Validator
from ont_platform.validation.base import evaluate, make_result


class NoXLabels(Validator):
    name = "no-x-labels"

    def check(self, payload):
        extraction, findings, checks = evaluate(payload, self.config, self.index)
        for i, entity in enumerate(extraction.entities if extraction else []):
            if "X" in entity.label:
                findings.error("x_in_label", f"$.entities[{i}].label", "labels may not contain X")
        return make_result(self.name, findings, checks, extraction)
'''


@pytest.fixture
def plugin_path(tmp_path: Path) -> Path:
    """A folder holding an installed distribution (as pip leaves it): a module and its ``.dist-info`` whose
    entry_points.txt registers the module's validator in the group ``ont_platform.validators``."""
    from ont_platform.validation.registry import ENTRY_POINT_GROUP

    site = tmp_path / "site"
    site.mkdir()
    (site / "ont_test_plugin_mod.py").write_text(PLUGIN_MODULE, encoding="utf-8")
    info = site / "ont_test_plugin-0.1.dist-info"
    info.mkdir()
    (info / "METADATA").write_text("Metadata-Version: 2.1\nName: ont-test-plugin\nVersion: 0.1\n", encoding="utf-8")
    (info / "entry_points.txt").write_text(
        f"[{ENTRY_POINT_GROUP}]\nno-x-labels = ont_test_plugin_mod:NoXLabels\n", encoding="utf-8"
    )
    return site


def _ont(args: list[str], site: Path | None, cwd: Path) -> subprocess.CompletedProcess[str]:
    """``ont`` in a child process (``python -m ont_platform.cli.main``, the module behind the ``ont`` script),
    with ``site`` on PYTHONPATH so that importlib.metadata sees the plugin's distribution."""
    env = dict(os.environ)
    paths = ([str(site)] if site is not None else []) + [str(ROOT)]
    if env.get("PYTHONPATH"):
        paths.append(env["PYTHONPATH"])
    env["PYTHONPATH"] = os.pathsep.join(paths)
    return subprocess.run(
        [sys.executable, "-m", "ont_platform.cli.main", "validate", *args],
        cwd=cwd,
        env=env,
        capture_output=True,
        text=True,
        encoding="utf-8",
        check=False,
    )


def test_validator_plugin_is_found_through_its_entry_point(tmp_path: Path, plugin_path: Path) -> None:
    payload = copy.deepcopy(KG_PAYLOAD)
    payload["entities"][1]["label"] = "XYZ Corp"
    file = tmp_path / "answer.json"
    file.write_text(f"```json\n{json.dumps(payload, ensure_ascii=False)}\n```", encoding="utf-8")

    done = _ont([str(file), "--validator", "no-x-labels", "--domain", "kg"], plugin_path, tmp_path)
    assert done.returncode == 1, done.stderr
    out = json.loads(done.stdout)
    assert out["validator"] == "no-x-labels"
    assert [(e["code"], e["path"]) for e in out["validation_errors"]] == [("x_in_label", "$.entities[1].label")]
    assert out["checks"] == {"structure": "passed", "rules": "passed", "ontology": "passed"}

    file.write_text(TEXT, encoding="utf-8")
    done = _ont([str(file), "--validator", "No-X-Labels"], plugin_path, tmp_path)  # names are case-insensitive
    assert done.returncode == 0, done.stderr
    assert json.loads(done.stdout)["validator"] == "no-x-labels"


def test_unknown_validator_lists_plugins_too(tmp_path: Path, plugin_path: Path) -> None:
    file = tmp_path / "answer.json"
    file.write_text(TEXT, encoding="utf-8")
    done = _ont([str(file), "--validator", "no-such"], plugin_path, tmp_path)
    assert done.returncode == 2 and done.stdout == ""
    listed = done.stderr.partition("available:")[2]
    for name in ("guardrails", "lightweight", "no-x-labels", "ontocast"):
        assert name in listed, done.stderr
    # without the distribution on the path, the plugin's name is unknown (the test above really used it)
    done = _ont([str(file), "--validator", "no-x-labels"], None, tmp_path)
    assert done.returncode == 2 and "no-x-labels" not in done.stderr.partition("available:")[2]
