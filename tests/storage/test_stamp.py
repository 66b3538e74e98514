"""The stamp of an on-disk store (storage/stamp.py): a token that stays while the data stays and changes with
every change of the data, whoever makes it, so that an index derived from the data is never used with other
data. A killed writer is a real child process ended with SIGKILL at a point it reports on its stdout."""

from __future__ import annotations

import gc
import json
import os
import signal
import subprocess
import sys
from collections.abc import Iterator
from pathlib import Path

import pyoxigraph as ox
import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from ont_platform.errors import RDFSyntaxError
from ont_platform.storage import stamp as stamps
from ont_platform.storage.oxigraph import OPEN_MARKER, OxigraphStore

TRIPLE = '<urn:x:a> <urn:x:p> "{}" .\n'


def test_in_memory_stores_have_no_stamp() -> None:
    store = OxigraphStore()
    store.add_ntriples(TRIPLE.format(1))
    assert store.stamp is None and store.index_folder is None and not store.index_writable


def _write(store: OxigraphStore, kind: str, n: int) -> None:
    if kind == "add":
        store.add_ntriples(TRIPLE.format(n))
    elif kind == "stream":
        store.add_ntriples_stream(iter([TRIPLE.format(n).encode()]))
    elif kind == "update":
        store.update(f'INSERT DATA {{ <urn:x:a> <urn:x:p> "{n}" }}')
    elif kind == "clear":
        store.clear()
    elif kind == "bad":
        with pytest.raises(RDFSyntaxError):
            store.add_ntriples("<urn:x:a> <urn:x:p> .\n")


