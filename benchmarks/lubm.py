"""LUBM with reasoning: load and reasoning time and memory, and the 14 queries, against Oxigraph without reasoning,
owlrl's closure and query rewriting, each in a fresh process.

    python benchmarks/lubm.py                                   # LUBM(1,0): $LUBM_DIR or ../shared/data/lubm
    python benchmarks/lubm.py --data /tmp/lubm10 --label "LUBM(10,0)" --skip rewrite
    python benchmarks/lubm.py --skip owlrl,rewrite --runs 5

What each part measures (peak memory is the process's high-water mark, ``VmHWM``, interpreter included):

* **oxigraph**: pyoxigraph alone, in memory, the RDF/XML files loaded as they are (no checks, no reasoning), then
  the queries over the stated triples: the floor.
* **ont**: ``kg.load(data, ontology=..., shacl=--shacl)`` (the library's load: RDF/XML read, every triple checked
  against the ontology, written), then ``kg.entailments()`` (the reasoner: the stated triples its rules read,
  the closure, the derived graph written), then each query with ``reasoning=True`` (answers and the marks of
  entailed facts) and without, and the same query given to the engine directly over the union of the stated and
  the derived graph ("engine, union": what the union costs, without the library's check, worker and marks).
* **owlrl**: rdflib parses the ontology and data and owlrl expands them (``OWLRL_Semantics``, no axiomatic or
  datatype triples): the reference closure, its time and memory. Its class memberships and property facts of the
  ontology's terms are compared with the library's (stated and entailed), and the closure is loaded into one
  Oxigraph default graph to time the queries over a conventional materialisation. ``--owlrl-timeout`` stops it.
* **rewrite**: the queries rewritten (``benchmarks/lubm_rewrite.py``) over the stated triples in pyoxigraph, each
  stopped after ``--rewrite-timeout`` seconds.

Query times are medians of ``--runs`` runs after one warm-up. The load average is printed before and after: the
machine is shared, and times (not memory) move with it.
"""

from __future__ import annotations

import argparse
import json
import os
import re
import subprocess
import sys
import tempfile
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))
sys.path.insert(0, str(ROOT / "benchmarks"))

LUBM = Path(os.environ.get("LUBM_DIR") or ROOT.parent / "shared" / "data" / "lubm")

PRELUDE = r"""
import glob, json, re, statistics, sys, time
from pathlib import Path
def hwm():
    return next(int(l.split()[1]) for l in open("/proc/self/status") if l.startswith("VmHWM:")) / 1024
def rss():
    return next(int(l.split()[1]) for l in open("/proc/self/status") if l.startswith("VmRSS:")) / 1024
def out(**kw):
    print(json.dumps(kw), flush=True)
args = json.loads(sys.argv[1])
text = Path(args["queries"]).read_text(encoding="utf-8")
QUERIES = [q.strip() for q in re.split(r"(?m)^(?=# Q\d+)", text) if q.strip()]
FILES = sorted(glob.glob(str(Path(args["data"]) / "*.owl")))
def timed(run, q):
    n = run(q)
    times = []
    for _ in range(args["runs"]):
        t = time.perf_counter(); run(q); times.append(time.perf_counter() - t)
    return n, statistics.median(times)
"""

CHILD_OXIGRAPH = r"""
import pyoxigraph as ox
t = time.perf_counter()
store = ox.Store()
for f in FILES:
    store.load(path=f, format=ox.RdfFormat.RDF_XML, base_iri=Path(f).resolve().as_uri())
out(stage="load", seconds=time.perf_counter() - t, triples=len(store), hwm=hwm())
for i, q in enumerate(QUERIES):
    n, s = timed(lambda q: len(list(store.query(q))), q)
    out(stage="query", q=i + 1, rows=n, seconds=s)
"""

