"""Concurrent clients against ``ont serve`` over loopback: throughput, latency percentiles and error rate.

    python benchmarks/http_load.py [--clients 50] [--seconds 30] [--seed 7] [--json]

The server is a separate process (``python -m ont_platform.cli.main serve``) on 127.0.0.1 at a free port,
serving the bundled example datasets (onchain, kg, pages) from memory; it is stopped by its pid at the end. This
process drives ``--clients`` concurrent clients (asyncio + httpx, one connection each) for ``--seconds``, each
sending requests drawn from a seeded mix:

* 80 % ``POST /api/v1/ask`` with a question of an example dataset's ``questions.jsonl``,
* 5 % ``POST /api/v1/ask/trace``, 10 % ``POST /api/v1/verify`` (the answer the server gave before the run),
* 5 % ``POST /api/v1/extract/text`` (the lexicon extractor under the ontology guard; read only).

The HTTP API has no write route, so the mix has no ingest. Every answer is compared with the answer the server
gave for the same question before the clients started (answers are deterministic), and with an in-process
answer when ``expected`` answers are handed to :func:`run_load` (the test does that); a different answer counts
as an error, as does any status other than 200 or a failed connection. Printed: requests/s, p50/p95/p99 latency,
error rate, and per route the count and p50.

The server serialises graph work behind one lock (``GraphSet``), so throughput is that of one core and latency
grows with the number of clients; the interest is that nothing fails, hangs or answers differently under load.
"""

from __future__ import annotations

import argparse
import asyncio
import json
import os
import random
import signal
import socket
import statistics
import subprocess
import sys
import time
from collections import Counter
from collections.abc import Iterator, Mapping, Sequence
from contextlib import contextmanager
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import httpx

ROOT = Path(__file__).resolve().parent.parent
EXAMPLES = ROOT / "examples"
DOMAINS = ("onchain", "kg", "pages")
MIX = (("ask", 0.80), ("trace", 0.05), ("verify", 0.10), ("extract", 0.05))
EXTRACT_TEXTS = ("홍길동은 에이크미에서 일한다.", "김철수는 서울에 산다.", "에이크미는 서울에 본사가 있다.")


@dataclass(frozen=True)
class Question:
    """One question of an example dataset, with the id the server copies into its answer."""

    domain: str
    id: str
    text: str


def example_questions(domains: Sequence[str] = DOMAINS) -> list[Question]:
    """Every question of the bundled examples' ``questions.jsonl`` files."""
    out = []
    for domain in domains:
        for line in (EXAMPLES / domain / "questions.jsonl").read_text(encoding="utf-8").splitlines():
            if line.strip():
                doc = json.loads(line)
                out.append(Question(domain, str(doc["id"]), str(doc["question"])))
    return out


def free_port() -> int:
    """A port nothing listens on at this moment (the server binds it right after; a clash fails loudly)."""
    with socket.socket(socket.AF_INET, socket.SOCK_STREAM) as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


@dataclass
class Server:
    """A running ``ont serve`` child process."""

    process: subprocess.Popen[bytes]
    base_url: str
    log: Path


@contextmanager
def serve(
    *, ready_timeout: float = 180.0, log_dir: Path | None = None, env: Mapping[str, str] | None = None
) -> Iterator[Server]:
    """Start ``ont serve`` on 127.0.0.1 at a free port, wait until it answers, and stop it by pid at the end.

    The server's stderr goes to a log file (its path is on the returned :class:`Server`), so a full pipe never
    blocks it. Raises RuntimeError when it exits early or does not answer within ``ready_timeout`` seconds
    (building the Korean analyser takes several seconds on the first start).
    """
    port = free_port()
    folder = log_dir or Path(os.environ.get("TMPDIR", "/tmp"))
    log = folder / f"ont-serve-{port}.log"
    cmd = [sys.executable, "-m", "ont_platform.cli.main", "serve", "--host", "127.0.0.1", "--port", str(port)]
    with log.open("wb") as sink:
        process = subprocess.Popen(
            cmd, stdout=sink, stderr=subprocess.STDOUT, cwd=ROOT, env={**os.environ, **(env or {})}
        )
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
        yield Server(process, base, log)
    finally:
        stop(process)


