"""docs/limits.md documents every ``Limits`` field: its default as the code has it, and the error (or that there
is none) a caller meets past it; ``--limit NAME=VALUE`` reaches every field from the command line."""

from __future__ import annotations

import dataclasses
import re
from pathlib import Path

import pytest

from ont_platform import errors
from ont_platform.cli.main import parse_limits
from ont_platform.errors import InputError
from ont_platform.limits import DEFAULT_LIMITS, Limits

PAGE = Path(__file__).resolve().parents[2] / "docs" / "limits.md"
ROW = re.compile(
    r"^\|\s*`(?P<name>[a-z_]+)`\s*\|\s*`(?P<default>[^`]+)`[^|]*\|(?P<bounds>[^|]+)\|(?P<when>[^|]+)\|"
    r"(?P<error>.+)\|\s*$"
)


def documented() -> dict[str, dict[str, str]]:
    rows = {}
    for line in PAGE.read_text(encoding="utf-8").splitlines():
        m = ROW.match(line)
        if m is not None:
            assert m["name"] not in rows, f"{m['name']} documented twice"
            rows[m["name"]] = m.groupdict()
    return rows


def test_every_limit_is_documented_with_its_default_and_error() -> None:
    rows = documented()
    fields = {f.name: getattr(DEFAULT_LIMITS, f.name) for f in dataclasses.fields(Limits)}
    assert set(fields) - set(rows) == set(), "Limits fields missing from docs/limits.md"
    assert set(rows) - set(fields) == set(), "docs/limits.md lists fields Limits does not have"
    for name, default in fields.items():
        row = rows[name]
        assert type(default)(row["default"]) == default, f"{name}: documented default {row['default']}, code {default}"
        assert row["bounds"].strip() and row["when"].strip(), name
        error = row["error"].strip()
        named = [e for e in re.findall(r"`([A-Z][A-Za-z]+)`", error) if not e.startswith("Limits")]
        assert error.startswith("none") or named, f"{name}: say which error a caller gets, or none"
        for cls in named:
            assert isinstance(getattr(errors, cls, None), type), f"{name}: {cls} is not in ont_platform.errors"


def test_limit_flags_reach_every_field() -> None:
    for f in dataclasses.fields(Limits):
        default = getattr(DEFAULT_LIMITS, f.name)
        changed = parse_limits([f"{f.name}={default * 2}"])
        assert getattr(changed, f.name) == default * 2
    assert parse_limits(None) == DEFAULT_LIMITS
    for bad in (
        "max_hops",
        "nope=3",
        "max_hops=0",
        "max_hops=-2",
        "max_hops=1.5",
        "query_timeout_s=soon",
        "walk_max_edges=-1",
    ):
        with pytest.raises(InputError):
            parse_limits([bad])
    assert parse_limits(["walk_max_edges=0"]).walk_max_edges == 0  # 0 has a meaning here: the mirror is off
