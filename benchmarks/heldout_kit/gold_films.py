"""The films set's gold rules: gold answers for the held-out films questions (benchmarks/heldout_films).

Reads the set's spec.jsonl (hand-written questions with their intended meaning) together with the films dataset
(examples/films: ontology.ttl, kg_nodes.csv, kg_edges.csv, kg_chunks.csv) and writes questions.jsonl in the
gold format of `ont eval gold`: {"id", "question", "lang", "expected": {"decision", "answer", "path",
"factors"}} (the hop_decision fields).

It uses rdflib for the ontology, networkx for the graph and plain Python for the rest; it does not import
ont_platform. It fails loudly (exit 1) when:
- the name written in a question does not resolve to the stated start node (or, for an unknown name, does
  resolve or is one or two letters from a known name; for a misspelt name, is not one or two letters from the
  stated node and from no other). Letters are counted on names in the same script (Hangul split into jamo);
- the question mentions another node name that the spec does not allow;
- a step could take more than one edge (no tie-breaks in this set);
- the computed outcome does not match the outcome the writer intended (`meaning.kind`).

Usage (from the repository root):
    python -m benchmarks.heldout_kit build films [-v] [--check]
"""

from __future__ import annotations

import json
import unicodedata
from collections import Counter
from pathlib import Path

import networkx as nx
import rdflib
from rdflib.collection import Collection
from rdflib.namespace import OWL, RDF, RDFS

from .gold import EX, lev, read_csv

DATA = EX / "films"
FILM = rdflib.Namespace("https://example.org/films#")
DEFAULT_LIMIT = 3

# intended outcome per kind: (decision, factor)
KIND_OUTCOME = {
    "answer": ("answer", None),
    "unknown_name": ("refuse", "missing_start_node"),
    "ambiguous": ("refuse", "missing_start_node"),
    "misspelt_name": ("refuse", "node_alias_unmapped"),
    "not_in_ontology": ("refuse", "missing_edge"),
    "wrong_class": ("refuse", "missing_edge"),
    "no_edge": ("refuse", "missing_edge"),
    "ungrounded": ("refuse", "ungrounded_hop"),
    "hop_limit": ("max_hops", "hop_limit_exceeded"),
}


class GoldError(Exception):
    pass


# ----------------------------------------------------------------------------------------------------------
# text helpers


def norm_name(s: str) -> str:
    """Name matching: NFKC, case folded, spaces, hyphens and underscores removed."""
    s = unicodedata.normalize("NFKC", s).casefold()
    return "".join(ch for ch in s if not ch.isspace() and ch not in "-_")


def norm_text(s: str) -> str:
    """Grounding match: NFKC, case folded, spacing ignored."""
    s = unicodedata.normalize("NFKC", s).casefold()
    return "".join(ch for ch in s if not ch.isspace())


def letters(s: str) -> str:
    """Hangul syllables split into jamo, so that one changed vowel or consonant counts as one letter."""
    return unicodedata.normalize("NFD", norm_name(s))


def script(s: str) -> str:
    """Hangul, Latin or other (kana/kanji): a misspelling stays within one script."""
    for ch in s:
        if "\uac00" <= ch <= "\ud7a3":
            return "hangul"
        if ch.isalpha() and ord(ch) < 0x2500:
            return "latin"
    return "other"


# ----------------------------------------------------------------------------------------------------------
# data


