#!/usr/bin/env python3
"""Compute the gold answers of questions.jsonl from questions_spec.jsonl, the CSV tables and ontology.ttl.

questions_spec.jsonl is written by hand. Each line holds the question text and what it means:

    {"id": "f001", "lang": "ko", "question": "...",
     "mention": "달빛 항구",            # the start name exactly as the question writes it
     "start": "f_moonlit",             # the node it means, or null when the name is not in the graph
     "chain": [["directed", "bwd"], ["bornIn", "fwd"]],
     "asked": "City",                  # the class the question asks for, or null ("어디", "who")
     "limit": 3,                       # optional: the hop limit the question states (default 3)
     "note": "..."}

A chain step names the ontology property that the question's words name, and which side of it the current node
is on: "fwd" when the node is the subject of that property, "bwd" when it is the object, "any" for a symmetric
property. The property may have no rows of its own: it is resolved through the ontology (owl:inverseOf flips the
direction, rdfs:subPropertyOf adds the sub-properties, owl:SymmetricProperty allows both directions), and the path
always cites the edge as stored.

The gold follows the hop_decision contract (seed 003):

- the name is matched exactly (NFKC, case folded, spaces, hyphens and underscores removed) against labels and
  aliases. No match: `node_alias_unmapped` if the name is one letter (Hangul jamo or Latin letter) from a known
  name, else `missing_start_node`; the path is empty. Several nodes with the name (청하, a film and a city): the
  one whose class fits the first step's domain or range; the spec must agree.
- hops are walked in order. Before hop i (0-based), if i >= limit: `max_hops` / `hop_limit_exceeded`, the path
  holds the hops walked. No edge for the step: `refuse` / `missing_edge`, the path holds the hops walked. The
  edge is not grounded (flag false, or no chunk, or the chunk text does not name both ends by label or alias):
  `refuse` / `ungrounded_hop`, the path ends with that edge.
- every step must be unambiguous: the script fails if a step could take more than one edge, so that a question's
  gold never depends on a tie-break.
- all hops walked and grounded: `answer` if the last node is of the asked class (subclasses included), else
  `refuse` / `missing_edge` (the relation the question needs to reach that class is not in the graph; the path
  holds the hops walked).

Run from anywhere: `python examples/films/build_questions.py` (writes questions.jsonl next to this file and prints
counts); `--check` only compares with the existing file and exits 1 on a difference.
"""

from __future__ import annotations

import csv
import json
import sys
import unicodedata
from collections import Counter, defaultdict
from pathlib import Path

import networkx as nx
from rdflib import OWL, RDF, RDFS, Graph, Namespace, URIRef

HERE = Path(__file__).resolve().parent
FILM = Namespace("https://example.org/films#")
DEFAULT_LIMIT = 3


# ---------------------------------------------------------------------------------------------------------
# Loading


def key(text: str) -> str:
    """The comparison key of a name or a text: NFKC, case folded, without spaces, hyphens and underscores."""
    text = unicodedata.normalize("NFKC", text).casefold()
    return "".join(ch for ch in text if not ch.isspace() and ch not in "-_")


def read_csv(name: str) -> list[dict[str, str]]:
    with open(HERE / name, encoding="utf-8", newline="") as fh:
        return list(csv.DictReader(fh))


