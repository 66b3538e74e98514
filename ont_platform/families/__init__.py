"""Domain families by name: the three built in, those registered in code, and plug-ins from entry points.

Every stage finds a domain's behaviour here (:func:`get_family` of ``domain.family``). The built-in families
are declared by the same entry-point group a third-party package uses, so they have no privileges::

    [project.entry-points."ont_platform.families"]
    ledger = "my_package.family:LedgerFamily"

The target is an object satisfying :class:`Family` or a class (or callable) that returns one; it is imported the
first time its name is asked for. The built-ins are also known here by their import paths, so that a checkout
used without installing still has them.

>>> get_family("entities").contract
'hop_decision'
>>> sorted(f for f in family_names() if f in BUILTIN)
['entities', 'inventory', 'transfers', 'triples']
"""

from __future__ import annotations

import importlib
import logging
import threading
from collections.abc import Iterator
from importlib.metadata import EntryPoint, entry_points

from ont_platform.errors import OntologyError
from ont_platform.families.base import MEMBERS, Dataset, Family, QuestionPlan, TableFamily, claims

ENTRY_POINT_GROUP = "ont_platform.families"

log = logging.getLogger(__name__)

BUILTIN: dict[str, str] = {
    "entities": "ont_platform.families.entities:EntitiesFamily",
    "transfers": "ont_platform.families.transfers:TransfersFamily",
    "inventory": "ont_platform.families.inventory:InventoryFamily",
    "triples": "ont_platform.families.triples:TriplesFamily",
}
"""The families that come with the library, in the order shared code tries them (e.g. to tell an answer's
contract by its fields)."""

DEFAULT_FAMILY = "entities"
"""The family of a domain built from an ontology when none is named, and of a stored domain record that names
none (records written before families were plug-ins)."""

_lock = threading.Lock()
_loaded: dict[str, Family] = {}


def _plugins() -> dict[str, EntryPoint]:
    found: dict[str, EntryPoint] = {}
    for ep in entry_points(group=ENTRY_POINT_GROUP):
        found.setdefault(ep.name.strip(), ep)
    return found


def _checked(name: str, obj: object, origin: str) -> Family:
    family = obj() if isinstance(obj, type) or (callable(obj) and not isinstance(obj, Family)) else obj
    if not isinstance(family, Family):
        missing = [m for m in MEMBERS if not hasattr(family, m)]
        raise OntologyError(f"family {name!r} ({origin}) does not satisfy the Family protocol; missing: {missing}")
    if family.name != name:
        raise OntologyError(f"family registered as {name!r} ({origin}) calls itself {family.name!r}")
    return family


def register_family(family: Family, *, replace: bool = False) -> Family:
    """Make ``family`` known by its name in this process. A name in use (built in, registered or installed as
    a plug-in) is an error unless ``replace=True``."""
    checked = _checked(getattr(family, "name", "?"), family, "registered in code")
    with _lock:
        known = checked.name in _loaded or checked.name in BUILTIN
    if not replace and (known or checked.name in _plugins()):
        raise OntologyError(f"a family named {checked.name!r} already exists (pass replace=True)")
    with _lock:
        _loaded[checked.name] = checked
    return checked


def unregister_family(name: str) -> None:
    """Forget a family registered in code (a built-in or plug-in is loaded again when next asked for)."""
    with _lock:
        _loaded.pop(name, None)


def family_names() -> list[str]:
    """Every family :func:`get_family` accepts: built-ins first, then registered and installed ones, sorted."""
    with _lock:
        extra = set(_loaded) - set(BUILTIN)
    extra |= set(_plugins()) - set(BUILTIN)
    return [*BUILTIN, *sorted(extra)]


def get_family(name: str) -> Family:
    """The family called ``name``, loading a built-in or a plug-in the first time. An unknown name is an
    :class:`~ont_platform.errors.OntologyError` listing the known ones."""
    with _lock:
        found = _loaded.get(name)
    if found is not None:
        return found
    if name in BUILTIN:
        module, _, attr = BUILTIN[name].partition(":")
        family = _checked(name, getattr(importlib.import_module(module), attr), BUILTIN[name])
    else:
        ep = _plugins().get(name) if isinstance(name, str) else None
        if ep is None:
            raise OntologyError(f"unknown domain family {name!r}; known: {', '.join(family_names())}")
        try:
            target = ep.load()
        except Exception as exc:  # a plug-in's import can fail in any way: name it
            raise OntologyError(f"family plug-in {name!r} ({ep.value}) cannot be loaded: {exc}") from exc
        family = _checked(name, target, ep.value)
    with _lock:
        return _loaded.setdefault(name, family)


def families() -> Iterator[Family]:
    """Every known family, built-ins first (plug-ins are imported). A plug-in that cannot be loaded is left out
    with a warning, so that a broken or stale installation of another package does not stop every load; asked
    for by name (:func:`get_family`), it raises."""
    for name in family_names():
        if name in BUILTIN:
            yield get_family(name)
            continue
        try:
            yield get_family(name)
        except OntologyError as exc:
            log.warning("left out: %s", exc)


def family_of_contract(contract: str) -> Family | None:
    """The family that answers with ``contract``, if any."""
    return next((f for f in families() if f.contract == contract), None)


__all__ = [
    "BUILTIN",
    "DEFAULT_FAMILY",
    "ENTRY_POINT_GROUP",
    "Dataset",
    "Family",
    "QuestionPlan",
    "TableFamily",
    "claims",
    "families",
    "family_names",
    "family_of_contract",
    "get_family",
    "register_family",
    "unregister_family",
]
