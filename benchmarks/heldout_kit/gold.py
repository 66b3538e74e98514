"""The shared gold rules of the held-out sets: gold answers computed from the bundled example tables.

A held-out set holds only its questions, each with its *meaning* (start name as written, relation chain with
directions, asked class, hop limit, or page filter conditions): sets 3 to 8 in ``spec.jsonl`` (see ``read_spec``),
sets 9 and 10 in their own ``build.py``. This module walks the CSV tables (csv + networkx) and reads the
ontologies (rdflib, class hierarchies and relation names only) to turn a meaning into the gold outcome, and writes
the set's ``questions.jsonl``. It never imports ``ont_platform``: the gold must not come from the code it
measures. Sets from 3 on share these rules (set 2 has its own variant, ``gold_set2``).

Gold rules
----------
kg / films (hop_decision contract)
  * The start name is resolved by an exact match (NFKC, case, spaces, hyphens and underscores ignored) on a
    node's label or alias. No match -> refuse (factor ``node_alias_unmapped`` when the name is at most two
    letters -- Hangul counted as jamo -- from a label/alias, else ``missing_start_node``). A name that
    resolves to several nodes (films: 청하 is a film and a city) is walked from every one of them.
  * A relation the ontology does not define (salary, budget, weather ...) or no usable start at all
    (chit-chat, an ambiguous "tell me about X") -> refuse.
  * Hops are walked one by one; before hop i (from 0), i >= hop limit (3, or what the question states)
    -> ``max_hops``. Each step follows the stored edges of the named relation(s), forwards or backwards
    (symmetric relations both ways); a step may carry a class filter for the nodes it reaches
    ("the *companies* in Seoul"). A hop counts only if it is grounded: ``grounded=true``, its chunk exists,
    and the chunk text names both ends by label or alias. A step with no grounded edge -> refuse
    (``ungrounded_hop`` if some edge exists but is not grounded, else ``missing_edge``).
  * Last node: the asked class (subclasses count) filters the final set. If nothing is left and the last
    relation is part of ``within`` (a place within a place: kg locatedIn/partOf, films basedIn/heldIn/
    locatedIn), ``within`` is followed again, hop by hop, within the hop limit, until nodes of the asked
    class are reached ("which country is the company in" over locatedIn -> city -> country). Any other
    relation is never extended by a hidden hop: asking for a country over ``bornIn`` -> refuse.
  * Otherwise the gold is the final node set (``gold_kind`` ``answer`` for one node, ``multi`` for several).
onchain (onchain_answer contract)
  * Nodes are resolved by id (case ignored), address (case ignored) or label (spacing ignored).
  * path questions: BFS over ``transfer`` edges (directed) from the start, within the hop limit the question
    names (default 3). Reached -> ``path_exists`` with the shortest length and the set of end nodes at that
    length; otherwise ``no_path`` (a decline). A start not in the graph -> decline.
  * cluster questions: the connected component over ``same_entity`` links, minus the start (empty -> decline).
  * label questions: the node's ``onto_class``.
  * questions the graph cannot answer (owners, balances, prices, gas) -> decline.
pages (page_filter_result contract)
  * ``ran`` questions: the conditions are applied in Python to pages.csv (an empty cell never matches);
    relative dates are resolved against ``as_of`` in meta.json (``Pages.date_of``). Gold = the set of matching
    URLs.
  * decline questions: ``clarify`` (no measure named, vague measure, ``or``, impossible date, a percentage on
    a count, a number with no column ...) or ``unsupported`` (a concept with no column, ranking,
    aggregation; build checks that no column or column label names the concept).
"""

from __future__ import annotations

import csv
import datetime as dt
import json
import re
import unicodedata
from collections import Counter
from pathlib import Path

import networkx as nx
from rdflib import OWL, RDF, RDFS, Graph, URIRef
from rdflib.namespace import SKOS

ROOT = Path(__file__).resolve().parents[2]
EX = ROOT / "examples"
MAX_HOPS_KG = 3  # docs: default hop limit
DEFAULT_HOPS_ONCHAIN = 3  # docs/limits.md: default_hops
HANGUL = re.compile(r"[\uac00-\ud7a3\u3131-\u318e]")


