"""Gold rules of held-out set 9 for the kinds the shared rules (``benchmarks/heldout_gold.py``) do not cover.

Computed from the CSV tables with csv / networkx only; ``ont_platform`` is never imported. ``build.py`` hands these
classes to the shared ``write_set`` in place of ``heldout_gold.Onchain`` and ``heldout_gold.Pages``; everything
the shared rules already cover is passed on to them unchanged.

onchain
  * Node names: as the shared rules (id, address or label, case ignored), plus an id typed with spaces,
    underscores or hyphens moved or missing (``n w4``, ``N_EX 1``): compared with spaces, underscores and hyphens
    removed. Two nodes matching one name is an error of the set.
  * ``amount`` questions (intent ``token_flow``): the exact sum of the ``value`` of the stored ``transfer`` edges
    that fit the question, in base units, optionally of one token only:
      - ``between``: edges from the source to the target (direction as asked; no other address in between);
      - ``out``: every edge whose ``from`` is the source (a self-transfer counts once);
      - ``in``: every edge whose ``to`` is the target.
    Gold: the edge-id set and the total (as a decimal string of base units; for ETH also in ETH, base units /
    10^18). No such edge, or a node not in the graph -> a decline (nothing to sum; the question's source or
    target has no transfer of that kind).
  * ``trace`` questions (intent ``token_flow``; "where did the money go / come from within N steps"):
      - forward: every address reachable from the start over 1..N directed transfers (the start itself left
        out, even when a cycle returns to it); the allowed edges are the transfers whose ``from`` is at most
        N-1 transfers from the start (the start counts as 0);
      - backward: the same over reversed edges (every address with a transfer path of length 1..N *to* the
        start; allowed edges are those whose ``to`` is at most N-1 transfers before the start).
    No address reached, or the start not in the graph -> a decline.
pages
  * Conditions on the ``url`` column (``contains``, ``not_contains``, ``startswith``, ``not_startswith``; text
    compared as written, lower case) besides the shared column conditions, so that "the blog aside" or "only the
    product pages" can sit next to a value condition. Every other condition is the shared rule.
"""
from __future__ import annotations

import sys
from decimal import Decimal
from pathlib import Path

import networkx as nx

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

import heldout_gold as hg  # noqa: E402

ETH_DECIMALS = 18


# ---------------------------------------------------------------------------------------------------------
# Keccak-256 (the pre-standard SHA-3 Ethereum uses), only to write addresses in their EIP-55 checksum form
# in question texts. The gold never depends on it: addresses are resolved with case ignored.

_RC = [0x0000000000000001, 0x0000000000008082, 0x800000000000808A, 0x8000000080008000, 0x000000000000808B,
       0x0000000080000001, 0x8000000080008081, 0x8000000000008009, 0x000000000000008A, 0x0000000000000088,
       0x0000000080008009, 0x000000008000000A, 0x000000008000808B, 0x800000000000008B, 0x8000000000008089,
       0x8000000000008003, 0x8000000000008002, 0x8000000000000080, 0x000000000000800A, 0x800000008000000A,
       0x8000000080008081, 0x8000000000008080, 0x0000000080000001, 0x8000000080008008]
_ROT = [[0, 36, 3, 41, 18], [1, 44, 10, 45, 2], [62, 6, 43, 15, 61], [28, 55, 25, 21, 56], [27, 20, 39, 8, 14]]
_M = (1 << 64) - 1


def _rol(x: int, n: int) -> int:
    return ((x << n) | (x >> (64 - n))) & _M if n else x


def _keccak_f(a: list[list[int]]) -> None:
    for rc in _RC:
        c = [a[x][0] ^ a[x][1] ^ a[x][2] ^ a[x][3] ^ a[x][4] for x in range(5)]
        d = [c[(x - 1) % 5] ^ _rol(c[(x + 1) % 5], 1) for x in range(5)]
        for x in range(5):
            for y in range(5):
                a[x][y] ^= d[x]
        b = [[0] * 5 for _ in range(5)]
        for x in range(5):
            for y in range(5):
                b[y][(2 * x + 3 * y) % 5] = _rol(a[x][y], _ROT[x][y])
        for x in range(5):
            for y in range(5):
                a[x][y] = b[x][y] ^ ((~b[(x + 1) % 5][y]) & b[(x + 2) % 5][y])
        a[0][0] ^= rc