def stop(process: subprocess.Popen[bytes], grace: float = 10.0) -> None:
    """SIGTERM the process by its pid (uvicorn shuts down cleanly), SIGKILL it if it has not gone in time."""
    if process.poll() is None:
        os.kill(process.pid, signal.SIGTERM)
        try:
            process.wait(grace)
        except subprocess.TimeoutExpired:
            os.kill(process.pid, signal.SIGKILL)
            process.wait()


@dataclass
class Stats:
    """What a load run measured."""

    seconds: float
    clients: int
    latencies: list[float] = field(default_factory=list)
    by_route: dict[str, list[float]] = field(default_factory=dict)
    errors: Counter[str] = field(default_factory=Counter)
    examples: list[str] = field(default_factory=list)

    @property
    def requests(self) -> int:
        return len(self.latencies)

    @property
    def error_count(self) -> int:
        return sum(self.errors.values())

    def percentile(self, q: float, values: Sequence[float] | None = None) -> float:
        data = sorted(self.latencies if values is None else values)
        if not data:
            return float("nan")
        return data[min(len(data) - 1, max(0, round(q / 100 * len(data)) - 1))]

    def summary(self) -> dict[str, Any]:
        return {
            "clients": self.clients,
            "seconds": round(self.seconds, 2),
            "requests": self.requests,
            "requests_per_s": round(self.requests / self.seconds, 1) if self.seconds else 0.0,
            "p50_ms": round(self.percentile(50) * 1000, 1),
            "p95_ms": round(self.percentile(95) * 1000, 1),
            "p99_ms": round(self.percentile(99) * 1000, 1),
            "mean_ms": round(statistics.fmean(self.latencies) * 1000, 1) if self.latencies else None,
            "errors": self.error_count,
            "error_rate": round(self.error_count / self.requests, 5) if self.requests else 0.0,
            "error_kinds": dict(self.errors),
            "routes": {
                r: {"requests": len(v), "p50_ms": round(self.percentile(50, v) * 1000, 1)}
                for r, v in sorted(self.by_route.items())
            },
        }


def _pick(rnd: random.Random) -> str:
    x, acc = rnd.random(), 0.0
    for route, share in MIX:
        acc += share
        if x < acc:
            return route
    return MIX[0][0]


async def _request(
    client: httpx.AsyncClient, route: str, q: Question, reference: Mapping[Question, Any], rnd: random.Random
) -> tuple[str, str | None]:
    """Send one request of kind ``route``; returns (route, error kind or None)."""
    if route in ("ask", "trace"):
        path = "/api/v1/ask" if route == "ask" else "/api/v1/ask/trace"
        r = await client.post(path, json={"domain": q.domain, "question": q.text, "id": q.id})
        if r.status_code != 200:
            return route, f"status {r.status_code}"
        body = r.json()
        answer = body if route == "ask" else body.get("answer")
        if answer != reference[q]:
            return route, "different answer"
        return route, None
    if route == "verify":
        r = await client.post("/api/v1/verify", json={"answer": reference[q], "question": q.text})
        if r.status_code != 200:
            return route, f"status {r.status_code}"
        return route, None if isinstance(r.json().get("ok"), bool) else "no verdict"
    r = await client.post("/api/v1/extract/text", json={"text": rnd.choice(EXTRACT_TEXTS), "domain": "kg"})
    return route, None if r.status_code == 200 else f"status {r.status_code}"


