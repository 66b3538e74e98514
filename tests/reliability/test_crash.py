"""Crash safety: a process killed with SIGKILL while it writes leaves the on-disk store with the whole batch or
none of it, never a part, and the store opens again at once.

Each trial copies a store, starts a child (:mod:`tests.reliability._crash_child`) that runs a guarded
``KnowledgeGraph.open(path).ingest(payload)`` or ``ont load DIR --store PATH``, and kills it: at a seeded random
moment after it started, or at a seeded random moment after it announced its commit (the write call itself).
The parent then reopens the store and compares every triple with the state before and the state a finished
write gives; the ingest store is also checked with the SHACL shapes.

Whether a seeded moment falls inside the write or after it depends on the machine's speed that day, so these
trials accept both and assert only what must hold either way. Kills that are certain to land inside a write are
made where the write can be held or watched: tests/storage/test_stamp.py (inside a transaction) and
tests/hostile/test_storage_hostile.py (once the bulk load has written a sorted file).
"""

from __future__ import annotations

import os
import random
import shutil
import signal
import subprocess
import sys
import threading
import time
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path

import pytest
from rdflib import Graph

from ont_platform import KnowledgeGraph
from ont_platform.ontology.shacl import check
from tests.benchmarks import generate
from tests.reliability._crash_child import payload

ROOT = Path(__file__).resolve().parents[2]
SEED = 20_261_129
BASE_PAIRS = 20
"""People and companies already in the store before the killed write."""
RANDOM_PAIRS = 300
"""Batch of the trials killed at random moments: guard, SHACL and commit take about a second."""
COMMIT_PAIRS = 2_000
"""Batch of the trials aimed at the commit (no SHACL pass, so the write itself is a large part of the run)."""
WATCHDOG_S = 90.0
"""A child still alive after this is killed and the trial fails (it never should be)."""


@dataclass
class Trial:
    """How one child ended: its exit code (-9: killed), the last word it said before the kill, the moment of the
    kill, and whether its write had ended (``done`` said) when the kill came."""

    returncode: int
    last: str
    delay: float
    finished: bool


def _run_child(args: list[str], *, aim: str, delay: float) -> Trial:
    """Start the child, wait for ``aim`` (``start`` or ``commit``), wait ``delay`` seconds, SIGKILL it by pid.

    The child waits on its stdin after its write, so the kill always finds it alive: a fast write ends as
    ``finished`` (the kill came after it), never as a trial that missed its kill."""
    process = subprocess.Popen(
        [sys.executable, "-m", "tests.reliability._crash_child", *args],
        cwd=ROOT,
        stdin=subprocess.PIPE,
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        text=True,
    )

    def overdue() -> None:
        if process.poll() is None:
            os.kill(process.pid, signal.SIGKILL)

    watchdog = threading.Timer(WATCHDOG_S, overdue)
    watchdog.start()
    last = ""
    finished = False
    try:
        assert process.stdout is not None and process.stdin is not None
        for line in process.stdout:
            last = line.strip()
            if last in (aim, "done"):
                break
        if last == aim:
            time.sleep(delay)
            os.kill(process.pid, signal.SIGKILL)  # alive: it waits on stdin after its write
        process.stdin.close()  # lets a child that is done (before its aim) exit
        process.wait()
        finished = last == "done" or "done" in process.stdout.read().split()
    finally:
        watchdog.cancel()
        if process.poll() is None:
            os.kill(process.pid, signal.SIGKILL)
            process.wait()
        for stream in (process.stdin, process.stdout, process.stderr):
            if stream is not None:
                stream.close()
    assert process.returncode in (0, -signal.SIGKILL), f"child failed on its own ({process.returncode})"
    return Trial(process.returncode, last, delay, finished)


def _triples(path: Path) -> frozenset[bytes]:
    """Every triple of the on-disk store (reopening it must work right after the kill)."""
    with KnowledgeGraph.open(path) as kg:
        return frozenset(kg.dumps("nt").splitlines())


# -- guarded ingest -----------------------------------------------------------------------------------------------


@dataclass(frozen=True)
class IngestStates:
    base: Path
    before: frozenset[bytes]
    whole: dict[int, frozenset[bytes]]
    """The store after a finished ingest of a batch, by batch size."""


@pytest.fixture(scope="module")
def ingest_states(tmp_path_factory: pytest.TempPathFactory) -> IngestStates:
    base = tmp_path_factory.mktemp("crash") / "base"
    with KnowledgeGraph.open(base) as kg:
        assert kg.ingest(payload(BASE_PAIRS, 0), domain="kg").accepted
    before = _triples(base)
    whole = {}
    for pairs, shacl in ((RANDOM_PAIRS, True), (COMMIT_PAIRS, False)):
        with KnowledgeGraph.open() as kg:  # the same write, uninterrupted, in memory
            kg.store.add_ntriples(b"\n".join(sorted(before)).decode("utf-8") + "\n")
            report = kg.ingest(payload(pairs, 1), domain="kg", shacl=shacl)
            assert report.accepted, report.errors[:3]
            whole[pairs] = frozenset(kg.dumps("nt").splitlines())
        assert whole[pairs] > before
    return IngestStates(base, before, whole)


