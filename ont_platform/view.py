"""Readable views of the answer contracts for people at a terminal."""

from __future__ import annotations

from collections.abc import Mapping

from ont_platform.answer.contracts import HopDecision, OnchainAnswer, PageFilterResult
from ont_platform.qa.engine import Answer


def node_ids(result: Answer) -> list[str]:
    """The node ids an answer names (its answer, path ends and cited nodes), in order, each once; none for a
    page filter, whose matches are URLs."""
    if isinstance(result, OnchainAnswer):
        found = [*result.cited_nodes, *(n for e in result.path for n in (e.from_, e.to))]
    elif isinstance(result, HopDecision):
        answers = (a.strip() for a in (result.answer or "").split(","))
        found = [*answers, *(n for h in result.path for n in (h.src, h.dst))]
    else:
        found = []
    return list(dict.fromkeys(n for n in found if n))


def render(result: Answer, question: str | None = None, labels: Mapping[str, str] | None = None) -> str:
    """A few lines per answer: the question, the decision, the path or rows, and the evidence. With ``labels``
    (node id → label, :meth:`KnowledgeGraph.labels`) each node id is followed by its name."""
    names = labels or {}

    def n(node: str | None) -> str:
        return f"{node} ({names[node]})" if node is not None and node in names else str(node)

    lines: list[str] = []
    if isinstance(result, OnchainAnswer):
        lines.append(f"[{result.q_id}] {question or ''}".rstrip())
        lines.append(f"  {result.intent} · confidence {result.confidence} · grounded {result.grounding_ok}")
        lines.append(f"  {result.answer_ko}")
        for e in result.path:
            lines.append(f"    {e.edge_id}: {n(e.from_)} → {n(e.to)}  tx {e.tx_hash or '— (inferred)'}")
        if result.cited_nodes:
            lines.append(f"  cited: {', '.join(map(n, result.cited_nodes))}")
    elif isinstance(result, HopDecision):
        lines.append(f"[{result.query_id}] {question or ''}".rstrip())
        shown = f" → {', '.join(n(a.strip()) for a in result.answer.split(','))}" if result.answer else ""
        factors = f" ({', '.join(result.factors)})" if result.factors else ""
        lines.append(f"  {result.decision}{shown}{factors}")
        lines.append(f"  {result.reason}")
        for h in result.path:
            grounds = f"stated in {h.source}" if h.triple is not None else f"chunk {h.chunk_id or '— (none)'}"
            lines.append(f"    {n(h.src)} -{h.rel}-> {n(h.dst)}  {grounds}")
        lines.append(f"  evidence: {result.evidence}")
        if result.hedge:
            lines.append(f"  note: {result.hedge}")
    elif isinstance(result, PageFilterResult):
        lines.append(f"[pages] {result.question}")
        lines.append(f"  {result.status}" + (f" · {result.parsed_filter}" if result.parsed_filter else ""))
        for m in result.matched:
            lines.append(f"    {m.url}  ({m.evidence})")
        if result.count is not None:
            lines.append(f"  {result.count} page(s)")
        lines.append(f"  note: {result.hedge}")
    return "\n".join(lines) + "\n"
