"""Set 1's gold rules: the gold outcomes of the first held-out set (benchmarks/heldout) from the bundled CSV data.

The questions and what each one *means* are written by hand in three spec files in the set's folder
(``spec_kg.jsonl``, ``spec_onchain.jsonl``, ``spec_pages.jsonl``). A meaning is small and machine-readable:
a start node, the relations to walk in order (with direction), the class asked for, the hop limit, or the
conditions of a page filter. This script never types an answer: it walks the CSV graphs (networkx / plain
Python) and writes ``questions.jsonl`` with the computed gold.

It reads only the dataset files under ``examples/{kg,onchain,pages}/`` and the ontologies in
``ontologies/`` (for the class hierarchy and the relation names)
it does not import ``ont_platform``.

Run:  python -m benchmarks.heldout_kit build 1
"""

from __future__ import annotations

import datetime as dt
import json
from collections import Counter, deque
from pathlib import Path

import networkx as nx
from rdflib import RDFS, Graph, Namespace
from rdflib.namespace import SKOS

from .gold import EX, ROOT, read_csv

ONTO = ROOT / "ontologies"

KG_NS = Namespace("https://w3id.org/ont-platform/kg#")
OC_NS = Namespace("https://w3id.org/ont-platform/onchain#")
ONT_NS = Namespace("https://w3id.org/ont-platform/core#")

DEFAULT_LIMIT = 3


class SpecError(Exception):
    """A spec line contradicts the data (e.g. a name that is not the label of the node it claims)."""


def read_jsonl(path: Path) -> list[dict]:
    return [json.loads(line) for line in path.read_text(encoding="utf-8").splitlines() if line.strip()]


def superclasses(graph: Graph, ns: Namespace) -> dict[str, set[str]]:
    """local class name -> itself and every superclass inside the namespace (transitive)."""
    direct: dict[str, set[str]] = {}
    for s, o in graph.subject_objects(RDFS.subClassOf):
        if str(s).startswith(str(ns)) and str(o).startswith(str(ns)):
            direct.setdefault(str(s)[len(str(ns)) :], set()).add(str(o)[len(str(ns)) :])
    out: dict[str, set[str]] = {}

    def up(c: str) -> set[str]:
        if c in out:
            return out[c]
        acc = {c}
        for p in direct.get(c, ()):
            acc |= up(p)
        out[c] = acc
        return acc

    for c in list(direct):
        up(c)
    return out


# ------------------------------------------------------------------------------------------------------------
# kg


class KgData:
    def __init__(self) -> None:
        d = EX / "kg"
        self.nodes = {r["node_id"]: r for r in read_csv(d / "kg_nodes.csv")}
        self.edges = read_csv(d / "kg_edges.csv")
        self.chunks = {r["chunk_id"]: r["text"] for r in read_csv(d / "kg_chunks.csv")}
        g = Graph().parse(ONTO / "kg.ttl")
        self.supers = superclasses(g, KG_NS)
        # relation names the ontology has (their notation), and the sub-properties of kg:within
        self.relations = {str(o) for o in g.objects(None, ONT_NS.relationNotation)}
        self.within = {str(s)[len(str(KG_NS)) :] for s in g.subjects(RDFS.subPropertyOf, KG_NS.within)}
        self.relations.add("within")
        self.names: dict[str, set[str]] = {}
        for nid, r in self.nodes.items():
            for name in [r["label"], *[a for a in r["aliases"].split("|") if a]]:
                self.names.setdefault(name, set()).add(nid)

    def node_names(self, nid: str) -> list[str]:
        r = self.nodes[nid]
        return [r["label"], *[a for a in r["aliases"].split("|") if a]]

    def resolve(self, name: str, *, fold_case: bool = False) -> set[str]:
        if not fold_case:
            return set(self.names.get(name, set()))
        return {n for k, v in self.names.items() if k.casefold() == name.casefold() for n in v}

    def rel_matches(self, step_rel: str, edge_rel: str) -> bool:
        return edge_rel == step_rel or (step_rel == "within" and edge_rel in self.within)

    def out_within(self, node: str) -> list[dict]:
        return [e for e in self.edges if e["src"] == node and e["rel"] in self.within]

    def is_class(self, node: str, cls: str) -> bool:
        if cls == "Continent":
            # a continent: a place at the top of the containment chain (no outgoing within edge)
            return "Place" in self.supers.get(
                self.nodes[node]["class"], {self.nodes[node]["class"]}
            ) and not self.out_within(node)
        return cls in self.supers.get(self.nodes[node]["class"], {self.nodes[node]["class"]})

    def grounded(self, e: dict) -> bool:
        """Seed 003 rule: marked grounded, its chunk exists, and the chunk names both ends (label or alias)."""
        if e["grounded"].strip().lower() != "true":
            return False
        text = self.chunks.get(e["chunk_id"])
        if not text:
            return False
        return all(any(n in text for n in self.node_names(end)) for end in (e["src"], e["dst"]))


