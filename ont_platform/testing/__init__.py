"""Testing aids shipped with the library: Hypothesis strategies for extraction payloads and test doubles.

The strategies need Hypothesis (``pip install 'ont_platform[test]'``); the doubles do not.
"""

from __future__ import annotations

from typing import Any

from ont_platform.testing.doubles import ScriptedLLM, StaticValidator

_STRATEGIES = (
    "DOMAINS",
    "ONTOLOGY_RULES",
    "SEED_RULES",
    "breakable",
    "broken_payloads",
    "confidences",
    "evidence",
    "labels",
    "malformed_payloads",
    "valid_payloads",
)


def __getattr__(name: str) -> Any:
    if name in _STRATEGIES:
        try:
            from ont_platform.testing import strategies
        except ImportError as exc:  # Hypothesis is a test extra
            from ont_platform.errors import MissingDependency

            raise MissingDependency("the strategies need Hypothesis: pip install 'ont_platform[test]'") from exc
        return getattr(strategies, name)
    raise AttributeError(f"module 'ont_platform.testing' has no attribute {name!r}")


__all__ = [
    "DOMAINS",
    "ONTOLOGY_RULES",
    "SEED_RULES",
    "ScriptedLLM",
    "StaticValidator",
    "breakable",
    "broken_payloads",
    "confidences",
    "evidence",
    "labels",
    "malformed_payloads",
    "valid_payloads",
]
