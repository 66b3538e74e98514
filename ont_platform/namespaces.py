"""IRIs of the project's vocabularies and of the instances it mints.

Instance IRIs are minted from a dataset's own ids by percent-encoding them, so any id (``tx:0xab…:3``,
``홍길동``) gives a valid IRI and nothing a user typed can break out of ``<…>`` in N-Triples or SPARQL.
See docs/data-model.md.
"""

from __future__ import annotations

from typing import Literal
from urllib.parse import quote

from rdflib import Namespace, URIRef

ONT = Namespace("https://w3id.org/ont-platform/core#")
OC = Namespace("https://w3id.org/ont-platform/onchain#")
KG = Namespace("https://w3id.org/ont-platform/kg#")
PG = Namespace("https://w3id.org/ont-platform/pages#")
GS = Namespace("https://w3id.org/ont-platform/graphsense#")
ETHON = Namespace("http://ethon.consensys.net/")
ID = "https://w3id.org/ont-platform/id/"

Kind = Literal["node", "edge", "chunk", "page", "dataset", "retraction", "write"]


def mint(domain: str, kind: Kind, local_id: str) -> URIRef:
    """The IRI of instance ``local_id`` of ``kind`` in ``domain`` (``id:onchain/node/n_a1``)."""
    return URIRef(f"{ID}{quote(domain, safe='')}/{kind}/{quote(local_id, safe='')}")


def dataset_iri(domain: str) -> URIRef:
    """The resource that records a loaded dataset's domain and reference date."""
    return URIRef(f"{ID}{quote(domain, safe='')}/dataset")
