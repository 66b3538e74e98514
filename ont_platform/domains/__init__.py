"""Domains as objects: each names its ontology, shapes, tables, family of behaviour and answer contract.

>>> from ont_platform.domains import get_domain
>>> kg = get_domain("kg")
>>> kg.family, kg.contract
('entities', 'hop_decision')
>>> "worksFor" in kg.ontology.relations
True

A user's ontology becomes a domain with :meth:`Domain.from_files` (or by putting ``ontology.ttl`` beside the kg
tables of a dataset folder); see docs/own-ontology.md.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from ont_platform.domains.base import Domain
from ont_platform.domains.registry import (
    BUNDLED,
    domain_names,
    domain_of_folder,
    forget_domain,
    get_domain,
    register_domain,
)

if TYPE_CHECKING:
    from ont_platform.ontology import DomainOntology


def load_domain(name: str | Domain) -> DomainOntology:
    """The ontology (:class:`~ont_platform.ontology.DomainOntology`) of domain ``name``."""
    return get_domain(name).ontology


__all__ = [
    "BUNDLED",
    "Domain",
    "domain_names",
    "domain_of_folder",
    "forget_domain",
    "get_domain",
    "load_domain",
    "register_domain",
]