def kg_gold(kg: KgData, item: dict) -> dict:
    m = item["meaning"]
    q = item["question"]
    name = m.get("name")
    start = m.get("start")
    limit = m.get("limit", DEFAULT_LIMIT)
    if name is not None and name not in q:
        raise SpecError(f"{item['id']}: name {name!r} not in question")
    if start is None:
        if name is not None and (kg.resolve(name) or kg.resolve(name, fold_case=True)):
            raise SpecError(f"{item['id']}: {name!r} is a known name, yet start is null")
        factor = "node_alias_unmapped" if m.get("near_miss") else "missing_start_node"
        return {
            "decision": "refuse",
            "factor": factor,
            "why": "start name not in the graph" if name else "no entity named",
        }
    want = kg.resolve(name, fold_case=bool(m.get("variant")))
    if want != {start}:
        raise SpecError(f"{item['id']}: {name!r} resolves to {want}, spec says {start}")

    for rel, _ in m.get("steps", []):
        if rel not in kg.relations:
            return {"decision": "refuse", "factor": "missing_edge", "why": f"relation {rel!r} is not in the ontology"}

    # enumerate every walk that follows the meaning; remember how far a failing walk got
    paths: list[list[dict]] = [[]]
    heads = [start]
    fail_at = 0  # 1-based index of the first hop that could not be taken
    for rel, direction in m.get("steps", []):
        new_paths, new_heads = [], []
        for p, h in zip(paths, heads, strict=True):
            for e in kg.edges:
                if not kg.rel_matches(rel, e["rel"]):
                    continue
                if direction == "out" and e["src"] == h:
                    new_paths.append(p + [e])
                    new_heads.append(e["dst"])
                elif direction == "in" and e["dst"] == h:
                    new_paths.append(p + [e])
                    new_heads.append(e["src"])
        if not new_paths:
            fail_at = len(paths[0]) + 1
            paths = []
            break
        paths, heads = new_paths, new_heads
    for cls in m.get("to_class", []) if paths else []:
        new_paths, new_heads = [], []
        deepest = 0
        for p, h in zip(paths, heads, strict=True):
            # BFS up the within chain until the first node of class cls (at least one hop)
            queue = deque([(h, p)])
            seen = {h}
            found_depth = None
            while queue:
                node, pp = queue.popleft()
                if found_depth is not None and len(pp) > found_depth:
                    break
                if pp is not p and kg.is_class(node, cls):
                    found_depth = len(pp)
                    new_paths.append(pp)
                    new_heads.append(node)
                    continue
                deepest = max(deepest, len(pp))
                for e in kg.out_within(node):
                    if e["dst"] not in seen:
                        seen.add(e["dst"])
                        queue.append((e["dst"], pp + [e]))
        if not new_paths:
            fail_at = deepest + 1
            paths = []
            break
        paths, heads = new_paths, new_heads

    if not paths:
        if fail_at > limit:
            return {
                "decision": "max_hops",
                "factor": "hop_limit_exceeded",
                "why": f"chain breaks only after the limit {limit}",
            }
        return {
            "decision": "refuse",
            "factor": "missing_edge",
            "why": f"no edge (or no node of the asked class) at hop {fail_at}",
        }

    asked = m.get("asked_class")
    outcomes = []
    for p, h in zip(paths, heads, strict=True):
        outcome = None
        for i, e in enumerate(p, 1):
            if i > limit:
                outcome = {
                    "decision": "max_hops",
                    "factor": "hop_limit_exceeded",
                    "hops_needed": len(p),
                    "why": f"needs {len(p)} hops, limit {limit}",
                }
                break
            if not kg.grounded(e):
                outcome = {
                    "decision": "refuse",
                    "factor": "ungrounded_hop",
                    "edge": e["edge_id"],
                    "why": f"hop {i} ({e['edge_id']}) is not grounded in its chunk",
                }
                break
        if outcome is None and asked and not kg.is_class(h, asked):
            outcome = {
                "decision": "refuse",
                "factor": "missing_edge",
                "why": f"answer {h} is a {kg.nodes[h]['class']}, not a {asked}",
            }
        if outcome is None:
            outcome = {"decision": "answer", "answer": h, "hops": len(p), "path": [e["edge_id"] for e in p]}
        outcomes.append(outcome)
    answers = {o["answer"] for o in outcomes if o["decision"] == "answer"}
    if len(answers) == 1:
        return min((o for o in outcomes if o["decision"] == "answer"), key=lambda o: o["hops"])
    if len(answers) > 1:
        return {"decision": "refuse", "factor": "missing_edge", "why": f"ambiguous: several answers {sorted(answers)}"}
    # no walk gives an answer: report the shortest walk's reason
    best = min(zip(paths, outcomes, strict=True), key=lambda po: len(po[0]))[1]
    return best


