"""Domains the code has never seen: generated ontologies (random class and relation names, Korean labels),
random graphs over them, loaded through a dataset folder and asked multi-hop questions.

Checked against a plain walk over the generated tables (networkx): loads are all or nothing, the derived and the
user's shapes are enforced, every answer equals the walk over grounded edges, and refusals carry the factor the
walk says.
"""

from __future__ import annotations

import csv
import itertools
import uuid
from dataclasses import dataclass, field
from pathlib import Path

import networkx as nx
import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from ont_platform import KnowledgeGraph
from ont_platform.domains import Domain, forget_domain, register_domain
from ont_platform.errors import DatasetError
from ont_platform.qa.korean import josa

CLASS_WORDS = ["기관", "부서", "장비", "문서", "제품", "고객", "창고", "노선", "정거장", "학교"]
RELATION_WORDS = ["후원", "담당", "공급", "관리", "보관", "생산", "검토", "지원", "운영", "배정"]
"""Korean nouns for generated labels (real words, so the analyser reads them as one noun each)."""

_counter = itertools.count()


@dataclass
class World:
    """A generated domain and dataset, and what a reader of the tables expects."""

    name: str
    classes: list[str]
    class_words: dict[str, str]
    relations: dict[str, tuple[str, str, str]]  # name -> (domain class, range class, Korean word)
    nodes: dict[str, str]  # node id -> class
    edges: list[tuple[str, str, str, str, bool, bool]]  # id, src, rel, dst, grounded flag, chunk names both ends
    min_count: str | None = None  # a class whose nodes must have at least one edge of relations[0] (user shape)
    bad_row: bool = False
    chains: list[tuple[str, list[str]]] = field(default_factory=list)

    def grounded(self, edge: tuple[str, str, str, str, bool, bool]) -> bool:
        return edge[4] and edge[5]


def _ident(draw: st.DrawFn, prefix: str) -> str:
    return prefix + draw(st.text("abcdefghijklmnopqrstuvwxyz", min_size=3, max_size=8)).capitalize()


@st.composite
def worlds(draw: st.DrawFn) -> World:
    n_classes = draw(st.integers(2, 4))
    classes = list(dict.fromkeys(_ident(draw, "K") for _ in range(n_classes)))
    words = draw(st.permutations(CLASS_WORDS))
    class_words = {c: words[i] for i, c in enumerate(classes)}
    rel_words = draw(st.permutations(RELATION_WORDS))
    relations: dict[str, tuple[str, str, str]] = {}
    for i in range(draw(st.integers(2, 4))):
        name = _ident(draw, "r")
        if name in relations:
            continue
        dom, rng = draw(st.sampled_from(classes)), draw(st.sampled_from(classes))
        if dom == rng:  # keep each node's class fitting one end only, so the walk's direction is unambiguous
            rng = classes[(classes.index(dom) + 1) % len(classes)]
        relations[name] = (dom, rng, rel_words[i])
    nodes = {f"nd_{i}": draw(st.sampled_from(classes)) for i in range(draw(st.integers(3, 9)))}
    edges = []
    for j in range(draw(st.integers(0, 14))):
        rel = draw(st.sampled_from(sorted(relations)))
        dom, rng, _ = relations[rel]
        srcs = [n for n, c in nodes.items() if c == dom]
        dsts = [n for n, c in nodes.items() if c == rng]
        if not srcs or not dsts:
            continue
        src, dst = draw(st.sampled_from(srcs)), draw(st.sampled_from(dsts))
        if src == dst:
            continue
        edges.append((f"e{j}", src, rel, dst, draw(st.booleans() | st.just(True)), draw(st.booleans() | st.just(True))))
    world = World(f"gen{next(_counter)}-{uuid.uuid4().hex[:6]}", classes, class_words, relations, nodes, edges)
    if draw(st.integers(0, 5)) == 0:
        world.min_count = relations[sorted(relations)[0]][0]
    world.bad_row = draw(st.integers(0, 7)) == 0
    return world


