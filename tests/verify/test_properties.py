"""Property tests: on random graphs, random answers never pass unless they are really grounded, and the answers
``ask`` gives always pass.

The oracles here are written from the graph's CSV rows, not from the verifier's snapshot, so a bug in reading the
graph would show up as a disagreement.
"""

from __future__ import annotations

import csv
import tempfile
from collections.abc import Iterator
from contextlib import contextmanager
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import pytest
from hypothesis import HealthCheck, event, given, settings
from hypothesis import strategies as st

from ont_platform import KnowledgeGraph
from ont_platform.verify import Verifier

NODE = "https://w3id.org/ont-platform/id/onchain/node/"
FAST = settings(max_examples=25, deadline=None, suppress_health_check=[HealthCheck.too_slow])
SLOW = settings(max_examples=6, deadline=None, suppress_health_check=[HealthCheck.too_slow])


def _write(folder: Path, name: str, head: list[str], rows: list[tuple[Any, ...]]) -> None:
    with (folder / name).open("w", encoding="utf-8", newline="") as f:
        w = csv.writer(f)
        w.writerow(head)
        w.writerows(rows)


@contextmanager
def _graph(tables: dict[str, tuple[list[str], list[tuple[Any, ...]]]]) -> Iterator[KnowledgeGraph]:
    with tempfile.TemporaryDirectory() as tmp:
        folder = Path(tmp)
        for name, (head, rows) in tables.items():
            _write(folder, name, head, rows)
        kg = KnowledgeGraph.open()
        try:
            kg.load(folder, shacl=False)
            yield kg
        finally:
            kg.close()


# -- on-chain ---------------------------------------------------------------------------------------------------


@dataclass
class Chain:
    nodes: dict[str, str]  # id -> class
    edges: dict[str, tuple[str, str, str, str | None]]  # id -> (rel, from, to, tx)


@st.composite
def chains(draw: st.DrawFn) -> Chain:
    n = draw(st.integers(2, 7))
    nodes = {
        f"n_{i}": draw(st.sampled_from(["Wallet", "Wallet", "Mixer", "ExchangeDeposit", "Bridge"])) for i in range(n)
    }
    pairs = st.tuples(st.integers(0, n - 1), st.integers(0, n - 1)).filter(lambda p: p[0] != p[1])
    raw = draw(st.lists(st.tuples(pairs, st.booleans()), max_size=12))
    edges: dict[str, tuple[str, str, str, str | None]] = {}
    for j, ((a, b), observed) in enumerate(raw):
        if observed or draw(st.integers(0, 4)) > 0:
            edges[f"e{j}"] = ("transfer", f"n_{a}", f"n_{b}", f"0x{j + 1:x}f")
        else:
            edges[f"e{j}"] = ("same_entity", f"n_{a}", f"n_{b}", None)
    return Chain(nodes, edges)


def _address(i: int) -> str:
    return "0x" + f"{i + 1:040x}"


def _chain_tables(c: Chain) -> dict[str, tuple[list[str], list[tuple[Any, ...]]]]:
    return {
        "onchain_nodes.csv": (
            ["node_id", "address", "onto_class"],
            [(nid, _address(i), cls) for i, (nid, cls) in enumerate(c.nodes.items())],
        ),
        "onchain_edges.csv": (
            ["edge_id", "rel", "from", "to", "tx_hash"],
            [(eid, rel, a, b, tx or "") for eid, (rel, a, b, tx) in c.edges.items()],
        ),
    }


def _grounded(c: Chain, a: dict[str, Any]) -> bool:
    """Every cited edge exists between the nodes given, with its own tx hash; every cited node exists."""
    for step in a["path"]:
        e = c.edges.get(step["edge_id"])
        if e is None:
            return False
        rel, src, dst, tx = e
        ends = (step["from"], step["to"])
        if ends != (src, dst) and not (rel == "same_entity" and ends == (dst, src)):
            return False
        if (step["tx_hash"] or None) != tx:
            return False
        if step["from"] not in c.nodes or step["to"] not in c.nodes:
            return False
    return all(n in c.nodes for n in a["cited_nodes"])


def _well_formed(c: Chain, a: dict[str, Any]) -> bool:
    """The structural rules an ok answer must also meet, stated independently of the verifier."""
    path, intent = a["path"], a["intent"]
    kinds = {c.edges[s["edge_id"]][0] for s in path}
    on_path = {s["from"] for s in path} | {s["to"] for s in path}
    if not on_path <= set(a["cited_nodes"]):
        return False
    if intent in ("no_path", "label_lookup"):
        return not path
    if intent == "path_exists":
        chain_ok = all(path[i]["to"] == path[i + 1]["from"] for i in range(len(path) - 1))
        walk = [path[0]["from"], *(s["to"] for s in path)] if path else []
        return bool(path) and kinds <= {"transfer"} and chain_ok and len(set(walk)) == len(walk)
    if intent == "cluster_lookup":
        return kinds <= {"same_entity"} and (not path or (a["confidence"] != "high" and "추정" in a["answer_ko"]))
    return kinds <= {"transfer"}


