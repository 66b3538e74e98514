"""ont_platform: knowledge graphs that can be trusted.

Entities and relations stored as RDF, kept true to an OWL ontology and SHACL shapes, answered with paths and
evidence or an honest refusal. Start with :class:`KnowledgeGraph`.
"""

from ont_platform.errors import (
    DatasetError,
    EndpointError,
    InputError,
    OntError,
    OntologyError,
    Problem,
    QueryError,
    QueryRefused,
    RDFSyntaxError,
    StoreError,
    StoreLockedError,
)
from ont_platform.kg import KnowledgeGraph, LoadReport
from ont_platform.limits import Limits
from ont_platform.storage import RdfFormat, Store, open_store

__version__ = "0.1.0"

__all__ = [
    "DatasetError",
    "EndpointError",
    "InputError",
    "KnowledgeGraph",
    "Limits",
    "LoadReport",
    "OntError",
    "OntologyError",
    "Problem",
    "QueryError",
    "QueryRefused",
    "RDFSyntaxError",
    "RdfFormat",
    "Store",
    "StoreError",
    "StoreLockedError",
    "__version__",
    "open_store",
]
