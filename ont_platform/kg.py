"""The public face of the library: a :class:`KnowledgeGraph` over one store.

>>> from ont_platform import KnowledgeGraph
>>> kg = KnowledgeGraph.open()                      # embedded Oxigraph, in memory
>>> report = kg.load("examples/onchain")            # doctest: +SKIP
>>> len(kg) > 0                                     # doctest: +SKIP
True
"""

from __future__ import annotations

import time
from dataclasses import dataclass, field
from pathlib import Path
from typing import TYPE_CHECKING, Any

from rdflib import Graph, Literal

from ont_platform.errors import DatasetError, InputError, Problem
from ont_platform.ingest.datasets import build_dataset
from ont_platform.limits import DEFAULT_LIMITS, Limits
from ont_platform.namespaces import ONT
from ont_platform.ontology.shacl import check
from ont_platform.qa.context import Context, build_context
from ont_platform.qa.engine import Answer
from ont_platform.qa.engine import answer as answer_question
from ont_platform.rdf_terms import iri
from ont_platform.storage import BackendName, RdfFormat, Row, Store, open_store

if TYPE_CHECKING:
    from ont_platform.ingest.extraction import IngestReport
    from ont_platform.validation import OntologyGuard
    from ont_platform.validation.rules import RuleConfig


@dataclass
class LoadReport:
    """What a load did."""

    domain: str
    triples_added: int
    counts: dict[str, int]
    warnings: list[Problem] = field(default_factory=list)
    seconds: float = 0.0

    def as_dict(self) -> dict[str, object]:
        return {
            "domain": self.domain,
            "triples_added": self.triples_added,
            "counts": self.counts,
            "warnings": [str(w) for w in self.warnings],
            "seconds": round(self.seconds, 3),
        }


