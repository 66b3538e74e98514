"""ont_platform: knowledge graphs that can be trusted.

Entities and relations stored as RDF, kept true to an OWL ontology and SHACL shapes, answered with paths and
evidence or an honest refusal. Start with :class:`KnowledgeGraph`.
"""

from ont_platform.errors import (
    DatasetError,
    EndpointError,
    FetchError,
    FetchFailed,
    InputError,
    MissingDependency,
    NotFound,
    OntError,
    OntologyError,
    Problem,
    QueryError,
    QueryRefused,
    QueryTimeout,
    RDFSyntaxError,
    StoreError,
    StoreLockedError,
    UnknownValidator,
    URLRefused,
    ValidationFailed,
    ValidatorError,
)
from ont_platform.ingest.extraction import IngestReport
from ont_platform.kg import KnowledgeGraph, LoadReport
from ont_platform.limits import Limits
from ont_platform.storage import RdfFormat, Store, open_store
from ont_platform.validation import (
    Evidence,
    OntologyEntity,
    OntologyExtractionResult,
    OntologyGuard,
    OntologyRelation,
    ValidationResult,
)

__version__ = "0.1.0"

__all__ = [
    "DatasetError",
    "EndpointError",
    "Evidence",
    "FetchError",
    "FetchFailed",
    "IngestReport",
    "InputError",
    "KnowledgeGraph",
    "Limits",
    "LoadReport",
    "MissingDependency",
    "NotFound",
    "OntError",
    "OntologyEntity",
    "OntologyError",
    "OntologyExtractionResult",
    "OntologyGuard",
    "OntologyRelation",
    "Problem",
    "QueryError",
    "QueryRefused",
    "QueryTimeout",
    "RDFSyntaxError",
    "RdfFormat",
    "Store",
    "StoreError",
    "StoreLockedError",
    "URLRefused",
    "UnknownValidator",
    "ValidationFailed",
    "ValidationResult",
    "ValidatorError",
    "__version__",
    "open_store",
]
