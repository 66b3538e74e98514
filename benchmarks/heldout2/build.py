"""Build the second held-out question set (questions.jsonl) with gold answers computed from the example data.

The questions below were written by hand; each one carries its *meaning* (start name as written in the
question, the chain of relations it asks for, the asked class, the hop limit, or the filter conditions).
Every gold answer is then worked out by code from the bundled CSV tables (csv module + networkx) and the
ontologies (rdflib, for class hierarchies and relation names). No answer id is typed by hand.

Gold rules
----------
kg / films (hop_decision contract)
  * The start name is resolved by an exact match (spacing and case ignored) on a node's id, label or alias.
    No match -> refuse (factor ``node_alias_unmapped`` when the name is within a small edit distance of a
    label/alias, else ``missing_start_node``). A name that resolves to several nodes (films: 청하 is a film and
    a city) is walked from every one of them.
  * A chain longer than the hop limit (3) -> ``max_hops``.
  * A relation the ontology does not define (e.g. favourite food, running time) -> refuse.
  * Each step follows the stored edges of the named relation(s), forwards or backwards (symmetric relations
    both ways). A hop counts only if it is grounded: ``grounded=true``, its chunk exists, and the chunk text
    mentions both ends by label or alias (spacing and case ignored). A step with no grounded edge -> refuse
    (``ungrounded_hop`` if some edge exists but is not grounded, else ``missing_edge``).
  * The asked class (with subclasses) filters the final set; nothing left -> refuse.
  * Otherwise the gold is the final node set (``gold_kind`` ``answer`` for one node, ``multi`` for several).
onchain (onchain_answer contract)
  * Nodes are resolved by id (case ignored), normalised address, or label (spacing ignored).
  * path questions: BFS over ``transfer`` edges (directed) from the start, within the hop limit the question
    names (default 3). Reached -> ``path_exists`` with the shortest length and the set of end nodes at that
    length; otherwise ``no_path``. A missing start -> refusal.
  * cluster questions: the connected component over ``same_entity`` links, minus the start.
  * label questions: the node's ``onto_class``.
  * questions the graph cannot answer (owners, balances, prices, gas, no start named) -> refusal.
pages (page_filter_result contract)
  * ``ran`` questions: the conditions are applied in Python to pages.csv (an empty cell never matches);
    relative dates are resolved against ``as_of`` in meta.json. Gold = the set of matching URLs.
  * decline questions: ``clarify`` (vague / no measure / ``or`` / bad date / ...) or ``unsupported``
    (a concept with no column; build checks that no column or column label names it).

Usage: .venv/bin/python benchmarks/heldout2/build.py   (writes questions.jsonl next to this file)
"""

from __future__ import annotations

import csv
import datetime as dt
import json
import re
import sys
from collections import Counter
from pathlib import Path

import networkx as nx
from rdflib import OWL, RDF, RDFS, Graph, URIRef
from rdflib.namespace import SKOS

HERE = Path(__file__).resolve().parent
ROOT = HERE.parents[1]
EX = ROOT / "examples"
MAX_HOPS_KG = 3          # docs: kg hop limit, default 3
DEFAULT_HOPS_ONCHAIN = 3  # docs: default_hops
HANGUL = re.compile(r"[\uac00-\ud7a3\u3131-\u318e]")


def norm(s: str) -> str:
    return re.sub(r"\s+", "", s).lower()


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


# ---------------------------------------------------------------------------------------------------------
# entity graphs (kg, films)


