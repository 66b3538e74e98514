"""Opening an existing on-disk store and answering its first question, in a fresh process each time.

    python benchmarks/cold_start.py --size 1M [--store /tmp/ont-bench/stores/1M] [--runs 5] [--seed 7]
    python benchmarks/cold_start.py --size 10M --runs 3

1. The store folder is loaded from the seeded dataset (``benchmarks/generate.py``) if it holds no data yet; that
   load is timed with its peak memory.
2. Each measured run is a new interpreter that imports the library, opens the store (``KnowledgeGraph.open``),
   asks one 3-hop question about a seeded start node and prints its timings: open, first ask (the Korean
   analyser, the question's names, the walk), the whole process as the parent saw it, and the peak resident
   memory. The first run after the load builds the names kept beside the store (qa/names.py) and is reported
   apart; the next ``--runs`` find them and are the cold start a user meets every day (medians).
3. For comparison, in fresh processes too: the Korean analyser alone (import, ``Kiwi()``, one sentence), and a
   run with the kept names removed (what every first question cost before they were kept: every name read).

Nothing here is a test; numbers vary with the machine and its load, which is printed with them.
"""

from __future__ import annotations

import argparse
import json
import random
import shutil
import statistics
import subprocess
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT / "benchmarks"))

from generate import ensure, parse_size, size_label

QUESTION = "{id} 에서 3-hop 안에 거래소 입금주소에 닿나요?"

CHILD = r"""
import json, sys, time
t0 = time.perf_counter()
from ont_platform import KnowledgeGraph
kg = KnowledgeGraph.open(sys.argv[1], read_only=sys.argv[3] == "ro")
t1 = time.perf_counter()
answer = kg.ask(sys.argv[2]).to_json()
t2 = time.perf_counter()
hwm = next(int(line.split()[1]) for line in open("/proc/self/status") if line.startswith("VmHWM:"))
kg.close()
print(json.dumps({"open": t1 - t0, "ask": t2 - t1, "intent": answer["intent"], "peak_mb": hwm / 1024}))
"""

ANALYSER = r"""
import time
t0 = time.perf_counter()
from kiwipiepy import Kiwi
Kiwi().analyze("n_1 에서 3-hop 안에 거래소 입금주소에 닿나요?")
print(time.perf_counter() - t0)
"""


def load_avg() -> str:
    return " ".join(Path("/proc/loadavg").read_text().split()[:3])


def child(store: Path, question: str, mode: str = "rw") -> dict[str, float | str]:
    t0 = time.perf_counter()
    out = subprocess.run(
        [sys.executable, "-c", CHILD, str(store), question, mode], capture_output=True, text=True, check=True
    )
    result = json.loads(out.stdout.strip().splitlines()[-1])
    result["wall"] = time.perf_counter() - t0
    return result


def show(name: str, runs: list[dict[str, float | str]]) -> None:
    def med(key: str) -> float:
        return statistics.median(float(r[key]) for r in runs)

    print(
        f"   {name:44s} open {med('open'):6.2f} s   first ask {med('ask'):6.2f} s   process {med('wall'):6.2f} s"
        f"   peak {med('peak_mb'):6.0f} MB   ({len(runs)} run(s), answer {runs[0]['intent']})"
    )


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--size", default="1M")
    ap.add_argument("--seed", type=int, default=7)
    ap.add_argument("--store", type=Path, default=None, help="store folder (default /tmp/ont-bench/stores/SIZE)")
    ap.add_argument("--runs", type=int, default=5)
    ap.add_argument("--shacl", default="auto", help="SHACL mode of the load into an empty store")
    args = ap.parse_args()
    n = parse_size(args.size)
    folder = ensure(n, args.seed)
    store = args.store or Path("/tmp/ont-bench/stores") / size_label(n)
    meta = json.loads((folder / "generated.json").read_text(encoding="utf-8"))
    print(f"== {size_label(n)} transfers ({meta['nodes']} nodes), store {store}; load average {load_avg()}")

    from ont_platform import KnowledgeGraph

    with KnowledgeGraph.open(store) as kg:
        if not list(kg.select("SELECT ?s WHERE { ?s ?p ?o } LIMIT 1")):  # len() would count every triple
            t0 = time.perf_counter()
            report = kg.load(folder, shacl=args.shacl)
            hwm = next(int(x.split()[1]) for x in open("/proc/self/status") if x.startswith("VmHWM:"))
            print(
                f"   load: {time.perf_counter() - t0:.1f} s, peak RSS {hwm / 1024 / 1024:.2f} GB, SHACL"
                f" {report.shacl.mode}; load average {load_avg()}"
            )
    with open(folder / "onchain_edges.csv", encoding="utf-8") as f:
        next(f)
        senders = sorted({line.split(",", 3)[2] for _, line in zip(range(50_000), f, strict=False)})
    question = QUESTION.format(id=random.Random(args.seed).choice(senders))
    print(f"   question: {question}")

    analyser = [
        float(subprocess.run([sys.executable, "-c", ANALYSER], capture_output=True, text=True, check=True).stdout)
        for _ in range(args.runs)
    ]
    print(f"   {'Korean analyser alone (baseline)':44s} {statistics.median(analyser):6.2f} s ({args.runs} runs)")
    first = child(store, question)
    show("first process after the load (builds names)", [first])
    kept = [child(store, question) for _ in range(args.runs)]
    show("open + first ask, names kept (cold start)", kept)
    read_only = [child(store, question, "ro") for _ in range(args.runs)]
    show("the same, opened read-only", read_only)
    over = statistics.median(float(r["wall"]) for r in kept) - statistics.median(analyser)
    print(f"   cold start over the analyser alone: {over:+.2f} s (process wall, medians)")
    index = store / "ont-index"
    shutil.rmtree(index, ignore_errors=True)
    rebuilt = child(store, question)
    show("names removed: every name read again", [rebuilt])
    print(f"   load average at end {load_avg()}")


if __name__ == "__main__":
    main()
