"""Reading an on-disk store beside the process that holds it for writing (``read_only=True``, ``--read-only``).

The writer is a real second process (``ont``'s library in a child interpreter) that keeps the store open and
writes when the test tells it to on its stdin; the test waits for its answer on stdout, never for time.
"""

from __future__ import annotations

import subprocess
import sys
import types
from collections.abc import Iterator
from pathlib import Path

import pyoxigraph as ox
import pytest

from ont_platform import KnowledgeGraph
from ont_platform.errors import InputError, StoreError, StoreLockedError
from ont_platform.storage import oxigraph

EXAMPLES = Path(__file__).resolve().parents[2] / "examples"

WRITER = r"""
import sys
from ont_platform import KnowledgeGraph
kg = KnowledgeGraph.open(sys.argv[1])
kg.load(sys.argv[2], shacl=False)
print("ready", len(kg), flush=True)
for line in sys.stdin:
    if line.strip() == "write":
        kg.store.add_ntriples("<urn:x:a> <urn:x:p> <urn:x:b> .\n")
        print("wrote", len(kg), flush=True)
    elif line.strip() == "stop":
        break
kg.close()
print("closed", flush=True)
"""


class Writer:
    def __init__(self, path: Path) -> None:
        self.proc = subprocess.Popen(
            [sys.executable, "-c", WRITER, str(path), str(EXAMPLES / "kg")],
            stdin=subprocess.PIPE,
            stdout=subprocess.PIPE,
            text=True,
        )

    def said(self) -> list[str]:
        assert self.proc.stdout is not None
        line = self.proc.stdout.readline()
        assert line, f"the writer ended (exit {self.proc.wait()})"
        return line.split()

    def tell(self, what: str) -> list[str]:
        assert self.proc.stdin is not None
        self.proc.stdin.write(what + "\n")
        self.proc.stdin.flush()
        return self.said()


@pytest.fixture
def writer(tmp_path: Path) -> Iterator[tuple[Writer, Path, int]]:
    path = tmp_path / "kg.db"
    w = Writer(path)
    word, size = w.said()
    assert word == "ready"
    yield w, path, int(size)
    with w.proc:  # closes the pipes
        if w.proc.poll() is None:
            assert w.tell("stop") == ["closed"]
        w.proc.wait()


def test_a_held_store_is_refused_for_writing_and_the_error_says_how_to_read_it(
    writer: tuple[Writer, Path, int],
) -> None:
    _w, path, _size = writer
    with pytest.raises(StoreLockedError, match="read_only"):
        KnowledgeGraph.open(path)


def test_a_held_store_answers_read_only_as_it_was_when_opened(writer: tuple[Writer, Path, int]) -> None:
    w, path, size = writer
    with KnowledgeGraph.open(path, read_only=True) as kg:
        assert len(kg) == size
        answer = kg.ask("홍길동이 다니는 회사는 어느 도시에 있어?")
        assert answer.decision == "answer" and answer.answer
        word, after = w.tell("write")
        assert word == "wrote" and int(after) == size + 1
        assert len(kg) == size  # the view is the store as of opening
    with KnowledgeGraph.open(path, read_only=True) as again:
        assert len(again) == size + 1  # opened again, it sees the writer's commit


def test_every_write_through_a_read_only_store_is_refused_and_changes_nothing(writer: tuple[Writer, Path, int]) -> None:
    _w, path, size = writer
    with KnowledgeGraph.open(path, read_only=True) as kg:
        for write in (
            lambda: kg.store.add_ntriples("<urn:x:c> <urn:x:p> <urn:x:d> .\n"),
            lambda: kg.store.update("INSERT DATA { <urn:x:c> <urn:x:p> <urn:x:d> }"),
            lambda: kg.load(EXAMPLES / "films", shacl=False),
            kg.clear,
        ):
            with pytest.raises(StoreError, match="read-only"):
                write()
            assert len(kg) == size


def test_read_only_needs_an_existing_on_disk_store(tmp_path: Path) -> None:
    with pytest.raises(InputError, match="on-disk"):
        KnowledgeGraph.open(read_only=True)
    with pytest.raises(InputError, match="on-disk"):
        KnowledgeGraph.open(backend="rdflib", read_only=True)
    with pytest.raises(StoreError, match="no store"):
        KnowledgeGraph.open(tmp_path / "missing", read_only=True)
    assert not (tmp_path / "missing").exists()  # nothing was created


@pytest.mark.slow
def test_the_command_line_reads_a_held_store_with_read_only(writer: tuple[Writer, Path, int]) -> None:
    _w, path, _size = writer
    ont = [sys.executable, "-m", "ont_platform.cli.main"]
    question = "홍길동이 다니는 회사는 어느 도시에 있어?"
    refused = subprocess.run([*ont, "ask", "--store", str(path), question], capture_output=True, text=True)
    assert refused.returncode != 0 and "--read-only" in refused.stderr
    read = subprocess.run(
        [*ont, "ask", "--store", str(path), "--read-only", "--json", question], capture_output=True, text=True
    )
    assert read.returncode == 0, read.stderr
    assert '"decision": "answer"' in read.stdout


def _opening_fails(monkeypatch: pytest.MonkeyPatch, times: int, message: str) -> list[str]:
    """Make the engine's read-only open fail ``times`` times with ``message``, as a writer's compaction does
    when it deletes a table file between the engine listing the files and opening them."""
    opened: list[str] = []

    class Engine:
        @staticmethod
        def read_only(path: str) -> ox.Store:
            opened.append(path)
            if len(opened) <= times:
                raise RuntimeError(message)
            return ox.Store.read_only(path)

    shim = types.SimpleNamespace(**{name: getattr(ox, name) for name in dir(ox) if not name.startswith("__")})
    shim.Store = Engine
    monkeypatch.setattr(oxigraph, "ox", shim)
    return opened


MOVED = "Corruption: IO error: No such file or directory: While open a file for random read: 000009.sst"


def test_a_compaction_during_the_read_only_open_is_opened_again(
    writer: tuple[Writer, Path, int], monkeypatch: pytest.MonkeyPatch
) -> None:
    _w, path, size = writer
    with monkeypatch.context() as m:
        opened = _opening_fails(m, 2, MOVED)
        kg = KnowledgeGraph.open(path, read_only=True)
    with kg:
        assert len(opened) == 3
        assert len(kg) == size


@pytest.mark.parametrize(
    ("times", "message", "says"), [(5, MOVED, "tried 5 times"), (1, "Invalid argument", "Invalid")]
)
def test_a_read_only_open_that_keeps_failing_is_a_store_error(
    writer: tuple[Writer, Path, int], monkeypatch: pytest.MonkeyPatch, times: int, message: str, says: str
) -> None:
    _w, path, _size = writer
    with monkeypatch.context() as m:
        opened = _opening_fails(m, times, message)
        with pytest.raises(StoreError, match=says):
            KnowledgeGraph.open(path, read_only=True)
    assert len(opened) == times  # a missing file is tried five times, any other error once
