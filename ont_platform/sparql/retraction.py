"""The SPARQL of retraction (:mod:`ont_platform.ingest.retract`): reading what a relation or node asserts, and
the one update that takes it back."""

from __future__ import annotations

from collections.abc import Iterable

from rdflib import URIRef

from ont_platform.rdf_terms import iri
from ont_platform.sparql.common import PREFIXES, described

__all__ = ["described", "still_asserted", "touching", "update"]


def touching(nodes: Iterable[URIRef]) -> str:
    """The live relation resources with one of ``nodes`` as source or target."""
    values = " ".join(iri(str(n)) for n in nodes)
    return (
        f"{PREFIXES}SELECT DISTINCT ?e WHERE {{ VALUES ?n {{ {values} }} "
        f"{{ ?e ont:source ?n }} UNION {{ ?e ont:target ?n }} ?e ont:kind ?k }}"
    )


def still_asserted(source: URIRef, kind: URIRef, target: URIRef, gone: Iterable[URIRef]) -> str:
    """Whether a relation resource other than those in ``gone`` still asserts ``source kind target``."""
    others = ", ".join(iri(str(e)) for e in gone)
    return (
        f"{PREFIXES}ASK {{ ?e ont:source {iri(str(source))} ; ont:kind {iri(str(kind))} ; "
        f"ont:target {iri(str(target))} . FILTER (?e NOT IN ({others})) }}"
    )


def update(deletes: Iterable[str], inserts: Iterable[str]) -> str:
    """One request: the triples (N-Triples lines) removed and added together."""
    return f"DELETE DATA {{ {' '.join(deletes)} }} ;\nINSERT DATA {{ {' '.join(inserts)} }}"
