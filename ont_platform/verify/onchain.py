"""Checks of on-chain answers (seed 000): citations, the path, yes/no against BFS, inference, the query."""

from __future__ import annotations

from typing import Any

from rdflib import URIRef

from ont_platform.errors import QueryError, QueryRefused, StoreError
from ont_platform.messages import LANGS, lang_of, say
from ont_platform.verify.case import Case, QuestionPlan
from ont_platform.verify.graph import EdgeFact, Snapshot
from ont_platform.verify.query import inspect_query, node_ids

TRANSFER, SAME = "transfer", "same_entity"
WALKS = {"path_exists": TRANSFER, "no_path": TRANSFER, "token_flow": TRANSFER, "cluster_lookup": SAME}


def check(case: Case) -> None:
    """Every on-chain check, in order."""
    edges = citations(case)
    decision(case, edges)
    path(case)
    bfs(case)
    inference(case, edges)
    query(case)


def _hops(n: int) -> str:
    return f"{n} hop" if n == 1 else f"{n} hops"


def _steps(a: dict[str, Any]) -> list[dict[str, Any]]:
    return list(a.get("path") or [])


# -- citations -------------------------------------------------------------------------------------------------


def citations(case: Case) -> list[EdgeFact | None]:
    """Every path edge exists, runs between the nodes the answer says, and carries the tx hash it is cited
    with; every cited node exists. Returns the stored edge of each step (None where there is none)."""
    snap, a = case.snap, case.answer
    found: list[EdgeFact | None] = []
    by_tx: dict[str, list[str]] = {}
    for i, step in enumerate(_steps(a)):
        eid, src, dst = str(step["edge_id"]), str(step["from"]), str(step["to"])
        tx = step.get("tx_hash")
        e = snap.edges.get(eid)
        found.append(e)
        if e is None:
            case.fail("citations", f"path[{i}]: edge {eid!r} does not exist in the graph")
            continue
        if (src, dst) != (e.src, e.dst) and not (e.symmetric and (src, dst) == (e.dst, e.src)):
            case.fail("citations", f"path[{i}]: edge {eid} runs {e.src} → {e.dst}, not {src} → {dst}")
        if e.tx is None and tx is not None:
            case.fail(
                "citations",
                f"path[{i}]: edge {eid} is an inferred {e.rel} link with no transaction; "
                f"tx_hash {tx} is not the graph's (hallucinated)",
            )
        elif e.tx is not None and tx is None:
            case.fail("citations", f"path[{i}]: edge {eid} is transaction {e.tx}, but the answer cites no tx_hash")
        elif e.tx is not None and tx is not None and str(tx).lower() != e.tx.lower():
            if not by_tx:
                for other in snap.edges.values():
                    if other.tx:
                        by_tx.setdefault(other.tx.lower(), []).append(other.id)
            owners = by_tx.get(str(tx).lower())
            where = f" (it belongs to edge {', '.join(owners[:3])})" if owners else " (no edge has it: hallucinated)"
            case.fail(
                "citations",
                f"path[{i}]: tx_hash {tx} does not belong to edge {eid}, whose transaction is {e.tx}{where}",
            )
    for node in a.get("cited_nodes") or []:
        if str(node) not in snap.nodes:
            case.fail("citations", f"cited node {node!r} does not exist in the graph")
    for i, step in enumerate(_steps(a)):
        for end in (step["from"], step["to"]):
            if str(end) not in snap.nodes:
                case.fail("citations", f"path[{i}]: node {end!r} does not exist in the graph")
    return found


# -- decision and path -----------------------------------------------------------------------------------------


def decision(case: Case, edges: list[EdgeFact | None]) -> None:
    """The intent agrees with the path: a yes has a path, a no or a lookup has none, and each intent walks
    its own kind of edge (transfers, or same_entity links for a cluster)."""
    a = case.answer
    intent, steps = a["intent"], _steps(a)
    if intent == "path_exists" and not steps:
        case.fail("decision", "path_exists with an empty path")
    if intent in ("no_path", "label_lookup") and steps:
        case.fail("decision", f"{intent} must carry no path, but it cites {len(steps)} edge(s)")
    want = WALKS.get(intent)
    if want is not None:
        for i, e in enumerate(edges):
            if e is not None and e.rel != want:
                why = " (an inference is never a transfer)" if e.inferred else ""
                case.fail(
                    "decision", f"path[{i}]: edge {e.id} is a {e.rel} edge; a {intent} answer walks {want} edges{why}"
                )


def _hop_limit(case: Case) -> int:
    p = case.plan()
    if p is not None:
        return int(p.hops)
    return int(case.verifier.limits.max_hops)


