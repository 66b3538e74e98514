"""Load time, memory and multi-hop question latency on seeded synthetic on-chain graphs, against rdflib and networkx.

    python benchmarks/scale.py --size 10k  [--starts 200] [--seed 7] [--shacl auto|on|off|full] [--rdflib N]
    python benchmarks/scale.py --size 100k --rdflib 12 --rdflib-timeout 30
    python benchmarks/scale.py --size 1M --load-only --shacl off
    python benchmarks/scale.py --size 100k --breakdown          # where kg.load spends its time
    python benchmarks/scale.py --size 100k --edges-between      # the edge lookup of "yes" answers, two orders

The dataset folder comes from ``benchmarks/generate.py`` (generated on first use under /tmp/ont-bench).

1. Load: each configuration (``kg.load(folder, shacl=False)`` and ``shacl=True``, the default bounded pass;
   with ``--shacl full`` also ``shacl="full"``, the whole batch through pyshacl; ``--shacl off`` only the
   first) runs in a fresh subprocess, which reports the wall time of ``kg.load``, its peak resident memory
   (``VmHWM`` from /proc/self/status, which includes the ~0.1 GB of the imported libraries; the value before
   the load is printed too) and which SHACL pass ran over how many resources.
2. Questions: the graph is loaded once more in this process; ``--starts`` start nodes are drawn with the seed
   from the nodes that send at least one transfer, and for each k in 1..3 the question
   "{id} 에서 {k}-hop 안에 거래소 입금주소에 닿나요?" is asked. One warm-up pass (Korean analyser, lexicon of
   every node id) runs first and is timed separately as "first ask". Then per question, with
   time.perf_counter: ``ont_platform.qa.onchain.plan`` alone (parse), ``kg.ask`` end to end, and the time spent
   inside the store's ``select``/``ask`` during that ``kg.ask`` (SPARQL; the store methods are wrapped).
   "after parse" is end to end minus parse (the transfer mirror's walk, any SPARQL, the answer); "answer
   building" is end to end minus parse minus SPARQL. The same question is then asked of a second graph over
   the same store with the mirror off (``Limits(walk_max_edges=0)``: SPARQL alone), timed as "SPARQL alone",
   and the two answers are compared as whole JSON (they must not differ). The first ask includes reading the
   mirror; the mirror's read time and memory are printed apart (read once more).
3. Baselines on the same questions: networkx (a breadth-first walk over ``DiGraph.succ``, level by level,
   stopping at the first level that holds an exchange deposit), and rdflib 7 (``Graph.query`` on an rdflib
   Graph of the same triples, replaying exactly the SPARQL our ``ask`` runs for that question by SPARQL alone,
   with a per-query timeout by SIGALRM). rdflib "end to end" = our parse time + rdflib SPARQL time; the ratio
   "rdf/after parse" sets rdflib's SPARQL against our whole answering after the parse.
4. Every answer (yes/no and path length) is checked against the networkx walk, and rdflib's answers against
   both. Disagreements are counted and the first few printed. Above 1M transfers (or with ``--reference
   plain``) the reference is the same walk over successor lists in flat arrays (:class:`PlainGraph`), which
   fits in memory at 10M where a networkx graph does not.
5. ``--store PATH`` asks on an on-disk store instead of an in-memory one: loaded there (timed, peak memory)
   when the folder holds no data, else asked as it is, e.g. after ``benchmarks/cold_start.py`` loaded it.

    python benchmarks/scale.py --size 10M --store /tmp/ont-bench/stores/10M --rdflib 0
"""

from __future__ import annotations

import argparse
import json
import logging
import os
import random
import resource
import signal
import statistics
import subprocess
import sys
import time
from dataclasses import replace
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT / "benchmarks"))

from generate import ensure, parse_size, size_label

QUESTION = "{id} 에서 {k}-hop 안에 거래소 입금주소에 닿나요?"


# --- helpers -------------------------------------------------------------------------------------------------


def vm_rss_mb() -> float:
    for line in Path("/proc/self/status").read_text().splitlines():
        if line.startswith("VmRSS:"):
            return int(line.split()[1]) / 1024
    return float("nan")


