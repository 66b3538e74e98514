"""Gold answers of the hospitals held-out set, computed from the tables and the ontology.

Uses csv, networkx and rdflib only (never ont_platform). A question's `meaning` says what it asks:

    start        {"name": str, "class": str?}   the node the question names (matched exactly, see resolve())
    scope_class  str                            instead of start: every node of this class (subclasses count)
    chain        [[rel, dir, class?], ...]      hops; dir "out" walks src->dst as stored, "in" dst->src;
                                                a symmetric relation is walked both ways whatever dir says;
                                                the optional class keeps only nodes of that class after the hop
    hop_limit    int (default 3)
    asked_class  str?                           the class asked for (subclasses count)
    filters      [{"prop", "op", "value"}]      literal filters on the end nodes; op in < <= > >= =;
                                                value a number, a boolean, "YYYY-MM-DD", or {"year": Y}
    aggregate    one | list | count | value | boolean
    value_prop   str                            aggregate value: the datatype property read from the end nodes
    target       {"name": str}                  aggregate boolean: is this node among the end nodes
    is_a         str                            aggregate boolean: is the start node of this class
    unsupported  {"kind": negation|superlative|chitchat, "detail": str}
    mixed_ok     bool                           allow an answer that ungrounded edges would have changed

Rules (the films rules, extended to literals):
  * a name matches a node when it equals the node's id, label or one alias after NFKC, case folding and
    removing spaces, hyphens and underscores; several matches are narrowed by the class the question names,
    then by the domain of the first step (a relation's domain or range, the literal property's domain);
    still several: decline (ambiguous). No match: decline (one letter off a known name, or unknown).
  * a hop counts only if its edge is grounded: flag true, its chunk exists, and the chunk's text names both
    ends by label or alias (compared without spaces and case). If leaving out ungrounded edges empties the
    answer (or removes the yes of a yes/no), decline (ungrounded). A result that ungrounded edges would merely
    change is an error of the question set unless mixed_ok.
  * more hops than the limit: decline (hop limit). A hop with no edge from any current node: decline.
  * literal values are read from kg_nodes.csv, typed by the property's rdfs:range; an empty cell is unknown
    and satisfies no filter. Asking for an unknown value: decline. A property the ontology lacks: decline.
  * a strict comparison whose boundary value occurs among the candidates is an error of the question set
    (over 500 / 500 or more would differ); so is a year filter when a candidate falls in that year.
"""
from __future__ import annotations

import csv
import datetime as dt
import json
import unicodedata
from collections import defaultdict
from decimal import Decimal
from pathlib import Path

import networkx as nx
import rdflib
from rdflib.namespace import OWL, RDF, RDFS, XSD

HOSP = rdflib.Namespace("https://example.org/hospitals#")
XSD_SHORT = {XSD.integer: "xsd:integer", XSD.decimal: "xsd:decimal", XSD.date: "xsd:date",
             XSD.boolean: "xsd:boolean", XSD.string: "xsd:string"}


class SetError(Exception):
    """The question set itself is wrong (not a decline): fix the question or the data."""


def norm(s: str) -> str:
    s = unicodedata.normalize("NFKC", s).casefold()
    return "".join(ch for ch in s if ch not in " \t\n-_")


def jamo(s: str) -> list[str]:
    out = []
    for ch in s:
        code = ord(ch) - 0xAC00
        if 0 <= code < 11172:
            out += [f"L{code // 588}", f"V{(code % 588) // 28}"]
            if code % 28:
                out.append(f"T{code % 28}")
        else:
            out.append(ch)
    return out


def edit_distance(a, b) -> int:
    prev = list(range(len(b) + 1))
    for i, x in enumerate(a, 1):
        cur = [i]
        for j, y in enumerate(b, 1):
            cur.append(min(prev[j] + 1, cur[j - 1] + 1, prev[j - 1] + (x != y)))
        prev = cur
    return prev[-1]


def parse_literal(datatype, raw: str):
    if datatype == XSD.integer:
        return int(raw)
    if datatype == XSD.decimal:
        return Decimal(raw)
    if datatype == XSD.date:
        return dt.date.fromisoformat(raw)
    if datatype == XSD.boolean:
        if raw not in ("true", "false"):
            raise ValueError(raw)
        return raw == "true"
    return raw


