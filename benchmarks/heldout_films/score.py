"""Score ont_platform on the held-out films questions through the public API.

    .venv/bin/python benchmarks/heldout_films/score.py [--answers-out FILE] [--show-wrong]

For every gold line of questions.jsonl it asks `kg.ask(question, qid=id).to_json()` on a KnowledgeGraph loaded
with examples/films, and prints:
- per gold decision group (answer / refuse / max_hops): decision accuracy, full match (decision, answer node,
  factors and path all equal to the gold) and path match;
- the same per language and per kind of question (from spec.jsonl);
- "confidently wrong": the system said `answer` and either named a node other than the gold one or the gold
  is a refusal / max_hops;
- "safe misses": the gold is `answer` and the system refused (refuse or max_hops).
A question whose ask() raises counts as wrong (and neither confidently wrong nor a safe miss).
"""
from __future__ import annotations

import argparse
import json
import sys
import time
from collections import Counter, defaultdict
from pathlib import Path

HERE = Path(__file__).resolve().parent
ROOT = HERE.parent.parent


def hops(path):
    return [(h.get("src"), h.get("rel"), h.get("dst"), h.get("chunk_id")) for h in path or []]


def main(argv=None) -> int:
    ap = argparse.ArgumentParser(description="score the held-out films set")
    ap.add_argument("--gold", type=Path, default=HERE / "questions.jsonl")
    ap.add_argument("--data", type=Path, default=ROOT / "examples" / "films")
    ap.add_argument("--answers-out", type=Path, help="write the system's answers (one JSON per line)")
    ap.add_argument("--show-wrong", action="store_true", help="list every question not fully matched")
    a = ap.parse_args(argv)

    from ont_platform import KnowledgeGraph

    gold = [json.loads(l) for l in open(a.gold, encoding="utf-8") if l.strip()]
    spec = {}
    if (HERE / "spec.jsonl").exists():
        spec = {q["id"]: q for q in map(json.loads, open(HERE / "spec.jsonl", encoding="utf-8")) if q}

    kg = KnowledgeGraph.open()
    kg.load(str(a.data))

    rows = []
    t0 = time.perf_counter()
    for g in gold:
        exp = g["expected"]
        try:
            got = kg.ask(g["question"], qid=g["id"]).to_json()
            if isinstance(got, str):
                got = json.loads(got)
            err = None
        except Exception as e:  # noqa: BLE001 - a crash is a wrong answer, reported
            got, err = {}, f"{type(e).__name__}: {e}"
        dec_ok = got.get("decision") == exp["decision"]
        ans_ok = got.get("answer") == exp["answer"]
        fac_ok = sorted(got.get("factors") or []) == sorted(exp["factors"])
        path_ok = hops(got.get("path")) == hops(exp["path"])
        full = dec_ok and ans_ok and fac_ok and path_ok
        conf_wrong = got.get("decision") == "answer" and (exp["decision"] != "answer" or not ans_ok)
        safe_miss = exp["decision"] == "answer" and got.get("decision") in ("refuse", "max_hops")
        kind = spec.get(g["id"], {}).get("meaning", {}).get("kind", "?")
        rows.append(dict(id=g["id"], lang=g.get("lang", "?"), kind=kind, gold=exp["decision"], got=got,
                         err=err, dec_ok=dec_ok, full=full, path_ok=path_ok, conf_wrong=conf_wrong,
                         safe_miss=safe_miss, question=g["question"], expected=exp))
    elapsed = time.perf_counter() - t0

    def table(title, key):
        groups = defaultdict(list)
        for r in rows:
            groups[key(r)].append(r)
        print(f"\n{title:<16} {'n':>4} {'decision':>9} {'full':>7} {'path':>7} {'conf.wrong':>11} {'safe miss':>10}")
        for k in sorted(groups):
            g = groups[k]
            n = len(g)
            pct = lambda f: f"{100 * sum(f(r) for r in g) / n:6.1f}%"
            print(f"{k:<16} {n:>4} {pct(lambda r: r['dec_ok']):>9} {pct(lambda r: r['full']):>7} "
                  f"{pct(lambda r: r['path_ok']):>7} {sum(r['conf_wrong'] for r in g):>11} "
                  f"{sum(r['safe_miss'] for r in g):>10}")

    n = len(rows)
    print(f"held-out films: {n} questions, {elapsed:.1f}s")
    table("gold decision", lambda r: r["gold"])
    table("language", lambda r: r["lang"])
    table("kind", lambda r: r["kind"])
    conf = [r for r in rows if r["conf_wrong"]]
    safe = [r for r in rows if r["safe_miss"]]
    errs = [r for r in rows if r["err"]]
    print(f"\noverall: decision {sum(r['dec_ok'] for r in rows)}/{n}, full match {sum(r['full'] for r in rows)}/{n}")
    print(f"confidently wrong: {len(conf)}  ({Counter(r['gold'] for r in conf)})")
    for r in conf:
        print(f"  {r['id']} gold={r['gold']}:{r['expected']['answer']} got=answer:{r['got'].get('answer')}  {r['question']}")
    print(f"safe misses: {len(safe)}")
    if errs:
        print(f"errors: {len(errs)}")
        for r in errs:
            print(f"  {r['id']} {r['err']}")
    confusion = Counter((r["gold"], r["got"].get("decision", "error")) for r in rows)
    print("\ngold -> system decision:")
    for (gd, sd), c in sorted(confusion.items()):
        print(f"  {gd:9} -> {sd:9} {c}")
    if a.show_wrong:
        print("\nnot fully matched:")
        for r in rows:
            if not r["full"]:
                got = r["got"]
                print(f"  {r['id']} [{r['kind']}] {r['question']}\n     gold {r['expected']['decision']} "
                      f"{r['expected']['answer']} {r['expected']['factors']} {hops(r['expected']['path'])}\n"
                      f"     got  {got.get('decision')} {got.get('answer')} {got.get('factors')} {hops(got.get('path'))}")
    if a.answers_out:
        with open(a.answers_out, "w", encoding="utf-8") as f:
            for r in rows:
                f.write(json.dumps(r["got"], ensure_ascii=False) + "\n")
    return 0


if __name__ == "__main__":
    sys.exit(main())
