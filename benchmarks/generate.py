"""Seeded synthetic on-chain dataset folders in the project's CSV format, for the scale benchmarks.

    python benchmarks/generate.py --size 100k [--seed 7] [--out DIR]

Writes ``onchain_nodes.csv`` (node_id,address,onto_class) and ``onchain_edges.csv``
(edge_id,rel,from,to,tx_hash,value,token,block_number,timestamp) with ``size`` transfers over ``size / 3``
addresses (about three transfers per address):

* out-degree follows a power law: each address draws a Pareto weight (alpha 1.5) and senders are sampled in
  proportion to it, so a few hubs send thousands of transfers and about a third of the addresses send none;
  receivers are uniform; no transfer goes from an address to itself;
* 3 % of the addresses are ``ExchangeDeposit``, 1 % ``Mixer``, the rest ``Address`` (valid, unlabelled);
* addresses are distinct ``0x`` + 40 lowercase hex digits, tx hashes ``0x`` + 64 hex digits;
* values are exact decimal strings of 20..72 random bits (about a sixth are above 2^63), 90 % ETH and 10 %
  one of four token contracts; block numbers rise with the edge id, timestamps are 12 s per block.

The same size and seed give byte-identical files (``random.Random(seed)``; nothing else is random). The 1M
folder (~333k nodes, 1M edges, ~200 MB) is written in about 5 s.
"""

from __future__ import annotations

import argparse
import itertools
import json
import random
import time
from bisect import bisect_right
from pathlib import Path

_SUFFIX = {"k": 1_000, "K": 1_000, "m": 1_000_000, "M": 1_000_000}
DEFAULT_ROOT = Path("/tmp/ont-bench")


def parse_size(text: str) -> int:
    """``10k``, ``100k``, ``1M``, ``10M`` or a plain number of transfers."""
    text = text.strip().replace("_", "")
    scale = _SUFFIX.get(text[-1:], 1)
    value = int(text[:-1] if scale != 1 else text) * scale
    if value < 10:
        raise ValueError(f"size must be at least 10 transfers, got {text!r}")
    return value


def size_label(n: int) -> str:
    if n % 1_000_000 == 0:
        return f"{n // 1_000_000}M"
    if n % 1_000 == 0:
        return f"{n // 1_000}k"
    return str(n)


def default_folder(n: int, seed: int) -> Path:
    return DEFAULT_ROOT / f"onchain-{size_label(n)}-seed{seed}"


def generate(n_transfers: int, seed: int, out: Path) -> dict[str, object]:
    """Write the dataset folder; returns a summary (counts, classes, big values, seconds)."""
    started = time.perf_counter()
    rnd = random.Random(seed)
    n_nodes = max(3, n_transfers // 3)
    out.mkdir(parents=True, exist_ok=True)

    # nodes: ids, distinct addresses, classes
    addresses: set[str] = set()
    node_lines = ["node_id,address,onto_class\n"]
    classes = {"ExchangeDeposit": 0, "Mixer": 0, "Address": 0}
    ids = [f"n_{i}" for i in range(n_nodes)]
    getbits = rnd.getrandbits
    for node_id in ids:
        addr = f"0x{getbits(160):040x}"
        while addr in addresses:  # never happens in practice at 160 bits, but distinctness is promised
            addr = f"0x{getbits(160):040x}"
        addresses.add(addr)
        r = rnd.random()
        cls = "ExchangeDeposit" if r < 0.03 else "Mixer" if r < 0.04 else "Address"
        classes[cls] += 1
        node_lines.append(f"{node_id},{addr},{cls}\n")
    tokens: list[str] = []
    while len(tokens) < 4:
        t = f"0x{getbits(160):040x}"
        if t not in addresses:
            tokens.append(t)

    # power-law senders: cumulative Pareto weights, sampled with bisect
    cum = list(itertools.accumulate(rnd.paretovariate(1.5) for _ in range(n_nodes)))
    total = cum[-1]
    big = 0
    two63 = 1 << 63
    (out / "onchain_nodes.csv").write_text("".join(node_lines), encoding="utf-8")
    # edges are written as they are drawn (10M lines would be ~2 GB of strings held at once)
    edges_file = (out / "onchain_edges.csv").open("w", encoding="utf-8", buffering=1 << 20)
    edges_file.write("edge_id,rel,from,to,tx_hash,value,token,block_number,timestamp\n")
    append = edges_file.write
    rand = rnd.random
    randrange = rnd.randrange
    block0, ts0 = 15_000_000, 1_660_000_000
    for e in range(1, n_transfers + 1):
        src = bisect_right(cum, rand() * total)
        if src >= n_nodes:
            src = n_nodes - 1
        dst = randrange(n_nodes - 1)
        if dst >= src:
            dst += 1  # uniform over every node but the sender
        value = getbits(20 + randrange(53))
        if value >= two63:
            big += 1
        token = "ETH" if rand() < 0.9 else tokens[randrange(4)]
        block = block0 + e // 4
        append(
            f"e{e},transfer,{ids[src]},{ids[dst]},0x{getbits(256):064x},{value},{token},{block},{ts0 + 12 * (block - block0)}\n"
        )

    edges_file.close()
    summary = {
        "folder": str(out),
        "seed": seed,
        "transfers": n_transfers,
        "nodes": n_nodes,
        "classes": classes,
        "values_above_2_63": big,
        "seconds": round(time.perf_counter() - started, 2),
    }
    (out / "generated.json").write_text(json.dumps(summary, indent=1) + "\n", encoding="utf-8")
    return summary


def ensure(n_transfers: int, seed: int, out: Path | None = None) -> Path:
    """The folder for this size and seed, generated unless it is already there."""
    folder = out or default_folder(n_transfers, seed)
    marker = folder / "generated.json"
    if marker.is_file():
        meta = json.loads(marker.read_text(encoding="utf-8"))
        if meta.get("transfers") == n_transfers and meta.get("seed") == seed:
            return folder
    generate(n_transfers, seed, folder)
    return folder


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--size", default="10k", help="10k, 100k, 1M or a number of transfers")
    ap.add_argument("--seed", type=int, default=7)
    ap.add_argument("--out", type=Path, default=None, help=f"folder (default {DEFAULT_ROOT}/onchain-SIZE-seedSEED)")
    args = ap.parse_args()
    n = parse_size(args.size)
    print(json.dumps(generate(n, args.seed, args.out or default_folder(n, args.seed)), indent=1))


if __name__ == "__main__":
    main()