def jsonable(v):
    if isinstance(v, Decimal):
        return int(v) if v == v.to_integral_value() else float(v)
    if isinstance(v, dt.date):
        return v.isoformat()
    return v


class Data:
    def __init__(self, folder: Path):
        folder = Path(folder)
        self.onto = rdflib.Graph()
        self.onto.parse(folder / "ontology.ttl", format="turtle")
        o = self.onto
        self.classes = {c.split("#")[-1] for c in o.subjects(RDF.type, OWL.Class) if isinstance(c, rdflib.URIRef)}
        self.supers = {c: {s.split("#")[-1] for s in o.transitive_objects(HOSP[c], RDFS.subClassOf)}
                       for c in self.classes}
        self.obj_props, self.data_props = {}, {}
        for p in o.subjects(RDF.type, OWL.ObjectProperty):
            self.obj_props[p.split("#")[-1]] = {
                "domain": self._class_set(o.value(p, RDFS.domain)),
                "range": self._class_set(o.value(p, RDFS.range)),
                "symmetric": (p, RDF.type, OWL.SymmetricProperty) in o,
            }
        for p in o.subjects(RDF.type, OWL.DatatypeProperty):
            self.data_props[p.split("#")[-1]] = {
                "domain": self._class_set(o.value(p, RDFS.domain)),
                "range": o.value(p, RDFS.range),
            }
        with open(folder / "kg_nodes.csv", encoding="utf-8", newline="") as f:
            self.nodes = {r["node_id"]: r for r in csv.DictReader(f)}
        with open(folder / "kg_chunks.csv", encoding="utf-8", newline="") as f:
            self.chunks = {r["chunk_id"]: r["text"] for r in csv.DictReader(f)}
        with open(folder / "kg_edges.csv", encoding="utf-8", newline="") as f:
            self.edges = list(csv.DictReader(f))
        self.names = {}
        for nid, r in self.nodes.items():
            self.names[nid] = [r["label"]] + [a for a in r["aliases"].split("|") if a]
        self.literals = {}
        for nid, r in self.nodes.items():
            for prop, info in self.data_props.items():
                raw = r.get(prop, "")
                if raw != "":
                    self.literals[(nid, prop)] = parse_literal(info["range"], raw)
        self.g_all = nx.MultiDiGraph()
        self.g_grounded = nx.MultiDiGraph()
        self.g_all.add_nodes_from(self.nodes)
        self.g_grounded.add_nodes_from(self.nodes)
        for e in self.edges:
            e["is_grounded"] = self.edge_grounded(e)
            self.g_all.add_edge(e["src"], e["dst"], key=e["edge_id"], rel=e["rel"])
            if e["is_grounded"]:
                self.g_grounded.add_edge(e["src"], e["dst"], key=e["edge_id"], rel=e["rel"])

    def _class_set(self, node) -> set[str]:
        if node is None:
            return set()
        union = self.onto.value(node, OWL.unionOf)
        if union is not None:
            return {m.split("#")[-1] for m in rdflib.collection.Collection(self.onto, union)}
        return {node.split("#")[-1]}

    # -- classes and names -------------------------------------------------------------------------
    def is_a(self, node_id: str, cls: str) -> bool:
        return cls in self.supers[self.nodes[node_id]["class"]]

    def fits(self, node_id: str, classes: set[str]) -> bool:
        return not classes or any(self.is_a(node_id, c) for c in classes)

    def mentions(self, text: str, node_id: str) -> bool:
        t = norm(text)
        return any(norm(n) in t for n in self.names[node_id])

    def edge_grounded(self, e) -> bool:
        text = self.chunks.get(e["chunk_id"]) if e["chunk_id"] else None
        return e["grounded"] == "true" and text is not None and self.mentions(text, e["src"]) \
            and self.mentions(text, e["dst"])

    def match(self, name: str) -> list[str]:
        n = norm(name)
        return sorted(nid for nid, names in self.names.items() if norm(nid) == n or any(norm(x) == n for x in names))

    def nearest(self, name: str):
        n = jamo(norm(name))
        best = None
        for nid, names in self.names.items():
            for x in names:
                d = edit_distance(n, jamo(norm(x)))
                if best is None or d < best[0]:
                    best = (d, nid, x)
        return best

    def label(self, nid: str) -> str:
        return self.nodes[nid]["label"]


