"""How fast the guard and the ingest path are.

1. Validation throughput (payloads per second) of each validator, on kg extractions of two sizes, with and
   without the domain's ontology.
2. The compiled SHACL shapes alone on extraction batches (kg: 15 relations, ~480 triples; onchain: 100
   transfers, ~2,400 triples), in CPU milliseconds of this process (``time.process_time``), so that a busy
   machine's scheduling weighs less than in the wall-clock figures.
3. Ingest of one batch of 100 transfers into an in-memory Oxigraph store that already holds a synthetic graph
   of 100,000 transfers: SHACL on the batch and its neighbourhood (what ``ingest`` does) against SHACL on the
   whole graph plus the batch (what it avoids; minutes, so it runs once and can be skipped).

Run:  .venv/bin/python benchmarks/validation_throughput.py [--transfers 100000] [--skip-whole-graph] [--skip-compiled]
"""

from __future__ import annotations

import argparse
import json
import platform
import random
import statistics
import sys
import time
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from rdflib import Graph

from ont_platform import KnowledgeGraph
from ont_platform.ingest.extraction import ingest
from ont_platform.namespaces import OC, ONT, dataset_iri, mint
from ont_platform.ontology.shacl import check
from ont_platform.rdf_terms import RDF_TYPE, iri, literal, triple
from ont_platform.validation import OntologyExtractionResult, OntologyGuard
from ont_platform.validation.facts import build_facts
from ont_platform.validation.rules import Findings
from ont_platform.validation.terms import ontology_index

KG_CLASSES = [
    ("Person", "Company", "worksFor"),
    ("Company", "City", "locatedIn"),
    ("Person", "Company", "foundedBy"),
    ("Company", "Company", "acquired"),
    ("City", "Country", "partOf"),
]


def kg_payload(rng: random.Random, relations: int) -> dict[str, Any]:
    entities: list[dict[str, Any]] = []
    rels: list[dict[str, Any]] = []
    for j in range(relations):
        src_cls, dst_cls, pred = rng.choice(KG_CLASSES)
        ids = []
        for cls in (src_cls, dst_cls):
            n = len(entities) + 1
            entities.append(
                {
                    "id": f"E_{n}",
                    "label": f"{cls} {rng.randrange(10**6)}",
                    "type": "individual",
                    "ontology_class": cls,
                    "confidence": round(rng.random(), 3),
                    "evidence": {"source_url": "https://news.example/a", "offset": rng.randrange(5000)},
                }
            )
            ids.append(f"E_{n}")
        rels.append(
            {
                "id": f"R_{j + 1}",
                "source_id": ids[0],
                "predicate": pred,
                "target_id": ids[1],
                "confidence": round(rng.random(), 3),
                "evidence": [
                    {
                        "chunk_text": f"문장 {rng.randrange(10**6)}: {ids[0]} {pred} {ids[1]}.",
                        "source_url": "https://news.example/a",
                        "offset": rng.randrange(5000),
                    }
                ],
            }
        )
    return {"entities": entities, "relations": rels}


def throughput(guard: OntologyGuard, payloads: list[dict[str, Any]], min_seconds: float) -> float:
    guard.validate_sync(payloads[0])  # warm up (imports, shapes)
    done, started = 0, time.perf_counter()
    while True:
        for p in payloads:
            result = guard.validate_sync(p)
            assert result.validation_passed, result.as_dict()
            done += 1
        elapsed = time.perf_counter() - started
        if elapsed >= min_seconds:
            return done / elapsed


def bench_validators(min_seconds: float) -> dict[str, Any]:
    rng = random.Random(7)
    sizes = {
        "small (4 entities, 2 relations)": [kg_payload(rng, 2) for _ in range(50)],
        "medium (30 entities, 15 relations)": [kg_payload(rng, 15) for _ in range(20)],
    }
    out: dict[str, Any] = {}
    for name in ("lightweight", "guardrails", "ontocast"):
        for ontology in (None, "kg"):
            guard = OntologyGuard(name, ontology=ontology)
            for size, payloads in sizes.items():
                rate = throughput(guard, payloads, min_seconds)
                key = f"{name} ontology={ontology or '-'} {size}"
                out[key] = round(rate, 1)
                print(f"{key:60s} {rate:10.1f} payloads/s", flush=True)
    return out


