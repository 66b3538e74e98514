"""Reading a dataset's CSV tables with exact line numbers and clear errors.

Tables are UTF-8 (a byte-order mark is accepted), comma separated, with a header row. A header that lacks a
required column, a file that is too large or not text, and a row with the wrong number of cells are reported
with the file and line; nothing is guessed.

Only regular files are read (:func:`open_regular`): a FIFO, a device or a directory in a table's place is
refused before a byte is read (a FIFO would otherwise block the load forever, ``/dev/zero`` never end), and so
is a symbolic link that leads out of the dataset folder. A link to another file of the folder is followed.

Rows are streamed: :func:`open_table` checks the bytes (size, UTF-8, no NUL) and the header, and
:meth:`TableReader.rows` then reads the file row by row, so a table of a million rows is never held in memory
as a whole (neither its text nor its rows). :func:`read_table` keeps every row, for the small tables.

Every cell passes the text policy (:func:`ont_platform.text_policy.clean_text`) of its column's kind: ``id``
columns hold the NFKC form of the id, and a control, bidirectional or invisible character refuses the row.
A file whose bytes are all printable ASCII, line breaks and no quote character cannot hold such a cell, and
its rows skip the check.

Python's ``csv`` module refuses fields longer than ``csv.field_size_limit()`` (131,072 characters by default,
one setting for the whole process). Before reading, the limit is raised to ``Limits.max_cell_chars + 1`` when
it is lower (:func:`allow_cells`; it is never lowered, so another reader in the process is not cut short), and
the cell length is still checked here: a cell over ``max_cell_chars`` is the same problem whichever check
finds it.
"""

from __future__ import annotations

import codecs
import csv
import io
import os
import re
import stat
import threading
from collections import Counter
from collections.abc import Iterator, Mapping
from dataclasses import dataclass, field
from pathlib import Path
from typing import BinaryIO, TextIO

from ont_platform.errors import Problem
from ont_platform.limits import Limits
from ont_platform.text_policy import ANY_REFUSED, TextKind, UnsafeText, clean_text

_BLOCK = 1 << 20
_BOM = codecs.BOM_UTF8
_NOT_PLAIN = re.compile(rb"[^\x20\x21\x23-\x7e\n\r]")
"""A byte that is not printable ASCII or a line break, or a quote (a quoted cell may hold a line break)."""
_FIELD_LIMIT = threading.Lock()
_SHOWN_NAMES = 20
"""Column names listed in a header problem; the rest are counted."""
_KINDS = {
    stat.S_IFIFO: "a FIFO",
    stat.S_IFCHR: "a character device",
    stat.S_IFBLK: "a block device",
    stat.S_IFDIR: "a directory",
    stat.S_IFSOCK: "a socket",
}


class FileRefused(Exception):
    """A dataset file that must not be read (not a regular file, or outside its folder); the message says
    why. Callers turn it into a :class:`~ont_platform.errors.Problem`."""


def open_regular(path: Path, folder: Path | None = None) -> BinaryIO:
    """``path`` opened for reading in binary, if it is a regular file inside ``folder`` (default: its parent).

    A symbolic link is followed only when its target lies inside the folder too. The file is opened without
    blocking and checked on the open descriptor, so a FIFO (or a file swapped for one after a check) is
    refused instead of waited on. Raises :class:`FileRefused`, or ``OSError`` when the file cannot be opened.
    """
    base = os.path.realpath(folder if folder is not None else path.parent)
    real = os.path.realpath(path)
    if real == base or os.path.commonpath([base, real]) != base:
        raise FileRefused("a link to a file outside the dataset folder: only the folder's own files are read")
    flags = os.O_RDONLY | getattr(os, "O_NONBLOCK", 0) | getattr(os, "O_CLOEXEC", 0) | getattr(os, "O_BINARY", 0)
    fd = os.open(real, flags)
    try:
        mode = os.fstat(fd).st_mode
        if not stat.S_ISREG(mode):
            kind = _KINDS.get(stat.S_IFMT(mode), "not a file")
            raise FileRefused(f"not a regular file ({kind}): only regular files are read")
        return os.fdopen(fd, "rb")
    except BaseException:
        os.close(fd)
        raise


