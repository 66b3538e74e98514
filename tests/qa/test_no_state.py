"""No state between questions: an answer does not depend on what was asked before it.

Every question of the bundled corpora is first answered alone, by a graph that has answered nothing else; then
the whole corpus is asked of one graph in random orders, and each answer must equal the lone one, field for
field (the SPARQL that ran included).
"""

from __future__ import annotations

import json
from collections.abc import Iterator
from pathlib import Path

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from ont_platform import KnowledgeGraph
from tests.conftest import EXAMPLES

ROOT = Path(__file__).resolve().parent


def _lines(path: Path) -> list[dict]:
    return [json.loads(x) for x in path.read_text(encoding="utf-8").splitlines() if x.strip()]


CORPUS: list[tuple[str, str, str]] = [
    *[("onchain", "onchain", q["question"]) for q in _lines(ROOT / "corpus" / "onchain.jsonl")],
    *[("kg", "kg", q["question"]) for q in _lines(ROOT / "corpus" / "kg.jsonl")],
    *[("pages", "pages", q["question"]) for q in _lines(EXAMPLES / "pages" / "questions.jsonl")],
    *[("films", "films", q["question"]) for q in _lines(EXAMPLES / "films" / "questions.jsonl")],
]
"""(example folder, domain, question)."""


def _load_all(kg: KnowledgeGraph) -> None:
    for folder in ("onchain", "kg", "pages", "films"):
        kg.load(EXAMPLES / folder)


@pytest.fixture(scope="module")
def alone() -> dict[tuple[str, str], dict]:
    """Each question's answer from a graph that has answered no other question: a new KnowledgeGraph (no
    question context, lexicon, caches or edge mirror of its own yet) over the loaded store."""
    stores = {}
    for folder in ("onchain", "kg", "pages", "films"):
        loaded = KnowledgeGraph.open()
        loaded.load(EXAMPLES / folder)
        stores[folder] = loaded
    out = {}
    for folder, domain, question in CORPUS:
        fresh = KnowledgeGraph(stores[folder].store)
        out[(domain, question)] = fresh.ask(question, domain=domain, qid="q").to_json()
    for kg in stores.values():
        kg.close()
    return out


@pytest.fixture(scope="module")
def shared() -> Iterator[KnowledgeGraph]:
    with KnowledgeGraph.open() as kg:
        _load_all(kg)
        yield kg


@pytest.mark.slow
@settings(
    max_examples=4, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture, HealthCheck.too_slow]
)
@given(order=st.permutations(range(len(CORPUS))))
def test_answers_do_not_depend_on_the_questions_before(alone: dict, shared: KnowledgeGraph, order: list[int]) -> None:
    for i in order:
        _, domain, question = CORPUS[i]
        got = shared.ask(question, domain=domain, qid="q").to_json()
        assert got == alone[(domain, question)], question


def test_a_batch_answers_each_line_as_if_asked_alone(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], alone: dict
) -> None:
    from ont_platform.cli.main import main

    items = [(d, q) for f, d, q in CORPUS if d == "kg"]
    batch = tmp_path / "batch.jsonl"
    batch.write_text(
        "".join(json.dumps({"id": "q", "question": q}, ensure_ascii=False) + "\n" for _, q in reversed(items)),
        encoding="utf-8",
    )
    assert main(["ask", "--data", str(EXAMPLES / "kg"), "--batch", str(batch)]) == 0
    lines = [json.loads(x) for x in capsys.readouterr().out.splitlines() if x.strip()]
    assert lines == [alone[("kg", q)] for _, q in reversed(items)]
