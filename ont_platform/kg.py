"""The public face of the library: a :class:`KnowledgeGraph` over one store.

>>> from ont_platform import KnowledgeGraph
>>> kg = KnowledgeGraph.open()                      # embedded Oxigraph, in memory
>>> report = kg.load("examples/onchain")            # doctest: +SKIP
>>> len(kg) > 0                                     # doctest: +SKIP
True
"""

from __future__ import annotations

import threading
import time
from collections.abc import Iterator
from contextlib import contextmanager, nullcontext
from dataclasses import dataclass, field
from pathlib import Path
from typing import TYPE_CHECKING, Any, NamedTuple

from rdflib import Graph, Literal, URIRef

from ont_platform.domains import Domain, get_domain, register_domain
from ont_platform.errors import DatasetError, InputError, OntologyError, Problem
from ont_platform.ingest.datasets import ShaclMode, ShaclReport, open_dataset
from ont_platform.limits import DEFAULT_LIMITS, Limits
from ont_platform.namespaces import ONT, dataset_iri
from ont_platform.qa.context import Context, ReadWriteLock, add_nodes, build_context
from ont_platform.qa.engine import Answer
from ont_platform.qa.engine import answer as answer_question
from ont_platform.rdf_terms import iri
from ont_platform.storage import BackendName, RdfFormat, Rows, Store, open_store

if TYPE_CHECKING:
    from ont_platform.ingest.extraction import IngestReport
    from ont_platform.validation import OntologyGuard
    from ont_platform.validation.rules import RuleConfig


class Traced(NamedTuple):
    """An answer and the SPARQL queries that ran to produce it, in order (:meth:`KnowledgeGraph.trace`)."""

    answer: Answer
    queries: list[str]


@dataclass
class LoadReport:
    """What a load did."""

    domain: str
    triples_added: int
    counts: dict[str, int]
    warnings: list[Problem] = field(default_factory=list)
    seconds: float = 0.0
    shacl: ShaclReport = field(default_factory=lambda: ShaclReport("off"))
    """Which SHACL pass ran (``full``, ``sampled`` or ``off``) and how many resources and triples it saw."""

    def as_dict(self) -> dict[str, object]:
        return {
            "domain": self.domain,
            "triples_added": self.triples_added,
            "counts": self.counts,
            "warnings": [str(w) for w in self.warnings],
            "seconds": round(self.seconds, 3),
            "shacl": {"mode": self.shacl.mode, "resources": self.shacl.resources, "triples": self.shacl.triples},
        }


