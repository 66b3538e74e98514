"""Notebook display of answers and reports (``_repr_html_``): a small table, and an answer's path as a picture.

Jupyter calls ``_repr_html_`` on the last value of a cell. Answers get their main fields as a table and their
path drawn as an SVG row of boxes and arrows (node ids, relation names, evidence under each arrow); reports
(:class:`~ont_platform.LoadReport`, :class:`~ont_platform.IngestReport`, :class:`~ont_platform.ValidationResult`
…) get their ``as_dict()`` as a table. Everything shown is escaped: node ids, labels and reasons come from data
and from LLM output. No script, no style sheet and no network: the markup is static and self-contained.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from html import escape
from typing import Any

_BOX_W, _BOX_H, _GAP, _PAD = 150, 34, 120, 8
_MAX_TEXT = 22


def _short(text: str, limit: int = _MAX_TEXT) -> str:
    return text if len(text) <= limit else text[: limit - 1] + "…"


def path_svg(hops: Sequence[tuple[str, str, str, str | None]]) -> str:
    """An SVG picture of a path: each hop ``(source, relation, target, evidence)`` as box → arrow → box.

    >>> "ch_1" in path_svg([("a", "worksFor", "b", "ch_1")])
    True
    >>> path_svg([])
    ''
    """
    if not hops:
        return ""
    nodes = [hops[0][0], *(h[2] for h in hops)]
    width = len(nodes) * _BOX_W + (len(nodes) - 1) * _GAP + 2 * _PAD
    height = _BOX_H + 2 * _PAD + 18
    parts = [
        f'<svg xmlns="http://www.w3.org/2000/svg" width="{width}" height="{height}" role="img" '
        f'aria-label="answer path" style="font-family: sans-serif; font-size: 12px">'
    ]
    y = _PAD
    for i, node in enumerate(nodes):
        x = _PAD + i * (_BOX_W + _GAP)
        parts.append(
            f'<rect x="{x}" y="{y}" width="{_BOX_W}" height="{_BOX_H}" rx="6" fill="#eef3fb" stroke="#4a6fa5"/>'
        )
        parts.append(
            f'<text x="{x + _BOX_W / 2}" y="{y + _BOX_H / 2 + 4}" text-anchor="middle">'
            f"<title>{escape(node)}</title>{escape(_short(node))}</text>"
        )
    for i, (_src, rel, _dst, evidence) in enumerate(hops):
        x1 = _PAD + i * (_BOX_W + _GAP) + _BOX_W
        x2 = x1 + _GAP
        mid_y = y + _BOX_H / 2
        parts.append(f'<line x1="{x1 + 2}" y1="{mid_y}" x2="{x2 - 8}" y2="{mid_y}" stroke="#333"/>')
        parts.append(f'<polygon points="{x2 - 2},{mid_y} {x2 - 10},{mid_y - 4} {x2 - 10},{mid_y + 4}" fill="#333"/>')
        parts.append(f'<text x="{(x1 + x2) / 2}" y="{mid_y - 6}" text-anchor="middle">{escape(_short(rel, 18))}</text>')
        under = evidence if evidence else "no evidence"
        parts.append(
            f'<text x="{(x1 + x2) / 2}" y="{mid_y + 16}" text-anchor="middle" fill="#666">'
            f"<title>{escape(under)}</title>{escape(_short(under, 18))}</text>"
        )
    parts.append("</svg>")
    return "".join(parts)


def _cell(value: Any) -> str:
    if isinstance(value, Mapping):
        return "<br>".join(f"{escape(str(k))}: {escape(str(v))}" for k, v in value.items())
    if isinstance(value, list | tuple):
        return "<br>".join(escape(str(v)) for v in value[:50]) + ("<br>…" if len(value) > 50 else "")
    return escape("" if value is None else str(value))


def table(title: str, rows: Mapping[str, Any]) -> str:
    """A two-column table of ``rows`` under a bold title, every value escaped.

    >>> table("t", {"a": "<b>"})
    '<div><strong>t</strong><table><tr><th style="text-align:left">a</th><td style="text-align:left">&lt;b&gt;</td></tr></table></div>'
    """
    body = "".join(
        f'<tr><th style="text-align:left">{escape(str(k))}</th><td style="text-align:left">{_cell(v)}</td></tr>'
        for k, v in rows.items()
    )
    return f"<div><strong>{escape(title)}</strong><table>{body}</table></div>"


def answer_html(doc: Mapping[str, Any], kind: str) -> str:
    """The HTML of one answer contract (its JSON form ``doc``; ``kind`` is the contract's class name)."""
    if "decision" in doc:  # HopDecision
        rows = {k: doc.get(k) for k in ("decision", "answer", "factors", "reason", "evidence", "hedge")}
        hops = [(h["src"], h["rel"], h["dst"], h.get("chunk_id")) for h in doc.get("path", [])]
    elif "intent" in doc:  # OnchainAnswer
        rows = {k: doc.get(k) for k in ("intent", "confidence", "grounding_ok", "answer_ko", "cited_nodes")}
        hops = [(e["from"], "transfer", e["to"], e.get("tx_hash")) for e in doc.get("path", [])]
    else:  # PageFilterResult
        rows = {k: doc.get(k) for k in ("status", "parsed_filter", "count", "hedge")}
        rows["matched"] = [f"{m['url']} ({m['evidence']})" for m in doc.get("matched", [])]
        hops = []
    return table(kind, rows) + path_svg(hops)


__all__ = ["answer_html", "path_svg", "table"]
