"""What inspecting a query costs: the lexer the remote store runs on every query against rdflib's SPARQL parser.

    python benchmarks/query_inspect.py [--examples onchain,kg] [--repeat 5] [--remote]

1. Loads each example folder into an embedded graph and asks every bundled question with ``kg.trace``,
   collecting the SPARQL the library really sends (``Traced.queries``, and each answer's ``generated_query``).
2. Times, per distinct query (median of ``--repeat`` runs): the lexer (:func:`ont_platform.sparql.inspect.shape`,
   the store's hot path), rdflib's parse of the same facts (:func:`~ont_platform.sparql.inspect.parsed_shape`)
   and the verifier's full check (:func:`~ont_platform.sparql.inspect.check_read_query`, parse + algebra), and
   checks that the lexer and rdflib's parser agree on every query. Prints the medians, p95s, the ratio, how
   often a query text repeats (what a cache keyed by text could save) and the machine's load.
3. ``--remote``: starts an Oxigraph server on 127.0.0.1 (the tests' launcher), loads the same examples into a
   ``backend="remote"`` graph and times ``kg.ask`` per question with the lexer as the store runs it, then with an
   rdflib parse added to every query the store sends.
"""

from __future__ import annotations

import argparse
import json
import statistics
import sys
import time
import uuid
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from ont_platform import KnowledgeGraph  # noqa: E402
from ont_platform.sparql import inspect  # noqa: E402


def load_avg() -> str:
    return " ".join(Path("/proc/loadavg").read_text().split()[:3])


def questions(name: str) -> list[str]:
    path = ROOT / "examples" / name / "questions.jsonl"
    return [json.loads(line)["question"] for line in path.read_text(encoding="utf-8").splitlines() if line.strip()]


def collect(names: list[str]) -> list[str]:
    """Every query the library sends while answering the examples' questions, in order, repeats kept."""
    sent: list[str] = []
    for name in names:
        with KnowledgeGraph.open() as kg:
            kg.load(ROOT / "examples" / name)
            for question in questions(name):
                traced = kg.trace(question)
                sent.extend(traced.queries)
                generated = getattr(traced.answer, "generated_query", None)
                if isinstance(generated, str) and generated:
                    sent.append(generated)
    return sent


def per_query(fn: Callable[[str], object], queries: list[str], repeat: int) -> list[float]:
    """Median seconds of ``fn`` on each query."""
    out = []
    for q in queries:
        runs = []
        for _ in range(repeat):
            t0 = time.perf_counter()
            fn(q)
            runs.append(time.perf_counter() - t0)
        out.append(statistics.median(runs))
    return out


def ms(samples: list[float]) -> str:
    s = sorted(samples)
    p95 = s[min(len(s) - 1, int(0.95 * len(s)))]
    return f"median {statistics.median(s) * 1e3:8.3f} ms   p95 {p95 * 1e3:8.3f} ms   max {s[-1] * 1e3:8.3f} ms"


def disagreements(queries: list[str]) -> list[str]:
    bad = []
    for q in queries:
        fast, ref = inspect.shape(q), inspect.parsed_shape(q)
        limit = fast.trailing_limit[1] if fast.trailing_limit else None
        same = (fast.form, fast.distinct, frozenset(fast.modifiers), fast.has_from, fast.has_service) == (
            ref.form,
            ref.distinct,
            ref.modifiers,
            ref.has_from,
            ref.has_service,
        )
        if not same or (limit is not None and limit != ref.limit):
            bad.append(q)
    return bad


@contextmanager
def rdflib_on_every_query() -> Iterator[None]:
    """The remote store's lexer, with rdflib's parse of each query added (what replacing it would cost)."""
    from ont_platform.storage import remote

    lexer = inspect.shape

    def both(query: object) -> inspect.QueryShape:
        found = lexer(query)
        if isinstance(query, str):
            inspect.parsed_shape(query)
        return found

    remote.__dict__["shape"] = both  # the name remote.py's select() and ask() call
    try:
        yield
    finally:
        remote.__dict__["shape"] = lexer


def remote_asks(names: list[str], repeat: int) -> None:
    from tests import servers

    with servers.oxigraph_server() as ep:
        for name in names:
            kg = KnowledgeGraph.open(
                backend="remote",
                endpoint=ep.query_url,
                update_endpoint=ep.update_url,
                graph_iri=f"https://w3id.org/ont-platform/graph/bench/{uuid.uuid4().hex}",
            )
            try:
                kg.load(ROOT / "examples" / name, shacl=False)
                asked = questions(name)
                for q in asked:  # warm-up: the Korean analyser, the lexicon
                    kg.ask(q)
                timings: dict[str, list[float]] = {"lexer": [], "lexer + rdflib parse": []}
                for _ in range(repeat):
                    for label in timings:
                        ctx: Any = rdflib_on_every_query() if label != "lexer" else _nothing()
                        with ctx:
                            for q in asked:
                                t0 = time.perf_counter()
                                kg.ask(q)
                                timings[label].append(time.perf_counter() - t0)
                for label, samples in timings.items():
                    print(f"  remote kg.ask on {name:8} ({label:20}): {ms(samples)}   ({len(samples)} asks)")
            finally:
                kg.store.clear()
                kg.close()


@contextmanager
def _nothing() -> Iterator[None]:
    yield


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--examples", default="onchain,kg", help="example folders, comma-separated")
    parser.add_argument("--repeat", type=int, default=5)
    parser.add_argument("--remote", action="store_true", help="also time kg.ask on an Oxigraph server")
    args = parser.parse_args()
    names = [n for n in args.examples.split(",") if n]
    print(f"load before: {load_avg()}")
    sent = collect(names)
    distinct = list(dict.fromkeys(sent))
    sizes = sorted(len(q) for q in distinct)
    print(
        f"queries sent: {len(sent)}, distinct texts: {len(distinct)} (a cache keyed by text would hit "
        f"{1 - len(distinct) / max(1, len(sent)):.0%}); median length {statistics.median(sizes):.0f} characters"
    )
    inspect.parsed_shape(distinct[0])  # imports rdflib's parser before timing
    lexer = per_query(inspect.shape, distinct, args.repeat)
    parsed = per_query(inspect.parsed_shape, distinct, args.repeat)
    checked = per_query(_check, distinct, max(1, args.repeat // 2))
    print(f"lexer (shape)               {ms(lexer)}")
    print(f"rdflib parse (parsed_shape) {ms(parsed)}")
    print(f"rdflib full check           {ms(checked)}   (verifier: parse + algebra)")
    print(f"ratio of medians, rdflib parse / lexer: {statistics.median(parsed) / statistics.median(lexer):.0f}x")
    bad = disagreements(distinct)
    print(f"lexer and rdflib disagree on {len(bad)} of {len(distinct)} queries")
    for q in bad[:3]:
        print("   ", q[:200].replace("\n", " "))
    if args.remote:
        remote_asks(names, args.repeat)
    print(f"load after: {load_avg()}")


def _check(query: str) -> None:
    try:
        inspect.check_read_query(query)
    except Exception:  # noqa: BLE001 - a refusal is a result here, its cost is what is timed
        pass


if __name__ == "__main__":
    main()