def path(case: Case) -> None:
    """A connected walk from the question's start within the hop limit, whose nodes are all cited."""
    a = case.answer
    steps, intent = _steps(a), a["intent"]
    if not steps:
        return
    cited = [str(n) for n in a.get("cited_nodes") or []]
    limit = _hop_limit(case)
    p = case.plan()
    start = p.start if p is not None and p.start else None
    cited_set = set(cited)  # membership per path end: a list would make long answers quadratic
    for i, step in enumerate(steps):
        for end in (str(step["from"]), str(step["to"])):
            if end not in cited_set:
                case.fail("path", f"path[{i}]: node {end} is on the path but not in cited_nodes")
    if intent == "path_exists":
        nodes = [str(steps[0]["from"])]
        for i, step in enumerate(steps):
            if i and str(step["from"]) != str(steps[i - 1]["to"]):
                case.fail(
                    "path",
                    f"path is not connected: path[{i - 1}] ends at {steps[i - 1]['to']}, "
                    f"path[{i}] starts at {step['from']}",
                )
            nodes.append(str(step["to"]))
        if len(set(nodes)) != len(nodes):
            case.fail("path", f"path revisits a node ({' → '.join(nodes)}); a shortest path never does")
        if len(steps) > limit:
            case.fail("path", f"path has {_hops(len(steps))}, over the hop limit of {limit}")
        if start is not None:
            backward = bool(p and p.backward)
            end = nodes[-1] if backward else nodes[0]
            if end != start:
                where = "end" if backward else "start"
                case.fail(
                    "path",
                    f"path does not {where} at the question's start node {start} "
                    f"({'ends' if backward else 'starts'} at {end})",
                )
        return
    # token_flow and cluster_lookup: a set of edges tied to the start (not one chain)
    root = start or (cited[0] if cited else str(steps[0]["from"]))
    undirected = intent == "cluster_lookup" or intent == "token_flow"
    dist = _answer_distances(steps, root, undirected=undirected, backward=bool(p and p.backward))
    for i, step in enumerate(steps):
        near = min(dist.get(str(step["from"]), 10**9), dist.get(str(step["to"]), 10**9))
        if near >= 10**9:
            case.fail("path", f"path[{i}] ({step['edge_id']}) is not connected to the start node {root}")
        elif near + 1 > limit:
            case.fail(
                "path", f"path[{i}] ({step['edge_id']}) is {near + 1} hops from {root}, over the hop limit of {limit}"
            )


def _answer_distances(steps: list[dict[str, Any]], root: str, *, undirected: bool, backward: bool) -> dict[str, int]:
    """Hop distances from ``root`` over the answer's own edges (breadth-first)."""
    adj: dict[str, set[str]] = {}
    for s in steps:
        a, b = str(s["from"]), str(s["to"])
        if undirected or not backward:
            adj.setdefault(a, set()).add(b)
        if undirected or backward:
            adj.setdefault(b, set()).add(a)
    dist = {root: 0}
    frontier = [root]
    while frontier:
        nxt = []
        for n in frontier:
            for m in sorted(adj.get(n, ())):
                if m not in dist:
                    dist[m] = dist[n] + 1
                    nxt.append(m)
        frontier = nxt
    return dist


# -- yes/no against breadth-first search -----------------------------------------------------------------------


def _targets(snap: Snapshot, p: QuestionPlan) -> tuple[str, frozenset[URIRef] | None, str | None]:
    if p.target_node or p.target_class is None:
        return str(p.target_node), None, p.target_node
    classes = snap.onto.subclasses(p.target_class)
    return snap.onto.label(p.target_class, "ko") + f"({str(p.target_class).rsplit('#', 1)[-1]})", classes, None


def bfs(case: Case) -> None:
    """With the question: a path_exists/no_path answer agrees with a hop-limited BFS (networkx), and a found
    path is a shortest one ending at a target; a cluster lists exactly the BFS's same_entity neighbourhood."""
    a, snap = case.answer, case.snap
    p = case.plan()
    if p is None or not p.start or p.start not in snap.nodes or p.ambiguous:
        return
    intent, steps = a["intent"], _steps(a)
    if intent in ("path_exists", "no_path") and p.intent == "path" and (p.target_class is not None or p.target_node):
        what, classes, node = _targets(snap, p)
        dist = snap.distances(p.start, [TRANSFER], p.hops, backward=p.backward)
        hits = {
            n: d for n, d in dist.items() if n != p.start and (n == node if node else snap.has_class(n, classes or ()))
        }
        direction = "into" if p.backward else "from"
        if intent == "no_path" and hits:
            best = min(hits.items(), key=lambda kv: (kv[1], kv[0]))
            case.fail(
                "bfs",
                f"no_path, but breadth-first search finds a {best[1]}-hop path {direction} {p.start} "
                f"to {best[0]} ({what}) within {p.hops} hops",
            )
        if intent == "path_exists":
            if not hits:
                case.fail(
                    "bfs",
                    f"path_exists, but breadth-first search finds no {what} within {p.hops} hops {direction} {p.start}",
                )
            elif steps:
                shortest = min(hits.values())
                if len(steps) != shortest:
                    case.fail("bfs", f"path has {_hops(len(steps))}; the shortest path to {what} has {shortest}")
                end = str(steps[0]["from"]) if p.backward else str(steps[-1]["to"])
                if end not in hits:
                    case.fail("bfs", f"path ends at {end}, which is not {what} within {p.hops} hops")
    if intent == "cluster_lookup" and p.intent == "cluster":
        dist = snap.distances(p.start, [SAME], p.hops, undirected=True)
        members = set(dist)
        cited = {str(n) for n in a.get("cited_nodes") or []}
        if len(members) == 1 and not cited:
            return
        if cited != members:
            missing, extra = sorted(members - cited), sorted(cited - members)
            case.fail(
                "bfs",
                f"cluster differs from the same_entity neighbourhood within {p.hops} hops of "
                f"{p.start}: missing {missing or 'none'}, extra {extra or 'none'}",
            )


