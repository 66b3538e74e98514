"""A token that names the state of an on-disk store's data, kept in a file beside the data.

Why: what the library derives from a large graph (the names a question is read with, :mod:`ont_platform.qa.names`)
costs a minute to build at ten million transfers, and a process that opens the store should not pay it again
when nothing changed. A derived index is kept in the store's folder tagged with the token the store had when
the index was built, and used only while the store still has that token. So the token must change with every
change of the data, and must never be trusted when a change may have gone unrecorded:

* **Writes through the library.** Before a write touches the data, the token is replaced by a new one marked
  ``writing`` and the file is synced; when the write is over (done or failed), by another new one marked
  ``clean``. An index built before the write has an old token; while a write is under way no token is given
  out (:attr:`Stamp.state`), so no index is built or used against half-written data; a process killed during
  the write leaves ``writing`` behind, and the next open replaces it.
* **A process that died with the store open**, or any other way the file and the data may disagree: the next
  writable open gives the store a new token, so every index is rebuilt.
* **Writes by other programs** (pyoxigraph or RocksDB tools opening the folder directly) cannot update the
  token. A clean close records the names and sizes of RocksDB's data files (tables, write-ahead logs, manifest)
  with the token; the next open compares them before the engine touches the folder. Any program that opened the
  store for writing in between leaves different files (a new log and manifest at the least), so the token is
  replaced. A read-only open beside a live writer of this library trusts the token that writer keeps (nothing
  else can write while it holds the lock).

A false alarm only costs a rebuild; what must never happen is an index used with data it was not built from.
"""

from __future__ import annotations

import json
import os
import secrets
from dataclasses import dataclass
from pathlib import Path
from typing import Literal

STAMP_FILE = "ont-stamp.json"
"""The token file in an on-disk store's folder."""

State = Literal["clean", "writing"]


@dataclass(frozen=True)
class Stamp:
    """What the token file holds."""

    token: str
    state: State
    files: dict[str, int] | None = None
    """RocksDB's data files by name with their sizes, recorded at a clean close; ``None`` while the store is
    open for writing (or after a process died with it open)."""


def new_token() -> str:
    """A fresh random token (128 bits)."""
    return secrets.token_hex(16)


def read(folder: Path) -> Stamp | None:
    """The stamp in ``folder``, or ``None`` when there is none or it cannot be read as one."""
    try:
        data = json.loads((folder / STAMP_FILE).read_text(encoding="utf-8"))
        token, state, files = data["token"], data["state"], data.get("files")
    except (OSError, ValueError, KeyError, TypeError):
        return None
    if not isinstance(token, str) or state not in ("clean", "writing"):
        return None
    if files is not None and not (
        isinstance(files, dict) and all(isinstance(k, str) and isinstance(v, int) for k, v in files.items())
    ):
        return None
    return Stamp(token, state, files)


def write(folder: Path, stamp: Stamp, *, sync: bool) -> None:
    """Replace the stamp in ``folder`` atomically (a reader sees the old file or the new one); ``sync`` makes it
    durable before returning (needed before a write touches the data: a stamp that says ``clean`` over data
    that changed would let an old index be used after a power loss)."""
    text = json.dumps({"token": stamp.token, "state": stamp.state, "files": stamp.files})
    tmp = folder / f".{STAMP_FILE}.{os.getpid()}.tmp"
    with open(tmp, "w", encoding="utf-8") as f:
        f.write(text)
        if sync:
            f.flush()
            os.fsync(f.fileno())
    os.replace(tmp, folder / STAMP_FILE)
    if sync:
        fd = os.open(folder, os.O_RDONLY)
        try:
            os.fsync(fd)
        finally:
            os.close(fd)


def data_files(folder: Path) -> dict[str, int]:
    """RocksDB's data files in ``folder`` (sorted tables, write-ahead logs, the manifest and its pointer) with
    their sizes. Logs of the engine's own messages, lock and option files, and this library's files are left
    out: they change without the data changing. Modification times are left out too: closing a store touches
    its manifest without changing it."""
    out: dict[str, int] = {}
    for entry in os.scandir(folder):
        name = entry.name
        if name.startswith(("ont-", ".ont-", "bulk-")) or not entry.is_file(follow_symlinks=False):
            continue
        if name.endswith((".sst", ".log")) or name.startswith("MANIFEST-") or name == "CURRENT":
            try:
                out[name] = entry.stat(follow_symlinks=False).st_size
            except OSError:
                continue
    return out
