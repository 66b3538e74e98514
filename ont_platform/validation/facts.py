"""Would-be facts: how an extraction becomes triples, the stored neighbourhood they need, SHACL on the two.

Both the critic validator (``ontocast``) and ingest use these functions, so what the critic checks on a copy
is exactly what ingest would write. The modelling follows the CSV loader (docs/data-model.md): an entity is
``id:{domain}/node/{id}`` with its class, ``ont:id`` and label; a relation is a resource
``id:{domain}/edge/{id}`` (source, target, kind, grounded, chunk) *and* the plain triple ``source kind
target``; evidence is an ``ont:Evidence`` resource; a relation's chunk text is an ``ont:Chunk``.

SHACL never runs on a whole store: the copy is the new triples plus, from the store, what the shapes look at
around them (existing literals and core links of the touched resources, the classes and literals of the nodes
they point to, the plain triples of touched relations); only results about the new resources count. The copy
is a :class:`~ont_platform.validation.shapes.Triples` set and the shapes run compiled (see that module).
"""

from __future__ import annotations

import hashlib
import math
from collections.abc import Iterable, Iterator, Mapping
from concurrent.futures import ThreadPoolExecutor
from dataclasses import dataclass, field
from typing import Any
from urllib.parse import quote

from rdflib import RDF, RDFS, Graph, Literal, URIRef
from rdflib.term import Node

from ont_platform.errors import InputError, OntologyError
from ont_platform.namespaces import ID, ONT, mint
from ont_platform.ontology.shacl import Violation, check
from ont_platform.rdf_terms import XSD, iri, literal
from ont_platform.storage.base import Rows, Store
from ont_platform.validation.models import Evidence, OntologyExtractionResult
from ont_platform.validation.rules import Code, Findings, entity_classes
from ont_platform.validation.shapes import Triples, compiled
from ont_platform.validation.terms import OntologyIndex, decimal_lexical, lexical

_XSD = XSD
# The terms as plain URIRefs: an attribute of rdflib's DefinedNamespace costs ~7 µs per access, and
# mapping a batch of 100 relations touches them ~7,000 times.
_ONT_CHUNK_CLASS = URIRef(str(ONT.Chunk))
_ONT_EVIDENCE_CLASS = URIRef(str(ONT.Evidence))
_ONT_CHUNK = URIRef(str(ONT.chunk))
_ONT_CONFIDENCE = URIRef(str(ONT.confidence))
_ONT_EVIDENCE = URIRef(str(ONT.evidence))
_ONT_GROUNDED = URIRef(str(ONT.grounded))
_ONT_ID = URIRef(str(ONT.id))
_ONT_KIND = URIRef(str(ONT.kind))
_ONT_OFFSET = URIRef(str(ONT.offset))
_ONT_SOURCE = URIRef(str(ONT.source))
_ONT_SOURCEURL = URIRef(str(ONT.sourceUrl))
_ONT_TARGET = URIRef(str(ONT.target))
_ONT_TEXT = URIRef(str(ONT.text))
_TYPE = URIRef(str(RDF.type))
_LABEL = URIRef(str(RDFS.label))
_CORE_LINKS = (_TYPE, _ONT_SOURCE, _ONT_TARGET, _ONT_KIND, _ONT_CHUNK, _ONT_EVIDENCE)
_VALUES_BATCH = 400

Triple = tuple[URIRef, URIRef, Node]


@dataclass
class Facts:
    """The triples an extraction would add, and where each minted resource came from in the payload."""

    domain: str
    triples: list[Triple] = field(default_factory=list)
    paths: dict[URIRef, str] = field(default_factory=dict)
    entities: dict[str, URIRef] = field(default_factory=dict)
    relations: dict[str, URIRef] = field(default_factory=dict)
    counts: dict[str, int] = field(default_factory=dict)

    @property
    def focus(self) -> set[URIRef]:
        """The resources this extraction mints or extends (the SHACL focus nodes)."""
        return set(self.paths)

    def add(self, s: URIRef, p: URIRef, o: Node) -> None:
        self.triples.append((s, p, o))

    def ntriples(self) -> str:
        """The triples as N-Triples text, every term escaped (duplicates written once)."""
        return "".join(f"{s} {p} {o} .\n" for s, p, o in self.written())

    def written(self) -> list[tuple[str, str, str]]:
        """Each distinct triple once, its terms written as N-Triples / SPARQL text."""
        return [(nt_term(s), nt_term(p), nt_term(o)) for s, p, o in dict.fromkeys(self.triples)]

    def graph(self) -> Graph:
        g = Graph()
        for t in self.triples:
            g.add(t)
        return g

    def __len__(self) -> int:
        return len(set(self.triples))


