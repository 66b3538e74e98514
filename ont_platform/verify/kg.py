"""Checks of hop decisions (seed 003): every hop is a stored edge with its own chunk, the path is a walk from the
start within the hop limit, and the decision follows the seed's rules.

A hop is grounded only when the edge is marked grounded, its chunk exists, and the chunk's text mentions both
ends by a label or an alias (compared without spacing and case) — the same rule the answerer states, checked
here again from the stored text.
"""

from __future__ import annotations

import re
import unicodedata
from typing import Any

from ont_platform.verify.case import Case
from ont_platform.verify.graph import EdgeFact, Snapshot

_SPACES = re.compile(r"\s+")
REFUSE_FACTORS = frozenset({"ungrounded_hop", "missing_start_node", "missing_edge", "node_alias_unmapped"})


def compact(text: str) -> str:
    return _SPACES.sub("", unicodedata.normalize("NFKC", text)).casefold()


def grounding(snap: Snapshot, e: EdgeFact) -> str | None:
    """Why the edge is not grounded, or None when it is. A stated triple of plain RDF is its own evidence."""
    if snap.stated:
        return None
    if not e.grounded:
        return f"edge {e.id} is marked grounded=false"
    if e.chunk is None:
        return f"edge {e.id} cites no chunk"
    text = snap.chunks.get(e.chunk)
    if not text:
        return f"chunk {e.chunk} of edge {e.id} does not exist or has no text"
    flat = compact(text)
    for end in (e.src, e.dst):
        node = snap.nodes.get(end)
        names = (node.names if node is not None and node.names else ()) or (end,)
        if not any(compact(n) in flat for n in names):
            return f"chunk {e.chunk} of edge {e.id} does not mention {end} ({', '.join(names[:3])})"
    return None


def check(case: Case) -> None:
    """Every hop-decision check, in order."""
    hops = citations(case)
    ends = path(case)
    decision(case, hops, ends)


def _hops(a: dict[str, Any]) -> list[dict[str, Any]]:
    return [h if isinstance(h, dict) else {} for h in a.get("path") or []]


def citations(case: Case) -> list[EdgeFact | None]:
    """Each hop names a stored edge (src, rel, dst in the stored direction) and that edge's own chunk."""
    snap = case.snap
    out: list[EdgeFact | None] = []
    for i, h in enumerate(_hops(case.answer)):
        src, rel, dst, chunk = h.get("src"), h.get("rel"), h.get("dst"), h.get("chunk_id")
        if not (isinstance(src, str) and isinstance(rel, str) and isinstance(dst, str)):
            case.fail("citations", f"path[{i}] does not name src, rel and dst")
            out.append(None)
            continue
        for end in (src, dst):
            if end not in snap.nodes:
                case.fail("citations", f"path[{i}]: node {end!r} does not exist in the graph")
        if rel not in snap.onto.relations:
            case.fail("citations", f"path[{i}]: relation {rel!r} is not in the ontology")
        edges = snap.edges_between(src, rel, dst)
        if not edges:
            back = snap.edges_between(dst, rel, src)
            hint = f" (the stored edge {back[0].id} runs {dst} → {src})" if back else ""
            case.fail("citations", f"path[{i}]: no {rel} edge from {src} to {dst} in the graph{hint}")
            out.append(None)
            continue
        match = next((e for e in edges if e.chunk == chunk), None)
        if match is None:
            e = edges[0]
            if chunk is not None and chunk not in snap.chunks:
                case.fail("citations", f"path[{i}]: chunk {chunk!r} does not exist in the graph")
            elif chunk is None:
                case.fail("citations", f"path[{i}]: edge {e.id} cites chunk {e.chunk}, the answer cites none")
            else:
                case.fail(
                    "citations",
                    f"path[{i}]: chunk {chunk} is not the chunk of edge {e.id} (its chunk is {e.chunk or 'none'})",
                )
            out.append(e)
        else:
            out.append(match)
    return out


def _limit(case: Case) -> int:
    p = case.plan()
    return p.hops if p is not None else int(case.verifier.limits.max_hops)


def _walk(hops: list[dict[str, Any]], start: str) -> tuple[int, str]:
    """How many hops walk on from ``start`` (either direction per hop), and the node reached."""
    cur = start
    for i, h in enumerate(hops):
        if h.get("src") == cur:
            cur = str(h.get("dst"))
        elif h.get("dst") == cur:
            cur = str(h.get("src"))
        else:
            return i, cur
    return len(hops), cur


def path(case: Case) -> list[str]:
    """The hops form a walk from the question's start (each hop taken either way), within the hop limit.

    Without the question the start is either end of the first hop. Returns the nodes such a walk reaches
    (empty when the hops form no walk)."""
    hops = _hops(case.answer)
    if not hops:
        return []
    p = case.plan()
    limit = _limit(case)
    if len(hops) > limit:
        case.fail("path", f"path has {len(hops)} hop{'' if len(hops) == 1 else 's'}, over the hop limit of {limit}")
    if p is not None and p.start:
        starts = [p.start]
    else:
        starts = list(dict.fromkeys(s for s in (hops[0].get("src"), hops[0].get("dst")) if isinstance(s, str)))
    ends: list[str] = []
    best: tuple[int, str, str] | None = None
    for start in starts:
        done, end = _walk(hops, start)
        if done == len(hops):
            ends.append(end)
        elif best is None or done > best[0]:
            best = (done, end, start)
    if not ends and best is not None:
        done, end, start = best
        if done == 0:
            case.fail(
                "path",
                f"path does not start at the start node {start}: path[0] is "
                f"{hops[0].get('src')} → {hops[0].get('dst')}",
            )
        else:
            case.fail(
                "path",
                f"path is not connected: the walk from {start} reaches {end} after {done} hop(s), "
                f"but path[{done}] is {hops[done].get('src')} → {hops[done].get('dst')}",
            )
    return ends