def norm(s: str) -> str:
    return re.sub(r"[\s\-_]+", "", unicodedata.normalize("NFKC", s)).lower()


def jamo(s: str) -> str:
    """Hangul syllables decomposed into their letters (NFD), so that one jamo counts as one letter."""
    return unicodedata.normalize("NFD", s)


def read_csv(path: Path) -> list[dict[str, str]]:
    with path.open(encoding="utf-8", newline="") as fh:
        return list(csv.DictReader(fh))


def lev(a: str, b: str) -> int:
    prev = list(range(len(b) + 1))
    for i, ca in enumerate(a, 1):
        cur = [i]
        for j, cb in enumerate(b, 1):
            cur.append(min(prev[j] + 1, cur[j - 1] + 1, prev[j - 1] + (ca != cb)))
        prev = cur
    return prev[-1]


def lang_of(q: str) -> str:
    return "ko" if HANGUL.search(q) else "en"


def item(domain: str, i: int, q: str, kind: str, gold_kind: str, gold: dict) -> dict:
    """One line of questions.jsonl (entity questions add their ``meaning``)."""
    return {
        "id": f"{domain}_{i:03d}",
        "domain": domain,
        "lang": lang_of(q),
        "question": q,
        "kind": kind,
        "gold_kind": gold_kind,
        "gold": gold,
    }


def ancestors(parents: dict[str, set[str]], cls: str) -> set[str]:
    """``cls`` and every class above it."""
    out, todo = {cls}, [cls]
    while todo:
        for p in parents.get(todo.pop(), ()):
            if p not in out:
                out.add(p)
                todo.append(p)
    return out


# ---------------------------------------------------------------------------------------------------------
# entity graphs (kg, films)


