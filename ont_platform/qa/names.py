"""The node names a question is read with: held in memory, or kept beside an on-disk store between processes.

A question names nodes by id, label, alias or address, compared after removing spacing and case
(:func:`ont_platform.qa.text.compact`). Reading every node's names takes one query over the whole domain, which
at ten million transfers is ~10M rows and a minute, and held as a Python dict they would take about a gigabyte.
So for an on-disk store (one with a :attr:`~ont_platform.storage.Store.stamp`) they are kept in the store's
``ont-index/`` folder and opened, not read, by the next process:

* ``names-<domain>/base-<stamp>.sqlite``: every (name, node id) pair of the domain as the store held it at
  ``stamp``, written once and never changed (SQLite opens it as immutable: no locks, several processes read it
  at once). A lookup is one indexed query for the few parts of a question that can be names at all (their length
  and first two letters must occur among the names: both sets are small and kept in memory).
* ``delta-<from>-<to>.jsonl``: the pairs a write of the library added when it moved the store from one stamp
  to the next (an ingest: its nodes' names; a load of another domain: none). They are small and held in memory.

A process uses the files only when they form a chain from a base to the store's present stamp, so what it
sees is exactly what the store held at that stamp: a reader that opened the store before a later write uses
the chain up to its own stamp, while the writer appends the next link. Any write the library did not follow
(an import of arbitrary RDF, a retraction, a write by another program: see :mod:`ont_platform.storage.stamp`)
breaks the chain, and the next process that may write rebuilds the base; one that may not builds the names in
memory. Nothing is ever used without a chain to the present stamp.
"""

from __future__ import annotations

import contextlib
import hashlib
import json
import logging
import os
import re
import sqlite3
import threading
from collections.abc import Callable, Iterable, Iterator
from pathlib import Path

from ont_platform.qa.text import compact
from ont_platform.storage import Store

log = logging.getLogger(__name__)

FORMAT = 1
"""Version of the files' layout; files of another version are not used."""

_LOOKUP_BATCH = 500


class Names:
    """Compact name → node ids, in memory. Also the overlay of :class:`KeptNames`."""

    def __init__(self) -> None:
        self._ids: dict[str, str | set[str]] = {}
        """A plain string for the common case keeps a million names out of the garbage collector's sight (a set
        per name is a tracked container: at a million transfers every full collection would walk ~700k of
        them, seconds of pause) and saves ~200 bytes a name."""
        self.lengths: set[int] = set()
        self.heads: set[str] = set()
        """The lengths and first two letters of the names: a part of a question can be a name only if both
        occur (exact, so filtering by them changes no match)."""

    def add(self, key: str, node_id: str) -> None:
        """``key`` (already compact, two letters or more) names ``node_id``."""
        have = self._ids.get(key)
        if have is None:
            self._ids[key] = node_id
        elif isinstance(have, str):
            if have != node_id:
                self._ids[key] = {have, node_id}
        else:
            have.add(node_id)
        self.lengths.add(len(key))
        self.heads.add(key[:2])

    def lookup(self, keys: Iterable[str]) -> dict[str, list[str]]:
        """The ids each of ``keys`` names (sorted), for the keys that name any."""
        out: dict[str, list[str]] = {}
        for key in keys:
            have = self._ids.get(key)
            if have is not None:
                out[key] = [have] if isinstance(have, str) else sorted(have)
        return out

    def nodes_named(self, key: str) -> list[str]:
        """The ids of the nodes a compact name names, sorted (empty when none)."""
        return self.lookup([key]).get(key, [])

    def __iter__(self) -> Iterator[str]:
        """Every name (compact)."""
        return iter(list(self._ids))

    def __len__(self) -> int:
        return len(self._ids)

    def as_dict(self) -> dict[str, list[str]]:
        """Every name with the ids it names (sorted): the whole content, for comparisons."""
        keys = list(self)
        return self.lookup(keys)

    def __eq__(self, other: object) -> bool:
        """Same names naming the same nodes, wherever they are kept."""
        if not isinstance(other, Names):
            return NotImplemented
        return self.as_dict() == other.as_dict()

    __hash__ = None  # type: ignore[assignment]  # compared by content, which changes

    @property
    def max_len(self) -> int:
        return max(self.lengths, default=0)

    def filters(self) -> tuple[set[int], set[str]]:
        """The lengths and first two letters a name can have."""
        return self.lengths, self.heads


