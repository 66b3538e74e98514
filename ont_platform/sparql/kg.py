"""SPARQL for multi-hop questions over the text-grounded knowledge graph (seed 003)."""

from __future__ import annotations

from collections.abc import Iterable

from rdflib import URIRef

from ont_platform.rdf_terms import iri
from ont_platform.sparql.common import PREFIXES


def hop_edges(node: URIRef, props: Iterable[URIRef], *, inverse: bool, limit: int = 1000) -> str:
    """Edges of the given kinds leaving ``node`` (or, ``inverse``, arriving at it), with the grounding facts:
    the grounded flag, the chunk id and text, and every name of both ends (to check the chunk mentions them)."""
    here, there = ("ont:target", "ont:source") if inverse else ("ont:source", "ont:target")
    kinds = " ".join(iri(p) for p in sorted(props))
    return (
        f"{PREFIXES}SELECT ?eid ?kind ?src ?dst ?grounded ?chunk ?text ?srclabel ?dstlabel ?srcname ?dstname WHERE {{\n"
        f"  VALUES ?kind {{ {kinds} }}\n"
        f"  ?e {here} {iri(node)} ; ont:kind ?kind ; {there} ?other ; ont:id ?eid ;\n"
        f"     ont:source ?s ; ont:target ?t .\n"
        f"  ?s ont:id ?src . ?t ont:id ?dst .\n"
        f"  OPTIONAL {{ ?e ont:grounded ?grounded }}\n"
        f"  OPTIONAL {{ ?e ont:chunk ?c . ?c ont:id ?chunk . OPTIONAL {{ ?c ont:text ?text }} }}\n"
        f"  OPTIONAL {{ ?s rdfs:label ?srclabel }} OPTIONAL {{ ?t rdfs:label ?dstlabel }}\n"
        f"  OPTIONAL {{ ?s rdfs:label|skos:altLabel ?srcname }}\n"
        f"  OPTIONAL {{ ?t rdfs:label|skos:altLabel ?dstname }}\n"
        f"}} ORDER BY ?eid LIMIT {int(limit)}"
    )


def node_info(node: URIRef) -> str:
    """Id, classes and label of one node."""
    return (
        f"{PREFIXES}SELECT ?id ?cls ?label WHERE {{\n"
        f"  {iri(node)} ont:id ?id ; a ?cls . OPTIONAL {{ {iri(node)} rdfs:label ?label }}\n"
        f"}} LIMIT 50"
    )
