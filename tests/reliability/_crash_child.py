"""The process the crash tests kill: a guarded ingest, or ``ont load``, into an on-disk store.

    python -m tests.reliability._crash_child ingest STORE PAIRS SEED [--no-shacl]
    python -m tests.reliability._crash_child load STORE DATASET [--no-shacl]

It writes ``start`` on stdout once it is about to write (imports done), ``commit`` right before each call that
writes to the store (every write method of the store class is wrapped to say so), and ``done`` at the end, so
the parent can aim its SIGKILL at the commit itself as well as at random moments. After ``done`` it waits for a
line (or the end) on stdin before it exits: a kill the parent aimed always finds it alive, however fast the write
was on the day, so no trial depends on how long the write takes.
"""

from __future__ import annotations

import sys
from typing import Any

WRITE_METHODS = (
    "add_ntriples",
    "add_ntriples_stream",
    "load_rdf",
    "update",
    "bulk_load",
    "bulk_add",
    "add_triples",
    "extend",
    "bulk_extend",
    "load",
    "add_quads",
    "commit",
)


def say(word: str) -> None:
    sys.stdout.write(word + "\n")
    sys.stdout.flush()


def payload(pairs: int, seed: int) -> dict[str, Any]:
    """``pairs`` people, each working for their own company, with evidence: ``2 * pairs`` entities and ``pairs``
    relations that the guard and the kg shapes accept. Ids carry ``seed`` so two batches never overlap."""
    entities: list[dict[str, Any]] = []
    relations: list[dict[str, Any]] = []
    for i in range(pairs):
        person, company = f"E_P{seed}x{i}", f"E_C{seed}x{i}"
        entities.append({"id": person, "label": f"사람{seed}-{i}", "type": "individual", "ontology_class": "Person"})
        entities.append({"id": company, "label": f"회사{seed}-{i}", "type": "individual", "ontology_class": "Company"})
        relations.append(
            {
                "id": f"R_{seed}x{i}",
                "source_id": person,
                "predicate": "worksFor",
                "target_id": company,
                "evidence": {"chunk_text": f"사람{seed}-{i}은 회사{seed}-{i}에서 일한다."},
            }
        )
    return {"entities": entities, "relations": relations}


def announce_writes() -> None:
    """Wrap every write method of the embedded store so that each write is announced before it starts."""
    from ont_platform.storage.oxigraph import OxigraphStore

    for name in WRITE_METHODS:
        original = OxigraphStore.__dict__.get(name)
        if not callable(original):
            continue

        def wrapped(self: Any, *args: Any, __original: Any = original, **kwargs: Any) -> Any:
            say("commit")
            return __original(self, *args, **kwargs)

        setattr(OxigraphStore, name, wrapped)


def main(argv: list[str]) -> int:
    code = work(argv)
    say("done")
    sys.stdin.readline()  # held until the parent lets go (or kills it)
    return code


def work(argv: list[str]) -> int:
    mode, store = argv[0], argv[1]
    shacl = "--no-shacl" not in argv
    announce_writes()
    if mode == "ingest":
        from ont_platform import KnowledgeGraph

        data = payload(int(argv[2]), int(argv[3]))
        with KnowledgeGraph.open(store) as kg:
            say("start")
            report = kg.ingest(data, domain="kg", shacl=shacl)
            if not report.accepted:
                sys.stderr.write(f"refused: {report.errors[:3]}\n")
                return 1
        return 0
    from ont_platform.cli.main import main as ont

    say("start")
    return ont(["load", argv[2], "--store", store, *(["--no-shacl"] if not shacl else [])])


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
