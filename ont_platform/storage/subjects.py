"""Which IRIs are surely not the subject of any stored triple, for an on-disk store: 64-bit keys of every subject.

Why: a guarded ingest reads the stored neighbourhood of every resource its batch touches (``validation/facts.py``),
one lookup per resource. In a batch of 100 extracted relations most of those resources are new (the relations,
their chunks and evidence, a tenth of the addresses), and on a 10M-transfer store on disk every lookup, found or
not, reads a block of the store: most of the batch's read time goes to proving that new things are new. A key
set answers that from memory. A key absent from the set proves the IRI is not a stored subject; a key present
only says "maybe" (two IRIs may share a key), and the store is asked as before. So the set may hold too much,
never too little: it is only used while it is exactly in step with the store.

How it stays in step (:class:`~ont_platform.storage.oxigraph.OxigraphStore` does this):

* a bulk load into an empty store collects the keys of the subjects of every N-Triples chunk it takes in
  (:class:`KeyCollector`) and writes them to ``ont-index/subjects/keys-<token>.npy`` with the store's token
  (:mod:`ont_platform.storage.stamp`), sorted, once;
* a later N-Triples write through the store adds the keys of its subjects, in memory;
* any other write (SPARQL update, another RDF syntax, a write that failed half-way, two writes at once) drops
  the set: it is not used again until the next bulk load. Without it the store is read for every resource, as
  it always was;
* a clean close writes the set again under the token the store keeps, when writes added keys. A process opening
  the store later uses the file only when its token is the store's token; a store changed by anything else has
  another token (see :mod:`ont_platform.storage.stamp`).

A sorted NumPy array rather than a Bloom filter or a Python set: 8 bytes a subject (107 MB for the 13.4M subjects
of 10M transfers, opened as a memory map, so a process pays only for the pages it reads), exact up to 64-bit
collisions, and NumPy is already a dependency.
"""

from __future__ import annotations

import contextlib
import hashlib
import logging
import os
import re
from collections.abc import Iterable, Iterator
from pathlib import Path

import numpy as np
import numpy.typing as npt

log = logging.getLogger(__name__)

FOLDER = "subjects"
"""Sub-folder of the store's index folder for the key files."""
_LINE_START = re.compile(rb"\n<([^>]*)>")
"""The subject IRI of a line that starts with ``<`` (the text is searched with a line break put before it)."""
_SUBJECT = re.compile(rb"^[ \t]*<([^>\n]*)>", re.MULTILINE)
"""The subject IRI of a line that may start with spaces or tabs. The engine takes exactly one triple a line (two
on a line, or one over two lines, is a syntax error), a line ends at ``\n`` or ``\r``, and only spaces and
tabs may come before the subject: so every stored subject IRI starts a line (and what is found that is not one
only costs a lookup)."""
_UCHAR = re.compile(rb"\\u([0-9A-Fa-f]{4})|\\U([0-9A-Fa-f]{8})")
"""The escapes an IRI may hold in N-Triples text (``\\u00E9`` is the IRI's ``é``)."""

Keys = npt.NDArray[np.uint64]


def key_of(iri: str) -> int:
    """The 64-bit key of an IRI (the same in every process: a digest, not Python's salted ``hash``)."""
    return _key(iri.encode("utf-8", "surrogatepass"))


def _key(raw: bytes) -> int:
    return int.from_bytes(hashlib.blake2b(raw, digest_size=8).digest(), "little")


def _unescape(raw: bytes) -> bytes:
    def char(m: re.Match[bytes]) -> bytes:
        try:
            return chr(int(m.group(1) or m.group(2), 16)).encode("utf-8", "surrogatepass")
        except ValueError:  # beyond Unicode: the engine refuses the IRI, so no key is needed for it
            return m.group(0)

    return _UCHAR.sub(char, raw)


def ntriples_keys(data: bytes) -> Keys:
    """The keys of the subject IRIs in N-Triples text, each once (blank-node subjects have none: the library
    never asks about them).

    The common case, a line that starts with ``<``, is found by a pattern that starts with a fixed ``\\n<`` (the
    engine searches for it in C); lines that start with a space or a tab, rare, by a second pattern only when
    there are some. At 10M transfers a load's text is 123M lines, so the cost a line is what counts: ~0.3 µs here,
    against ~0.6 µs for splitting the lines in Python. A subject IRI cannot hold ``>`` or a line break, and a
    line that starts with ``<`` without closing it is a syntax error that fails the write (its keys are then
    never used), so no match runs into the next line of a text that is stored."""
    if b"\r" in data:
        data = data.replace(b"\r", b"\n")  # a lone carriage return ends a line too
    found = set(_LINE_START.findall(b"\n" + data))
    if b"\n " in data or b"\n\t" in data or data[:1] in (b" ", b"\t"):
        found.update(_SUBJECT.findall(data))
    if b"\\" in data:
        found = {_unescape(s) if b"\\" in s else s for s in found}
    return np.fromiter((_key(s) for s in found), dtype=np.uint64, count=len(found))