@st.composite
def chain_answers(draw: st.DrawFn, c: Chain) -> dict[str, Any]:
    node_ids = [*c.nodes, "n_ghost"]
    edge_ids = [*c.edges, "e_fake"]
    txs = [None, "0xbad", *(e[3] for e in c.edges.values() if e[3])]
    steps = []
    for _ in range(draw(st.integers(0, 3))):
        eid = draw(st.sampled_from(edge_ids))
        real = c.edges.get(eid)
        if real is not None and draw(st.booleans()):  # mostly faithful steps, so some answers are grounded
            _, src, dst, tx = real
            steps.append({"edge_id": eid, "tx_hash": tx, "from": src, "to": dst})
        else:
            steps.append(
                {
                    "edge_id": eid,
                    "tx_hash": draw(st.sampled_from(txs)),
                    "from": draw(st.sampled_from(node_ids)),
                    "to": draw(st.sampled_from(node_ids)),
                }
            )
    on_path = list(dict.fromkeys(n for s in steps for n in (s["from"], s["to"])))
    extra = draw(st.lists(st.sampled_from(node_ids), max_size=2))
    cited = list(dict.fromkeys(on_path + extra)) if draw(st.booleans()) else extra
    known = [n for n in cited if n in c.nodes]
    query = ("SELECT ?n WHERE { VALUES ?n { " + " ".join(f"<{NODE}{n}>" for n in known) + " } }") if known else ""
    return {
        "q_id": "r1",
        "intent": draw(st.sampled_from(["path_exists", "no_path", "token_flow", "cluster_lookup", "label_lookup"])),
        "generated_query": query,
        "answer_ko": draw(st.sampled_from(["추정으로만 제시합니다.", "확정입니다."])),
        "path": steps,
        "cited_nodes": cited,
        "confidence": draw(st.sampled_from(["low", "mid", "high"])),
        "grounding_ok": True,
    }


@pytest.mark.slow
@FAST
@given(st.data())
def test_random_onchain_answers_pass_only_when_grounded(data: st.DataObject) -> None:
    c = data.draw(chains())
    with _graph(_chain_tables(c)) as kg, Verifier(kg) as verifier:
        for _ in range(12):
            a = data.draw(chain_answers(c))
            report = verifier.verify(a)
            grounded = _grounded(c, a)
            event(f"grounded={grounded} ok={report.ok}")
            assert report.grounding_ok is grounded, (a, report.to_json())
            if report.ok:
                assert grounded and _well_formed(c, a), (a, report.to_json())


@pytest.mark.slow
@SLOW
@given(chains())
def test_answers_from_ask_on_random_chains_pass(c: Chain) -> None:
    with _graph(_chain_tables(c)) as kg, Verifier(kg) as verifier:
        for nid in list(c.nodes)[:4]:
            for q in (
                f"{nid} 에서 3-hop 안에 믹서(Mixer)로 가는 경로가 있나요?",
                f"{nid} 에서 2-hop 안에 거래소 입금주소(ExchangeDeposit)에 자금이 닿나요?",
                f"{nid} 과 같은 주체로 추정되는 지갑은?",
                f"{nid} 에서 나간 자금은 어디로 갔나요?",
            ):
                a = kg.ask(q)
                report = verifier.verify(a, question=q)
                assert report.ok, (q, a.to_json(), report.to_json())


# -- hop decisions ----------------------------------------------------------------------------------------------

PEOPLE = ["김하나", "이두리", "박세나", "최네오"]
COMPANIES = ["알파상사", "브라보전자", "찰리물산"]
CITIES = ["수원", "대구", "광주"]


@dataclass
class Text:
    labels: dict[str, str]
    classes: dict[str, str]
    edges: dict[str, tuple[str, str, str, str | None, bool]]  # id -> (src, rel, dst, chunk, grounded flag)
    chunks: dict[str, str]


@st.composite
def texts(draw: st.DrawFn) -> Text:
    labels: dict[str, str] = {}
    classes: dict[str, str] = {}
    for prefix, cls, names in (("p", "Person", PEOPLE), ("c", "Company", COMPANIES), ("ci", "City", CITIES)):
        for i, name in enumerate(names):
            labels[f"{prefix}{i}"] = name
            classes[f"{prefix}{i}"] = cls
    edges: dict[str, tuple[str, str, str, str | None, bool]] = {}
    chunks: dict[str, str] = {}

    def add(src: str, rel: str, dst: str) -> None:
        j = len(edges)
        kind = draw(st.sampled_from(["both", "both", "one", "none"]))
        if kind == "none":
            edges[f"r{j}"] = (src, rel, dst, None, False)
            return
        text = (
            f"{labels[src]}와 {labels[dst]}의 관계를 다룬 기사다." if kind == "both" else f"{labels[src]}의 소식이다."
        )
        chunks[f"ch{j}"] = text
        edges[f"r{j}"] = (src, rel, dst, f"ch{j}", draw(st.booleans()) or kind == "both")

    for i in range(len(PEOPLE)):
        if draw(st.booleans()):
            add(f"p{i}", "worksFor", f"c{draw(st.integers(0, len(COMPANIES) - 1))}")
    for i in range(len(COMPANIES)):
        if draw(st.booleans()):
            add(f"c{i}", "locatedIn", f"ci{draw(st.integers(0, len(CITIES) - 1))}")
    return Text(labels, classes, edges, chunks)