# ------------------------------------------------------------------------------------------------------------
# onchain


class OnchainData:
    def __init__(self) -> None:
        d = EX / "onchain"
        self.nodes = {r["node_id"]: r for r in read_csv(d / "onchain_nodes.csv")}
        self.edges = read_csv(d / "onchain_edges.csv")
        g = Graph().parse(ONTO / "onchain.ttl")
        self.supers = superclasses(g, OC_NS)
        self.class_words: set[str] = set()
        for c in self.supers:
            for p in (RDFS.label, SKOS.altLabel):
                self.class_words |= {str(o).casefold() for o in g.objects(OC_NS[c], p)}
        self.transfers = nx.MultiDiGraph()
        self.transfers.add_nodes_from(self.nodes)
        self.same = nx.Graph()
        self.same.add_nodes_from(self.nodes)
        for e in self.edges:
            if e["rel"] == "transfer":
                self.transfers.add_edge(e["from"], e["to"], key=e["edge_id"], **e)
            elif e["rel"] == "same_entity":
                self.same.add_edge(e["from"], e["to"], edge_id=e["edge_id"])

    def resolve(self, ref: str) -> str | None:
        if ref in self.nodes:
            return ref
        for nid, r in self.nodes.items():
            if r["address"].lower() == ref.lower() or r.get("label") == ref:
                return nid
        return None

    def of_class(self, nid: str, cls: str) -> bool:
        c = self.nodes[nid]["onto_class"]
        return cls in self.supers.get(c, {c})