class Ontology:
    """The parts of ontology.ttl that the walk needs: classes, subclass closure, property axioms."""

    def __init__(self, path: Path = HERE / "ontology.ttl") -> None:
        g = Graph().parse(path, format="turtle")
        self.graph = g
        self.classes = {self.local(c) for c in g.subjects(RDF.type, OWL.Class) if isinstance(c, URIRef)}
        self.properties = {self.local(p) for p in g.subjects(RDF.type, OWL.ObjectProperty)}
        self.symmetric = {self.local(p) for p in g.subjects(RDF.type, OWL.SymmetricProperty)}
        self.inverse: dict[str, set[str]] = defaultdict(set)
        for a, b in g.subject_objects(OWL.inverseOf):
            self.inverse[self.local(a)].add(self.local(b))
            self.inverse[self.local(b)].add(self.local(a))
        self.subproperties: dict[str, set[str]] = defaultdict(set)
        for sub, sup in g.subject_objects(RDFS.subPropertyOf):
            self.subproperties[self.local(sup)].add(self.local(sub))
        self.domain = {self.local(p): self.local(c) for p, c in g.subject_objects(RDFS.domain)}
        self.range = {self.local(p): self.local(c) for p, c in g.subject_objects(RDFS.range)}
        parents: dict[str, set[str]] = defaultdict(set)
        for sub, sup in g.subject_objects(RDFS.subClassOf):
            parents[self.local(sub)].add(self.local(sup))
        self.ancestors: dict[str, set[str]] = {}
        for c in self.classes:
            seen, todo = {c}, [c]
            while todo:
                for p in parents[todo.pop()]:
                    if p not in seen:
                        seen.add(p)
                        todo.append(p)
            self.ancestors[c] = seen

    @staticmethod
    def local(term) -> str:
        return str(term).rsplit("#", 1)[-1]

    def _class_list(self, prop: str, key: URIRef) -> list[str] | None:
        from rdflib.collection import Collection

        for p in self.graph.subjects(RDF.type, OWL.ObjectProperty):
            if self.local(p) == prop:
                value = self.graph.value(p, key)
                if value is None:
                    return None
                union = self.graph.value(value, OWL.unionOf)
                if union is not None:
                    return [self.local(m) for m in Collection(self.graph, union)]
                return [self.local(value)]
        return None

    def repeatable(self, prop: str) -> bool:
        """Whether ``prop`` can follow itself: some class its range allows is one its domain allows."""
        dom, rng = self._class_list(prop, RDFS.domain), self._class_list(prop, RDFS.range)
        if rng is None:
            return False
        return dom is None or any(
            any(self.is_a(c, r) for r in rng) and any(self.is_a(c, d) for d in dom) for c in self.classes
        )

    def continuation(self, prop: str) -> str | None:
        """The one property above ``prop`` that can follow itself and whose domain takes ``prop``'s range."""
        ups, todo = [], [prop]
        seen = {prop}
        while todo:
            cur = todo.pop()
            for sup, subs in self.subproperties.items():
                if cur in subs and sup not in seen:
                    seen.add(sup)
                    todo.append(sup)
                    dom, rng = self._class_list(sup, RDFS.domain), self._class_list(prop, RDFS.range)
                    if (
                        self.repeatable(sup)
                        and rng
                        and (dom is None or all(any(self.is_a(r, d) for d in dom) for r in rng))
                    ):
                        ups.append(sup)
        return ups[0] if len(ups) == 1 else None

    def is_a(self, cls: str, wanted: str | None) -> bool:
        return wanted is None or wanted in self.ancestors.get(cls, {cls})

    def expansions(self, prop: str, direction: str, stored: set[str], seen=None) -> set[tuple[str, str]]:
        """The stored relations (and directions) that a step over `prop` in `direction` walks."""
        seen = set() if seen is None else seen
        if (prop, direction) in seen:
            return set()
        seen.add((prop, direction))
        if prop in self.symmetric:
            direction = "any"
        out: set[tuple[str, str]] = set()
        if prop in stored:
            out.add((prop, direction))
        flip = {"fwd": "bwd", "bwd": "fwd", "any": "any"}[direction]
        for inv in self.inverse.get(prop, ()):
            out |= self.expansions(inv, flip, stored, seen)
        for sub in self.subproperties.get(prop, ()):
            out |= self.expansions(sub, direction, stored, seen)
        return out


