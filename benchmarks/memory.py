"""The Python side's memory: what the library itself allocates to load a dataset folder and to answer questions,
apart from the store (whose memory is the engine's: ~380 bytes a triple in memory, a bounded cache on disk).

    python benchmarks/memory.py --sizes 10k,100k,1M [--seed 7] [--shacl auto]
    python benchmarks/memory.py --sizes 10M --questions 0
    python benchmarks/memory.py --sizes 1M,10M --trace off --questions 300 --store /tmp/ont-bench/stores/10M-f

Each size runs in a fresh process:

1. **Load**: the folder's rows are read, checked (row checks and SHACL as ``--shacl`` says) and formatted into
   N-Triples chunks that go nowhere (the loader's stream without a store), with ``tracemalloc`` counting every
   allocation Python makes; its peak is the Python side of a load. The process's peak resident memory is printed
   too (interpreter and libraries included). ``--trace off`` leaves ``tracemalloc`` out (it makes the stream
   several times slower: over 15 minutes at 1M): the process's peak, which holds the Python side and more, is
   then the measure, as the stream has no store.
2. **Questions** (``--questions N``, on-disk store under /tmp/ont-bench/stores/SIZE or ``--store`` for the
   last size, loaded when empty): the
   store is opened, N path questions are asked about seeded start nodes, and ``tracemalloc``'s peak over that
   (the names kept beside the store, the transfer mirror's lists, the analyser's Python objects; not the store
   engine's nor the analyser's native model) is printed with the resident memory before and after.

Measures of memory, not of time: the machine's load does not change them much.
"""

from __future__ import annotations

import argparse
import json
import random
import subprocess
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT / "benchmarks"))

from generate import ensure, parse_size, size_label

CHILD_LOAD = r"""
import json, sys, time, tracemalloc
from ont_platform.ingest.datasets import open_dataset
traced = sys.argv[3] == "on"
if traced:
    tracemalloc.start()
t0 = time.perf_counter()
load = open_dataset(sys.argv[1], shacl=sys.argv[2])
size = 0
for chunk in load.chunks():
    size += len(chunk)
seconds = time.perf_counter() - t0
current, peak = tracemalloc.get_traced_memory() if traced else (0, None)
hwm = next(int(l.split()[1]) for l in open("/proc/self/status") if l.startswith("VmHWM:"))
print(json.dumps({"peak_mb": peak / 2**20 if peak is not None else None, "seconds": seconds, "bytes": size, "triples": load.triples,
                  "shacl": load.shacl.mode, "hwm_mb": hwm / 1024}))
"""

CHILD_ASK = r"""
import json, random, sys, tracemalloc
from ont_platform import KnowledgeGraph
def rss():
    return next(int(l.split()[1]) for l in open("/proc/self/status") if l.startswith("VmRSS:")) / 1024
kg = KnowledgeGraph.open(sys.argv[1])
starts = json.loads(sys.argv[2])
before = rss()
tracemalloc.start()
for i, s in enumerate(starts):
    kg.ask(f"{s} 에서 {1 + i % 3}-hop 안에 거래소 입금주소에 닿나요?")
current, peak = tracemalloc.get_traced_memory()
from ont_platform.namespaces import OC
mirror = kg.context("onchain").mirrors.held(OC.transfer)
print(json.dumps({"peak_mb": peak / 2**20, "current_mb": current / 2**20, "rss_before": before, "rss_after": rss(),
                  "mirror_edges": len(mirror) if mirror is not None else 0}))
kg.close()
"""


def load_avg() -> str:
    return " ".join(Path("/proc/loadavg").read_text().split()[:3])


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--sizes", default="10k,100k,1M")
    ap.add_argument("--seed", type=int, default=7)
    ap.add_argument("--shacl", default="auto")
    ap.add_argument("--questions", type=int, default=600)
    ap.add_argument("--trace", choices=("on", "off"), default="on", help="count the load's allocations (slow)")
    ap.add_argument("--store", type=Path, help="the on-disk store for the questions, for the last size given")
    args = ap.parse_args()
    print(f"load average {load_avg()}")
    for text in args.sizes.split(","):
        n = parse_size(text)
        folder = ensure(n, args.seed)
        out = subprocess.run(
            [sys.executable, "-c", CHILD_LOAD, str(folder), args.shacl, args.trace],
            capture_output=True,
            text=True,
            check=True,
        )
        r = json.loads(out.stdout.strip().splitlines()[-1])
        python = (
            f"Python peak {r['peak_mb']:8.1f} MB ({r['peak_mb'] * 2**20 / n:6.0f} B a transfer)"
            if r["peak_mb"] is not None
            else "not traced"
        )
        print(
            f"{size_label(n):>5} load: {python}, process peak {r['hwm_mb'] / 1024:5.2f} GB"
            f" ({r['hwm_mb'] * 2**20 / n:6.0f} B a transfer), {r['triples']} triples, SHACL {r['shacl']},"
            f" {r['seconds']:.0f} s (no store)",
            flush=True,
        )
        if args.questions <= 0:
            continue
        last = text == args.sizes.split(",")[-1]
        store = args.store if args.store is not None and last else Path("/tmp/ont-bench/stores") / size_label(n)
        from ont_platform import KnowledgeGraph

        with KnowledgeGraph.open(store) as kg:
            if not list(kg.select("SELECT ?s WHERE { ?s ?p ?o } LIMIT 1")):  # len() would count every triple
                t0 = time.perf_counter()
                kg.load(folder)
                print(f"      (loaded {store} in {time.perf_counter() - t0:.0f} s)")
        with open(folder / "onchain_edges.csv", encoding="utf-8") as f:
            next(f)
            senders = sorted({line.split(",", 3)[2] for _, line in zip(range(200_000), f, strict=False)})
        starts = random.Random(args.seed).sample(senders, min(args.questions, len(senders)))
        out = subprocess.run(
            [sys.executable, "-c", CHILD_ASK, str(store), json.dumps(starts)],
            capture_output=True,
            text=True,
            check=True,
        )
        q = json.loads(out.stdout.strip().splitlines()[-1])
        print(
            f"      {len(starts)} questions: Python peak {q['peak_mb']:7.1f} MB (held after: {q['current_mb']:.1f} MB,"
            f" mirror {q['mirror_edges']} edges); process {q['rss_before']:.0f} MB after open, {q['rss_after']:.0f}"
            " MB after the questions"
        )
    print(f"load average {load_avg()}")


if __name__ == "__main__":
    main()