def nt_term(term: Node) -> str:
    """One term as N-Triples / SPARQL text, escaped by the project's writer."""
    if isinstance(term, URIRef):
        return iri(str(term))
    if isinstance(term, Literal):
        if term.language:
            return literal(str(term), lang=term.language)
        return literal(str(term), str(term.datatype) if term.datatype is not None else None)
    raise OntologyError(f"cannot write {term!r} as N-Triples")


def _lit(value: str, datatype: str | None = None) -> Literal:
    # normalize=False keeps the lexical form exactly as checked (big integers, decimals without exponent).
    if datatype is None:
        return Literal(value)
    return Literal(value, datatype=URIRef(_XSD + datatype if ":" not in datatype else datatype), normalize=False)


def evidence_iri(domain: str, owner: URIRef, ev: Evidence) -> URIRef:
    """An evidence resource named by its content, so the same evidence ingested twice is one resource."""
    key = "\x1f".join(str(x) for x in (owner, ev.source_url, ev.offset, ev.confidence, ev.chunk_id, ev.chunk_text))
    digest = hashlib.sha256(key.encode("utf-8", "surrogatepass")).hexdigest()[:24]
    return URIRef(f"{ID}{quote(domain, safe='')}/evidence/{digest}")


def chunk_id_of(ev: Evidence) -> str:
    """The chunk id an evidence names, or one derived from its text."""
    if ev.chunk_id:
        return ev.chunk_id
    text = ev.chunk_text or ""
    return "c_" + hashlib.sha256(text.encode("utf-8", "surrogatepass")).hexdigest()[:16]


def build_facts(ext: OntologyExtractionResult, index: OntologyIndex, out: Findings) -> Facts:
    """Map an extraction (already checked by the rules) to triples; what cannot be mapped is reported.

    Only individuals become resources: entities of type ``class`` or ``property`` are ontology candidates and
    are left out with a warning (the ontology files change by review, not by ingest).
    """
    domain = index.domain
    facts = Facts(domain)
    classes = entity_classes(ext, index)
    skipped: set[str] = set()
    for i, e in enumerate(ext.entities):
        p = f"$.entities[{i}]"
        if e.type != "individual":
            skipped.add(e.id)
            out.warn(
                Code.NOT_AN_INDIVIDUAL,
                f"{p}.type",
                f"entity {e.id[:60]!r} is a {e.type}, not an individual: it is not written to the graph",
            )
            continue
        cls = classes.get(e.id)
        if cls is None:
            if e.ontology_class is None:
                out.error(
                    Code.CLASS_REQUIRED,
                    f"{p}.ontology_class",
                    f"entity {e.id[:60]!r} needs an ontology class to be stored",
                    f"Classes of the {domain} ontology: {', '.join(index.class_names())}.",
                )
            continue
        node = mint(domain, "node", e.id)
        if node in facts.paths:
            continue  # a duplicate id, already reported by the rules
        facts.entities[e.id] = node
        facts.paths[node] = p
        facts.add(node, _TYPE, cls)
        facts.add(node, _ONT_ID, _lit(e.id))
        facts.add(node, _LABEL, _lit(e.label))
        _confidence(facts, node, e.confidence)
        _attributes(facts, node, e.attributes, index)
        _evidence(facts, node, e.evidence, domain, p)
    for j, r in enumerate(ext.relations):
        p = f"$.relations[{j}]"
        rel = index.resolve_relation(r.predicate)
        if rel is None:
            continue  # reported by the ontology rules
        bad = [end for end in ("source_id", "target_id") if getattr(r, end) in skipped]
        for end in bad:
            out.error(
                Code.NOT_AN_INDIVIDUAL,
                f"{p}.{end}",
                f"{getattr(r, end)[:60]!r} is not an individual; relations link individuals",
            )
        s, o = facts.entities.get(r.source_id), facts.entities.get(r.target_id)
        rel_class = index.relation_class(rel)
        if bad or s is None or o is None or rel_class is None:
            continue
        edge = mint(domain, "edge", r.id)
        if edge in facts.paths:
            continue
        facts.relations[r.id] = edge
        facts.paths[edge] = p
        facts.add(edge, _TYPE, rel_class)
        facts.add(edge, _ONT_ID, _lit(r.id))
        facts.add(edge, _ONT_SOURCE, s)
        facts.add(edge, _ONT_TARGET, o)
        facts.add(edge, _ONT_KIND, rel.iri)
        chunk_ev = next((ev for ev in r.evidence if ev.chunk_text), None)
        facts.add(edge, _ONT_GROUNDED, _lit("true" if chunk_ev is not None else "false", "boolean"))
        if chunk_ev is not None:
            chunk = mint(domain, "chunk", chunk_id_of(chunk_ev))
            facts.paths.setdefault(chunk, f"{p}.evidence")
            facts.add(chunk, _TYPE, _ONT_CHUNK_CLASS)
            facts.add(chunk, _ONT_ID, _lit(chunk_id_of(chunk_ev)))
            facts.add(chunk, _ONT_TEXT, _lit(chunk_ev.chunk_text or ""))
            facts.add(edge, _ONT_CHUNK, chunk)
        _confidence(facts, edge, r.confidence)
        _attributes(facts, edge, r.attributes, index)
        _evidence(facts, edge, r.evidence, domain, p)
        facts.add(s, rel.iri, o)
    facts.counts = {
        "entities": len(facts.entities),
        "relations": len(facts.relations),
        "chunks": sum(1 for n in facts.paths if "/chunk/" in str(n)),
        "evidence": sum(1 for n in facts.paths if "/evidence/" in str(n)),
    }
    return facts