class EntityGraph:
    """Nodes, edges and chunks of a kg-format folder, with the class hierarchy of its ontology."""

    norm = staticmethod(norm)  # how a chunk is read for grounding (set 2 ignores only spacing and case)

    def __init__(self, folder: Path, ontology: Path, ns: str, groups: dict[str, set[str]], symmetric: set[str]) -> None:
        self.nodes = {r["node_id"]: r for r in read_csv(folder / "kg_nodes.csv")}
        self.edges = read_csv(folder / "kg_edges.csv")
        self.chunks = {r["chunk_id"]: r["text"] for r in read_csv(folder / "kg_chunks.csv")}
        self.names: dict[str, list[str]] = {}
        for nid, r in self.nodes.items():
            self.names[nid] = [r["label"]] + [a for a in (r.get("aliases") or "").split("|") if a.strip()]
        g = Graph().parse(ontology)
        self.props = {str(s)[len(ns) :] for s in g.subjects(RDF.type, OWL.ObjectProperty) if str(s).startswith(ns)}
        self.classes = {str(s)[len(ns) :] for s in g.subjects(RDF.type, OWL.Class) if str(s).startswith(ns)}
        parents: dict[str, set[str]] = {}
        for s, o in g.subject_objects(RDFS.subClassOf):
            if str(s).startswith(ns) and isinstance(o, URIRef) and str(o).startswith(ns):
                parents.setdefault(str(s)[len(ns) :], set()).add(str(o)[len(ns) :])
        self.parents = parents
        self.groups = groups
        self.symmetric = symmetric
        stored = {e["rel"] for e in self.edges}
        for rel in stored:
            assert rel in self.props, f"{rel} not in ontology"
        for name, rels in groups.items():
            assert name in self.props and rels <= stored, (name, rels - stored)

    def supers(self, cls: str) -> set[str]:
        return ancestors(self.parents, cls)

    def is_a(self, nid: str, cls: str) -> bool:
        return cls in self.supers(self.nodes[nid]["class"])

    def resolve(self, surface: str) -> set[str]:
        n = norm(surface)
        return {nid for nid, names in self.names.items() if any(n == norm(x) for x in names)}

    def distance(self, surface: str) -> int:
        n = jamo(norm(surface))
        return min(lev(n, jamo(norm(x))) for names in self.names.values() for x in names)

    def grounded(self, e: dict[str, str]) -> bool:
        if e["grounded"].strip().lower() != "true" or e["chunk_id"] not in self.chunks:
            return False
        text = self.norm(self.chunks[e["chunk_id"]])
        return all(any(self.norm(x) in text for x in self.names[end]) for end in (e["src"], e["dst"]))

    def step(self, current: set[str], rel: str, direction: str) -> tuple[set[str], bool, list[str]]:
        """Grounded targets of one step, whether any edge of the step exists, and the grounded edge ids."""
        rels = self.groups.get(rel, {rel})
        nxt: set[str] = set()
        any_edge = False
        used: list[str] = []
        for e in self.edges:
            if e["rel"] not in rels:
                continue
            both = e["rel"] in self.symmetric
            pairs = []
            if direction == ">" or both:
                pairs.append((e["src"], e["dst"]))
            if direction == "<" or both:
                pairs.append((e["dst"], e["src"]))
            for a, b in pairs:
                if a in current:
                    any_edge = True
                    if self.grounded(e):
                        nxt.add(b)
                        used.append(e["edge_id"])
        return nxt, any_edge, used

    def in_within(self, rel: str) -> bool:
        return rel == "within" or rel in self.groups.get("within", set())

    def gold(self, spec: dict) -> dict:
        start = spec.get("start")
        chain = spec.get("chain") or []
        limit = spec.get("limit") or MAX_HOPS_KG
        if start is None:
            return {"decision": "refuse", "why": spec.get("why", "no entity named")}
        cur = self.resolve(start)
        if not cur:
            factor = "node_alias_unmapped" if self.distance(start) <= 2 else "missing_start_node"
            return {"decision": "refuse", "factor": factor, "why": f"'{start}' matches no label or alias"}
        for step in chain:
            if step[0].startswith("NOT_IN_ONTOLOGY:"):
                name = step[0].split(":", 1)[1]
                assert name not in self.props, name
                return {"decision": "refuse", "why": f"relation '{name}' is not in the ontology"}
            assert step[0] in self.props, step
        cls = spec.get("cls")
        if cls:
            assert cls in self.classes, cls
        edges: list[list[str]] = []
        hops = 0
        for i, step in enumerate(chain):
            rel, direction = step[0], step[1]
            if i >= limit:
                return {
                    "decision": "max_hops",
                    "factor": "hop_limit_exceeded",
                    "why": f"{len(chain)} hops > limit {limit}",
                    "edges": edges,
                }
            nxt, any_edge, used = self.step(cur, rel, direction)
            if len(step) > 2:  # a class filter on the nodes this step reaches
                nxt = {n for n in nxt if self.is_a(n, step[2])}
            if not nxt:
                factor = "ungrounded_hop" if any_edge else "missing_edge"
                return {
                    "decision": "refuse",
                    "factor": factor,
                    "why": f"hop {i + 1} ({rel}{direction}) has no grounded edge",
                    "edges": edges,
                }
            edges.append(used)
            cur = nxt
            hops += 1
        if cls:
            hit = {n for n in cur if self.is_a(n, cls)}
            last = chain[-1] if chain else None
            while not hit and last and last[1] == ">" and self.in_within(last[0]):
                if hops >= limit:
                    return {
                        "decision": "max_hops",
                        "factor": "hop_limit_exceeded",
                        "why": f"no {cls} within {limit} hops (within followed)",
                        "edges": edges,
                    }
                nxt, _, used = self.step(cur, "within", ">")
                if not nxt:
                    break
                edges.append(used)
                cur, hops = nxt, hops + 1
                hit = {n for n in cur if self.is_a(n, cls)}
            if not hit:
                return {"decision": "refuse", "factor": "missing_edge", "why": f"no {cls} at the end", "edges": edges}
            cur = hit
        return {"decision": "answer", "answer": sorted(cur), "hops": hops, "edges": edges}