class KeptNames(Names):
    """The names of a base file (read on demand) together with the deltas and later additions held in memory."""

    def __init__(self, base: Path, heads: set[str], lengths: set[int]) -> None:
        super().__init__()
        self.base = base
        self._base_heads, self._base_lengths = heads, lengths
        self._db = sqlite3.connect(f"{base.resolve().as_uri()}?mode=ro&immutable=1", uri=True, check_same_thread=False)
        self._lock = threading.Lock()
        """One connection, used by one question at a time."""

    def lookup(self, keys: Iterable[str]) -> dict[str, list[str]]:
        wanted = list(dict.fromkeys(keys))
        found: dict[str, set[str]] = {}
        for key, ids in super().lookup(wanted).items():
            found.setdefault(key, set()).update(ids)
        in_base = [k for k in wanted if len(k) in self._base_lengths and k[:2] in self._base_heads]
        with self._lock:
            for start in range(0, len(in_base), _LOOKUP_BATCH):
                batch = in_base[start : start + _LOOKUP_BATCH]
                marks = ",".join("?" * len(batch))
                for key, node_id in self._db.execute(f"SELECT key, id FROM names WHERE key IN ({marks})", batch):
                    found.setdefault(key, set()).add(node_id)
        return {k: sorted(v) for k, v in found.items()}

    def __iter__(self) -> Iterator[str]:
        with self._lock:
            base = [k for (k,) in self._db.execute("SELECT DISTINCT key FROM names")]
        return iter(list(dict.fromkeys([*base, *super().__iter__()])))

    def __len__(self) -> int:
        return sum(1 for _ in self)

    @property
    def max_len(self) -> int:
        return max(self._base_lengths | self.lengths, default=0)

    def filters(self) -> tuple[set[int], set[str]]:
        return self._base_lengths | self.lengths, self._base_heads | self.heads

    def close(self) -> None:
        with self._lock:
            self._db.close()


# -- the files ------------------------------------------------------------------------------------------------


class Chain:
    """The names files of one domain in one store, and the stamp a process's names have reached.

    ``stamp`` is what the names in memory correspond to; :meth:`follow` records a write of the library that
    moved the store from that stamp to the next, so the next process finds the chain complete."""

    def __init__(self, folder: Path, writable: bool, stamp: str) -> None:
        self.folder = folder
        self.writable = writable
        self.stamp = stamp

    def follow(self, before: str | None, after: str | None, pairs: Iterable[tuple[str, str]]) -> None:
        """Write the delta of a followed write (``pairs``: compact name, node id) when the chain ended at
        ``before``; otherwise (or when it cannot be written) leave the chain broken: the next process
        rebuilds."""
        pairs = list(pairs)
        if not self.writable or before is None or after is None or before != self.stamp:
            self.stamp = ""  # no longer in step with the files
            return
        try:
            _write_atomic(
                self.folder / f"delta-{before}-{after}.jsonl",
                "".join(json.dumps([k, i], ensure_ascii=False) + "\n" for k, i in pairs),
            )
        except OSError as exc:
            log.warning(
                "cannot record the names of a write in %s (the next process rebuilds them): %s", self.folder, exc
            )
            self.stamp = ""
            return
        self.stamp = after


def extend_kept(store: Store, domain: str, before: str | None, after: str | None) -> None:
    """After a write of the library that added none of ``domain``'s names and moved ``store`` from stamp
    ``before`` to ``after``: extend the domain's kept names by an empty link when they chain to ``before``
    (a domain no question has read in this process yet, whose names the write left as they were)."""
    folder = folder_for(store, domain)
    if folder is None or not store.index_writable or before is None or after is None or not folder.is_dir():
        return
    if _chain_to(folder, before) is not None:
        Chain(folder, True, before).follow(before, after, [])


