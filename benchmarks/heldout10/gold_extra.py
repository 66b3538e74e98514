"""Gold rules of held-out set 10 for the kinds the shared rules (``benchmarks/heldout_gold.py``) do not cover.

Computed from the CSV tables of ``examples/onchain`` and ``examples/pages`` with csv, networkx and decimal only; it
reuses the shared module's table readers and node resolution and never imports ``ont_platform``.

onchain
-------
* **Surfaces.** A node is named as the shared rules resolve it (id or address with case ignored, label with spacing
  ignored). In addition, an id typed with white space inside (``n_ b2``, ``n_ br1``) is the id with the white space
  removed. ``surface()`` wraps a shared path / label / cluster spec whose start is typed that way: the gold is the
  shared gold of the canonical id, so the shared judge scores it.
* **Amounts** (``amount``): the ``transfer`` edges of the question -- between two nodes (``from`` -> ``to``, that
  direction only), out of one node, or into one node -- restricted to one token (``ETH`` unless the spec names
  another). The gold is the set of edge ids and their exact sum in base units (wei for ETH), also given in token
  units for ETH (base / 10^18). A question without a token word must only touch edges of a single token (build
  checks it). No matching edge (or a node that is not in the graph) -> a decline: nothing was sent.
* **Traces** (``trace``): where money went within N steps (forward), or where it came from within N steps
  (backward). The gold is every ``transfer`` edge on a walk of at most N edges from the start, in that direction:
  forward, the edges whose source is at BFS distance <= N-1 from the start; backward, the edges whose target is
  at reverse BFS distance <= N-1. Build checks that this region is a tree (every reached node entered by exactly
  one edge of the region, no self-loop, no edge back to the start, no zero-value edge), so the set of edges does
  not depend on whether an answer lists all walks or a BFS tree. No edge -> a decline.

pages
-----
The shared ``Pages.match`` computes the gold. ``check_conditions`` adds two checks on how a question was written, so
that the gold does not hinge on a reading the question leaves open:
* a threshold written as a strict or non-strict bound (``넘는`` / ``이상``, ``before`` / ``on or before``) must not
  equal the value of a row that passes every other condition (unless the spec marks the bound ``exact``);
* a condition written as an exclusion ("... 빼고", "excluding ...") must not meet an empty cell in a row that
  passes every other condition: an empty cell matches no condition, yet "excluding X" could keep it.
"""
from __future__ import annotations

import datetime as dt
import re
import sys
from decimal import Decimal
from pathlib import Path

import networkx as nx

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))
from heldout_gold import D, Onchain, Pages, lang_of, read_csv  # noqa: E402

WEI = Decimal(10) ** 18


# ---------------------------------------------------------------------------------------------------------
# onchain


class Flows:
    def __init__(self, oc: Onchain) -> None:
        self.oc = oc
        self.transfers = [e for e in oc.edges if e["rel"] == "transfer"]
        self.by_id = {e["edge_id"]: e for e in self.transfers}

    def resolve(self, surface: str | None) -> str | None:
        if surface is None:
            return None
        hit = self.oc.resolve(surface)
        if hit is None and re.fullmatch(r"\s*n\s*_[\s\w]+", surface):
            hit = self.oc.resolve(re.sub(r"\s+", "", surface))
        return hit

    # amounts -----------------------------------------------------------------------------------------
    def amount(self, s: dict) -> dict:
        src, dst = self.resolve(s.get("src")), self.resolve(s.get("dst"))
        for name, node in (("src", src), ("dst", dst)):
            if s.get(name) is not None and node is None:
                return {"intent": None, "refuse": True, "flow": "amount", "why": f"node '{s[name]}' is not in the graph"}
        edges = [e for e in self.transfers
                 if (src is None or e["from"] == src) and (dst is None or e["to"] == dst)]
        token = s.get("token")
        if token is None:
            assert len({e["token"] for e in edges}) <= 1, ("several tokens; the question must name one", s["q"])
        else:
            edges = [e for e in edges if e["token"] == token]
        start = src or dst
        if not edges:
            return {"intent": None, "refuse": True, "flow": "amount", "start": start,
                    "why": "no transfer matches: nothing was sent"}
        tok = edges[0]["token"]
        total = sum(int(e["value"]) for e in edges)
        assert total > 0, s["q"]
        gold = {"intent": "token_flow", "flow": "amount", "src": src, "dst": dst, "start": start, "token": tok,
                "edges": sorted((e["edge_id"] for e in edges), key=lambda x: int(x[1:])), "total": str(total)}
        if tok == "ETH":
            gold["total_eth"] = format((Decimal(total) / WEI).normalize(), "f")
        return gold

    # traces ------------------------------------------------------------------------------------------
    def trace(self, s: dict) -> dict:
        start = self.resolve(s["start"])
        if start is None:
            return {"intent": None, "refuse": True, "flow": "trace", "why": f"node '{s['start']}' is not in the graph"}
        n, back = s["hops"], s["direction"] == "backward"
        g = nx.DiGraph()
        g.add_nodes_from(self.oc.nodes)
        for e in self.transfers:
            g.add_edge(e["from"], e["to"])
        dist = nx.single_source_shortest_path_length(g.reverse(copy=True) if back else g, start, cutoff=n - 1)
        near = "to" if back else "from"
        far = "from" if back else "to"
        edges = [e for e in self.transfers if e[near] in dist]
        if not edges:
            return {"intent": None, "refuse": True, "flow": "trace", "start": start,
                    "why": f"no transfer {'into' if back else 'out of'} {start}"}
        # the region must be a tree, so that its edge set is the one answer
        entered = [e[far] for e in edges]
        assert len(entered) == len(set(entered)), ("region is not a tree", s["q"])
        assert start not in entered, ("region returns to the start", s["q"])
        assert all(e["from"] != e["to"] and int(e["value"]) > 0 for e in edges), ("self-loop or zero value", s["q"])
        return {"intent": "token_flow", "flow": "trace", "direction": s["direction"], "start": start, "hops": n,
                "edges": sorted((e["edge_id"] for e in edges), key=lambda x: int(x[1:])),
                "nodes": sorted(set(entered))}