def entity_questions(domain: str, eg: EntityGraph, specs: list[dict]) -> list[dict]:
    out = []
    for i, s in enumerate(specs, 1):
        q = s["q"]
        if s.get("start"):
            assert s["start"] in q, (q, s["start"])
        gold = eg.gold(s)
        if gold["decision"] == "answer":
            gk = "answer" if len(gold["answer"]) == 1 else "multi"
        else:
            gk = "decline"
        if "expect" in s:  # a sanity check on what the writer meant, never the source of the gold
            assert (gk == "decline") == (s["expect"] == "decline"), (q, gold)
        meaning = {
            "start": s.get("start"),
            "chain": ["".join(c) for c in s.get("chain") or []],
            "cls": s.get("cls"),
            "limit": s.get("limit") or MAX_HOPS_KG,
        }
        out.append({**item(domain, i, q, s["kind"], gk, gold), "meaning": meaning})
    return out


F, B = ">", "<"  # forward along the stored edge, backward
A, D = "answer", "decline"


def S(
    q: str,
    start: str | None,
    chain: list[tuple] | None,
    kind: str,
    expect: str,
    cls: str | None = None,
    limit: int | None = None,
    why: str | None = None,
) -> dict:
    return {
        "q": q,
        "start": start,
        "chain": chain,
        "kind": kind,
        "cls": cls,
        "limit": limit,
        "expect": expect,
        "why": why,
    }


def NOT(name: str) -> list[tuple]:
    return [("NOT_IN_ONTOLOGY:" + name, F)]


# ---------------------------------------------------------------------------------------------------------
# onchain


class Onchain:
    def __init__(self) -> None:
        d = EX / "onchain"
        self.nodes = {r["node_id"]: r for r in read_csv(d / "onchain_nodes.csv")}
        self.edges = read_csv(d / "onchain_edges.csv")
        self.g = nx.DiGraph()
        self.g.add_nodes_from(self.nodes)
        self.same = nx.Graph()
        self.same.add_nodes_from(self.nodes)
        for e in self.edges:
            if e["rel"] == "transfer":
                self.g.add_edge(e["from"], e["to"])
            elif e["rel"] == "same_entity":
                self.same.add_edge(e["from"], e["to"])
        ns = "https://w3id.org/ont-platform/onchain#"
        og = Graph().parse(ROOT / "ontologies" / "onchain.ttl")
        self.parents: dict[str, set[str]] = {}
        for s, o in og.subject_objects(RDFS.subClassOf):
            if str(s).startswith(ns) and str(o).startswith(ns):
                self.parents.setdefault(str(s)[len(ns) :], set()).add(str(o)[len(ns) :])
        self.classes = {str(s)[len(ns) :] for s in og.subjects(RDF.type, OWL.Class) if str(s).startswith(ns)}

    def supers(self, cls: str) -> set[str]:
        return ancestors(self.parents, cls)

    def resolve(self, surface: str) -> str | None:
        n, raw = norm(surface), surface.strip().lower()
        hits = {
            nid
            for nid, r in self.nodes.items()
            if raw == nid.lower() or n == norm(r.get("label") or "") or raw == r["address"].lower()
        }
        assert len(hits) <= 1, (surface, hits)
        return next(iter(hits), None)

    def gold(self, s: dict) -> dict:
        t = s["type"]
        if t == "decline":
            return {"intent": None, "refuse": True, "why": s["why"]}
        start = self.resolve(s["start"])
        if start is None:
            return {"intent": None, "refuse": True, "why": f"node '{s['start']}' is not in the graph"}
        if t == "label":
            return {"intent": "label_lookup", "node": start, "class": self.nodes[start]["onto_class"]}
        if t == "cluster":
            members = sorted(nx.node_connected_component(self.same, start) - {start})
            return {"intent": "cluster_lookup", "start": start, "members": members}
        assert t == "path"
        hops = s.get("hops") or DEFAULT_HOPS_ONCHAIN
        if "target_class" in s:
            cls = s["target_class"]
            assert cls in self.classes, cls
            targets = {n for n, r in self.nodes.items() if cls in self.supers(r["onto_class"])}
        else:
            tn = self.resolve(s["target"])
            assert tn is not None, s
            targets = {tn}
        targets.discard(start)
        dist = nx.single_source_shortest_path_length(self.g, start, cutoff=hops)
        reach = {n: d for n, d in dist.items() if n in targets and d > 0}
        if not reach:
            return {
                "intent": "no_path",
                "start": start,
                "hops": hops,
                "target": s.get("target_class") or s.get("target"),
            }
        best = min(reach.values())
        return {
            "intent": "path_exists",
            "start": start,
            "hops": hops,
            "length": best,
            "end_nodes": sorted(n for n, d in reach.items() if d == best),
        }