def vm_hwm_mb() -> float:
    for line in Path("/proc/self/status").read_text().splitlines():
        if line.startswith("VmHWM:"):
            return int(line.split()[1]) / 1024
    return float("nan")


def pct(samples: list[float], q: float) -> float:
    s = sorted(samples)
    return s[min(len(s) - 1, int(q * len(s)))]


def ms(samples: list[float]) -> str:
    if not samples:
        return "       -          -"
    return f"{statistics.median(samples) * 1000:8.3f} {pct(samples, 0.95) * 1000:9.3f}"


def timed_store(store: Any) -> list[float]:
    """Wrap ``store.select``/``store.ask`` so that the seconds spent in them add up in the returned cell."""
    spent = [0.0]
    inner_select, inner_ask = store.select, store.ask

    def timed(inner: Any) -> Any:
        def call(query: str, **kw: Any) -> Any:
            t = time.perf_counter()
            try:
                return inner(query, **kw)
            finally:
                spent[0] += time.perf_counter() - t

        return call

    store.select, store.ask = timed(inner_select), timed(inner_ask)
    return spent


def load_avg() -> str:
    return " ".join(Path("/proc/loadavg").read_text().split()[:3])


# --- one load in a fresh process -----------------------------------------------------------------------------


def child_load(folder: str, shacl: str) -> None:
    from ont_platform import KnowledgeGraph

    before = vm_hwm_mb()
    kg = KnowledgeGraph.open()
    t0 = time.perf_counter()
    report = kg.load(folder, shacl=shacl)
    seconds = time.perf_counter() - t0
    print(
        json.dumps(
            {
                "seconds": seconds,
                "peak_mb": vm_hwm_mb(),
                "before_mb": before,
                # the second process a large load checks its rows in (ont_platform.ingest.beside), if any
                "beside_peak_mb": resource.getrusage(resource.RUSAGE_CHILDREN).ru_maxrss / 1024,
                "triples": len(kg),
                "shacl": report.as_dict()["shacl"],
            }
        )
    )