async def _client(
    base_url: str,
    questions: Sequence[Question],
    reference: Mapping[Question, Any],
    seed: int,
    deadline: float,
    stats: Stats,
    timeout: float,
) -> None:
    rnd = random.Random(seed)
    limits = httpx.Limits(max_connections=1, max_keepalive_connections=1)
    async with httpx.AsyncClient(base_url=base_url, timeout=timeout, limits=limits) as client:
        while time.monotonic() < deadline:
            route, q = _pick(rnd), rnd.choice(questions)
            started = time.monotonic()
            try:
                route, problem = await _request(client, route, q, reference, rnd)
            except httpx.HTTPError as exc:
                problem = f"{type(exc).__name__}"
            elapsed = time.monotonic() - started
            stats.latencies.append(elapsed)
            stats.by_route.setdefault(route, []).append(elapsed)
            if problem is not None:
                stats.errors[problem] += 1
                if len(stats.examples) < 5:
                    stats.examples.append(f"{route} {q.domain}/{q.id}: {problem}")


def reference_answers(base_url: str, questions: Sequence[Question]) -> dict[Question, Any]:
    """The server's answer to each question, asked one at a time before the load starts."""
    out = {}
    with httpx.Client(base_url=base_url, timeout=60.0) as client:
        for q in questions:
            r = client.post("/api/v1/ask", json={"domain": q.domain, "question": q.text, "id": q.id})
            r.raise_for_status()
            out[q] = r.json()
    return out


def run_load(
    base_url: str,
    *,
    clients: int,
    seconds: float,
    questions: Sequence[Question] | None = None,
    expected: Mapping[Question, Any] | None = None,
    seed: int = 7,
    timeout: float = 60.0,
) -> Stats:
    """Drive ``clients`` concurrent clients against ``base_url`` for ``seconds``.

    ``expected`` (an answer per question, e.g. computed in-process) is what every ask must return; without it
    the server's own first answers are the reference. Returns the measured :class:`Stats`.
    """
    qs = list(questions or example_questions())
    reference = dict(expected) if expected is not None else reference_answers(base_url, qs)

    async def main() -> Stats:
        stats = Stats(seconds=seconds, clients=clients)
        started = time.monotonic()
        deadline = started + seconds
        await asyncio.gather(
            *(_client(base_url, qs, reference, seed * 1000 + i, deadline, stats, timeout) for i in range(clients))
        )
        stats.seconds = time.monotonic() - started
        return stats

    return asyncio.run(main())


def main(argv: Sequence[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n", 1)[0])
    parser.add_argument("--clients", type=int, default=50, help="concurrent clients (default 50)")
    parser.add_argument("--seconds", type=float, default=30.0, help="how long to drive them (default 30)")
    parser.add_argument("--seed", type=int, default=7, help="seed of the request mix (default 7)")
    parser.add_argument("--json", action="store_true", help="print the summary as one JSON object")
    args = parser.parse_args(argv)
    if args.clients < 1 or args.seconds <= 0:
        parser.error("--clients and --seconds must be positive")
    with serve() as server:
        print(f"server pid {server.process.pid} at {server.base_url}", file=sys.stderr)
        stats = run_load(server.base_url, clients=args.clients, seconds=args.seconds, seed=args.seed)
    summary = stats.summary()
    if args.json:
        print(json.dumps(summary, ensure_ascii=False))
    else:
        print(
            f"{summary['clients']} clients, {summary['seconds']} s: {summary['requests']} requests, "
            f"{summary['requests_per_s']} requests/s"
        )
        print(f"latency p50 {summary['p50_ms']} ms, p95 {summary['p95_ms']} ms, p99 {summary['p99_ms']} ms")
        print(f"errors {summary['errors']} ({summary['error_rate'] * 100:.2f} %) {summary['error_kinds'] or ''}")
        for route, r in summary["routes"].items():
            print(f"  {route:8} {r['requests']:6} requests, p50 {r['p50_ms']} ms")
        for line in stats.examples:
            print(f"  e.g. {line}")
    return 0 if stats.error_count == 0 else 1


if __name__ == "__main__":
    sys.exit(main())