def P(
    q: str,
    start: str,
    expect: str,
    kind: str = "path",
    hops: int | None = None,
    cls: str | None = None,
    target: str | None = None,
) -> dict:
    d: dict = {"q": q, "type": "path", "start": start, "kind": kind, "expect": expect, "hops": hops}
    if cls:
        d["target_class"] = cls
    if target:
        d["target"] = target
    return d


def C(q: str, start: str, expect: str, kind: str = "cluster") -> dict:
    return {"q": q, "type": "cluster", "start": start, "kind": kind, "expect": expect}


def L(q: str, start: str, kind: str = "label") -> dict:
    return {"q": q, "type": "label", "start": start, "kind": kind, "expect": A}


def X(q: str, kind: str, why: str, start: str | None = None) -> dict:
    """A question the graph cannot answer (owner, balance, price ...). start, if given, must be in the graph."""
    return {"q": q, "type": "decline", "kind": kind, "why": why, "expect": D, "named": start}


def onchain_questions(oc: Onchain, specs: list[dict], *, multi: bool = True) -> list[dict]:
    """The onchain items; ``multi=False`` (set 2) calls every answer gold ``answer``, however many nodes it has."""
    out = []
    for i, s in enumerate(specs, 1):
        q = s["q"]
        if s.get("start"):
            assert s["start"] in q, (q, s["start"])
        if s.get("named"):
            assert s["named"] in q and oc.resolve(s["named"]), s
        if s.get("target") and s["type"] == "path":
            assert s["target"] in q, (q, s["target"])
        gold = oc.gold(s)
        if s.get("decline"):  # set 2: a question naming a node the graph must not have
            assert gold.get("refuse"), (q, gold)
        if (
            gold.get("refuse")
            or gold["intent"] == "no_path"
            or (gold["intent"] == "cluster_lookup" and not gold["members"])
        ):
            gk = "decline"
        elif multi:
            gk = "answer" if len(gold.get("members") or gold.get("end_nodes") or [1]) == 1 else "multi"
        else:
            gk = "answer"
        if "expect" in s:
            assert (gk == "decline") == (s["expect"] == D), (q, gold)
        out.append(item("onchain", i, q, s["kind"], gk, gold))
    return out


# ---------------------------------------------------------------------------------------------------------
# pages


