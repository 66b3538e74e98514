"""Check the held-out LUBM question file without asking anything.

    python check.py --dry-run [--data DIR] [--cache PATH | --no-cache] [--no-gold]

--dry-run (the only mode) parses questions.jsonl, checks every row's fields and gold types, the counts and
the share of declines, that the file is what build.py writes (same questions, meanings, order), that every
SPARQL query parses, and (unless --no-gold) that every gold recomputes from the data with gold.py
(rdflib + owlrl). It never imports ont_platform. Exit status 0 when everything holds, 1 otherwise.
"""

from __future__ import annotations

import argparse
import json
import sys
from collections import Counter
from pathlib import Path

HERE = Path(__file__).resolve().parent
sys.path.insert(0, str(HERE))

MIN_QUESTIONS = 100
MIN_DECLINE_SHARE = 0.25
ANSWER_KINDS = ("one_hop", "inverse", "multi_hop", "count", "boolean", "value", "filter", "type", "hierarchy")
DECLINE_KINDS = ("missing_property", "unknown_name", "ambiguous_name", "negation", "superlative", "chitchat",
                 "other_university", "missing_edge", "hop_limit")
GOLD_KINDS = ("answer", "multi", "count", "boolean", "value", "decline")
FIELDS = ("id", "lang", "question", "kind", "gold_kind", "gold", "meaning", "why")


def row_problems(row: dict) -> list[str]:
    p = []
    for f in FIELDS:
        if f not in row:
            p.append(f"missing field {f}")
    if p:
        return p
    gk, gold = row["gold_kind"], row["gold"]
    if row["lang"] not in ("en", "ko"):
        p.append(f"lang {row['lang']!r}")
    if gk not in GOLD_KINDS:
        p.append(f"gold_kind {gk!r}")
    if row["kind"] not in ANSWER_KINDS + DECLINE_KINDS:
        p.append(f"kind {row['kind']!r}")
    if (gk == "decline") != (row["kind"] in DECLINE_KINDS):
        p.append(f"kind {row['kind']} does not go with gold_kind {gk}")
    m = row["meaning"]
    if not isinstance(m, dict) or not isinstance(m.get("needs_reasoning"), bool) or "sparql" not in m:
        p.append("meaning needs sparql and needs_reasoning")
        return p
    if gk != "decline" and not m["sparql"]:
        p.append("an answerable question needs a SPARQL meaning")
    if gk == "answer" and not (isinstance(gold, str) and gold.startswith("http")):
        p.append("answer gold must be one IRI")
    if gk == "multi" and not (isinstance(gold, list) and len(gold) >= 2 and all(isinstance(x, str) for x in gold)
                              and len(set(gold)) == len(gold)):
        p.append("multi gold must be two or more distinct IRIs")
    if gk == "count":
        gs = row.get("gold_set")
        if not (isinstance(gold, int) and not isinstance(gold, bool) and isinstance(gs, list)
                and len(set(gs)) == gold == len(gs)):
            p.append("count gold must be an integer equal to the size of gold_set")
    if gk == "boolean" and not isinstance(gold, bool):
        p.append("boolean gold must be true or false")
    if gk == "value" and not (isinstance(gold, list) and gold and all(isinstance(x, str) for x in gold)):
        p.append("value gold must be a non-empty list of strings")
    if gk == "decline":
        if gold is not None:
            p.append("decline gold must be null")
        if not row["why"]:
            p.append("decline without why")
        if m.get("check") not in ("empty", "names", "policy", "hops"):
            p.append(f"decline check {m.get('check')!r}")
    return p