CHILD_ONT = r"""
from ont_platform import KnowledgeGraph
from ont_platform.limits import Limits
kg = KnowledgeGraph.open(limits=Limits(max_result_rows=1_000_000, query_timeout_s=600.0))
t = time.perf_counter()
report = kg.load(args["data"], ontology=args["ontology"], shacl=args["shacl"])
out(stage="load", seconds=time.perf_counter() - t, triples=len(kg), hwm=hwm(), rss=rss())
t = time.perf_counter()
[e] = kg.entailments()
out(stage="reason", seconds=time.perf_counter() - t, entailed=e.triples, read=e.read, hwm=hwm(), rss=rss(),
    ignored=list(e.ignored))
import pyoxigraph as ox
from ont_platform.reasoning import entailed_graph
union = [ox.DefaultGraph(), ox.NamedNode(entailed_graph(report.domain))]
engine = kg.store._s  # the engine itself: the union's cost without the library's checks, worker and marks
for i, q in enumerate(QUERIES):
    n, s = timed(lambda q: len(kg.query(q, reasoning=True)), q)
    n0, s0 = timed(lambda q: len(kg.query(q)), q)
    ne, se = timed(lambda q: len(list(engine.query(q, default_graph=union))), q)
    marked = sum(1 for e in kg.query(q, reasoning=True).entailed if e)
    out(stage="query", q=i + 1, rows=n, seconds=s, stated_rows=n0, stated_seconds=s0, marked=marked,
        engine_rows=ne, engine_seconds=se)
if args.get("dump"):  # the stated and entailed triples, for the comparison with owlrl's closure
    with open(args["dump"], "w", encoding="utf-8") as f:
        for quad in kg.store._s.quads_for_pattern(None, None, None, None):
            f.write(f"{quad.subject} {quad.predicate} {quad.object} .\n")
out(stage="end", hwm=hwm())
"""

CHILD_OWLRL = r"""
import owlrl, rdflib
import pyoxigraph as ox
t = time.perf_counter()
g = rdflib.Graph()
g.parse(args["ontology"], format="xml")
for f in FILES:
    g.parse(f, format="xml")
stated = len(g)
out(stage="parse", seconds=time.perf_counter() - t, triples=stated, hwm=hwm())
t = time.perf_counter()
owlrl.DeductiveClosure(owlrl.OWLRL_Semantics, axiomatic_triples=False, datatype_axioms=False).expand(g)
out(stage="closure", seconds=time.perf_counter() - t, triples=len(g), added=len(g) - stated, hwm=hwm())
UB = "<http://swat.cse.lehigh.edu/onto/univ-bench.owl#"
TYPE = "<http://www.w3.org/1999/02/22-rdf-syntax-ns#type>"
def abox(lines):
    found = set()
    for s, p, o in lines:
        if s.startswith("_:") or o.startswith("_:") or s.startswith(UB) or s.startswith('"'):
            continue
        if (p == TYPE and o.startswith(UB)) or (p != TYPE and p.startswith(UB)):
            found.add((s, p, o))
    return found
nt = [(t.n3(), p.n3(), o.n3()) for t, p, o in g if not isinstance(t, rdflib.Literal)]
if args.get("compare") and Path(args["compare"]).is_file():
    ours = set()
    for q in ox.parse(path=args["compare"], format=ox.RdfFormat.N_TRIPLES):
        ours.add((str(q.subject), str(q.predicate), str(q.object)))
    a, b = abox(ours), abox(nt)
    out(stage="compare", ours=len(a), owlrl=len(b), only_ours=len(a - b), only_owlrl=len(b - a))
del g
store = ox.Store()
store.load("".join(f"{s} {p} {o} .\n" for s, p, o in nt).encode("utf-8"), format=ox.RdfFormat.N_TRIPLES)
del nt
for i, q in enumerate(QUERIES):
    n, s = timed(lambda q: len(list(store.query(q))), q)
    out(stage="query", q=i + 1, rows=n, seconds=s)
"""

CHILD_REWRITE = r"""
import pyoxigraph as ox
from rdflib import Graph
from ont_platform.reasoning import compile_rules
from lubm_rewrite import Rewriter
onto = Graph()
onto.parse(args["ontology"], format="xml")
rewriter = Rewriter(compile_rules(onto))
store = ox.Store()
for f in FILES:
    store.load(path=f, format=ox.RdfFormat.RDF_XML, base_iri=Path(f).resolve().as_uri())
out(stage="ready")
for i in args["only"]:
    q = rewriter.rewrite(QUERIES[i - 1])
    t = time.perf_counter()
    n = len(list(store.query(q)))
    out(stage="query", q=i, rows=n, seconds=time.perf_counter() - t, chars=len(q))
"""


