"""Taking relations (and nodes) back: a reviewed graph keeps what it said, who withdrew it, when and why.

A relation found wrong after review (a spot check, an ungrounded hop) is retracted rather than deleted:

* its resource loses the links every walk and every citation follows -- ``ont:source``, ``ont:target`` and
  ``ont:kind`` become ``ont:retractedSource``, ``ont:retractedTarget`` and ``ont:retractedKind``, and its
  class becomes ``ont:RetractedRelation`` -- so no question walks it and no answer cites it;
* the plain triple ``source kind target`` goes too, unless another live relation still asserts it;
* a ``prov:Activity`` (``id:{domain}/retraction/{uuid}``) records when (``prov:endedAtTime``), by whom
  (``prov:wasAssociatedWith``, an agent named in ``rdfs:label``) and why (``rdfs:comment``), and the relation
  points to it with ``prov:wasInvalidatedBy``.

Retracting a node retracts every live relation touching it in the same activity, and the node's ``ont:id``
and class move aside the same way (``ont:retractedId``, ``ont:RetractedNode``), so its names leave the
question vocabulary. Everything is checked first and written as one update: all or nothing. Its id stays
taken: an incremental load that brings the same id back is refused as a conflict.
"""

from __future__ import annotations

import datetime as dt
import uuid
from dataclasses import dataclass, field
from urllib.parse import unquote

from rdflib import RDF, RDFS, Literal, Namespace, URIRef
from rdflib.term import Node

from ont_platform.errors import InputError
from ont_platform.namespaces import ONT, mint
from ont_platform.sparql import retraction as q
from ont_platform.storage.base import Store
from ont_platform.text_policy import UnsafeText, clean_text

PROV = Namespace("http://www.w3.org/ns/prov#")
_MOVED: dict[Node, URIRef] = {
    ONT.source: ONT.retractedSource,
    ONT.target: ONT.retractedTarget,
    ONT.kind: ONT.retractedKind,
}
_MAX_REASON = 2000


@dataclass
class RetractReport:
    """What a retraction did."""

    domain: str
    activity: str
    """The IRI of the ``prov:Activity`` that records it."""
    edges: list[str] = field(default_factory=list)
    nodes: list[str] = field(default_factory=list)
    triples_removed: int = 0
    """Plain ``source kind target`` triples no live relation asserts any more."""

    def _repr_html_(self) -> str:
        """:meth:`as_dict` as a table, for notebooks."""
        from ont_platform.answer.html import table

        return table(type(self).__name__, self.as_dict())

    def as_dict(self) -> dict[str, object]:
        return {
            "domain": self.domain,
            "activity": self.activity,
            "edges": self.edges,
            "nodes": self.nodes,
            "triples_removed": self.triples_removed,
        }


def retract(
    store: Store,
    domain: str,
    *,
    edge_ids: list[str],
    node_ids: list[str],
    reason: str,
    by: str | None = None,
    now: dt.datetime | None = None,
) -> RetractReport:
    """Retract the relations ``edge_ids`` and the nodes ``node_ids`` of ``domain`` (with their relations).
    Raises InputError, changing nothing, for an empty reason, an unknown or already retracted id, or nothing
    to retract."""
    if not edge_ids and not node_ids:
        raise InputError("nothing to retract: give edge ids or node ids")
    try:
        why = clean_text(reason or "", "text", what="reason").strip()
        who = clean_text(by, "label", what="by").strip() if by else None
    except UnsafeText as exc:
        raise InputError(str(exc)) from exc
    if not why:
        raise InputError("a retraction needs a reason")
    if len(why) > _MAX_REASON or (who is not None and len(who) > 200):
        raise InputError(f"a retraction's reason is at most {_MAX_REASON} characters, its author 200")
    edges = [mint(domain, "edge", e) for e in dict.fromkeys(edge_ids)]
    nodes = [mint(domain, "node", n) for n in dict.fromkeys(node_ids)]
    about = _described(store, [*edges, *nodes])
    for e, eid in zip(edges, dict.fromkeys(edge_ids), strict=True):
        if not {ONT.source, ONT.target, ONT.kind} <= {p for p, _ in about.get(e, ())}:
            raise InputError(f"no live relation {eid!r} in {domain} (unknown, or retracted already)")
    for n, nid in zip(nodes, dict.fromkeys(node_ids), strict=True):
        if ONT.id not in {p for p, _ in about.get(n, ())}:
            raise InputError(f"no live node {nid!r} in {domain} (unknown, or retracted already)")
    if nodes:
        extra = [URIRef(str(r["e"])) for r in store.select(q.touching(nodes))]
        extra = [e for e in extra if e not in about]
        about.update(_described(store, extra))
        edges += extra
    activity = mint(domain, "retraction", uuid.uuid4().hex)
    when = (now or dt.datetime.now(dt.UTC)).replace(microsecond=0)
    deletes: list[tuple[Node, Node, Node]] = []
    inserts: list[tuple[Node, Node, Node]] = [
        (activity, RDF.type, PROV.Activity),
        (activity, PROV.endedAtTime, Literal(when)),
        (activity, RDFS.comment, Literal(why)),
    ]
    if who:
        agent = URIRef(f"{activity}#agent")
        inserts += [
            (activity, PROV.wasAssociatedWith, agent),
            (agent, RDF.type, PROV.Agent),
            (agent, RDFS.label, Literal(who)),
        ]
    removed = 0
    for e in edges:
        links = {p: o for p, o in about[e] if p in _MOVED}
        for p, o in about[e]:
            if p in _MOVED:
                deletes.append((e, p, o))
                inserts.append((e, _MOVED[p], o))
            elif p == RDF.type:
                deletes.append((e, p, o))
                inserts.append((e, ONT.retractedType, o))
        inserts += [(e, RDF.type, ONT.RetractedRelation), (e, PROV.wasInvalidatedBy, activity)]
        src, kind, dst = (URIRef(str(links[p])) for p in (ONT.source, ONT.kind, ONT.target))  # stored as IRIs
        if not store.ask(q.still_asserted(src, kind, dst, edges)):
            deletes.append((src, kind, dst))
            removed += 1
    for n in nodes:
        for p, o in about[n]:
            if p in (ONT.id, RDF.type):
                deletes.append((n, p, o))
                inserts.append((n, ONT.retractedId if p == ONT.id else ONT.retractedType, o))
        inserts += [(n, RDF.type, ONT.RetractedNode), (n, PROV.wasInvalidatedBy, activity)]
    store.update(q.update((_nt(t) for t in deletes), (_nt(t) for t in inserts)))
    return RetractReport(domain, str(activity), [_local(e) for e in edges], list(dict.fromkeys(node_ids)), removed)


def _described(store: Store, resources: list[URIRef]) -> dict[Node, list[tuple[Node, Node]]]:
    out: dict[Node, list[tuple[Node, Node]]] = {}
    for i in range(0, len(resources), 200):
        for row in store.select(q.described(resources[i : i + 200])):
            s, p, o = row["s"], row["p"], row["o"]
            assert s is not None and p is not None and o is not None  # ?s ?p ?o are bound in every row
            out.setdefault(s, []).append((p, o))
    return out


def _nt(triple: tuple[Node, Node, Node]) -> str:
    s, p, o = triple
    return f"{s.n3()} {p.n3()} {o.n3()} ."


def _local(term: URIRef) -> str:
    return unquote(str(term).rsplit("/", 1)[-1])