class SubjectKeys:
    """The keys of every subject of a store at one moment: a sorted array (often a memory map of a file) and the
    keys added since, in memory."""

    def __init__(self, base: Keys, more: Iterable[int] = ()) -> None:
        self._base = base
        self._more: set[int] = set(more)

    def __len__(self) -> int:
        return len(self._base) + len(self._more)

    @property
    def changed(self) -> bool:
        """Whether keys were added since the base was made (the file no longer holds them all)."""
        return bool(self._more)

    def add(self, keys: Keys) -> None:
        self._more.update(int(k) for k in keys)

    def absent(self, iris: Iterable[str]) -> set[str]:
        """The IRIs that are surely not the subject of a stored triple."""
        wanted = list(dict.fromkeys(iris))
        if not wanted:
            return set()
        keys = np.fromiter((key_of(i) for i in wanted), dtype=np.uint64, count=len(wanted))
        base = self._base
        at = np.searchsorted(base, keys)
        hit = np.zeros(len(keys), dtype=bool)
        inside = at < len(base)
        hit[inside] = base[at[inside]] == keys[inside]
        more = self._more
        return {iri for iri, k, h in zip(wanted, keys.tolist(), hit.tolist(), strict=True) if not h and k not in more}

    def merged(self) -> Keys:
        """Every key, sorted, each once."""
        if not self._more:
            return np.asarray(self._base)
        more = np.fromiter(self._more, dtype=np.uint64, count=len(self._more))
        return _sorted_unique(np.concatenate((np.asarray(self._base), more)))


class KeyCollector:
    """Keys of the subjects of N-Triples chunks as a load passes them on (:meth:`watch`), made into a
    :class:`SubjectKeys` at the end (:meth:`finish`)."""

    def __init__(self) -> None:
        self._parts: list[Keys] = []

    def watch(self, chunks: Iterable[bytes]) -> Iterator[bytes]:
        """Pass ``chunks`` on unchanged, taking the keys of their subjects; a line cut between two chunks is
        read whole (its start is kept until the next line break)."""
        rest = b""
        for chunk in chunks:
            if not isinstance(chunk, bytes | bytearray | memoryview):
                yield chunk  # refused by the reader, with its own message; the write fails
                return
            data = rest + bytes(chunk) if rest else bytes(chunk)
            cut = max(data.rfind(b"\n"), data.rfind(b"\r")) + 1
            if cut:
                self._parts.append(ntriples_keys(data if cut == len(data) else data[:cut]))
            rest = data[cut:]
            yield chunk
        if rest:
            self._parts.append(ntriples_keys(rest))

    def finish(self) -> SubjectKeys:
        if not self._parts:
            return SubjectKeys(np.zeros(0, dtype=np.uint64))
        return SubjectKeys(_sorted_unique(np.concatenate(self._parts)))


def _sorted_unique(keys: Keys) -> Keys:
    """``keys`` sorted, each once. Not ``np.unique``: with NumPy 2.4 it took 19.6 s for 13.4M random 64-bit keys
    where a sort and a comparison of neighbours take 1.0 s (same result)."""
    if not len(keys):
        return keys
    ordered = np.sort(keys)
    keep = np.empty(len(ordered), dtype=bool)
    keep[0] = True
    np.not_equal(ordered[1:], ordered[:-1], out=keep[1:])
    return ordered[keep]


def save(index_folder: Path, token: str, keys: SubjectKeys) -> bool:
    """Write the keys as the file for ``token`` (whole or not at all) and remove the files of other tokens;
    ``False`` when it could not be written (nothing is then left for that token)."""
    folder = index_folder / FOLDER
    final = folder / f"keys-{token}.npy"
    tmp = folder / f".keys-{token}.{os.getpid()}.tmp.npy"
    try:
        folder.mkdir(parents=True, exist_ok=True)
        with open(tmp, "wb") as f:
            np.save(f, keys.merged(), allow_pickle=False)
            f.flush()
            os.fsync(f.fileno())
        os.replace(tmp, final)
    except OSError as exc:
        log.warning("cannot keep the subject keys in %s (ingests read every resource instead): %s", folder, exc)
        with contextlib.suppress(OSError):
            tmp.unlink()
        return False
    for entry in folder.iterdir():
        if entry != final:
            with contextlib.suppress(OSError):
                entry.unlink()
    return True


def open_keys(index_folder: Path, token: str) -> SubjectKeys | None:
    """The keys kept for ``token``, opened as a memory map, or ``None`` when there are none for it."""
    path = index_folder / FOLDER / f"keys-{token}.npy"
    try:
        base = np.load(path, mmap_mode="r", allow_pickle=False)
    except (OSError, ValueError) as exc:
        if path.exists():
            log.warning("cannot read the subject keys %s: %s", path, exc)
        return None
    if base.dtype != np.uint64 or base.ndim != 1:
        log.warning("the subject keys %s are not a flat array of 64-bit keys; not used", path)
        return None
    return SubjectKeys(base)
