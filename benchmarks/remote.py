"""The scale questions on remote SPARQL servers: the Oxigraph server and Virtuoso on loopback, against the
embedded store, with every answer compared.

    python benchmarks/remote.py --size 10k [--starts 50] [--seed 7] [--servers oxigraph,virtuoso]

1. The dataset folder comes from ``benchmarks/generate.py`` (generated on first use under /tmp/ont-bench).
2. The embedded store (Oxigraph in memory) loads it with ``kg.load(folder, shacl=False)`` and answers
   "{id} 에서 {k}-hop 안에 거래소 입금주소에 닿나요?" for ``--starts`` seeded start nodes and k = 1..3; each
   answer is checked against a networkx walk (as in ``scale.py``).
3. Each server is started on 127.0.0.1 by the tests' own launcher (``tests/servers.py``: a fresh data folder,
   stopped by process group at the end), then a ``KnowledgeGraph`` with ``backend="remote"`` loads the same
   folder into its own named graph (timed) and answers the same questions after one warm-up pass (the warm-up
   reads every node name into the lexicon, paged past Virtuoso's 10,000-row cut). Per question: ``kg.ask`` end
   to end and the time inside the store's ``select``/``ask`` (HTTP round trips included).
4. Every remote answer (the whole JSON contract, path and evidence included) must equal the embedded one;
   differences are counted and the first few printed.

Virtuoso runs with Debian's defaults apart from its buffers (``--virtuoso-buffers``, 8 KB pages): the tests'
small configuration is enough for 10k transfers; give it more above that. A load moves its whole batch into the
graph in one transaction, whose log Virtuoso caps at 50 MB by default: at 1M transfers (12.3M triples) raise the
cap (``--virtuoso-after-image``, bytes), or the load is refused and nothing is written; the move is also one
request under Virtuoso's query time limit (``--virtuoso-max-query``, seconds; 60 as Debian ships it).
"""

from __future__ import annotations

import argparse
import json
import os
import random
import statistics
import sys
import time
import uuid
from collections.abc import Callable, Iterator
from contextlib import AbstractContextManager
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT / "benchmarks"))
sys.path.insert(0, str(ROOT))

from generate import ensure, parse_size, size_label
from scale import QUESTION, load_avg, ms, nx_bfs, read_graph, timed_store

from tests import servers


def _answers(
    kg: Any, questions: list[tuple[str, int, str]]
) -> tuple[list[dict], dict[int, dict[str, list[float]]], float]:
    """Warm up once, then ask each question; returns the answers, per-k timings and the first ask's seconds."""
    spent = timed_store(kg.store)
    t0 = time.perf_counter()
    kg.ask(questions[0][2])
    first = time.perf_counter() - t0
    for _, _, q in questions[1:]:
        kg.ask(q)
    out: list[dict] = []
    times: dict[int, dict[str, list[float]]] = {k: {"ask": [], "sparql": []} for k in (1, 2, 3)}
    for _, k, q in questions:
        spent[0] = 0.0
        t0 = time.perf_counter()
        answer = kg.ask(q)
        times[k]["ask"].append(time.perf_counter() - t0)
        times[k]["sparql"].append(spent[0])
        out.append(answer.to_json())
    return out, times, first


def _launchers(
    names: list[str], buffers: int, after_image: int | None, max_query_s: int
) -> dict[str, Callable[[], AbstractContextManager[servers.Endpoint]]]:
    def virtuoso() -> Iterator[servers.Endpoint]:
        return servers.virtuoso_server(buffers=buffers, after_image_limit=after_image, max_query_s=max_query_s)

    table: dict[str, Callable[[], AbstractContextManager[servers.Endpoint]]] = {
        "oxigraph": servers.oxigraph_server,
        "virtuoso": virtuoso,  # type: ignore[dict-item]
    }
    unknown = [n for n in names if n not in table]
    if unknown:
        raise SystemExit(f"unknown server(s) {unknown}; use oxigraph, virtuoso")
    return {n: table[n] for n in names}


