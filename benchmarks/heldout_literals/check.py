"""Check the hospitals held-out set without asking the library anything.

    python check.py --dry-run

1. the ontology: every class and property has a Korean and an English rdfs:label, no word (label or
   altLabel, compared without case and spaces) names two terms;
2. the tables: header, classes, relations, domains and ranges (subclasses count), literal cells parse as the
   property's rdfs:range, every chunk an edge cites exists; build.py's tables are up to date;
3. grounding: exactly the edges build.py lists as ungrounded on purpose fail the grounding rule;
4. SHACL: the tables converted to RDF here (rdflib) conform to data/shapes.ttl under pyshacl, with the
   ontology as ont_graph; seven broken copies do not;
5. the question set: ratios (>= 60 questions, Korean >= 40 %, English >= 30 %, declines >= 25 %), and every
   gold recomputed by gold.py from the question's meaning equals the gold in questions.jsonl.
Exit 1 on any problem. Imports rdflib, pyshacl, networkx (through gold.py); never ont_platform.
"""
from __future__ import annotations

import csv
import json
import logging
import sys
from collections import Counter
from pathlib import Path
from urllib.parse import quote

import rdflib
from pyshacl import validate
from rdflib.namespace import OWL, RDF, RDFS, SKOS, XSD

HERE = Path(__file__).resolve().parent
DATA = HERE / "data"
sys.path.insert(0, str(HERE))

import build  # noqa: E402
import gold  # noqa: E402

logging.getLogger("rdflib.term").setLevel(logging.ERROR)   # the broken copy with "500mg" is ill-typed on purpose

HOSP = rdflib.Namespace("https://example.org/hospitals#")
NODE = rdflib.Namespace("https://example.org/hospitals/id/")
problems: list[str] = []


def problem(msg: str) -> None:
    problems.append(msg)
    print("PROBLEM:", msg)


def read(name):
    with open(DATA / name, encoding="utf-8", newline="") as f:
        return list(csv.DictReader(f))


def check_ontology(onto: rdflib.Graph) -> None:
    terms = set(onto.subjects(RDF.type, OWL.Class)) | set(onto.subjects(RDF.type, OWL.ObjectProperty)) \
        | set(onto.subjects(RDF.type, OWL.DatatypeProperty))
    words: dict[str, rdflib.URIRef] = {}
    for t in terms:
        if not isinstance(t, rdflib.URIRef):
            continue
        langs = {lbl.language for lbl in onto.objects(t, RDFS.label)}
        if not {"ko", "en"} <= langs:
            problem(f"{t}: needs rdfs:label in ko and en, has {sorted(map(str, langs))}")
        for p in (RDFS.label, SKOS.altLabel):
            for w in onto.objects(t, p):
                key = gold.norm(str(w))
                if key in words and words[key] != t:
                    problem(f"the word '{w}' names {words[key]} and {t}")
                words[key] = t


def to_rdf(data: gold.Data, nodes, edges) -> rdflib.Graph:
    g = rdflib.Graph()
    for r in nodes:
        n = NODE[quote(r["node_id"], safe="")]
        g.add((n, RDF.type, HOSP[r["class"]]))
        g.add((n, RDFS.label, rdflib.Literal(r["label"])))
        for a in filter(None, r["aliases"].split("|")):
            g.add((n, SKOS.altLabel, rdflib.Literal(a)))
        for prop, info in data.data_props.items():
            if r.get(prop, "") != "":
                # RDF 1.1: a simple literal is an xsd:string; rdflib keeps the two apart, so strings stay simple
                # (the shapes' sh:in lists are simple literals, as people write them)
                dt = None if info["range"] == XSD.string else info["range"]
                g.add((n, HOSP[prop], rdflib.Literal(r[prop], datatype=dt)))
    for e in edges:
        g.add((NODE[quote(e["src"], safe="")], HOSP[e["rel"]], NODE[quote(e["dst"], safe="")]))
    return g