class Dataset:
    """kg_nodes.csv, kg_edges.csv and kg_chunks.csv as a networkx MultiDiGraph plus name and chunk lookups."""

    def __init__(self) -> None:
        self.nodes = {r["node_id"]: r for r in read_csv("kg_nodes.csv")}
        self.edges = {r["edge_id"]: r for r in read_csv("kg_edges.csv")}
        self.chunks = {r["chunk_id"]: r["text"] for r in read_csv("kg_chunks.csv")}
        self.names: dict[str, list[str]] = {}
        self.by_name: dict[str, set[str]] = defaultdict(set)
        for nid, row in self.nodes.items():
            names = [row["label"]] + [a for a in row["aliases"].split("|") if a.strip()]
            self.names[nid] = names
            for n in names:
                self.by_name[key(n)].add(nid)
        self.g = nx.MultiDiGraph()
        for nid, row in self.nodes.items():
            self.g.add_node(nid, cls=row["class"])
        for eid, row in self.edges.items():
            self.g.add_edge(row["src"], row["dst"], key=eid, rel=row["rel"])
        self.stored = {row["rel"] for row in self.edges.values()}

    def cls(self, nid: str) -> str:
        return self.nodes[nid]["class"]

    def mentions(self, nid: str, text: str) -> bool:
        k = key(text)
        return any(key(n) in k for n in self.names[nid])

    def grounding(self, eid: str) -> tuple[bool, str]:
        """Whether the edge counts as grounded at answer time, and why not."""
        e = self.edges[eid]
        if e["grounded"] != "true":
            return False, "marked grounded=false"
        if not e["chunk_id"] or e["chunk_id"] not in self.chunks:
            return False, "no such chunk"
        text = self.chunks[e["chunk_id"]]
        missing = [end for end in (e["src"], e["dst"]) if not self.mentions(end, text)]
        if missing:
            return False, f"chunk {e['chunk_id']} does not name {', '.join(missing)}"
        return True, "ok"

    def hop(self, eid: str) -> dict:
        e = self.edges[eid]
        return {"src": e["src"], "rel": e["rel"], "dst": e["dst"], "chunk_id": e["chunk_id"] or None}

    def step(self, ont: Ontology, node: str, prop: str, direction: str) -> list[tuple[str, str]]:
        """(edge_id, next node) for every edge a step over `prop` can take from `node`."""
        found: dict[str, str] = {}
        for rel, d in ont.expansions(prop, direction, self.stored):
            if d in ("fwd", "any"):
                for _, dst, eid, data in self.g.out_edges(node, keys=True, data=True):
                    if data["rel"] == rel:
                        found[eid] = dst
            if d in ("bwd", "any"):
                for src, _, eid, data in self.g.in_edges(node, keys=True, data=True):
                    if data["rel"] == rel:
                        found[eid] = src
        return sorted(found.items())

    def fits_first_step(self, ont: Ontology, nid: str, prop: str, direction: str) -> bool:
        for rel, d in ont.expansions(prop, direction, self.stored):
            ends = {
                "fwd": [ont.domain.get(rel)],
                "bwd": [ont.range.get(rel)],
                "any": [ont.domain.get(rel), ont.range.get(rel)],
            }[d]
            if any(c is None or ont.is_a(self.cls(nid), c) for c in ends):
                return True
        return False


# ---------------------------------------------------------------------------------------------------------
# Names that are not in the graph


def levenshtein(a: str, b: str) -> int:
    prev = list(range(len(b) + 1))
    for i, ca in enumerate(a, 1):
        cur = [i]
        for j, cb in enumerate(b, 1):
            cur.append(min(prev[j] + 1, cur[j - 1] + 1, prev[j - 1] + (ca != cb)))
        prev = cur
    return prev[-1]


def letter_distance(a: str, b: str) -> int:
    """Edit distance in letters: Hangul syllables are split into jamo (NFD), so 레/래 is one letter apart."""
    return levenshtein(unicodedata.normalize("NFD", key(a)), unicodedata.normalize("NFD", key(b)))