def read_regular(path: Path, max_bytes: int, folder: Path | None = None) -> bytes:
    """The bytes of a small dataset file (``meta.json``), if it is a regular file of at most ``max_bytes``.
    Raises :class:`FileRefused` (the message names the size and the limit) or ``OSError``."""
    with open_regular(path, folder) as fh:
        size = os.fstat(fh.fileno()).st_size
        if size > max_bytes:
            raise FileRefused(f"file is {size} bytes, over the limit of {max_bytes}")
        data = fh.read(max_bytes + 1)
    if len(data) > max_bytes:
        raise FileRefused(f"file grew past the limit of {max_bytes} bytes while it was read")
    return data


def check_regular(path: Path, max_bytes: int, folder: Path | None = None) -> str | None:
    """Why ``path`` may not be read as a dataset file of at most ``max_bytes`` (not regular, outside the
    folder, too large, unreadable), or None when it may."""
    try:
        with open_regular(path, folder) as fh:
            size = os.fstat(fh.fileno()).st_size
    except FileRefused as exc:
        return str(exc)
    except OSError as exc:
        return f"cannot read: {exc.strerror or exc}"
    if size > max_bytes:
        return f"file is {size} bytes, over the limit of {max_bytes}"
    return None


def _text(path: Path) -> TextIO:
    # newline="" so a line break inside a quoted cell stays in the cell
    return io.TextIOWrapper(open_regular(path), encoding="utf-8-sig", newline="")


def allow_cells(max_chars: int) -> None:
    """Let Python's ``csv`` read cells of ``max_chars + 1`` characters: raise the process-wide
    ``csv.field_size_limit`` to that when it is lower. Never lowers it (another reader in this process may
    need more); the lock keeps two loads from lowering each other's setting."""
    with _FIELD_LIMIT:
        if csv.field_size_limit() < max_chars + 1:
            csv.field_size_limit(max_chars + 1)


def _too_long(exc: csv.Error) -> bool:
    return "field larger than field limit" in str(exc)


def _names(names: list[str]) -> str:
    shown = ", ".join(n[:100] for n in names[:_SHOWN_NAMES])
    more = len(names) - _SHOWN_NAMES
    return f"{shown} and {more} more" if more > 0 else shown


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
    kinds: Mapping[str, TextKind] = field(default_factory=dict)
    """The text-policy kind of each column (``id``, ``label``, ``text``); ``label`` when not named."""
    plain: bool = False
    """Whether the file's bytes are printable ASCII and line breaks only, without a quote: no cell can then
    hold a character the text policy refuses, and rows skip that check."""

    def rows(self) -> Iterator[Row]:
        """Every data row in file order; row-level problems are added to ``problems`` and the row skipped.

        A problem found in a cell's text (the text policy) names the line the row starts on; the others, as
        before, the line it ends on."""
        name, limits, width = self.name, self.limits, len(self.columns)
        index = {c: i for i, c in enumerate(self.columns)}
        kinds: list[TextKind] = [self.kinds.get(c, "label") for c in self.columns]
        ids = [i for i, k in enumerate(kinds) if k == "id"]
        check = not self.plain
        max_cell = limits.max_cell_chars
        allow_cells(max_cell)
        with _text(self.path) as fh:
            reader = csv.reader(fh, strict=True)
            try:
                next(reader)  # the header, checked by open_table
            except (StopIteration, csv.Error):  # pragma: no cover - open_table read the same header
                return
            line = 1
            while True:
                start = line + 1
                try:
                    cells = next(reader)
                except StopIteration:
                    return
                except csv.Error as exc:
                    # the reader cannot find the next row after this: stop here (the table is refused anyway)
                    reason = (
                        f"a cell of more than {max_cell} characters is over the limit"
                        if _too_long(exc)
                        else f"malformed CSV: {exc}"
                    )
                    self.problems.append(Problem(name, start, reason))
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
                if check:
                    # one search over the row; cell by cell only when it finds something, or for non-ASCII ids
                    joined = " ".join(stripped)
                    try:
                        if ANY_REFUSED.search(joined) is not None:
                            stripped = [
                                clean_text(c, k, what=col) if c else c
                                for c, k, col in zip(stripped, kinds, self.columns, strict=True)
                            ]
                        elif ids and not joined.isascii():
                            for i in ids:
                                if not stripped[i].isascii():
                                    stripped[i] = clean_text(stripped[i], "id", what=self.columns[i])
                    except UnsafeText as exc:
                        self.problems.append(Problem(name, start, str(exc)))
                        continue
                yield Row(line, stripped, index)


