"""Ontologies and shapes: the terms of each domain and the SHACL rules a graph must keep."""

from ont_platform.ontology.model import (
    Column,
    DomainOntology,
    Relation,
    local_name,
    read_ontology,
)

__all__ = ["Column", "DomainOntology", "Relation", "local_name", "read_ontology"]
