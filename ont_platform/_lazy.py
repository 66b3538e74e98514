"""Package attributes imported on first use (PEP 562), so ``import ont_platform`` costs almost nothing.

Why: the package's parts pull in heavy libraries (pyshacl, pydantic models, the Korean analyser's wrapper,
jsonschema), and most callers need one of them: ``ont --help`` needs none, an ``ask`` needs no SHACL. A package
``__init__`` that imports every public name makes every process pay for all of them. Each package that uses this
lists its public names and the module that defines each; the name is imported from there when first read and then
kept in the package's namespace, so a second read is a plain attribute lookup.
"""

from __future__ import annotations

import importlib
from collections.abc import Callable, Mapping
from typing import Any


def lazy_exports(package: str, where: Mapping[str, str]) -> tuple[Callable[[str], Any], Callable[[], list[str]]]:
    """``__getattr__`` and ``__dir__`` for ``package``: each name of ``where`` is read from its module on first use.

    ``where`` maps a public name to the absolute name of the module that defines it.
    """
    namespace = importlib.import_module(package).__dict__

    def __getattr__(name: str) -> Any:
        module = where.get(name)
        if module is None:
            raise AttributeError(f"module {package!r} has no attribute {name!r}")
        value = getattr(importlib.import_module(module), name)
        namespace[name] = value
        return value

    def __dir__() -> list[str]:
        return sorted(set(namespace) | set(where))

    return __getattr__, __dir__


__all__ = ["lazy_exports"]