def check_tables(data: gold.Data, nodes, edges, chunks) -> None:
    header = list(nodes[0].keys())
    if header[:4] != ["node_id", "class", "label", "aliases"] or set(header[4:]) != set(data.data_props):
        problem(f"kg_nodes.csv header {header} is not the films columns plus one column per datatype property")
    ids = {r["node_id"] for r in nodes}
    if len(ids) != len(nodes):
        problem("duplicate node ids")
    for i, r in enumerate(nodes, 2):
        if r["class"] not in data.classes:
            problem(f"kg_nodes.csv:{i}: unknown class {r['class']}")
        for prop, info in data.data_props.items():
            raw = r.get(prop, "")
            if raw == "":
                continue
            if not data.fits(r["node_id"], info["domain"]):
                problem(f"kg_nodes.csv:{i}: {prop} does not apply to a {r['class']}")
            try:
                gold.parse_literal(info["range"], raw)
            except ValueError:
                problem(f"kg_nodes.csv:{i}: {prop}={raw!r} is not a {info['range']}")
    chunk_ids = {c["chunk_id"] for c in chunks}
    for i, e in enumerate(edges, 2):
        if e["rel"] not in data.obj_props:
            problem(f"kg_edges.csv:{i}: unknown relation {e['rel']}")
            continue
        if e["src"] not in ids or e["dst"] not in ids:
            problem(f"kg_edges.csv:{i}: an end is not a node")
            continue
        info = data.obj_props[e["rel"]]
        if not data.fits(e["src"], info["domain"]) or not data.fits(e["dst"], info["range"]):
            problem(f"kg_edges.csv:{i}: {e['src']} {e['rel']} {e['dst']} breaks domain or range")
        if e["chunk_id"] and e["chunk_id"] not in chunk_ids:
            problem(f"kg_edges.csv:{i}: chunk {e['chunk_id']} does not exist")
        if e["grounded"] not in ("true", "false"):
            problem(f"kg_edges.csv:{i}: grounded must be true or false")
    for path, text in build.outputs().items():
        if path.read_text(encoding="utf-8") != text:
            problem(f"{path.name} is not what build.py writes: run build.py")
    not_grounded = {(e["src"], e["rel"], e["dst"]) for e in data.edges if not e["is_grounded"]}
    if not_grounded != build.UNGROUNDED_ON_PURPOSE:
        problem(f"ungrounded edges differ from the intended ones: {sorted(not_grounded ^ build.UNGROUNDED_ON_PURPOSE)}")


def check_shacl(data: gold.Data, onto, nodes, edges) -> None:
    shapes = rdflib.Graph().parse(DATA / "shapes.ttl", format="turtle")

    sh = rdflib.Namespace("http://www.w3.org/ns/shacl#")

    def conforms(rows_nodes, rows_edges):
        ok, results, _ = validate(to_rdf(data, rows_nodes, rows_edges), shacl_graph=shapes, ont_graph=onto,
                                  inference="none", advanced=False, allow_warnings=True)
        found = {(str(results.value(r, sh.focusNode)).rsplit("/", 1)[-1],
                  str(results.value(r, sh.sourceConstraintComponent)).rsplit("#", 1)[-1])
                 for r in results.subjects(RDF.type, sh.ValidationResult)}
        return ok, found

    ok, found = conforms(nodes, edges)
    if not ok:
        problem(f"the tables do not conform to shapes.ttl: {sorted(found)}")
    else:
        print("SHACL: the tables conform to shapes.ttl")

    def with_node(**changes):
        def f(ns, es):
            ns = [dict(r) for r in ns]
            for r in ns:
                if r["node_id"] == changes["node_id"]:
                    r.update(changes)
            return ns, es
        return f

    def with_edge(src, rel, dst):
        return lambda ns, es: (ns, es + [{"src": src, "rel": rel, "dst": dst}])

    # each broken copy, with the focus node and the constraint component that must report it
    broken = {
        "a nurse prescribes": (with_edge("n_song", "prescribes", "dr_amox"), ("n_song", "ClassConstraintComponent")),
        "a doctor works in two departments": (with_edge("d_lee", "worksAt", "dp_sch_im"),
                                              ("d_lee", "MaxCountConstraintComponent")),
        "a prescription points at a hospital": (with_edge("d_lee", "prescribes", "h_sch"),
                                                ("d_lee", "ClassConstraintComponent")),
        "negative bed count": (with_node(node_id="h_sch", bedCount="-5"), ("h_sch", "MinInclusiveConstraintComponent")),
        "a dose written with its unit": (with_node(node_id="dr_amox", dosageMg="500mg"),
                                         ("dr_amox", "DatatypeConstraintComponent")),
        "a blood type outside the list": (with_node(node_id="p_ahn", bloodType="A"), ("p_ahn", "InConstraintComponent")),
        "a department in no hospital": (lambda ns, es: (ns, [e for e in es if e["src"] != "dp_sb_fm"]),
                                        ("dp_sb_fm", "MinCountConstraintComponent")),
    }
    for name, (change, expected) in broken.items():
        ns, es = change(nodes, edges)
        ok, found = conforms(ns, es)
        if ok or expected not in found:
            problem(f"SHACL: the broken copy '{name}' is not reported as {expected}: {sorted(found)}")
    print(f"SHACL: {len(broken)} broken copies checked")