class Pages:
    INT = {"impressions_30d", "clicks_30d", "sessions_30d"}
    DEC = {"ctr_30d", "bounce_rate_30d"}
    DATE = {"published_at", "updated_at"}

    def __init__(self) -> None:
        d = EX / "pages"
        self.rows = read_csv(d / "pages.csv")
        self.as_of = dt.date.fromisoformat(json.loads((d / "meta.json").read_text())["as_of"])
        self.columns = set(self.rows[0]) - {"url"}
        assert self.columns == self.INT | self.DEC | self.DATE, self.columns
        words = set()
        og = Graph().parse(ROOT / "ontologies" / "pages.ttl")
        ns = "https://w3id.org/ont-platform/pages#"
        for c in self.columns:
            for p in (RDFS.label, SKOS.altLabel):
                words |= {norm(str(o)) for o in og.objects(URIRef(ns + c), p)}
        for r in read_csv(d / "columns.csv"):
            words |= {norm(r["column"]), norm(r["label_ko"])} | {norm(a) for a in r["aliases"].split("|")}
        self.column_words = words

    def year(self, offset: int = 0) -> tuple[dt.date, dt.date]:
        y = self.as_of.year + offset
        return dt.date(y, 1, 1), dt.date(y, 12, 31)

    def last_month(self) -> tuple[dt.date, dt.date]:
        last_prev = self.as_of.replace(day=1) - dt.timedelta(days=1)
        return last_prev.replace(day=1), last_prev

    def years_ago(self, n: int) -> dt.date:
        return self.as_of.replace(year=self.as_of.year - n)

    DATE_TOKEN = re.compile(r"as_of(?:-(\d+)([dy]))?|year([+-]\d+)/(\d\d)-(\d\d)|month([+-]\d+)/(01|last)")

    def date_of(self, token: str) -> dt.date:
        """A date of a spec: ``2025-06-30`` as written, or relative to ``as_of``.

        ``as_of``; ``as_of-30d`` / ``as_of-2y`` (30 days / 2 years before it); ``year-1/03-31`` (31 March of the
        year before as_of's); ``month-1/01`` / ``month-1/last`` (first / last day of the month before as_of's;
        ``month+0/01`` is the first day of its own month).
        """
        m = self.DATE_TOKEN.fullmatch(token)
        if m is None:
            return dt.date.fromisoformat(token)
        n, unit, year, mm, dd, month, day = m.groups()
        if year is not None:
            return dt.date(self.as_of.year + int(year), int(mm), int(dd))
        if month is not None:
            y, m0 = divmod(self.as_of.year * 12 + self.as_of.month - 1 + int(month), 12)
            first = dt.date(y, m0 + 1, 1)
            if day == "01":
                return first
            y, m0 = divmod(y * 12 + m0 + 1, 12)
            return dt.date(y, m0 + 1, 1) - dt.timedelta(days=1)
        if n is None:
            return self.as_of
        return self.years_ago(int(n)) if unit == "y" else self.as_of - dt.timedelta(days=int(n))

    def value(self, col: str, cell: str):
        if col in self.INT:
            return int(cell)
        if col in self.DEC:
            return float(cell)
        return dt.date.fromisoformat(cell)

    def match(self, conds: list[tuple[str, str, object]]) -> list[str]:
        ops = {
            "=": lambda a, b: a == b,
            "!=": lambda a, b: a != b,
            "<": lambda a, b: a < b,
            "<=": lambda a, b: a <= b,
            ">": lambda a, b: a > b,
            ">=": lambda a, b: a >= b,
        }
        out = []
        for r in self.rows:
            ok = True
            for col, op, val in conds:
                assert col in self.columns, col
                if r[col].strip() == "" or not ops[op](self.value(col, r[col]), val):
                    ok = False
                    break
            if ok:
                out.append(r["url"])
        return sorted(out)


IMP, CLK, CTR, SES, BR, PUB, UPD = (
    "impressions_30d",
    "clicks_30d",
    "ctr_30d",
    "sessions_30d",
    "bounce_rate_30d",
    "published_at",
    "updated_at",
)


def pages_questions(pg: Pages, specs: list[dict]) -> list[dict]:
    out = []
    for i, s in enumerate(specs, 1):
        q = s["q"]
        if "conds" in s:
            urls = pg.match(s["conds"])
            gold = {"status": "ran", "urls": urls, "filter": " AND ".join(f"{c} {o} {v}" for c, o, v in s["conds"])}
            gk = "answer"
        else:
            if s.get("concept"):
                assert norm(s["concept"]) not in pg.column_words, s["concept"]
            gold = {"status": s["status"]}
            gk = "decline"
        out.append(item("pages", i, q, s["kind"], gk, gold))
    return out


# ---------------------------------------------------------------------------------------------------------


def kg_graph(cls: type[EntityGraph] = EntityGraph) -> EntityGraph:
    return cls(
        EX / "kg",
        ROOT / "ontologies" / "kg.ttl",
        "https://w3id.org/ont-platform/kg#",
        groups={"within": {"locatedIn", "partOf"}},
        symmetric=set(),
    )


def films_graph(cls: type[EntityGraph] = EntityGraph) -> EntityGraph:
    return cls(
        EX / "films",
        EX / "films" / "ontology.ttl",
        "https://example.org/films#",
        groups={"within": {"basedIn", "heldIn", "locatedIn"}},
        symmetric={"collaboratedWith"},
    )