def shared_with_surface(oc: Onchain, flows: Flows, s: dict) -> dict:
    """A shared path / label / cluster spec whose start is typed in a way the shared resolver does not read."""
    inner = dict(s["inner"])
    canon = flows.resolve(s["surface"])
    assert canon is not None and oc.resolve(s["surface"]) is None, s
    inner["start"] = canon
    return oc.gold(inner)


def onchain_extra(oc: Onchain, specs: list[dict]) -> list[dict]:
    """Items (without ids) for the extra onchain specs."""
    flows = Flows(oc)
    out = []
    for s in specs:
        q = s["q"]
        for key in ("src", "dst", "start", "surface"):
            if s.get(key):
                assert s[key] in q, (q, s[key])
        t = s["type"]
        if t == "amount":
            gold = flows.amount(s)
        elif t == "trace":
            gold = flows.trace(s)
        elif t == "surface":
            gold = shared_with_surface(oc, flows, s)
        else:
            raise ValueError(t)
        if gold.get("refuse") or gold["intent"] == "no_path" or (gold["intent"] == "cluster_lookup" and not gold["members"]):
            gk = "decline"
        elif gold.get("flow") == "trace":
            gk = "answer" if len(gold["nodes"]) == 1 else "multi"
        else:
            gk = "answer" if len(gold.get("members") or gold.get("end_nodes") or [1]) == 1 else "multi"
        assert (gk == "decline") == (s["expect"] == D), (q, gold)
        meaning = {k: v for k, v in (s.get("inner") or s).items() if k not in ("q", "expect", "kind")}
        if t == "surface":
            meaning["start_typed"] = s["surface"]
        out.append({"domain": "onchain", "lang": lang_of(q), "question": q, "kind": s["kind"], "gold_kind": gk,
                    "gold": gold, "meaning": meaning})
    return out


def AMT(q: str, kind: str, expect: str, src: str | None = None, dst: str | None = None,
        token: str | None = None) -> dict:
    return {"q": q, "type": "amount", "kind": kind, "expect": expect, "src": src, "dst": dst, "token": token}


def TR(q: str, kind: str, expect: str, start: str, hops: int, direction: str = "forward") -> dict:
    assert direction in ("forward", "backward")
    return {"q": q, "type": "trace", "kind": kind, "expect": expect, "start": start, "hops": hops,
            "direction": direction}


def SURF(spec: dict, surface: str) -> dict:
    """A shared P/C/L spec (its ``start`` any placeholder) whose start is typed as ``surface`` in the question."""
    return {"q": spec["q"], "type": "surface", "kind": spec["kind"], "expect": spec["expect"], "surface": surface,
            "inner": spec}


def eip55(addr: str) -> str | None:
    """The EIP-55 checksum form of an address (None if no Keccak implementation is installed)."""
    try:
        from Crypto.Hash import keccak
    except ImportError:  # pragma: no cover
        return None
    a = addr.lower()[2:]
    h = keccak.new(digest_bits=256, data=a.encode()).hexdigest()
    return "0x" + "".join(c.upper() if c.isalpha() and int(h[i], 16) >= 8 else c for i, c in enumerate(a))


# ---------------------------------------------------------------------------------------------------------
# pages


def check_conditions(pg: Pages, spec: dict) -> None:
    conds = spec["conds"]
    exact = set(spec.get("exact") or ())
    excl = set(spec.get("exclusions") or ())
    for i, (col, op, val) in enumerate(conds):
        others = [c for j, c in enumerate(conds) if j != i]
        rows = [r for r in pg.rows if r["url"] in set(pg.match(others))] if others else pg.rows
        if op in ("<", "<=", ">", ">=") and i not in exact:
            on = [r["url"] for r in rows if r[col].strip() and pg.value(col, r[col]) == val]
            assert not on, (spec["q"], col, val, "a row sits on the bound", on)
        if i in excl:
            empty = [r["url"] for r in rows if not r[col].strip()]
            assert not empty, (spec["q"], col, "an excluded column is empty in a row the other conditions keep", empty)


def this_year(pg: Pages, col: str) -> list[tuple]:
    a, b = pg.year(0)
    return [(col, ">=", a), (col, "<=", b)]


def last_year(pg: Pages, col: str) -> list[tuple]:
    a, b = pg.year(-1)
    return [(col, ">=", a), (col, "<=", b)]


def day(s: str) -> dt.date:
    return dt.date.fromisoformat(s)


__all__ = ["AMT", "TR", "SURF", "Flows", "onchain_extra", "check_conditions", "this_year", "last_year", "day",
           "eip55", "read_csv"]