class Decline(Exception):
    def __init__(self, code: str, why: str):
        super().__init__(why)
        self.code, self.why = code, why


def step_classes(data: Data, rel: str, direction: str) -> set[str]:
    """The classes a node must have to start this step."""
    info = data.obj_props[rel]
    if info["symmetric"]:
        return info["domain"] | info["range"]
    return info["domain"] if direction == "out" else info["range"]


def first_step_classes(data: Data, m: dict) -> set[str] | None:
    if m.get("chain"):
        rel, direction = m["chain"][0][:2]
        return step_classes(data, rel, direction)
    if m.get("aggregate") == "value":
        return data.data_props[m["value_prop"]]["domain"]
    if m.get("filters"):
        return set().union(*(data.data_props[f["prop"]]["domain"] for f in m["filters"]))
    return None


def resolve(data: Data, spec: dict, m: dict, role: str = "start") -> str:
    name = spec["name"]
    cands = data.match(name)
    if not cands:
        d, nid, x = data.nearest(name)
        if d <= 1:
            raise Decline("near_miss_name", f"'{name}' is one letter away from '{x}' ({nid}) but is not one of its names")
        raise Decline("unknown_name", f"no node is named '{name}' (nearest name '{x}' is {d} letters away)")
    if len(cands) > 1 and spec.get("class"):
        cands = [c for c in cands if data.is_a(c, spec["class"])] or cands
    if len(cands) > 1 and role == "start":
        want = first_step_classes(data, m)
        if want:
            narrowed = [c for c in cands if data.fits(c, want)]
            cands = narrowed or cands
    if len(cands) > 1:
        raise Decline("ambiguous_name", f"'{name}' names {len(cands)} nodes: {', '.join(cands)}")
    return cands[0]


def walk(data: Data, graph: nx.MultiDiGraph, start: set[str], chain: list) -> list[tuple[set[str], list]]:
    """Layered walk; returns [(nodes after hop i, edges of hop i)]."""
    layers = []
    current = set(start)
    for step in chain:
        rel, direction = step[0], step[1]
        cls = step[2] if len(step) > 2 else None
        sym = data.obj_props[rel]["symmetric"]
        nxt, used = set(), []
        for n in current:
            moves = []
            if direction == "out" or sym:
                moves += [(v, k) for _, v, k, a in graph.out_edges(n, keys=True, data=True) if a["rel"] == rel]
            if direction == "in" or sym:
                moves += [(u, k) for u, _, k, a in graph.in_edges(n, keys=True, data=True) if a["rel"] == rel]
            for v, k in moves:
                if cls and not data.is_a(v, cls):
                    continue
                nxt.add(v)
                used.append((n, v, k))
        layers.append((nxt, used))
        current = nxt
    return layers


def check_filter(data: Data, f: dict, candidates: set[str], allow_boundary: bool) -> set[str]:
    prop, op, value = f["prop"], f["op"], f["value"]
    rng = data.data_props[prop]["range"]
    keep = set()
    for nid in candidates:
        v = data.literals.get((nid, prop))
        if v is None:
            continue
        if isinstance(value, dict) and "year" in value:
            y = value["year"]
            if v.year == y and not allow_boundary:
                raise SetError(f"{nid} has {prop} in {y}: 'before/after {y}' would be read two ways")
            left, right = v.year, y
        else:
            if rng == XSD.date:
                right = dt.date.fromisoformat(value)
            elif rng == XSD.decimal:
                right = Decimal(str(value))
            else:
                right = value
            left = v
            if op in ("<", ">", "<=", ">=") and left == right and not allow_boundary:
                raise SetError(f"{nid} has {prop} = {v}, the boundary of '{op} {value}'")
        ok = {"<": left < right, "<=": left <= right, ">": left > right, ">=": left >= right,
              "=": left == right}[op]
        if ok:
            keep.add(nid)
    return keep