def onchain_gold(oc: OnchainData, item: dict) -> dict:
    m = item["meaning"]
    kind = m["kind"]
    if "ref" in m and m["ref"] not in item["question"]:
        raise SpecError(f"{item['id']}: ref {m['ref']!r} not in question")
    if kind == "refuse":
        if m["why"] == "unknown_node" and oc.resolve(m["ref"]) is not None:
            raise SpecError(f"{item['id']}: {m['ref']} is in the graph")
        if m["why"] == "unknown_class" and m["class_word"].casefold() in oc.class_words:
            raise SpecError(f"{item['id']}: {m['class_word']} is an ontology class word")
        return {"intent": None, "refuse": True, "why": m["why"]}
    start = m["start"]
    if oc.resolve(m["ref"]) != start:
        raise SpecError(f"{item['id']}: {m['ref']} resolves to {oc.resolve(m['ref'])}, spec says {start}")
    if kind == "path":
        limit = m.get("limit", DEFAULT_LIMIT)
        if "target_node" in m:
            targets = {m["target_node"]}
            target_desc = m["target_node"]
        else:
            cls = m["target_class"]
            if cls not in oc.supers and not any(cls in s for s in oc.supers.values()):
                raise SpecError(f"{item['id']}: unknown class {cls}")
            targets = {n for n in oc.nodes if oc.of_class(n, cls)}
            target_desc = cls
        dist = nx.single_source_shortest_path_length(oc.transfers, start)
        reach = {n: d for n, d in dist.items() if n in targets and n != start and d >= 1}
        if not reach or min(reach.values()) > limit:
            return {
                "intent": "no_path",
                "limit": limit,
                "target": target_desc,
                "shortest_anywhere": min(reach.values()) if reach else None,
            }
        length = min(reach.values())
        ends = sorted(n for n, d in reach.items() if d == length)
        example = nx.shortest_path(oc.transfers, start, ends[0])
        return {
            "intent": "path_exists",
            "start": start,
            "length": length,
            "end_nodes": ends,
            "target": target_desc,
            "limit": limit,
            "example_nodes": example,
        }
    if kind == "cluster":
        members = sorted(nx.node_connected_component(oc.same, start) - {start})
        return {"intent": "cluster_lookup", "start": start, "members": members}
    if kind == "label":
        return {"intent": "label_lookup", "start": start, "class": oc.nodes[start]["onto_class"]}
    if kind == "token_flow":
        token_node = next(
            n for n, r in oc.nodes.items() if r["onto_class"] == "TokenContract" and m["token"] in r.get("label", "")
        )
        token_addr = oc.nodes[token_node]["address"].lower()
        limit = m.get("limit", DEFAULT_LIMIT)
        edges, frontier, seen = set(), {start}, {start}
        for _ in range(limit):
            nxt = set()
            for u in frontier:
                for _, v, k, data in oc.transfers.out_edges(u, keys=True, data=True):
                    if data["token"].lower() == token_addr:
                        edges.add(k)
                        if v not in seen:
                            seen.add(v)
                            nxt.add(v)
            frontier = nxt
        return {"intent": "token_flow", "start": start, "edges": sorted(edges)}
    raise SpecError(f"{item['id']}: unknown kind {kind}")


# ------------------------------------------------------------------------------------------------------------
# pages


class PagesData:
    def __init__(self) -> None:
        d = EX / "pages"
        self.rows = read_csv(d / "pages.csv")
        self.as_of = dt.date.fromisoformat(json.loads((d / "meta.json").read_text())["as_of"])

    def period(self, token: str) -> tuple[dt.date, dt.date]:
        a = self.as_of
        if token == "this_month":
            return a.replace(day=1), a
        if token == "last_month":
            first = a.replace(day=1)
            last = first - dt.timedelta(days=1)
            return last.replace(day=1), last
        if token == "this_year":
            return dt.date(a.year, 1, 1), a
        if token == "last_year":
            return dt.date(a.year - 1, 1, 1), dt.date(a.year - 1, 12, 31)
        if token == "early_last_year":  # 작년 초: January to March of last year (examples/pages/README.md)
            return dt.date(a.year - 1, 1, 1), dt.date(a.year - 1, 3, 31)
        if token.startswith("year:"):
            y = int(token[5:])
            return dt.date(y, 1, 1), dt.date(y, 12, 31)
        raise SpecError(f"unknown period {token}")

    def test(self, row: dict, cond: list) -> bool:
        col, op = cond[0], cond[1]
        raw = row[col].strip()
        if op == "is_empty":
            return raw == ""
        if raw == "":
            return False  # an empty cell is "not measured": it matches no condition
        if op == "contains":
            return cond[2] in raw
        if op == "during":
            lo, hi = self.period(cond[2])
            return lo <= dt.date.fromisoformat(raw) <= hi
        x, v = float(raw), float(cond[2])
        return {">=": x >= v, ">": x > v, "<=": x <= v, "<": x < v, "=": x == v}[op]


