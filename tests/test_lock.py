"""The lock files in requirements/ still cover pyproject.toml.

``make`` installs from requirements/demo.txt and requirements/test.txt alone (every dependency pinned, every file
hashed) and then the project with ``--no-deps``, so a dependency added to pyproject.toml without ``make lock``
would be missing from a fresh install, not reported. These checks read the files only; they never resolve.
"""

from __future__ import annotations

import re
import tomllib
from pathlib import Path

import pytest
from packaging.requirements import Requirement

ROOT = Path(__file__).resolve().parent.parent
PIN = re.compile(r"^(?P<name>[A-Za-z0-9][A-Za-z0-9._-]*)==(?P<version>\S+?)(?:\s*;\s*(?P<marker>[^\\]+?))?\s*\\?$")


def _normal(name: str) -> str:
    return re.sub(r"[-_.]+", "-", name).lower()


def _pins(lock: str) -> dict[str, str]:
    out = {}
    for line in (ROOT / "requirements" / lock).read_text(encoding="utf-8").splitlines():
        m = PIN.match(line)
        if m is not None:
            out[_normal(m["name"])] = m["version"]
    return out


def _requirements(*extras: str) -> list[Requirement]:
    """The dependencies of pyproject.toml with the given extras, the project's own extras expanded."""
    project = tomllib.loads((ROOT / "pyproject.toml").read_text(encoding="utf-8"))["project"]
    out = [Requirement(text) for text in project["dependencies"]]
    todo, seen = list(extras), set()
    while todo:
        extra = todo.pop()
        if extra in seen:
            continue
        seen.add(extra)
        for text in project["optional-dependencies"][extra]:
            req = Requirement(text)
            if _normal(req.name) == _normal(project["name"]):
                todo.extend(req.extras)
            else:
                out.append(req)
    build = (ROOT / "requirements" / "build.in").read_text(encoding="utf-8").splitlines()
    out += [Requirement(line) for line in build if line.strip() and not line.startswith("#")]
    return out


@pytest.mark.parametrize(("lock", "extras"), [("demo.txt", ()), ("test.txt", ("test",))])
def test_every_dependency_is_pinned_to_a_version_it_allows(lock: str, extras: tuple[str, ...]) -> None:
    pins = _pins(lock)
    for req in _requirements(*extras):
        name = _normal(req.name)
        assert name in pins, f"{req} is not in requirements/{lock}: run make lock"
        assert req.specifier.contains(pins[name], prereleases=True), (
            f"requirements/{lock} pins {name}=={pins[name]}, outside {req}: run make lock"
        )


def test_the_demo_set_is_the_test_set_s_versions() -> None:
    demo, test = _pins("demo.txt"), _pins("test.txt")
    assert set(demo) <= set(test)
    assert {name: version for name, version in demo.items() if test[name] != version} == {}


@pytest.mark.parametrize("lock", ["demo.txt", "test.txt"])
def test_every_pin_has_a_hash(lock: str) -> None:
    text = (ROOT / "requirements" / lock).read_text(encoding="utf-8")
    entries = re.split(r"\n(?=\S)", text)
    pinned = [entry for entry in entries if PIN.match(entry.splitlines()[0])]
    assert len(pinned) == len(_pins(lock)) > 0
    assert all("--hash=sha256:" in entry for entry in pinned)