def evaluate(data: Data, m: dict, graph: nx.MultiDiGraph, start_nodes: set[str]):
    chain = m.get("chain", [])
    layers = walk(data, graph, start_nodes, chain)
    end = layers[-1][0] if layers else set(start_nodes)
    empty_at = next((i for i, (nodes, _) in enumerate(layers) if not nodes), None)
    result = {n for n in end if not m.get("asked_class") or data.is_a(n, m["asked_class"])}
    for f in m.get("filters", []):
        if m.get("aggregate") == "boolean" and "target" not in m:
            continue
        result = check_filter(data, f, result, m.get("boundary_ok", False))
    return layers, end, result, empty_at


def path_edges(layers, result: set[str]) -> list[str]:
    """Edge ids lying on some walk that ends in the result."""
    keep, targets = set(), set(result)
    for nodes, used in reversed(layers):
        prev = set()
        for u, v, k in used:
            if v in targets:
                keep.add(k)
                prev.add(u)
        targets = prev
    return sorted(keep)


def ungrounded_on_walk(data: Data, layers) -> list[str]:
    by_id = {e["edge_id"]: e for e in data.edges}
    return sorted({k for _, used in layers for _, _, k in used if not by_id[k]["is_grounded"]})


def compute(data: Data, m: dict) -> dict:
    try:
        return _compute(data, m)
    except Decline as d:
        return {"kind": "decline", "code": d.code, "why": d.why}


def _compute(data: Data, m: dict) -> dict:
    if m.get("unsupported"):
        u = m["unsupported"]
        raise Decline(u["kind"], u["detail"])
    for prop in [m.get("value_prop")] + [f["prop"] for f in m.get("filters", [])]:
        if prop and prop not in data.data_props:
            raise Decline("unknown_property", f"the ontology has no property '{prop}'")
    for step in m.get("chain", []):
        if step[0] not in data.obj_props:
            raise SetError(f"unknown relation {step[0]}")
    for key in ("asked_class", "scope_class", "is_a"):
        if m.get(key) and m[key] not in data.classes:
            raise SetError(f"unknown class {m[key]}")

    if m.get("start"):
        start = resolve(data, m["start"], m)
        start_nodes = {start}
    else:
        start = None
        start_nodes = {n for n in data.nodes if data.is_a(n, m["scope_class"])}

    chain = m.get("chain", [])
    limit = m.get("hop_limit", 3)
    agg = m["aggregate"]

    if start and chain:
        first = chain[0]
        if not data.fits(start, step_classes(data, first[0], first[1])):
            raise Decline("missing_edge", f"{start} is a {data.nodes[start]['class']}: '{first[0]}' does not apply to it")
    if len(chain) > limit:
        _, _, r_all, empty_at = evaluate(data, m, data.g_all, start_nodes)
        if not r_all:
            raise SetError("a hop-limit question whose chain leads nowhere even without the limit")
        raise Decline("hop_limit", f"the chain needs {len(chain)} hops, over the limit of {limit}")

    layers_a, end_a, res_a, empty_a = evaluate(data, m, data.g_all, start_nodes)
    layers_g, end_g, res_g, empty_g = evaluate(data, m, data.g_grounded, start_nodes)
    if empty_a is not None:
        rel = chain[empty_a][0]
        raise Decline("missing_edge", f"no '{rel}' edge at hop {empty_a + 1}")

    if agg == "boolean" and "target" in m:
        target = resolve(data, m["target"], m, role="target")
        if target in res_g:
            return {"kind": "boolean", "answer": True, "edges": path_edges(layers_g, {target})}
        if target in res_a:
            raise Decline("ungrounded", f"{target} is reached only over an edge no chunk grounds: "
                          + ", ".join(ungrounded_on_walk(data, layers_a)))
        if end_a != end_g and not m.get("mixed_ok"):
            raise SetError("a 'no' that ungrounded edges would change")
        return {"kind": "boolean", "answer": False, "edges": []}
    if agg == "boolean" and "is_a" in m:
        return {"kind": "boolean", "answer": data.is_a(start, m["is_a"]), "edges": []}

    if res_a != res_g:
        if not res_g:
            raise Decline("ungrounded", "every walk to the answer crosses an edge no chunk grounds: "
                          + ", ".join(ungrounded_on_walk(data, layers_a)))
        if not m.get("mixed_ok"):
            raise SetError(f"ungrounded edges change the answer: {sorted(res_a)} vs {sorted(res_g)}")

    if agg == "boolean":          # literal test on one node
        if len(end_g) != 1:
            raise SetError("a literal yes/no needs exactly one node")
        (n,) = end_g
        for f in m["filters"]:
            if (n, f["prop"]) not in data.literals:
                raise Decline("value_unknown", f"{n} has no {f['prop']} value")
        ok = check_filter_all(data, m["filters"], n, m.get("boundary_ok", False))
        return {"kind": "boolean", "answer": ok, "node": n, "edges": path_edges(layers_g, {n})}

    if not res_g:
        raise Decline("no_match", "no node satisfies the question")
    edges = path_edges(layers_g, res_g)

    if agg == "value":
        prop = m["value_prop"]
        dom = data.data_props[prop]["domain"]
        nodes = sorted(res_g)
        if not all(data.fits(n, dom) for n in nodes):
            raise Decline("property_not_applicable", f"'{prop}' does not apply to {nodes}")
        vals = {n: data.literals.get((n, prop)) for n in nodes}
        if all(v is None for v in vals.values()):
            raise Decline("value_unknown", f"{', '.join(nodes)}: {prop} is empty in kg_nodes.csv")
        if any(v is None for v in vals.values()):
            raise SetError(f"some end nodes lack {prop}: {vals}")
        rng = data.data_props[prop]["range"]
        values = sorted({jsonable(v) for v in vals.values()}, key=str)
        return {"kind": "value", "datatype": XSD_SHORT[rng], "values": values, "of": nodes, "edges": edges}
    if agg == "count":
        return {"kind": "count", "count": len(res_g), "of": sorted(res_g), "edges": edges}
    if agg == "one":
        if len(res_g) != 1:
            raise SetError(f"'one' question with {len(res_g)} answers: {sorted(res_g)}")
        return {"kind": "answer", "answer": next(iter(res_g)), "edges": edges}
    if agg == "list":
        return {"kind": "multi", "answer": sorted(res_g), "edges": edges}
    raise SetError(f"unknown aggregate {agg}")


