#!/usr/bin/env python3
"""Check the films dataset without ont_platform: ontology, tables, grounding and SHACL shapes.

    python examples/films/check_data.py          # exits 1 on the first class of problems found

What it checks:

1. ontology.ttl parses; it declares ont:domainName "films"; every class and object property has exactly one
   rdfs:label in Korean and one in English, an English rdfs:comment and altLabels in both languages; object
   properties have a domain and a range; no surface form (label or altLabel, compared as the question parser
   compares them: NFKC, case folded, without spaces, hyphens and underscores) names two terms.
2. kg_nodes.csv / kg_edges.csv / kg_chunks.csv: unique ids, known classes, edges between known nodes, `rel` a
   stored property of the ontology (not one of the vocabulary-only properties), the classes of both ends fit the
   property's domain and range (subclasses included), grounded is true/false and a true edge cites an existing
   chunk.
3. Grounding as the answer checks it (flag true, chunk exists, chunk names both ends by label or alias): lists
   the edges that fail, which are the intended traps.
4. An RDF version of the data (nodes typed with their class, rdfs:label, skos:altLabel, one plain triple
   `src rel dst` per edge) conforms to shapes.ttl (pyshacl, no inference), and a few broken copies do not.
"""

from __future__ import annotations

import sys
from collections import defaultdict
from pathlib import Path

from pyshacl import validate
from rdflib import OWL, RDF, RDFS, Graph, Literal, Namespace, URIRef
from rdflib.namespace import SKOS

sys.dont_write_bytecode = True  # keep the dataset folder free of __pycache__
sys.path.insert(0, str(Path(__file__).resolve().parent))
from build_questions import HERE, Dataset, Ontology, key  # noqa: E402

FILM = Namespace("https://example.org/films#")
ONT = Namespace("https://w3id.org/ont-platform/core#")
ID = "https://w3id.org/ont-platform/id/films/node/"
NO_ROWS = {"directed", "starredIn", "produced", "workedOn", "involves", "within"}

problems: list[str] = []


def problem(msg: str) -> None:
    problems.append(msg)
    print("PROBLEM:", msg)


def check_ontology(ont: Ontology) -> None:
    g = ont.graph
    names = list(g.objects(None, ONT.domainName))
    if [str(n) for n in names] != ["films"]:
        problem(f"ont:domainName is {names}, expected one value 'films'")
    onto = list(g.subjects(RDF.type, OWL.Ontology))
    if len(onto) != 1 or not list(g.objects(onto[0], RDFS.label)):
        problem("expected one owl:Ontology with an rdfs:label")
    surface: dict[str, set[str]] = defaultdict(set)
    terms = [(c, "class") for c in g.subjects(RDF.type, OWL.Class) if isinstance(c, URIRef)]
    terms += [(p, "property") for p in g.subjects(RDF.type, OWL.ObjectProperty)]
    for term, kind in terms:
        name = Ontology.local(term)
        labels = list(g.objects(term, RDFS.label))
        alts = list(g.objects(term, SKOS.altLabel))
        for lang in ("ko", "en"):
            if sum(1 for lab in labels if lab.language == lang) != 1:
                problem(f"{name}: needs exactly one rdfs:label @{lang}")
            if not any(a.language == lang for a in alts):
                problem(f"{name}: needs skos:altLabel @{lang}")
        if not any(c.language == "en" for c in g.objects(term, RDFS.comment)):
            problem(f"{name}: needs an English rdfs:comment")
        if kind == "property" and name != "within" and not (ont.domain.get(name) and ont.range.get(name)):
            problem(f"{name}: needs rdfs:domain and rdfs:range")
        for lit in labels + alts:
            surface[key(str(lit))].add(name)
    for k, owners in sorted(surface.items()):
        if len(owners) > 1:
            problem(f"surface form {k!r} names {sorted(owners)}")
    # informative only: words shared with the project's own ontologies (other domains)
    shared = []
    for path in sorted((HERE.parent.parent / "ontologies").glob("*.ttl")):
        other = Graph().parse(path, format="turtle")
        for pred in (RDFS.label, SKOS.altLabel):
            for s, lit in other.subject_objects(pred):
                if key(str(lit)) in surface:
                    shared.append(
                        f"{key(str(lit))} ({path.stem}:{Ontology.local(s)} / films:{'/'.join(sorted(surface[key(str(lit))]))})"
                    )
    if shared:
        print(
            f"note: {len(shared)} surface forms are also used by the project's ontologies:",
            ", ".join(sorted(set(shared))),
        )
    print(
        f"ontology: {len(ont.classes)} classes, {len(ont.properties)} object properties "
        f"({len(ont.properties - NO_ROWS)} stored, {len(NO_ROWS)} vocabulary-only), "
        f"{len(surface)} surface forms"
    )