class Films:
    def __init__(self, data: Path):
        self.nodes = {r["node_id"]: r for r in read_csv(data / "kg_nodes.csv")}
        self.chunks = {r["chunk_id"]: r["text"] for r in read_csv(data / "kg_chunks.csv")}
        self.edges = read_csv(data / "kg_edges.csv")
        self.g = nx.MultiDiGraph()
        for n, r in self.nodes.items():
            self.g.add_node(n, cls=r["class"])
        for e in self.edges:
            self.g.add_edge(e["src"], e["dst"], key=e["edge_id"], **e)
        self.stored = {e["rel"] for e in self.edges}
        self.names = {n: [r["label"]] + [a for a in r["aliases"].split("|") if a] for n, r in self.nodes.items()}
        self.index: dict[str, set[str]] = {}
        for n, ns in self.names.items():
            for s in ns:
                self.index.setdefault(norm_name(s), set()).add(n)
        self._ontology(data / "ontology.ttl")

    def _ontology(self, path: Path) -> None:
        o = rdflib.Graph().parse(path, format="turtle")

        def local(u: object) -> str:
            return str(u).split("#")[-1]

        self.superclass = {}
        for c in o.subjects(RDF.type, OWL.Class):
            if isinstance(c, rdflib.URIRef):
                self.superclass[local(c)] = [local(s) for s in o.objects(c, RDFS.subClassOf)]

        def classes(x):
            if x is None:
                return set()
            if isinstance(x, rdflib.URIRef):
                return {local(x)}
            u = o.value(x, OWL.unionOf)
            return {local(m) for m in Collection(o, u)} if u is not None else set()

        self.props = {}
        for p in o.subjects(RDF.type, OWL.ObjectProperty):
            self.props[local(p)] = {
                "domain": classes(o.value(p, RDFS.domain)),
                "range": classes(o.value(p, RDFS.range)),
                "inverse": local(o.value(p, OWL.inverseOf)) if o.value(p, OWL.inverseOf) else None,
                "super": [local(s) for s in o.objects(p, RDFS.subPropertyOf)],
                "symmetric": (p, RDF.type, OWL.SymmetricProperty) in o,
            }
        for p, d in self.props.items():  # inverse declared on one side only
            if d["inverse"] and self.props[d["inverse"]]["inverse"] is None:
                self.props[d["inverse"]]["inverse"] = p
        self.subprops = {p: [q for q, d in self.props.items() if p in d["super"]] for p in self.props}
        self.classes = set(self.superclass)

    def is_a(self, cls: str, target: str) -> bool:
        todo, seen = [cls], set()
        while todo:
            c = todo.pop()
            if c == target:
                return True
            if c not in seen:
                seen.add(c)
                todo.extend(self.superclass.get(c, []))
        return False

    def expand(self, rel: str, d: str, seen=None) -> set[tuple[str, str]] | None:
        """(stored property, direction) pairs that realise `rel` walked in direction `d`; None if the
        ontology has no such property."""
        if rel not in self.props:
            return None
        seen = set() if seen is None else seen
        if (rel, d) in seen:
            return set()
        seen.add((rel, d))
        out: set[tuple[str, str]] = set()
        if rel in self.stored:
            out.add((rel, d))
            if self.props[rel]["symmetric"]:
                out.add((rel, "inv" if d == "fwd" else "fwd"))
        inv = self.props[rel]["inverse"]
        if inv:
            out |= self.expand(inv, "inv" if d == "fwd" else "fwd", seen)
        for sub in self.subprops[rel]:
            out |= self.expand(sub, d, seen)
        return out

    def start_classes(self, rel: str, d: str) -> set[str] | None:
        exp = self.expand(rel, d)
        if exp is None:
            return None
        return set().union(*(self.props[r]["domain"] if dd == "fwd" else self.props[r]["range"] for r, dd in exp))

    def grounded(self, e: dict) -> bool:
        if e["grounded"].strip().lower() != "true":
            return False
        text = self.chunks.get(e["chunk_id"] or "")
        if text is None:
            return False
        t = norm_text(text)
        return all(any(norm_text(s) in t for s in self.names[n]) for n in (e["src"], e["dst"]))

    def step_edges(self, node: str, rel: str, d: str) -> list[dict] | None:
        exp = self.expand(rel, d)
        if exp is None:
            return None
        found = {}
        for srel, sd in exp:
            if sd == "fwd":
                for _, _, e in self.g.out_edges(node, data=True):
                    if e["rel"] == srel:
                        found[e["edge_id"]] = e
            else:
                for _, _, e in self.g.in_edges(node, data=True):
                    if e["rel"] == srel:
                        found[e["edge_id"]] = e
        return [found[k] for k in sorted(found)]


# ----------------------------------------------------------------------------------------------------------
# gold


def hop(e: dict) -> dict:
    return {"src": e["src"], "rel": e["rel"], "dst": e["dst"], "chunk_id": e["chunk_id"] or None}


def check_names(kb: Films, q: dict) -> None:
    m, name, qid = q["meaning"], q["name"], q["id"]
    if norm_name(name) not in norm_name(q["question"]):
        raise GoldError(f"{qid}: name {name!r} does not occur in the question")
    kind, start = m["kind"], m["start"]
    hits = kb.index.get(norm_name(name), set())
    same = {n: [s for s in ns if script(s) == script(name)] for n, ns in kb.names.items()}
    dists = {n: min(lev(letters(name), letters(s)) for s in ns) for n, ns in same.items() if ns}
    best = min(dists.values())
    if kind in ("unknown_name", "ambiguous"):
        if hits:
            raise GoldError(f"{qid}: 'unknown' name {name!r} resolves to {sorted(hits)}")
        if best < 3:
            near = sorted(n for n, v in dists.items() if v == best)
            raise GoldError(f"{qid}: 'unknown' name {name!r} is only {best} letters from {near}")
        if start is not None:
            raise GoldError(f"{qid}: an unknown name has no start node")
    elif kind == "misspelt_name":
        if hits:
            raise GoldError(f"{qid}: 'misspelt' name {name!r} resolves to {sorted(hits)}")
        near = sorted(n for n, v in dists.items() if v == best)
        if not (1 <= best <= 2) or near != [start]:
            raise GoldError(f"{qid}: misspelt {name!r}: nearest {near} at {best} letters, spec says {start}")
    else:
        if start not in hits:
            raise GoldError(f"{qid}: name {name!r} resolves to {sorted(hits) or 'nothing'}, not to {start}")
        if len(hits) > 1:
            st = m["steps"][0]
            fit = kb.start_classes(st["rel"], st["dir"]) or set()
            ok = {n for n in hits if any(kb.is_a(kb.nodes[n]["class"], c) for c in fit)}
            if ok != {start}:
                raise GoldError(f"{qid}: {name!r} names {sorted(hits)}; the first step fits {sorted(ok)}, not {start}")
    # other node names in the question
    allowed = set(q.get("mentions_ok", [])) | ({start} if start else set())
    qn = norm_name(q["question"])
    for n, ns in kb.names.items():
        if n in allowed:
            continue
        for s in ns:
            k = norm_name(s)
            if len(k) >= 2 and k in qn and k not in norm_name(name):
                raise GoldError(f"{qid}: the question also names {n} ({s!r}); list it in mentions_ok if meant")