def _confidence(facts: Facts, node: URIRef, value: float | None) -> None:
    text = decimal_lexical(value) if value is not None else None
    if text is not None:
        facts.add(node, _ONT_CONFIDENCE, _lit(text, "decimal"))


def _attributes(facts: Facts, node: URIRef, attrs: Mapping[str, object], index: OntologyIndex) -> None:
    for name, value in attrs.items():
        prop = index.datatype_properties.get(name)
        if prop is None:
            continue
        for item in value if isinstance(value, list) else [value]:
            text = lexical(item, prop.range)
            if text is not None:
                dt = None if prop.range is None or str(prop.range) == _XSD + "string" else str(prop.range)
                facts.add(node, prop.iri, _lit(text, dt))


def _evidence(facts: Facts, owner: URIRef, items: list[Evidence], domain: str, path: str) -> None:
    for k, ev in enumerate(items):
        if ev.source_url is None and ev.offset is None and ev.confidence is None:
            continue  # nothing to record beyond the chunk (relations keep it through ont:chunk)
        node = evidence_iri(domain, owner, ev)
        facts.paths.setdefault(node, f"{path}.evidence[{k}]")
        facts.add(node, _TYPE, _ONT_EVIDENCE_CLASS)
        if ev.source_url is not None:
            facts.add(node, _ONT_SOURCEURL, _lit(ev.source_url, "anyURI"))
        if ev.offset is not None:
            facts.add(node, _ONT_OFFSET, _lit(str(ev.offset), "integer"))
        _confidence(facts, node, ev.confidence)
        facts.add(owner, _ONT_EVIDENCE, node)


# --- the stored neighbourhood --------------------------------------------------------------------------------


def as_store(store: Any) -> Store | None:
    """Accept a :class:`Store`, anything with a ``.store`` (a KnowledgeGraph) or an rdflib Graph."""
    if store is None or isinstance(store, Store):
        return store
    inner = getattr(store, "store", None)
    if isinstance(inner, Store):
        return inner
    if isinstance(store, Graph):
        from ont_platform.storage import open_store

        return open_store("rdflib", graph=store)
    raise InputError(f"store must be a Store, a KnowledgeGraph or an rdflib Graph, not {type(store).__name__}")


def _batches(items: Iterable[URIRef], parts: int = 1) -> Iterator[list[URIRef]]:
    """``items`` sorted, in batches of at most ``_VALUES_BATCH``, and in at least ``parts`` batches when there
    are that many items (so that ``parts`` threads can read them)."""
    ordered = sorted(set(items))
    if not ordered:
        return
    count = max(min(max(1, parts), len(ordered)), math.ceil(len(ordered) / _VALUES_BATCH))
    size, longer = divmod(len(ordered), count)
    start = 0
    for k in range(count):
        end = start + size + (1 if k < longer else 0)
        yield ordered[start:end]
        start = end


def _select_all(store: Store, queries: list[str], timeout: float | None) -> list[Rows]:
    """Run ``queries`` and return their rows in order, over :attr:`Store.read_parallelism` threads: on disk, the
    waits of reads of blocks not in memory overlap."""

    def run(query: str) -> Rows:
        return store.select(query, timeout=timeout)

    # a read with a time limit runs in a query worker of the embedded store (one at a time), where threads would
    # only queue, and each would count the others' time against its own limit
    workers = min(store.read_parallelism, len(queries)) if timeout is None else 1
    if workers <= 1:
        return [run(q) for q in queries]
    with ThreadPoolExecutor(workers, thread_name_prefix="ont-neighbourhood") as pool:
        return list(pool.map(run, queries))


