"""Pieces shared by the domain query builders."""

from __future__ import annotations

from collections.abc import Iterable

from rdflib import URIRef

from ont_platform.errors import QueryRefused
from ont_platform.namespaces import KG, OC, ONT, PG
from ont_platform.rdf_terms import iri

PREFIXES = (
    f"PREFIX ont: <{ONT}>\n"
    f"PREFIX oc: <{OC}>\n"
    f"PREFIX kg: <{KG}>\n"
    f"PREFIX pg: <{PG}>\n"
    "PREFIX rdfs: <http://www.w3.org/2000/01/rdf-schema#>\n"
    "PREFIX skos: <http://www.w3.org/2004/02/skos/core#>\n"
)

MAX_PATH_HOPS = 12


def bounded_path(step: str, hops: int, *, min_hops: int = 1) -> str:
    """``step/step?/step?`` — from ``min_hops`` (0 or 1) up to ``hops`` steps, never unbounded."""
    if not 1 <= hops <= MAX_PATH_HOPS:
        raise QueryRefused(f"path length {hops} is outside 1..{MAX_PATH_HOPS}")
    if min_hops not in (0, 1):
        raise QueryRefused("min_hops must be 0 or 1")
    parts = [f"({step})" if min_hops == 1 else f"({step})?"] + [f"({step})?"] * (hops - 1)
    return "/".join(parts)


def alt_path(*steps: str) -> str:
    """``a|b`` as one path step."""
    return "|".join(steps)


def node_names(limit: int) -> str:
    """Every entity node's id with its labels, aliases and normalised address: the names questions use."""
    return (
        f"{PREFIXES}SELECT ?id ?name WHERE {{\n"
        f"  ?n ont:id ?id .\n"
        f"  FILTER NOT EXISTS {{ ?n ont:kind ?k }} FILTER NOT EXISTS {{ ?n ont:text ?t }}\n"
        f"  OPTIONAL {{ ?n rdfs:label|skos:altLabel|oc:addressNorm ?name }}\n"
        f"}} LIMIT {int(limit)}"
    )


def node_classes(node: URIRef) -> str:
    """The rdf:type values of one node."""
    return f"{PREFIXES}SELECT ?cls WHERE {{ {iri(node)} a ?cls }} LIMIT 50"


def labels_of(node: URIRef) -> str:
    """The labels (``?kind`` "label") and aliases ("alias") of one node."""
    return (
        f'{PREFIXES}SELECT ?kind ?name WHERE {{ {{ {iri(node)} rdfs:label ?name BIND("label" AS ?kind) }} '
        f'UNION {{ {iri(node)} skos:altLabel ?name BIND("alias" AS ?kind) }} }} LIMIT 200'
    )


def node_labels(nodes: Iterable[URIRef]) -> str:
    """The ``ont:id`` and ``rdfs:label`` of each of the given nodes that has a label."""
    listed = [iri(str(n)) for n in nodes]
    return (
        f"{PREFIXES}SELECT ?id ?label WHERE {{ VALUES ?n {{ {' '.join(listed)} }} ?n ont:id ?id ; "
        f"rdfs:label ?label }} LIMIT {8 * len(listed) + 8}"
    )  # a few labels a node at most


def described(resources: Iterable[URIRef]) -> str:
    """Every triple of the given resources as subject."""
    values = " ".join(iri(str(r)) for r in resources)
    return f"SELECT ?s ?p ?o WHERE {{ VALUES ?s {{ {values} }} ?s ?p ?o }}"
