"""Reading JSON Lines files (batches of questions, answers, gold sets) with line numbers in every error."""

from __future__ import annotations

import json
from collections.abc import Iterator
from pathlib import Path
from typing import Any

from ont_platform.errors import InputError


def read_jsonl(path: Path) -> Iterator[tuple[int, Any | json.JSONDecodeError]]:
    """(line number, parsed value) for each non-blank line; a line that is not JSON gives its decode error
    in place of the value, so the caller decides whether that stops the file or only that line."""
    try:
        lines = path.read_text(encoding="utf-8").splitlines()
    except (OSError, UnicodeDecodeError) as exc:
        raise InputError(f"cannot read {path}: {exc}") from exc
    for n, line in enumerate(lines, 1):
        if not line.strip():
            continue
        try:
            yield n, json.loads(line)
        except json.JSONDecodeError as exc:
            yield n, exc


def strict_jsonl(path: Path) -> Iterator[tuple[int, Any]]:
    """Like :func:`read_jsonl`, but a line that is not JSON is an InputError naming the file and line."""
    for n, value in read_jsonl(path):
        if isinstance(value, json.JSONDecodeError):
            raise InputError(f"{path}:{n}: not JSON: {value.msg}") from value
        yield n, value
