"""Real SPARQL servers on loopback for the tests.

Each context manager starts one server on a free 127.0.0.1 port with its data in a fresh temporary folder,
waits until it answers SPARQL, yields its endpoint URLs, and at the end stops the whole process group it
started (SIGTERM, then SIGKILL if it lingers), waits for it and removes the folder.

A missing server binary raises :class:`ServerUnavailable` saying how to install it: tests that need a server
fail rather than skip, because CI installs the servers (``.ci/install-servers.sh`` and the ``test`` extra).
"""

from __future__ import annotations

import os
import shutil
import signal
import socket
import subprocess
import sys
import tempfile
import time
from collections.abc import Iterator
from contextlib import contextmanager, suppress
from dataclasses import dataclass
from pathlib import Path

import httpx

HOST = "127.0.0.1"
READY_TIMEOUT = 60.0
STOP_GRACE = 5.0


class ServerUnavailable(RuntimeError):
    """A server needed by the tests is not installed or did not start."""


@dataclass(frozen=True)
class Endpoint:
    name: str
    query_url: str
    update_url: str
    pid: int


def free_port() -> int:
    with socket.socket(socket.AF_INET, socket.SOCK_STREAM) as s:
        s.bind((HOST, 0))
        return int(s.getsockname()[1])


def _find(names: list[str], hint: str) -> str:
    here = Path(sys.executable).parent  # the virtualenv's bin folder, where `pip install oxigraph` puts it
    for name in names:
        path = shutil.which(name) or shutil.which(name, path=str(here))
        if path:
            return path
    raise ServerUnavailable(f"{' / '.join(names)} not found on PATH. {hint}")


def _stop(proc: subprocess.Popen[bytes]) -> None:
    """Stop the process group that ``proc`` leads (it was started in a new process group) and reap it."""
    if proc.poll() is None:
        with suppress(ProcessLookupError):
            os.killpg(proc.pid, signal.SIGTERM)
        try:
            proc.wait(timeout=STOP_GRACE)
        except subprocess.TimeoutExpired:
            with suppress(ProcessLookupError):
                os.killpg(proc.pid, signal.SIGKILL)
            proc.wait(timeout=STOP_GRACE)


def _tail(path: Path, n: int = 2000) -> str:
    try:
        return path.read_text(errors="replace")[-n:]
    except OSError:
        return ""


def _wait_ready(proc: subprocess.Popen[bytes], url: str, log: Path, name: str) -> None:
    deadline = time.monotonic() + READY_TIMEOUT
    with httpx.Client(timeout=2.0, trust_env=False) as client:
        while time.monotonic() < deadline:
            if proc.poll() is not None:
                raise ServerUnavailable(f"{name} exited with code {proc.returncode} while starting:\n{_tail(log)}")
            try:
                r = client.post(url, data={"query": "ASK {}"}, headers={"Accept": "application/sparql-results+json"})
                if r.status_code == 200:
                    return
            except httpx.HTTPError:
                pass
            time.sleep(0.1)
    raise ServerUnavailable(f"{name} did not answer SPARQL at {url} within {READY_TIMEOUT:.0f} s:\n{_tail(log)}")


@contextmanager
def _server(name: str, argv: list[str], cwd: Path, ready_url: str, log: Path) -> Iterator[subprocess.Popen[bytes]]:
    with open(log, "wb") as out:
        proc = subprocess.Popen(
            argv, cwd=cwd, stdin=subprocess.DEVNULL, stdout=out, stderr=subprocess.STDOUT, start_new_session=True
        )
    try:
        _wait_ready(proc, ready_url, log, name)
        yield proc
    finally:
        _stop(proc)


@contextmanager
def oxigraph_server() -> Iterator[Endpoint]:
    """An Oxigraph server (``oxigraph serve``) with an on-disk store in a temporary folder."""
    binary = _find(
        ["oxigraph"], "Install it with: pip install oxigraph (part of the test extra: pip install -e '.[test]')."
    )
    with tempfile.TemporaryDirectory(prefix="ont-oxigraph-") as tmp:
        base = Path(tmp)
        port = free_port()
        url = f"http://{HOST}:{port}"
        argv = [binary, "serve", "--location", str(base / "db"), "--bind", f"{HOST}:{port}"]
        with _server("oxigraph", argv, base, f"{url}/query", base / "server.log") as proc:
            yield Endpoint("oxigraph", f"{url}/query", f"{url}/update", proc.pid)