def _names_node(snap: Snapshot, item: str, node: str) -> bool:
    if item == node:
        return True
    fact = snap.nodes.get(node)
    return fact is not None and any(compact(n) == compact(item) for n in fact.names)


def decision(case: Case, edges: list[EdgeFact | None], ends: list[str]) -> None:
    """Seed 003: answer only when every hop exists and is grounded and the walk reaches the answer; refuse with
    the factor that stopped the walk; max_hops only at the hop limit."""
    a, snap = case.answer, case.snap
    hops = _hops(a)
    kind, factors = a["decision"], list(a.get("factors") or [])
    ungrounded = {i: why for i, e in enumerate(edges) if e is not None and (why := grounding(snap, e))}
    missing = [i for i, e in enumerate(edges) if e is None]
    p = case.plan()
    if kind == "answer":
        if not hops:
            case.fail("decision", "answer without a path: no start node or hop supports it")
        if factors:
            case.fail("decision", f"answer with factors {factors}; an answer has none")
        for i in missing:
            case.fail("decision", f"answer over hop {i}, which is not an edge of the graph")
        for i, why in sorted(ungrounded.items()):
            case.fail("decision", f"answer over an ungrounded hop {i}: {why}; the seed's rule is refuse")
        value = a.get("answer")
        if not isinstance(value, str) or not value.strip():
            case.fail("decision", "answer decision with no answer")
        elif ends:
            items = [x.strip() for x in value.split(",") if x.strip()]
            if not any(_names_node(snap, x, end) for x in items for end in ends):
                case.fail("decision", f"the answer {value!r} is not where the path ends ({' or '.join(ends)})")
            for x in items:
                if x not in snap.nodes and not any(_names_node(snap, x, n) for n in snap.nodes):
                    case.fail("decision", f"the answer names {x!r}, which is no node of the graph")
            asked_class(case, items)
            answers(case, items)
        return
    if a.get("answer") is not None:
        case.fail("decision", f"{kind} must have a null answer, got {a.get('answer')!r}")
    if kind == "max_hops":
        if "hop_limit_exceeded" not in factors:
            case.fail("decision", "max_hops without the factor hop_limit_exceeded")
        for i, why in sorted(ungrounded.items()):
            case.fail("decision", f"max_hops over an ungrounded hop {i}: {why}; the walk stops there with refuse")
        return
    # refuse
    if not factors:
        case.fail("decision", "refuse without a factor saying why")
    if "hop_limit_exceeded" in factors:
        case.fail("decision", "hop_limit_exceeded belongs to max_hops, not refuse")
    if "missing_start_node" in factors or "node_alias_unmapped" in factors:
        if hops:
            case.fail("decision", "a refusal for a missing or unmapped start node cannot carry a path")
        if p is not None and p.start and not p.ambiguous:
            case.fail("decision", f"refused for a missing start node, but the question names node {p.start}")
    if "ungrounded_hop" in factors:
        if not hops:
            case.fail("decision", "ungrounded_hop without the hop in the path")
        elif not ungrounded and not missing:
            case.fail("decision", "refused for an ungrounded hop, but every hop on the path is grounded")
    if set(factors) <= {"missing_edge"} and factors and not hops and p is not None and p.start is None:
        case.fail(
            "decision",
            "missing_edge, but the question's start node is not in the graph (the factor is missing_start_node)",
        )


def answers(case: Case, items: list[str]) -> None:
    """``answers`` (when given) lists exactly the nodes ``answer`` names, each with a walk of stored edges from
    the question's start (or from where ``path`` starts) that ends at it."""
    given = case.answer.get("answers")
    if given is None:
        return
    if not isinstance(given, list) or not all(isinstance(x, dict) for x in given):
        case.fail("decision", "answers is not a list of {answer, path} objects")
        return
    named = [str(x.get("answer")) for x in given]
    if sorted(named) != sorted(items):
        case.fail("decision", f"answers lists {sorted(named)}, the answer names {sorted(items)}")
    snap, p = case.snap, case.plan()
    first = _hops(case.answer)
    start = p.start if p is not None and p.start else (str(first[0].get("src")) if first else None)
    for x in given:
        hops = _hops(x)
        for i, h in enumerate(hops):
            if not snap.edges_between(str(h.get("src")), str(h.get("rel")), str(h.get("dst"))):
                case.fail("citations", f"answers[{x.get('answer')}].path[{i}] is not an edge of the graph")
        if start is not None:
            done, end = _walk(hops, start)
            if done != len(hops) or not _names_node(snap, str(x.get("answer")), end):
                case.fail("path", f"the path given for answer {x.get('answer')!r} does not walk from {start} to it")


def asked_class(case: Case, items: list[str]) -> None:
    """The answer has the class the question asks for ("어느 나라", "which city"), as the domain's reader reads
    the question: a city given for a question about a country answers another question."""
    p = case.plan()
    if p is None or p.target_class is None:
        return
    snap = case.snap
    want = frozenset({p.target_class})
    label = snap.onto.label(p.target_class, "ko")
    for x in items:
        node = snap.nodes.get(x)
        if node is not None and not any(snap.onto.is_a(c, want) for c in node.classes):
            case.fail(
                "asked_class",
                f"the question asks for a {label} ({p.target_class.rsplit('#', 1)[-1]}), but the answer {x} is not one",
            )
