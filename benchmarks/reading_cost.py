"""What the reading step costs per question: the whole ``ask`` of this tree against an earlier revision.

    python benchmarks/reading_cost.py [--baseline 884c19c] [--repeat 10]

The earlier revision (default: the last one before the reading step, which had no word accounting, typed
chains or ontology-filled gaps) is checked out with ``git archive`` into a temporary folder. Both trees then
answer the same questions in child processes of their own, one after the other in this run: the bundled kg and
on-chain corpora of this tree (tests/qa/corpus), each tree over its own examples/kg and examples/onchain (the
example data moved on a little with the reading step), each question ``--repeat`` times after a
warm-up pass (the Korean analyser and the lexicon load before timing). Printed per domain: the median and p95
of ``kg.ask`` in each tree and the difference of the medians. The target is a difference of at most 1 ms.
"""

from __future__ import annotations

import argparse
import json
import os
import statistics
import subprocess
import sys
import tarfile
import tempfile
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]

CHILD = r"""
import json, sys, time, statistics
from pathlib import Path
from ont_platform import KnowledgeGraph
root, repeat, tree = Path(sys.argv[1]), int(sys.argv[2]), Path(sys.argv[3])
out = {}
for domain, corpus in (("kg", "kg.jsonl"), ("onchain", "onchain.jsonl")):
    questions = [json.loads(x)["question"] for x in (root / "tests/qa/corpus" / corpus).read_text("utf-8").splitlines()
                 if x.strip()]
    kg = KnowledgeGraph.open()
    kg.load(tree / "examples" / domain)
    for q in questions:
        kg.ask(q)
    samples = []
    for _ in range(repeat):
        for q in questions:
            t = time.perf_counter()
            kg.ask(q)
            samples.append(time.perf_counter() - t)
    samples.sort()
    out[domain] = {"median_ms": statistics.median(samples) * 1000,
                   "p95_ms": samples[int(0.95 * (len(samples) - 1))] * 1000, "n": len(samples)}
    kg.close()
print(json.dumps(out))
"""


def _run(tree: Path, corpus_root: Path, repeat: int) -> dict[str, dict[str, float]]:
    env = {**os.environ, "PYTHONPATH": str(tree)}
    done = subprocess.run(
        [sys.executable, "-c", CHILD, str(corpus_root), str(repeat), str(tree)],
        env=env,
        cwd=tree,
        capture_output=True,
        text=True,
        check=True,
    )
    return json.loads(done.stdout.strip().splitlines()[-1])  # type: ignore[no-any-return]


def main() -> None:
    ap = argparse.ArgumentParser()
    ap.add_argument("--baseline", default="884c19c", help="the revision to compare with")
    ap.add_argument("--repeat", type=int, default=10)
    args = ap.parse_args()
    with tempfile.TemporaryDirectory(prefix="ont-baseline-") as tmp:
        archive = Path(tmp) / "tree.tar"
        subprocess.run(["git", "archive", "--format=tar", "-o", str(archive), args.baseline], cwd=ROOT, check=True)
        base = Path(tmp) / "tree"
        with tarfile.open(archive) as tar:
            tar.extractall(base, filter="data")
        # both trees answer the same questions (this tree's corpora), each over its own example data
        before = _run(base, ROOT, args.repeat)
        after = _run(ROOT, ROOT, args.repeat)
    load = os.getloadavg()
    print(f"kg.ask per question, {args.baseline} vs this tree (load average {load[0]:.2f} {load[1]:.2f} {load[2]:.2f})")
    for domain in before:
        b, a = before[domain], after[domain]
        print(
            f"  {domain:8} before median {b['median_ms']:.3f} ms (p95 {b['p95_ms']:.3f}), "
            f"after median {a['median_ms']:.3f} ms (p95 {a['p95_ms']:.3f}), n={a['n']}: "
            f"{a['median_ms'] - b['median_ms']:+.3f} ms"
        )
    print(
        f"  difference of the medians over both: "
        f"{statistics.mean(after[d]['median_ms'] - before[d]['median_ms'] for d in before):+.3f} ms"
    )


if __name__ == "__main__":
    main()
