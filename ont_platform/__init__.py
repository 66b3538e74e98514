"""ont_platform: knowledge graphs that can be trusted.

Entities and relations stored as RDF, kept true to an OWL ontology and SHACL shapes, answered with paths and
evidence or an honest refusal. Start with :class:`KnowledgeGraph`.

The errors are imported with the package (they are small, and every caller catches them); every other public
name is imported when it is first read, so ``import ont_platform`` loads neither pyshacl nor the question reader
until a caller reaches for them (see ``_lazy.py``).
"""

from typing import TYPE_CHECKING

from ont_platform._lazy import lazy_exports
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

if TYPE_CHECKING:
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

__getattr__, __dir__ = lazy_exports(
    __name__,
    {
        "IngestReport": "ont_platform.ingest.extraction",
        "KnowledgeGraph": "ont_platform.kg",
        "LoadReport": "ont_platform.kg",
        "Limits": "ont_platform.limits",
        "RdfFormat": "ont_platform.storage",
        "Store": "ont_platform.storage",
        "open_store": "ont_platform.storage",
        "Evidence": "ont_platform.validation.models",
        "OntologyEntity": "ont_platform.validation.models",
        "OntologyExtractionResult": "ont_platform.validation.models",
        "OntologyGuard": "ont_platform.validation.guard",
        "OntologyRelation": "ont_platform.validation.models",
        "ValidationResult": "ont_platform.validation.result",
    },
)
del TYPE_CHECKING, lazy_exports  # not public names of the package

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
