"""Validators by name: the three built in, those registered in code, and plugins from entry points.

Built-ins are imported only when first asked for (``guardrails`` pulls in guardrails-ai, which takes seconds
to import). A third-party package adds a validator by declaring an entry point in the group
``ont_platform.validators``::

    [project.entry-points."ont_platform.validators"]
    myvalidator = "my_package.module:MyValidator"

The target is a :class:`~ont_platform.validation.Validator` subclass or any callable that returns a
validator; it is imported the first time its name is asked for, never at import of ont_platform.
"""

from __future__ import annotations

import importlib
import threading
from collections.abc import Callable
from importlib.metadata import EntryPoint, entry_points
from typing import Any

from ont_platform.errors import (
    MissingDependency,
    OntError,
    UnknownValidator,
    ValidatorError,
)
from ont_platform.validation.base import Validator

ENTRY_POINT_GROUP = "ont_platform.validators"

Factory = Callable[..., Validator]

_BUILTIN: dict[str, str] = {
    "lightweight": "ont_platform.validation.lightweight:LightweightValidator",
    "guardrails": "ont_platform.validation.guardrails:GuardrailsValidator",
    "ontocast": "ont_platform.validation.ontocast:OntoCastValidator",
}

_factories: dict[str, Factory] = {}
_lock = threading.Lock()


def _normalise(name: object) -> str:
    if not isinstance(name, str) or not name.strip():
        raise UnknownValidator(f"a validator name is a non-empty string, not {name!r}")
    return name.strip().lower()


def register(name: str, factory: Factory, *, replace: bool = False) -> None:
    """Make ``factory`` (a Validator subclass or a callable returning one) available as ``name``.

    Registering a name twice is an error unless ``replace=True``; built-in names can be replaced too.
    """
    key = _normalise(name)
    if not callable(factory):
        raise ValidatorError(f"validator factory for {key!r} is not callable: {factory!r}")
    with _lock:
        if key in _factories and not replace:
            raise ValidatorError(f"a validator named {key!r} is already registered (pass replace=True)")
        _factories[key] = factory


def unregister(name: str) -> None:
    """Forget a registered or loaded validator (a built-in or plugin is loaded again when next asked for)."""
    with _lock:
        _factories.pop(_normalise(name), None)


def _plugins() -> dict[str, EntryPoint]:
    found: dict[str, EntryPoint] = {}
    for ep in entry_points(group=ENTRY_POINT_GROUP):
        found.setdefault(ep.name.strip().lower(), ep)
    return found


def available() -> list[str]:
    """Every name :func:`create` accepts: built-ins, registered validators and installed plugins."""
    with _lock:
        names = set(_BUILTIN) | set(_factories)
    return sorted(names | set(_plugins()))


def _import(target: str) -> Any:
    module_name, _, attr = target.partition(":")
    module = importlib.import_module(module_name)
    return getattr(module, attr)


def get_factory(name: str) -> Factory:
    """The factory behind ``name``, loading a built-in or an entry point the first time."""
    key = _normalise(name)
    with _lock:
        factory = _factories.get(key)
    if factory is not None:
        return factory
    if key in _BUILTIN:
        factory = _import(_BUILTIN[key])
    else:
        ep = _plugins().get(key)
        if ep is None:
            raise UnknownValidator(f"no validator named {key!r}; available: {', '.join(available())}")
        try:
            factory = ep.load()
        except MissingDependency:
            raise
        except Exception as exc:
            raise ValidatorError(f"validator plugin {key!r} ({ep.value}) cannot be loaded: {exc}") from exc
        if not callable(factory):
            raise ValidatorError(f"validator plugin {key!r} ({ep.value}) is not a class or a callable")
    with _lock:
        return _factories.setdefault(key, factory)


def create(name: str, **options: Any) -> Validator:
    """A new validator of kind ``name`` (``lightweight``, ``guardrails``, ``ontocast`` or a plugin's name).

    ``options`` go to the validator (``ontology=``, ``config=``, and what the validator documents).
    Raises :class:`UnknownValidator` for an unknown name, :class:`MissingDependency` when an optional
    package is missing, :class:`ValidatorError` when a plugin misbehaves.
    """
    factory = get_factory(name)
    try:
        validator = factory(**options)
    except OntError:
        raise
    except TypeError as exc:
        raise ValidatorError(f"validator {name!r} does not accept these options ({', '.join(options)}): {exc}") from exc
    except Exception as exc:
        raise ValidatorError(f"validator {name!r} failed to start: {exc}") from exc
    if not isinstance(validator, Validator):
        raise ValidatorError(f"validator {name!r} produced {type(validator).__name__}, not a Validator")
    return validator


class ValidatorFactory:
    """Seed 001's entry point to the registry: ``ValidatorFactory.create("lightweight")``."""

    create = staticmethod(create)
    register = staticmethod(register)
    available = staticmethod(available)


__all__ = [
    "ENTRY_POINT_GROUP",
    "Factory",
    "ValidatorFactory",
    "available",
    "create",
    "get_factory",
    "register",
    "unregister",
]