def _text_tables(t: Text) -> dict[str, tuple[list[str], list[tuple[Any, ...]]]]:
    return {
        "kg_nodes.csv": (
            ["node_id", "class", "label", "aliases"],
            [(n, t.classes[n], t.labels[n], "") for n in t.labels],
        ),
        "kg_edges.csv": (
            ["edge_id", "src", "rel", "dst", "chunk_id", "grounded"],
            [(e, s, r, d, c or "", "true" if g else "false") for e, (s, r, d, c, g) in t.edges.items()],
        ),
        "kg_chunks.csv": (["chunk_id", "text"], list(t.chunks.items())),
    }


def _hop_grounded(t: Text, h: dict[str, Any]) -> bool:
    """The hop is a stored edge with its own chunk, marked grounded, whose chunk mentions both ends."""
    for src, rel, dst, chunk, flag in t.edges.values():
        if (src, rel, dst, chunk) == (h["src"], h["rel"], h["dst"], h["chunk_id"]):
            text = t.chunks.get(chunk or "", "")
            return flag and t.labels[src] in text and t.labels[dst] in text
    return False


@st.composite
def hop_answers(draw: st.DrawFn, t: Text) -> dict[str, Any]:
    nodes = [*t.labels, "x_ghost"]
    hops: list[dict[str, Any]] = []
    if t.edges and draw(st.booleans()):  # a real walk: a stored edge, then one leaving where it ends
        first = t.edges[draw(st.sampled_from(sorted(t.edges)))]
        walk = [first]
        nxt = [e for e in t.edges.values() if e[0] == first[2]]
        if nxt and draw(st.booleans()):
            walk.append(nxt[0])
        hops = [{"src": s, "rel": r, "dst": d, "chunk_id": c} for s, r, d, c, _ in walk]
    for _ in range(draw(st.integers(0, 3)) if not hops else draw(st.integers(0, 1))):
        if t.edges and draw(st.booleans()):
            src, rel, dst, chunk, _ = t.edges[draw(st.sampled_from(sorted(t.edges)))]
            if draw(st.integers(0, 3)) == 0:
                chunk = draw(st.sampled_from([None, "ch_fake", *t.chunks]))
            hops.append({"src": src, "rel": rel, "dst": dst, "chunk_id": chunk})
        else:
            hops.append(
                {
                    "src": draw(st.sampled_from(nodes)),
                    "rel": draw(st.sampled_from(["worksFor", "locatedIn"])),
                    "dst": draw(st.sampled_from(nodes)),
                    "chunk_id": draw(st.sampled_from([None, *t.chunks])),
                }
            )
    decision = draw(st.sampled_from(["answer", "answer", "refuse", "max_hops"]))
    end = hops[-1]["dst"] if hops else draw(st.sampled_from(nodes))
    factors = (
        []
        if decision == "answer"
        else draw(
            st.lists(
                st.sampled_from(
                    [
                        "ungrounded_hop",
                        "missing_start_node",
                        "missing_edge",
                        "hop_limit_exceeded",
                        "node_alias_unmapped",
                    ]
                ),
                max_size=2,
                unique=True,
            )
        )
    )
    return {
        "query_id": "h1",
        "decision": decision,
        "answer": end if decision == "answer" else None,
        "path": hops,
        "factors": factors,
        "reason": "무작위로 만든 답의 이유 문장입니다. 스무 자를 넘깁니다.",
        "evidence": "random evidence",
        "hedge": None,
    }


@pytest.mark.slow
@FAST
@given(st.data())
def test_random_hop_decisions_answer_only_over_grounded_hops(data: st.DataObject) -> None:
    t = data.draw(texts())
    with _graph(_text_tables(t)) as kg, Verifier(kg) as verifier:
        for _ in range(12):
            a = data.draw(hop_answers(t))
            report = verifier.verify(a)
            cited_ok = all(
                h["src"] in t.labels
                and h["dst"] in t.labels
                and any(
                    (s, r, d, c) == (h["src"], h["rel"], h["dst"], h["chunk_id"]) for s, r, d, c, _ in t.edges.values()
                )
                for h in a["path"]
            )
            assert report.grounding_ok is cited_ok, (a, report.to_json())
            event(f"cited_ok={cited_ok} ok={report.ok} decision={a['decision']}")
            if report.ok and a["decision"] == "answer":
                assert a["path"] and all(_hop_grounded(t, h) for h in a["path"]), (a, report.to_json())


@SLOW
@given(texts())
def test_answers_from_ask_on_random_texts_pass(t: Text) -> None:
    with _graph(_text_tables(t)) as kg, Verifier(kg) as verifier:
        for person in PEOPLE[:3]:
            for q in (f"{person}이 다니는 회사는 어느 도시에 있나요?", f"{person}이 다니는 회사는?"):
                a = kg.ask(q)
                report = verifier.verify(a, question=q)
                assert report.ok, (q, a.to_json(), report.to_json())