def table(rows: list[dict]) -> str:
    gk = Counter(r["gold_kind"] for r in rows)
    lang = Counter(r["lang"] for r in rows)
    reasoning = sum(r["meaning"]["needs_reasoning"] for r in rows if r["gold_kind"] != "decline")
    head = "| domain | n | ko | en | answer | multi | count | boolean | value | decline | needs reasoning |"
    line = (f"| lubm | {len(rows)} | {lang['ko']} | {lang['en']} | {gk['answer']} | {gk['multi']} | {gk['count']} | "
            f"{gk['boolean']} | {gk['value']} | {gk['decline']} | {reasoning} |")
    out = [head, "|" + "---|" * 11, line, "", "| kind | n |", "|---|---|"]
    for k, n in sorted(Counter(r["kind"] for r in rows).items(), key=lambda kv: (kv[0] in DECLINE_KINDS, kv[0])):
        out.append(f"| {k} | {n} |")
    return "\n".join(out)


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--dry-run", action="store_true", help="parse and check only (the only mode)")
    ap.add_argument("--file", default=str(HERE / "questions.jsonl"))
    ap.add_argument("--data")
    ap.add_argument("--cache")
    ap.add_argument("--no-cache", action="store_true")
    ap.add_argument("--no-gold", action="store_true", help="skip recomputing the gold from the data")
    args = ap.parse_args()
    if not args.dry_run:
        ap.error("only --dry-run exists: this script never asks the library anything")

    problems: list[str] = []
    rows = []
    with open(args.file, encoding="utf-8") as fh:
        for n, line in enumerate(fh, 1):
            if not line.strip():
                continue
            try:
                rows.append(json.loads(line))
            except json.JSONDecodeError as exc:
                problems.append(f"line {n}: not JSON ({exc})")
    ids = [r.get("id") for r in rows]
    if len(set(ids)) != len(ids):
        problems.append("duplicate ids")
    for r in rows:
        problems += [f"{r.get('id')}: {x}" for x in row_problems(r)]

    declines = sum(r.get("gold_kind") == "decline" for r in rows)
    if len(rows) < MIN_QUESTIONS:
        problems.append(f"{len(rows)} questions, fewer than {MIN_QUESTIONS}")
    if rows and declines / len(rows) < MIN_DECLINE_SHARE:
        problems.append(f"declines are {declines / len(rows):.1%}, under {MIN_DECLINE_SHARE:.0%}")
    kinds = {r.get("kind") for r in rows}
    for k in ANSWER_KINDS + DECLINE_KINDS:
        if k not in kinds:
            problems.append(f"no question of kind {k}")

    from rdflib.plugins.sparql import prepareQuery

    import build

    if len(build.QUESTIONS) != len(rows):
        problems.append(f"build.py has {len(build.QUESTIONS)} questions, the file {len(rows)}")
    for i, (spec, r) in enumerate(zip(build.QUESTIONS, rows), 1):
        if r.get("id") != f"lubm_{i:03d}":
            problems.append(f"row {i}: id {r.get('id')} out of order")
        same = (spec["question"] == r.get("question") and spec["kind"] == r.get("kind")
                and spec["gold_kind"] == r.get("gold_kind") and spec["why"] == r.get("why")
                and spec["sparql"] == r.get("meaning", {}).get("sparql")
                and spec["names"] == r.get("meaning", {}).get("names")
                and spec["check"] == r.get("meaning", {}).get("check"))
        if not same:
            problems.append(f"{r.get('id')}: differs from build.py (run build.py again)")
        if spec["sparql"]:
            try:
                prepareQuery(spec["sparql"])
            except Exception as exc:  # noqa: BLE001 - any parse failure is a problem to report
                problems.append(f"{r.get('id')}: SPARQL does not parse: {exc}")

    if not args.no_gold and not problems:
        import gold

        graphs = gold.load_graphs(args.data, cache=args.cache, use_cache=not args.no_cache)
        for i, (spec, r) in enumerate(zip(build.QUESTIONS, rows), 1):
            try:
                again = gold.make_row(f"lubm_{i:03d}", spec, graphs)
            except gold.GoldError as exc:
                problems.append(str(exc))
                continue
            if again != r:
                diff = [k for k in set(again) | set(r) if again.get(k) != r.get(k)]
                problems.append(f"{r['id']}: gold does not recompute (fields {sorted(diff)})")

    print(table(rows))
    if problems:
        print(f"\n{len(problems)} problem(s):", file=sys.stderr)
        for p in problems:
            print("  " + p, file=sys.stderr)
        return 1
    print(f"\nok: {len(rows)} questions, {declines} declines ({declines / len(rows):.1%}), "
          f"{'gold recomputed' if not args.no_gold else 'gold not recomputed (--no-gold)'}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
