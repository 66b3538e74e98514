"""The guard between LLM extractions and the graph: models, rules, validators and :class:`OntologyGuard`.

Three validators share one set of rules (:mod:`.rules`): ``lightweight`` (pydantic + rules), ``guardrails``
(the same contract run through guardrails-ai, with its re-ask loop) and ``ontocast`` (a critic: rules, then
SHACL on a copy of the graph, a score and suggestions, and a gate for SPARQL updates). Third parties add
validators through the entry point group ``ont_platform.validators``. See docs/validation.md.

Every public name is imported when first read (see ``ont_platform._lazy``): a caller that needs the models does
not load pyshacl with the critic, nor guardrails-ai.
"""

from typing import TYPE_CHECKING

from ont_platform._lazy import lazy_exports

if TYPE_CHECKING:
    from ont_platform.validation.base import LLM, Validator
    from ont_platform.validation.guard import OntologyGuard
    from ont_platform.validation.guardrails import GuardrailsValidator
    from ont_platform.validation.lightweight import LightweightValidator
    from ont_platform.validation.models import (
        Evidence,
        OntologyEntity,
        OntologyExtractionResult,
        OntologyRelation,
        ValidationIssue,
    )
    from ont_platform.validation.ontocast import OntoCastValidator
    from ont_platform.validation.registry import (
        ENTRY_POINT_GROUP,
        ValidatorFactory,
        available,
        create,
        register,
        unregister,
    )
    from ont_platform.validation.result import CheckStatus, ValidationResult
    from ont_platform.validation.rules import (
        DEFAULT_RULES,
        MEANINGLESS_LABELS,
        Code,
        RuleConfig,
    )

__getattr__, __dir__ = lazy_exports(
    __name__,
    {
        "LLM": "ont_platform.validation.base",
        "Validator": "ont_platform.validation.base",
        "OntologyGuard": "ont_platform.validation.guard",
        "GuardrailsValidator": "ont_platform.validation.guardrails",
        "LightweightValidator": "ont_platform.validation.lightweight",
        "Evidence": "ont_platform.validation.models",
        "OntologyEntity": "ont_platform.validation.models",
        "OntologyExtractionResult": "ont_platform.validation.models",
        "OntologyRelation": "ont_platform.validation.models",
        "ValidationIssue": "ont_platform.validation.models",
        "OntoCastValidator": "ont_platform.validation.ontocast",
        "ENTRY_POINT_GROUP": "ont_platform.validation.registry",
        "ValidatorFactory": "ont_platform.validation.registry",
        "available": "ont_platform.validation.registry",
        "create": "ont_platform.validation.registry",
        "register": "ont_platform.validation.registry",
        "unregister": "ont_platform.validation.registry",
        "CheckStatus": "ont_platform.validation.result",
        "ValidationResult": "ont_platform.validation.result",
        "DEFAULT_RULES": "ont_platform.validation.rules",
        "MEANINGLESS_LABELS": "ont_platform.validation.rules",
        "Code": "ont_platform.validation.rules",
        "RuleConfig": "ont_platform.validation.rules",
    },
)
del TYPE_CHECKING, lazy_exports  # not public names of the package

__all__ = [  # noqa: RUF022 - plainly sorted, as everywhere in ont_platform
    "CheckStatus",
    "Code",
    "DEFAULT_RULES",
    "ENTRY_POINT_GROUP",
    "Evidence",
    "GuardrailsValidator",
    "LLM",
    "LightweightValidator",
    "MEANINGLESS_LABELS",
    "OntoCastValidator",
    "OntologyEntity",
    "OntologyExtractionResult",
    "OntologyGuard",
    "OntologyRelation",
    "RuleConfig",
    "ValidationIssue",
    "ValidationResult",
    "Validator",
    "ValidatorFactory",
    "available",
    "create",
    "register",
    "unregister",
]
