"""Gold answers for the held-out LUBM questions, computed from the data with rdflib and owlrl only.

The graph is the univ-bench ontology plus the 15 files of University 0, as stated (S). Its closure (C) is
S expanded by owlrl's RDFS + OWL-RL rules (``owlrl.RDFS_OWLRL_Semantics``, no axiomatic or datatype triples);
triples whose subject is a literal (generalised RDF from the RDFS rules) are dropped, since no question can
reach them. Each question's meaning (a SPARQL query and a gold kind) is run on both; the gold is the closure's
result, and ``needs_reasoning`` is true when the stated graph gives a different result.

Names used by a question are resolved as a user would name things: the text, ignoring case and white space,
is matched against ``ub:name`` and against the last path segment of each IRI (research groups have no
``ub:name``); a text starting with ``http`` is an IRI. A qualifier ("of Department11") is a SPARQL pattern on
``?x`` that narrows the candidates. An answerable question's names must each resolve to exactly the resource
its meaning uses; a decline by name needs a name that resolves to nothing or to several resources.

The closure takes about 100 s; it is cached as N-Triples (default ``~/.cache/heldout_lubm/``, or
``$LUBM_CLOSURE_CACHE``), keyed by a hash of the input files and the rdflib and owlrl versions.
"""

from __future__ import annotations

import glob
import hashlib
import os
import re
from dataclasses import dataclass
from pathlib import Path

import owlrl
import rdflib
from rdflib import BNode, Graph, Literal, Namespace, URIRef

HERE = Path(__file__).resolve().parent
REPO_ROOT = HERE.parents[1]
UB = Namespace("http://swat.cse.lehigh.edu/onto/univ-bench.owl#")
HOP_LIMIT = 3  # the documented default hop limit (docs/limits.md: default_hops)

GOLD_KINDS = ("answer", "multi", "count", "boolean", "value", "decline")
CHECKS = ("empty", "names", "policy", "hops")


def data_dir(explicit: str | None = None) -> Path:
    """The LUBM folder: --data, else $LUBM_DIR, else ../shared/data/lubm from the repository root."""
    if explicit:
        return Path(explicit).resolve()
    if os.environ.get("LUBM_DIR"):
        return Path(os.environ["LUBM_DIR"]).resolve()
    return (REPO_ROOT.parent / "shared" / "data" / "lubm").resolve()


def input_files(folder: Path) -> list[Path]:
    onto = folder / "univ-bench.owl"
    data = sorted(Path(p) for p in glob.glob(str(folder / "data" / "*.owl")))
    if not onto.is_file() or not data:
        raise SystemExit(f"LUBM data not found in {folder} (need univ-bench.owl and data/*.owl); "
                         f"set LUBM_DIR or pass --data")
    return [onto, *data]


def load_stated(files: list[Path]) -> Graph:
    g = Graph()
    for f in files:
        g.parse(str(f), format="xml")
    return g


def compute_closure(stated: Graph) -> Graph:
    c = Graph()
    for t in stated:
        c.add(t)
    owlrl.DeductiveClosure(owlrl.RDFS_OWLRL_Semantics, axiomatic_triples=False,
                           datatype_axioms=False).expand(c)
    for t in [t for t in c if isinstance(t[0], Literal)]:
        c.remove(t)
    return c


def cache_key(files: list[Path]) -> str:
    h = hashlib.sha256()
    for f in files:
        h.update(f.name.encode())
        h.update(f.read_bytes())
    h.update(f"rdflib={rdflib.__version__};owlrl={owlrl.__version__};drop-literal-subjects".encode())
    return h.hexdigest()[:16]


@dataclass
class Graphs:
    stated: Graph
    closure: Graph
    names: dict[str, set[URIRef]]
    folder: Path


def default_cache(key: str) -> Path:
    if os.environ.get("LUBM_CLOSURE_CACHE"):
        return Path(os.environ["LUBM_CLOSURE_CACHE"])
    base = Path(os.environ.get("XDG_CACHE_HOME", Path.home() / ".cache"))
    return base / "heldout_lubm" / f"closure-{key}.nt"


