"""Reading a dataset's CSV tables with exact line numbers and clear errors.

Tables are UTF-8 (a byte-order mark is accepted), comma separated, with a header row. A header that lacks a
required column, a file that is too large or not text, and a row with the wrong number of cells are reported
with the file and line; nothing is guessed.
"""

from __future__ import annotations

import csv
import io
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path

from ont_platform.errors import Problem
from ont_platform.limits import Limits


@dataclass(frozen=True, slots=True)
class Row:
    """One data row: its cells by column name (stripped), and the line it ends on."""

    line: int
    cells: dict[str, str]

    def get(self, name: str) -> str:
        return self.cells.get(name, "")


@dataclass
class Table:
    """A parsed table, or the problems that kept it from being one."""

    name: str
    columns: list[str]
    rows: list[Row]


def read_table(
    path: Path,
    required: tuple[str, ...],
    optional: tuple[str, ...],
    problems: list[Problem],
    limits: Limits,
    *,
    extra_ok: bool = False,
) -> Table | None:
    """Read ``path``; on failure add to ``problems`` and return None (or a partial table for row errors)."""
    name = path.name
    try:
        size = path.stat().st_size
    except OSError as exc:
        problems.append(Problem(name, None, f"cannot read: {exc.strerror or exc}"))
        return None
    if size > limits.max_file_bytes:
        problems.append(Problem(name, None, f"file is {size} bytes, over the limit of {limits.max_file_bytes}"))
        return None
    try:
        text = path.read_bytes().decode("utf-8-sig")
    except UnicodeDecodeError as exc:
        problems.append(Problem(name, None, f"not UTF-8 text (byte {exc.start})"))
        return None
    if "\x00" in text:
        problems.append(Problem(name, None, "contains NUL bytes: not a text table"))
        return None
    # csv needs the text as one stream (newline="") so a line break inside a quoted cell stays in the cell
    reader = csv.reader(io.StringIO(text, newline=""), strict=True)
    try:
        header = next(reader)
    except StopIteration:
        problems.append(Problem(name, 1, "empty file: a header row is required"))
        return None
    except csv.Error as exc:
        problems.append(Problem(name, 1, f"malformed header: {exc}"))
        return None
    columns = [h.strip() for h in header]
    missing = [c for c in required if c not in columns]
    if missing:
        problems.append(Problem(name, 1, f"missing required column(s): {', '.join(missing)}"))
        return None
    dupes = sorted({c for c in columns if columns.count(c) > 1})
    if dupes:
        problems.append(Problem(name, 1, f"duplicate column(s): {', '.join(dupes)}"))
        return None
    unknown = [c for c in columns if c not in required and c not in optional]
    if unknown and not extra_ok:
        problems.append(Problem(name, 1, f"unknown column(s): {', '.join(unknown)}"))
        return None
    rows: list[Row] = []
    for line, cells in _rows(reader, name, problems):
        if not any(c.strip() for c in cells):
            continue  # blank line
        if len(cells) != len(columns):
            problems.append(Problem(name, line, f"{len(cells)} cells, the header has {len(columns)}"))
            continue
        long = next((c for c in cells if len(c) > limits.max_cell_chars), None)
        if long is not None:
            problems.append(Problem(name, line, f"a cell of {len(long)} characters is over the limit"))
            continue
        rows.append(Row(line, {col: cell.strip() for col, cell in zip(columns, cells, strict=True)}))
    return Table(name, columns, rows)


def _rows(reader: Iterator[list[str]], name: str, problems: list[Problem]) -> Iterator[tuple[int, list[str]]]:
    line = 1
    while True:
        try:
            cells = next(reader)
        except StopIteration:
            return
        except csv.Error as exc:
            problems.append(Problem(name, line + 1, f"malformed CSV: {exc}"))
            return
        line = getattr(reader, "line_num", line + 1)
        yield line, cells
