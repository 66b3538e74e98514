"""A dataset folder loaded into a store that already holds its domain: the rows it adds, keeps and replaces.

A load of a second folder of a domain is compared with the store resource by resource (a node, an edge, a
chunk, a page, a dictionary row, the dataset record): each resource's own triples -- everything but the direct
relation triples an edge puts on its source node, which follow from the edge -- are read back from the store
and compared as RDF terms (a literal by its value and datatype, so a store that writes ``0.40`` as ``0.4``
compares equal).

* a resource the store lacks is **added**;
* one whose triples are the same is **unchanged** (skipped, counted);
* one whose triples differ is a **conflict**: with ``mode="strict"`` (the default) the whole load is refused,
  naming the file, the line and the fields that differ; with ``mode="upsert"`` its literal values (labels,
  aliases, chunk text, the grounded flag, timestamps, page metrics …) are **replaced**. A difference in what a
  resource *links to* (its class, an edge's source, target or relation, an edge's chunk) is refused even then:
  the old link would leave a relation behind that nothing asserts any more; such a row needs a new id.

The plan is made before anything is written, and the writes are one request, so the load stays all or
nothing. The folder is checked on its own first (ontology, shapes; every edge's ends must be rows of the same
folder), so a folder that adds edges between stored nodes repeats those nodes' rows -- unchanged rows cost
nothing. Unlike a first load, an incremental one holds the folder's triples in memory while it compares.
"""

from __future__ import annotations

from collections import defaultdict
from collections.abc import Callable, Iterable
from dataclasses import dataclass, field
from typing import Literal as TypingLiteral

from rdflib import BNode, Graph, Literal, URIRef
from rdflib.term import Node

from ont_platform.errors import DatasetError, InputError, Problem
from ont_platform.sparql.common import described
from ont_platform.storage.base import Store

LoadMode = TypingLiteral["strict", "upsert"]
_BATCH = 200
"""Subjects read back per query."""


@dataclass
class Increment:
    """What merging a folder into the store will do (nothing is written until :meth:`apply`)."""

    added: int = 0
    unchanged: int = 0
    replaced: int = 0
    inserts: list[tuple[Node, Node, Node]] = field(default_factory=list)
    deletes: list[tuple[Node, Node, Node]] = field(default_factory=list)

    def apply(self, store: Store) -> None:
        """Write the plan in one request: removed values and new triples together, or neither."""
        if not self.inserts and not self.deletes:
            return
        if not self.deletes:
            store.add_ntriples("".join(f"{s.n3()} {p.n3()} {o.n3()} .\n" for s, p, o in self.inserts))
            return
        body = "DELETE DATA { " + " ".join(f"{s.n3()} {p.n3()} {o.n3()} ." for s, p, o in self.deletes) + " }"
        if self.inserts:
            body += " ;\nINSERT DATA { " + " ".join(f"{s.n3()} {p.n3()} {o.n3()} ." for s, p, o in self.inserts)
            body += " }"
        store.update(body)


def mode_of(value: str) -> LoadMode:
    if value not in ("strict", "upsert"):
        raise InputError(f"mode must be 'strict' or 'upsert', not {value!r}")
    return value  # type: ignore[return-value]  # checked just above


def plan(
    store: Store,
    chunks: Iterable[bytes],
    relations: frozenset[URIRef],
    mode: LoadMode,
    origin: Callable[[str], tuple[str, int | None]],
    *,
    fixed: frozenset[URIRef] = frozenset(),
    max_problems: int = 20,
) -> Increment:
    """Compare the folder's triples (``chunks``, N-Triples) with the store; raise DatasetError on a conflict
    the mode does not allow. ``relations``: the predicates of direct relation triples (kept out of a
    resource's own description); ``fixed``: literal-valued predicates an upsert never replaces either (the
    ontology stored with the dataset); ``origin``: the file and line that produced a resource."""
    graph = Graph()
    graph.parse(data=b"".join(chunks), format="nt")
    own: dict[Node, set[tuple[Node, Node]]] = defaultdict(set)
    direct: list[tuple[Node, Node, Node]] = []
    for s, p, o in graph:
        if isinstance(s, BNode) or isinstance(o, BNode):
            raise InputError("a dataset folder produced a blank node; incremental loads compare named resources")
        if p in relations:
            direct.append((s, p, o))
        else:
            own[s].add((p, o))
    stored = _stored(store, list(own), relations)
    out = Increment()
    problems: list[Problem] = []
    for s, new in own.items():
        old = stored.get(s)
        if not old:
            out.added += 1
            out.inserts.extend((s, p, o) for p, o in new)
            continue
        new_keys = {(p, _key(o)) for p, o in new}
        old_keys = {(p, _key(o)) for p, o in old}
        if new_keys == old_keys:
            out.unchanged += 1
            continue
        gone = [(p, o) for p, o in old if (p, _key(o)) not in new_keys]
        came = [(p, o) for p, o in new if (p, _key(o)) not in old_keys]
        links = [p for p, o in [*gone, *came] if not isinstance(o, Literal) or p in fixed]
        if mode == "strict" or links:
            file, line = origin(str(s))
            fields = sorted({_short(p) for p, _ in [*gone, *came]})
            why = f"{_short(s)} differs from the stored one in {', '.join(fields)}" + (
                " (what it links to; give the row a new id)"
                if mode == "upsert"
                else " (load with mode='upsert' to replace its values)"
            )
            problems.append(Problem(file, line, why))
            if len(problems) >= max_problems:
                break
            continue
        out.replaced += 1
        out.deletes.extend((s, p, o) for p, o in gone)
        out.inserts.extend((s, p, o) for p, o in came)
    if problems:
        raise DatasetError(problems)
    out.inserts.extend(direct)  # a direct triple already stored is a no-op
    return out


def _stored(store: Store, subjects: list[Node], relations: frozenset[URIRef]) -> dict[Node, set[tuple[Node, Node]]]:
    """Each subject's own stored triples (direct relation triples left out)."""
    found: dict[Node, set[tuple[Node, Node]]] = defaultdict(set)
    for i in range(0, len(subjects), _BATCH):
        batch = [s for s in subjects[i : i + _BATCH] if isinstance(s, URIRef)]  # blank nodes were refused
        for row in store.select(described(batch)):
            s, p, o = row["s"], row["p"], row["o"]
            assert s is not None and p is not None and o is not None  # ?s ?p ?o are bound in every row
            if p not in relations:
                found[s].add((p, o))
    return found


def _key(o: Node) -> object:
    """A term as compared: a literal by value, datatype and language when its value parses, else as written."""
    if isinstance(o, Literal):
        value = o.value if o.value is not None and o.datatype is not None else str(o)
        return ("literal", value, o.datatype, o.language)
    return o


def _short(term: Node) -> str:
    text = str(term)
    return text.rsplit("#", 1)[-1].rsplit("/", 1)[-1]