def gold_for(kb: Films, q: dict) -> dict:
    m = q["meaning"]
    check_names(kb, q)
    kind = m["kind"]
    if kind in ("unknown_name", "ambiguous"):
        return {"decision": "refuse", "answer": None, "path": [], "factors": ["missing_start_node"]}
    if kind == "misspelt_name":
        return {"decision": "refuse", "answer": None, "path": [], "factors": ["node_alias_unmapped"]}
    for st in m["steps"]:
        if st["dir"] not in ("fwd", "inv"):
            raise GoldError(f"{q['id']}: bad dir {st['dir']!r}")
    if m["asked_class"] is not None and m["asked_class"] not in kb.classes:
        raise GoldError(f"{q['id']}: unknown asked_class {m['asked_class']!r}")
    limit = m["hop_limit"] or DEFAULT_LIMIT
    node, path = m["start"], []
    for i, st in enumerate(m["steps"]):
        if i >= limit:
            return {"decision": "max_hops", "answer": None, "path": path, "factors": ["hop_limit_exceeded"]}
        cands = kb.step_edges(node, st["rel"], st["dir"])
        if not cands:  # None: not in the ontology; []: no such edge
            return {"decision": "refuse", "answer": None, "path": path, "factors": ["missing_edge"]}
        if len(cands) > 1:
            raise GoldError(
                f"{q['id']}: step {i} ({st['rel']} {st['dir']}) from {node} has several edges: "
                f"{[c['edge_id'] for c in cands]}"
            )
        e = cands[0]
        path.append(hop(e))
        if not kb.grounded(e):
            return {"decision": "refuse", "answer": None, "path": path, "factors": ["ungrounded_hop"]}
        node = e["dst"] if e["src"] == node else e["src"]
    asked = m["asked_class"]
    if asked and not kb.is_a(kb.nodes[node]["class"], asked):
        return {"decision": "refuse", "answer": None, "path": path, "factors": ["missing_edge"]}
    return {"decision": "answer", "answer": node, "path": path, "factors": []}


def build(folder: Path, config: dict, verbose: bool = False) -> str:
    """questions.jsonl of the films set, from its spec.jsonl."""
    kb = Films(DATA)
    spec = [
        json.loads(line) for line in (folder / "spec.jsonl").read_text(encoding="utf-8").splitlines() if line.strip()
    ]
    ids = [q["id"] for q in spec]
    if len(set(ids)) != len(ids):
        raise SystemExit("duplicate ids")
    out, errors = [], []
    for q in spec:
        try:
            exp = gold_for(kb, q)
            want_dec, want_factor = KIND_OUTCOME[q["meaning"]["kind"]]
            if exp["decision"] != want_dec or (want_factor and exp["factors"] != [want_factor]):
                raise GoldError(
                    f"{q['id']}: computed {exp['decision']} {exp['factors']}, but the kind "
                    f"{q['meaning']['kind']!r} means {want_dec} {want_factor}"
                )
        except GoldError as err:
            errors.append(str(err))
            continue
        out.append({"id": q["id"], "question": q["question"], "lang": q["lang"], "expected": exp})
        if verbose:
            p = " ".join(f"{h['src']}-{h['rel']}->{h['dst']}" for h in exp["path"])
            print(f"{q['id']} {q['lang']} {exp['decision']:8} {str(exp['answer']):15} {exp['factors']} {p}")
    if errors:
        raise SystemExit("\n".join(errors))
    c = Counter((r["expected"]["decision"], r["lang"]) for r in out)
    for dec in ("answer", "refuse", "max_hops"):
        print(f"  {dec:9} ko={c[(dec, 'ko')]:3} en={c[(dec, 'en')]:3}")
    return "".join(json.dumps(r, ensure_ascii=False) + "\n" for r in out)