def nearest_name(ds: Dataset, mention: str) -> tuple[int, str]:
    return min((letter_distance(mention, n), n) for names in ds.names.values() for n in names)


# ---------------------------------------------------------------------------------------------------------
# The walk


class SpecError(Exception):
    pass


def decide(spec: dict, ds: Dataset, ont: Ontology) -> tuple[dict, dict]:
    """Return (expected, info) for one spec line."""
    q, mention, chain = spec["question"], spec["mention"], spec["chain"]
    limit = spec.get("limit", DEFAULT_LIMIT)
    asked = spec.get("asked")
    info: dict = {"limit": limit}
    if mention not in q:
        raise SpecError(f"mention {mention!r} is not in the question")
    if asked is not None and asked not in ont.classes:
        raise SpecError(f"asked class {asked} is not in the ontology")
    for prop, direction in chain:
        if prop not in ont.properties or direction not in ("fwd", "bwd", "any"):
            raise SpecError(f"bad chain step {prop} {direction}")
        if not ont.expansions(prop, direction, ds.stored):
            raise SpecError(f"{prop} resolves to no stored relation")

    # names in the question other than the start name would make the question ambiguous
    qk = key(q)
    others = {nid for k, nids in ds.by_name.items() if k in qk for nid in nids}
    candidates = ds.by_name.get(key(mention), set())
    if others - candidates:
        raise SpecError(f"the question also names {sorted(others - candidates)}")

    if not candidates:
        dist, near = nearest_name(ds, mention)
        info["nearest"] = (dist, near)
        if spec["start"] is not None:
            raise SpecError(f"{mention!r} matches no node but the spec says {spec['start']}")
        if dist == 1:
            factor = "node_alias_unmapped"
        elif dist >= 3:
            factor = "missing_start_node"
        else:
            raise SpecError(f"{mention!r} is {dist} letters from {near!r}: neither clearly a typo nor clearly new")
        return {"decision": "refuse", "answer": None, "path": [], "factors": [factor]}, info

    fitting = sorted(n for n in candidates if ds.fits_first_step(ont, n, *chain[0]))
    if len(candidates) > 1:
        info["ambiguous_name"] = sorted(candidates)
    if fitting != [spec["start"]]:
        raise SpecError(
            f"{mention!r} resolves to {fitting} (candidates {sorted(candidates)}), spec says {spec['start']}"
        )
    node = spec["start"]

    path: list[dict] = []
    for i, (prop, direction) in enumerate(chain):
        if i >= limit:
            return {"decision": "max_hops", "answer": None, "path": path, "factors": ["hop_limit_exceeded"]}, info
        options = ds.step(ont, node, prop, direction)
        if not options:
            return {"decision": "refuse", "answer": None, "path": path, "factors": ["missing_edge"]}, info
        if len(options) > 1:
            raise SpecError(f"step {i + 1} ({prop} {direction}) from {node} is ambiguous: {options}")
        node = _take(ds, options[0], path, info)
        if node is None:
            return {"decision": "refuse", "answer": None, "path": path, "factors": ["ungrounded_hop"]}, info
    # The library's reading rule: when the asked class is not reached and the last relation can follow itself
    # (its range fits its own domain: a place within a place), it is followed again, within the hop limit; a
    # relation that cannot, walked forwards, continues as the one property above it that can and whose domain
    # takes its range (heldIn, a festival's city, continues as within: the city's country).
    last_prop, last_dir = chain[-1] if chain else (None, None)
    if asked and last_prop and not ont.is_a(ds.cls(node), asked) and not ont.repeatable(last_prop):
        last_prop = ont.continuation(last_prop) if last_dir == "fwd" else None
    while asked and last_prop and not ont.is_a(ds.cls(node), asked) and ont.repeatable(last_prop) and len(path) < limit:
        options = ds.step(ont, node, last_prop, last_dir)
        if len(options) != 1:
            break
        node = _take(ds, options[0], path, info)
        if node is None:
            return {"decision": "refuse", "answer": None, "path": path, "factors": ["ungrounded_hop"]}, info
        info["repeated"] = f"{last_prop} followed again to reach {asked}"
    if not ont.is_a(ds.cls(node), asked):
        info["wrong_class"] = f"{node} is a {ds.cls(node)}, the question asks for {asked}"
        return {"decision": "refuse", "answer": None, "path": path, "factors": ["missing_edge"]}, info
    return {"decision": "answer", "answer": node, "path": path, "factors": []}, info