# --- the compiled shapes alone ---------------------------------------------------------------------------------


def bench_compiled(rounds: int) -> dict[str, Any]:
    """Median and best CPU ms of ``compiled(domain).violations`` per batch, over ``rounds`` passes of 5 batches."""
    from ont_platform.validation.shapes import Triples, compiled

    rng = random.Random(3)
    makers = {"kg": lambda: kg_payload(rng, 15), "onchain": lambda: transfer_batch(rng, 5000, 100, "c")}
    out: dict[str, Any] = {}
    for domain, make in makers.items():
        shapes = compiled(domain)
        assert shapes is not None
        batches = []
        for _ in range(5):
            extraction = OntologyExtractionResult.model_validate(make())
            facts = build_facts(extraction, ontology_index(domain), Findings())
            batches.append(Triples(dict.fromkeys(facts.triples)))
        times = []
        for _ in range(rounds):
            for data in batches:
                started = time.process_time()
                shapes.violations(data)
                times.append(time.process_time() - started)
        out[domain] = {
            "triples": len(batches[0]),
            "cpu_ms_median": round(statistics.median(times) * 1000, 2),
            "cpu_ms_best": round(min(times) * 1000, 2),
        }
        print(f"compiled shapes, {domain} batch of {len(batches[0])} triples: {out[domain]}", flush=True)
    return out


# --- ingest into a graph of 100,000 transfers ----------------------------------------------------------------


def address(i: int) -> str:
    return "0x" + f"{i:040x}"