class EntityGraph:
    """Nodes, edges and chunks of a kg-format folder, with the class hierarchy of its ontology."""

    def __init__(self, folder: Path, ontology: Path, ns: str, groups: dict[str, set[str]],
                 symmetric: set[str]) -> None:
        self.nodes = {r["node_id"]: r for r in read_csv(folder / "kg_nodes.csv")}
        self.edges = read_csv(folder / "kg_edges.csv")
        self.chunks = {r["chunk_id"]: r["text"] for r in read_csv(folder / "kg_chunks.csv")}
        self.names: dict[str, list[str]] = {}
        for nid, r in self.nodes.items():
            names = [r["label"]] + [a for a in (r.get("aliases") or "").split("|") if a.strip()]
            self.names[nid] = names
        g = Graph().parse(ontology)
        self.ns = ns
        self.props = {str(s)[len(ns):] for s in g.subjects(RDF.type, OWL.ObjectProperty) if str(s).startswith(ns)}
        parents: dict[str, set[str]] = {}
        for s, o in g.subject_objects(RDFS.subClassOf):
            if str(s).startswith(ns) and isinstance(o, URIRef) and str(o).startswith(ns):
                parents.setdefault(str(s)[len(ns):], set()).add(str(o)[len(ns):])
        self.parents = parents
        self.groups = groups
        self.symmetric = symmetric
        stored = {e["rel"] for e in self.edges}
        for rel in stored:
            assert rel in self.props, f"{rel} not in ontology"
        for name, rels in groups.items():
            assert rels <= stored, (name, rels - stored)

    def supers(self, cls: str) -> set[str]:
        out, todo = {cls}, [cls]
        while todo:
            for p in self.parents.get(todo.pop(), ()):
                if p not in out:
                    out.add(p)
                    todo.append(p)
        return out

    def is_a(self, nid: str, cls: str) -> bool:
        return cls in self.supers(self.nodes[nid]["class"])

    def resolve(self, surface: str) -> set[str]:
        n = norm(surface)
        return {nid for nid, names in self.names.items() if n == norm(nid) or any(n == norm(x) for x in names)}

    def near(self, surface: str) -> bool:
        n = norm(surface)
        for names in self.names.values():
            for x in names:
                if lev(n, norm(x)) <= max(1, len(norm(x)) // 6):
                    return True
        return False

    def grounded(self, e: dict[str, str]) -> bool:
        if e["grounded"].strip().lower() != "true" or e["chunk_id"] not in self.chunks:
            return False
        text = norm(self.chunks[e["chunk_id"]])
        return all(any(norm(x) in text for x in self.names[end]) for end in (e["src"], e["dst"]))

    def step(self, current: set[str], rel: str, direction: str) -> tuple[set[str], bool]:
        """Grounded targets of one step, and whether any (ungrounded) edge of the step exists."""
        rels = self.groups.get(rel, {rel})
        nxt: set[str] = set()
        any_edge = False
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
        return nxt, any_edge

    def gold(self, spec: dict) -> dict:
        start = spec.get("start")
        chain = spec.get("chain") or []
        if start is None:
            return {"decision": "refuse", "why": spec.get("why", "no entity named")}
        for rel, _ in chain:
            if rel.startswith("NOT_IN_ONTOLOGY:"):
                name = rel.split(":", 1)[1]
                assert name not in self.props, name
                return {"decision": "refuse", "why": f"relation '{name}' is not in the ontology"}
            assert rel in self.props or rel in self.groups, rel
        cur = self.resolve(start)
        if not cur:
            factor = "node_alias_unmapped" if self.near(start) else "missing_start_node"
            return {"decision": "refuse", "factor": factor, "why": f"'{start}' matches no label or alias"}
        if len(chain) > MAX_HOPS_KG:
            return {"decision": "max_hops", "factor": "hop_limit_exceeded",
                    "why": f"{len(chain)} hops > limit {MAX_HOPS_KG}"}
        for i, (rel, direction) in enumerate(chain):
            nxt, any_edge = self.step(cur, rel, direction)
            if not nxt:
                factor = "ungrounded_hop" if any_edge else "missing_edge"
                return {"decision": "refuse", "factor": factor, "why": f"hop {i + 1} ({rel}{direction}) has no grounded edge"}
            cur = nxt
        if spec.get("cls"):
            cur = {n for n in cur if self.is_a(n, spec["cls"])}
            if not cur:
                return {"decision": "refuse", "factor": "missing_edge", "why": f"no {spec['cls']} at the end"}
        return {"decision": "answer", "answer": sorted(cur)}


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
        if "expect" in s:  # a sanity check on the spec's intent, never the source of the gold
            assert (gk == "decline") == (s["expect"] == "decline"), (q, gold)
        meaning = {"start": s.get("start"), "chain": ["".join(c) for c in s.get("chain") or []], "cls": s.get("cls")}
        out.append({"id": f"{domain}_{i:03d}", "domain": domain, "lang": lang_of(q), "question": q,
                    "kind": s["kind"], "gold_kind": gk, "gold": gold, "meaning": meaning})
    return out


def S(q: str, start: str | None, chain: list[tuple[str, str]] | None, kind: str, cls: str | None = None,
      expect: str | None = None, why: str | None = None) -> dict:
    d: dict = {"q": q, "start": start, "chain": chain, "kind": kind, "cls": cls}
    if expect:
        d["expect"] = expect
    if why:
        d["why"] = why
    return d


F, B = ">", "<"  # forward along the stored edge, backward

KG_SPECS = [
    # --- answers
    S("홍길동 씨는 어느 회사에 다니세요?", "홍길동", [("worksFor", F)], "one_hop", "Company"),
    S("홍 대표가 일하는 회사 본사는 어느 도시에 있어?", "홍 대표", [("worksFor", F), ("within", F)], "two_hop_alias", "City"),
    S("홍길순 팀장님 회사가 있는 곳이 어디예요?", "홍길순", [("worksFor", F), ("within", F)], "two_hop"),
    S("홍팀장 직장은 어디야", "홍팀장", [("worksFor", F)], "one_hop_alias_spacing"),
    S("김철수 이사가 다니는 회사가 있는 도시는 어느 나라에 속하나요?", "김철수",
      [("worksFor", F), ("within", F), ("within", F)], "three_hop", "Country"),
    S("이민지가 근무하는 회사 사무실은 어디에 있나요?", "이민지", [("worksFor", F), ("within", F)], "two_hop"),
    S("이민지 다니는 회사가 있는 곳은 어느 도시에 속해 있어?", "이민지",
      [("worksFor", F), ("within", F), ("within", F)], "three_hop", "City"),
    S("Where is the company Minji Lee works for located?", "Minji Lee", [("worksFor", F), ("within", F)], "two_hop"),
    S("정하늘 님이 일하시는 재단은 어느 도시에 있나요?", "정하늘", [("worksFor", F), ("within", F)], "two_hop_honorific", "City"),
    S("감마랩스가 인수한 회사는 어디에 있어요?", "감마랩스", [("acquired", F), ("within", F)], "two_hop"),
    S("Which company did Gamma Labs acquire?", "Gamma Labs", [("acquired", F)], "one_hop", "Company"),
    S("엡실론소프트를 사들인 회사가 어디야?", "엡실론소프트", [("acquired", B)], "inverse", "Company"),
    S("윤준호가 창업한 회사는 어디 잇나요?", "윤준호", [("foundedBy", F), ("within", F)], "two_hop"),
    S("Which company did Junho Yoon co-found?", "Junho Yoon", [("foundedBy", F)], "one_hop", "Company"),
    S("에이크미를 세운 사람이 누구예요?", "에이크미", [("foundedBy", B)], "inverse", "Person"),
    S("Who founded ACME Corp?", "ACME Corp", [("foundedBy", B)], "inverse_alias", "Person"),
    S("베타에 다니는 사람은 누구인가요?", "베타", [("worksFor", B)], "inverse", "Person"),
    S("Who works at Gamma Labs?", "Gamma Labs", [("worksFor", B)], "inverse", "Person"),
    S("판교는 어느 도시에 속해잇어?", "판교", [("within", F)], "one_hop", "City"),
    S("성남시는 어느 지역에 속하나요", "성남시", [("within", F)], "one_hop_alias", "Place"),
    S("What country is Busan part of?", "Busan", [("within", F)], "one_hop", "Country"),
    S("Which continent is Japan in?", "Japan", [("within", F)], "one_hop", "Continent"),
    S("델타물산 본사가 있는 도시가 속한 나라는 어느 대륙에 있나요?", "델타물산",
      [("within", F), ("within", F), ("within", F)], "three_hop", "Continent"),
    S("델타 물산은 어느 도시에 있습니까?", "델타 물산", [("within", F)], "one_hop_spacing", "City"),
    S("부산에 본사 둔 회사 어디야?", "부산", [("within", B)], "inverse", "Company"),
    S("Which company is based in Tokyo?", "Tokyo", [("within", B)], "inverse", "Company"),
    S("gildong hong이 다니는 회사 이름 알려줘", "gildong hong", [("worksFor", F)], "one_hop_alias_case"),
    S("안녕하세요~ 이번에 거래처 미팅이 잡혔는데요, 혹시 이민지 씨가 다니는 회사가 어디에 있는지 아세요? "
      "길 찾으려고요 ㅎㅎ", "이민지", [("worksFor", F), ("within", F)], "chatty_two_hop"),
    S("Which city is the HQ of the company Gildong Hong founded?", "Gildong Hong",
      [("foundedBy", F), ("within", F)], "two_hop", "City"),
    S("Where does Haneul Jung work?", "Haneul Jung", [("worksFor", F)], "one_hop"),
    # --- several answers
    S("에이크미에서 일하는 사람들 다 알려주세요", "에이크미", [("worksFor", B)], "inverse_multi", "Person"),
    S("Which countries are part of Asia?", "Asia", [("within", B)], "inverse_multi", "Country"),
    S("서울에 있는 회사는?", "서울", [("within", B)], "inverse_multi", "Company"),
    # --- declines
    S("박지성이 다니는 회사는 어디에 있나요?", "박지성", [("worksFor", F), ("within", F)], "missing_start", expect="decline"),
    S("Where does John Smith work?", "John Smith", [("worksFor", F)], "missing_start", expect="decline"),
    S("홍길똥이 다니는 회사 어디야?", "홍길똥", [("worksFor", F)], "typo", expect="decline"),
    S("이민주가 일하는 회사는?", "이민주", [("worksFor", F)], "typo", expect="decline"),
    S("Which company did Gama Labs acquire?", "Gama Labs", [("acquired", F)], "typo", expect="decline"),
    S("홍 부장이 다니는 회사는 어느 도시에 있지?", "홍 부장", [("worksFor", F), ("within", F)], "near_alias", expect="decline"),
    S("윤준호 씨 직장은 어디예요?", "윤준호", [("worksFor", F)], "missing_edge", expect="decline"),
    S("최수진 씨가 다니는 회사가 어디 있는지 알려주세요", "최수진", [("worksFor", F), ("within", F)], "ungrounded", expect="decline"),
    S("Which company did Delta Trading acquire?", "Delta Trading", [("acquired", F)], "ungrounded", expect="decline"),
    S("베타를 인수한 회사는 어디야?", "베타", [("acquired", B)], "ungrounded", expect="decline"),
    S("홍길순이 다니는 회사가 있는 도시가 속한 나라는 어느 대륙에 있어?", "홍길순",
      [("worksFor", F), ("within", F), ("within", F), ("within", F)], "four_hop", "Continent", expect="decline"),
    S("What continent is the country that contains the city where Minji Lee's employer has its office?",
      "Minji Lee", [("worksFor", F), ("within", F), ("within", F), ("within", F)], "four_hop", expect="decline"),
    S("홍길동이 좋아하는 음식이 뭐야?", "홍길동", [("NOT_IN_ONTOLOGY:favoriteFood", F)], "irrelevant", expect="decline"),
    S("How old is Cheolsu Kim?", "Cheolsu Kim", [("NOT_IN_ONTOLOGY:age", F)], "irrelevant", expect="decline"),
    S("에이크미 작년 매출 얼마였어?", "에이크미", [("NOT_IN_ONTOLOGY:revenue", F)], "irrelevant", expect="decline"),
    S("한빛재단이 인수한 회사는?", "한빛재단", [("acquired", F)], "missing_edge_wrong_class", expect="decline"),
    S("Who founded Hanbit Foundation?", "Hanbit Foundation", [("foundedBy", B)], "missing_edge", expect="decline"),
    S("ㅋㅋㅋ 뭐야 이거", None, None, "nonsense", expect="decline", why="nonsense"),
    S("홍씨가 다니는 회사 어디야?", "홍씨", [("worksFor", F)], "ambiguous_name", expect="decline"),
    S("Which city is Minji Lee in?", "Minji Lee", [("within", F)], "wrong_relation_for_class", expect="decline"),
]

FILMS_SPECS = [
    # --- answers
    S("달빛 항구 감독이 누구야?", "달빛 항구", [("directedBy", F)], "one_hop", "Director"),
    S("Who directed Paper Birds?", "Paper Birds", [("directedBy", F)], "one_hop", "Director"),
    S("겨울정거장 만든 제작사는 어디예요?", "겨울정거장", [("producedBy", F)], "one_hop_spacing", "Studio"),
    S("겨울 정거장을 제작한 스튜디오의 본사가 있는 도시는 어느 나라에 있나요?", "겨울 정거장",
      [("producedBy", F), ("within", F), ("within", F)], "three_hop", "Country"),
    S("Which director made the film that Dahye Lee starred in?", "Dahye Lee",
      [("starring", B), ("directedBy", F)], "two_hop_inverse", "Director"),
    S("레아 뒤발이 출연한 영화들의 감독은 누구죠?", "레아 뒤발", [("starring", B), ("directedBy", F)],
      "two_hop_inverse", "Director"),
    S("Where did House of Tides premiere?", "House of Tides", [("premieredIn", F)], "one_hop", "City"),
    S("아홉 번째 여름이 받은 상이 뭐예요?", "아홉 번째 여름", [("wonAward", F)], "one_hop", "Award"),
    S("Which city hosts the festival where the Aoba Audience Award is presented?", "Aoba Audience Award",
      [("presentedAt", F), ("within", F)], "two_hop", "City"),
    S("황금별상을 주는 영화제는 어디서 열려?", "황금별상", [("presentedAt", F), ("within", F)], "two_hop"),
    S("Where is the Festival des Vagues held?", "Festival des Vagues", [("within", F)], "one_hop_alias"),
    S("서민제 배우 고향이 어디에요?", "서민제", [("bornIn", F)], "one_hop_lookalike"),
    S("서민재가 태어난 도시는?", "서민재", [("bornIn", F)], "one_hop_lookalike", "City"),
    S("Which country is Yuna Sato's hometown in?", "Yuna Sato", [("bornIn", F), ("within", F)], "two_hop", "Country"),
    S("클레르 모로와 함께 작업한 감독은 누구인가요?", "클레르 모로", [("collaboratedWith", F)], "symmetric", "Director"),
    S("강은비랑 호흡 맞춘 배우 누구야?", "강은비", [("collaboratedWith", F)], "symmetric", "Actor"),
    S("Which film did Hyejin Yoon appear in?", "Hyejin Yoon", [("starring", B)], "inverse", "Film"),
    S("영화 청하는 어느 제작사가 만들었어?", "청하", [("producedBy", F)], "homonym_film", "Studio"),
    S("청하는 어느 나라에 있는 도시야?", "청하", [("within", F)], "homonym_city", "Country"),
    S("붉은 선 연출한 사람 누구임?", "붉은 선", [("directedBy", F)], "one_hop_casual"),
    S("Where was the director of Winter Station born?", "Winter Station", [("directedBy", F), ("bornIn", F)], "two_hop"),
    S("그랑 바그상 받은 영화 감독이 누구예요?", "그랑 바그상", [("wonAward", B), ("directedBy", F)], "two_hop_inverse"),
    S("안녕하세요! 주말에 영화 보려고 하는데요, 종이새 제작사가 어디였는지 기억이 안 나서요. 어디서 만든 영화예요?",
      "종이새", [("producedBy", F)], "chatty_one_hop", "Studio"),
    # --- several answers
    S("한지우 감독이 연출한 영화 전부 알려줘", "한지우", [("directedBy", B)], "inverse_multi", "Film"),
    S("Who starred in The Glass Garden?", "The Glass Garden", [("starring", F)], "one_hop_multi", "Actor"),
    # --- declines
    S("유리 정원이 받은 상은 뭐야?", "유리 정원", [("wonAward", F)], "ungrounded", expect="decline"),
    S("Which city did The Red Line premiere in?", "The Red Line", [("premieredIn", F)], "ungrounded", expect="decline"),
    S("박도현 감독은 어디 출신이에요?", "박도현", [("bornIn", F)], "missing_edge", expect="decline"),
    S("Where is Hanul Cinema headquartered?", "Hanul Cinema", [("within", F)], "missing_edge", expect="decline"),
    S("한지우가 출연한 영화가 뭐야?", "한지우", [("starring", B)], "missing_edge_wrong_role", expect="decline"),
    S("봉준호가 연출한 영화는?", "봉준호", [("directedBy", B)], "missing_start", expect="decline"),
    S("Who directed Moonlit Harbour?", "Moonlit Harbour", [("directedBy", F)], "typo", expect="decline"),
    S("한지오 감독이 연출한 작품 뭐 있어?", "한지오", [("directedBy", B)], "typo", expect="decline"),
    S("Who composed the music for Paper Birds?", "Paper Birds", [("NOT_IN_ONTOLOGY:scoredBy", F)], "irrelevant", expect="decline"),
    S("달빛 항구 러닝타임 몇 분이야?", "달빛 항구", [("NOT_IN_ONTOLOGY:runningTime", F)], "irrelevant", expect="decline"),
    S("달빛 항구가 받은 상을 주는 영화제가 열리는 도시는 어느 나라에 있어?", "달빛 항구",
      [("wonAward", F), ("presentedAt", F), ("within", F), ("within", F)], "four_hop", "Country", expect="decline"),
    S("In which country is the city hosting the festival that presents the award won by Winter Station?",
      "Winter Station", [("wonAward", F), ("presentedAt", F), ("within", F), ("within", F)], "four_hop", expect="decline"),
    S("윤세하 감독이랑 같이 작업한 사람 있어?", "윤세하", [("collaboratedWith", F)], "ungrounded", expect="decline"),
]

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
                self.parents.setdefault(str(s)[len(ns):], set()).add(str(o)[len(ns):])
        self.classes = {str(s)[len(ns):] for s in og.subjects(RDF.type, OWL.Class) if str(s).startswith(ns)}

    def supers(self, cls: str) -> set[str]:
        out, todo = {cls}, [cls]
        while todo:
            for p in self.parents.get(todo.pop(), ()):
                if p not in out:
                    out.add(p)
                    todo.append(p)
        return out

    def resolve(self, surface: str) -> str | None:
        n = norm(surface)
        hits = {nid for nid, r in self.nodes.items()
                if n == nid.lower() or n == norm(r.get("label") or "")
                or (len(r["address"]) == 42 and n == r["address"].lower())}
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
        hops = s.get("hops", DEFAULT_HOPS_ONCHAIN)
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
            return {"intent": "no_path", "start": start, "hops": hops, "target": s.get("target_class") or s.get("target")}
        best = min(reach.values())
        return {"intent": "path_exists", "start": start, "hops": hops, "length": best,
                "end_nodes": sorted(n for n, d in reach.items() if d == best)}


def P(q: str, start: str, kind: str, hops: int | None = None, cls: str | None = None, target: str | None = None) -> dict:
    d: dict = {"q": q, "type": "path", "start": start, "kind": kind}
    if hops is not None:
        d["hops"] = hops
    if cls:
        d["target_class"] = cls
    if target:
        d["target"] = target
    return d


def C(q: str, start: str, kind: str = "cluster") -> dict:
    return {"q": q, "type": "cluster", "start": start, "kind": kind}


def L(q: str, start: str, kind: str = "label") -> dict:
    return {"q": q, "type": "label", "start": start, "kind": kind}


def D(q: str, kind: str, why: str, start: str | None = None) -> dict:
    """A question the graph cannot answer. If start is given, build checks whether it exists."""
    if start is not None:
        return {"q": q, "type": "path", "start": start, "kind": kind, "target_class": "Exchange", "_decl": why}
    return {"q": q, "type": "decline", "kind": kind, "why": why}


ONCHAIN_SPECS = [
    # --- paths that exist
    P("n_b2 에서 브리지로 돈이 넘어간 적 있어?", "n_b2", "path_class", cls="Bridge"),
    P("n_w9 지갑에서 3홉 이내로 거래소 입금주소에 닿나요?", "n_w9", "path_class", 3, "ExchangeDeposit"),
    P("Can funds from n_ct1 reach a DEX within 2 hops?", "n_ct1", "path_class", 2, "Dex"),
    P("n_hot1에서 6홉 안에 믹서까지 가는 경로가 있나요?", "n_hot1", "path_class_long", 6, "Mixer"),
    P("Does n_w2 send money to an exchange hot wallet within 3 hops?", "n_w2", "path_class", 3, "ExchangeHotWallet"),
    P("믹서 n_mx1에서 나간 돈이 거래소 핫월렛까지 3홉 안에 도착해?", "n_mx1", "path_class", 3, "ExchangeHotWallet"),
    P("n_a1에서 n_hot1까지 자금 흐름 경로 있어요?", "n_a1", "path_node", target="n_hot1"),
    P("Is there a path from n_w6 to n_ex2 within 5 hops?", "n_w6", "path_node_long", 5, target="n_ex2"),
    P("0x67cdaeed96c337b1e4e8d6d0186aa67635aefdb4 주소에서 3-hop 안에 탈중앙화 거래소로 간 돈 있나?",
      "0x67cdaeed96c337b1e4e8d6d0186aa67635aefdb4", "path_by_address", 3, "Dex"),
    P("지갑 W7에서 거래소로 바로 보낸 적 있나요?", "지갑 W7", "path_by_label_one_hop", 1, "Exchange"),
    P("Within 4 hops, does n_w8 reach a mixer?", "n_w8", "path_class", 4, "Mixer"),
    P("N_W1에서 거래소 입금 주소로 송금된 적이 있는지 확인 부탁드립니다", "N_W1", "path_class_case", cls="ExchangeDeposit"),
    P("n_w5에서 4홉 이내로 거래소 입금주소에 닿아?", "n_w5", "path_class", 4, "ExchangeDeposit"),
    P("Did any money from n_w3 end up at a DEX?", "n_w3", "path_class", cls="Dex"),
    P("n_w9에서 컨트랙트로 보낸 거 있어?", "n_w9", "path_class_zero_value", cls="Contract"),
    P("Starting from n_dex1, can funds reach an exchange deposit address within 3 hops?", "n_dex1", "path_class", 3,
      "ExchangeDeposit"),
    P("n_br1에서 출발한 자금이 3홉 안에 거래소에 들어가나요?", "n_br1", "path_superclass", 3, "Exchange"),
    P("혹시 n_h1 지갑에서 나간 돈이 거래소 입금주소로 흘러갔는지 알 수 있을까요? 의심 거래 보고서 쓰는 중이라서요.",
      "n_h1", "chatty_path", cls="ExchangeDeposit"),
    P("What's the shortest route from n_w7 to a bridge?", "n_w7", "path_class", cls="Bridge"),
    # --- no path (the right answer is an empty path)
    P("n_a1에서 3홉 안에 브리지로 가는 길 있어?", "n_a1", "no_path", 3, "Bridge"),
    P("Can n_w3 reach a token contract within 3 hops?", "n_w3", "no_path", 3, "TokenContract"),
    P("n_d4에서 거래소로 돈 보낸 적 있어요?", "n_d4", "no_path_isolated", cls="Exchange"),
    P("n_ex1에서 n_a1로 돈이 되돌아갔나요?", "n_ex1", "no_path_reverse", target="n_a1"),
    P("Does n_w1 reach a marketplace within 6 hops?", "n_w1", "no_path_absent_class", 6, "Marketplace"),
    P("n_hot2에서 2홉 안에 믹서에 닿나?", "n_hot2", "no_path", 2, "Mixer"),
    P("n_c1 에서 2홉 안에 믹서에 닿나요?", "n_c1", "no_path", 2, "Mixer"),
    # --- clusters
    C("n_h1이랑 같은 주인으로 추정되는 지갑들 알려줘", "n_h1"),
    C("Which wallets are believed to belong to the same owner as n_w6?", "n_w6"),
    C("n_w5와 동일 주체로 묶인 주소는?", "n_w5"),
    C("n_w1이랑 n_w9는 서로 돈을 주고받던데 같은 사람 지갑인가요? n_w1과 같은 주체로 추정되는 지갑 있어?", "n_w1",
      "no_cluster_chatty"),
    C("Is n_c1 clustered with any other address?", "n_c1", "no_cluster"),
    # --- labels
    L("n_mx2는 어떤 종류의 주소인가요?", "n_mx2"),
    L("What kind of address is n_br1?", "n_br1"),
    L("0x9df647540d3a6f221fdb2fbe9c2047795f0085d7 이 주소 정체가 뭐야?", "0x9df647540d3a6f221fdb2fbe9c2047795f0085d7",
      "label_by_address"),
    L("n_dex1 클래스 알려주세요", "n_dex1"),
    L("What is the ontology class of n_hot2?", "n_hot2"),
    L("n_badsum 주소 분류가 뭔가요?", "n_badsum", "label_unknown"),
    # --- declines
    D("n_zz9에서 믹서로 가는 경로 있어?", "missing_node", "node not in graph", start="n_zz9"),
    D("Does 0x1111111111111111111111111111111111111111 send funds to an exchange?", "missing_node",
      "address not in graph", start="0x1111111111111111111111111111111111111111"),
    D("n_a11에서 3홉 안에 거래소 닿아?", "typo_node", "node not in graph", start="n_a11"),
    D("n_a1 지갑 주인이 누구예요?", "irrelevant", "owners are not in the graph"),
    D("What is the current ETH balance of n_w3?", "irrelevant", "balances are not in the graph"),
    D("이더리움 시세 지금 얼마야?", "irrelevant", "prices are not in the graph"),
    D("그 주소에서 거래소로 돈 갔어?", "ambiguous_no_start", "no start address named ('그 주소')"),
    D("How much gas did n_a1 pay for its transfers?", "irrelevant", "gas fees are not in the graph"),
    D("n_mx1 믹서 운영하는 사람이 누군지 알 수 있을까요?", "irrelevant", "operators are not in the graph"),
    D("hello, is this thing on?", "nonsense", "no question about the graph"),
]


def onchain_questions(oc: Onchain) -> list[dict]:
    out = []
    for i, s in enumerate(ONCHAIN_SPECS, 1):
        q = s["q"]
        if s.get("start"):
            assert s["start"] in q, (q, s["start"])
        gold = oc.gold(s)
        if "_decl" in s:
            assert gold.get("refuse"), (q, gold)  # the named node must really be missing
        if gold.get("refuse") or gold["intent"] == "no_path" or (gold["intent"] == "cluster_lookup" and not gold["members"]):
            gk = "decline"
        else:
            gk = "answer"
        out.append({"id": f"onchain_{i:03d}", "domain": "onchain", "lang": lang_of(q), "question": q,
                    "kind": s["kind"], "gold_kind": gk, "gold": gold})
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
        # every word that names a column: built-in labels (ontology) + the dataset's columns.csv
        words = set()
        og = Graph().parse(ROOT / "ontologies" / "pages.ttl")
        ns = "https://w3id.org/ont-platform/pages#"
        for c in self.columns:
            for p in (RDFS.label, SKOS.altLabel):
                words |= {norm(str(o)) for o in og.objects(URIRef(ns + c), p)}
        for r in read_csv(d / "columns.csv"):
            words |= {norm(r["column"]), norm(r["label_ko"])} | {norm(a) for a in r["aliases"].split("|")}
        self.column_words = words

    # relative periods, counted from as_of
    def period(self, name: str, **kw) -> tuple[dt.date, dt.date]:
        a = self.as_of
        if name == "year":
            y = a.year + kw.get("offset", 0)
            return dt.date(y, 1, 1), dt.date(y, 12, 31)
        if name == "year_early":
            y = a.year + kw.get("offset", 0)
            return dt.date(y, 1, 1), dt.date(y, 3, 31)
        if name == "half":
            y = a.year + kw.get("offset", 0)
            return (dt.date(y, 1, 1), dt.date(y, 6, 30)) if kw["half"] == 1 else (dt.date(y, 7, 1), dt.date(y, 12, 31))
        if name == "last_month":
            first_this = a.replace(day=1)
            last_prev = first_this - dt.timedelta(days=1)
            return last_prev.replace(day=1), last_prev
        if name == "last_days":
            return a - dt.timedelta(days=kw["n"] - 1), a
        raise ValueError(name)

    def years_ago(self, n: int) -> dt.date:
        return self.as_of.replace(year=self.as_of.year - n)

    def value(self, col: str, cell: str):
        if col in self.INT:
            return int(cell)
        if col in self.DEC:
            return float(cell)
        return dt.date.fromisoformat(cell)

    def match(self, conds: list[tuple[str, str, object]]) -> list[str]:
        ops = {"=": lambda a, b: a == b, "!=": lambda a, b: a != b, "<": lambda a, b: a < b,
               "<=": lambda a, b: a <= b, ">": lambda a, b: a > b, ">=": lambda a, b: a >= b}
        out = []
        for r in self.rows:
            ok = True
            for col, op, val in conds:
                assert col in self.columns, col
                if r[col].strip() == "":
                    ok = False
                    break
                if not ops[op](self.value(col, r[col]), val):
                    ok = False
                    break
            if ok:
                out.append(r["url"])
        return sorted(out)


def pages_specs(pg: Pages) -> list[dict]:
    def R(q, conds, kind="filter"):
        return {"q": q, "conds": conds, "kind": kind}

    def between(col, rng):
        return [(col, ">=", rng[0]), (col, "<=", rng[1])]

    def X(q, status, kind, concept=None):
        return {"q": q, "status": status, "kind": kind, "concept": concept}

    return [
        R("노출 1만 이상인데 클릭률이 3% 미만인 페이지 알려주세요", [("impressions_30d", ">=", 10000), ("ctr_30d", "<", 0.03)]),
        R("클릭이 한 번도 없는 페이지 다 뽑아줘", [("clicks_30d", "=", 0)], "builtin_phrase"),
        R("Show me pages with more than 1000 sessions", [("sessions_30d", ">", 1000)]),
        R("이탈률 70% 이상인 페이지 목록 좀", [("bounce_rate_30d", ">=", 0.7)], "dataset_column"),
        R("이탈이 심한 페이지들 정리해 줄래요?", [("bounce_rate_30d", ">=", 0.7)], "dataset_phrase"),
        R("클릭이 거의 없는 페이지는 어떤 거예요?", [("clicks_30d", "<=", 10)], "dataset_phrase"),
        R("올해 게시된 글 리스트", between("published_at", pg.period("year")), "relative_date"),
        R("작년 초에 발행된 페이지 있어?", between("published_at", pg.period("year_early", offset=-1)), "relative_date"),
        R("Which pages were updated last month?", between("updated_at", pg.period("last_month")), "relative_date"),
        R("pages with zero clicks but at least 500 impressions", [("clicks_30d", "=", 0), ("impressions_30d", ">=", 500)]),
        R("CTR 1%~2% 사이 페이지", [("ctr_30d", ">=", 0.01), ("ctr_30d", "<=", 0.02)], "range"),
        R("노출수가 1000에서 5000 사이인 페이지 보여 주세요", [("impressions_30d", ">=", 1000), ("impressions_30d", "<=", 5000)], "range"),
        R("List pages with at least 100 clicks and a bounce rate below 40%", [("clicks_30d", ">=", 100), ("bounce_rate_30d", "<", 0.4)]),
        R("1년 넘게 수정 안 된 페이지 찾아줘", [("updated_at", "<", pg.years_ago(1))], "age"),
        R("pages published before 2024", [("published_at", "<", dt.date(2024, 1, 1))], "absolute_date"),
        R("세션 10 이하인 페이지 뭐있어", [("sessions_30d", "<=", 10)], "terse"),
        R("Pages published since June 2026", [("published_at", ">=", dt.date(2026, 6, 1))], "absolute_date"),
        R("최근 30일 안에 업데이트된 페이지 뭐 있나요", between("updated_at", pg.period("last_days", n=30)), "relative_date"),
        R("노출은 꽤 되는데 CTR 1% 안 되는 페이지", [("impressions_30d", ">=", 1000), ("ctr_30d", "<", 0.01)], "builtin_phrase"),
        R("노출 5천 넘고 방문수 500 미만인 페이지", [("impressions_30d", ">", 5000), ("sessions_30d", "<", 500)]),
        R("클릭이 1번 이상 5번 이하인 페이지", [("clicks_30d", ">=", 1), ("clicks_30d", "<=", 5)], "range"),
        R("CTR above 5%", [("ctr_30d", ">", 0.05)], "terse"),
        R("Show pages whose bounce rate is under 40 percent.", [("bounce_rate_30d", "<", 0.4)], "dataset_column"),
        R("2025년 하반기에 올라온 페이지들", between("published_at", pg.period("half", offset=-1, half=2)), "absolute_date"),
        R("임프레션 2만 이상 페이지가 뭐가 있지", [("impressions_30d", ">=", 20000)], "synonym"),
        R("Which pages got fewer than 50 clicks but more than 2000 impressions?",
          [("clicks_30d", "<", 50), ("impressions_30d", ">", 2000)]),
        R("안녕하세요, 다음 주 회의 자료 만드는 중인데요. 클릭률 5% 이상이고 세션이 1000 넘는 페이지가 어떤 건지 알려주실 수 있나요?",
          [("ctr_30d", ">=", 0.05), ("sessions_30d", ">", 1000)], "chatty"),
        R("pages with no clicks at all that were published in 2025",
          [("clicks_30d", "=", 0)] + between("published_at", (dt.date(2025, 1, 1), dt.date(2025, 12, 31)))),
        # --- declines
        X("성과 좋은 페이지 뽑아줘", "clarify", "vague_measure"),
        X("전환율 높은 페이지 알려주세요", "unsupported", "no_column", "전환율"),
        X("Which pages generated the most revenue?", "unsupported", "no_column", "revenue"),
        X("클릭 제일 많은 페이지 top 5", "unsupported", "ranking"),
        X("노출 1000 이상이거나 클릭 100 이상인 페이지", "clarify", "disjunction"),
        X("클릭 수 알려줘", "clarify", "no_condition"),
        X("pages with 1000 or more", "clarify", "no_column"),
        X("최근 7일 클릭 10 넘는 페이지", "unsupported", "other_window"),
        X("평균 체류 시간 2분 넘는 페이지?", "unsupported", "no_column", "체류 시간"),
        X("Show me the pages that are doing badly.", "clarify", "vague_evaluation"),
        X("2025년 2월 30일 이후 게시된 글", "clarify", "invalid_date"),
        X("클릭 10% 이상인 페이지", "clarify", "percent_on_count"),
        X("pages with lots of backlinks", "unsupported", "no_column", "backlinks"),
        X("수정 안 된 페이지 알려줘", "clarify", "no_period"),
        X("오늘 서울 날씨 어때?", "clarify", "irrelevant"),
        X("What is the conversion rate of the homepage?", "unsupported", "no_column", "conversion rate"),
    ]


def pages_questions(pg: Pages) -> list[dict]:
    out = []
    for i, s in enumerate(pages_specs(pg), 1):
        q = s["q"]
        if "conds" in s:
            urls = pg.match(s["conds"])
            gold = {"status": "ran", "urls": urls,
                    "filter": " AND ".join(f"{c} {o} {v}" for c, o, v in s["conds"])}
            gk = "answer"
        else:
            if s.get("concept"):
                assert norm(s["concept"]) not in pg.column_words, s["concept"]
            gold = {"status": s["status"]}
            gk = "decline"
        out.append({"id": f"pages_{i:03d}", "domain": "pages", "lang": lang_of(q), "question": q,
                    "kind": s["kind"], "gold_kind": gk, "gold": gold})
    return out


# ---------------------------------------------------------------------------------------------------------


def main() -> int:
    kg = EntityGraph(EX / "kg", ROOT / "ontologies" / "kg.ttl", "https://w3id.org/ont-platform/kg#",
                     groups={"within": {"locatedIn", "partOf"}}, symmetric=set())
    films = EntityGraph(EX / "films", EX / "films" / "ontology.ttl", "https://example.org/films#",
                        groups={"within": {"basedIn", "heldIn", "locatedIn"}}, symmetric={"collaboratedWith"})
    items = (entity_questions("kg", kg, KG_SPECS) + onchain_questions(Onchain()) + pages_questions(Pages())
             + entity_questions("films", films, FILMS_SPECS))
    assert len({it["question"] for it in items}) == len(items), "duplicate question"
    out = HERE / "questions.jsonl"
    with out.open("w", encoding="utf-8") as fh:
        for it in items:
            fh.write(json.dumps(it, ensure_ascii=False) + "\n")
    n = len(items)
    print(f"wrote {n} questions to {out}")
    for key in ("domain", "lang", "gold_kind"):
        print(key, dict(Counter(it[key] for it in items)))
    print("per domain x gold_kind", dict(Counter((it["domain"], it["gold_kind"]) for it in items)))
    print("per domain x lang", dict(Counter((it["domain"], it["lang"]) for it in items)))
    en = sum(it["lang"] == "en" for it in items) / n
    dec = sum(it["gold_kind"] == "decline" for it in items) / n
    print(f"english {en:.0%}, decline {dec:.0%}")
    assert n >= 170 and en >= 0.25 and dec >= 0.25
    if "-v" in sys.argv:
        for it in items:
            print(it["id"], it["gold_kind"], json.dumps(it["gold"], ensure_ascii=False, default=str)[:160], "|", it["question"])
    return 0


if __name__ == "__main__":
    sys.exit(main())
