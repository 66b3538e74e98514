"""Running the bundled SHACL shapes with pyshacl.

Shapes are read once per domain and reused. Validation runs without inference on the graph it is given, so the
caller decides its size: the loader passes the new batch (plus what it references), never a whole large store.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import TYPE_CHECKING

from rdflib import Graph, URIRef
from rdflib.namespace import SH

if TYPE_CHECKING:
    from ont_platform.domains import Domain


@dataclass(frozen=True, slots=True)
class Violation:
    """One SHACL result: the resource at fault, the property path if any, and the shape's message."""

    focus: str
    path: str | None
    message: str
    severity: str


def shapes_graph(*domains: str | Domain) -> Graph:
    """Core shapes plus the shapes of each domain (kept with the domain: read once)."""
    from ont_platform.domains import get_domain

    found = [get_domain(d) for d in domains]
    if len(found) == 1:
        return found[0].shapes
    g = Graph()
    for d in found:
        g += d.shapes
    return g


def check(data: Graph, domain: str | Domain) -> list[Violation]:
    """Validate ``data`` against the domain's shapes; an empty list means it conforms."""
    from pyshacl import validate  # here, not at import: the compiled shapes usually answer without it

    conforms, report, _ = validate(
        data,
        shacl_graph=shapes_graph(domain),
        inference="none",
        abort_on_first=False,
        allow_warnings=True,
        advanced=True,
    )
    if conforms:
        return []
    assert isinstance(report, Graph)
    out: list[Violation] = []
    for result in report.subjects(SH.resultSeverity, None):
        severity = report.value(result, SH.resultSeverity)
        if severity is not None and severity != SH.Violation:
            continue
        focus = report.value(result, SH.focusNode)
        path = report.value(result, SH.resultPath)
        message = report.value(result, SH.resultMessage)
        out.append(
            Violation(
                focus=str(focus),
                path=str(path) if isinstance(path, URIRef) else None,
                message=str(message) if message is not None else "violates a shape",
                severity="Violation",
            )
        )
    out.sort(key=lambda v: (v.focus, v.path or "", v.message))
    return out