def pages_gold(pg: PagesData, item: dict) -> dict:
    m = item["meaning"]
    if m["kind"] in ("clarify", "unsupported"):
        return {"status": m["kind"]}
    if "all" in m:
        urls = [r["url"] for r in pg.rows if all(pg.test(r, c) for c in m["all"])]
    else:
        urls = [r["url"] for r in pg.rows if any(pg.test(r, c) for c in m["any"])]
    return {"status": "ran", "urls": sorted(urls), "count": len(urls)}


# ------------------------------------------------------------------------------------------------------------


def outcome_kind(domain: str, gold: dict) -> str:
    """answer | no_path | refusal (refuse / max_hops / clarify / unsupported / not-understood)."""
    if domain == "kg":
        return "answer" if gold["decision"] == "answer" else "refusal"
    if domain == "onchain":
        if gold.get("refuse"):
            return "refusal"
        return "no_path" if gold["intent"] == "no_path" else "answer"
    return "answer" if gold["status"] == "ran" else "refusal"


def build(folder: Path, config: dict, verbose: bool = False) -> str:
    """questions.jsonl of set 1, from its three spec files."""
    kg, oc, pg = KgData(), OnchainData(), PagesData()
    out: list[dict] = []
    errors: list[str] = []
    for domain, fn, data in (("kg", kg_gold, kg), ("onchain", onchain_gold, oc), ("pages", pages_gold, pg)):
        for item in read_jsonl(folder / f"spec_{domain}.jsonl"):
            try:
                gold = fn(data, item)
            except SpecError as exc:
                errors.append(str(exc))
                continue
            gold["kind"] = outcome_kind(domain, gold)
            out.append(
                {
                    "id": item["id"],
                    "domain": domain,
                    "lang": item["lang"],
                    "question": item["question"],
                    "gold": gold,
                    "note": item.get("note", ""),
                }
            )
    if errors:
        raise SystemExit("spec errors:\n  " + "\n  ".join(errors))
    ids = [o["id"] for o in out]
    assert len(ids) == len(set(ids)), "duplicate ids"
    by = Counter((o["domain"], o["lang"], o["gold"]["kind"]) for o in out)
    for dom in ("kg", "onchain", "pages"):
        n = sum(v for k, v in by.items() if k[0] == dom)
        en = sum(v for k, v in by.items() if k[0] == dom and k[1] == "en")
        kinds: Counter[str] = Counter()
        for k, v in by.items():
            if k[0] == dom:
                kinds[k[2]] += v
        print(f"  {dom:8s} n={n:3d}  en={en:3d}  " + "  ".join(f"{k}={v}" for k, v in sorted(kinds.items())))
    n = len(out)
    en = sum(o["lang"] == "en" for o in out)
    ref = sum(o["gold"]["kind"] == "refusal" for o in out)
    print(f"  total    n={n}  en={en} ({en / n:.0%})  refusal/clarify/unsupported={ref} ({ref / n:.0%})")
    if verbose:
        for o in out:
            print(o["id"], json.dumps(o["gold"], ensure_ascii=False)[:170], "|", o["question"])
    return "".join(json.dumps(o, ensure_ascii=False) + "\n" for o in out)
