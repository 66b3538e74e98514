"""rdflib's SPARQL engine on the questions a ``scale.py --save-queries DIR`` run asked, in a process of its own.

    python benchmarks/scale.py --size 1M --starts 50 --rdflib 0 --save-queries /tmp/ont-bench/out/1M
    python benchmarks/rdflib_replay.py /tmp/ont-bench/out/1M --sample 12 --timeout 60

At 1M transfers an rdflib graph of the 12.3M triples needs ~8–9 GB next to the ~5 GB of the embedded store and
the networkx graph, more than this machine had in one process, so the replay runs apart: it parses the saved
N-Triples with rdflib, replays exactly the SPARQL our ``ask`` runs with the transfer mirror off (SPARQL alone)
for a seeded sample of the saved questions
(each query under a SIGALRM timeout, as in ``scale.py``), checks rdflib's yes/no and path length against our
saved answer, and prints rdflib's medians next to ours from the saved run, as ratios.
"""

from __future__ import annotations

import argparse
import json
import random
import statistics
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))

from scale import load_avg, ms, rdflib_replay


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("folder", type=Path, help="the --save-queries folder of a scale.py run")
    ap.add_argument("--sample", type=int, default=12, help="questions to replay (seeded sample; -1 all)")
    ap.add_argument("--timeout", type=float, default=60.0, help="seconds per rdflib query")
    ap.add_argument("--seed", type=int, default=8)
    args = ap.parse_args()

    from rdflib import Graph

    saved = [json.loads(line) for line in (args.folder / "questions.jsonl").read_text(encoding="utf-8").splitlines()]
    chosen = saved if args.sample < 0 else random.Random(args.seed).sample(saved, min(args.sample, len(saved)))
    print(f"== rdflib replay of {len(chosen)} of {len(saved)} saved questions; load average {load_avg()}")
    t0 = time.perf_counter()
    graph = Graph()
    graph.parse(args.folder / "graph.nt", format="nt")
    print(f"   rdflib parsed {len(graph)} triples in {time.perf_counter() - t0:.0f} s")
    per_k: dict[int, dict[str, list[float]]] = {}
    failed: list[str] = []
    disagree = 0
    for item in chosen:
        secs, out = rdflib_replay(graph, item["queries"], args.timeout)
        row = per_k.setdefault(item["k"], {"rdf": [], "rdf_e2e": [], "ours_after": [], "ours_ask": []})
        row["rdf"].append(secs)
        row["rdf_e2e"].append(item["parse_s"] + secs)
        # ours after the parse: the mirror walk, any SPARQL and the answer (older runs saved the SPARQL only)
        row["ours_after"].append(item.get("after_parse_s", item["sparql_s"]))
        row["ours_ask"].append(item["ask_s"])
        if isinstance(out, str):
            failed.append(f"{item['start']} k={item['k']}: {out} (counted at {secs:.0f} s, a lower bound)")
        elif out != (item["yes"], item["length"]):
            disagree += 1
    print("   ms, median and p95; ours from the saved run on the same questions")
    print(
        f"   {'k':>2} {'n':>3} {'rdflib SPARQL':>22} {'ours after parse':>18} {'rdflib e2e':>22} {'ours e2e':>18}"
        f" {'ratio after parse':>17} {'e2e ratio':>10}"
    )
    for k in sorted(per_k):
        r = per_k[k]
        med = statistics.median
        print(
            f"   {k:>2} {len(r['rdf']):>3} {ms(r['rdf']):>22} {ms(r['ours_after'])} {ms(r['rdf_e2e']):>22}"
            f" {ms(r['ours_ask'])} {med(r['rdf']) / med(r['ours_after']):16.0f}x"
            f" {med(r['rdf_e2e']) / med(r['ours_ask']):9.0f}x"
        )
    print(f"   over the timeout or failed: {len(failed)}" + "".join(f"\n     {f}" for f in failed[:5]))
    print(f"   answers differing from ours: {disagree}; load average at end {load_avg()}")


if __name__ == "__main__":
    main()
