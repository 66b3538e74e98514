"""How the question reader names the nodes of a graph and reads their edges: the one place that knows whether a
domain's nodes are minted by the library or are the data's own IRIs.

The entity–relation reader (:mod:`ont_platform.qa.entities`) walks nodes by id. In a graph loaded from tables
(the ``entities`` family) a node is ``id:<domain>/node/<id>``, its names are ``rdfs:label``/``skos:altLabel``,
and an edge is a resource of its own (``ont:source``, ``ont:kind``, ``ont:target``) with the chunk that grounds
it. In plain RDF (the ``triples`` family) a node is the IRI the data gives it (its id is that IRI), its names
are the values of the ontology's naming properties, and an edge is a stated triple, which is its own evidence
(docs/your-rdf.md: the grounding rule). Both answer the same queries with the same row shapes, so the reader
runs unchanged over either.
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass
from typing import Protocol

from rdflib import RDF, RDFS, SKOS, URIRef
from rdflib.namespace import OWL

from ont_platform.domains import Domain
from ont_platform.namespaces import ID, mint
from ont_platform.ontology.model import local_name
from ont_platform.rdf_terms import iri, literal
from ont_platform.sparql import kg as minted_queries
from ont_platform.sparql.common import PREFIXES, node_labels

NAME_WORDS = frozenset({"name", "label", "title", "alternatename", "prefname", "preflabel", "nickname", "fullname"})
"""Local names (lower case) of datatype properties that name what they describe (``foaf:name``, ``schema:name``,
``ub:name``, ``dcterms:title`` …)."""


class NodeSpace(Protocol):
    """Node ids and the queries the reader runs about nodes, for one domain."""

    @property
    def stated(self) -> bool:
        """Whether an edge is a stated triple (its own evidence) rather than a relation resource with a chunk."""

        ...

    def iri(self, node_id: str) -> URIRef: ...

    def names_query(self, limit: int, nodes: Iterable[URIRef] | None = None) -> str:
        """Rows ``(id, name)``: every name of every node of the domain (or of ``nodes``)."""
        ...

    def hop_edges(self, node: URIRef, props: Iterable[URIRef], *, inverse: bool, limit: int) -> str:
        """Rows ``eid kind src dst grounded chunk text srclabel dstlabel srcname dstname`` of the edges of the
        given kinds leaving ``node`` (arriving at it, ``inverse``)."""
        ...

    def node_info(self, node: URIRef) -> str:
        """Rows ``id cls label`` of one node."""
        ...

    def node_labels(self, nodes: Iterable[URIRef]) -> str:
        """Rows ``id label`` of the given nodes that have a label."""
        ...


def names_query(domain: str, limit: int, nodes: Iterable[URIRef] | None = None) -> str:
    """The names questions use, of the domain's entity nodes (all of them, or only ``nodes``): each node's id
    with its labels, aliases, normalised address and the address as written (a raw address whose checksum
    failed has no normalised one, and is still how a user names the node). Relations (``ont:kind``) and chunks
    (``ont:text``) also carry an ``ont:id`` and are left out; so are the nodes of other domains stored in the
    same graph."""
    head = f"  VALUES ?n {{ {' '.join(iri(str(n)) for n in nodes)} }}\n" if nodes is not None else ""
    prefix = literal(str(mint(domain, "node", "")))
    return (
        f"{PREFIXES}SELECT ?id ?name WHERE {{\n{head}"
        f"  ?n ont:id ?id .\n"
        f"  FILTER (STRSTARTS(STR(?n), {prefix}))\n"
        f"  FILTER NOT EXISTS {{ ?n ont:kind ?k }} FILTER NOT EXISTS {{ ?n ont:text ?t }}\n"
        f"  OPTIONAL {{ ?n rdfs:label|skos:altLabel|oc:addressNorm|oc:rawAddress ?name }}\n"
        f"}} LIMIT {int(limit)}"
    )


@dataclass(frozen=True)
class MintedSpace:
    """Nodes minted by the library (``id:<domain>/node/<id>``), edges as relation resources with chunks."""

    domain: str
    stated: bool = False

    def iri(self, node_id: str) -> URIRef:
        return mint(self.domain, "node", node_id)

    def names_query(self, limit: int, nodes: Iterable[URIRef] | None = None) -> str:
        return names_query(self.domain, limit, nodes)

    def hop_edges(self, node: URIRef, props: Iterable[URIRef], *, inverse: bool, limit: int) -> str:
        return minted_queries.hop_edges(node, props, inverse=inverse, limit=limit)

    def node_info(self, node: URIRef) -> str:
        return minted_queries.node_info(node)

    def node_labels(self, nodes: Iterable[URIRef]) -> str:
        return node_labels(nodes)


@dataclass(frozen=True)
class StatedSpace:
    """The data's own IRIs as node ids, the ontology's naming properties as names, stated triples as edges."""

    domain: str
    naming: tuple[URIRef, ...]
    """The properties whose literal values name a node, most preferred first (the first is its label)."""
    stated: bool = True

    def iri(self, node_id: str) -> URIRef:
        return URIRef(node_id)

    def _names(self) -> str:
        return " ".join(iri(str(p)) for p in self.naming)

    def names_query(self, limit: int, nodes: Iterable[URIRef] | None = None) -> str:
        head = f"  VALUES ?n {{ {' '.join(iri(str(n)) for n in nodes)} }}\n" if nodes is not None else ""
        return (
            f"SELECT ?id ?name WHERE {{\n{head}"
            f"  VALUES ?p {{ {self._names()} }}\n"
            f"  ?n ?p ?name .\n"
            f"  FILTER (isIRI(?n) && isLiteral(?name) && !STRSTARTS(STR(?n), {literal(str(ID))}))\n"
            f"  BIND (STR(?n) AS ?id)\n"
            f"}} LIMIT {int(limit)}"
        )

    def hop_edges(self, node: URIRef, props: Iterable[URIRef], *, inverse: bool, limit: int) -> str:
        here = iri(str(node))
        kinds = " ".join(iri(str(p)) for p in sorted(props))
        pattern = f"?other ?kind {here}" if inverse else f"{here} ?kind ?other"
        src, dst = ("?other", here) if inverse else (here, "?other")
        label = names = "|".join(iri(str(p)) for p in self.naming or (RDFS.label,))
        return (
            "SELECT ?eid ?kind ?src ?dst ?grounded ?chunk ?text ?srclabel ?dstlabel ?srcname ?dstname WHERE {\n"
            f"  VALUES ?kind {{ {kinds} }}\n"
            f"  {pattern} .\n"
            "  FILTER (isIRI(?other))\n"
            f"  BIND (STR({src}) AS ?src) BIND (STR({dst}) AS ?dst)\n"
            '  BIND (CONCAT(?src, " ", STR(?kind), " ", ?dst) AS ?eid)\n'
            "  BIND (true AS ?grounded)\n"
            f"  OPTIONAL {{ {src} {label} ?srclabel }} OPTIONAL {{ {dst} {label} ?dstlabel }}\n"
            f"  OPTIONAL {{ {src} {names} ?srcname }} OPTIONAL {{ {dst} {names} ?dstname }}\n"
            f"}} ORDER BY ?eid LIMIT {int(limit)}"
        )

    def node_info(self, node: URIRef) -> str:
        here = iri(str(node))
        label = "|".join(iri(str(p)) for p in self.naming or (RDFS.label,))
        return (
            f"SELECT ?id ?cls ?label WHERE {{ BIND ({literal(str(node))} AS ?id) {here} ?p ?any . "
            f"OPTIONAL {{ {here} a ?cls }} OPTIONAL {{ {here} {label} ?label }} }} LIMIT 50"
        )

    def node_labels(self, nodes: Iterable[URIRef]) -> str:
        listed = [iri(str(n)) for n in nodes]
        label = "|".join(iri(str(p)) for p in self.naming or (RDFS.label,))
        return (
            f"SELECT ?id ?label WHERE {{ VALUES ?n {{ {' '.join(listed)} }} ?n {label} ?label "
            f"BIND (STR(?n) AS ?id) }} LIMIT {8 * len(listed) + 8}"
        )


def naming_properties(spec: Domain) -> tuple[URIRef, ...]:
    """The properties that name a node in ``spec``'s data: ``rdfs:label`` and SKOS labels, sub-properties of
    ``rdfs:label``, and the ontology's datatype properties whose local name says they name (``name``,
    ``title``, ``alternateName`` …)."""
    g = spec.ontology.graph
    found: list[URIRef] = [RDFS.label, SKOS.prefLabel]
    for p in sorted(set(g.subjects(RDFS.subPropertyOf, RDFS.label)), key=str):
        if isinstance(p, URIRef) and p not in found:
            found.append(p)
    candidates = set(g.subjects(RDF.type, OWL.DatatypeProperty)) | set(g.subjects(RDF.type, RDF.Property))
    for p in sorted(candidates, key=str):
        if isinstance(p, URIRef) and p not in found and local_name(p).lower() in NAME_WORDS:
            found.append(p)
    found.append(SKOS.altLabel)
    return tuple(found)


def space_for(spec: Domain) -> NodeSpace:
    """The node space of ``spec``: minted by the library, or the data's own IRIs."""
    if spec.behaviour.mints_iris:
        return MintedSpace(spec.name)
    return StatedSpace(spec.name, naming_properties(spec))


__all__ = ["MintedSpace", "NodeSpace", "StatedSpace", "names_query", "naming_properties", "space_for"]