def check_filter_all(data: Data, filters, nid: str, allow_boundary: bool) -> bool:
    return all(nid in check_filter(data, f, {nid}, allow_boundary) for f in filters)


GOLD_KIND = {"answer": "answer", "multi": "multi", "count": "count", "boolean": "boolean", "value": "value",
             "decline": "decline"}


def explain(data: Data, m: dict, gold: dict) -> str:
    if gold["kind"] == "decline":
        return gold["why"]
    parts = []
    if m.get("start"):
        parts.append(f"start {m['start']['name']}")
    else:
        parts.append(f"every {m['scope_class']}")
    for step in m.get("chain", []):
        parts.append(f"{'-' if step[1] == 'out' else '<-'}{step[0]}{'->' if step[1] == 'out' else '-'}"
                     + (f"[{step[2]}]" if len(step) > 2 else ""))
    if m.get("asked_class"):
        parts.append(f"class {m['asked_class']}")
    for f in m.get("filters", []):
        v = f["value"]
        v = f"year {v['year']}" if isinstance(v, dict) else json.dumps(v)
        parts.append(f"{f['prop']} {f['op']} {v}")
    if m.get("target"):
        parts.append(f"contains {m['target']['name']}?")
    if m.get("is_a"):
        parts.append(f"is a {m['is_a']}?")
    if m.get("value_prop"):
        parts.append(f"value of {m['value_prop']}")
    if gold.get("edges"):
        parts.append("edges " + ",".join(gold["edges"]))
    return "; ".join(parts)


def build_questions(questions: list[dict], folder: Path) -> list[dict]:
    data = Data(folder)
    out = []
    seen = set()
    for q in questions:
        if q["id"] in seen:
            raise SetError(f"duplicate id {q['id']}")
        seen.add(q["id"])
        m = q["meaning"]
        for key in ("start", "target"):
            if m.get(key) and norm(m[key]["name"]) not in norm(q["question"]):
                raise SetError(f"{q['id']}: {key} name '{m[key]['name']}' is not in the question")
        try:
            gold = compute(data, m)
        except SetError as e:
            raise SetError(f"{q['id']}: {e}") from None
        out.append({
            "id": q["id"], "lang": q["lang"], "question": q["question"], "kind": q["kind"],
            "gold_kind": GOLD_KIND[gold["kind"]], "gold": gold, "meaning": m, "why": explain(data, m, gold),
        })
    return out