def load_graphs(folder: str | None = None, cache: str | None = None, use_cache: bool = True) -> Graphs:
    root = data_dir(folder)
    files = input_files(root)
    stated = load_stated(files)
    key = cache_key(files)
    path = Path(cache) if cache else default_cache(key)
    closure = None
    if use_cache and path.is_file():
        with open(path, encoding="utf-8") as fh:
            first = fh.readline().strip()
        if first == f"# closure-key {key}":
            closure = Graph()
            closure.parse(str(path), format="nt")
    if closure is None:
        closure = compute_closure(stated)
        if use_cache:
            path.parent.mkdir(parents=True, exist_ok=True)
            tmp = path.with_name(path.name + ".tmp")
            with open(tmp, "w", encoding="utf-8") as fh:
                fh.write(f"# closure-key {key}\n")
                fh.write(closure.serialize(format="nt", encoding="utf-8").decode("utf-8"))
            tmp.replace(path)
    return Graphs(stated, closure, name_index(closure), root)


def norm(text: str) -> str:
    return re.sub(r"\s+", "", text).lower()


def local_part(iri: str) -> str:
    return re.split(r"[/#]", iri.rstrip("/"))[-1]


def name_index(g: Graph) -> dict[str, set[URIRef]]:
    index: dict[str, set[URIRef]] = {}
    for x, n in g.subject_objects(UB.name):
        if isinstance(x, URIRef):
            index.setdefault(norm(str(n)), set()).add(x)
    for x in set(g.subjects()):
        if isinstance(x, URIRef) and not str(x).startswith(("http://swat.cse.lehigh.edu/", "http://www.w3.org/")):
            index.setdefault(norm(local_part(str(x))), set()).add(x)
    return index


def resolve(graphs: Graphs, text: str, where: str | None) -> set[URIRef]:
    if text.startswith("http"):
        iri = URIRef(text)
        found = (iri, None, None) in graphs.stated or (None, None, iri) in graphs.stated
        cands = {iri} if found else set()
    else:
        cands = set(graphs.names.get(norm(text), set()))
    if where:
        kept = set()
        for c in cands:
            ask = f"PREFIX ub: <{UB}>\nASK {{ {where} }}"
            if graphs.closure.query(ask, initBindings={"x": c}).askAnswer:
                kept.add(c)
        cands = kept
    return cands


def run(g: Graph, sparql: str):
    res = g.query(sparql)
    if res.type == "ASK":
        return bool(res.askAnswer)
    out = set()
    for row in res:
        out.add(row[0])
    return frozenset(out)


class GoldError(Exception):
    pass