def _conforms(triples: frozenset[bytes]) -> list[object]:
    graph = Graph()
    graph.parse(data=b"\n".join(sorted(triples)).decode("utf-8"), format="nt")
    return list(check(graph, "kg"))


@pytest.mark.slow
def test_killed_ingest_leaves_all_or_nothing(ingest_states: IngestStates, tmp_path: Path) -> None:
    rnd = random.Random(SEED)
    plans = [("start", RANDOM_PAIRS, rnd.uniform(0.0, 1.6)) for _ in range(3)]
    plans += [("commit", COMMIT_PAIRS, rnd.uniform(0.0, 0.25)) for _ in range(2)]
    seen_states: set[frozenset[bytes]] = set()
    for n, (aim, pairs, delay) in enumerate(plans):
        store = tmp_path / f"trial{n}"
        shutil.copytree(ingest_states.base, store)
        args = ["ingest", str(store), str(pairs), "1", *(["--no-shacl"] if pairs == COMMIT_PAIRS else [])]
        trial = _run_child(args, aim=aim, delay=delay)
        after = _triples(store)
        whole = ingest_states.whole[pairs]
        if trial.finished:
            assert after == whole, "a finished ingest is not all there"
        else:
            assert after in (ingest_states.before, whole), (
                f"trial {n} (killed {delay:.3f} s after {aim!r}, last said {trial.last!r}): "
                f"{len(after - ingest_states.before)} of {len(whole - ingest_states.before)} new triples"
            )
        if aim == "commit":
            assert trial.last == "commit" and trial.returncode == -signal.SIGKILL, "the commit was not announced"
        seen_states.add(after)
        shutil.rmtree(store)
    for seen in seen_states:
        if len(seen) <= len(ingest_states.whole[RANDOM_PAIRS]):  # SHACL on the small graphs only
            assert _conforms(seen) == []


@pytest.mark.slow
def test_store_takes_the_batch_after_a_kill(ingest_states: IngestStates, tmp_path: Path) -> None:
    """A store whose writer was killed in its commit opens for writing and takes the same batch whole."""
    store = tmp_path / "again"
    shutil.copytree(ingest_states.base, store)
    trial = _run_child(["ingest", str(store), str(COMMIT_PAIRS), "1", "--no-shacl"], aim="commit", delay=0.01)
    assert trial.returncode == -signal.SIGKILL
    with KnowledgeGraph.open(store) as kg:
        report = kg.ingest(payload(COMMIT_PAIRS, 1), domain="kg", shacl=False)
        assert report.accepted
        assert frozenset(kg.dumps("nt").splitlines()) == ingest_states.whole[COMMIT_PAIRS]


# -- ont load -----------------------------------------------------------------------------------------------------


@pytest.fixture(scope="module")
def dataset(tmp_path_factory: pytest.TempPathFactory) -> Iterator[tuple[Path, frozenset[bytes]]]:
    """10,000 seeded transfers (about 120k triples) and the store a finished load of them gives."""
    folder = tmp_path_factory.mktemp("crash-load") / "onchain-10k"
    generate(10_000, 7, folder)
    with KnowledgeGraph.open() as kg:
        kg.load(folder, shacl=False)
        whole = frozenset(kg.dumps("nt").splitlines())
    yield folder, whole
    shutil.rmtree(folder, ignore_errors=True)


def test_killed_ont_load_leaves_all_or_nothing(dataset: tuple[Path, frozenset[bytes]], tmp_path: Path) -> None:
    folder, whole = dataset
    rnd = random.Random(SEED + 1)
    plans = [("start", rnd.uniform(0.2, 2.0))] + [("commit", rnd.uniform(0.0, 1.0)) for _ in range(2)]
    for n, (aim, delay) in enumerate(plans):
        store = tmp_path / f"load{n}"
        trial = _run_child(["load", str(store), str(folder), "--no-shacl"], aim=aim, delay=delay)
        after = _triples(store)
        if trial.finished:
            assert after == whole
        else:
            assert after in (frozenset(), whole), (
                f"load trial {n} (killed {delay:.3f} s after {aim!r}, last said {trial.last!r}): "
                f"{len(after)} of {len(whole)} triples"
            )
        if aim == "commit":
            assert trial.last == "commit" and trial.returncode == -signal.SIGKILL, "the commit was not announced"
        shutil.rmtree(store, ignore_errors=True)
