"""Reading JSON from users (JSON Lines files of questions, answers and gold sets; small JSON files such as a
dataset's ``meta.json``) with line numbers in every error and bounds on what one document may cost.

Every document is read by :func:`loads`, which adds three bounds to :func:`json.loads`:

* nesting: a document nested deeper than :data:`MAX_DEPTH` levels is refused with an :class:`InputError`
  *before* it is parsed. Python's parser recurses once per level and raises ``RecursionError`` near a
  thousand; the check here does not recurse (it counts brackets outside strings), and nothing the library
  reads nests more than a few levels;
* numbers: an integer of more digits than Python converts (``sys.get_int_max_str_digits()``, 4,300 by
  default) is a JSON error like any other, not a bare ``ValueError``;
* size: :func:`read_jsonl` reads a file line by line and refuses a line longer than :data:`MAX_LINE_CHARS`
  characters before parsing it, and a file of more than ``max_chars`` characters.
"""

from __future__ import annotations

import json
import re
import sys
from collections.abc import Iterator
from itertools import accumulate
from pathlib import Path
from typing import Any

from ont_platform.errors import InputError
from ont_platform.limits import DEFAULT_LIMITS

MAX_DEPTH = 100
"""Deepest nesting of arrays and objects in a JSON document read from a user. The answer contracts nest three
levels (``verify`` reports answers deeper than ``Limits.max_answer_depth`` as a failed check); this bound is
for input that is not worth reading at all, and stays far below the depth at which Python's parser fails."""

MAX_LINE_CHARS = 16 * 1024 * 1024
"""Longest line of a JSON Lines file, in characters (an answer with ``Limits.max_answer_items`` path steps is
a few megabytes)."""

_STRING = re.compile(r'"[^"\\]*+(?:\\.[^"\\]*+)*+"', re.DOTALL)
_NOT_BRACKET = re.compile(r"[^\[\]{}]+")
_STEP = {"[": 1, "{": 1, "]": -1, "}": -1}


class TooDeep(InputError):
    """A JSON document nested deeper than the reader allows."""


def nesting_depth(text: str) -> int:
    """The deepest nesting of ``[`` and ``{`` in JSON text, counted outside strings, without recursion."""
    if "[" not in text and "{" not in text:
        return 0
    brackets = _NOT_BRACKET.sub("", _STRING.sub("", text))
    return max(accumulate(map(_STEP.__getitem__, brackets)), default=0)


def loads(text: str, *, where: str = "JSON", max_depth: int = MAX_DEPTH) -> Any:
    """Parse one JSON document. Raises :class:`json.JSONDecodeError` when it is not JSON (also for a number of
    more digits than Python converts) and :class:`TooDeep` (an InputError naming ``where``) when it nests
    deeper than ``max_depth``.

    >>> loads('{"a": [1, 2]}')
    {'a': [1, 2]}
    >>> loads("[" * 200, where="x.jsonl:3")
    Traceback (most recent call last):
    ...
    ont_platform.jsonl.TooDeep: x.jsonl:3: JSON nested deeper than 100 levels
    """
    # a cheap count first: a document with few brackets cannot nest deeply
    if text.count("[") + text.count("{") > max_depth and nesting_depth(text) > max_depth:
        raise TooDeep(f"{where}: JSON nested deeper than {max_depth} levels")
    try:
        return json.loads(text)
    except json.JSONDecodeError:
        raise
    except ValueError as exc:  # int(): "Exceeds the limit (4300 digits) for integer string conversion"
        limit = sys.get_int_max_str_digits() if hasattr(sys, "get_int_max_str_digits") else 0
        msg = f"a number of more than {limit} digits" if "digits" in str(exc) else str(exc)[:200]
        raise json.JSONDecodeError(msg, text, 0) from exc
    except RecursionError as exc:  # pragma: no cover - the depth check comes first
        raise TooDeep(f"{where}: JSON nested too deeply to read") from exc


def read_jsonl(
    path: Path, *, max_chars: int = DEFAULT_LIMITS.max_file_bytes
) -> Iterator[tuple[int, Any | json.JSONDecodeError]]:
    """(line number, parsed value) for each non-blank line; a line that is not JSON gives its decode error
    in place of the value, so the caller decides whether that stops the file or only that line.

    Raises InputError (naming the file and line) for an unreadable file, a line longer than
    :data:`MAX_LINE_CHARS`, a file of more than ``max_chars`` characters and a line nested deeper than
    :data:`MAX_DEPTH`: those are unusable input whatever the caller does with bad lines. Lines end at
    ``\\n``, ``\\r\\n`` or ``\\r`` only (U+2028 inside a JSON string is text, not a line break)."""
    try:
        fh = path.open(encoding="utf-8", newline=None)
    except OSError as exc:
        raise InputError(f"cannot read {path}: {exc.strerror or exc}") from exc
    with fh:
        n = total = 0
        while True:
            try:
                line = fh.readline(MAX_LINE_CHARS + 1)
            except (OSError, UnicodeDecodeError) as exc:
                raise InputError(f"cannot read {path}: {exc}") from exc
            if not line:
                return
            n += 1
            total += len(line)
            if len(line) > MAX_LINE_CHARS:
                raise InputError(f"{path}:{n}: a line of more than {MAX_LINE_CHARS} characters is over the limit")
            if total > max_chars:
                raise InputError(f"{path}: more than {max_chars} characters, over the limit")
            if not line.strip():
                continue
            text = line[:-1] if line.endswith("\n") else line
            try:
                yield n, loads(text, where=f"{path}:{n}")
            except json.JSONDecodeError as exc:
                yield n, exc


def strict_jsonl(path: Path, *, max_chars: int = DEFAULT_LIMITS.max_file_bytes) -> Iterator[tuple[int, Any]]:
    """Like :func:`read_jsonl`, but a line that is not JSON is an InputError naming the file and line."""
    for n, value in read_jsonl(path, max_chars=max_chars):
        if isinstance(value, json.JSONDecodeError):
            raise InputError(f"{path}:{n}: not JSON: {value.msg}") from value
        yield n, value