# -- inference -------------------------------------------------------------------------------------------------


def inference(case: Case, edges: list[EdgeFact | None]) -> None:
    """An answer resting on inferred same_entity links never has confidence high and says 추정 ("presumed" in
    an answer to an English question; either word when the question is not known)."""
    a = case.answer
    rests = [e.id for e in edges if e is not None and e.inferred]
    if a["intent"] == "cluster_lookup":  # a cluster is an inference whatever its edges turn out to be
        rests = list(dict.fromkeys([*rests, *(str(s["edge_id"]) for s in _steps(a))]))
    if not rests:
        return
    if a.get("confidence") == "high":
        case.fail(
            "inference",
            f"confidence high over inferred same_entity link(s) {', '.join(rests)}; an inference is at most mid",
        )
    words = [say("onchain.presumed", lang) for lang in ([lang_of(case.question)] if case.question else LANGS)]
    if not any(w in str(a.get("answer_ko", "")) for w in words):
        case.fail(
            "inference",
            f"the answer rests on inferred same_entity link(s) {', '.join(rests)} but does not "
            f"say it is an estimate ({' / '.join(words)})",
        )


# -- the generated query ---------------------------------------------------------------------------------------


def query(case: Case) -> None:
    """Run ``generated_query`` (inspected first) and compare its node set with the answer's and the gold's.

    Nodes the query *returns* are those in its result rows (as IRIs, or as literals equal to a node id);
    nodes it *names* are its constants. The answer must cite every returned node and may cite only returned
    or named ones.
    """
    a, snap = case.answer, case.snap
    text = a.get("generated_query")
    cited = {str(n) for n in a.get("cited_nodes") or []}
    for s in _steps(a):
        cited |= {str(s["from"]), str(s["to"])}
    if not isinstance(text, str) or not text.strip():
        if cited:
            case.fail("query", "no generated_query, though the answer cites nodes: nothing shows how they were found")
        return
    try:
        inspected = inspect_query(text, timeout=case.verifier.limits.query_timeout_s)
    except QueryRefused as exc:
        case.fail("query", f"generated_query refused before running: {exc}")
        return
    except (QueryError, StoreError) as exc:  # the check overran its time limit, or its worker failed
        case.fail("query", f"generated_query could not be checked: {exc}")
        return
    try:
        outcome = case.verifier.runner.run(inspected)
    except QueryError as exc:
        case.fail("query", f"generated_query failed: {exc}")
        return
    if outcome.truncated:
        case.fail(
            "query",
            f"generated_query returns more than {case.verifier.runner.max_rows} rows; its node set cannot be compared",
        )
        return
    named = node_ids(inspected.constants, snap.domain, snap.nodes)
    returned = node_ids([list(r.values()) for r in outcome.rows], snap.domain, snap.nodes)
    _compare(case, named, returned, cited, "the answer's cited nodes")
    gold = case.gold or {}
    if isinstance(gold.get("cited_nodes"), list):
        gold_nodes = {str(n) for n in gold["cited_nodes"]}
        for s in gold.get("path") or []:
            if isinstance(s, dict):
                gold_nodes |= {str(s.get("from")), str(s.get("to"))} - {"None"}
        _compare(case, named, returned, gold_nodes, "the gold node set")


def _compare(case: Case, named: set[str], returned: set[str], want: set[str], what: str) -> None:
    """Every node the query returns is in ``want``, and everything in ``want`` is returned or named by the
    query. A node the query only names (a start, a target it looked for and did not reach) may be left out."""
    unexplained = sorted(want - returned - named)
    uncited = sorted(returned - want)
    if unexplained or uncited:
        case.fail(
            "query",
            f"generated_query's node set differs from {what}: returned by the query but not in "
            f"{what} {uncited or 'none'}; in {what} but neither returned nor named by the query "
            f"{unexplained or 'none'}",
        )