def _values(nodes: list[URIRef]) -> str:
    return " ".join(iri(str(n)) for n in nodes)


def neighbourhood(store: Store, facts: Facts, *, timeout: float | None = None) -> Triples:
    """What the shapes need from the store around ``facts``: a small set of triples, never the whole store.

    * literals, classes and core links (source, target, kind, chunk, evidence) of every resource the facts
      mint or extend (entities that already exist keep their labels, ids, functional values);
    * the classes and literals of every node those triples point to (domain and range shapes test the
      classes);
    * the plain triples of relation resources that already exist.

    Every query is bound first (``VALUES`` of at most 400 IRIs leads), so its cost follows the batch, not
    the store; the first two are split over :attr:`Store.read_parallelism` threads (on disk, most of the time is
    waiting for blocks that are not in memory, and the waits overlap). The result is a :class:`Triples` set rather than an rdflib graph: it is read and extended by
    :func:`reconcile` and the shapes, and an rdflib graph costs more to fill than the whole validation.
    """
    g = Triples()
    subjects = facts.focus
    links = " ".join(iri(str(p)) for p in _CORE_LINKS)
    parts = store.read_parallelism
    queries = [
        f"SELECT ?s ?p ?o WHERE {{ VALUES ?s {{ {_values(batch)} }} ?s ?p ?o . "
        f"FILTER (isLiteral(?o) || ?p IN ({links.replace(' ', ', ')})) }}"
        for batch in _batches(subjects, parts)
    ]
    for rows in _select_all(store, queries, timeout):
        for row in rows:
            s, p, o = row["s"], row["p"], row["o"]
            if isinstance(s, URIRef) and isinstance(p, URIRef) and o is not None:
                g.add((s, p, o))
    objects = {o for s, p, o in facts.triples if isinstance(o, URIRef) and p not in (_TYPE, _ONT_KIND)}
    objects |= {o for _, p, o in g if isinstance(o, URIRef) and p not in (_TYPE, _ONT_KIND)}
    objects -= subjects
    # Classes for the domain and range shapes; literals so that a neighbour is complete (ids, labels, texts) and
    # the shapes find nothing to say about it beyond what the new facts change.
    queries = [
        f"SELECT ?o ?p ?v WHERE {{ VALUES ?o {{ {_values(batch)} }} ?o ?p ?v . "
        f"FILTER (isLiteral(?v) || ?p = {iri(str(_TYPE))}) }}"
        for batch in _batches(objects, parts)
    ]
    for rows in _select_all(store, queries, timeout):
        for row in rows:
            o, p, v = row["o"], row["p"], row["v"]
            if isinstance(o, URIRef) and isinstance(p, URIRef) and v is not None:
                g.add((o, p, v))
    existing_relations = {s for s in g.subjects(_ONT_KIND, None) if isinstance(s, URIRef)}
    for batch in _batches(existing_relations):
        rows = store.select(
            f"SELECT ?s ?k ?t WHERE {{ VALUES ?r {{ {_values(batch)} }} "
            f"?r {iri(str(_ONT_SOURCE))} ?s ; {iri(str(_ONT_KIND))} ?k ; {iri(str(_ONT_TARGET))} ?t . ?s ?k ?t }}",
            timeout=timeout,
        )
        for row in rows:
            s, k, t = row["s"], row["k"], row["t"]
            if isinstance(s, URIRef) and isinstance(k, URIRef) and isinstance(t, URIRef):
                g.add((s, k, t))
    return g


def already_known(facts: Facts, existing: Triples) -> tuple[int, list[Triple]]:
    """Which of the facts' distinct triples the store holds, as far as their neighbourhood (read by
    :func:`neighbourhood`, before anything was added to it) tells: how many surely are, and the triples it
    cannot tell about, which only a lookup in the store can.

    The neighbourhood holds every literal and core link of each focus resource, so such a triple is stored
    exactly when it is in there, with one exception: a typed or tagged literal spelled another way than a stored
    value for the same subject and predicate may be the same term to the store (Oxigraph keeps ``"01"^^xsd:integer``
    as the number 1); those are left to the lookup. A triple of another kind (an object link that is not a core
    link, a resource outside the focus) is left to it too. Counting this way saves the lookup of most of a batch
    (on a 1M-transfer store on disk, 27 of the commit's ~80 ms).
    """
    focus = facts.focus
    links = frozenset(_CORE_LINKS)
    present = 0
    unsure: list[Triple] = []
    for t in dict.fromkeys(facts.triples):
        s, p, o = t
        if t in existing:
            present += 1
        elif s not in focus or not (isinstance(o, Literal) or p in links):
            unsure.append(t)
        elif isinstance(o, Literal) and (o.datatype is not None or o.language) and existing.objects(s, p):
            unsure.append(t)
    return present, unsure


