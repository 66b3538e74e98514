"""Fixtures for verification: one loaded graph per bundled dataset, and the genuine answers to its questions."""

from __future__ import annotations

import json
import sys
from collections.abc import Iterator, Sequence
from pathlib import Path
from typing import Any

import pytest

from ont_platform import KnowledgeGraph
from ont_platform.verify import Verifier

EXAMPLES = Path(__file__).resolve().parents[2] / "examples"


def questions(name: str) -> list[dict[str, Any]]:
    """The gold lines of a bundled dataset (``examples/<name>/questions.jsonl``)."""
    path = EXAMPLES / name / "questions.jsonl"
    return [json.loads(line) for line in path.read_text(encoding="utf-8").splitlines() if line.strip()]


class Loaded:
    """A loaded example graph, a verifier over it, and the genuine answer to each of its questions."""

    def __init__(self, name: str) -> None:
        self.name = name
        self.kg = KnowledgeGraph.open()
        self.kg.load(EXAMPLES / name)
        self.verifier = Verifier(self.kg)
        self.gold = {q["id"]: q for q in questions(name)}
        self._answers: dict[str, dict[str, Any]] = {}

    def answer(self, qid: str) -> dict[str, Any]:
        """A fresh copy of the genuine answer to gold question ``qid``."""
        if qid not in self._answers:
            self._answers[qid] = self.kg.ask(self.gold[qid]["question"], qid=qid).to_json()
        return json.loads(json.dumps(self._answers[qid]))

    def question(self, qid: str) -> str:
        return str(self.gold[qid]["question"])

    def close(self) -> None:
        self.verifier.close()
        self.kg.close()


def _loaded(name: str) -> Iterator[Loaded]:
    item = Loaded(name)
    yield item
    item.close()


@pytest.fixture(scope="session")
def onchain() -> Iterator[Loaded]:
    yield from _loaded("onchain")


@pytest.fixture(scope="session")
def kgraph() -> Iterator[Loaded]:
    yield from _loaded("kg")


@pytest.fixture(scope="session")
def pages() -> Iterator[Loaded]:
    yield from _loaded("pages")


def run_cli(argv: Sequence[str], capsys: pytest.CaptureFixture[str]) -> tuple[int, str, str]:
    """Run ``ont`` with the verify and eval commands registered (whether or not the main parser has them yet)."""
    from ont_platform.cli import evaluate as eval_cli
    from ont_platform.cli import main as cli
    from ont_platform.cli import verify as verify_cli

    real = cli.build_parser

    def build() -> Any:
        parser = real()
        sub = next(a for a in parser._actions if a.__class__.__name__ == "_SubParsersAction")
        if "verify" not in sub.choices:
            verify_cli.add_parser(sub)
        if "eval" not in sub.choices:
            eval_cli.add_parser(sub)
        return parser

    cli.build_parser = build  # type: ignore[assignment]
    try:
        code = cli.main(list(argv))
    finally:
        cli.build_parser = real  # type: ignore[assignment]
    out, err = capsys.readouterr()
    sys.stdout.flush()
    return code, out, err
