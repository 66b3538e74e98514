"""The reads behind a verification snapshot: one domain's edges, nodes, chunks or page cells, each in one bounded
SELECT, for the networkx checks of ``ont_platform.verify``.

Every query is capped with ``LIMIT`` so that a caller can tell a complete read from a cut one (it asks for
``limit`` rows and treats ``limit`` rows back as cut), and scoped to the domain by the prefix of its minted IRIs.
"""

from __future__ import annotations

from rdflib import RDF, RDFS, SKOS

from ont_platform.namespaces import ID, Kind, mint
from ont_platform.rdf_terms import iri, literal
from ont_platform.sparql.common import PREFIXES


def _prefix(domain: str, kind: Kind) -> str:
    return literal(str(mint(domain, kind, "")))  # the IRIs the loader and ingest mint, encoded the same way


def snapshot_edges(domain: str, limit: int) -> str:
    """Every relation resource of ``domain``: edge id, kind, end ids, and tx hash, grounding and chunk if any."""
    return (
        f"{PREFIXES}SELECT ?eid ?kind ?src ?dst ?tx ?grounded ?chunk WHERE {{\n"
        f"  ?e ont:kind ?kind ; ont:source ?s ; ont:target ?t ; ont:id ?eid .\n"
        f"  FILTER(STRSTARTS(STR(?e), {_prefix(domain, 'edge')}))\n"
        f"  ?s ont:id ?src . ?t ont:id ?dst .\n"
        f"  OPTIONAL {{ ?e oc:txHash ?tx }}\n"
        f"  OPTIONAL {{ ?e ont:grounded ?grounded }}\n"
        f"  OPTIONAL {{ ?e ont:chunk ?c . ?c ont:id ?chunk }}\n"
        f"}} LIMIT {int(limit)}"
    )


def snapshot_nodes(domain: str, limit: int) -> str:
    """Every entity node of ``domain`` with its classes, labels and aliases (one row per value)."""
    return (
        f"{PREFIXES}SELECT ?id ?p ?v WHERE {{\n"
        f"  ?n ont:id ?id .\n"
        f"  FILTER(STRSTARTS(STR(?n), {_prefix(domain, 'node')}))\n"
        f"  OPTIONAL {{ ?n ?p ?v . VALUES ?p {{ {iri(str(RDF.type))} {iri(str(RDFS.label))} "
        f"{iri(str(SKOS.altLabel))} }} }}\n"
        f"}} LIMIT {int(limit)}"
    )


def stated_edges(props: list[str], limit: int) -> str:
    """Every stated triple whose predicate is one of ``props`` (a plain-RDF domain's relations) between two
    IRIs: the triple itself is the edge, its id the three IRIs."""
    kinds = " ".join(iri(p) for p in sorted(props))
    return (
        f"SELECT ?eid ?kind ?src ?dst WHERE {{\n"
        f"  VALUES ?kind {{ {kinds} }}\n"
        f"  ?s ?kind ?o . FILTER (isIRI(?s) && isIRI(?o))\n"
        f'  BIND (STR(?s) AS ?src) BIND (STR(?o) AS ?dst) BIND (CONCAT(?src, " ", STR(?kind), " ", ?dst) AS ?eid)\n'
        f"}} LIMIT {int(limit)}"
    )


def stated_nodes(naming: list[str], limit: int) -> str:
    """Every IRI of a plain-RDF domain's data with a class or a name: its classes and names (one row per value);
    the library's own minted resources are left out."""
    names = " ".join(iri(p) for p in naming)
    return (
        f"SELECT ?id ?p ?v WHERE {{\n"
        f"  VALUES ?p {{ {iri(str(RDF.type))} {names} }}\n"
        f"  ?n ?p ?v . FILTER (isIRI(?n) && !STRSTARTS(STR(?n), {literal(str(ID))}))\n"
        f"  BIND (STR(?n) AS ?id)\n"
        f"}} LIMIT {int(limit)}"
    )


def snapshot_chunks(domain: str, limit: int) -> str:
    """Every text chunk of ``domain`` with its text."""
    return (
        f"{PREFIXES}SELECT ?id ?text WHERE {{\n"
        f"  ?c ont:id ?id .\n"
        f"  FILTER(STRSTARTS(STR(?c), {_prefix(domain, 'chunk')}))\n"
        f"  OPTIONAL {{ ?c ont:text ?text }}\n"
        f"}} LIMIT {int(limit)}"
    )


def snapshot_page_columns(limit: int) -> str:
    """The page columns a dataset declared (name, type, property)."""
    return (
        f"{PREFIXES}SELECT ?prop ?name ?type WHERE {{ ?prop pg:column ?name ; pg:columnType ?type }} LIMIT {int(limit)}"
    )


def snapshot_page_predicates(limit: int) -> str:
    """The vague-predicate dictionary a dataset declared."""
    return (
        f"{PREFIXES}SELECT ?phrase ?op ?value ?applies WHERE {{\n"
        f"  ?p a pg:VaguePredicate ; pg:phrase ?phrase ; pg:op ?op ; pg:value ?value .\n"
        f"  OPTIONAL {{ ?p pg:appliesTo ?applies }}\n"
        f"}} LIMIT {int(limit)}"
    )


def snapshot_page_cells(limit: int) -> str:
    """Every page's URL and literal cells (one row per cell)."""
    return (
        f"{PREFIXES}SELECT ?url ?p ?v WHERE {{\n"
        f"  ?page a pg:WebPage ; pg:url ?url .\n"
        f"  OPTIONAL {{ ?page ?p ?v . FILTER(isLiteral(?v) && ?p != pg:url) }}\n"
        f"}} LIMIT {int(limit)}"
    )