def _write(folder: Path, w: World) -> None:
    folder.mkdir()
    ns = f"https://example.org/{w.name}#"
    lines = [
        f"@prefix x: <{ns}> .",
        "@prefix owl: <http://www.w3.org/2002/07/owl#> .",
        "@prefix rdfs: <http://www.w3.org/2000/01/rdf-schema#> .",
        f'<https://example.org/{w.name}> a owl:Ontology ; <https://w3id.org/ont-platform/core#domainName> "{w.name}" .',
    ]
    for c in w.classes:
        lines.append(f'x:{c} a owl:Class ; rdfs:label "{w.class_words[c]}"@ko , "{c.lower()}"@en .')
    for r, (dom, rng, word) in w.relations.items():
        lines.append(
            f"x:{r} a owl:ObjectProperty ; rdfs:domain x:{dom} ; rdfs:range x:{rng} ; "
            f'rdfs:label "{word}"@ko , "{r.lower()} link"@en .'
        )
    (folder / "ontology.ttl").write_text("\n".join(lines) + "\n", encoding="utf-8")
    if w.min_count is not None:
        first = sorted(w.relations)[0]
        (folder / "shapes.ttl").write_text(
            f"@prefix sh: <http://www.w3.org/ns/shacl#> .\n@prefix x: <{ns}> .\n"
            f"<{ns}Need> a sh:NodeShape ; sh:targetClass x:{w.min_count} ;\n"
            f'  sh:property [ sh:path x:{first} ; sh:minCount 1 ; sh:message "needs a {first}" ] .\n',
            encoding="utf-8",
        )
    with (folder / "kg_nodes.csv").open("w", newline="", encoding="utf-8") as f:
        out = csv.writer(f)
        out.writerow(["node_id", "class", "label", "aliases"])
        for n, c in w.nodes.items():
            out.writerow([n, c, n, ""])
        if w.bad_row:
            out.writerow(["nd_bad", "NoSuchClass", "nd_bad", ""])
    with (folder / "kg_edges.csv").open("w", newline="", encoding="utf-8") as f:
        out = csv.writer(f)
        out.writerow(["edge_id", "src", "rel", "dst", "chunk_id", "grounded"])
        for eid, s, r, d, flag, _ in w.edges:
            out.writerow([eid, s, r, d, f"c_{eid}", "true" if flag else "false"])
    with (folder / "kg_chunks.csv").open("w", newline="", encoding="utf-8") as f:
        out = csv.writer(f)
        out.writerow(["chunk_id", "text"])
        for eid, s, _, d, _, both in w.edges:
            out.writerow([f"c_{eid}", f"{s} 와 {d} 의 관계를 적은 글" if both else f"{s} 에 대한 글"])


def _graph(w: World) -> nx.MultiDiGraph:
    g = nx.MultiDiGraph()
    for e in w.edges:
        g.add_edge(e[1], e[3], key=e[0], rel=e[2], grounded=w.grounded(e))
    return g


def _expected(w: World, g: nx.MultiDiGraph, start: str, chain: list[str]) -> tuple[str, set[str] | None, str | None]:
    """(decision, answer set, factor) by walking ``chain`` forward from ``start`` over grounded edges; the
    first node where every edge of the step is ungrounded makes the refusal ungrounded_hop."""
    frontier = [start]
    ungrounded = False
    for rel in chain:
        nxt = []
        for node in frontier:
            hops = [(d, data) for _, d, data in g.out_edges(node, data=True) if data["rel"] == rel] if node in g else []
            good = [d for d, data in hops if data["grounded"]]
            if hops and not good:
                ungrounded = True
            nxt += good
        frontier = list(dict.fromkeys(nxt))
        if not frontier:
            return "refuse", None, "ungrounded_hop" if ungrounded else "missing_edge"
    return "answer", set(frontier), None


def _conforms(w: World) -> bool:
    if w.bad_row:
        return False
    if w.min_count is None:
        return True
    first = sorted(w.relations)[0]
    has = {e[1] for e in w.edges if e[2] == first}
    return all(n in has for n, c in w.nodes.items() if c == w.min_count)


@pytest.mark.slow
@settings(max_examples=25, deadline=None, suppress_health_check=[HealthCheck.too_slow, HealthCheck.data_too_large])
@given(w=worlds(), data=st.data())
def test_generated_domains_load_all_or_nothing_and_answer_like_a_walk(
    tmp_path_factory: pytest.TempPathFactory, w: World, data: st.DataObject
) -> None:
    folder = tmp_path_factory.mktemp("gen") / w.name
    _write(folder, w)
    register_domain(
        Domain.from_files(
            None,
            folder / "ontology.ttl",
            folder / "shapes.ttl" if (folder / "shapes.ttl").is_file() else None,
            check=False,
        )
    )  # the reasoner is tested elsewhere; it needs a JVM per run
    try:
        with KnowledgeGraph.open() as kg:
            if not _conforms(w):
                with pytest.raises(DatasetError):
                    kg.load(folder)
                assert len(kg) == 0
                return
            kg.load(folder)
            g = _graph(w)
            for _ in range(4):
                start = data.draw(st.sampled_from(sorted(w.nodes)))
                chain: list[str] = []
                here = w.nodes[start]
                for _ in range(data.draw(st.integers(1, 3))):
                    fits = [r for r, (dom, _, _) in sorted(w.relations.items()) if dom == here]
                    if not fits:
                        break
                    rel = data.draw(st.sampled_from(fits))
                    chain.append(rel)
                    here = w.relations[rel][1]
                if not chain:
                    continue
                words = [w.relations[r][2] for r in chain]
                # "nd_3 의 검토의 후원은?": each relation noun is joined by 의 (bare "검토 후원" reads as 검토 후)
                question = f"{start} 의 " + "".join(f"{x}의 " for x in words[:-1]) + josa(words[-1], "은", "는") + "?"
                got = kg.ask(question).to_json()
                decision, ends, factor = _expected(w, g, start, chain)
                assert got["decision"] == decision, (question, got["reason"])
                if decision == "answer":
                    assert set(got["answer"].split(", ")) == ends, (question, got["reason"])
                    assert [h["rel"] for h in got["path"]] == chain
                else:
                    assert got["factors"] == [factor], (question, got["reason"])
    finally:
        forget_domain(w.name)