def keccak256(data: bytes) -> bytes:
    rate = 136
    msg = bytearray(data) + b"\x01"
    while len(msg) % rate:
        msg.append(0)
    msg[-1] |= 0x80
    a = [[0] * 5 for _ in range(5)]
    for off in range(0, len(msg), rate):
        block = msg[off:off + rate]
        for i in range(rate // 8):
            x, y = i % 5, i // 5
            a[x][y] ^= int.from_bytes(block[8 * i:8 * i + 8], "little")
        _keccak_f(a)
    out = b"".join(a[i % 5][i // 5].to_bytes(8, "little") for i in range(4))
    return out


def checksum(address: str) -> str:
    """EIP-55 mixed-case form of a 0x + 40 hex address."""
    hexpart = address.lower()[2:]
    h = keccak256(hexpart.encode("ascii")).hex()
    return "0x" + "".join(ch.upper() if ch.isalpha() and int(h[i], 16) >= 8 else ch for i, ch in enumerate(hexpart))


assert keccak256(b"").hex() == "c5d2460186f7233c927e7db2dcc703c0e500b653ca82273b7bfad8045d85a470"


# ---------------------------------------------------------------------------------------------------------
# onchain


def eth_text(raw: str) -> str:
    d = Decimal(raw) / (Decimal(10) ** ETH_DECIMALS)
    s = format(d.normalize(), "f")
    return s


class Onchain(hg.Onchain):
    def __init__(self) -> None:
        super().__init__()
        self.transfers = [e for e in self.edges if e["rel"] == "transfer"]
        # the nodes' own checksum addresses (the two stored in mixed case) must agree with this implementation
        for r in self.nodes.values():
            a = r["address"]
            if len(a) == 42 and a != a.lower() and r["onto_class"] != "Unknown":
                assert checksum(a) == a, (r["node_id"], a)

    def resolve(self, surface: str) -> str | None:
        hit = super().resolve(surface)
        if hit is not None:
            return hit
        n = hg.norm(surface)
        hits = {nid for nid in self.nodes if hg.norm(nid) == n}
        assert len(hits) <= 1, (surface, hits)
        return next(iter(hits), None)

    def gold(self, s: dict) -> dict:
        t = s["type"]
        if t == "amount":
            return self.amount(s)
        if t == "trace":
            return self.trace(s)
        return super().gold(s)

    def _missing(self, name: str, extra: str) -> dict:
        return {"intent": None, "refuse": True, "extra": extra, "start": None,
                "why": f"node '{name}' is not in the graph"}

    def amount(self, s: dict) -> dict:
        flow, token = s["flow"], s.get("token")
        src = self.resolve(s["source"]) if s.get("source") else None
        dst = self.resolve(s["target"]) if s.get("target") else None
        for name, node in (("source", src), ("target", dst)):
            if s.get(name) and node is None:
                return self._missing(s[name], "amount")
        if flow == "between":
            picked = [e for e in self.transfers if e["from"] == src and e["to"] == dst]
        elif flow == "out":
            picked = [e for e in self.transfers if e["from"] == src]
        elif flow == "in":
            picked = [e for e in self.transfers if e["to"] == dst]
        else:
            raise ValueError(flow)
        if token:
            picked = [e for e in picked if (e["token"] or "").lower() == token.lower()]
        if not picked:
            what = f"no {token + ' ' if token else ''}transfer"
            where = {"between": f"from {src} to {dst}", "out": f"out of {src}", "in": f"into {dst}"}[flow]
            return {"intent": None, "refuse": True, "extra": "amount", "start": src or dst, "why": f"{what} {where}"}
        tokens = {e["token"] for e in picked}
        assert len(tokens) == 1, ("a total over several tokens is not asked", s["q"], tokens)
        tok = tokens.pop()
        total = sum(int(e["value"]) for e in picked)
        numbers = [str(total)] + ([eth_text(str(total))] if tok == "ETH" and total else [])
        return {"intent": "token_flow", "extra": "amount", "flow": flow, "start": src or dst, "source": src, "target": dst,
                "token": tok, "edges": sorted(e["edge_id"] for e in picked), "total": str(total),
                "accepted_numbers": numbers}

    def trace(self, s: dict) -> dict:
        start = self.resolve(s["start"])
        if start is None:
            return self._missing(s["start"], "trace")
        hops = s.get("hops") or hg.DEFAULT_HOPS_ONCHAIN
        backward = s["direction"] == "backward"
        g = self.g.reverse(copy=True) if backward else self.g
        dist = nx.single_source_shortest_path_length(g, start, cutoff=hops)
        reached = sorted(n for n, d in dist.items() if n != start)
        # a cycle back to the start still reaches it: distances count the start as 0 all the same
        if not reached:
            return {"intent": None, "refuse": True, "extra": "trace", "start": start,
                    "why": f"no transfer {'into' if backward else 'out of'} {start}"}
        near = {n for n, d in dist.items() if d <= hops - 1}
        key = "to" if backward else "from"
        allowed = sorted(e["edge_id"] for e in self.transfers if e[key] in near)
        return {"intent": "token_flow", "extra": "trace", "direction": s["direction"], "start": start,
                "hops": hops, "end_nodes": reached, "allowed_edges": allowed}


def AMT(q: str, flow: str, expect: str, source: str | None = None, target: str | None = None,
        token: str | None = None, kind: str = "amount") -> dict:
    """An amount question: between two addresses, out of one or into one (see the module docstring)."""
    return {"q": q, "type": "amount", "flow": flow, "source": source, "target": target, "token": token,
            "kind": kind, "expect": expect, "start": source or target}


def TR(q: str, start: str, direction: str, expect: str, hops: int | None = None, kind: str = "trace") -> dict:
    """Where the money went (forward) or came from (backward) within ``hops`` transfers."""
    return {"q": q, "type": "trace", "start": start, "direction": direction, "hops": hops, "kind": kind,
            "expect": expect}


# ---------------------------------------------------------------------------------------------------------
# pages


class Pages(hg.Pages):
    URL_OPS = {
        "contains": lambda url, v: v in url,
        "not_contains": lambda url, v: v not in url,
        "startswith": lambda url, v: url.startswith(v),
        "not_startswith": lambda url, v: not url.startswith(v),
    }

    def match(self, conds: list[tuple[str, str, object]]) -> list[str]:
        url_conds = [c for c in conds if c[0] == "url"]
        rest = [c for c in conds if c[0] != "url"]
        urls = super().match(rest)
        for _, op, val in url_conds:
            urls = [u for u in urls if self.URL_OPS[op](u.lower(), str(val).lower())]
        return sorted(urls)
