"""Where a load's time goes, part by part, on one generated on-chain folder (one run each, in this process):

1. the checked row stream alone, without SHACL and without a store (``DatasetLoad.chunks`` into a file);
2. the same stream with every row checked in this process (``shacl="rows"``, no second process);
3. Oxigraph's in-memory load of the N-Triples file the first part wrote (the engine alone, no Python per row);
4. Oxigraph's bulk load of the same file into an empty on-disk store, then its compaction (what a load into a
   new store on disk costs the engine, with nothing else running);
5. with ``--profile``: cProfile of part 2 at the size given, the functions with the most own time.

    python benchmarks/load_parts.py --size 1M
    python benchmarks/load_parts.py --size 100k --profile

Each part prints its wall time and the CPU time of this process in it (the engine's threads included): on two
cores, a load whose parts run side by side cannot take less than half their CPU time together.
"""

from __future__ import annotations

import argparse
import cProfile
import pstats
import resource
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


def _cpu() -> float:
    """CPU seconds of this process so far, every thread included."""
    usage = resource.getrusage(resource.RUSAGE_SELF)
    return usage.ru_utime + usage.ru_stime


def _part(name: str, wall: float, cpu: float, extra: str = "") -> None:
    print(f"   {name:<36} {time.perf_counter() - wall:8.1f} s  CPU {_cpu() - cpu:8.1f} s  {extra}".rstrip())


def _load_avg() -> str:
    return " ".join(Path("/proc/loadavg").read_text().split()[:3])


def main() -> None:
    ap = argparse.ArgumentParser()
    ap.add_argument("--size", default="100k", help="a folder made by benchmarks/generate.py: 10k, 100k, 1M, 10M")
    ap.add_argument("--seed", type=int, default=7)
    ap.add_argument(
        "--keep", type=Path, default=None, help="write the N-Triples file and the on-disk store here and keep them"
    )
    ap.add_argument("--no-memory", action="store_true", help="skip the in-memory load (it needs ~380 B a triple)")
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
    with tempfile.TemporaryDirectory() as scratch:
        tmp = args.keep or Path(scratch)
        if args.keep is not None and (args.keep / "store").exists():
            raise SystemExit(f"{args.keep / 'store'} exists: give --keep an empty folder")
        tmp.mkdir(parents=True, exist_ok=True)
        nt = tmp / "load.nt"
        wall, cpu = time.perf_counter(), _cpu()
        size = 0
        with nt.open("wb") as f:
            for chunk in open_dataset(folder, shacl="off").chunks():
                f.write(chunk)
                size += len(chunk)
        _part("the row stream, no SHACL", wall, cpu, f"({size / 1e6:.0f} MB)")
        load = _checked_here(folder)
        wall, cpu = time.perf_counter(), _cpu()
        for _ in load.chunks():
            pass
        _part("the row stream, every row checked", wall, cpu, f"({load.shacl.mode})")
        if not args.no_memory:
            wall, cpu = time.perf_counter(), _cpu()
            ox.Store().load(path=str(nt), format=ox.RdfFormat.N_TRIPLES, to_graph=ox.DefaultGraph())
            _part("Oxigraph in memory, from the file", wall, cpu)
        wall, cpu = time.perf_counter(), _cpu()
        store = ox.Store(str(tmp / "store"))
        store.bulk_load(path=str(nt), format=ox.RdfFormat.N_TRIPLES, to_graph=ox.DefaultGraph())
        _part("Oxigraph bulk load on disk", wall, cpu)
        wall, cpu = time.perf_counter(), _cpu()
        store.optimize()
        _part("  then its compaction", wall, cpu)
        del store
    print(f"   load average at end {_load_avg()}")


if __name__ == "__main__":
    main()
