"""Ontologies and shapes: the terms of each domain and the SHACL rules a graph must keep."""

from ont_platform.ontology.model import (
    Column,
    DomainOntology,
    Relation,
    load_domain,
    local_name,
)

__all__ = ["Column", "DomainOntology", "Relation", "load_domain", "local_name"]
