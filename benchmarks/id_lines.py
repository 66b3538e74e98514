"""What keeping a table's ids costs (ingest/idlines.py): ``IdLines`` against the ``dict[str, int]`` it replaced,
for ids shaped as a transfer table's (``e1``, ``e2``...), each built fresh in this process.

Printed: the median time of an insert (``setdefault``, as a load does for each row) and of a lookup, and the bytes
an id keeps alive once built (``tracemalloc``, taken in a separate build: the dict keeps the id strings, the
table does not).

    python benchmarks/id_lines.py --size 1M [--runs 3]
"""

from __future__ import annotations

import argparse
import gc
import statistics
import sys
import time
import tracemalloc
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT / "benchmarks"))

from generate import parse_size, size_label

from ont_platform.ingest.idlines import IdLines


def _build(kind: str, n: int) -> dict[str, int] | IdLines:
    table: dict[str, int] | IdLines = {} if kind == "dict" else IdLines()
    for i in range(n):
        line = i + 2
        if table.setdefault(f"e{i + 1}", line) != line:
            raise SystemExit("a duplicate where there is none")
    return table


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--size", default="1M")
    ap.add_argument("--runs", type=int, default=3)
    args = ap.parse_args()
    n = parse_size(args.size)
    print(
        f"== {size_label(n)} ids, {args.runs} runs each; load average {' '.join(Path('/proc/loadavg').read_text().split()[:3])}"
    )
    probes = [f"e{i + 1}" for i in range(0, n, max(1, n // 100_000))]
    results: dict[str, tuple[float, float, float]] = {}
    for kind in ("dict", "IdLines"):
        inserts, lookups = [], []
        for _ in range(args.runs):
            gc.collect()
            started = time.perf_counter()
            table = _build(kind, n)
            inserts.append((time.perf_counter() - started) / n)
            started = time.perf_counter()
            for key in probes:
                table.get(key)
            lookups.append((time.perf_counter() - started) / len(probes))
            del table
        gc.collect()
        tracemalloc.start()
        table = _build(kind, n)
        kept = tracemalloc.get_traced_memory()[0]
        tracemalloc.stop()
        del table
        results[kind] = (statistics.median(inserts), statistics.median(lookups), kept / n)
        insert, lookup, per_id = results[kind]
        print(f"   {kind:8} insert {insert * 1e6:5.2f} µs   lookup {lookup * 1e6:5.2f} µs   {per_id:6.1f} bytes an id")
    (di, dl, db), (ti, tl, tb) = results["dict"], results["IdLines"]
    print(f"   IdLines/dict: insert {ti / di:.1f}x, lookup {tl / dl:.1f}x, bytes {tb / db:.2f}x")


if __name__ == "__main__":
    main()