def folder_for(store: Store, domain: str) -> Path | None:
    """Where a domain's names files live in ``store``'s index folder (``None`` when it keeps none)."""
    root = store.index_folder
    if root is None:
        return None
    safe = re.sub(r"[^A-Za-z0-9_.-]", "_", domain)[:40]
    digest = hashlib.sha256(domain.encode("utf-8")).hexdigest()[:8]
    return root / f"names-{safe}-{digest}"


def open_kept(
    store: Store, domain: str, rows: Callable[[], Iterable[tuple[str, str]]], limit: int
) -> tuple[Names, Chain | None]:
    """The domain's names for ``store`` at its present stamp: from the files when they chain to it, else a
    new base built from ``rows`` (when this process may write the index) or names in memory."""
    stamp = store.stamp
    folder = folder_for(store, domain)
    if stamp is None or folder is None:
        return _in_memory(rows()), None
    found = _from_files(folder, stamp, limit)
    if found is not None:
        return found, Chain(folder, store.index_writable, stamp)
    if not store.index_writable:
        return _in_memory(rows()), None
    try:
        base = _build(folder, stamp, limit, rows())
    except OSError as exc:
        log.warning("cannot keep the names of %s in %s (they are held in memory instead): %s", domain, folder, exc)
        return _in_memory(rows()), None
    if store.stamp != stamp:  # written while it was read: not a picture of one state
        with contextlib.suppress(OSError):
            base.unlink()
        return _in_memory(rows()), None
    kept = _open_base(base)
    if kept is None:
        return _in_memory(rows()), None
    _prune(folder, keep=base)
    return kept, Chain(folder, True, stamp)


def _in_memory(pairs: Iterable[tuple[str, str]]) -> Names:
    names = Names()
    for key, node_id in pairs:
        names.add(key, node_id)
    return names


def _chain_to(folder: Path, stamp: str) -> tuple[str, Path, list[Path]] | None:
    """A base file and the deltas that lead from its stamp to ``stamp``: (base stamp, base, deltas in order)."""
    try:
        entries = list(folder.iterdir())
    except OSError:
        return None
    deltas: dict[str, tuple[str, Path]] = {}
    bases: dict[str, Path] = {}
    for entry in entries:
        m = re.fullmatch(r"delta-([0-9a-f]+)-([0-9a-f]+)\.jsonl", entry.name)
        if m:
            deltas[m.group(1)] = (m.group(2), entry)
            continue
        m = re.fullmatch(r"base-([0-9a-f]+)\.sqlite", entry.name)
        if m:
            bases[m.group(1)] = entry
    for base_stamp, path in sorted(bases.items()):
        links: list[Path] = []
        at = base_stamp
        while at != stamp and at in deltas and len(links) <= len(deltas):
            at, link = deltas[at]
            links.append(link)
        if at == stamp:
            return base_stamp, path, links
    return None


def _from_files(folder: Path, stamp: str, limit: int) -> KeptNames | None:
    """Names from a base and deltas that chain to ``stamp``, or ``None``."""
    chain = _chain_to(folder, stamp)
    if chain is None:
        return None
    base_stamp, path, links = chain
    kept = _open_base(path, limit=limit, stamp=base_stamp)
    if kept is None:
        return None
    try:
        for link in links:
            for line in link.read_text(encoding="utf-8").splitlines():
                key, node_id = json.loads(line)
                kept.add(str(key), str(node_id))
    except (OSError, ValueError, TypeError) as exc:
        log.warning("cannot read the names deltas in %s: %s", folder, exc)
        kept.close()
        return None
    return kept