def load_avg() -> str:
    return " ".join(Path("/proc/loadavg").read_text().split()[:3])


def run_child(code: str, args: dict[str, object], timeout: float | None = None) -> list[dict[str, object]]:
    """Run a child; its JSON lines, as far as it got (a child past ``timeout`` is killed)."""
    env = dict(os.environ, PYTHONPATH=os.pathsep.join([str(ROOT), str(ROOT / "benchmarks")]))
    proc = subprocess.Popen(
        [sys.executable, "-c", PRELUDE + code, json.dumps(args)],
        stdout=subprocess.PIPE,
        stderr=subprocess.DEVNULL,
        text=True,
        env=env,
    )
    try:
        stdout, _ = proc.communicate(timeout=timeout)
    except subprocess.TimeoutExpired:
        proc.kill()
        stdout, _ = proc.communicate()
    return [json.loads(line) for line in stdout.splitlines() if line.startswith("{")]


def rewrite_child(args: dict[str, object], count: int, timeout: float) -> dict[int, dict[str, object] | None]:
    """Each rewritten query with its own time limit: a query past it kills the child (``None``: over the limit),
    and a new child (loading the data again) runs the rest."""
    import queue
    import threading

    results: dict[int, dict[str, object] | None] = {}
    todo = list(range(1, count + 1))
    env = dict(os.environ, PYTHONPATH=os.pathsep.join([str(ROOT), str(ROOT / "benchmarks")]))
    while todo:
        proc = subprocess.Popen(
            [sys.executable, "-c", PRELUDE + CHILD_REWRITE, json.dumps(dict(args, only=todo))],
            stdout=subprocess.PIPE,
            stderr=subprocess.DEVNULL,
            text=True,
            env=env,
        )
        lines: queue.Queue[str] = queue.Queue()
        stdout = proc.stdout
        assert stdout is not None
        threading.Thread(target=_pump, args=(stdout, lines), daemon=True).start()
        wait: float | None = None  # no limit while the data loads
        while todo:
            try:
                line = lines.get(timeout=wait)
            except queue.Empty:
                proc.kill()
                results[todo.pop(0)] = None
                break
            if not line:  # the child ended without answering the rest
                results.update({q: None for q in todo})
                todo = []
                break
            doc = json.loads(line)
            if doc["stage"] == "query":
                results[int(doc["q"])] = doc
                todo.remove(int(doc["q"]))
            wait = timeout
        proc.wait()
    return results


