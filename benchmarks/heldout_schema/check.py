"""Check the schema.org held-out set without asking anything of the library.

    python check.py --dry-run          # parse, check the ratios, recompute every gold and compare
    python check.py --dry-run --table  # also print the counts table of README.md

It parses ontology.ttl, data.ttl and questions.jsonl, checks the fields of every line, the set's proportions
(at least 60 questions, Korean >= 40 %, English >= 30 %, declines >= 25 %), that every answerable question
walks at most the default hop limit, that the data has 150-400 typed resources whose names are ambiguous only
where the set means them to be, and that gold.py gives every line's gold again from its meaning. It imports
rdflib and gold.py only.
"""
from __future__ import annotations

import argparse
import json
import sys
from collections import Counter
from pathlib import Path

from rdflib import Graph, URIRef
from rdflib.namespace import RDF

import gold

HERE = Path(__file__).resolve().parent
FIELDS = {"id", "lang", "question", "kind", "gold_kind", "gold", "meaning", "why"}
GOLD_KINDS = {"answer", "multi", "count", "boolean", "value", "decline"}
KINDS = {"one_hop", "multi_hop", "list", "count", "boolean", "value", "filter", "multi_hop_filter", "type",
         "chit_chat", "opinion"}
# names that match more than one node, on purpose (the traps of the set)
AMBIGUOUS = {"이지은", "jieunlee", "leejieun", "지은이", "진주", "jinju", "바다의시간", "thehoursofthesea"}


def load() -> list[dict]:
    rows = []
    with open(HERE / "questions.jsonl", encoding="utf-8") as f:
        for n, line in enumerate(f, 1):
            row = json.loads(line)
            if set(row) != FIELDS:
                raise SystemExit(f"questions.jsonl:{n}: fields {sorted(row)} are not {sorted(FIELDS)}")
            rows.append(row)
    return rows


def table(rows: list[dict]) -> str:
    out = ["| | n | ko | en | answer | multi | count | boolean | value | decline |",
           "| --- | ---: | ---: | ---: | ---: | ---: | ---: | ---: | ---: | ---: |"]

    def line(label, sel):
        langs = Counter(r["lang"] for r in sel)
        gk = Counter(r["gold_kind"] for r in sel)
        cells = [len(sel), langs["ko"], langs["en"]] + [gk[k] for k in
                                                        ("answer", "multi", "count", "boolean", "value", "decline")]
        out.append(f"| {label} | " + " | ".join(str(c) for c in cells) + " |")

    line("**all (schema.org)**", rows)
    for kind in sorted({r["kind"] for r in rows}):
        line(kind, [r for r in rows if r["kind"] == kind])
    out.append("")
    out.append("| decline reason | n |")
    out.append("| --- | ---: |")
    for cat, n in sorted(Counter(r["gold"]["category"] for r in rows if r["gold_kind"] == "decline").items()):
        out.append(f"| {cat} | {n} |")
    return "\n".join(out)


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--dry-run", action="store_true", help="only parse and check (the only mode there is)")
    ap.add_argument("--table", action="store_true", help="print the counts table")
    ap.parse_args()
    problems: list[str] = []

    data, onto, _ = gold.graphs()
    typed = {s for s in data.subjects(RDF.type, None) if isinstance(s, URIRef)}
    if not 150 <= len(typed) <= 400:
        problems.append(f"data.ttl has {len(typed)} typed resources, not 150-400")
    for s, p, o in data:
        if isinstance(o, URIRef) and p != RDF.type and o not in typed:
            problems.append(f"data.ttl: {s} {p} points to {o}, which is not a resource of the data")
        if str(p).startswith("https://schema.org/") and (p, None, None) not in onto:
            problems.append(f"data.ttl uses {p}, which ontology.ttl does not declare")
    for c in set(data.objects(None, RDF.type)):
        if (c, None, None) not in onto:
            problems.append(f"data.ttl uses the class {c}, which ontology.ttl does not declare")
    ambiguous = {k for k, v in gold.name_index().items() if len(v) > 1}
    if ambiguous != AMBIGUOUS:
        problems.append(f"ambiguous names {sorted(ambiguous)} are not the intended {sorted(AMBIGUOUS)}")

    rows = load()
    ids = [r["id"] for r in rows]
    if len(ids) != len(set(ids)):
        problems.append("duplicate ids")
    for r in rows:
        if r["lang"] not in ("ko", "en"):
            problems.append(f"{r['id']}: lang {r['lang']}")
        if r["kind"] not in KINDS:
            problems.append(f"{r['id']}: kind {r['kind']}")
        if r["gold_kind"] not in GOLD_KINDS:
            problems.append(f"{r['id']}: gold_kind {r['gold_kind']}")
        if (r["gold_kind"] == "decline") != bool(r["why"]):
            problems.append(f"{r['id']}: a decline needs a why, and only a decline has one")
        m = r["meaning"]
        if m["sparql"]:
            try:
                gold.graphs()[2].query(m["sparql"])  # parses (and runs unbound)
            except Exception as exc:  # noqa: BLE001
                problems.append(f"{r['id']}: sparql does not run: {exc}")
        if r["gold_kind"] != "decline" and len(m["path"]) > gold.HOP_LIMIT:
            problems.append(f"{r['id']}: answerable but walks {len(m['path'])} hops")
        again = gold.compute(m)
        if again["gold_kind"] != r["gold_kind"] or again["gold"] != r["gold"] or again["why"] != r["why"]:
            problems.append(f"{r['id']}: gold in the file differs from gold.py's")

    n = len(rows)
    lang = Counter(r["lang"] for r in rows)
    declines = sum(r["gold_kind"] == "decline" for r in rows)
    if n < 60:
        problems.append(f"{n} questions, fewer than 60")
    if lang["ko"] < 0.40 * n:
        problems.append(f"Korean {lang['ko']}/{n} < 40 %")
    if lang["en"] < 0.30 * n:
        problems.append(f"English {lang['en']}/{n} < 30 %")
    if declines < 0.25 * n:
        problems.append(f"declines {declines}/{n} < 25 %")

    print(f"{n} questions: ko {lang['ko']} ({lang['ko'] / n:.0%}), en {lang['en']} ({lang['en'] / n:.0%}), "
          f"declines {declines} ({declines / n:.0%}); data: {len(typed)} resources, {len(data)} triples; "
          f"ontology: {len(onto)} triples")
    if "--table" in sys.argv:
        print(table(rows))
    for p in problems:
        print("PROBLEM:", p)
    print("ok" if not problems else f"{len(problems)} problem(s)")
    return 1 if problems else 0


if __name__ == "__main__":
    sys.exit(main())
