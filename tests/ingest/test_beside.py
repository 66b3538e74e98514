"""Row checks run beside a load (ingest/beside.py, DatasetLoad(beside=True)): the second process decides exactly
what the checks in the load's own process decide; a load is refused when the checks fail, when they could not
finish, or when the text they checked is not the text the store took in."""

from __future__ import annotations

import csv
import hashlib
import os
import signal
import sys
import uuid
from collections.abc import Callable, Iterator
from pathlib import Path

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from ont_platform import KnowledgeGraph
from ont_platform.domains import forget_domain, get_domain
from ont_platform.errors import DatasetError
from ont_platform.ingest import datasets
from ont_platform.ingest.beside import Beside, BesideError, finish, send
from ont_platform.ingest.datasets import DatasetLoad, ShaclReport
from ont_platform.limits import DEFAULT_LIMITS
from tests.validation.test_rowwise import _register, _write_domain, _write_tables, tables

ROOT = Path(__file__).resolve().parents[2]
HERE = "tests.ingest.test_beside"


@pytest.fixture(autouse=True)
def _importable(monkeypatch: pytest.MonkeyPatch) -> None:
    """The child imports this module's functions by name: the repository root on its path."""
    monkeypatch.setenv("PYTHONPATH", str(ROOT))


# --- functions the child runs ---------------------------------------------------------------------------------


def add(a: int, b: int, *, failed: Callable[[], None]) -> int:
    return a + b


def chatty(*, failed: Callable[[], None]) -> str:
    print("something printed on stdout")
    return "clean"


def broken(*, failed: Callable[[], None]) -> None:
    raise ValueError("the function's own error")


def fail_then_wait(fifo: str, *, failed: Callable[[], None]) -> str:
    failed()
    failed()  # said once only
    with open(fifo, encoding="utf-8") as f:  # blocks until the test writes
        return f.read()


def wait(fifo: str, *, failed: Callable[[], None]) -> str:
    with open(fifo, encoding="utf-8") as f:
        return f.read()


def pieces(n: int, *, failed: Callable[[], None], out: int) -> int:
    for k in range(n):
        send(out, f"piece {k}\n".encode() * (k + 1))
    finish(out)
    return n


# --- the runner -------------------------------------------------------------------------------------------------


def test_pieces_come_through_whole_also_above_descriptor_1023() -> None:
    """The data pipe carries each piece whole and in order, and its end, even when this process holds so many
    files that the pipe's descriptors are above 1023 (where ``select`` would refuse them; a large store opens
    hundreds of files)."""
    import resource

    soft, hard = resource.getrlimit(resource.RLIMIT_NOFILE)
    wanted = 1_200
    if soft < wanted:
        resource.setrlimit(resource.RLIMIT_NOFILE, (min(wanted, hard), hard))
    held = [os.open(os.devnull, os.O_RDONLY) for _ in range(min(wanted, hard) - 100)]
    try:
        with Beside(f"{HERE}:pieces", 50, data=True) as beside:
            assert beside._data is not None and beside._data > 1023  # noqa: SLF001 - what this test is about
            got = []
            while (piece := beside.read()) is not None and piece:
                got.append(piece)
            assert piece == b""  # the end mark, not a cut
            assert got == [f"piece {k}\n".encode() * (k + 1) for k in range(50)]
            assert beside.result() == 50
    finally:
        for fd in held:
            os.close(fd)
        resource.setrlimit(resource.RLIMIT_NOFILE, (soft, hard))


def test_a_function_runs_beside_and_returns_its_value() -> None:
    with Beside(f"{HERE}:add", 2, 3) as beside:
        assert beside.result() == 5
        assert beside.result() == 5  # kept
        assert not beside.failed()


def test_what_the_function_prints_does_not_spoil_the_result() -> None:
    with Beside(f"{HERE}:chatty") as beside:
        assert beside.result() == "clean"


def test_the_function_s_error_is_raised_with_its_text() -> None:
    with Beside(f"{HERE}:broken") as beside, pytest.raises(BesideError, match="ValueError: the function's own error"):
        beside.result()


def test_an_early_failure_is_seen_before_the_end(tmp_path: Path) -> None:
    fifo = tmp_path / "fifo"
    os.mkfifo(fifo)
    with Beside(f"{HERE}:fail_then_wait", str(fifo)) as beside:
        assert beside.failed(wait=120)  # the child is still blocked on the FIFO
        with open(fifo, "w", encoding="utf-8") as f:
            f.write("went on")
        assert beside.result() == "went on"
        assert beside.failed()


def test_a_killed_child_gives_no_result(tmp_path: Path) -> None:
    fifo = tmp_path / "fifo"
    os.mkfifo(fifo)
    with Beside(f"{HERE}:wait", str(fifo)) as beside:
        os.kill(beside.pid, signal.SIGKILL)
        with pytest.raises(BesideError, match="ended without a result"):
            beside.result()