def run(args: argparse.Namespace) -> None:
    from ont_platform import KnowledgeGraph

    n = parse_size(args.size)
    folder = ensure(n, args.seed)
    meta = json.loads((folder / "generated.json").read_text(encoding="utf-8"))
    print(f"== {size_label(n)} transfers, seed {args.seed}: {meta['nodes']} nodes, folder {folder}")
    print(f"   python {sys.version.split()[0]}, {os.cpu_count()} cores, load average at start {load_avg()}")

    g, deposits = read_graph(folder)
    senders = sorted((u for u in g if g.out_degree(u) > 0), key=lambda s: int(s[2:]))
    starts = random.Random(args.seed).sample(senders, min(args.starts, len(senders)))
    questions = [(s, k, QUESTION.format(id=s, k=k)) for k in (1, 2, 3) for s in starts]

    with KnowledgeGraph.open() as kg:
        t0 = time.perf_counter()
        kg.load(folder, shacl=False)
        embedded_load = time.perf_counter() - t0
        reference, ref_times, ref_first = _answers(kg, questions)
    wrong = 0
    for (start, k, _), got in zip(questions, reference, strict=True):
        path = nx_bfs(g, deposits, start, k)
        ours = (got["intent"] == "path_exists", len(got["path"]) if got["intent"] == "path_exists" else None)
        wrong += ours != (path is not None, len(path) - 1 if path else None)
    rows = [("embedded (Oxigraph in memory)", embedded_load, ref_first, ref_times, 0)]
    print(
        f"   embedded: loaded in {embedded_load:.1f} s; {len(questions)} questions; disagreements with networkx: {wrong}"
    )

    for name, launch in _launchers(
        args.servers.split(","), args.virtuoso_buffers, args.virtuoso_after_image, args.virtuoso_max_query
    ).items():
        with launch() as ep:
            kg = KnowledgeGraph.open(
                backend="remote",
                endpoint=ep.query_url,
                update_endpoint=ep.update_url,
                graph_iri=f"https://w3id.org/ont-platform/graph/bench/{uuid.uuid4().hex}",
            )
            try:
                t0 = time.perf_counter()
                kg.load(folder, shacl=False)
                load_s = time.perf_counter() - t0
                answers, times, first = _answers(kg, questions)
            finally:
                kg.close()
        diffs = [(q, a, b) for q, a, b in zip(questions, reference, answers, strict=True) if a != b]
        rows.append((f"{name} server (pid {ep.pid}, loopback)", load_s, first, times, len(diffs)))
        print(f"   {name}: loaded in {load_s:.1f} s; answers differing from the embedded store: {len(diffs)}")
        for (start, k, _), a, b in diffs[:5]:
            print(f"     {start} k={k}: embedded {a['intent']} {a.get('path')}; {name} {b['intent']} {b.get('path')}")

    print(f"\n   {len(starts)} start nodes x k = 1..3; times in ms, median and p95; load avg {load_avg()}")
    print(
        f"   {'backend':38s} {'load s':>7} {'first ask s':>11} {'k':>2} {'ask e2e':>17} {'SPARQL + HTTP':>18}"
        f" {'vs embedded':>11} {'differ':>6}"
    )
    ref_med = {k: statistics.median(ref_times[k]["ask"]) for k in (1, 2, 3)}
    for label, load_s, first, times, diffs_n in rows:
        for k in (1, 2, 3):
            ratio = statistics.median(times[k]["ask"]) / ref_med[k]
            head = f"{label:38s} {load_s:7.1f} {first:11.2f}" if k == 1 else f"{'':38s} {'':>7} {'':>11}"
            print(
                f"   {head} {k:>2} {ms(times[k]['ask'])} {ms(times[k]['sparql'])} {ratio:10.1f}x"
                f" {diffs_n if k == 1 else '':>6}"
            )


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--size", default="10k", help="10k, 100k or a number of transfers")
    ap.add_argument("--seed", type=int, default=7)
    ap.add_argument("--starts", type=int, default=50)
    ap.add_argument("--servers", default="oxigraph,virtuoso")
    ap.add_argument(
        "--virtuoso-after-image",
        type=int,
        default=None,
        help="Virtuoso TransactionAfterImageLimit in bytes, at most 2147483647 (4000000000 made every request fail)",
    )
    ap.add_argument(
        "--virtuoso-max-query",
        type=int,
        default=60,
        help="Virtuoso MaxQueryExecutionTime in seconds (60 as Debian ships it): it bounds a load's one ADD too",
    )
    ap.add_argument(
        "--virtuoso-buffers",
        type=int,
        default=10_000,
        help="Virtuoso NumberOfBuffers (8 KB pages); about 170000 per GB of RAM given to it",
    )
    run(ap.parse_args())


if __name__ == "__main__":
    main()