def compute(spec: dict, graphs: Graphs) -> dict:
    """The gold of one question: gold, gold_set (counts), needs_reasoning."""
    kind = spec["gold_kind"]
    if kind not in GOLD_KINDS:
        raise GoldError(f"unknown gold kind {kind}")
    qtext = norm(spec["question"])
    for n in spec["names"]:
        if norm(n["text"]) not in qtext:
            raise GoldError(f"name {n['text']!r} is not in the question")
        got = resolve(graphs, n["text"], n["where"])
        exp = n["expect"]
        if exp == "many":
            if len(got) < 2:
                raise GoldError(f"{n['text']!r} should be ambiguous, resolves to {sorted(map(str, got))}")
        elif exp == "none":
            if got:
                raise GoldError(f"{n['text']!r} should be unknown, resolves to {sorted(map(str, got))}")
        elif got != {URIRef(exp)}:
            raise GoldError(f"{n['text']!r} (where {n['where']!r}) resolves to {sorted(map(str, got))}, "
                            f"not {exp}")

    s_res = c_res = None
    graph = spec.get("graph", "closure")
    if graph not in ("closure", "stated"):
        raise GoldError(f"unknown graph {graph!r}")
    if spec["sparql"]:
        s_res = run(graphs.stated, spec["sparql"])
        c_res = run(graphs.closure, spec["sparql"]) if graph == "closure" else s_res
    needs = (s_res != c_res) if spec["sparql"] else False
    out = {"gold": None, "gold_set": None, "needs_reasoning": needs}

    if kind == "decline":
        check = spec["check"]
        if check not in CHECKS:
            raise GoldError(f"decline without a valid check: {check!r}")
        if not spec.get("why"):
            raise GoldError("decline without why")
        if check == "names":
            if not any(n["expect"] in ("many", "none") for n in spec["names"]):
                raise GoldError("check=names but no unknown or ambiguous name")
        elif check == "empty":
            if c_res is None or (c_res is not False and len(c_res) != 0) or c_res is True:
                raise GoldError(f"check=empty but the closure gives {c_res!r}")
        elif check == "hops":
            if not spec.get("hops") or spec["hops"] <= HOP_LIMIT:
                raise GoldError("check=hops needs hops above the limit")
            if not c_res:
                raise GoldError("check=hops but the chain has no answer at all")
        return out

    if spec["check"] is not None:
        raise GoldError("only declines carry a check")
    if kind == "boolean":
        if not isinstance(c_res, bool):
            raise GoldError("boolean gold needs an ASK query")
        out["gold"] = c_res
        return out
    if isinstance(c_res, bool):
        raise GoldError(f"{kind} gold needs a SELECT query")
    if kind == "value":
        if not c_res or not all(isinstance(v, Literal) for v in c_res):
            raise GoldError(f"value gold needs literals, got {sorted(map(str, c_res))[:5]}")
        out["gold"] = sorted({str(v) for v in c_res})
        return out
    if any(isinstance(v, (Literal, BNode)) for v in c_res):
        raise GoldError(f"{kind} gold needs IRIs only, got {sorted(map(str, c_res))[:5]}")
    iris = sorted(str(v) for v in c_res)
    if kind == "answer":
        if len(iris) != 1:
            raise GoldError(f"answer gold needs exactly one IRI, got {len(iris)}: {iris[:6]}")
        out["gold"] = iris[0]
    elif kind == "multi":
        if len(iris) < 2:
            raise GoldError(f"multi gold needs two or more IRIs, got {iris}")
        out["gold"] = iris
    elif kind == "count":
        if not iris:
            raise GoldError("count gold of an empty set")
        out["gold"] = len(iris)
        out["gold_set"] = iris
    return out


def make_row(qid: str, spec: dict, graphs: Graphs) -> dict:
    try:
        g = compute(spec, graphs)
    except GoldError as exc:
        raise GoldError(f"{qid} ({spec['question']!r}): {exc}") from None
    row = {
        "id": qid,
        "lang": "en",
        "question": spec["question"],
        "kind": spec["kind"],
        "gold_kind": spec["gold_kind"],
        "gold": g["gold"],
    }
    if spec["gold_kind"] == "count":
        row["gold_set"] = g["gold_set"]
    row["meaning"] = {
        "sparql": spec["sparql"],
        "needs_reasoning": g["needs_reasoning"],
        "names": spec["names"],
        "check": spec["check"],
        "graph": spec.get("graph", "closure"),
    }
    if spec.get("hops") is not None:
        row["meaning"]["hops"] = spec["hops"]
    row["why"] = spec["why"]
    return row


if __name__ == "__main__":
    import argparse
    import json
    import sys

    ap = argparse.ArgumentParser(description="print the gold of every question (does not write files)")
    ap.add_argument("--data")
    ap.add_argument("--cache")
    ap.add_argument("--no-cache", action="store_true")
    a = ap.parse_args()
    sys.path.insert(0, str(HERE))
    import build

    gr = load_graphs(a.data, a.cache, not a.no_cache)
    for i, sp in enumerate(build.QUESTIONS, 1):
        r = make_row(f"lubm_{i:03d}", sp, gr)
        print(json.dumps({k: r[k] for k in ("id", "gold_kind", "gold")} |
                         {"needs_reasoning": r["meaning"]["needs_reasoning"]}, ensure_ascii=False))
