"""The ids of a table and the line each was first seen on, in about 50 bytes an id instead of 120.

A load keeps, for every id of a table, the line it came from: to refuse a second row with the same id (naming the
first line) and to say which line a SHACL violation's resource came from. As a ``dict[str, int]`` that costs
about 120 bytes an id (the string, a boxed line number, the entry): ten million transfers took 1.2 GB, and a load
whose row checks run beside it holds that twice. Here an id is kept as 128 bits (Python's own keyed SipHash of
the id, and of the id with one more character) and its line as an unsigned 64-bit integer, in three flat arrays
probed linearly (``benchmarks/id_lines.py`` measures both, time and bytes).

Two different ids are taken for one when both 64-bit hashes agree. SipHash is keyed at random for every process
(unless ``PYTHONHASHSEED`` fixes the key), so among a hundred million ids the chance of that is about 10⁻²², far
below the chance of a memory error; even with a fixed key, finding two such ids on purpose takes a search of
2⁶⁴ hashes.

Why not a library: Python's ``dict`` and ``set`` hold an object per id; ``sqlite3`` keeps ids on disk but costs
several microseconds an insert and a file to clean up; none of our dependencies offers a compact hash table of
fixed-size keys.
"""

from __future__ import annotations

from array import array

_BITS = (1 << 64) - 1
_EMPTY = 0
"""A slot's line when it holds no id (lines count from 1)."""


def _digest(key: str) -> tuple[int, int]:
    """128 bits of the id: Python's keyed SipHash of the id and of the id with one more character."""
    return hash(key) & _BITS, hash(key + "\x00") & _BITS


class IdLines:
    """A mapping of id (``str``) to line (``int`` ≥ 1), the subset of ``dict`` a load uses: ``in``, ``[]``,
    ``get``, assignment of a new id, ``len``. An id's line cannot change and ids cannot be removed."""

    __slots__ = ("_high", "_len", "_lines", "_low", "_mask")

    def __init__(self, capacity: int = 1024) -> None:
        size = 1 << max(4, (max(capacity, 1) * 2 - 1).bit_length())
        self._high = array("Q", bytes(8 * size))
        self._low = array("Q", bytes(8 * size))
        self._lines = array("Q", bytes(8 * size))
        self._mask = size - 1
        self._len = 0

    def _find(self, high: int, low: int) -> int:
        """The slot holding the id of this digest, or the empty slot where it would go."""
        mask, lines, highs, lows = self._mask, self._lines, self._high, self._low
        i = low & mask
        while lines[i] != _EMPTY and (highs[i] != high or lows[i] != low):
            i = (i + 1) & mask
        return i

    def get(self, key: str, default: int | None = None) -> int | None:
        """The line ``key`` was first seen on, or ``default``."""
        i = self._find(*_digest(key))
        line = self._lines[i]
        return default if line == _EMPTY else line

    def __contains__(self, key: object) -> bool:
        return isinstance(key, str) and self.get(key) is not None

    def __getitem__(self, key: str) -> int:
        line = self.get(key)
        if line is None:
            raise KeyError(key)
        return line

    def setdefault(self, key: str, line: int) -> int:
        """The line ``key`` was first seen on; ``line`` when it is new (then kept), as ``dict.setdefault``."""
        if type(line) is not int or not 1 <= line < 1 << 64:
            raise ValueError(f"a line is a whole number from 1, got {line!r}")
        high, low = _digest(key)
        lines, highs, lows, mask = self._lines, self._high, self._low, self._mask
        i = low & mask
        while (found := lines[i]) != _EMPTY:
            if highs[i] == high and lows[i] == low:
                return found
            i = (i + 1) & mask
        highs[i], lows[i], lines[i] = high, low, line
        self._len += 1
        if self._len * 3 > len(lines) * 2:  # over two thirds full: probes grow long
            self._grow()
        return line

    def __setitem__(self, key: str, line: int) -> None:
        """Keep the line of a new id; an id already kept must come with its first line."""
        first = self.setdefault(key, line)
        if first != line:
            raise ValueError(f"id {key!r} was first seen on line {first}; its line cannot change")

    def _grow(self) -> None:
        highs, lows, lines = self._high, self._low, self._lines
        size = len(lines) * 2
        self._high, self._low, self._lines = (array("Q", bytes(8 * size)) for _ in range(3))
        self._mask = size - 1
        for high, low, line in zip(highs, lows, lines, strict=True):
            if line != _EMPTY:
                i = self._find(high, low)
                self._high[i], self._low[i], self._lines[i] = high, low, line

    def __len__(self) -> int:
        return self._len

    def nbytes(self) -> int:
        """The bytes its arrays take."""
        return sum(a.itemsize * len(a) for a in (self._high, self._low, self._lines))


__all__ = ["IdLines"]
