"""The validation package re-exports its public names, sorted, and nothing it exports is missing."""

from __future__ import annotations

from ont_platform import testing, validation


def test_all_is_sorted_and_complete() -> None:
    for module in (validation, testing):
        assert list(module.__all__) == sorted(module.__all__)
        for name in module.__all__:
            assert getattr(module, name) is not None, name
    public = {n for n in vars(validation) if not n.startswith("_")} - {
        "base",
        "facts",
        "guard",
        "guardrails",
        "lightweight",
        "models",
        "ontocast",
        "paths",
        "registry",
        "result",
        "rules",
        "rowwise",
        "shapes",
        "structure",
        "terms",
        "values",
        "annotations",
    }
    assert public <= set(validation.__all__)
