"""Reading a dataset's CSV tables with exact line numbers and clear errors.

Tables are UTF-8 (a byte-order mark is accepted), comma separated, with a header row. A header that lacks a
required column, a file that is too large or not text, and a row with the wrong number of cells are reported
with the file and line; nothing is guessed.

Rows are streamed: :func:`open_table` checks the bytes (size, UTF-8, no NUL) and the header, and
:meth:`TableReader.rows` then reads the file row by row, so a table of a million rows is never held in memory
as a whole (neither its text nor its rows). :func:`read_table` keeps every row, for the small tables.
"""

from __future__ import annotations

import codecs
import csv
from collections.abc import Iterator, Mapping
from dataclasses import dataclass
from pathlib import Path

from ont_platform.errors import Problem
from ont_platform.limits import Limits

_BLOCK = 1 << 20
_BOM = codecs.BOM_UTF8


@dataclass(frozen=True, slots=True)
class Row:
    """One data row: its cells (stripped) in header order, and the line it ends on.

    ``index`` (column name to position) is shared by every row of a table, so a row costs one list of cells.
    """

    line: int
    cells: list[str]
    index: Mapping[str, int]

    def get(self, name: str) -> str:
        """The cell of column ``name``; an empty string when the table has no such column."""
        i = self.index.get(name)
        return self.cells[i] if i is not None else ""


@dataclass
class TableReader:
    """A table whose bytes and header passed the checks; :meth:`rows` streams its data rows."""

    path: Path
    name: str
    columns: list[str]
    problems: list[Problem]
    limits: Limits

    def rows(self) -> Iterator[Row]:
        """Every data row in file order; row-level problems are added to ``problems`` and the row skipped."""
        name, limits, width = self.name, self.limits, len(self.columns)
        index = {c: i for i, c in enumerate(self.columns)}
        max_cell = limits.max_cell_chars
        # newline="" so a line break inside a quoted cell stays in the cell
        with self.path.open(encoding="utf-8-sig", newline="") as fh:
            reader = csv.reader(fh, strict=True)
            try:
                next(reader)  # the header, checked by open_table
            except (StopIteration, csv.Error):  # pragma: no cover - open_table read the same header
                return
            line = 1
            while True:
                try:
                    cells = next(reader)
                except StopIteration:
                    return
                except csv.Error as exc:
                    self.problems.append(Problem(name, line + 1, f"malformed CSV: {exc}"))
                    return
                line = reader.line_num
                if len(cells) != width:
                    if not any(c.strip() for c in cells):
                        continue  # blank line
                    self.problems.append(Problem(name, line, f"{len(cells)} cells, the header has {width}"))
                    continue
                stripped = [c.strip() for c in cells]
                if not any(stripped):
                    continue  # blank line
                long = next((c for c in cells if len(c) > max_cell), None)
                if long is not None:
                    self.problems.append(Problem(name, line, f"a cell of {len(long)} characters is over the limit"))
                    continue
                yield Row(line, stripped, index)


def _check_bytes(path: Path, name: str, problems: list[Problem]) -> bool:
    """UTF-8 throughout (after an optional BOM) and no NUL byte, read in blocks of 1 MiB."""
    decoder = codecs.getincrementaldecoder("utf-8")()
    offset = 0  # of the next block, counted after the BOM (as decoding the whole text would count)
    with path.open("rb") as fh:
        block = fh.read(_BLOCK)
        block = block.removeprefix(_BOM)
        nul = False
        while block:
            nul = nul or b"\x00" in block
            pending = len(decoder.getstate()[0])
            try:
                decoder.decode(block)
            except UnicodeDecodeError as exc:
                problems.append(Problem(name, None, f"not UTF-8 text (byte {offset - pending + exc.start})"))
                return False
            offset += len(block)
            block = fh.read(_BLOCK)
        try:
            decoder.decode(b"", final=True)
        except UnicodeDecodeError as exc:
            problems.append(Problem(name, None, f"not UTF-8 text (byte {offset - len(decoder.getstate()[0]) + exc.start})"))
            return False
    if nul:
        problems.append(Problem(name, None, "contains NUL bytes: not a text table"))
        return False
    return True


def open_table(
    path: Path,
    required: tuple[str, ...],
    optional: tuple[str, ...],
    problems: list[Problem],
    limits: Limits,
    *,
    extra_ok: bool = False,
) -> TableReader | None:
    """Check ``path`` (size, encoding, header); on failure add to ``problems`` and return None."""
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
        if not _check_bytes(path, name, problems):
            return None
        with path.open(encoding="utf-8-sig", newline="") as fh:
            header = next(csv.reader(fh, strict=True))
    except OSError as exc:
        problems.append(Problem(name, None, f"cannot read: {exc.strerror or exc}"))
        return None
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
    return TableReader(path, name, columns, problems, limits)


@dataclass
class Table:
    """A table read whole: for the small side tables (``columns.csv``, ``predicates.csv``)."""

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
    """Read ``path`` whole; on failure add to ``problems`` and return None (row errors skip the row)."""
    reader = open_table(path, required, optional, problems, limits, extra_ok=extra_ok)
    if reader is None:
        return None
    return Table(reader.name, reader.columns, list(reader.rows()))
