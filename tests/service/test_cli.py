"""``ont serve``'s command line: options, help, and refusal of unusable arguments before anything starts."""

from __future__ import annotations

import argparse

import pytest

from ont_platform.cli import serve
from ont_platform.errors import InputError


def parser() -> argparse.ArgumentParser:
    p = argparse.ArgumentParser(prog="ont")
    serve.add_parser(p.add_subparsers(dest="command"))
    return p


def test_defaults_listen_on_loopback_only() -> None:
    args = parser().parse_args(["serve"])
    assert (args.host, args.port, args.data, args.allow_private_urls) == ("127.0.0.1", 8000, None, False)
    assert args.func is serve.cmd_serve


def test_options() -> None:
    args = parser().parse_args(
        [
            "serve",
            "--port",
            "9001",
            "--data",
            "examples/kg",
            "--data",
            "examples/onchain",
            "--allow-private-urls",
            "--allow-network",
            "10.0.0.0/8",
        ]
    )
    assert args.port == 9001
    assert [str(d) for d in args.data] == ["examples/kg", "examples/onchain"]
    assert args.allow_private_urls and args.allow_network == ["10.0.0.0/8"]


def test_help_names_every_option(capsys: pytest.CaptureFixture[str]) -> None:
    with pytest.raises(SystemExit):
        parser().parse_args(["serve", "--help"])
    out = capsys.readouterr().out
    for option in ("--host", "--port", "--data", "--allow-private-urls", "--allow-network", "--token", "--token-file"):
        assert option in out


@pytest.mark.parametrize(
    "argv",
    [
        ["--port", "70000"],
        ["--allow-network", "not-a-network"],
        ["--data", "/no/such/folder"],
        ["--token", "short"],
        ["--token-file", "/no/such/token"],
        ["--token", "a-token-long-enough-1", "--token-file", "/etc/hostname"],
    ],
)
def test_unusable_arguments_are_refused_before_serving(argv: list[str], monkeypatch: pytest.MonkeyPatch) -> None:
    import uvicorn

    monkeypatch.setattr(uvicorn, "run", lambda *a, **k: pytest.fail("the server must not start"))
    args = parser().parse_args(["serve", *argv])
    with pytest.raises(InputError):
        args.func(args)


def test_the_examples_of_a_dataset_folder_are_offered(tmp_path) -> None:
    (tmp_path / "questions.jsonl").write_text(
        '{"id": "a", "question": "첫 질문?"}\nnot json\n{"id": 2}\n', encoding="utf-8"
    )
    assert serve._examples(tmp_path) == ["첫 질문?"]
    assert serve._examples(tmp_path / "missing") == []
