"""Guarded ingest of extraction batches into a large on-chain graph, and the first question after each one.

    python benchmarks/ingest_scale.py --size 10k  [--batches 20] [--relations 100] [--seed 7] [--shacl on|off]
    python benchmarks/ingest_scale.py --size 100k --profile 3     # cProfile of three more ingests, top functions
    python benchmarks/ingest_scale.py --size 10M --store DIR --cache drop --batches 60 --tag c1   # from the disk

The dataset folder comes from ``benchmarks/generate.py`` (generated on first use under /tmp/ont-bench) and is
loaded with ``kg.load(folder, shacl=False)``. Then:

1. One warm-up ``kg.ask`` builds the question context (the Korean analyser, every node name and the transfer
   mirror of qa/adjacency.py), timed apart.
2. ``--batches`` times: an extraction payload of ``--relations`` transfers is built the way an extractor would
   write it (entities with id, label, class and ``addressNorm``; relations with ``txHash``, ``value``,
   ``token``, evidence with a chunk text and a source URL). About 90 % of the endpoints are addresses already in
   the graph (same id, class and address as the CSV, so nothing conflicts), the rest new addresses. It is
   written with ``kg.ingest(payload, config=RuleConfig(id_prefix_severity="warning"))``: the default guard,
   with the ``E_`` id prefix reported as a warning so that the stored ids (``n_123``) can be named; SHACL on.
   ``report.seconds`` and ``report.timings`` (per stage) are collected.
3. After each ingest, one ``kg.ask`` about a new address of that batch ("{id} 에서 2-hop 안에 거래소
   입금주소에 닿나요?"), timed end to end: if the lexicon or the mirror were rebuilt after a write, this is
   where it would show. ``kg.ingest`` end to end includes bringing both up to date. The answer must name the new address as its start (it is checked).

What a batch costs on disk depends on where the store's blocks are: ``--cache`` says (the page cache as it is,
dropped before the store is opened, or every file in the store's folder read first: its table files and the
names kept beside them). The figures of the first ``--first``
batches are also printed apart from the rest (a service that has run for a while is the rest), and each batch's
bytes read from the storage device (``/proc/self/io``) are counted.

Figures are medians and 95th percentiles (nearest rank) in ms; the load average is printed with them. Nothing
here is compared against a threshold: numbers depend on the machine and what else runs on it.
"""

from __future__ import annotations

import argparse
import json
import os
import random
import statistics
import sys
import time
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT / "benchmarks"))

from generate import ensure, parse_size, size_label

QUESTION = "{id} 에서 2-hop 안에 거래소 입금주소에 닿나요?"
CLASSES = {"Address", "ExchangeDeposit", "Mixer"}


def load_avg() -> str:
    return " ".join(Path("/proc/loadavg").read_text().split()[:3])


def pct(samples: list[float], q: float) -> float:
    s = sorted(samples)
    return s[min(len(s) - 1, int(q * len(s)))]


def row(name: str, samples: list[float]) -> str:
    return (
        f"   {name:24s} median {statistics.median(samples) * 1000:9.2f} ms   "
        f"p95 {pct(samples, 0.95) * 1000:9.2f} ms   (n={len(samples)})"
    )


def set_cache(store: Path, how: str) -> None:
    """Drop the page cache (``drop``: every block the run reads comes from the disk, as in a process started
    after a reboot) or read every file of the store once (``warm``: as after a service has read all of it)."""
    if how == "drop":
        os.sync()
        try:
            Path("/proc/sys/vm/drop_caches").write_text("3\n")
        except OSError as exc:
            raise SystemExit(f"--cache drop needs root (writing /proc/sys/vm/drop_caches): {exc}") from exc
        return
    for file in sorted(store.rglob("*")):
        if file.is_file():
            with file.open("rb") as f:
                while f.read(1 << 24):
                    pass


def disk_read() -> int:
    """Bytes this process (all its threads) has had read from the storage device so far; 0 where unknown."""
    try:
        for line in Path("/proc/self/io").read_text().splitlines():
            if line.startswith("read_bytes:"):
                return int(line.split()[1])
    except OSError:
        pass
    return 0


def read_nodes(folder: Path) -> tuple[tuple[str, str, str], ...]:
    """(node_id, address, class) of every node in the CSV.

    A tuple, not a list: once the garbage collector has seen that it holds only strings, it stops walking it.
    A list of 3.3M rows (10M transfers) is walked on every full collection, ~140 ms each, every few ingests:
    a cost of this script's own bookkeeping that the ingest figures would otherwise carry."""
    out = []
    with (folder / "onchain_nodes.csv").open(encoding="utf-8") as f:
        next(f)
        for line in f:
            node_id, address, cls = line.rstrip("\n").split(",")
            out.append((node_id, address, cls))
    return tuple(out)


