"""One slow or hostile request must not hold up the others: ``ont serve`` over loopback, quiet and under attack.

    python benchmarks/service_under_attack.py [--askers 20] [--requests 250] [--port 0]

The server is a separate process (``python -m ont_platform.cli.main serve --allow-network 127.0.0.1``) on
127.0.0.1 (``--port``, default a free port), serving the bundled example datasets from memory, in a session of
its own; its whole process group (query and parse workers too) is stopped at the end. ``--allow-network
127.0.0.1`` lets its URL fetcher reach a hostile web server that this process runs on loopback in a thread:

* ``/bomb``: ``Content-Encoding: gzip, gzip``, a gzip of a gzip of about 1 GB of HTML (built incrementally with
  ``zlib.compressobj``: this process never holds more than 1 MB of it; the body sent is a few KB);
* ``/slow``: the response headers, one byte every 2 s.

Two phases, each of ``--askers`` client threads sending ``--requests`` ``POST /api/v1/ask`` one after another
(alternately the kg question "홍길동이 다니는 회사는 어느 도시에 있나요?" and the onchain question "n_a1 에서 3-hop
안에 거래소 입금주소(ExchangeDeposit)에 자금이 닿나요?"), every latency measured with ``time.perf_counter``:

* **quiet**: only the askers;
* **attack**: the same askers while two hostile threads loop until they finish: one alternates ``POST
  /api/v1/verify`` of a real onchain answer whose ``generated_query`` is a 7,000-term ``FILTER`` (about 90 KB,
  which rdflib parses for tens of seconds unless bounded) and a four-pattern cross product; the other alternates
  ``POST /api/v1/extract/url`` of ``/bomb`` and ``/slow``.

Printed: the machine (CPUs, load average before and after), the command line, per phase the latency median,
p95, p99 and max and the status counts (503 ``busy`` apart), the hostile requests with their statuses and max
latency, attack p99 / quiet p99, and the server's RSS (``VmRSS``, peak ``VmHWM`` of ``/proc/<pid>/status``) before
and after the attack. Nothing is asserted; the last line says whether attack p99 <= 2 x quiet p99. The exit code
is 0 unless the server could not start. Clients use a 120 s timeout, so a hung service shows as long latencies.
"""

from __future__ import annotations

import argparse
import http.server
import os
import shlex
import signal
import socket
import socketserver
import statistics
import subprocess
import sys
import threading
import time
import zlib
from collections import Counter
from collections.abc import Iterator, Sequence
from contextlib import contextmanager
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import httpx

ROOT = Path(__file__).resolve().parent.parent
KG_QUESTION = "홍길동이 다니는 회사는 어느 도시에 있나요?"
ONCHAIN_QUESTION = "n_a1 에서 3-hop 안에 거래소 입금주소(ExchangeDeposit)에 자금이 닿나요?"
ASKS = (("kg", KG_QUESTION), ("onchain", ONCHAIN_QUESTION))
FILTER_QUERY = "SELECT ?x WHERE { ?x ?p ?o FILTER(" + " || ".join(f"?o = {i}" for i in range(7000)) + ") }"
CROSS_QUERY = "SELECT * WHERE { ?a ?b ?c . ?d ?e ?f . ?g ?h ?i . ?j ?k ?l }"
BOMB_BYTES = 1 << 30  # what /bomb expands to once both gzip layers are undone
SLOW_BYTE_S = 2.0
CLIENT_TIMEOUT_S = 120.0
BUSY = 503


def free_port() -> int:
    """A port nothing listens on at this moment (the server binds it right after; a clash fails loudly)."""
    with socket.socket(socket.AF_INET, socket.SOCK_STREAM) as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


# --- the hostile web server -------------------------------------------------------------------------------------