VIRTUOSO_INI = """\
[Database]
DatabaseFile       = virtuoso.db
ErrorLogFile       = virtuoso.log
LockFile           = virtuoso.lck
TransactionFile    = virtuoso.trx
xa_persistent_file = virtuoso.pxa
ErrorLogLevel      = 7
FileExtend         = 200
MaxCheckpointRemap = 2000
Striping           = 0
TempStorage        = TempDatabase

[TempDatabase]
DatabaseFile       = virtuoso-temp.db
TransactionFile    = virtuoso-temp.trx
MaxCheckpointRemap = 2000
Striping           = 0

[Parameters]
ServerPort           = {host}:{sql_port}
DisableUnixSocket    = 1
DisableTcpSocket     = 0
MaxClientConnections = 10
CheckpointInterval   = 60
CaseMode             = 2
DirsAllowed          = .
NumberOfBuffers      = {buffers}
MaxDirtyBuffers      = {dirty}
{after_image}
[HTTPServer]
ServerPort           = {host}:{http_port}
ServerRoot           = .
MaxClientConnections = 10
ServerThreads        = 10
Charset              = UTF-8
EnabledGzipContent   = 0

[SPARQL]
; as shipped by Debian: results are cut at 10,000 rows, which the tests exercise
ResultSetMaxRows      = 10000
MaxQueryExecutionTime = {max_query_s}
"""

VIRTUOSO_HINT = (
    "Install Virtuoso Open Source with: sudo bash .ci/install-servers.sh "
    "(Debian: apt-get install -y virtuoso-opensource)."
)


@contextmanager
def virtuoso_server(
    buffers: int = 10_000, after_image_limit: int | None = None, max_query_s: int = 60
) -> Iterator[Endpoint]:
    """A Virtuoso 7 server with its database in a temporary folder, both ports bound to 127.0.0.1.

    The SPARQL user (anonymous HTTP requests) is granted SPARQL_UPDATE so that updates over HTTP work; CLEAR,
    DROP, CREATE and ADD need nothing more. SPARQL_SPONGE (fetching remote data for LOAD or FROM) is not
    granted. ``buffers`` is Virtuoso's NumberOfBuffers (8 KB pages; the default suits the tests' small graphs);
    ``after_image_limit`` its TransactionAfterImageLimit (bytes of one transaction's log; Virtuoso's default,
    50 MB, when not given), which caps the triples one load can move in its single transaction; ``max_query_s``
    its MaxQueryExecutionTime (60 s, as Debian ships it), which also bounds that move.
    """
    server = _find(["virtuoso-t"], VIRTUOSO_HINT)
    isql = _find(["isql-vt", "isql-v"], VIRTUOSO_HINT)
    with tempfile.TemporaryDirectory(prefix="ont-virtuoso-") as tmp:
        base = Path(tmp)
        sql_port, http_port = free_port(), free_port()
        while http_port == sql_port:
            http_port = free_port()
        (base / "virtuoso.ini").write_text(
            VIRTUOSO_INI.format(
                host=HOST,
                sql_port=sql_port,
                http_port=http_port,
                buffers=buffers,
                dirty=buffers * 3 // 5,
                max_query_s=int(max_query_s),
                after_image=""
                if after_image_limit is None
                else f"TransactionAfterImageLimit = {int(after_image_limit)}\n",
            )
        )
        url = f"http://{HOST}:{http_port}/sparql"
        argv = [server, "+foreground", "+configfile", str(base / "virtuoso.ini")]
        with _server("virtuoso", argv, base, url, base / "server.log") as proc:
            grant = subprocess.run(
                [isql, f"{HOST}:{sql_port}", "dba", "dba", 'exec=GRANT SPARQL_UPDATE TO "SPARQL";'],
                cwd=base,
                stdin=subprocess.DEVNULL,
                capture_output=True,
                text=True,
                timeout=60,
            )
            output = grant.stdout + grant.stderr
            if grant.returncode != 0 or "*** Error" in output:
                raise ServerUnavailable(f"could not grant SPARQL_UPDATE on the test Virtuoso:\n{output[-2000:]}")
            yield Endpoint("virtuoso", url, url, proc.pid)