def _open_base(path: Path, *, limit: int | None = None, stamp: str | None = None) -> KeptNames | None:
    try:
        db = sqlite3.connect(f"{path.resolve().as_uri()}?mode=ro&immutable=1", uri=True)
        try:
            meta = dict(db.execute("SELECT k, v FROM meta").fetchall())
            heads = {h for (h,) in db.execute("SELECT head FROM heads")}
            lengths = {n for (n,) in db.execute("SELECT n FROM lengths")}
        finally:
            db.close()
    except sqlite3.Error as exc:
        log.warning("cannot read the names file %s: %s", path, exc)
        return None
    if meta.get("format") != str(FORMAT) or meta.get("complete") != "1":
        return None
    if stamp is not None and meta.get("stamp") != stamp:
        return None
    if limit is not None and meta.get("limit") != str(limit):
        return None
    return KeptNames(path, heads, lengths)


def _build(folder: Path, stamp: str, limit: int, pairs: Iterable[tuple[str, str]]) -> Path:
    """Write ``base-<stamp>.sqlite`` from ``pairs`` (into a temporary file first: it appears whole or not)."""
    folder.mkdir(parents=True, exist_ok=True)
    final = folder / f"base-{stamp}.sqlite"
    tmp = folder / f".base-{stamp}.{os.getpid()}.tmp"
    tmp.unlink(missing_ok=True)
    heads: set[str] = set()
    lengths: set[int] = set()
    db = sqlite3.connect(tmp)
    try:
        db.execute("PRAGMA journal_mode=OFF")
        db.execute("PRAGMA synchronous=OFF")
        db.execute("CREATE TABLE names (key TEXT NOT NULL, id TEXT NOT NULL)")
        db.execute("CREATE TABLE meta (k TEXT PRIMARY KEY, v TEXT NOT NULL)")
        db.execute("CREATE TABLE heads (head TEXT PRIMARY KEY) WITHOUT ROWID")
        db.execute("CREATE TABLE lengths (n INTEGER PRIMARY KEY)")

        def tracked() -> Iterator[tuple[str, str]]:
            for key, node_id in pairs:
                heads.add(key[:2])
                lengths.add(len(key))
                yield key, node_id

        db.executemany("INSERT INTO names VALUES (?, ?)", tracked())
        db.execute("CREATE INDEX names_key ON names (key, id)")
        db.executemany("INSERT INTO heads VALUES (?)", ((h,) for h in sorted(heads)))
        db.executemany("INSERT INTO lengths VALUES (?)", ((n,) for n in sorted(lengths)))
        db.executemany(
            "INSERT INTO meta VALUES (?, ?)",
            [("format", str(FORMAT)), ("stamp", stamp), ("limit", str(limit)), ("complete", "1")],
        )
        db.commit()
    except BaseException:
        db.close()
        tmp.unlink(missing_ok=True)
        raise
    db.close()
    with open(tmp, "rb") as f:
        os.fsync(f.fileno())
    os.replace(tmp, final)
    return final


def _prune(folder: Path, keep: Path) -> None:
    """Remove the other bases and every delta once a new base is in place (a process still reading an old
    file keeps its open handle)."""
    for entry in folder.iterdir():
        if entry != keep and (entry.name.startswith(("base-", "delta-")) or entry.name.startswith(".base-")):
            with contextlib.suppress(OSError):
                entry.unlink()


def _write_atomic(path: Path, text: str) -> None:
    tmp = path.with_name(f".{path.name}.{os.getpid()}.tmp")
    with open(tmp, "w", encoding="utf-8") as f:
        f.write(text)
        f.flush()
        os.fsync(f.fileno())
    os.replace(tmp, path)


def compact_pairs(rows: Iterable[tuple[str | None, str | None]]) -> Iterator[tuple[str, str]]:
    """(compact name, node id) pairs from rows of (node id, name or ``None``): each id names its own node, and
    each name its node; names shorter than two letters after compaction are left out."""
    for node_id, name in rows:
        if node_id is None:
            continue
        for text in (node_id, name):
            if text is None:
                continue
            key = compact(text)
            if len(key) >= 2:
                yield key, node_id