def gzip_bomb(total: int = BOMB_BYTES, chunk: int = 1 << 20) -> bytes:
    """gzip(gzip(``total`` bytes of HTML)), built a chunk at a time: only the (small) outer result is kept."""
    unit = (b"<p>ont-platform</p>\n" * (chunk // 20 + 1))[:chunk]
    inner = zlib.compressobj(9, zlib.DEFLATED, 31)
    outer = zlib.compressobj(9, zlib.DEFLATED, 31)
    out: list[bytes] = []
    for _ in range(total // chunk):
        data = inner.compress(unit)
        if data:
            out.append(outer.compress(data))
    out.append(outer.compress(inner.flush()))
    out.append(outer.flush())
    return b"".join(out)


class Hostile(socketserver.ThreadingMixIn, http.server.HTTPServer):
    """A loopback web server with a decompression bomb at ``/bomb`` and a one-byte-every-2-s page at ``/slow``."""

    daemon_threads = True
    allow_reuse_address = True

    def __init__(self, bomb: bytes) -> None:
        self.bomb = bomb
        self.stopping = threading.Event()
        self.served: Counter[str] = Counter()
        self.slow_bytes = 0
        super().__init__(("127.0.0.1", 0), _HostileHandler)

    @property
    def port(self) -> int:
        return int(self.server_address[1])


class _HostileHandler(http.server.BaseHTTPRequestHandler):
    server: Hostile
    protocol_version = "HTTP/1.1"

    def log_message(self, format: str, *args: Any) -> None:  # noqa: A002 - quiet
        pass

    def do_GET(self) -> None:  # noqa: N802 - http.server's name
        self.server.served[self.path] += 1
        if self.path == "/bomb":
            self.send_response(200)
            self.send_header("Content-Type", "text/html; charset=utf-8")
            self.send_header("Content-Encoding", "gzip, gzip")
            self.send_header("Content-Length", str(len(self.server.bomb)))
            self.end_headers()
            self.wfile.write(self.server.bomb)
            return
        if self.path == "/slow":
            head = (
                b"HTTP/1.1 200 OK\r\nContent-Type: text/html; charset=utf-8\r\nContent-Length: 13\r\n"
                b"X-Padding: " + b"x" * 200 + b"\r\n\r\n<p>slow</p>\r\n"
            )
            self.close_connection = True
            try:
                for i in range(len(head)):
                    if self.server.stopping.wait(0 if i == 0 else SLOW_BYTE_S):
                        return
                    self.wfile.write(head[i : i + 1])
                    self.wfile.flush()
                    self.server.slow_bytes += 1
            except OSError:  # the fetcher gave up and shut the connection
                return
            return
        self.send_error(404)


@contextmanager
def hostile_server(bomb: bytes) -> Iterator[Hostile]:
    server = Hostile(bomb)
    thread = threading.Thread(target=server.serve_forever, name="hostile-web", daemon=True)
    thread.start()
    try:
        yield server
    finally:
        server.stopping.set()
        server.shutdown()
        server.server_close()
        thread.join(5)


# --- the service under test -------------------------------------------------------------------------------------


@dataclass
class Server:
    """A running ``ont serve`` child process, leader of its own process group."""

    process: subprocess.Popen[bytes]
    base_url: str
    log: Path
    cmd: list[str]


@contextmanager
def serve(port: int = 0, *, ready_timeout: float = 180.0) -> Iterator[Server]:
    """Start ``ont serve --allow-network 127.0.0.1`` in a new session, wait until GET /api/v1/domains answers,
    and stop its whole process group at the end. Raises RuntimeError when it exits early or does not answer."""
    port = port or free_port()
    log = Path(os.environ.get("TMPDIR", "/tmp")) / f"ont-serve-attack-{port}.log"
    cmd = [
        sys.executable,
        "-m",
        "ont_platform.cli.main",
        "serve",
        "--host",
        "127.0.0.1",
        "--port",
        str(port),
        "--allow-network",
        "127.0.0.1",
    ]
    with log.open("wb") as sink:
        process = subprocess.Popen(cmd, stdout=sink, stderr=subprocess.STDOUT, cwd=ROOT, start_new_session=True)
    base = f"http://127.0.0.1:{port}"
    try:
        deadline = time.monotonic() + ready_timeout
        while True:
            if process.poll() is not None:
                raise RuntimeError(f"ont serve exited with {process.returncode}:\n{log.read_text(errors='replace')}")
            try:
                if httpx.get(f"{base}/api/v1/domains", timeout=2.0).status_code == 200:
                    break
            except httpx.HTTPError:
                pass
            if time.monotonic() > deadline:
                raise RuntimeError(f"ont serve did not answer within {ready_timeout} s")
            time.sleep(0.2)
        yield Server(process, base, log, cmd)
    finally:
        stop_group(process)


def stop_group(process: subprocess.Popen[bytes], grace: float = 10.0) -> None:
    """SIGTERM the server's process group (its pid is the group id), then SIGKILL whatever is left of it."""
    pgid = process.pid
    try:
        os.killpg(pgid, signal.SIGTERM)
    except ProcessLookupError:
        pass
    try:
        process.wait(grace)
    except subprocess.TimeoutExpired:
        pass
    try:
        os.killpg(pgid, signal.SIGKILL)
    except ProcessLookupError:
        pass
    process.wait()


def memory(pid: int) -> dict[str, int]:
    """VmRSS and VmHWM of a process, in kB (empty when it is gone)."""
    out: dict[str, int] = {}
    try:
        for line in Path(f"/proc/{pid}/status").read_text().splitlines():
            key, _, value = line.partition(":")
            if key in ("VmRSS", "VmHWM"):
                out[key] = int(value.split()[0])
    except (OSError, ValueError, IndexError):
        pass
    return out


def group_rss(pgid: int) -> tuple[int, int]:
    """(processes, summed VmRSS in kB) of a process group: the server and its workers."""
    count = total = 0
    for entry in Path("/proc").iterdir():
        if not entry.name.isdigit():
            continue
        try:
            stat = (entry / "stat").read_text()
            fields = stat[stat.rindex(")") + 2 :].split()
            if int(fields[2]) != pgid:  # fields after the name: state, ppid, pgrp, ...
                continue
        except (OSError, ValueError, IndexError):
            continue
        count += 1
        total += memory(int(entry.name)).get("VmRSS", 0)
    return count, total


# --- clients ----------------------------------------------------------------------------------------------------


@dataclass
class Phase:
    """What the askers of one phase measured."""

    name: str
    askers: int
    latencies: list[float] = field(default_factory=list)
    statuses: Counter[str] = field(default_factory=Counter)
    seconds: float = 0.0
    lock: threading.Lock = field(default_factory=threading.Lock)

    def percentile(self, q: float) -> float:
        data = sorted(self.latencies)
        if not data:
            return float("nan")
        return data[min(len(data) - 1, max(0, round(q / 100 * len(data)) - 1))]


@dataclass
class HostileKind:
    """One kind of hostile request: how many were sent, their statuses, latencies and a sample outcome."""

    sent: int = 0
    statuses: Counter[str] = field(default_factory=Counter)
    max_latency: float = 0.0
    sample: str = ""


def _asker(base_url: str, requests: int, offset: int, phase: Phase) -> None:
    limits = httpx.Limits(max_connections=1, max_keepalive_connections=1)
    with httpx.Client(base_url=base_url, timeout=CLIENT_TIMEOUT_S, limits=limits) as client:
        for i in range(requests):
            domain, question = ASKS[(offset + i) % len(ASKS)]
            started = time.perf_counter()
            try:
                status = str(client.post("/api/v1/ask", json={"domain": domain, "question": question}).status_code)
            except httpx.HTTPError as exc:
                status = type(exc).__name__
            elapsed = time.perf_counter() - started
            with phase.lock:
                phase.latencies.append(elapsed)
                phase.statuses[status] += 1


def run_askers(base_url: str, name: str, askers: int, requests: int) -> tuple[Phase, list[threading.Thread]]:
    phase = Phase(name, askers)
    threads = [
        threading.Thread(target=_asker, args=(base_url, requests, i, phase), name=f"asker-{i}", daemon=True)
        for i in range(askers)
    ]
    return phase, threads


def _outcome(response: httpx.Response) -> str:
    """A short account of a hostile request's answer: the error code or the failed checks."""
    try:
        body = response.json()
    except ValueError:
        return response.text[:160]
    if not isinstance(body, dict):
        return str(body)[:160]
    if "error" in body:
        return f"{body['error']}: {str(body.get('message', ''))[:140]}"
    if "failures" in body:
        fails = body.get("failures") or []
        text = "; ".join(
            f"{f.get('check')}: {str(f.get('detail', ''))[:140]}" for f in fails[:2] if isinstance(f, dict)
        )
        return f"ok={body.get('ok')} {text}"
    return str(body)[:160]


def _hostile_loop(
    base_url: str,
    requests: Sequence[tuple[str, str, dict[str, Any]]],
    done: threading.Event,
    kinds: dict[str, HostileKind],
) -> None:
    with httpx.Client(base_url=base_url, timeout=CLIENT_TIMEOUT_S) as client:
        i = 0
        while not done.is_set():
            kind, path, body = requests[i % len(requests)]
            i += 1
            started = time.perf_counter()
            try:
                response = client.post(path, json=body)
                status, sample = str(response.status_code), _outcome(response)
            except httpx.HTTPError as exc:
                status, sample = type(exc).__name__, str(exc)[:160]
            elapsed = time.perf_counter() - started
            k = kinds[kind]
            k.sent += 1
            k.statuses[status] += 1
            k.max_latency = max(k.max_latency, elapsed)
            k.sample = k.sample or sample


def run_phase(
    base_url: str,
    name: str,
    askers: int,
    requests: int,
    hostile: Sequence[Sequence[tuple[str, str, dict[str, Any]]]] = (),
) -> tuple[Phase, dict[str, HostileKind]]:
    """Run the askers to the end, with one thread per hostile request list looping until they are done."""
    phase, threads = run_askers(base_url, name, askers, requests)
    kinds = {kind: HostileKind() for loop in hostile for kind, _, _ in loop}
    done = threading.Event()
    attackers = [
        threading.Thread(target=_hostile_loop, args=(base_url, loop, done, kinds), name=f"hostile-{i}", daemon=True)
        for i, loop in enumerate(hostile)
    ]
    started = time.perf_counter()
    for t in attackers:
        t.start()
    if attackers:
        time.sleep(0.5)  # let the hostile requests get in first
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    phase.seconds = time.perf_counter() - started
    done.set()
    for t in attackers:
        t.join(CLIENT_TIMEOUT_S + 10)
    return phase, kinds


# --- report -----------------------------------------------------------------------------------------------------


def _ms(seconds: float) -> str:
    return f"{seconds * 1000:.1f}"


def print_phase(phase: Phase) -> None:
    busy = phase.statuses.get(str(BUSY), 0)
    others = {k: v for k, v in sorted(phase.statuses.items()) if k != str(BUSY)}
    print(
        f"{phase.name:6} {phase.askers} askers, {len(phase.latencies)} asks in {phase.seconds:.1f} s: "
        f"median {_ms(statistics.median(phase.latencies)) if phase.latencies else 'nan'} ms, "
        f"p95 {_ms(phase.percentile(95))} ms, p99 {_ms(phase.percentile(99))} ms, "
        f"max {_ms(max(phase.latencies, default=float('nan')))} ms"
    )
    print(f"       statuses {others}, 503 busy {busy}")


def _rss_line(label: str, pid: int) -> tuple[int, int]:
    mem = memory(pid)
    procs, total = group_rss(pid)
    print(
        f"server RSS {label}: VmRSS {mem.get('VmRSS', 0) / 1024:.1f} MB, VmHWM {mem.get('VmHWM', 0) / 1024:.1f} MB "
        f"(process group: {procs} processes, {total / 1024:.1f} MB)"
    )
    return mem.get("VmRSS", 0), mem.get("VmHWM", 0)


def main(argv: Sequence[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n", 1)[0])
    parser.add_argument("--askers", type=int, default=20, help="concurrent asking clients (default 20)")
    parser.add_argument(
        "--requests",
        type=int,
        default=250,
        help="asks per client and phase (default 250: about 40 s a phase on 2 cores, long enough "
        "for several of each hostile request)",
    )
    parser.add_argument("--port", type=int, default=0, help="port of ont serve (default 0: a free port)")
    args = parser.parse_args(argv)
    if args.askers < 1 or args.requests < 1 or not 0 <= args.port <= 65535:
        parser.error("--askers and --requests must be positive, --port from 0 to 65535")

    run_started = time.perf_counter()
    print(f"machine: {os.cpu_count()} CPUs, load average before {' '.join(f'{x:.2f}' for x in os.getloadavg())}")
    print(f"command: {shlex.join([sys.executable, *sys.argv])}")
    built = time.perf_counter()
    bomb = gzip_bomb()
    print(
        f"/bomb: {len(bomb)} bytes, gzip of gzip of {BOMB_BYTES} bytes (built in {time.perf_counter() - built:.1f} s)"
    )

    try:
        with hostile_server(bomb) as web, serve(args.port) as server:
            print(f"server: {shlex.join(server.cmd)} (pid {server.process.pid}, log {server.log})")
            print(f"hostile web server: http://127.0.0.1:{web.port}/bomb and /slow")
            with httpx.Client(base_url=server.base_url, timeout=CLIENT_TIMEOUT_S) as client:
                for domain, question in ASKS:  # warm both questions once
                    client.post("/api/v1/ask", json={"domain": domain, "question": question}).raise_for_status()
                answer = client.post("/api/v1/ask", json={"domain": "onchain", "question": ONCHAIN_QUESTION}).json()
            hostile = (
                [
                    (
                        "verify FILTER x7000",
                        "/api/v1/verify",
                        {"answer": {**answer, "generated_query": FILTER_QUERY}, "question": ONCHAIN_QUESTION},
                    ),
                    (
                        "verify cross product",
                        "/api/v1/verify",
                        {"answer": {**answer, "generated_query": CROSS_QUERY}, "question": ONCHAIN_QUESTION},
                    ),
                ],
                [
                    ("extract/url /bomb", "/api/v1/extract/url", {"url": f"http://127.0.0.1:{web.port}/bomb"}),
                    ("extract/url /slow", "/api/v1/extract/url", {"url": f"http://127.0.0.1:{web.port}/slow"}),
                ],
            )
            print(f"verify FILTER query: {len(FILTER_QUERY)} characters")
            print()

            quiet, _ = run_phase(server.base_url, "quiet", args.askers, args.requests)
            print_phase(quiet)
            rss_before, _ = _rss_line("before attack", server.process.pid)
            print()

            attack, kinds = run_phase(server.base_url, "attack", args.askers, args.requests, hostile)
            print_phase(attack)
            for kind, k in kinds.items():
                print(
                    f"  hostile {kind:22} {k.sent:3} sent, statuses {dict(sorted(k.statuses.items()))}, "
                    f"max {_ms(k.max_latency)} ms"
                )
                print(f"    e.g. {k.sample}")
            print(f"  hostile web server: served {dict(web.served)}, {web.slow_bytes} slow header bytes sent")
            rss_after, hwm_after = _rss_line("after attack", server.process.pid)
            alive = server.process.poll() is None
    except RuntimeError as exc:
        print(f"the server could not start: {exc}", file=sys.stderr)
        return 1

    print()
    ratio = attack.percentile(99) / quiet.percentile(99) if quiet.latencies else float("nan")
    print(f"attack p99 / quiet p99 = {_ms(attack.percentile(99))} / {_ms(quiet.percentile(99))} = {ratio:.2f}")
    print(
        f"load average after {' '.join(f'{x:.2f}' for x in os.getloadavg())}; "
        f"whole run {time.perf_counter() - run_started:.1f} s; server still running at the end: {alive}"
    )
    print(
        f"attack p99 <= 2 x quiet p99: {'yes' if ratio <= 2 else 'no'}; server RSS growth during the attack "
        f"{(rss_after - rss_before) / 1024:+.1f} MB (peak VmHWM {hwm_after / 1024:.1f} MB)"
    )
    return 0


if __name__ == "__main__":
    sys.exit(main())
