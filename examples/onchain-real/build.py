"""Build the onchain-real example dataset from the shared real-data snapshot.

Reads ``nodes.csv`` and ``edges.csv`` of the onchain-real snapshot (by default
``/work/shared/data/onchain-real``; pass another folder as the first argument)
and writes, next to this script (or into ``--out DIR``):

- ``onchain_nodes.csv``  ``node_id,address,onto_class,label``
- ``onchain_edges.csv``  ``edge_id,rel,from,to,tx_hash,value,token,block_number,timestamp``
- ``questions.jsonl``    questions whose expected answers come from a breadth-first
                         search over the written edges, never from hand edits.

Standard library only; the output is byte-for-byte the same on every run.
Values are copied as the source strings: nothing is parsed into int or float.

Usage::

    python examples/onchain-real/build.py [SOURCE_DIR] [--out DIR]
"""

from __future__ import annotations

import csv
import hashlib
import json
import sys
from collections import defaultdict
from pathlib import Path

DEFAULT_SOURCE = Path("/work/shared/data/onchain-real")
HERE = Path(__file__).resolve().parent

# sha256 of the snapshot this folder was built from (see SOURCE.md).
KNOWN_SHA256 = {
    "edges.csv": "cb25db8accddb512bbecc09b91628354e206925537503a948c19f95bd15da939",
    "nodes.csv": "f0ea7dab8e89986e7d1cba49d32a30c8e4d9bccaa71990414f0452523109c950",
}

# GraphSense concept id (nodes.csv `class`) -> local name of the oc: class.
# An address without a known role is a plain `Address`; `Unknown` is reserved for
# addresses that fail normalisation, which never happens in this snapshot.
CLASS_MAP = {
    "exchange": "Exchange",
    "mixing_service": "Mixer",
    "defi_bridge": "Bridge",
    "defi_dex": "Dex",
    "defi_token": "TokenContract",
    "defi_lending": "LendingPool",
    "defi": "DeFiContract",
    "market": "Marketplace",
    "": "Address",
}

NODE_ID_PREFIX_LEN = 10
DEFAULT_MAX_HOPS = 3

# Fixed question specs; the expected answer of each is computed from the edges.
# Reach: (id, start address, target class, hop limit). Label: (id, address).
REACH_SPECS: list[tuple[str, str, str, int]] = [
    ("rq01", "0x1a80b182ea7465c57eefed6afbe0ec41e093f656", "Exchange", 3),
    ("rq02", "0x2ff7c94e9ae94b00454f356ce171ae5597f7e9fb", "Exchange", 3),
    ("rq03", "0xfecab546498f74591d4f6d448a4a63552850f122", "Exchange", 3),
    ("rq04", "0xef1c6e67703c7bd7107eed8303fbe6ec2554bf6b", "Exchange", 3),
    ("rq05", "0x56cc317c605cc10f79140672996ebd36c981d7b8", "Dex", 3),
    ("rq06", "0x43e4715ae093a4c86b5ecddb52216c4f879e9672", "Dex", 3),
    ("rq07", "0x04f5e63e15de4abf11d19f289a4fc53fe161b5ba", "LendingPool", 3),
    ("rq08", "0x04f5e63e15de4abf11d19f289a4fc53fe161b5ba", "LendingPool", 4),
    ("rq09", "0x1a80b182ea7465c57eefed6afbe0ec41e093f656", "Mixer", 3),
]
LABEL_SPECS: list[tuple[str, str]] = [
    ("rq10", "0x28c6c06298d514db089934071355e5743bf21d60"),
    ("rq11", "0xc02aaa39b223fe8d0a0e5c4f27ead9083c756cc2"),
    ("rq12", "0x0000000000000000000000000000000000000000"),
]