DOMAINS = ("kg", "onchain", "pages", "films")


def make_items(
    kg_specs: list[dict], onchain_specs: list[dict], pages_specs: list[dict], films_specs: list[dict]
) -> list[dict]:
    """Every question of a set with its computed gold, in the order kg, onchain, pages, films."""
    items = (
        entity_questions("kg", kg_graph(), kg_specs)
        + onchain_questions(Onchain(), onchain_specs)
        + pages_questions(Pages(), pages_specs)
        + entity_questions("films", films_graph(), films_specs)
    )
    assert len({it["question"] for it in items}) == len(items), "duplicate question"
    return items


def jsonl(items: list[dict]) -> str:
    """The text of questions.jsonl: one JSON object a line."""
    return "".join(json.dumps(it, ensure_ascii=False, default=str) + "\n" for it in items)


def summarize(items: list[dict], *, min_n: int, verbose: bool = False) -> None:
    """Print the set's shape (size, English and decline shares) and check it."""
    n = len(items)
    for key in ("domain", "lang", "gold_kind"):
        print(key, dict(Counter(it[key] for it in items)))
    print("per domain x gold_kind", dict(Counter((it["domain"], it["gold_kind"]) for it in items)))
    print("per domain x lang", dict(Counter((it["domain"], it["lang"]) for it in items)))
    en = sum(it["lang"] == "en" for it in items) / n
    dec = sum(it["gold_kind"] == "decline" for it in items) / n
    print(f"english {en:.0%}, decline {dec:.0%}")
    assert n >= min_n and en >= 0.25 and dec >= 0.25
    if verbose:
        for it in items:
            g = {k: v for k, v in it["gold"].items() if k != "edges"}
            print(it["id"], it["gold_kind"], json.dumps(g, ensure_ascii=False, default=str)[:170], "|", it["question"])


def write_set(
    here: Path,
    kg_specs: list[dict],
    onchain_specs: list[dict],
    pages_specs: list[dict],
    films_specs: list[dict],
    *,
    verbose: bool = False,
    min_n: int = 150,
) -> list[dict]:
    """Compute every gold, check the set's shape (size, English and decline shares) and write questions.jsonl."""
    items = make_items(kg_specs, onchain_specs, pages_specs, films_specs)
    out = here / "questions.jsonl"
    out.write_text(jsonl(items), encoding="utf-8")
    print(f"wrote {len(items)} questions to {out}")
    summarize(items, min_n=min_n, verbose=verbose)
    return items


def read_spec(path: Path, pg: Pages) -> dict[str, list[dict]]:
    """The questions of a ``spec.jsonl``, per domain in file order, as the S/P/C/L/X helpers write them.

    One JSON object a line: ``domain`` and the meaning's fields (``q``, ``start``, ``chain`` ... as ``S``, ``P``,
    ``C``, ``L``, ``X`` and the page helpers make them; a field left out is ``None``). A line without ``q`` is a
    section heading (``{"domain": "kg", "section": "answers: one relation"}``) and is skipped. The values of date
    columns in page ``conds`` are read by ``Pages.date_of``, so relative dates stay relative to ``as_of``.
    """
    out: dict[str, list[dict]] = {d: [] for d in DOMAINS}
    for line in path.read_text(encoding="utf-8").splitlines():
        if not line.strip():
            continue
        e = json.loads(line)
        domain = e.pop("domain")
        if "q" not in e:
            continue
        if "conds" in e:
            e["conds"] = [(c, o, pg.date_of(v) if c in pg.DATE else v) for c, o, v in e["conds"]]
        out[domain].append(e)
    return out


def build(folder: Path, config: dict, verbose: bool = False) -> str:
    """questions.jsonl of a set whose questions are in ``folder/spec.jsonl`` (sets 3 to 8)."""
    spec = read_spec(folder / "spec.jsonl", Pages())
    items = make_items(spec["kg"], spec["onchain"], spec["pages"], spec["films"])
    summarize(items, min_n=config.get("min_n", 150), verbose=verbose)
    return jsonl(items)