def _check_bytes(path: Path, name: str, problems: list[Problem], max_bytes: int) -> bool | None:
    """UTF-8 throughout (after an optional BOM), no NUL byte and at most ``max_bytes``, read in blocks of
    1 MiB. None when a problem was added; else whether the file is plain (see :attr:`TableReader.plain`)."""
    decoder = codecs.getincrementaldecoder("utf-8")()
    offset = 0  # of the next block, counted after the BOM (as decoding the whole text would count)
    with open_regular(path) as fh:
        size = os.fstat(fh.fileno()).st_size
        if size > max_bytes:
            problems.append(Problem(name, None, f"file is {size} bytes, over the limit of {max_bytes}"))
            return None
        block = fh.read(_BLOCK)
        block = block.removeprefix(_BOM)
        nul, plain, total = False, True, len(block)
        while block:
            nul = nul or b"\x00" in block
            plain = plain and _NOT_PLAIN.search(block) is None
            pending = len(decoder.getstate()[0])
            try:
                decoder.decode(block)
            except UnicodeDecodeError as exc:
                problems.append(Problem(name, None, f"not UTF-8 text (byte {offset - pending + exc.start})"))
                return None
            offset += len(block)
            if total > max_bytes:  # it grew after the size check
                problems.append(Problem(name, None, f"file grew past the limit of {max_bytes} bytes while read"))
                return None
            block = fh.read(_BLOCK)
            total += len(block)
        try:
            decoder.decode(b"", final=True)
        except UnicodeDecodeError as exc:
            problems.append(
                Problem(name, None, f"not UTF-8 text (byte {offset - len(decoder.getstate()[0]) + exc.start})")
            )
            return None
    if nul:
        problems.append(Problem(name, None, "contains NUL bytes: not a text table"))
        return None
    return plain


def open_table(
    path: Path,
    required: tuple[str, ...],
    optional: tuple[str, ...],
    problems: list[Problem],
    limits: Limits,
    *,
    extra_ok: bool = False,
    kinds: Mapping[str, TextKind] | None = None,
) -> TableReader | None:
    """Check ``path`` (a regular file of the folder, size, encoding, header); on failure add to ``problems``
    and return None. ``kinds`` gives the text-policy kind of columns that are not ``label`` (ids, long text).
    Every check of the header is linear in its number of columns."""
    name = path.name
    allow_cells(limits.max_cell_chars)
    try:
        plain = _check_bytes(path, name, problems, limits.max_file_bytes)
        if plain is None:
            return None
        with _text(path) as fh:
            header = next(csv.reader(fh, strict=True))
    except FileRefused as exc:
        problems.append(Problem(name, None, str(exc)))
        return None
    except OSError as exc:
        problems.append(Problem(name, None, f"cannot read: {exc.strerror or exc}"))
        return None
    except StopIteration:
        problems.append(Problem(name, 1, "empty file: a header row is required"))
        return None
    except csv.Error as exc:
        reason = (
            f"a header cell of more than {limits.max_cell_chars} characters is over the limit"
            if _too_long(exc)
            else f"malformed header: {exc}"
        )
        problems.append(Problem(name, 1, reason))
        return None
    columns = [h.strip() for h in header]
    have = set(columns)
    missing = [c for c in required if c not in have]
    if missing:
        problems.append(Problem(name, 1, f"missing required column(s): {', '.join(missing)}"))
        return None
    if len(have) != len(columns):
        dupes = sorted(c for c, n in Counter(columns).items() if n > 1)
        problems.append(Problem(name, 1, f"duplicate column(s): {_names(dupes)}"))
        return None
    known = set(required) | set(optional)
    unknown = [c for c in columns if c not in known]
    if unknown and not extra_ok:
        problems.append(Problem(name, 1, f"unknown column(s): {_names(unknown)}"))
        return None
    return TableReader(path, name, columns, problems, limits, dict(kinds or {}), plain)


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
    kinds: Mapping[str, TextKind] | None = None,
) -> Table | None:
    """Read ``path`` whole; on failure add to ``problems`` and return None (row errors skip the row)."""
    reader = open_table(path, required, optional, problems, limits, extra_ok=extra_ok, kinds=kinds)
    if reader is None:
        return None
    return Table(reader.name, reader.columns, list(reader.rows()))