CLASS_WORDS = {
    "Exchange": ("거래소(Exchange)", "에 자금이 닿나요?"),
    "ExchangeDeposit": ("거래소 입금주소(ExchangeDeposit)", "에 자금이 닿나요?"),
    "Bridge": ("브리지(Bridge)", "로 가는 경로가 있나요?"),
    "Mixer": ("믹서(Mixer)", "로 가는 경로가 있나요?"),
    "Dex": ("탈중앙화 거래소(Dex)", "로 가는 경로가 있나요?"),
    "LendingPool": ("대출 풀(LendingPool)", "로 가는 경로가 있나요?"),
}


def sha256(path: Path) -> str:
    h = hashlib.sha256()
    with path.open("rb") as f:
        for block in iter(lambda: f.read(1 << 16), b""):
            h.update(block)
    return h.hexdigest()


def read_csv(path: Path) -> list[dict[str, str]]:
    with path.open(newline="", encoding="utf-8") as f:
        return list(csv.DictReader(f))


def write_csv(path: Path, header: list[str], rows: list[list[str]]) -> None:
    with path.open("w", newline="", encoding="utf-8") as f:
        w = csv.writer(f, lineterminator="\n")
        w.writerow(header)
        w.writerows(rows)


def node_ids(addresses: list[str]) -> dict[str, str]:
    """`a_` + the first 10 hex digits; `a_` + all 40 where two addresses share those 10."""
    by_prefix: dict[str, list[str]] = defaultdict(list)
    for a in addresses:
        by_prefix[a[2 : 2 + NODE_ID_PREFIX_LEN]].append(a)
    out = {}
    for prefix, group in by_prefix.items():
        for a in group:
            out[a] = "a_" + (prefix if len(group) == 1 else a[2:])
    if len(set(out.values())) != len(out):
        raise SystemExit("node ids are not unique")
    return out


def build(source: Path) -> tuple[list[list[str]], list[list[str]]]:
    nodes = read_csv(source / "nodes.csv")
    edges = read_csv(source / "edges.csv")
    addresses = sorted(n["address"] for n in nodes)
    if len(set(addresses)) != len(addresses):
        raise SystemExit("duplicate address in nodes.csv")
    nid = node_ids(addresses)
    node_rows = []
    for n in sorted(nodes, key=lambda n: n["address"]):
        cls = n["class"]
        if cls not in CLASS_MAP:
            raise SystemExit(f"no mapping for class {cls!r} of {n['address']}")
        node_rows.append([nid[n["address"]], n["address"], CLASS_MAP[cls], n["label"]])
    edge_rows = []
    for e in edges:
        for end in ("from", "to"):
            if e[end] not in nid:
                raise SystemExit(f"edge {e['edge_id']}: {end} address {e[end]} is not in nodes.csv")
        if not e["value"].isdigit():
            raise SystemExit(f"edge {e['edge_id']}: value {e['value']!r} is not a decimal integer")
        edge_rows.append(
            [
                e["edge_id"],
                "transfer",
                nid[e["from"]],
                nid[e["to"]],
                e["tx_hash"],
                e["value"],
                e["token"],
                e["block_number"],
                e["block_timestamp"],
            ]
        )
    return node_rows, edge_rows


class Graph:
    """Directed transfer graph over node ids, with edge rows kept in file order."""

    def __init__(self, node_rows: list[list[str]], edge_rows: list[list[str]]) -> None:
        self.cls = {r[0]: r[2] for r in node_rows}
        self.addr = {r[1]: r[0] for r in node_rows}
        self.out: dict[str, list[list[str]]] = defaultdict(list)
        for r in edge_rows:
            self.out[r[2]].append(r)

    def shortest_paths(self, start: str, target_class: str, max_hops: int) -> list[list[list[str]]]:
        """All shortest edge paths (1..max_hops) from start to a node of target_class."""
        # Breadth-first by levels; keep every predecessor edge that lies on a shortest walk.
        dist = {start: 0}
        preds: dict[str, list[list[str]]] = defaultdict(list)
        frontier = [start]
        for depth in range(1, max_hops + 1):
            nxt: list[str] = []
            for u in frontier:
                for e in self.out.get(u, []):
                    v = e[3]
                    if v not in dist:
                        dist[v] = depth
                        nxt.append(v)
                    if dist[v] == depth:
                        preds[v].append(e)
            hits = [v for v in nxt if self.cls[v] == target_class]
            if hits:
                paths: list[list[list[str]]] = []
                for v in sorted(hits):
                    paths.extend(self._unwind(v, start, preds))
                return paths
            frontier = nxt
        return []

    def _unwind(self, v: str, start: str, preds: dict[str, list[list[str]]]) -> list[list[list[str]]]:
        if v == start:
            return [[]]
        out = []
        for e in preds[v]:
            for p in self._unwind(e[2], start, preds):
                out.append(p + [e])
        return out


