"""What the keys of a store's subjects (ont_platform/storage/subjects.py) cost, on one generated on-chain folder:

1. taking the keys of the subjects from the load's N-Triples text (``KeyCollector.watch``), per line, against a
   plain-Python baseline that splits the lines and cuts each at its first ``>``;
2. making the sorted key set at the end (``KeyCollector.finish``: a sort and a comparison of neighbours), against
   ``np.unique`` on the same keys;
3. telling which of 470 IRIs (170 stored, 300 not) are surely absent (``SubjectKeys.absent``), per call.

    python benchmarks/subject_keys.py --size 1M [--chunks 400]

Each figure is the median of three runs in this process; the load average is printed with them.
"""

from __future__ import annotations

import argparse
import itertools
import random
import statistics
import sys
import time
from collections.abc import Callable
from pathlib import Path

import numpy as np

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT / "benchmarks"))

from generate import ensure, parse_size

from ont_platform.ingest.datasets import open_dataset
from ont_platform.storage import subjects

NODE = "https://w3id.org/ont-platform/id/onchain/node/n_{}"


def load_avg() -> str:
    return " ".join(Path("/proc/loadavg").read_text().split()[:3])


def median_time(work: Callable[[], object]) -> float:
    times = []
    for _ in range(3):
        started = time.perf_counter()
        work()
        times.append(time.perf_counter() - started)
    return statistics.median(times)


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--size", default="1M")
    ap.add_argument("--chunks", type=int, default=400, help="how many ~1 MB chunks of the load's text to read")
    args = ap.parse_args()
    folder = ensure(parse_size(args.size), 7, None)
    chunks = list(itertools.islice(open_dataset(folder, shacl="off").chunks(), args.chunks))
    lines = sum(c.count(b"\n") for c in chunks)
    print(f"== {folder}: {len(chunks)} chunks, {lines:,} lines; load average {load_avg()}")

    def collect() -> subjects.SubjectKeys:
        collector = subjects.KeyCollector()
        for _ in collector.watch(chunks):
            pass
        return collector.finish()

    def baseline() -> set[bytes]:
        found: set[bytes] = set()
        for chunk in chunks:
            found.update(line[1 : line.find(b">")] for line in chunk.split(b"\n") if line[:1] == b"<")
        return found

    keys = collect()
    ours, plain = median_time(collect), median_time(baseline)
    print(
        f"   keys of the text       {ours / lines * 1e9:7.0f} ns a line   (split lines in Python, no keys:"
        f" {plain / lines * 1e9:.0f} ns a line; ratio {plain / ours:.2f}x)"
    )

    rng = np.random.default_rng(1)
    many = rng.integers(0, 2**63, 13_400_000, dtype=np.uint64)  # the number of subjects at 10M transfers
    parts = np.array_split(many, 19_000)
    collector = subjects.KeyCollector()
    collector._parts = list(parts)  # noqa: SLF001 - the benchmark feeds the parts a 10M load would leave
    finish, unique = median_time(collector.finish), median_time(lambda: np.unique(many))
    print(
        f"   sorted set of 13.4M    {finish:7.2f} s          (np.unique: {unique:.2f} s; ratio {unique / finish:.1f}x)"
    )

    stored = [NODE.format(i) for i in random.Random(1).sample(range(parse_size(args.size) // 3), 170)]
    wanted = stored + [f"https://w3id.org/ont-platform/id/onchain/rel/new{i}" for i in range(300)]
    call = median_time(lambda: keys.absent(wanted))
    print(f"   absent() of {len(wanted)} IRIs  {call * 1000:7.2f} ms a call ({len(keys):,} keys)")
    print(f"   load average at end {load_avg()}")


if __name__ == "__main__":
    main()
