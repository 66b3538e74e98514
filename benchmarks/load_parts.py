"""Where a load's time goes, part by part, on one generated on-chain folder (one run each, in this process):

1. the checked row stream alone, without SHACL and without a store (``DatasetLoad.chunks`` into a file);
2. the same stream with every row checked in this process (``shacl="rows"``, no second process);
3. Oxigraph's in-memory load of the N-Triples file the first part wrote (the engine alone, no Python per row);
4. with ``--profile``: cProfile of part 2 at the size given, the functions with the most own time.

    python benchmarks/load_parts.py --size 1M
    python benchmarks/load_parts.py --size 100k --profile
"""

from __future__ import annotations

import argparse
import cProfile
import pstats
import tempfile
import time
from pathlib import Path

import pyoxigraph as ox

from ont_platform.domains import domain_of_folder
from ont_platform.ingest.datasets import DatasetLoad, open_dataset
from ont_platform.limits import DEFAULT_LIMITS


def _checked_here(folder: Path) -> DatasetLoad:
    """The folder's stream with every row checked in this process (never in a second one)."""
    return DatasetLoad(folder, domain_of_folder(folder), DEFAULT_LIMITS, "rows", beside=False)


def _load_avg() -> str:
    return " ".join(Path("/proc/loadavg").read_text().split()[:3])


def main() -> None:
    ap = argparse.ArgumentParser()
    ap.add_argument("--size", default="100k", help="a folder made by benchmarks/generate.py: 10k, 100k, 1M, 10M")
    ap.add_argument("--seed", type=int, default=7)
    ap.add_argument("--profile", action="store_true", help="profile the row checks instead of timing the parts")
    args = ap.parse_args()
    folder = Path(f"/tmp/ont-bench/onchain-{args.size}-seed7" if args.seed == 7 else "")
    if args.seed != 7 or not folder.is_dir():
        raise SystemExit(f"no folder {folder}: run python benchmarks/generate.py --size {args.size} first")
    print(f"== {folder}, load average {_load_avg()}")
    if args.profile:
        load = _checked_here(folder)
        profile = cProfile.Profile()
        profile.enable()
        for _ in load.chunks():
            pass
        profile.disable()
        pstats.Stats(profile).sort_stats("tottime").print_stats(15)
        return
    with tempfile.TemporaryDirectory() as tmp:
        nt = Path(tmp) / "load.nt"
        started = time.perf_counter()
        size = 0
        with nt.open("wb") as f:
            for chunk in open_dataset(folder, shacl="off").chunks():
                f.write(chunk)
                size += len(chunk)
        print(f"   the row stream, no SHACL          {time.perf_counter() - started:8.1f} s  ({size / 1e6:.0f} MB)")
        load = _checked_here(folder)
        started = time.perf_counter()
        for _ in load.chunks():
            pass
        print(f"   the row stream, every row checked {time.perf_counter() - started:8.1f} s  ({load.shacl.mode})")
        started = time.perf_counter()
        ox.Store().load(path=str(nt), format=ox.RdfFormat.N_TRIPLES, to_graph=ox.DefaultGraph())
        print(f"   Oxigraph in memory, from the file {time.perf_counter() - started:8.1f} s")
    print(f"   load average at end {_load_avg()}")


if __name__ == "__main__":
    main()