class KnowledgeGraph:
    """A knowledge graph kept true to the bundled ontologies and shapes, over one store."""

    def __init__(self, store: Store, *, limits: Limits = DEFAULT_LIMITS) -> None:
        self.store = store
        self.limits = limits
        self._contexts: dict[str, Context] = {}
        self._domains: list[str] | None = None

    @classmethod
    def open(
        cls,
        path: str | Path | None = None,
        backend: BackendName = "oxigraph",
        endpoint: str | None = None,
        *,
        update_endpoint: str | None = None,
        graph: Graph | None = None,
        graph_iri: str | None = None,
        headers: dict[str, str] | None = None,
        limits: Limits = DEFAULT_LIMITS,
    ) -> KnowledgeGraph:
        """Open a graph: embedded Oxigraph by default (in memory, or on disk at ``path``), ``backend="rdflib"``
        (optionally over your own ``graph``), or ``backend="remote"`` with SPARQL ``endpoint`` URLs (working in
        the named graph ``graph_iri``, sending ``headers``; see docs/remote-endpoints.md).

        Raises :class:`~ont_platform.errors.StoreLockedError` when another process holds ``path``.
        """
        store = open_store(backend, path=path, endpoint=endpoint, update_endpoint=update_endpoint, graph=graph,
                           graph_iri=graph_iri, headers=headers)
        return cls(store, limits=limits)

    # -- datasets ----------------------------------------------------------------------------------------------

    def load(self, folder: str | Path, *, shacl: bool = True) -> LoadReport:
        """Load a dataset folder (SPEC section 3), all or nothing.

        Every row is checked against the ontology, then the new triples against the SHACL shapes; any problem
        raises :class:`DatasetError` naming file, line and reason, and the store is left unchanged.
        """
        started = time.perf_counter()
        built = build_dataset(folder, limits=self.limits)
        if built.domain in self.domains():
            raise DatasetError([Problem(str(folder), None, f"this store already holds a {built.domain} dataset; "
                                        "open a new store (or clear this one) to load another")])
        data = built.batch.text()
        if shacl:
            graph = Graph()
            graph.parse(data=data, format="nt")
            violations = check(graph, built.domain)
            if violations:
                problems = []
                for v in violations:
                    file, line = built.batch.origin.get(v.focus, (str(folder), None))
                    where = f" ({v.path.rsplit('#', 1)[-1]})" if v.path else ""
                    problems.append(Problem(file, line, f"{v.message}{where} [{v.focus.rsplit('/', 1)[-1]}]"))
                raise DatasetError(problems)
        before = len(self.store)
        self.store.add_ntriples(data)
        self._invalidate()
        return LoadReport(
            domain=built.domain,
            triples_added=len(self.store) - before,
            counts=built.counts,
            warnings=built.warnings,
            seconds=time.perf_counter() - started,
        )

    def ingest(self, payload: Any, *, guard: OntologyGuard | None = None, domain: str | None = None,
               shacl: bool = True, config: RuleConfig | None = None) -> IngestReport:
        """Add extracted entities and relations (an ``OntologyExtractionResult``, a dict or JSON text), all or
        nothing: the guard checks the payload, the new facts are validated with the SHACL shapes together with
        the stored neighbours they touch (not the whole graph), and the batch is committed in one transaction.
        The report says whether it was ``accepted``, with the errors and counts. See docs/validation.md."""
        from ont_platform.ingest.extraction import ingest

        report = ingest(self, payload, guard=guard, domain=domain, shacl=shacl, config=config)
        if report.accepted:
            self._invalidate()
        return report

    def domains(self) -> list[str]:
        """Domains of the datasets loaded into this graph."""
        rows = self.store.select(
            f"SELECT DISTINCT ?d WHERE {{ ?ds a {iri(ONT.Dataset)} ; {iri(ONT.domain)} ?d }} ORDER BY ?d LIMIT 100"
        )
        return [str(r["d"]) for r in rows if r["d"] is not None]

    # -- RDF in and out ----------------------------------------------------------------------------------------

    def export(self, path: str | Path, format: str | None = None) -> Path:
        """Write the whole graph to ``path`` as Turtle, N-Triples or JSON-LD (from ``format`` or the suffix)."""
        target = Path(path)
        fmt = RdfFormat.parse(format or target.suffix or "nt")
        target.write_bytes(self.store.dump(fmt))
        return target

    def dumps(self, format: str = "nt") -> bytes:
        """The whole graph serialised."""
        return self.store.dump(RdfFormat.parse(format))

    def import_rdf(self, path: str | Path, format: str | None = None) -> int:
        """Add the triples of an RDF file, all or nothing; returns how many triples were new."""
        source = Path(path)
        if not source.is_file():
            raise InputError(f"no such file: {source}")
        size = source.stat().st_size
        if size > self.limits.max_file_bytes:
            raise InputError(f"{source} is {size} bytes, over the limit of {self.limits.max_file_bytes}")
        fmt = RdfFormat.parse(format or source.suffix)
        before = len(self.store)
        self.store.load_rdf(source.read_bytes(), fmt)
        self._invalidate()
        return len(self.store) - before

    # -- questions ---------------------------------------------------------------------------------------------

    def ask(self, question: str, *, domain: str | None = None, qid: str | None = None) -> Answer:
        """Answer a question with the contract of the graph's domain (``OnchainAnswer``, ``HopDecision`` or
        ``PageFilterResult``): the path and its evidence, or an honest refusal.

        ``domain`` is needed only when the graph holds more than one dataset; ``qid`` is copied into the
        contract's id field (``q_id`` / ``query_id``). The SPARQL that decided the answer is in
        ``generated_query`` where the contract has it.
        """
        ctx = self._context(domain)
        return answer_question(ctx, question, qid if qid is not None else "q")

    def _invalidate(self) -> None:
        """Drop what was derived from the data (question contexts, the loaded domains) after a write."""
        self._contexts.clear()
        self._domains = None

    def _context(self, domain: str | None) -> Context:
        if self._domains is None:  # one query per write, not one per question
            self._domains = self.domains()
        loaded = self._domains
        if domain is None:
            if len(loaded) != 1:
                raise InputError("this graph holds " + (f"{', '.join(loaded)}: pass domain=" if loaded
                                                        else "no dataset: load one first"))
            domain = loaded[0]
        elif domain not in loaded:
            raise InputError(f"no {domain} dataset in this graph (loaded: {', '.join(loaded) or 'none'})")
        if domain not in self._contexts:
            self._contexts[domain] = build_context(self.store, domain, self.limits)
        ctx = self._contexts[domain]
        ctx.queries.clear()
        return ctx

    # -- reading -----------------------------------------------------------------------------------------------

    def select(self, query: str) -> list[Row]:
        """Run a SPARQL SELECT or ASK written by the caller (notebooks, tests), after checking it.

        The text is parsed with rdflib's parser first and refused with :class:`QueryRefused` unless it is a
        read of the loaded graph: no updates, ``SERVICE``, ``LOAD``, ``FROM`` or ``GRAPH``, and no unbounded
        ``*``/``+`` paths (both engines would fetch URLs for ``SERVICE``; ``p*`` can walk the whole graph).
        At most ``limits.max_result_rows`` rows are returned; an ASK gives ``[{"result": true|false}]``.
        """
        from ont_platform.verify.query import inspect_query

        checked = inspect_query(query)
        if checked.form == "ASK":
            return [{"result": Literal(self.store.ask(query, timeout=self.limits.query_timeout_s))}]
        rows = self.store.select(query, timeout=self.limits.query_timeout_s)
        return rows[: self.limits.max_result_rows]

    def __len__(self) -> int:
        return len(self.store)

    def close(self) -> None:
        """Release the store. Idempotent."""
        self.store.close()

    def __enter__(self) -> KnowledgeGraph:
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()

    def __repr__(self) -> str:
        return f"KnowledgeGraph(backend={self.store.backend!r})"