def _pump(stream: object, lines: object) -> None:
    """Put each line of ``stream`` on the queue ``lines``, then ``""`` at its end."""
    for line in stream:  # type: ignore[attr-defined]
        lines.put(line)  # type: ignore[attr-defined]
    lines.put("")  # type: ignore[attr-defined]


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--data", type=Path, default=LUBM / "data", help="folder of University*.owl files")
    ap.add_argument("--ontology", type=Path, default=LUBM / "univ-bench.owl")
    ap.add_argument("--queries", type=Path, default=LUBM / "queries.sparql")
    ap.add_argument("--label", default="LUBM(1,0)")
    ap.add_argument("--runs", type=int, default=3)
    ap.add_argument("--shacl", default="off", help="the library load's SHACL pass (off, auto, rows, full)")
    ap.add_argument("--skip", default="", help="comma-separated parts to leave out: oxigraph, ont, owlrl, rewrite")
    ap.add_argument("--owlrl-timeout", type=float, default=3600.0)
    ap.add_argument("--rewrite-timeout", type=float, default=120.0)
    a = ap.parse_args()
    skip = set(filter(None, a.skip.split(",")))
    queries = [q for q in re.split(r"(?m)^(?=# Q\d+)", a.queries.read_text(encoding="utf-8")) if q.strip()]
    expected = [int(m[1]) if (m := re.search(r"expected (\d+) rows", q)) else None for q in queries]
    files = sorted(a.data.glob("*.owl"))
    dump = Path(tempfile.mkdtemp(prefix="lubm-bench-")) / "ours.nt"
    args: dict[str, object] = {
        "data": str(a.data),
        "ontology": str(a.ontology),
        "queries": str(a.queries),
        "runs": a.runs,
        "shacl": a.shacl,
        "dump": str(dump),
        "compare": str(dump),
    }
    print(f"== {a.label}: {len(files)} files in {a.data}; {a.runs} runs a query; load average {load_avg()}")
    rows: dict[str, dict[int, dict[str, object] | None]] = {}

    if "oxigraph" not in skip:
        got = run_child(CHILD_OXIGRAPH, args)
        load = got[0]
        print(
            f"oxigraph (no reasoning): load {load['seconds']:.1f} s, {load['triples']:,} triples, "
            f"peak {load['hwm']:,.0f} MB"
        )
        rows["oxigraph"] = {int(d["q"]): d for d in got if d["stage"] == "query"}  # type: ignore[call-overload]
    if "ont" not in skip:
        got = run_child(CHILD_ONT, args)
        load, reason = got[0], got[1]
        print(
            f"ont: load (SHACL {a.shacl}) {load['seconds']:.1f} s, {load['triples']:,} triples, peak {load['hwm']:,.0f} MB;"
            f" reasoning {reason['seconds']:.2f} s, {reason['read']:,} triples read, {reason['entailed']:,} entailed,"
            f" peak {reason['hwm']:,.0f} MB (RSS {load['rss']:,.0f} → {reason['rss']:,.0f} MB)"
            + (f"; not applied: {reason['ignored']}" if reason["ignored"] else "")
        )
        rows["ont"] = {int(d["q"]): d for d in got if d["stage"] == "query"}  # type: ignore[call-overload]
    if "owlrl" not in skip:
        got = run_child(CHILD_OWLRL, args, timeout=a.owlrl_timeout)
        stages = {d["stage"]: d for d in got}
        if "parse" in stages:
            p = stages["parse"]
            print(f"owlrl: rdflib parse {p['seconds']:.1f} s, {p['triples']:,} triples, peak {p['hwm']:,.0f} MB")
        if "closure" in stages:
            c = stages["closure"]
            print(
                f"owlrl: closure {c['seconds']:.1f} s, {c['added']:,} triples added (ontology's included), "
                f"peak {c['hwm']:,.0f} MB"
            )
        else:
            print(f"owlrl: closure did not finish within {a.owlrl_timeout:.0f} s")
        if "compare" in stages:
            c = stages["compare"]
            same = "equal" if not c["only_ours"] and not c["only_owlrl"] else "DIFFERENT"
            print(
                f"owlrl vs ont, class memberships and property facts of the ontology's terms: {same} "
                f"({c['ours']:,} ours, {c['owlrl']:,} owlrl's, {c['only_ours']} only ours, {c['only_owlrl']} only owlrl's)"
            )
        rows["owlrl"] = {int(d["q"]): d for d in got if d["stage"] == "query"}  # type: ignore[call-overload]
    if "rewrite" not in skip:
        rows["rewrite"] = rewrite_child(args, len(queries), a.rewrite_timeout)

    parts = list(rows)
    print()
    header = f"{'query':5} {'expected':>8} " + " ".join(
        f"{name + (' (on)' if name == 'ont' else ''):>22}" for name in parts
    )
    if "ont" in rows:
        header += f" {'ont (off)':>22} {'marked':>7} {'engine, union':>22}"
    print(header)
    for i in range(1, len(queries) + 1):
        line = f"Q{i:<4} {expected[i - 1] if expected[i - 1] is not None else '?':>8} "
        cells = []
        for name in parts:
            d = rows[name].get(i)
            cells.append(f"{'> limit':>22}" if d is None else f"{d['rows']:>8} {1000 * float(d['seconds']):>10.1f} ms")  # type: ignore[arg-type]
        line += " ".join(cells)
        d = rows.get("ont", {}).get(i)
        if d is not None:
            line += f" {d['stated_rows']:>8} {1000 * float(d['stated_seconds']):>10.1f} ms {d['marked']:>7}"  # type: ignore[arg-type]
            line += f" {d['engine_rows']:>8} {1000 * float(d['engine_seconds']):>10.1f} ms"  # type: ignore[arg-type]
        print(line)
    print(f"\nload average {load_avg()} (rows, then the median time; 'marked': rows resting on an entailed fact)")


if __name__ == "__main__":
    main()