def edge_ids(paths: list[list[list[str]]]) -> list[list[str]]:
    return [[e[0] for e in p] for p in paths]


def question_lines(node_rows: list[list[str]], edge_rows: list[list[str]]) -> list[dict[str, object]]:
    g = Graph(node_rows, edge_rows)
    # The same search over edges that move value (value != "0"). A question is kept only
    # when both agree, so its answer does not depend on whether zero-value calls count.
    g_value = Graph(node_rows, [e for e in edge_rows if e[5] != "0"])
    lines: list[dict[str, object]] = []
    for qid, address, target, hops in REACH_SPECS:
        start = g.addr[address]
        words, tail = CLASS_WORDS[target]
        paths = g.shortest_paths(start, target, hops)
        if edge_ids(paths) != edge_ids(g_value.shortest_paths(start, target, hops)):
            raise SystemExit(f"{qid}: the answer changes when zero-value transfers are left out")
        expected: dict[str, object]
        if not paths:
            expected = {"intent": "no_path", "path": [], "cited_nodes": [start], "confidence": "high"}
        elif len(paths) != 1:
            raise SystemExit(f"{qid}: {len(paths)} shortest paths; pick a start with a single one")
        else:
            path = paths[0]
            expected = {
                "intent": "path_exists",
                "path": [{"edge_id": e[0], "tx_hash": e[4], "from": e[2], "to": e[3]} for e in path],
                "cited_nodes": [start] + [e[3] for e in path],
                "confidence": "high",
            }
        lines.append({"id": qid, "question": f"{start} 에서 {hops}-hop 안에 {words}{tail}", "expected": expected})
    for qid, address in LABEL_SPECS:
        node = g.addr[address]
        lines.append(
            {
                "id": qid,
                "question": f"{node} 주소는 어떤 온톨로지 클래스인가요?",
                "expected": {"intent": "label_lookup", "path": [], "cited_nodes": [node], "confidence": "high"},
                "expected_class": g.cls[node],
            }
        )
    return lines


def main(argv: list[str]) -> int:
    args = list(argv)
    out_dir = HERE
    if "--out" in args:
        i = args.index("--out")
        out_dir = Path(args[i + 1])
        del args[i : i + 2]
    source = Path(args[0]) if args else DEFAULT_SOURCE
    for name, digest in KNOWN_SHA256.items():
        actual = sha256(source / name)
        if actual != digest:
            print(f"warning: {name} differs from the snapshot in SOURCE.md ({actual})", file=sys.stderr)
    node_rows, edge_rows = build(source)
    out_dir.mkdir(parents=True, exist_ok=True)
    write_csv(out_dir / "onchain_nodes.csv", ["node_id", "address", "onto_class", "label"], node_rows)
    write_csv(
        out_dir / "onchain_edges.csv",
        ["edge_id", "rel", "from", "to", "tx_hash", "value", "token", "block_number", "timestamp"],
        edge_rows,
    )
    with (out_dir / "questions.jsonl").open("w", encoding="utf-8") as f:
        for line in question_lines(node_rows, edge_rows):
            f.write(json.dumps(line, ensure_ascii=False) + "\n")
    print(f"{len(node_rows)} nodes, {len(edge_rows)} edges -> {out_dir}")
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