def synthetic_graph(transfers: int, rng: random.Random) -> tuple[str, int]:
    """N-Triples of ``transfers`` transfers between transfers // 5 addresses (each transfer: a resource with
    id, source, target, kind, tx hash, value, and the plain triple, as the CSV loader writes them)."""
    nodes = max(10, transfers // 5)
    lines: list[str] = []
    for i in range(nodes):
        node = iri(mint("onchain", "node", f"E_{i}"))
        cls = OC.ExchangeDeposit if i % 50 == 0 else OC.Wallet
        lines += [
            triple(node, RDF_TYPE, iri(cls)),
            triple(node, iri(ONT.id), literal(f"E_{i}")),
            triple(node, iri(OC.addressNorm), literal(address(i))),
        ]
    for j in range(transfers):
        edge = iri(mint("onchain", "edge", f"T_{j}"))
        s, t = rng.randrange(nodes), rng.randrange(nodes)
        if s == t:
            t = (t + 1) % nodes
        sn, tn = iri(mint("onchain", "node", f"E_{s}")), iri(mint("onchain", "node", f"E_{t}"))
        lines += [
            triple(edge, RDF_TYPE, iri(OC.Transfer)),
            triple(edge, iri(ONT.id), literal(f"T_{j}")),
            triple(edge, iri(ONT.source), sn),
            triple(edge, iri(ONT.target), tn),
            triple(edge, iri(ONT.kind), iri(OC.transfer)),
            triple(edge, iri(OC.txHash), literal("0x" + f"{j:064x}")),
            triple(edge, iri(OC.value), literal(str(rng.randrange(10**20)))),
            triple(sn, iri(OC.transfer), tn),
        ]
    ds = iri(dataset_iri("onchain"))
    lines += [triple(ds, RDF_TYPE, iri(ONT.Dataset)), triple(ds, iri(ONT.domain), literal("onchain"))]
    return "".join(lines), nodes


def transfer_batch(rng: random.Random, nodes: int, relations: int, tag: str) -> dict[str, Any]:
    """An extraction of ``relations`` transfers between existing addresses (and a few new ones)."""
    entities: dict[str, dict[str, Any]] = {}
    rels = []
    for j in range(relations):
        ends = []
        for _ in range(2):
            i = rng.randrange(nodes + 20)  # mostly stored addresses, some new
            ends.append(f"E_{i}")
            entities.setdefault(
                f"E_{i}",
                {
                    "id": f"E_{i}",
                    "label": f"address {i}",
                    "type": "individual",
                    "ontology_class": "ExchangeDeposit" if i % 50 == 0 else "Wallet",
                    "attributes": {"addressNorm": address(i)},
                },
            )
        if ends[0] == ends[1]:
            continue
        rels.append(
            {
                "id": f"R_{tag}_{j}",
                "source_id": ends[0],
                "predicate": "transfer",
                "target_id": ends[1],
                "confidence": 0.9,
                "attributes": {"txHash": "0x" + f"{rng.randrange(16**60):x}"},
                "evidence": [{"chunk_text": f"tx {j} seen in report {tag}", "source_url": "https://r.example/"}],
            }
        )
    return {"entities": list(entities.values()), "relations": rels}


def bench_ingest(transfers: int, skip_whole: bool) -> dict[str, Any]:
    rng = random.Random(11)
    out: dict[str, Any] = {"transfers": transfers}
    started = time.perf_counter()
    data, nodes = synthetic_graph(transfers, rng)
    kg = KnowledgeGraph.open()
    kg.store.add_ntriples(data)
    out["graph_triples"] = len(kg)
    out["graph_build_s"] = round(time.perf_counter() - started, 1)
    print(f"graph: {transfers} transfers, {len(kg)} triples, built in {out['graph_build_s']} s", flush=True)

    runs = []
    for k in range(5):
        batch = transfer_batch(rng, nodes, 100, f"b{k}")
        report = ingest(kg, batch, domain="onchain")
        assert report.accepted, report.as_dict()
        runs.append(report)
        print(
            f"ingest batch {k}: {len(batch['relations'])} relations, {report.triples_added} triples, "
            f"{report.seconds * 1000:.0f} ms { ({s: round(v * 1000) for s, v in report.timings.items()}) }",
            flush=True,
        )
    out["ingest_ms_median"] = round(statistics.median(r.seconds for r in runs) * 1000, 1)
    out["ingest_shacl_ms_median"] = round(statistics.median(r.timings["shacl"] for r in runs) * 1000, 1)
    out["ingest_stage_ms_median"] = {
        s: round(statistics.median(r.timings[s] for r in runs) * 1000, 1) for s in runs[0].timings
    }
    batch = transfer_batch(rng, nodes, 100, "noshacl")
    report = ingest(kg, batch, domain="onchain", shacl=False)
    out["ingest_without_shacl_ms"] = round(report.seconds * 1000, 1)

    if not skip_whole:
        batch = transfer_batch(rng, nodes, 100, "whole")

        started = time.perf_counter()
        whole = Graph()
        whole.parse(data=kg.dumps("nt").decode("utf-8"), format="nt")
        facts = build_facts(OntologyExtractionResult.model_validate(batch), ontology_index("onchain"), Findings())
        for t in facts.triples:
            whole.add(t)
        out["whole_graph_copy_s"] = round(time.perf_counter() - started, 1)
        print(f"whole graph copied to rdflib ({len(whole)} triples) in {out['whole_graph_copy_s']} s", flush=True)
        started = time.perf_counter()
        violations = check(whole, "onchain")
        out["whole_graph_shacl_s"] = round(time.perf_counter() - started, 1)
        out["whole_graph_violations"] = len(violations)
        print(
            f"SHACL on the whole graph + batch: {out['whole_graph_shacl_s']} s, {len(violations)} violations",
            flush=True,
        )
    kg.close()
    return out


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--transfers", type=int, default=100_000)
    parser.add_argument("--seconds", type=float, default=3.0, help="minimum time per throughput measurement")
    parser.add_argument("--skip-whole-graph", action="store_true", help="skip SHACL on the whole graph (minutes)")
    parser.add_argument("--skip-throughput", action="store_true")
    parser.add_argument("--skip-compiled", action="store_true", help="skip the compiled shapes alone")
    parser.add_argument("--rounds", type=int, default=20, help="passes over the batches for the compiled shapes")
    parser.add_argument("--json", type=Path, help="also write the results to this file")
    args = parser.parse_args()
    results: dict[str, Any] = {"python": platform.python_version(), "machine": platform.machine()}
    if not args.skip_throughput:
        results["throughput_payloads_per_s"] = bench_validators(args.seconds)
    if not args.skip_compiled:
        results["compiled_shapes"] = bench_compiled(args.rounds)
    results["ingest"] = bench_ingest(args.transfers, args.skip_whole_graph)
    print(json.dumps(results, indent=2, ensure_ascii=False))
    if args.json:
        args.json.write_text(json.dumps(results, indent=2, ensure_ascii=False), encoding="utf-8")


if __name__ == "__main__":
    main()
