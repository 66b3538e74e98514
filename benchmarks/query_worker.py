"""Cost of the killable query path: the same small queries in-process (``timeout=None``) and through the query
worker (``timeout=...``), on a generated on-chain graph.

    python benchmarks/query_worker.py --size 10k
    python benchmarks/query_worker.py --size 100k --disk      # an on-disk store as well

Prints medians and p95 (ms) per query kind, the overhead per query, the time to start a worker (the fork of a
process holding the whole store, paid at the first timed query after every write), and, for comparison, a
fork per query and what a spawned process opening the on-disk store read-only costs.
"""

from __future__ import annotations

import argparse
import os
import random
import statistics
import subprocess
import sys
import tempfile
import time
from collections.abc import Callable
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))
sys.path.insert(0, str(ROOT / "benchmarks"))

from generate import ensure, parse_size

from ont_platform import KnowledgeGraph
from ont_platform.sparql import onchain as q
from ont_platform.storage.oxigraph import OxigraphStore


def _ms(samples: list[float]) -> str:
    s = sorted(samples)
    return f"{statistics.median(s) * 1e3:7.3f} / {s[int(0.95 * (len(s) - 1))] * 1e3:7.3f}"


def _rss_mb() -> float:
    for line in Path("/proc/self/status").read_text().splitlines():
        if line.startswith("VmRSS:"):
            return int(line.split()[1]) / 1024
    return 0.0


def _time(fn: Callable[[], object], n: int) -> list[float]:
    out = []
    for _ in range(n):
        t = time.perf_counter()
        fn()
        out.append(time.perf_counter() - t)
    return out


def measure(store: OxigraphStore, label: str, starts: list[str], repeat: int) -> None:
    from ont_platform.namespaces import OC, mint

    classes = frozenset({OC.ExchangeDeposit})
    nodes = [mint("onchain", "node", s) for s in starts]
    kinds: dict[str, list[tuple[str, str]]] = {
        "node_facts (SELECT, LIMIT 20)": [("select", q.node_facts(n)) for n in nodes],
        "has_transfers (ASK)": [("ask", q.has_transfers(n)) for n in nodes],
        "reachable 3 hops (SELECT)": [("select", q.reachable(n, 3, classes=classes)) for n in nodes],
        "path_of_length k=2 (SELECT)": [("select", q.path_of_length(n, 2, classes=classes)) for n in nodes],
    }
    print(f"\n{label}: {len(store):,} triples, RSS {_rss_mb():,.0f} MB, load avg {os.getloadavg()[0]:.1f}")
    store._written()  # no worker yet
    started = []
    for _ in range(5):
        t = time.perf_counter()
        store.ask("ASK {}", timeout=30)
        started.append(time.perf_counter() - t)
        store._written()
    print(f"  worker start (fork + first ASK), median of 5: {statistics.median(started) * 1e3:.1f} ms")
    store.ask("ASK {}", timeout=30)
    print(f"  {'query':32} {'in-process ms (med / p95)':>26} {'worker ms (med / p95)':>24} {'overhead med':>13}")
    for name, items in kinds.items():
        local: list[float] = []
        remote: list[float] = []
        for _ in range(repeat):
            for kind, text in items:
                run = store.select if kind == "select" else store.ask
                local += _time(lambda run=run, text=text: run(text), 1)  # type: ignore[misc]
                remote += _time(lambda run=run, text=text: run(text, timeout=30), 1)  # type: ignore[misc]
        over = (statistics.median(remote) - statistics.median(local)) * 1e3
        print(f"  {name:32} {_ms(local):>26} {_ms(remote):>24} {over:10.3f} ms")
    # a fork per query, for comparison: the child answers one query and exits
    text = q.node_facts(nodes[0])
    per_fork = []
    for _ in range(10):
        store._written()
        t = time.perf_counter()
        store.select(text, timeout=30)
        store._written()  # kill and reap, as a fork-per-query design would after each answer
        per_fork.append(time.perf_counter() - t)
    print(f"  fork per query (fork, one SELECT, kill, reap), median of 10: {statistics.median(per_fork) * 1e3:.1f} ms")


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--size", default="10k", help="10k or 100k (generated under /tmp/ont-bench if missing)")
    ap.add_argument("--starts", type=int, default=50, help="start nodes per query kind")
    ap.add_argument("--repeat", type=int, default=3)
    ap.add_argument("--disk", action="store_true", help="also an on-disk store of the same data")
    args = ap.parse_args()
    n = parse_size(args.size)
    folder = ensure(n, 7)
    kg = KnowledgeGraph.open()
    kg.load(folder, shacl=False)
    store = kg.store
    assert isinstance(store, OxigraphStore)
    rows = store.select(
        "SELECT ?id WHERE { ?e <https://w3id.org/ont-platform/core#source>/"
        "<https://w3id.org/ont-platform/core#id> ?id }"
    )
    senders = sorted({str(r["id"]) for r in rows})
    starts = random.Random(7).sample(senders, min(args.starts, len(senders)))
    measure(store, f"{args.size}, in memory", starts, args.repeat)
    if args.disk:
        with tempfile.TemporaryDirectory(prefix="ont-qw-") as tmp:
            disk = OxigraphStore(Path(tmp) / "db")
            disk.add_ntriples(store.dump().decode("utf-8"))
            kg.close()
            disk.optimize()
            measure(disk, f"{args.size}, on disk", starts, args.repeat)
            disk.close()
            code = (
                "import sys, time; t = time.perf_counter(); import pyoxigraph as ox; "
                "s = ox.Store.read_only(sys.argv[1]); s.query('ASK { ?s ?p ?o }'); "
                "print((time.perf_counter() - t) * 1e3)"
            )
            spawned = []
            for _ in range(3):
                t = time.perf_counter()
                out = subprocess.run(
                    [sys.executable, "-c", code, str(Path(tmp) / "db")], capture_output=True, text=True, check=True
                )
                spawned.append((time.perf_counter() - t, float(out.stdout)))
            wall = statistics.median(s[0] for s in spawned) * 1e3
            inner = statistics.median(s[1] for s in spawned)
            print(
                f"  spawned process + Store.read_only + first ASK (alternative for disk), median of 3: "
                f"{wall:.0f} ms wall ({inner:.0f} ms import + open + ASK inside)"
            )
    else:
        kg.close()


if __name__ == "__main__":
    main()