def batch_payload(
    rng: random.Random, nodes: tuple[tuple[str, str, str], ...], relations: int, tag: str, new_share: float
) -> tuple[dict[str, Any], list[str]]:
    """An extraction of ``relations`` transfers among stored addresses and a few new ones (ids ``E_{tag}_i``).

    Returns the payload and the ids of its new addresses."""
    entities: dict[str, dict[str, Any]] = {}
    new_ids: list[str] = []

    def endpoint() -> str:
        if rng.random() < new_share:
            node_id = f"E_{tag}_{len(new_ids) + 1}"
            new_ids.append(node_id)
            address = "0x" + f"{rng.getrandbits(160):040x}"
            cls = "ExchangeDeposit" if rng.random() < 0.2 else "Address"
        else:
            node_id, address, cls = nodes[rng.randrange(len(nodes))]
        if node_id not in entities:
            entities[node_id] = {
                "id": node_id,
                "label": f"address {address[:10]}",
                "type": "individual",
                "ontology_class": cls,
                "confidence": 0.9,
                "attributes": {"addressNorm": address},
            }
        return node_id

    rels: list[dict[str, Any]] = []
    while len(rels) < relations:
        source, target = endpoint(), endpoint()
        if source == target:
            continue
        j = len(rels) + 1
        rels.append(
            {
                "id": f"R_{tag}_{j}",
                "source_id": source,
                "predicate": "transfer",
                "target_id": target,
                "confidence": 0.85,
                "attributes": {
                    "txHash": "0x" + f"{rng.getrandbits(256):064x}",
                    "value": str(rng.getrandbits(70)),
                    "token": "ETH",
                },
                "evidence": [
                    {
                        "chunk_text": f"{source} 에서 {target} 로 보낸 거래가 보고서 {tag} 의 {j} 번째 줄에 있다.",
                        "source_url": f"https://reports.example/{tag}",
                        "offset": j * 80,
                        "confidence": 0.8,
                    }
                ],
            }
        )
    return {"entities": list(entities.values()), "relations": rels}, new_ids


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--size", default="10k", help="10k, 100k, 1M or a number of transfers")
    ap.add_argument("--seed", type=int, default=7)
    ap.add_argument("--folder", type=Path, default=None, help="dataset folder (default: generated under /tmp)")
    ap.add_argument("--batches", type=int, default=20)
    ap.add_argument("--relations", type=int, default=100)
    ap.add_argument(
        "--tag", default="b", help="prefix of the batches' ids: a store kept from an earlier run needs a new one"
    )
    ap.add_argument("--new-share", type=float, default=0.1, help="share of endpoints that are new addresses")
    ap.add_argument("--shacl", choices=("on", "off"), default="on")
    ap.add_argument("--profile", type=int, default=0, help="cProfile this many further ingests and print the top")
    ap.add_argument("--json", type=Path, help="also write the figures to this file")
    ap.add_argument(
        "--store",
        type=Path,
        default=None,
        help="an on-disk store: loaded when empty, else ingested into as it is (it keeps the batches)",
    )
    ap.add_argument(
        "--cache",
        choices=("as-is", "drop", "warm"),
        default="as-is",
        help="the page cache before an existing --store is opened: as it is; dropped (root only: every block "
        "of the store is read from the disk once); or warm (every file in the store's folder read once first)",
    )
    ap.add_argument(
        "--first",
        type=int,
        default=5,
        help="the figures are also printed apart for the first this many batches and for the ones after them",
    )
    args = ap.parse_args()

    from ont_platform import KnowledgeGraph
    from ont_platform.validation import RuleConfig

    n = parse_size(args.size)
    folder = ensure(n, args.seed, args.folder)
    print(
        f"== ingest into {size_label(n)} transfers (seed {args.seed}), {args.batches} batches of "
        f"{args.relations} relations, SHACL {args.shacl}; python {sys.version.split()[0]}, {os.cpu_count()} cores, "
        f"load average {load_avg()}"
    )
    if args.cache != "as-is":
        if args.store is None or not args.store.is_dir():
            raise SystemExit("--cache needs an existing on-disk --store")
        t0 = time.perf_counter()
        set_cache(args.store, args.cache)
        print(f"   page cache {args.cache} for {args.store} in {time.perf_counter() - t0:.1f} s")
    kg = KnowledgeGraph.open(args.store)
    if args.store is None or not list(kg.select("SELECT ?s WHERE { ?s ?p ?o } LIMIT 1")):
        t0 = time.perf_counter()
        report = kg.load(folder, shacl=False)
        print(
            f"   loaded {report.triples_added:,} triples in {time.perf_counter() - t0:.1f} s   load average"
            f" {load_avg()}"
        )
    else:
        print(f"   on-disk store {args.store} as it is (the batches are added to it)")
    nodes = read_nodes(folder)
    config = RuleConfig(id_prefix_severity="warning")
    # another tag draws other addresses and hashes too: a kept store already holds the default run's
    rng = random.Random(args.seed * 1_000 + 11 if args.tag == "b" else f"{args.seed}:{args.tag}")

    t0 = time.perf_counter()
    kg.ask(QUESTION.format(id=nodes[0][0]))
    first_ask = time.perf_counter() - t0
    print(f"   first ask (analyser, names, the walk's reads): {first_ask * 1000:.0f} ms")

    totals: list[float] = []
    stages: dict[str, list[float]] = {}
    asks: list[float] = []
    triples: list[int] = []
    disk: list[int] = []
    for k in range(args.batches):
        payload, new_ids = batch_payload(rng, nodes, args.relations, f"{args.tag}{k}", args.new_share)
        read0 = disk_read()
        t0 = time.perf_counter()
        report = kg.ingest(payload, config=config, shacl=args.shacl == "on")
        total = time.perf_counter() - t0
        disk.append(disk_read() - read0)
        if not report.accepted:
            raise SystemExit(f"batch {k} refused: {json.dumps(report.as_dict(), ensure_ascii=False)[:2000]}")
        totals.append(total)
        triples.append(report.triples_added)
        for stage, seconds in report.timings.items():
            stages.setdefault(stage, []).append(seconds)
        asked = new_ids[0] if new_ids else payload["entities"][0]["id"]
        t0 = time.perf_counter()
        answer = kg.ask(QUESTION.format(id=asked))
        asks.append(time.perf_counter() - t0)
        if asked not in getattr(answer, "cited_nodes", []):
            raise SystemExit(f"after batch {k} the question about {asked} did not find it: {answer}")
        print(
            f"   batch {k:3d}: {report.triples_added:5d} triples, ingest {total * 1000:7.1f} ms "
            f"{ {s: round(v * 1000, 1) for s, v in report.timings.items()} }, read {disk[-1] / 1e6:6.2f} MB from "
            f"disk, then ask {asks[-1] * 1000:6.1f} ms",
            flush=True,
        )

    print(f"== results ({size_label(n)}, load average {load_avg()})")
    print(row("kg.ingest end to end", totals))
    for stage, samples in stages.items():
        print(row(f"  {stage}", samples))
    print(row("first ask after ingest", asks))
    if 0 < args.first < len(totals):
        print(row(f"kg.ingest, batches 1-{args.first}", totals[: args.first]))
        print(row(f"kg.ingest, batches {args.first + 1}-{len(totals)}", totals[args.first :]))
        reads = stages.get("neighbourhood")  # not there with --shacl off
        if reads:
            print(row(f"  neighbourhood, 1-{args.first}", reads[: args.first]))
            print(row(f"  neighbourhood, {args.first + 1}-{len(reads)}", reads[args.first :]))
    print(f"   triples per batch: median {statistics.median(triples):.0f}")
    print(
        f"   read from the disk by an ingest (/proc/self/io): median {statistics.median(disk) / 1e6:.2f} MB, "
        f"first {args.first}: {sum(disk[: args.first]) / 1e6:.1f} MB, all {len(disk)}: {sum(disk) / 1e6:.1f} MB"
    )

    if args.json:
        out = {
            "size": n,
            "batches": args.batches,
            "relations": args.relations,
            "load_average": load_avg(),
            "first_ask_ms": round(first_ask * 1000, 1),
            "ingest_ms": [round(statistics.median(totals) * 1000, 2), round(pct(totals, 0.95) * 1000, 2)],
            "stages_ms": {
                s: [round(statistics.median(v) * 1000, 2), round(pct(v, 0.95) * 1000, 2)] for s, v in stages.items()
            },
            "ask_after_ingest_ms": [round(statistics.median(asks) * 1000, 2), round(pct(asks, 0.95) * 1000, 2)],
            "cache": args.cache,
            "ingest_ms_by_batch": [round(t * 1000, 1) for t in totals],
            "disk_read_mb_by_batch": [round(b / 1e6, 3) for b in disk],
        }
        args.json.write_text(json.dumps(out, indent=2), encoding="utf-8")

    if args.profile:
        import cProfile
        import pstats

        prof = cProfile.Profile()
        for k in range(args.profile):
            payload, _ = batch_payload(rng, nodes, args.relations, f"{args.tag}p{k}", args.new_share)
            prof.enable()
            kg.ingest(payload, config=config, shacl=args.shacl == "on")
            prof.disable()
        pstats.Stats(prof).sort_stats("cumulative").print_stats(40)
        pstats.Stats(prof).sort_stats("tottime").print_stats(25)


if __name__ == "__main__":
    main()
