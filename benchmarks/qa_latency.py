"""Question-answering latency on the real Ethereum example, and accuracy on the bundled corpora.

    python benchmarks/qa_latency.py [--repeat 20]

Prints, for examples/onchain-real: the load time, the median and p95 of parsing alone (question → plan) and
of end-to-end ``ask`` (parse, SPARQL, answer), measured with time.perf_counter over every bundled question
repeated ``--repeat`` times after one warm-up pass (the Korean analyser loads once, before timing). Then the
share of corpus questions (tests/qa/corpus) whose answer matches the gold intent/decision.
"""

from __future__ import annotations

import argparse
import json
import statistics
import time
from pathlib import Path

from ont_platform import KnowledgeGraph
from ont_platform.qa import onchain as onchain_qa

ROOT = Path(__file__).resolve().parents[1]


def _lines(path: Path) -> list[dict]:
    return [json.loads(x) for x in path.read_text(encoding="utf-8").splitlines() if x.strip()]


def _ms(samples: list[float]) -> str:
    samples = sorted(samples)
    p95 = samples[min(len(samples) - 1, int(0.95 * len(samples)))]
    return f"median {statistics.median(samples) * 1000:.2f} ms, p95 {p95 * 1000:.2f} ms (n={len(samples)})"


def main() -> None:
    ap = argparse.ArgumentParser()
    ap.add_argument("--repeat", type=int, default=20)
    args = ap.parse_args()

    kg = KnowledgeGraph.open()
    started = time.perf_counter()
    kg.load(ROOT / "examples" / "onchain-real")
    print(f"load examples/onchain-real: {time.perf_counter() - started:.2f} s, {len(kg)} triples")
    questions = [q["question"] for q in _lines(ROOT / "examples" / "onchain-real" / "questions.jsonl")]
    for q in questions:  # warm-up: analyser, lexicon, query caches
        kg.ask(q)
    ctx = kg.context("onchain").for_question()
    parse, ask = [], []
    for _ in range(args.repeat):
        for q in questions:
            t0 = time.perf_counter()
            onchain_qa.plan(ctx, q)
            t1 = time.perf_counter()
            kg.ask(q)
            t2 = time.perf_counter()
            parse.append(t1 - t0)
            ask.append(t2 - t1)
    print(f"parse (question → plan): {_ms(parse)}")
    print(f"ask end to end:          {_ms(ask)}")
    kg.close()

    for name, path, field in (("onchain", "onchain.jsonl", "kind"), ("kg", "kg.jsonl", "decision")):
        items = _lines(ROOT / "tests" / "qa" / "corpus" / path)
        with KnowledgeGraph.open() as g:
            g.load(ROOT / "examples" / name)
            ok = 0
            for item in items:
                got = g.ask(item["question"]).to_json()
                want = item["expect"]
                if name == "kg":
                    ok += got["decision"] == want["decision"] and got["factors"] == want["factors"]
                elif want[field] == "not_understood":  # a reading that leaves words unexplained claims nothing
                    ok += got["confidence"] == "low" and not got["cited_nodes"]
                else:
                    intents = {
                        "path": {"path_exists", "no_path"},
                        "cluster": {"cluster_lookup"},
                        "label": {"label_lookup"},
                        "flow": {"token_flow"},
                    }
                    ok += got["intent"] in intents.get(want[field], {want.get("intent")})
            print(f"corpus {name}: {ok}/{len(items)} intent/decision correct ({ok / len(items):.1%})")


if __name__ == "__main__":
    main()
