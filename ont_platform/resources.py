"""Where the bundled ontologies, shapes and example datasets are.

They live at the top of the source tree (``ontologies/``, ``shapes/``, ``examples/``) so people find them;
the package reaches them through ``ont_platform/_bundled`` (symbolic links in a checkout, copies in a wheel).
"""

from __future__ import annotations

from pathlib import Path

from ont_platform.errors import OntologyError

_PKG = Path(__file__).resolve().parent


def bundled(kind: str) -> Path:
    """The folder of bundled ``ontologies``, ``shapes`` or ``examples``."""
    for base in (_PKG / "_bundled" / kind, _PKG.parent / kind):
        if base.is_dir():
            return base
    raise OntologyError(f"bundled {kind}/ not found next to the package (a broken install?)")


def ontology_file(name: str) -> Path:
    """``ontologies/{name}.ttl``."""
    return bundled("ontologies") / f"{name}.ttl"


def shapes_file(name: str) -> Path:
    """``shapes/{name}.ttl``."""
    return bundled("shapes") / f"{name}.ttl"


def example_dataset(name: str) -> Path:
    """``examples/{name}`` (``onchain``, ``kg``, ``pages``, ``onchain-real``)."""
    return bundled("examples") / name
