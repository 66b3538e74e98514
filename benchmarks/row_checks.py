"""What SHACL row by row costs (validation/rowwise.py): a dataset folder streamed without a store, once with
``shacl="off"`` and once with ``shacl="rows"`` (checked in that process, never a second one), each in a fresh
process; CPU time (``time.process_time``, less
sensitive to other work on the machine than wall time) and the cost per row of the difference.

    python benchmarks/row_checks.py --size 100k [--runs 3] [--seed 7]
"""

from __future__ import annotations

import argparse
import json
import statistics
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT / "benchmarks"))

from generate import ensure, parse_size, size_label

CHILD = r"""
import json, sys, time
from pathlib import Path
from ont_platform.domains import domain_of_folder
from ont_platform.ingest.datasets import DatasetLoad, shacl_mode
from ont_platform.limits import DEFAULT_LIMITS
folder = Path(sys.argv[1])
# beside=False: a folder over 8 MB would send its checks to a second process, out of this one's CPU time
load = DatasetLoad(folder, domain_of_folder(folder), DEFAULT_LIMITS, shacl_mode(sys.argv[2]), beside=False)
t0 = time.process_time()
for _ in load.chunks():
    pass
print(json.dumps({"cpu": time.process_time() - t0, "rows": sum(load.counts.values()), "mode": load.shacl.mode,
                  "resources": load.shacl.resources}))
"""


def load_avg() -> str:
    return " ".join(Path("/proc/loadavg").read_text().split()[:3])


def run(folder: Path, mode: str) -> dict[str, float]:
    out = subprocess.run([sys.executable, "-c", CHILD, str(folder), mode], capture_output=True, text=True, check=True)
    return json.loads(out.stdout.strip().splitlines()[-1])  # type: ignore[no-any-return]


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--size", default="100k")
    ap.add_argument("--seed", type=int, default=7)
    ap.add_argument("--runs", type=int, default=3)
    args = ap.parse_args()
    n = parse_size(args.size)
    folder = ensure(n, args.seed)
    print(f"== {size_label(n)} transfers, {args.runs} runs each; load average {load_avg()}")
    off = [run(folder, "off") for _ in range(args.runs)]
    rows = [run(folder, "rows") for _ in range(args.runs)]
    base, checked = statistics.median(r["cpu"] for r in off), statistics.median(r["cpu"] for r in rows)
    count = off[0]["rows"]
    print(f"   stream, shacl=off:  {base:7.2f} s CPU ({base / count * 1e6:5.1f} µs a row, {count} rows)")
    print(
        f"   stream, shacl=rows: {checked:7.2f} s CPU; the row checks {(checked - base) / count * 1e6:5.1f} µs a row,"
        f" {rows[0]['resources']} resources; {checked / base:.2f}x the stream"
    )
    print(f"   load average at end {load_avg()}")


if __name__ == "__main__":
    main()