def test_stop_ends_a_child_that_still_runs(tmp_path: Path) -> None:
    fifo = tmp_path / "fifo"
    os.mkfifo(fifo)
    beside = Beside(f"{HERE}:wait", str(fifo))
    assert Path(f"/proc/{beside.pid}").exists()
    beside.stop()
    assert not Path(f"/proc/{beside.pid}").exists()  # killed and reaped


# --- a load's checks beside it ---------------------------------------------------------------------------------


def _run(load: DatasetLoad) -> tuple[bytes | None, list[str], ShaclReport]:
    """The load's text (None when refused), its problems and its SHACL report."""
    try:
        text = b"".join(load.chunks())
    except DatasetError as exc:
        return None, [str(p) for p in exc.problems], load.shacl
    return text, [], load.shacl


@settings(max_examples=12, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(data=tables(), texts=st.lists(st.text("가나다 abc", min_size=1, max_size=40), max_size=4))
def test_checks_beside_decide_as_checks_in_the_load(tmp_path_factory: pytest.TempPathFactory, data, texts) -> None:  # type: ignore[no-untyped-def]
    """Generated user domains and tables, valid or not: the same text, problems and report either way."""
    name = f"beside{uuid.uuid4().hex[:8]}"
    folder = tmp_path_factory.mktemp("beside") / name
    _write_domain(folder, name)
    _write_tables(folder, *data, texts)
    spec = _register(folder)
    try:
        inline = _run(DatasetLoad(folder, spec, DEFAULT_LIMITS, "rows", beside=False))
        load = DatasetLoad(folder, spec, DEFAULT_LIMITS, "rows", beside=True)
        assert _run(load) == inline
        assert load.checks_beside is not None
    finally:
        forget_domain(spec.name)


def _onchain(folder: Path, nodes: int, *, bad_label_at: int | None = None) -> Path:
    folder.mkdir(parents=True)
    with (folder / "onchain_nodes.csv").open("w", newline="", encoding="utf-8") as f:
        out = csv.writer(f)
        out.writerow(["node_id", "address", "onto_class", "label"])
        for i in range(nodes):
            label = "x" * 700 if i == bad_label_at else ""  # over the shapes' label length
            out.writerow([f"n{i}", "0x" + hashlib.sha256(str(i).encode()).hexdigest()[:40], "Wallet", label])
    with (folder / "onchain_edges.csv").open("w", newline="", encoding="utf-8") as f:
        out = csv.writer(f)
        out.writerow(["edge_id", "rel", "from", "to", "tx_hash", "value", "token", "block_number", "timestamp"])
        for k in range(50):
            tx = "0x" + hashlib.sha256(f"tx{k}".encode()).hexdigest()
            out.writerow([f"e{k}", "transfer", f"n{k}", f"n{k + 1}", tx, "1", "ETH", str(k), str(1_600_000_000 + k)])
    return folder


def test_a_bad_last_row_refuses_a_load_checked_beside(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """Through ``kg.load`` into an empty on-disk store (the bulk load), with every load checked beside."""
    monkeypatch.setattr(datasets, "BESIDE_MIN_BYTES", 0)
    folder = _onchain(tmp_path / "ds", 3_000, bad_label_at=2_999)
    limits = DEFAULT_LIMITS.__class__(max_label_chars=1_000)
    with KnowledgeGraph.open(tmp_path / "store", limits=limits) as kg:
        with pytest.raises(DatasetError) as caught:
            kg.load(folder)
        assert len(kg) == 0
    assert [(p.file, p.line) for p in caught.value.problems] == [("onchain_nodes.csv", 3_001)]


def test_a_load_checked_beside_stores_what_a_load_checked_in_it_stores(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    folder = _onchain(tmp_path / "ds", 3_000)  # above the one-graph pass
    stored = []
    for threshold in (0, 1 << 62):
        monkeypatch.setattr(datasets, "BESIDE_MIN_BYTES", threshold)
        with KnowledgeGraph.open() as kg:
            report = kg.load(folder)
            stored.append((set(kg.store.dump().splitlines()), report.shacl))
    assert stored[0] == stored[1]
    assert stored[0][1].mode == "rows" and stored[0][1].resources > 3_000


def test_a_load_takes_in_the_text_its_checks_sent(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """``kg.load`` with the checks beside reads no table itself: it stores the text the checks produced, and
    reports their counts and warnings, as a load that checked every row in its own process does."""
    folder = _onchain(tmp_path / "ds", 3_000)
    reports = []
    read: list[str] = []
    real = datasets.open_table

    def spy(path: Path, *args: object, **kwargs: object) -> object:
        read.append(Path(path).name)  # in this process only: the child imports the module afresh
        return real(path, *args, **kwargs)  # type: ignore[arg-type]

    monkeypatch.setattr(datasets, "open_table", spy)
    for threshold in (0, 1 << 62):
        monkeypatch.setattr(datasets, "BESIDE_MIN_BYTES", threshold)
        read.clear()
        with KnowledgeGraph.open(tmp_path / f"store{threshold}") as kg:
            report = kg.load(folder)
            reports.append((report.counts, report.warnings, report.triples_added, report.shacl, len(kg)))
        assert (read == []) == (threshold == 0), read
    assert reports[0] == reports[1]
    assert reports[0][0] and reports[0][2] > 3_000 and reports[0][2] == reports[0][4]


def _sends_then_dies(folder: Path, *_args: object, failed: Callable[[], None], out: int) -> None:
    """Checks beside that send part of the text, then die without a word."""
    send(out, b'<urn:x:a> <urn:x:p> "sent before dying" .\n')
    os.kill(os.getpid(), signal.SIGKILL)


def test_a_load_whose_checks_die_while_sending_keeps_nothing(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(datasets, "BESIDE_MIN_BYTES", 0)

    class Dying(Beside):
        def __init__(self, _target: str, *args: object, data: bool = False) -> None:
            super().__init__(f"{HERE}:_sends_then_dies", *args, data=data)

    monkeypatch.setattr(datasets, "Beside", Dying)
    folder = _onchain(tmp_path / "ds", 3_000)
    for store in (tmp_path / "store", None):  # the bulk load into an empty store on disk, and a transaction
        with KnowledgeGraph.open(store) as kg:
            with pytest.raises(BesideError, match="ended without a result"):
                kg.load(folder)
            assert len(kg) == 0


def test_tables_changed_between_the_two_readings_are_refused(tmp_path: Path) -> None:
    """The second process read the tables as they were; rows added while the load still reads them make the
    loaded text differ from the checked one."""
    folder = _onchain(tmp_path / "ds", 30_000)  # ~2 MB of nodes: the load reads them a block at a time
    load = DatasetLoad(folder, get_domain("onchain"), DEFAULT_LIMITS, "rows", beside=True)
    stream = load.chunks()
    next(stream)
    assert load.checks_beside is not None
    load.checks_beside.result()  # the checks have read and passed the tables as they were
    with (folder / "onchain_nodes.csv").open("a", newline="", encoding="utf-8") as f:
        csv.writer(f).writerow(["n_late", "0x" + "ab" * 20, "Wallet", ""])
    with pytest.raises(DatasetError, match="changed while they were loaded"):
        list(stream)


def _stalled(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> tuple[DatasetLoad, Iterator[bytes], int]:
    """A load streaming, its checks beside it held on a FIFO (they cannot end on their own): the load, its
    stream after the first chunk, and the second process's pid."""
    fifo = tmp_path / "fifo"
    os.mkfifo(fifo)

    class Stalled(Beside):
        def __init__(self, _target: str, *_args: object, data: bool = False) -> None:
            super().__init__(f"{HERE}:wait", str(fifo))

    monkeypatch.setattr(datasets, "Beside", Stalled)
    folder = _onchain(tmp_path / "ds", 3_000)
    load = DatasetLoad(folder, get_domain("onchain"), DEFAULT_LIMITS, "rows", beside=True)
    stream = load.chunks()
    next(stream)
    assert load.checks_beside is not None
    return load, stream, load.checks_beside.pid


def test_a_load_whose_checks_die_is_refused(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    _, stream, pid = _stalled(tmp_path, monkeypatch)
    os.kill(pid, signal.SIGKILL)
    with pytest.raises(BesideError, match="ended without a result"):
        list(stream)


def test_a_load_left_early_stops_its_checks(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    _, stream, pid = _stalled(tmp_path, monkeypatch)
    assert Path(f"/proc/{pid}").exists()
    stream.close()  # as a store does when its own write fails
    assert not Path(f"/proc/{pid}").exists()  # killed and reaped


def test_without_a_second_interpreter_the_checks_run_in_the_load(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setattr(sys, "executable", str(tmp_path / "no-python-here"))
    folder = _onchain(tmp_path / "ds", 3_000, bad_label_at=2_999)
    load = DatasetLoad(folder, get_domain("onchain"), DEFAULT_LIMITS.__class__(max_label_chars=1_000), "rows")
    load_beside = DatasetLoad(
        folder, get_domain("onchain"), DEFAULT_LIMITS.__class__(max_label_chars=1_000), "rows", beside=True
    )
    for each in (load, load_beside):
        with pytest.raises(DatasetError) as caught:
            list(each.chunks())
        assert each.checks_beside is None
        assert [(p.file, p.line) for p in caught.value.problems] == [("onchain_nodes.csv", 3_001)]
