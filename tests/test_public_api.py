"""The public surface: everything public is exported, and every error is an OntError."""

from __future__ import annotations

import inspect

import ont_platform
from ont_platform import errors


def test_all_is_sorted_and_complete() -> None:
    assert ont_platform.__all__ == sorted(ont_platform.__all__)
    for name in ont_platform.__all__:
        assert hasattr(ont_platform, name), name
    public_errors = {n for n, obj in vars(errors).items()
                     if inspect.isclass(obj) and issubclass(obj, Exception) and obj.__module__ == errors.__name__}
    assert public_errors <= set(ont_platform.__all__)


def test_one_exception_tree() -> None:
    for name, obj in vars(errors).items():
        if inspect.isclass(obj) and issubclass(obj, Exception) and obj.__module__ == errors.__name__:
            assert issubclass(obj, errors.OntError), name
            assert name in (errors.__doc__ or ""), f"{name} missing from the tree drawn in the module docstring"