def _take(ds: "Dataset", option: tuple[str, str], path: list[dict], info: dict) -> str | None:
    """Walk one edge: add its hop to ``path``; the node it leads to, or None when the edge is not grounded."""
    eid, nxt = option
    path.append(ds.hop(eid))
    ok, why = ds.grounding(eid)
    if not ok:
        info["ungrounded"] = f"{eid}: {why}"
        return None
    return nxt


def build() -> tuple[list[dict], list[tuple[dict, dict, dict]]]:
    ont, ds = Ontology(), Dataset()
    specs = [
        json.loads(line)
        for line in (HERE / "questions_spec.jsonl").read_text(encoding="utf-8").splitlines()
        if line.strip()
    ]
    ids = [s["id"] for s in specs]
    if len(ids) != len(set(ids)):
        raise SpecError("duplicate ids in questions_spec.jsonl")
    rows, details = [], []
    for spec in specs:
        try:
            expected, info = decide(spec, ds, ont)
        except SpecError as exc:
            raise SpecError(f"{spec['id']}: {exc}") from None
        if expected["decision"] == "max_hops":
            # what the same chain gives without a limit (informative: every max_hops chain should be walkable)
            unlimited, _ = decide({**spec, "limit": 99}, ds, ont)
            info["without_limit"] = unlimited["decision"], unlimited["answer"]
        rows.append({"id": spec["id"], "question": spec["question"], "expected": expected})
        details.append((spec, expected, info))
    return rows, details


def dump(rows: list[dict]) -> str:
    return "".join(json.dumps(r, ensure_ascii=False) + "\n" for r in rows)


def summary(details) -> str:
    by = Counter((s["lang"], e["decision"]) for s, e, _ in details)
    factors = Counter(f for _, e, _ in details for f in e["factors"])
    langs = Counter(s["lang"] for s, _, _ in details)
    n = len(details)
    refuse = sum(1 for _, e, _ in details if e["decision"] == "refuse")
    lines = [
        f"{n} questions: " + ", ".join(f"{k} {v}" for k, v in sorted(langs.items())),
        "decision x language: " + ", ".join(f"{d}/{lang} {v}" for (lang, d), v in sorted(by.items())),
        "factors: " + ", ".join(f"{k} {v}" for k, v in sorted(factors.items())),
        f"english {langs['en'] / n:.0%}, refuse {refuse / n:.0%}",
    ]
    return "\n".join(lines)


def main(argv: list[str]) -> int:
    rows, details = build()
    out = HERE / "questions.jsonl"
    text = dump(rows)
    if "--check" in argv:
        same = out.exists() and out.read_text(encoding="utf-8") == text
        print("questions.jsonl is up to date" if same else "questions.jsonl differs from the spec's gold")
        return 0 if same else 1
    out.write_text(text, encoding="utf-8")
    if "-v" in argv:
        for spec, exp, info in details:
            hops = " ".join(f"{h['src']}-{h['rel']}->{h['dst']}" for h in exp["path"])
            extra = {k: v for k, v in info.items() if k != "limit"}
            print(f"{spec['id']} {exp['decision']:8} {exp['answer'] or '-':15} {exp['factors'] or ''} [{hops}] {extra}")
    print(summary(details))
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