def reconcile(facts: Facts, existing: Graph | Triples, out: Findings) -> None:
    """Compare the facts with what the store already says about the same resources.

    A different class for an existing entity, or a relation id already used for another link, is an error
    (the graph would hold two truths). An existing confidence is kept and the new one dropped, with a warning:
    confidence belongs to the first statement of a fact, further sightings go to its evidence.
    """
    by_subject: dict[URIRef, list[Triple]] = {}
    for t in facts.triples:
        by_subject.setdefault(t[0], []).append(t)
    for entity_id, node in facts.entities.items():
        old = set(existing.objects(node, _TYPE))
        new = {o for _, p, o in by_subject.get(node, ()) if p == _TYPE}
        if old and not (new <= old):
            out.error(
                Code.CLASS_CONFLICT,
                f"{facts.paths[node]}.ontology_class",
                f"{entity_id[:60]!r} is already in the graph as "
                f"{', '.join(sorted(str(c).rsplit('#', 1)[-1] for c in old))}",
            )
    for relation_id, edge in facts.relations.items():
        for prop, field_name in ((_ONT_SOURCE, "source_id"), (_ONT_TARGET, "target_id"), (_ONT_KIND, "predicate")):
            old_values = set(existing.objects(edge, prop))
            new_values = {o for _, p, o in by_subject.get(edge, ()) if p == prop}
            if old_values and old_values != new_values:
                out.error(
                    Code.RELATION_CONFLICT,
                    f"{facts.paths[edge]}.{field_name}",
                    f"relation id {relation_id[:60]!r} is already used in the graph for another link",
                )
                break
    kept = [
        (s, p, o)
        for s, p, o in facts.triples
        if p == _ONT_CONFIDENCE and (s, p, o) not in existing and existing.value(s, _ONT_CONFIDENCE) is not None
    ]
    for s, _, o in kept:
        out.warn(
            Code.EXISTING_VALUE_KEPT,
            f"{facts.paths.get(s, '$')}.confidence",
            f"the graph already states a confidence for this resource; {o} is not stored",
        )
    if kept:
        drop = set(kept)
        facts.triples = [t for t in facts.triples if t not in drop]


# --- SHACL on a copy -----------------------------------------------------------------------------------------


def shacl_violations(data: Graph | Triples, domain: str, focus: Iterable[URIRef]) -> list[Violation]:
    """Validate the small graph ``data`` against the domain's shapes; keep the results about ``focus`` nodes.

    The shapes run compiled (:mod:`ont_platform.validation.shapes`, ~15 times faster than pyshacl on a batch),
    or with pyshacl when the shapes files use something the compiler does not evaluate. Either way the whole
    copy is validated and the results filtered, rather than pyshacl's ``focus_nodes`` option: with that,
    pyshacl also skips nested shapes (``sh:node``, ``sh:qualifiedValueShape``) for value nodes outside the
    list, so "the object of kg:worksFor must be an organisation" would silently pass.
    """
    wanted = set(focus)
    if not wanted:
        return []
    shapes = compiled(domain)
    if shapes is not None:
        return shapes.violations(data if isinstance(data, Triples) else Triples(data), wanted)
    graph = data.graph() if isinstance(data, Triples) else data
    names = {str(n) for n in wanted}
    return [v for v in check(graph, domain) if v.focus in names]


def report_violations(violations: list[Violation], facts: Facts, out: Findings) -> None:
    """SHACL results as issues at the payload path of the resource at fault."""
    by_iri = {str(k): v for k, v in facts.paths.items()}
    seen: set[tuple[str, str]] = set()
    for v in violations:
        path = by_iri.get(v.focus, "$")
        prop = f" ({v.path.rsplit('#', 1)[-1].rsplit('/', 1)[-1]})" if v.path else ""
        key = (path, v.message + prop)
        if key in seen:
            continue
        seen.add(key)
        out.error(Code.SHACL, path, f"{v.message}{prop}")


__all__ = [
    "Facts",
    "Triple",
    "already_known",
    "as_store",
    "build_facts",
    "chunk_id_of",
    "evidence_iri",
    "neighbourhood",
    "nt_term",
    "reconcile",
    "report_violations",
    "shacl_violations",
]
