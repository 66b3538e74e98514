"""How long reading an on-chain question takes on a store, in a process of its own (``qa.onchain.plan``: the
Korean analyser, the names, the cues), and with ``--profile`` where that time goes.

    python benchmarks/parse_time.py /tmp/ont-bench/stores/1M [--profile]

The questions are the ones ``benchmarks/scale.py`` asks ("{id} 에서 {k}-hop 안에 거래소 입금주소에 닿나요?", k = 1..3,
100 ids each), after one warm-up ``ask``. The store is opened read-only.
"""

from __future__ import annotations

import argparse
import cProfile
import pstats
import random
import statistics
import time
from pathlib import Path

from ont_platform import KnowledgeGraph
from ont_platform.namespaces import ONT
from ont_platform.qa import onchain as onchain_qa


def main() -> None:
    ap = argparse.ArgumentParser()
    ap.add_argument("store", type=Path)
    ap.add_argument("--profile", action="store_true")
    args = ap.parse_args()
    print(f"== {args.store}, load average {' '.join(Path('/proc/loadavg').read_text().split()[:3])}")
    with KnowledgeGraph.open(args.store, read_only=True) as kg:
        rows = kg.store.select(f"SELECT ?id WHERE {{ ?n <{ONT.id}> ?id }} LIMIT 5000")
        ids = [str(r["id"]) for r in rows]
        rnd = random.Random(7)
        questions = [
            f"{rnd.choice(ids)} 에서 {k}-hop 안에 거래소 입금주소에 닿나요?" for k in (1, 2, 3) for _ in range(100)
        ]
        kg.ask(questions[0])  # the analyser and the names, once
        ctx = kg.context("onchain").for_question()
        if args.profile:
            profile = cProfile.Profile()
            profile.enable()
            for q in questions:
                onchain_qa.plan(ctx, q)
            profile.disable()
            pstats.Stats(profile).sort_stats("cumulative").print_stats(15)
            return
        times = []
        for q in questions:
            started = time.perf_counter()
            onchain_qa.plan(ctx, q)
            times.append(time.perf_counter() - started)
        times.sort()
        p95 = times[int(0.95 * len(times))]
        print(f"   parse: median {statistics.median(times) * 1000:.3f} ms, p95 {p95 * 1000:.3f} ms, n={len(times)}")


if __name__ == "__main__":
    main()