class KnowledgeGraph:
    """A knowledge graph kept true to the bundled ontologies and shapes, over one store."""

    def __init__(self, store: Store, *, limits: Limits = DEFAULT_LIMITS) -> None:
        self.store = store
        self.limits = limits
        self._contexts: dict[str, Context] = {}
        self._domains: list[str] | None = None
        self._specs: dict[str, Domain] = {}
        """The domains of the stored datasets, as read (see :meth:`domain`)."""
        self._lock = ReadWriteLock()
        """Questions read under it; a write commits and updates the contexts holding it alone."""
        self._writer = threading.Lock()
        """One write at a time, from its checks to its commit: what an ingest checked is what it commits on."""
        self._building = threading.Lock()

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

    def load(self, folder: str | Path, *, shacl: bool | ShaclMode = True) -> LoadReport:
        """Load a dataset folder (SPEC section 3), all or nothing.

        Every row is checked against the ontology, then the new triples against the SHACL shapes; any problem
        raises :class:`DatasetError` naming file, line and reason, and the store is left unchanged.

        ``shacl``: ``True`` (``"auto"``) validates a batch of up to ``FULL_SHACL_MAX_TRIPLES`` (10,000) triples
        whole and a larger one by a bounded sample (the first resource of every row signature, a seeded sample
        of each table, every row that produced a warning, each with the neighbours its shapes need), so the
        cost of validation does not grow with the dataset; ``"full"`` validates every triple whatever the size
        (pyshacl: minutes at 100k transfers); ``"sample"`` always samples; ``False``/``"off"`` skips SHACL.
        ``LoadReport.shacl`` says which pass ran and how much it covered. See docs/validation.md.

        The rows are read, checked and written as a stream in one store transaction (no copy of the whole
        batch is held on the embedded store); a problem found late aborts that transaction. An empty on-disk
        store is bulk-loaded instead (a sixth of the memory), which a failure, or reopening after a crash,
        undoes by emptying it again.
        """
        started = time.perf_counter()
        dataset = open_dataset(folder, limits=self.limits, shacl=shacl)
        with self._writer:  # one write at a time
            if dataset.domain in self.domains():
                raise DatasetError([Problem(str(folder), None, f"this store already holds a {dataset.domain} "
                                            "dataset; open a new store (or clear this one) to load another")])
            before = len(self.store)
            # Into a non-empty store the load is one transaction and questions go on beside it. Into an empty
            # one an on-disk store bulk-loads, which readers could see half done: questions wait (there is
            # nothing to ask about yet anyway).
            with self._lock.writing() if before == 0 else nullcontext():
                self.store.add_ntriples_stream(dataset.chunks())
            with self._lock.writing():
                # a new domain: the contexts of the others stay valid (each lexicon reads its own domain only)
                self._added(dataset.domain, [])
            added = len(self.store) - before
        return LoadReport(
            domain=dataset.domain,
            triples_added=added,
            counts=dataset.counts,
            warnings=dataset.warnings,
            seconds=time.perf_counter() - started,
            shacl=dataset.shacl,
        )

    def ingest(self, payload: Any, *, guard: OntologyGuard | None = None, domain: str | None = None,
               shacl: bool = True, config: RuleConfig | None = None) -> IngestReport:
        """Add extracted entities and relations (an ``OntologyExtractionResult``, a dict or JSON text), all or
        nothing: the guard checks the payload, the new facts are validated with the SHACL shapes together with
        the stored neighbours they touch (not the whole graph), and the batch is committed in one transaction.
        The report says whether it was ``accepted``, with the errors and counts. See docs/validation.md."""
        from ont_platform.ingest.extraction import check_extraction

        with self._writer:
            pending = check_extraction(self, payload, guard=guard, domain=domain, shacl=shacl, config=config)
            if not pending.ready:
                return pending.report
            nodes = pending.nodes
            with self._lock.writing():
                before = self.store.generation
                report = pending.commit()
                try:
                    self._added(report.domain, nodes, pending.written, before)
                except BaseException:
                    self._drop_derived()  # the batch is in; what the contexts know of it is not certain
                    raise
            return report

    def domain(self, name: str) -> Domain:
        """The :class:`~ont_platform.domains.Domain` of a dataset in this graph: a user's domain as the
        ontology its load stored says (the same object as the one registered in this process, which must hold
        the same ontology), else a bundled or registered one. Raises InputError for an unknown name, or for a
        stored ontology that differs from the one this process knows by that name."""
        spec = self._specs.get(name)
        if spec is not None:
            return spec
        rows = self.store.select(
            f"SELECT ?o ?s WHERE {{ {iri(dataset_iri(name))} {iri(ONT.ontologyText)} ?o . "
            f"OPTIONAL {{ {iri(dataset_iri(name))} {iri(ONT.shapesText)} ?s }} }} LIMIT 1")
        if not rows or rows[0]["o"] is None:
            spec = get_domain(name)
        else:
            shapes = rows[0].get("s")
            try:
                stored = Domain.from_text(name, str(rows[0]["o"]), str(shapes) if shapes is not None else None,
                                          ontology_label=f"the {name} ontology stored in this graph", check=False)
                spec = register_domain(stored)
            except OntologyError as exc:
                raise InputError(f"the {name} ontology stored in this graph cannot be used: {exc}") from exc
        self._specs[name] = spec
        return spec

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
        data = source.read_bytes()
        with self._writing():
            before = len(self.store)
            self.store.load_rdf(data, fmt)
            self._drop_derived()  # arbitrary triples: any name, class or dataset may have changed
            return len(self.store) - before

    # -- questions ---------------------------------------------------------------------------------------------

    def ask(self, question: str, *, domain: str | None = None, qid: str | None = None) -> Answer:
        """Answer a question with the contract of the graph's domain (``OnchainAnswer``, ``HopDecision`` or
        ``PageFilterResult``): the path and its evidence, or an honest refusal.

        ``domain`` is needed only when the graph holds more than one dataset; ``qid`` is copied into the
        contract's id field (``q_id`` / ``query_id``). The SPARQL that decides the answer on the store is in
        ``generated_query`` where the contract has it.
        """
        return self.trace(question, domain=domain, qid=qid).answer

    def trace(self, question: str, *, domain: str | None = None, qid: str | None = None) -> Traced:
        """:meth:`ask`, with the SPARQL queries that ran to produce the answer, in order (the admin page and
        ``/api/v1/ask/trace`` show them). Safe to call from many threads at once, also while another thread
        writes: the answer is read from one committed state (before or after a write)."""
        with self._lock.reading():
            ctx = self._context(domain).for_question()
            answer = answer_question(ctx, question, qid if qid is not None else "q")
        return Traced(answer, ctx.queries)

    def _invalidate(self) -> None:
        """Drop what was derived from the data (question contexts, the loaded domains) after a write that may
        have changed anything. The caller must not hold the lock."""
        with self._lock.writing():
            self._drop_derived()

    def _drop_derived(self) -> None:
        self._contexts = {}
        self._domains = None
        self._specs = {}

    def _added(self, domain: str, nodes: list[URIRef], written: list[tuple[str, str, str]] | None = None,
               before: int | None = None) -> None:
        """Bring what was derived from the data up to date after a write that only added ``domain`` data about
        ``nodes`` (an ingest; a load passes no nodes: its domain is new, so it has no context yet): the triples
        ``written`` (N-Triples terms), which moved the store on from generation ``before``. Hold the lock for
        writing: questions must not see the store and the lexicon (or the edge mirrors) disagree."""
        if self._domains is not None and domain not in self._domains:
            self._domains = sorted([*self._domains, domain])
        ctx = self._contexts.get(domain)
        if ctx is not None and nodes:
            add_nodes(ctx, nodes)
        for other in self._contexts.values():  # an edge mirror not told about a write is read again when used
            if written:
                other.mirrors.follow(self.store, written, before)

    @contextmanager
    def _writing(self) -> Iterator[None]:
        """Hold the graph for one write: no other write, and no question, until it is committed and the contexts
        are up to date (``_added`` or ``_drop_derived`` inside)."""
        with self._writer, self._lock.writing():
            yield

    def context(self, domain: str | None = None) -> Context:
        """The question context of ``domain`` (its ontology, lexicon and store) that :meth:`ask` reads with: built
        on first use, rebuilt after a write that may change it. For tools that read questions the way ``ask``
        does (the verifier, the extractors, the admin page); call ``for_question()`` on it per question."""
        with self._lock.reading():
            return self._context(domain)

    def _context(self, domain: str | None) -> Context:
        """The shared context of ``domain`` (built on first use). Hold the lock for reading."""
        loaded = self._domains
        if loaded is None:  # one query per write, not one per question
            loaded = self._domains = self.domains()
        if domain is None:
            if len(loaded) != 1:
                raise InputError("this graph holds " + (f"{', '.join(loaded)}: pass domain=" if loaded
                                                        else "no dataset: load one first"))
            domain = loaded[0]
        elif domain not in loaded:
            raise InputError(f"no {domain} dataset in this graph (loaded: {', '.join(loaded) or 'none'})")
        ctx = self._contexts.get(domain)
        if ctx is None:
            with self._building:  # questions arriving together build it once
                ctx = self._contexts.get(domain)
                if ctx is None:
                    ctx = self._contexts[domain] = build_context(self.store, self.domain(domain), self.limits)
        return ctx

    # -- reading -----------------------------------------------------------------------------------------------

    def select(self, query: str) -> Rows:
        """Run a SPARQL SELECT or ASK written by the caller (notebooks, tests), after checking it, with limits.

        The text is parsed with rdflib's parser first and refused with :class:`QueryRefused` unless it is a
        read of the loaded graph: no updates, ``SERVICE``, ``LOAD``, ``FROM`` or ``GRAPH``, and no unbounded
        ``*``/``+`` paths (both engines would fetch URLs for ``SERVICE``; ``p*`` can walk the whole graph).
        A query that passes can still be slow (a cross product, a long chain of steps): it runs with
        ``limits.query_timeout_s`` and is stopped with :class:`QueryTimeout` past it. At most
        ``limits.max_result_rows`` rows are returned; ``rows.truncated`` says whether there were more. An ASK
        gives ``[{"result": true|false}]``.
        """
        from ont_platform.verify.query import inspect_query

        checked = inspect_query(query, timeout=self.limits.query_timeout_s)
        if checked.form == "ASK":
            return Rows([{"result": Literal(self.store.ask(query, timeout=self.limits.query_timeout_s,
                                                           untrusted=True))}])
        return self.store.select(query, timeout=self.limits.query_timeout_s, max_rows=self.limits.max_result_rows,
                                 untrusted=True)

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