def measure_load(folder: Path, shacl: str, timeout: float) -> dict[str, Any]:
    cmd = [sys.executable, __file__, "--child-load", str(folder), "--child-shacl", shacl]
    proc = subprocess.Popen(cmd, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
    try:
        out, err = proc.communicate(timeout=timeout)
    except subprocess.TimeoutExpired:
        proc.kill()  # our own child, by its handle
        proc.communicate()
        return {"error": f"did not finish within {timeout:.0f} s"}
    if proc.returncode != 0:
        return {"error": (err.strip().splitlines() or ["exit " + str(proc.returncode)])[-1]}
    return json.loads(out.strip().splitlines()[-1])


# --- where kg.load spends its time ---------------------------------------------------------------------------


def breakdown(folder: Path, shacl: str) -> None:
    """Time the stages of ``kg.load`` one by one, in this process, then profile the row stream."""
    import cProfile
    import io
    import pstats

    import pyoxigraph as ox
    from rdflib import Graph

    from ont_platform.ingest.datasets import open_dataset
    from ont_platform.ontology.shacl import check
    from ont_platform.storage.oxigraph import OxigraphStore

    print(
        f"breakdown of kg.load stages for {folder} (load average {load_avg()}); RSS = resident memory after the"
        " stage, over the process before the first stage; peak = VmHWM over the same base"
    )
    rss0 = vm_rss_mb()

    def mem() -> str:
        return f"RSS {vm_rss_mb() - rss0:+6.0f} MB  (peak {vm_hwm_mb() - rss0:+.0f} MB)"

    t0 = time.perf_counter()
    size = triples = 0
    for chunk in open_dataset(folder).chunks():
        size += len(chunk)
        triples += chunk.count(b"\n")
    t1 = time.perf_counter()
    print(
        f"  rows to N-Triples chunks (read CSV, check rows, format; chunks dropped): {t1 - t0:7.2f} s"
        f"  ({triples} triples, {size / 1e6:.0f} MB)  {mem()}"
    )
    store = OxigraphStore()
    t2 = time.perf_counter()
    store.add_ntriples_stream(open_dataset(folder).chunks())
    t3 = time.perf_counter()
    print(f"  the same stream into OxigraphStore.add_ntriples_stream (one Store.load):  {t3 - t2:7.2f} s  {mem()}")
    print(f"    => Oxigraph's share (parse + index + reading the chunks): {(t3 - t2) - (t1 - t0):6.2f} s")
    if shacl != "off":
        t4 = time.perf_counter()
        load = open_dataset(folder, shacl="sample")
        for _ in load.chunks():
            pass
        t5 = time.perf_counter()
        print(
            f"  rows to chunks with the sampled SHACL pass:                                {t5 - t4:7.2f} s"
            f"  ({load.shacl.resources} resources, {load.shacl.triples} triples validated)"
            f"  => SHACL {(t5 - t4) - (t1 - t0):+.2f} s"
        )
    data = store.dump()
    del store
    for name, method in (("load", "load"), ("bulk_load", "bulk_load")):
        other = ox.Store()
        t6 = time.perf_counter()
        getattr(other, method)(data, format=ox.RdfFormat.N_TRIPLES, to_graph=ox.DefaultGraph())
        t7 = time.perf_counter()
        print(
            f"  pyoxigraph Store.{name} of the same {len(data) / 1e6:.0f} MB as one bytes object (in memory):"
            f" {t7 - t6:6.2f} s"
        )
        del other
    if shacl in ("on", "full"):
        g = Graph()
        t8 = time.perf_counter()
        g.parse(data=data, format="nt")
        t9 = time.perf_counter()
        print(f"  rdflib Graph.parse of the N-Triples (for a whole-batch pass):  {t9 - t8:7.2f} s")
        violations = check(g, "onchain")
        t10 = time.perf_counter()
        print(
            f'  pyshacl validate (whole batch, shacl="full"):               {t10 - t9:7.2f} s'
            f"  ({len(violations)} violations)"
        )
    del data
    prof = cProfile.Profile()
    prof.enable()
    for _ in open_dataset(folder).chunks():  # profiled again (the profiler slows it about 2.5x)
        pass
    prof.disable()
    print("  rows to chunks, top functions by own time (cProfile):")
    stats = pstats.Stats(prof, stream=io.StringIO())
    rows = sorted(stats.stats.items(), key=lambda kv: kv[1][2], reverse=True)[:12]  # type: ignore[attr-defined]
    for (file, line, fn), (_cc, nc, tt, ct, _callers) in rows:
        print(f"    {tt:6.2f} s own {ct:6.2f} s cum {nc:9d} calls  {Path(file).name}:{line} {fn}")


# --- the slow query of a "yes" answer ------------------------------------------------------------------------


def edges_between_check(folder: Path, starts_n: int, seed: int) -> None:
    """Time ``edges_between`` as generated against the same text with the bound source and target first."""
    import re

    from ont_platform import KnowledgeGraph

    kg = KnowledgeGraph.open()
    kg.load(folder, shacl=False)
    g, _ = read_graph(folder)
    senders = sorted((u for u in g if g.out_degree(u) > 0), key=lambda s: int(s[2:]))
    starts = random.Random(seed).sample(senders, min(starts_n, len(senders)))
    kg.ask(QUESTION.format(id=starts[0], k=3))
    pattern = re.compile(r"\?e ont:kind oc:transfer ; ont:source (<[^>]+>) ; ont:target (<[^>]+>) ; ont:id \?eid \.")
    old, new, same = [], [], 0
    for s in starts:
        _, ran = kg.trace(QUESTION.format(id=s, k=3))  # the answer and the queries that made it
        for q in (q for q in ran if "SELECT ?src ?dst ?eid ?tx" in q):
            q2 = pattern.sub(r"?e ont:source \1 . ?e ont:target \2 . ?e ont:kind oc:transfer . ?e ont:id ?eid .", q)
            t0 = time.perf_counter()
            r1 = kg.store.select(q)
            t1 = time.perf_counter()
            r2 = kg.store.select(q2)
            t2 = time.perf_counter()
            old.append(t1 - t0)
            new.append(t2 - t1)
            same += r1 == r2
    print(f"edges_between on the {len(old)} 3-hop 'yes' answers of {len(starts)} starts (load average {load_avg()}):")
    print(
        f"  as generated (kind first):   median {statistics.median(old) * 1000:8.3f} ms, p95 {pct(old, 0.95) * 1000:8.3f} ms"
    )
    print(
        f"  source and target first:     median {statistics.median(new) * 1000:8.3f} ms, p95 {pct(new, 0.95) * 1000:8.3f} ms"
    )
    print(f"  identical rows: {same}/{len(old)}")
    kg.close()


# --- baselines -----------------------------------------------------------------------------------------------


def read_graph(folder: Path):  # -> (networkx.DiGraph, set of deposit ids, list of sender ids)
    import networkx as nx  # type: ignore[import-untyped]

    deposits: set[str] = set()
    with open(folder / "onchain_nodes.csv", encoding="utf-8") as f:
        next(f)
        for line in f:
            node_id, _addr, cls = line.rstrip("\n").split(",")
            if cls == "ExchangeDeposit":
                deposits.add(node_id)
    g = nx.DiGraph()
    with open(folder / "onchain_edges.csv", encoding="utf-8") as f:
        next(f)
        g.add_edges_from(tuple(line.split(",", 4)[2:4]) for line in f)
    return g, deposits


class PlainGraph:
    """The transfers as successor lists in flat arrays (4 bytes an edge): the reference walk where a networkx
    graph does not fit in memory (10M transfers: ~0.1 GB here against many GB for a DiGraph). Node ids are the
    generator's ``n_<i>``."""

    def __init__(self, folder: Path) -> None:
        from array import array

        with open(folder / "onchain_nodes.csv", encoding="utf-8") as f:
            next(f)
            kinds = [line.rstrip("\n").rsplit(",", 1)[1] for line in f]
        self.n = len(kinds)
        self.deposit = bytearray(1 if k == "ExchangeDeposit" else 0 for k in kinds)
        del kinds
        counts = array("q", bytes(8 * (self.n + 1)))
        with open(folder / "onchain_edges.csv", encoding="utf-8") as f:
            next(f)
            for line in f:
                counts[int(line.split(",", 3)[2][2:]) + 1] += 1
        for i in range(self.n):
            counts[i + 1] += counts[i]
        self.offsets = counts
        self.targets = array("i", bytes(4 * counts[self.n]))
        fill = array("q", counts[:-1])
        with open(folder / "onchain_edges.csv", encoding="utf-8") as f:
            next(f)
            for line in f:
                parts = line.split(",", 4)
                a = int(parts[2][2:])
                self.targets[fill[a]] = int(parts[3][2:])
                fill[a] += 1
        self.edges = counts[self.n]

    def senders(self) -> list[str]:
        return [f"n_{i}" for i in range(self.n) if self.offsets[i + 1] > self.offsets[i]]

    def deposits(self) -> set[str]:
        return {f"n_{i}" for i in range(self.n) if self.deposit[i]}

    def bfs(self, start: str, k: int) -> list[str] | None:
        """A shortest path of 1..k transfers from start to a deposit other than start, or None."""
        s = int(start[2:])
        parent = {s: -1}
        frontier = [s]
        offsets, targets, deposit = self.offsets, self.targets, self.deposit
        for _ in range(k):
            nxt = []
            for u in frontier:
                for v in targets[offsets[u] : offsets[u + 1]]:
                    if v in parent:
                        continue
                    parent[v] = u
                    if deposit[v]:
                        path = [v]
                        while parent[path[-1]] != -1:
                            path.append(parent[path[-1]])
                        return [f"n_{x}" for x in reversed(path)]
                    nxt.append(v)
            frontier = nxt
            if not frontier:
                break
        return None


def nx_bfs(g, deposits: set[str], start: str, k: int) -> list[str] | None:
    """A shortest path (node ids) of 1..k transfers from start to a deposit other than start, or None."""
    if start not in g:
        return None
    succ = g.succ
    parent: dict[str, str | None] = {start: None}
    frontier = [start]
    for _ in range(k):
        nxt = []
        for u in frontier:
            for v in succ[u]:
                if v in parent:
                    continue
                parent[v] = u
                if v in deposits:
                    path = [v]
                    while parent[path[-1]] is not None:
                        path.append(parent[path[-1]])
                    return path[::-1]
                nxt.append(v)
        frontier = nxt
        if not frontier:
            break
    return None


class QueryTimeout(Exception):
    pass


def _alarm(_signum, _frame):
    raise QueryTimeout()


def rdflib_replay(graph, queries: list[str], timeout: float) -> tuple[float, str | tuple[bool | None, int | None]]:
    """Run our queries on rdflib; returns (seconds, (yes, length) or an error string)."""
    yes: bool | None = None
    length: int | None = None
    total = 0.0
    old = signal.signal(signal.SIGALRM, _alarm)
    try:
        for query in queries:
            t0 = time.perf_counter()
            signal.setitimer(signal.ITIMER_REAL, timeout)
            try:
                result = graph.query(query)
                rows = list(result) if result.type == "SELECT" else [bool(result.askAnswer)]
            except QueryTimeout:
                return total + timeout, f"timeout > {timeout:.0f} s"
            except RecursionError:
                return total + (time.perf_counter() - t0), "RecursionError"
            finally:
                signal.setitimer(signal.ITIMER_REAL, 0)
            total += time.perf_counter() - t0
            head = query.split("WHERE", 1)[0]
            if "SELECT DISTINCT ?x ?xid" in head:  # the reachability query
                yes = bool(rows)
            elif "SELECT ?nid1" in head and length is None and rows:
                length = head.count("?nid")
        return total, (yes, length)
    finally:
        signal.signal(signal.SIGALRM, old)


# --- the run -------------------------------------------------------------------------------------------------


def run(args: argparse.Namespace) -> None:
    n = parse_size(args.size)
    label = size_label(n)
    t0 = time.perf_counter()
    folder = ensure(n, args.seed, args.folder)
    gen_s = time.perf_counter() - t0
    meta = json.loads((folder / "generated.json").read_text(encoding="utf-8"))
    print(
        f"== {label} transfers, seed {args.seed}: {meta['nodes']} nodes, {meta['classes']}, folder {folder}"
        f" (ready in {gen_s:.1f} s)"
    )
    print(f"   python {sys.version.split()[0]}, {os.cpu_count()} cores, load average at start {load_avg()}")

    configs = [("kg.load(shacl=False)", "off")] if args.store is None else []
    if args.shacl != "off" and args.store is None:
        configs.append(("kg.load(shacl=True)", "auto"))
    if args.shacl == "full" and args.store is None:
        configs.append(('kg.load(shacl="full")', "full"))
    loads = {}
    for name, shacl in configs:
        r = measure_load(folder, shacl, args.load_timeout)
        loads[name] = r
        if "error" in r:
            print(f"   {name:22s} {r['error']}")
        else:
            ran = r["shacl"]
            what = f"SHACL {ran['mode']}" + (f" over {ran['resources']} resources" if ran["mode"] != "off" else "")
            print(
                f"   {name:22s} {r['seconds']:8.2f} s  peak RSS {r['peak_mb'] / 1024:5.2f} GB"
                f"  (before load {r['before_mb']:.0f} MB; checks beside {r.get('beside_peak_mb', 0) / 1024:.2f} GB)"
                f"  {r['triples']} triples  {what}   load avg {load_avg()}"
            )
    if args.load_only:
        return

    from ont_platform import KnowledgeGraph
    from ont_platform.namespaces import OC
    from ont_platform.qa import onchain as onchain_qa

    rss_start = vm_rss_mb()
    if args.store is not None:  # on disk: loaded there when empty, else asked as it is
        kg = KnowledgeGraph.open(args.store)
        if not list(kg.select("SELECT ?s WHERE { ?s ?p ?o } LIMIT 1")):  # len() would count every triple
            # the load's own account of its stages (bulk load, compaction, the wait for the checks beside it)
            logging.basicConfig(format="   [%(asctime)s] %(message)s")
            logging.getLogger("ont_platform").setLevel(logging.INFO)
            t0 = time.perf_counter()
            report = kg.load(folder, shacl=args.store_shacl)
            print(
                f"   on-disk load into {args.store}: {time.perf_counter() - t0:.1f} s, peak RSS"
                f" {vm_hwm_mb() / 1024:.2f} GB (checks beside:"
                f" {resource.getrusage(resource.RUSAGE_CHILDREN).ru_maxrss / 1024 / 1024:.2f} GB),"
                f" SHACL {report.shacl.mode} over {report.shacl.resources} resources,"
                f" sampled shapes {list(report.shacl.sampled_shapes)}; load avg {load_avg()}"
            )
        else:
            print(f"   on-disk store {args.store} asked as it is")
    else:
        kg = KnowledgeGraph.open()
        kg.load(folder, shacl=False)
    rss_loaded = vm_rss_mb()
    use_nx = args.reference == "networkx" or (args.reference == "auto" and n <= 1_000_000)
    t0 = time.perf_counter()
    if use_nx:
        g, deposits = read_graph(folder)
        senders = sorted((u for u in g if g.out_degree(u) > 0), key=lambda s: int(s[2:]))
        reference = "networkx"

        def ref_bfs(start: str, k: int) -> list[str] | None:
            return nx_bfs(g, deposits, start, k)
    else:
        plain_graph = PlainGraph(folder)
        senders = plain_graph.senders()
        reference = f"plain-Python walk over flat arrays ({plain_graph.edges} edges)"
        ref_bfs = plain_graph.bfs
    nx_build = time.perf_counter() - t0

    starts = random.Random(args.seed).sample(senders, min(args.starts, len(senders)))
    questions = [(s, k, QUESTION.format(id=s, k=k)) for k in (1, 2, 3) for s in starts]

    spent = timed_store(kg.store)  # the SPARQL part of each ask
    # the same store answered by SPARQL alone (no transfer mirror): the queries rdflib replays, and a column
    plain = KnowledgeGraph(kg.store, limits=replace(kg.limits, walk_max_edges=0))

    t0 = time.perf_counter()
    kg.ask(questions[0][2])
    first_ask = time.perf_counter() - t0
    first_pass: dict[int, list[float]] = {1: [], 2: [], 3: []}
    for _, k, q in questions[1:]:  # warm-up pass: each question's first ask (the mirror reads what it reaches)
        t0 = time.perf_counter()
        kg.ask(q)
        first_pass[k].append(time.perf_counter() - t0)
    for _, _, q in questions:
        plain.ask(q)
    ctx = kg.context("onchain").for_question()  # a view of its own: plan() below records into it only

    res: dict[int, dict[str, list[float]]] = {
        k: {
            "ask": [],
            "parse": [],
            "sparql": [],
            "build": [],
            "after": [],
            "plain": [],
            "nx": [],
            "rdf": [],
            "rdf_e2e": [],
        }
        for k in (1, 2, 3)
    }
    differ: list[str] = []
    replay: list[tuple[str, int, list[str], float, float]] = []
    disagree: list[str] = []
    yes_count = {1: 0, 2: 0, 3: 0}
    saved: list[dict[str, Any]] = []
    for start, k, q in questions:
        t0 = time.perf_counter()
        onchain_qa.plan(ctx, q)
        t1 = time.perf_counter()
        spent[0] = 0.0
        a = kg.ask(q)
        t2 = time.perf_counter()
        sparql = spent[0]
        t3 = time.perf_counter()
        ref = ref_bfs(start, k)
        t4 = time.perf_counter()
        alone, queries = plain.trace(q)  # by SPARQL alone, and the queries that took
        t5 = time.perf_counter()
        rk = res[k]
        rk["parse"].append(t1 - t0)
        rk["ask"].append(t2 - t1)
        rk["sparql"].append(sparql)
        rk["build"].append(max(0.0, (t2 - t1) - sparql - (t1 - t0)))
        rk["after"].append(max(1e-9, (t2 - t1) - (t1 - t0)))
        rk["plain"].append(t5 - t4)
        rk["nx"].append(t4 - t3)
        got = a.to_json()
        if got != alone.to_json():
            differ.append(f"{start} k={k}")
        ours_yes = got["intent"] == "path_exists"
        ours_len = len(got["path"]) if ours_yes else None
        ref_yes, ref_len = ref is not None, (len(ref) - 1 if ref else None)
        yes_count[k] += ref_yes
        if (ours_yes, ours_len) != (ref_yes, ref_len):
            disagree.append(
                f"ours {start} k={k}: {got['intent']} len={ours_len}; reference yes={ref_yes} len={ref_len} {ref}"
            )
        replay.append((start, k, queries, t1 - t0, t2 - t1))
        if args.save_queries:
            saved.append(
                {
                    "start": start,
                    "k": k,
                    "queries": queries,
                    "parse_s": t1 - t0,
                    "ask_s": t2 - t1,
                    "sparql_s": sparql,
                    "after_parse_s": rk["after"][-1],
                    "plain_ask_s": t5 - t4,
                    "yes": ours_yes,
                    "length": ours_len,
                }
            )

    if args.save_queries:  # for benchmarks/rdflib_replay.py, when rdflib cannot share this process's memory
        args.save_queries.mkdir(parents=True, exist_ok=True)
        with open(args.save_queries / "questions.jsonl", "w", encoding="utf-8") as f:
            f.writelines(json.dumps(item) + "\n" for item in saved)
        kg.export(args.save_queries / "graph.nt")
        print(f"   saved {len(saved)} questions with their queries and the graph under {args.save_queries}")

    # rdflib on the same questions
    rdf_note = ""
    rdf_errors: list[str] = []
    rdf_checked = 0
    if args.rdflib != 0:
        from rdflib import Graph

        t0 = time.perf_counter()
        rg = Graph()
        rg.parse(data=inner_dump(kg), format="nt")
        rdf_load = time.perf_counter() - t0
        chosen = (
            replay if args.rdflib < 0 else random.Random(args.seed + 1).sample(replay, min(args.rdflib, len(replay)))
        )
        for start, k, queries, parse_s, _ask_s in chosen:
            secs, out = rdflib_replay(rg, queries, args.rdflib_timeout)
            if isinstance(out, str):
                rdf_errors.append(f"{start} k={k}: {out}")
                res[k]["rdf"].append(secs)  # counted at the timeout: a lower bound
                res[k]["rdf_e2e"].append(parse_s + secs)
                continue
            rdf_checked += 1
            res[k]["rdf"].append(secs)
            res[k]["rdf_e2e"].append(parse_s + secs)
            ref = ref_bfs(start, k)
            want = (ref is not None, len(ref) - 1 if ref else None)
            if out != want:
                disagree.append(
                    f"rdflib {start} k={k}: yes={out[0]} len={out[1]}; reference yes={want[0]} len={want[1]}"
                )
        rdf_note = (
            f"rdflib: graph parsed in {rdf_load:.1f} s; {len(chosen)} questions replayed, {rdf_checked} answered,"
            f" {len(rdf_errors)} over the {args.rdflib_timeout:.0f} s per-query timeout or failed"
            + (f" (e.g. {rdf_errors[0]})" if rdf_errors else "")
        )

    mirror = kg.context("onchain").mirrors.held(OC.transfer)
    print(
        f"\n   questions: {len(starts)} start nodes x k=1..3 = {len(questions)}; first ask (analyser + names of"
        f" {meta['nodes']} nodes) {first_ask:.2f} s; reference ({reference}) built in {nx_build:.1f} s;"
        f" load avg {load_avg()}"
    )
    print(
        f"   answers 'yes' (reference): k=1 {yes_count[1]}, k=2 {yes_count[2]}, k=3 {yes_count[3]} of {len(starts)} each"
    )
    print(
        "   each question's first ask (the transfer mirror reads the lists it reaches), median / p95 ms: "
        + ", ".join(f"k={k} {ms(first_pass[k]).strip()}" for k in (1, 2, 3) if first_pass[k])
    )
    print(
        f"   transfer mirror after the run: {len(mirror) if mirror is not None else 0} edges held; resident memory"
        f" {rss_start:.0f} MB at start, {rss_loaded:.0f} MB after the load, {vm_rss_mb():.0f} MB now (reference"
        " structures included)"
    )
    print(
        "\n   times in ms, median and p95 per question; 'after parse' = ask e2e - parse (mirror walk, SPARQL,"
        " answer); 'SPARQL alone' = ask e2e with the mirror off"
    )
    print(
        f"   {'k':>2} {'ask e2e':>17} {'parse':>18} {'after parse':>18} {'SPARQL':>18} {'answer bldg':>18}"
        f" {'SPARQL alone':>18} {'reference':>18} {'rdflib SPARQL':>18} {'rdflib e2e':>18} {'e2e/ref':>7}"
        f" {'rdf/after parse':>15} {'rdf/ours e2e':>12}"
    )
    for k in (1, 2, 3):
        rk = res[k]
        med = statistics.median
        ratio_nx = med(rk["ask"]) / med(rk["nx"])
        ratio_rdf = f"{med(rk['rdf']) / med(rk['after']):15.0f}" if rk["rdf"] else f"{'-':>15}"
        ratio_rdf_e2e = f"{med(rk['rdf_e2e']) / med(rk['ask']):12.1f}" if rk["rdf"] else f"{'-':>12}"
        print(
            f"   {k:>2} {ms(rk['ask'])} {ms(rk['parse'])} {ms(rk['after'])} {ms(rk['sparql'])} {ms(rk['build'])}"
            f" {ms(rk['plain'])} {ms(rk['nx'])} {ms(rk['rdf'])} {ms(rk['rdf_e2e'])} {ratio_nx:7.0f} {ratio_rdf}"
            f" {ratio_rdf_e2e}"
        )
    print(
        f"   answers differing between the mirror and SPARQL alone: {len(differ)}"
        + (f" (e.g. {', '.join(differ[:5])})" if differ else "")
    )
    if rdf_note:
        print("   " + rdf_note)
    print(f"\n   disagreements with the reference walk: {len(disagree)}")
    for line in disagree[:10]:
        print("     " + line)
    print(f"   load average at end {load_avg()}")
    kg.close()


def inner_dump(kg) -> str:
    """The store's triples as N-Triples text (read through pyoxigraph directly, not timed)."""
    return kg.store.dump().decode("utf-8")


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--size", default="10k", help="10k, 100k, 1M or a number of transfers")
    ap.add_argument("--starts", type=int, default=200)
    ap.add_argument("--seed", type=int, default=7)
    ap.add_argument(
        "--folder", type=Path, default=None, help="dataset folder (default: generated under /tmp/ont-bench)"
    )
    ap.add_argument(
        "--shacl",
        choices=("auto", "on", "off", "full"),
        default="auto",
        help="loads: auto/on = without SHACL and with the default bounded pass; full = also the "
        "whole-batch pass; off = without SHACL only. --breakdown: on/full add a whole-batch pass",
    )
    ap.add_argument(
        "--rdflib",
        type=int,
        default=-1,
        help="questions to replay on rdflib: -1 all (default at 10k), 0 none, N a seeded sample",
    )
    ap.add_argument("--rdflib-timeout", type=float, default=30.0, help="seconds per rdflib query")
    ap.add_argument("--load-timeout", type=float, default=900.0, help="seconds per load subprocess")
    ap.add_argument("--load-only", action="store_true")
    ap.add_argument(
        "--save-queries",
        type=Path,
        default=None,
        help="write each question's queries and timings and the graph (N-Triples) to this folder, for"
        " benchmarks/rdflib_replay.py",
    )
    ap.add_argument("--breakdown", action="store_true", help="time the stages of kg.load and profile build_dataset")
    ap.add_argument(
        "--edges-between",
        action="store_true",
        help="time the edge lookup of 'yes' answers as generated and with its bound patterns first",
    )
    ap.add_argument(
        "--store",
        type=Path,
        default=None,
        help="ask on an on-disk store here (loaded when empty, else asked as it is); skips the load subprocesses",
    )
    ap.add_argument("--store-shacl", default="auto", help="SHACL mode of the load into --store")
    ap.add_argument(
        "--reference",
        choices=("auto", "networkx", "plain"),
        default="auto",
        help="the walk answers are checked against: networkx up to 1M (auto), else flat arrays",
    )
    ap.add_argument("--child-load", help=argparse.SUPPRESS)
    ap.add_argument("--child-shacl", default="off", help=argparse.SUPPRESS)
    args = ap.parse_args()
    if args.child_load:
        child_load(args.child_load, args.child_shacl)
        return
    if args.breakdown:
        n = parse_size(args.size)
        breakdown(ensure(n, args.seed, args.folder), shacl=args.shacl)
        return
    if args.edges_between:
        edges_between_check(ensure(parse_size(args.size), args.seed, args.folder), args.starts, args.seed)
        return
    if args.rdflib == -1 and parse_size(args.size) > 10_000:
        args.rdflib = 12
    run(args)


if __name__ == "__main__":
    main()
