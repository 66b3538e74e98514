"""``ont demo``: the bundled examples loaded into the embedded store, and their questions answered."""

from __future__ import annotations

import json
import time
from typing import TextIO

from ont_platform.domains import BUNDLED
from ont_platform.kg import KnowledgeGraph
from ont_platform.qa.engine import Answer
from ont_platform.resources import example_dataset
from ont_platform.view import node_ids, render

DEMO_DATASETS = BUNDLED
"""The example folders of the bundled domains (examples/<name>)."""


def demo_questions(name: str) -> list[dict[str, str]]:
    """The questions bundled with an example dataset (``questions.jsonl``: id and question)."""
    path = example_dataset(name) / "questions.jsonl"
    out = []
    for line in path.read_text(encoding="utf-8").splitlines():
        if line.strip():
            doc = json.loads(line)
            out.append({"id": str(doc["id"]), "question": str(doc["question"])})
    return out


def run_demo(*, json_out: bool, out: TextIO) -> int:
    """Load the three example datasets into one in-memory Oxigraph store and answer their questions."""
    with KnowledgeGraph.open() as kg:
        for name in DEMO_DATASETS:
            started = time.perf_counter()
            report = kg.load(example_dataset(name))
            if not json_out:
                counts = ", ".join(f"{v} {k}" for k, v in report.counts.items())
                out.write(
                    f"# {name}: loaded {counts} ({report.triples_added} triples, "
                    f"{time.perf_counter() - started:.2f} s)\n\n"
                )
            for item in demo_questions(name):
                result: Answer = kg.ask(item["question"], domain=report.domain, qid=item["id"])
                if json_out:
                    out.write(json.dumps(result.to_json(), ensure_ascii=False) + "\n")
                else:
                    labels = kg.labels(node_ids(result), domain=report.domain)
                    out.write(render(result, item["question"], labels) + "\n")
    return 0