def check_questions(data: gold.Data) -> Counter:
    lines = [json.loads(l) for l in (HERE / "questions.jsonl").read_text(encoding="utf-8").splitlines() if l]
    keys = {"id", "lang", "question", "kind", "gold_kind", "gold", "meaning", "why"}
    for q in lines:
        if set(q) != keys:
            problem(f"{q.get('id')}: fields {sorted(q)}")
    n = len(lines)
    langs = Counter(q["lang"] for q in lines)
    declines = sum(q["gold_kind"] == "decline" for q in lines)
    if n < 60:
        problem(f"{n} questions, fewer than 60")
    if langs["ko"] < 0.40 * n:
        problem(f"Korean {langs['ko']}/{n} under 40 %")
    if langs["en"] < 0.30 * n:
        problem(f"English {langs['en']}/{n} under 30 %")
    if declines < 0.25 * n:
        problem(f"declines {declines}/{n} under 25 %")
    for q in lines:
        if q["kind"].startswith("decline") != (q["gold_kind"] == "decline"):
            problem(f"{q['id']}: kind {q['kind']} but gold {q['gold_kind']}")
    spec = [{k: q[k] for k in ("id", "lang", "kind", "question", "meaning")} for q in lines]
    try:
        fresh = gold.build_questions(spec, DATA)
    except gold.SetError as e:
        problem(f"gold: {e}")
        return langs
    for old, new in zip(lines, fresh):
        if old != new:
            problem(f"{old['id']}: stored gold differs from the recomputed one: {new['gold']}")
    print(f"questions: {n}; ko {langs['ko']} ({langs['ko'] / n:.0%}), en {langs['en']} ({langs['en'] / n:.0%}), "
          f"declines {declines} ({declines / n:.0%}); every gold recomputed")
    table = Counter()
    for q in lines:
        table[(q["lang"], q["gold_kind"])] += 1
    kinds = ["answer", "multi", "count", "boolean", "value", "decline"]
    print("| lang | n | " + " | ".join(kinds) + " |")
    for lang in ("ko", "en"):
        print(f"| {lang} | {langs[lang]} | " + " | ".join(str(table[(lang, k)]) for k in kinds) + " |")
    print(f"| all | {n} | " + " | ".join(str(sum(table[(l, k)] for l in ('ko', 'en'))) for k in kinds) + " |")
    return langs


def main(argv: list[str]) -> int:
    if "--dry-run" not in argv:
        print("usage: python check.py --dry-run   (only the dry run exists: nothing here asks the library)")
        return 2
    onto = rdflib.Graph().parse(DATA / "ontology.ttl", format="turtle")
    check_ontology(onto)
    data = gold.Data(DATA)
    nodes, edges, chunks = read("kg_nodes.csv"), read("kg_edges.csv"), read("kg_chunks.csv")
    print(f"tables: {len(nodes)} nodes, {len(edges)} edges, {len(chunks)} chunks; "
          f"{sum(not e['is_grounded'] for e in data.edges)} edges not grounded")
    check_tables(data, nodes, edges, chunks)
    check_shacl(data, onto, nodes, edges)
    check_questions(data)
    if problems:
        print(f"{len(problems)} problem(s)")
        return 1
    print("ok")
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