@settings(max_examples=15, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(
    steps=st.lists(
        st.tuples(st.sampled_from(["add", "stream", "update", "clear", "bad", "reopen"]), st.integers(0, 3)),
        min_size=1,
        max_size=8,
    )
)
def test_the_stamp_changes_with_every_write_and_only_then(
    tmp_path_factory: pytest.TempPathFactory, steps: list[tuple[str, int]]
) -> None:
    path = tmp_path_factory.mktemp("s") / "db"
    store = OxigraphStore(path)
    seen = [store.stamp]
    try:
        for kind, n in steps:
            before = store.stamp
            if kind == "reopen":
                store.close()
                store = OxigraphStore(path)
                assert store.stamp == before  # a clean close and open change nothing
            else:
                _write(store, kind, n)
                assert store.stamp is not None and store.stamp not in seen  # even a failed write: a new token
            seen.append(store.stamp)
            assert stamps.read(path) == stamps.Stamp(store.stamp, "clean")  # type: ignore[arg-type]
    finally:
        store.close()


def test_no_stamp_while_a_write_is_under_way(tmp_path: Path) -> None:
    store = OxigraphStore(tmp_path / "db")
    store.add_ntriples(TRIPLE.format(0))  # not empty: the stream goes through one transaction
    seen: list[object] = []

    def chunks() -> Iterator[bytes]:
        seen.append(store.stamp)
        seen.append(stamps.read(tmp_path / "db"))
        yield TRIPLE.format(1).encode()

    store.add_ntriples_stream(chunks())
    assert seen[0] is None
    on_disk = seen[1]
    assert isinstance(on_disk, stamps.Stamp) and on_disk.state == "writing"
    assert store.stamp is not None and store.stamp != on_disk.token
    store.close()


def test_a_write_by_another_program_is_seen(tmp_path: Path) -> None:
    path = tmp_path / "db"
    store = OxigraphStore(path)
    store.add_ntriples(TRIPLE.format(0))
    token = store.stamp
    store.close()
    other = ox.Store(str(path))  # pyoxigraph itself, knowing nothing of the stamp
    other.load(TRIPLE.format(1).encode(), format=ox.RdfFormat.N_TRIPLES)
    del other
    gc.collect()
    reader = OxigraphStore(path, read_only=True)
    assert reader.stamp is None  # no live writer, and the files are not the ones the last close left
    reader.close()
    store = OxigraphStore(path)
    assert store.stamp is not None and store.stamp != token
    store.close()


def test_opening_for_writing_without_writing_is_seen_too(tmp_path: Path) -> None:
    path = tmp_path / "db"
    store = OxigraphStore(path)
    store.add_ntriples(TRIPLE.format(0))
    token = store.stamp
    store.close()
    other = ox.Store(str(path))
    del other
    gc.collect()
    store = OxigraphStore(path)
    assert store.stamp != token  # the files changed: a rebuild, never a guess
    store.close()


def test_a_reader_gets_the_writers_stamp_or_none(tmp_path: Path) -> None:
    path = tmp_path / "db"
    store = OxigraphStore(path)
    store.add_ntriples(TRIPLE.format(0))
    reader = OxigraphStore(path, read_only=True)
    assert reader.stamp == store.stamp
    reader.close()
    stamps.write(path, stamps.Stamp("0" * 32, "writing"), sync=False)  # as a write under way leaves it
    reader = OxigraphStore(path, read_only=True)
    assert reader.stamp is None
    reader.close()
    store.close()
    reader = OxigraphStore(path, read_only=True)  # closed cleanly: the files are the recorded ones
    assert reader.stamp == store.stamp
    reader.close()


KILLED = r"""
import os, sys
from ont_platform.storage.oxigraph import OxigraphStore
store = OxigraphStore(sys.argv[1])
print(store.stamp, flush=True)
if sys.argv[2] == "during":
    def chunks():
        yield b'<urn:x:a> <urn:x:p> "1" .\n'
        print("writing", flush=True)
        sys.stdin.readline()  # killed here, in the middle of the transaction
        yield b'<urn:x:a> <urn:x:p> "2" .\n'
    store.add_ntriples_stream(chunks())
else:
    store.add_ntriples('<urn:x:a> <urn:x:p> "1" .\n')
    print("wrote", flush=True)
    sys.stdin.readline()  # killed here, the write done, the store never closed
"""


@pytest.mark.parametrize("when", ["during", "after"])
def test_a_writer_killed_leaves_a_stamp_nobody_trusts(tmp_path: Path, when: str) -> None:
    path = tmp_path / "db"
    store = OxigraphStore(path)
    store.add_ntriples(TRIPLE.format(0))
    store.close()
    closed = json.loads((path / stamps.STAMP_FILE).read_text())["token"]
    with subprocess.Popen(
        [sys.executable, "-c", KILLED, str(path), when], stdin=subprocess.PIPE, stdout=subprocess.PIPE, text=True
    ) as proc:
        assert proc.stdout is not None
        assert proc.stdout.readline().strip() == closed  # the child trusted the clean close
        assert proc.stdout.readline().strip() in ("writing", "wrote")
        os.kill(proc.pid, signal.SIGKILL)
        proc.wait()
    reader = OxigraphStore(path, read_only=True)
    assert reader.stamp is None
    reader.close()
    store = OxigraphStore(path)
    assert store.stamp is not None and store.stamp != closed
    store.close()


LEFT_OPEN = """
import sys
from ont_platform.storage.oxigraph import OxigraphStore
store = OxigraphStore(sys.argv[1])
store.add_ntriples('<urn:x:a> <urn:x:p> "1" .\\n')
print(store.stamp, flush=True)
# the program ends without closing the store
"""


def test_a_program_that_ends_without_closing_leaves_the_store_clean(
    tmp_path: Path, caplog: pytest.LogCaptureFixture
) -> None:
    """A normal end of the interpreter closes the store: the next open trusts its stamp (and so the indexes
    kept beside it) instead of recovering it as left open by a dead process."""
    path = tmp_path / "db"
    done = subprocess.run([sys.executable, "-c", LEFT_OPEN, str(path)], capture_output=True, text=True, check=True)
    written = done.stdout.strip()
    assert written and written != "None"
    assert not (path / OPEN_MARKER).exists()
    with caplog.at_level("WARNING", logger="ont_platform.storage.oxigraph"):
        store = OxigraphStore(path)
    assert "unclean" not in caplog.text
    assert store.stamp == written and len(store) == 1
    store.close()


@settings(max_examples=15, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(
    steps=st.lists(
        st.tuples(st.sampled_from(["add", "stream", "update", "clear", "bad", "reopen", "many"]), st.integers(0, 3)),
        min_size=1,
        max_size=8,
    )
)
def test_the_kept_count_is_the_count_after_any_write(
    tmp_path_factory: pytest.TempPathFactory, steps: list[tuple[str, int]]
) -> None:
    """``len`` keeps its count with the write generation: after every kind of write (the bulk load into an empty
    store on disk among them, whose count is taken beside its compaction) it is what a walk of the store finds."""
    path = tmp_path_factory.mktemp("n") / "db"
    store = OxigraphStore(path)
    try:
        for kind, n in steps:
            if kind == "reopen":
                store.close()
                store = OxigraphStore(path)
            elif kind == "many":  # a stream of several chunks: into an empty store, a bulk load
                store.add_ntriples_stream(iter([TRIPLE.format(f"{n}-{k}").encode() for k in range(n + 2)]))
            else:
                _write(store, kind, n)
            walked = len(store.select("SELECT * WHERE { ?s ?p ?o }"))
            assert len(store) == walked
            assert len(store) == walked  # the kept count, asked again
    finally:
        store.close()


def test_a_store_dropped_without_closing_is_closed_cleanly(tmp_path: Path, caplog: pytest.LogCaptureFixture) -> None:
    """A store a function opened and dropped (no ``close``) is closed when it is collected: the next open in the
    same process finds it clean, with its stamp."""
    path = tmp_path / "db"

    def use_and_drop() -> str | None:
        store = OxigraphStore(path)
        store.add_ntriples(TRIPLE.format("dropped"))
        return store.stamp

    written = use_and_drop()
    gc.collect()
    assert written is not None and not (path / OPEN_MARKER).exists()
    with caplog.at_level("WARNING", logger="ont_platform.storage.oxigraph"):
        store = OxigraphStore(path)
    assert "unclean" not in caplog.text
    assert store.stamp == written and len(store) == 1
    store.close()