def check_tables(ds: Dataset, ont: Ontology) -> None:
    for name in ("kg_nodes.csv", "kg_edges.csv", "kg_chunks.csv"):
        lines = (HERE / name).read_text(encoding="utf-8").splitlines()
        id_col = [line.split(",", 1)[0] for line in lines[1:]]
        if len(id_col) != len(set(id_col)):
            problem(f"{name}: duplicate ids")
    for nid, row in ds.nodes.items():
        if row["class"] not in ont.classes:
            problem(f"node {nid}: unknown class {row['class']}")
    for eid, e in ds.edges.items():
        if e["src"] not in ds.nodes or e["dst"] not in ds.nodes:
            problem(f"edge {eid}: unknown end")
            continue
        rel = e["rel"]
        if rel not in ont.properties:
            problem(f"edge {eid}: rel {rel} is not an object property of the ontology")
            continue
        if rel in NO_ROWS:
            problem(f"edge {eid}: rel {rel} is vocabulary-only and must not be stored")
        if not ont.is_a(ds.cls(e["src"]), ont.domain.get(rel)):
            problem(f"edge {eid}: {e['src']} ({ds.cls(e['src'])}) is not in the domain of {rel}")
        if not ont.is_a(ds.cls(e["dst"]), ont.range.get(rel)):
            problem(f"edge {eid}: {e['dst']} ({ds.cls(e['dst'])}) is not in the range of {rel}")
        if e["grounded"] not in ("true", "false"):
            problem(f"edge {eid}: grounded must be true or false")
        if e["grounded"] == "true" and e["chunk_id"] not in ds.chunks:
            problem(f"edge {eid}: grounded=true but chunk {e['chunk_id']!r} does not exist")
        if e["chunk_id"] and e["chunk_id"] not in ds.chunks:
            problem(f"edge {eid}: chunk {e['chunk_id']} does not exist")
    shared = {k: sorted(v) for k, v in ds.by_name.items() if len(v) > 1}
    print(
        f"tables: {len(ds.nodes)} nodes, {len(ds.edges)} edges, {len(ds.chunks)} chunks; "
        f"names shared by several nodes: {shared}"
    )
    failing = {eid: ds.grounding(eid)[1] for eid in ds.edges if not ds.grounding(eid)[0]}
    print(f"grounding: {len(ds.edges) - len(failing)} edges grounded at answer time, {len(failing)} not:")
    for eid, why in failing.items():
        e = ds.edges[eid]
        print(f"  {eid} {e['src']} {e['rel']} {e['dst']}: {why}")
    unused = set(ds.chunks) - {e["chunk_id"] for e in ds.edges.values()}
    print(f"chunks cited by no edge (context only): {sorted(unused)}")


def to_rdf(ds: Dataset, edges=None, nodes=None) -> Graph:
    g = Graph()
    for nid, row in (nodes or ds.nodes).items():
        s = URIRef(ID + nid)
        g.add((s, RDF.type, FILM[row["class"]]))
        g.add((s, RDFS.label, Literal(row["label"])))
        for alias in filter(None, row["aliases"].split("|")):
            g.add((s, SKOS.altLabel, Literal(alias)))
    for e in (edges or ds.edges).values():
        g.add((URIRef(ID + e["src"]), FILM[e["rel"]], URIRef(ID + e["dst"])))
    return g


def check_shapes(ds: Dataset) -> None:
    shapes = Graph().parse(HERE / "shapes.ttl", format="turtle")
    conforms, _, text = validate(to_rdf(ds), shacl_graph=shapes, inference="none")
    if not conforms:
        problem("the data does not conform to shapes.ttl:\n" + text)
    else:
        print("shapes: the data conforms to shapes.ttl")
    # the shapes must be able to fail
    broken = {
        "second director": dict(ds.edges, x1={"src": "f_moonlit", "rel": "directedBy", "dst": "d_yoon"}),
        "actor as director": dict(ds.edges, x1={**ds.edges["e001"], "dst": "a_jiyu"}),
        "city in a city": dict(ds.edges, x1={"src": "c_garam", "rel": "locatedIn", "dst": "c_haeyun"}),
        "film without studio": {k: v for k, v in ds.edges.items() if k != "e021"},
        "city without country": {k: v for k, v in ds.edges.items() if k != "e069"},
        "collaboration with a studio": dict(ds.edges, x1={"src": "d_han", "rel": "collaboratedWith", "dst": "s_kumo"}),
    }
    for what, edges in broken.items():
        ok, _, _ = validate(to_rdf(ds, edges=edges), shacl_graph=shapes, inference="none")
        if ok:
            problem(f"shapes.ttl accepts a broken copy: {what}")
    blank = dict(ds.nodes, f_paper={**ds.nodes["f_paper"], "label": " 종이새"})
    if validate(to_rdf(ds, nodes=blank), shacl_graph=shapes, inference="none")[0]:
        problem("shapes.ttl accepts a label with a leading space")
    print(f"shapes: {len(broken) + 1} broken copies checked")


def main() -> int:
    ont, ds = Ontology(), Dataset()
    check_ontology(ont)
    check_tables(ds, ont)
    check_shapes(ds)
    print("OK" if not problems else f"{len(problems)} problem(s)")
    return 1 if problems else 0


if __name__ == "__main__":
    sys.exit(main())
