"""The public face of the library: a :class:`KnowledgeGraph` over one store.

>>> from ont_platform import KnowledgeGraph
>>> kg = KnowledgeGraph.open()                      # embedded Oxigraph, in memory
>>> report = kg.load("examples/onchain")            # doctest: +SKIP
>>> len(kg) > 0                                     # doctest: +SKIP
True
"""

from __future__ import annotations

import json
import re
import threading
import time
from collections.abc import Iterable, Iterator, Sequence
from contextlib import contextmanager, nullcontext
from dataclasses import dataclass, field
from pathlib import Path
from typing import TYPE_CHECKING, Any, NamedTuple

from rdflib import OWL, RDF, RDFS, SKOS, XSD, BNode, Graph, Literal, URIRef, Variable
from rdflib.term import Node

from ont_platform.domains import Domain, get_domain, register_domain
from ont_platform.errors import (
    InputError,
    OntologyError,
    Problem,
    QueryError,
    QueryRefused,
    QueryTimeout,
    StoreError,
)
from ont_platform.families import DEFAULT_FAMILY
from ont_platform.ingest import increments
from ont_platform.ingest.datasets import DatasetLoad, ShaclMode, ShaclReport, open_dataset
from ont_platform.ingest.retract import RetractReport
from ont_platform.ingest.retract import retract as retract_facts
from ont_platform.limits import DEFAULT_LIMITS, Limits
from ont_platform.namespaces import ETHON, GS, KG, OC, ONT, PG, dataset_iri
from ont_platform.qa.context import Context, ReadWriteLock, add_nodes, build_context
from ont_platform.qa.names import extend_kept
from ont_platform.rdf_terms import iri
from ont_platform.reasoning import Entailments
from ont_platform.sparql.inspect import TriplePattern
from ont_platform.storage import BackendName, RdfFormat, Rows, Store, open_store
from ont_platform.storage.base import ResultRow
from ont_platform.storage.rdf_io import parse_graph

if TYPE_CHECKING:
    from ont_platform.ingest.extraction import IngestReport
    from ont_platform.qa.engine import Answer
    from ont_platform.validation import OntologyGuard
    from ont_platform.validation.rules import RuleConfig


Triple = tuple[Node, Node, Node]


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
    added: int | None = None
    """Resources (nodes, edges, chunks, pages, dictionary rows) new to the store; ``None`` on a first load."""
    unchanged: int = 0
    """Resources of the folder the store already held exactly (an incremental load skips them)."""
    replaced: int = 0
    """Resources whose values an ``upsert`` load replaced."""
    entailments: list[Entailments] = field(default_factory=list)
    """With ``reasoning=True``: what each loaded domain's ontology entails, computed after the load."""

    def _repr_html_(self) -> str:
        """:meth:`as_dict` as a table, for notebooks."""
        from ont_platform.answer.html import table

        return table(type(self).__name__, self.as_dict())

    def as_dict(self) -> dict[str, object]:
        return {
            "domain": self.domain,
            "triples_added": self.triples_added,
            "added": self.added,
            "unchanged": self.unchanged,
            "replaced": self.replaced,
            "entailments": [e.as_dict() for e in self.entailments],
            "counts": self.counts,
            "warnings": [str(w) for w in self.warnings],
            "seconds": round(self.seconds, 3),
            "shacl": {
                "mode": self.shacl.mode,
                "resources": self.shacl.resources,
                "triples": self.shacl.triples,
                "sampled_shapes": list(self.shacl.sampled_shapes),
                "sample_resources": self.shacl.sample_resources,
            },
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
        read_only: bool = False,
    ) -> KnowledgeGraph:
        """Open a graph: embedded Oxigraph by default (in memory, or on disk at ``path``), ``backend="rdflib"``
        (optionally over your own ``graph``), or ``backend="remote"`` with SPARQL ``endpoint`` URLs (working in
        the named graph ``graph_iri``, sending ``headers``; see docs/remote-endpoints.md).

        Raises :class:`~ont_platform.errors.StoreLockedError` when another process holds ``path``; with
        ``read_only=True`` the store at ``path`` is opened beside that process instead, as it is at that moment
        (questions, queries and exports work; every write raises :class:`~ont_platform.errors.StoreError`).
        """
        store = open_store(
            backend,
            path=path,
            endpoint=endpoint,
            update_endpoint=update_endpoint,
            graph=graph,
            graph_iri=graph_iri,
            headers=headers,
            read_only=read_only,
        )
        return cls(store, limits=limits)

    # -- datasets ----------------------------------------------------------------------------------------------

    def load(
        self,
        folder: str | Path,
        *,
        shacl: bool | ShaclMode = True,
        mode: str = "strict",
        ontology: str | Path | None = None,
        shapes: str | Path | None = None,
        reasoning: bool = False,
    ) -> LoadReport:
        """Load a dataset (SPEC section 3), all or nothing: a folder of tables, or RDF data — a file or a folder
        of files (Turtle, N-Triples, RDF/XML, JSON-LD …) kept with its own IRIs (docs/your-rdf.md).

        Every row is checked against the ontology, then the new triples against the SHACL shapes; any problem
        raises :class:`DatasetError` naming file, line and reason, and the store is left unchanged.

        Into a store that already holds the folder's domain the load is incremental
        (:mod:`ont_platform.ingest.increments`): resources the store lacks are added, identical ones are
        skipped and counted, and one that differs refuses the whole load naming its file, line and fields --
        unless ``mode="upsert"``, which replaces its values (not what it links to). The report's ``added``,
        ``unchanged`` and ``replaced`` count resources.

        ``shacl``: ``True`` (``"auto"``) validates a batch of up to ``FULL_SHACL_MAX_TRIPLES`` (10,000) triples
        whole and a larger one by a bounded sample (the first resource of every row signature, a seeded sample
        of each table, every row that produced a warning, each with the neighbours its shapes need), so the
        cost of validation does not grow with the dataset; ``"full"`` validates every triple whatever the size
        (pyshacl: minutes at 100k transfers); ``"sample"`` always samples; ``False``/``"off"`` skips SHACL.
        ``LoadReport.shacl`` says which pass ran and how much it covered. See docs/validation.md.

        ``ontology`` and ``shapes``: the files a dataset is checked against when it does not bring them itself
        (``ontology.ttl`` and ``shapes.ttl`` in its folder): an RDF file's ontology, or another ontology for a
        folder of kg tables.

        The rows are read, checked and written as a stream in one store transaction (no copy of the whole
        batch is held on the embedded store); a problem found late aborts that transaction. An empty on-disk
        store is bulk-loaded instead (a sixth of the memory), which a failure, or reopening after a crash,
        undoes by emptying it again.

        ``reasoning=True`` also computes, once the load is committed, what the ontologies of the graph's domains
        entail from the data (:meth:`entailments`; ``LoadReport.entailments``), so that the first
        ``query(..., reasoning=True)`` does not pay for it. Without it they are computed at that query.
        """
        if not isinstance(reasoning, bool):
            raise InputError(f"reasoning is True or False, not {reasoning!r}")
        report = self._load(folder, shacl=shacl, mode=mode, ontology=ontology, shapes=shapes)
        if reasoning:
            report.entailments = self.entailments()
        return report

    def _load(
        self,
        folder: str | Path,
        *,
        shacl: bool | ShaclMode,
        mode: str,
        ontology: str | Path | None,
        shapes: str | Path | None,
    ) -> LoadReport:
        started = time.perf_counter()
        load_mode = increments.mode_of(mode)
        dataset = open_dataset(folder, limits=self.limits, shacl=shacl, ontology=ontology, shapes=shapes)
        with self._writer:  # one write at a time
            if dataset.domain in self.domains():
                if not isinstance(dataset, DatasetLoad):
                    raise InputError(
                        f"this graph already holds the {dataset.domain} dataset; loading more {dataset.spec.family} "
                        "data into it is not supported yet: load it into a new graph, or clear this one first"
                    )
                return self._load_more(dataset, load_mode, started)
            before = len(self.store)
            stamp = self.store.stamp
            # Into a non-empty store the load is one transaction and questions go on beside it. Into an empty
            # one an on-disk store bulk-loads, which readers could see half done: questions wait (there is
            # nothing to ask about yet anyway).
            with self._lock.writing() if before == 0 else nullcontext():
                try:
                    # a bulk load finishes its files while the row checks beside it (if any) end
                    chunks = dataset.chunks(settle_later=True)
                    self.store.add_ntriples_stream(chunks, before_commit=dataset.settle)
                finally:
                    dataset.close()
            with self._lock.writing():
                # a new domain: the contexts of the others stay valid (each lexicon reads its own domain only)
                self._added(dataset.domain, [], stamp=stamp)
            added = len(self.store) - before
        return LoadReport(
            domain=dataset.domain,
            triples_added=added,
            counts=dataset.counts,
            warnings=dataset.warnings,
            seconds=time.perf_counter() - started,
            shacl=dataset.shacl,
        )

    def _load_more(self, dataset: DatasetLoad, mode: increments.LoadMode, started: float) -> LoadReport:
        """A folder of a domain the store holds: compared, then written in one request (hold ``_writer``)."""
        onto = dataset.spec.ontology
        relations = frozenset({r.iri for r in onto.relations.values()} | set(onto.super_relations.values()))
        before = len(self.store)
        change = increments.plan(
            self.store,
            dataset.chunks(),
            relations,
            mode,
            dataset.origin,
            fixed=frozenset({ONT.ontologyText, ONT.shapesText, ONT.domain}),
            max_problems=self.limits.max_problems,
        )
        with self._lock.writing():
            change.apply(self.store)
            self._drop_derived()  # names, aliases and edges may all have changed
        return LoadReport(
            domain=dataset.domain,
            triples_added=len(self.store) - before,
            counts=dataset.counts,
            warnings=dataset.warnings,
            seconds=time.perf_counter() - started,
            shacl=dataset.shacl,
            added=change.added,
            unchanged=change.unchanged,
            replaced=change.replaced,
        )

    def ingest(
        self,
        payload: Any,
        *,
        guard: OntologyGuard | None = None,
        domain: str | None = None,
        shacl: bool = True,
        config: RuleConfig | None = None,
    ) -> IngestReport:
        """Add extracted entities and relations (an ``OntologyExtractionResult``, a dict or JSON text), all or
        nothing: the guard checks the payload, the new facts are validated with the SHACL shapes together with
        the stored neighbours they touch (not the whole graph), and the batch is committed in one transaction.
        The report says whether it was ``accepted``, with the errors and counts. See docs/validation.md."""
        from ont_platform.ingest.extraction import check_extraction

        with self._writer:
            pending = check_extraction(self, payload, guard=guard, domain=domain, shacl=shacl, config=config)
            if not pending.ready:
                return pending.report
            nodes, about = pending.nodes, pending.about_nodes()
            with self._lock.writing():
                before, stamp = self.store.generation, self.store.stamp
                report = pending.commit()
                try:
                    self._added(report.domain, nodes, pending.written, before, stamp=stamp, about=about)
                except BaseException:
                    self._drop_derived()  # the batch is in; what the contexts know of it is not certain
                    raise
            return report

    def retract(
        self,
        edge_ids: Iterable[str] = (),
        *,
        node_ids: Iterable[str] = (),
        reason: str,
        by: str | None = None,
        domain: str | None = None,
    ) -> RetractReport:
        """Take relations (``edge_ids``) and nodes (``node_ids``, with every relation touching them) back, all or
        nothing, recording who, when and why as PROV-O (:mod:`ont_platform.ingest.retract`). A retracted
        relation is never walked or cited again; its id stays taken. ``domain`` may be left out when the graph
        holds one domain. Raises InputError, changing nothing, for an unknown or retracted id or no reason."""
        edges, nodes = [str(e) for e in edge_ids], [str(n) for n in node_ids]
        with self._writer:
            held = self.domains()
            if domain is None:
                if len(held) != 1:
                    raise InputError(f"say which domain to retract from (this graph holds {', '.join(held) or 'none'})")
                domain = held[0]
            elif domain not in held:
                raise InputError(f"this graph holds no {domain} dataset")
            with self._lock.writing():
                report = retract_facts(self.store, domain, edge_ids=edges, node_ids=nodes, reason=reason, by=by)
                self._drop_derived()  # names, edges and mirrors may all have lost something
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
            f"SELECT ?o ?s ?f WHERE {{ {iri(dataset_iri(name))} {iri(ONT.ontologyText)} ?o . "
            f"OPTIONAL {{ {iri(dataset_iri(name))} {iri(ONT.shapesText)} ?s }} "
            f"OPTIONAL {{ {iri(dataset_iri(name))} {iri(ONT.family)} ?f }} }} LIMIT 1"
        )
        if not rows or rows[0]["o"] is None:
            spec = get_domain(name)
        else:
            shapes, family = rows[0].get("s"), rows[0].get("f")
            try:
                stored = Domain.from_text(
                    name,
                    str(rows[0]["o"]),
                    str(shapes) if shapes is not None else None,
                    ontology_label=f"the {name} ontology stored in this graph",
                    check=False,
                    family=str(family) if family is not None else DEFAULT_FAMILY,
                )
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

    def serialize(self, destination: str | Path | None = None, format: str = "turtle") -> str | Path:
        """The whole graph as text (``str``) without ``destination``; with one, the text is written to that file
        and its :class:`~pathlib.Path` returned. ``format``: ``turtle`` (``ttl``), ``nt`` (``ntriples``),
        ``json-ld`` (``jsonld``) or ``xml`` (RDF/XML, also ``rdf``).

        Why rdflib's signature: code that serialises an ``rdflib.Graph`` works on a KnowledgeGraph unchanged
        (rdflib returns the graph itself when it writes a file; here the path is returned, as ``export`` did).
        JSON-LD carries an ``@context`` of the project's prefixes (:data:`PREFIXES`) so that property names
        read ``oc:from``; every literal stays a string ``@value`` with its datatype, because a JSON number
        cannot hold a wei amount above 2^64 exactly. RDF/XML is written by rdflib from a copy of the graph in
        memory; a predicate with no XML name (``urn:p``) cannot be written in it and raises
        :class:`InputError`. Like ``export``, no row limit applies: the whole graph is what was asked for.
        """
        data = self._serialized(format)
        if destination is None:
            return data.decode("utf-8")
        target = Path(destination)
        target.write_bytes(data)
        return target

    def export(self, path: str | Path, format: str | None = None) -> Path:
        """Alias of :meth:`serialize`, kept for one release: write the whole graph to ``path`` in ``format``, or
        in the format its suffix names (``.ttl``, ``.nt``, ``.jsonld``, ``.rdf``/``.xml``; N-Triples without
        one), and return the path."""
        target = Path(path)
        target.write_bytes(self._serialized(format or target.suffix or "nt"))
        return target

    def dumps(self, format: str = "nt") -> bytes:
        """Alias of :meth:`serialize`, kept for one release: the whole graph serialised, as UTF-8 bytes."""
        return self._serialized(format)

    def _serialized(self, format: str) -> bytes:
        name = format.lower().lstrip(".") if isinstance(format, str) else ""
        if name in _RDFXML_NAMES:
            return self._rdfxml()
        try:
            fmt = RdfFormat.parse(name)
        except InputError:
            raise InputError(
                f"unknown RDF format {format!r}; use one of: turtle (ttl), nt (ntriples), json-ld (jsonld), xml (rdf)"
            ) from None
        data = self.store.dump(fmt)
        return _with_context(data) if fmt is RdfFormat.JSONLD else data

    def _rdfxml(self) -> bytes:
        from ont_platform.storage.rdf_io import parse_graph

        graph = parse_graph(self.store.dump(RdfFormat.NTRIPLES), RdfFormat.NTRIPLES)
        for prefix, namespace in PREFIXES.items():
            graph.bind(prefix, namespace)
        try:
            out = graph.serialize(format="xml", encoding="utf-8")
        except Exception as exc:  # rdflib raises a bare Exception for a predicate it cannot split into a QName
            raise InputError(
                f"this graph cannot be written as RDF/XML ({str(exc)[:200]}); use turtle, nt or json-ld"
            ) from exc
        return out if isinstance(out, bytes) else out.encode("utf-8")

    def import_rdf(self, path: str | Path, format: str | None = None, *, check: bool = True) -> int:
        """Add the triples of an RDF file, all or nothing; returns how many triples were new.

        With ``check`` (the default) the file is checked like a load first (:mod:`ont_platform.ingest.imports`):
        the classes its resources get, their disjointness, and the domain's shapes on the new triples with what
        the store says about the resources they touch; any problem raises DatasetError and nothing is written.
        ``check=False`` adds the triples as they are."""
        source = Path(path)
        if not source.is_file():
            raise InputError(f"no such file: {source}")
        size = source.stat().st_size
        if size > self.limits.max_file_bytes:
            raise InputError(f"{source} is {size} bytes, over the limit of {self.limits.max_file_bytes}")
        fmt = RdfFormat.parse(format or source.suffix)
        data = source.read_bytes()
        with self._writing():
            if check:
                graph = parse_graph(data, fmt)  # nothing fetched: remote JSON-LD contexts are refused
                from ont_platform.ingest.imports import check_import  # pyshacl: loaded only to check an import

                check_import(self.store, graph, str(source), self.domain, self.limits.max_problems)
            before = len(self.store)
            self.store.load_rdf(data, fmt)
            self._drop_derived()  # arbitrary triples: any name, class or dataset may have changed
            return len(self.store) - before

    def clear(self) -> None:
        """Remove every triple, the dataset records included, and forget what was derived from them (question
        contexts, loaded domains, stored ontologies), as :meth:`import_rdf` does after a write that may have
        changed anything; afterwards :meth:`load` accepts any domain again. Waits for running questions and
        writes, and questions wait for it. rdflib's ``Graph.remove((None, None, None))`` in one store call.
        """
        with self._writing():
            try:
                self.store.clear()
            finally:
                self._drop_derived()  # even a failed clear may have removed part of the data

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
            from ont_platform.qa.engine import answer as answer_question  # the reader: loaded at the first ask

            answer = answer_question(ctx, question, qid if qid is not None else "q")
        return Traced(answer, ctx.queries)

    def labels(self, node_ids: Iterable[str], *, domain: str | None = None) -> dict[str, str]:
        """The ``rdfs:label`` of each node id of ``domain`` that has one (ids without one are left out), for
        showing names beside the ids an answer's contract fields hold:

        >>> kg = KnowledgeGraph.open(); _ = kg.load("examples/kg", shacl=False)
        >>> kg.labels(["pl_seoul", "no_such_node"])
        {'pl_seoul': '서울'}
        """
        with self._lock.reading():
            return self._context(domain).for_question().labels(node_ids)

    def _invalidate(self) -> None:
        """Drop what was derived from the data (question contexts, the loaded domains) after a write that may
        have changed anything. The caller must not hold the lock."""
        with self._lock.writing():
            self._drop_derived()

    def _drop_derived(self) -> None:
        self._contexts = {}
        self._domains = None
        self._specs = {}

    def _added(
        self,
        domain: str,
        nodes: list[URIRef],
        written: list[tuple[str, str, str]] | None = None,
        before: int | None = None,
        *,
        stamp: str | None = None,
        about: Sequence[tuple[Node, Node, Node]] | None = None,
    ) -> None:
        """Bring what was derived from the data up to date after a write that only added ``domain`` data about
        ``nodes`` (an ingest; a load passes no nodes: its domain is new, so it has no context yet): the triples
        ``written`` (N-Triples terms), which moved the store on from generation ``before`` and from
        :attr:`~ont_platform.storage.Store.stamp` ``stamp``; ``about``, when given, every triple about ``nodes``
        the store now holds (their names are taken from it rather than read again). Hold the lock for writing:
        questions must not see the store and the lexicon (or the edge mirrors) disagree."""
        if self._domains is not None and domain not in self._domains:
            self._domains = sorted([*self._domains, domain])
        after = self.store.stamp
        for name, ctx in self._contexts.items():
            pairs = add_nodes(ctx, nodes, about) if name == domain and nodes else []
            ctx.follow_names(stamp, after, pairs)  # names kept beside the store: the write's part of the chain
            if written:  # an edge mirror not told about a write is read again when used
                ctx.mirrors.follow(self.store, written, before)
        for name in self._domains or []:
            if name not in self._contexts and name != domain:
                extend_kept(self.store, name, stamp, after)  # names of a domain no question read yet

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
                raise InputError(
                    "this graph holds "
                    + (f"{', '.join(loaded)}: pass domain=" if loaded else "no dataset: load one first")
                )
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

    def select(self, query: str, *, reasoning: bool = False) -> Rows:
        """Run a SPARQL SELECT or ASK written by the caller (notebooks, tests), after checking it, with limits.

        The text is parsed with rdflib's parser first and refused with :class:`QueryRefused` unless it is a
        read of the loaded graph: no updates, ``SERVICE``, ``LOAD``, ``FROM`` or ``GRAPH``, and no unbounded
        ``*``/``+`` paths (both engines would fetch URLs for ``SERVICE``; ``p*`` can walk the whole graph).
        A query that passes can still be slow (a cross product, a long chain of steps): it runs with
        ``limits.query_timeout_s`` and is stopped with :class:`QueryTimeout` past it. At most
        ``limits.max_result_rows`` rows are returned; ``rows.truncated`` says whether there were more. An ASK
        gives ``[{"result": true|false}]`` (:meth:`query` gives a plain bool). ``reasoning``: as :meth:`query`.
        """
        from ont_platform.verify.query import inspect_query

        checked = inspect_query(query, timeout=self.limits.query_timeout_s)
        with self._reasoning(reasoning) as graphs:
            if checked.form == "ASK":
                return Rows([{"result": Literal(self._ask(query, graphs))}])
            return self._select(query, graphs, checked.patterns)

    def query(self, sparql: str, *, reasoning: bool = False) -> bool | Rows | Graph:
        """Run a read-only SPARQL query written by the caller and give what rdflib's ``Graph.query`` result
        holds: an ASK a ``bool``, a SELECT its :class:`Rows` (each row read by name, attribute or position, as
        rdflib's rows are; with ``truncated``), a
        CONSTRUCT or DESCRIBE an rdflib Graph (a :class:`ResultGraph`, with ``truncated``).

        Checked and bounded as :meth:`select`: refused with :class:`QueryRefused` unless it is a read of the
        loaded graph (no updates, ``SERVICE``, ``FROM``, ``GRAPH``, unbounded paths), stopped with
        :class:`QueryTimeout` after ``limits.query_timeout_s``, at most ``limits.max_result_rows`` rows (or
        triples, for a graph).

        ``reasoning=True`` answers over the stated triples together with what the loaded domains' ontologies
        entail from them (RDFS and the OWL RL subset of :mod:`ont_platform.reasoning`), and marks the entailed
        facts: ``rows.entailed[i]`` lists the entailed (not stated) triples among those the query's triple
        patterns name for row ``i`` (a pattern with a variable the row leaves unbound, such as one the SELECT
        does not project, names none); a graph's ``entailed`` holds the entailed triples its solutions rest on
        (CONSTRUCT) or that it describes (DESCRIBE); an ASK gives its bool. The entailments are kept in a
        derived graph per domain, computed after a write at the first query that needs them (seconds at
        LUBM(1,0): docs/performance.md#reasoning), which waits for writes and makes them wait, and needs the
        embedded store (open for writing, if they must be computed). Without ``reasoning`` nothing entailed is
        ever read.

        Why a CONSTRUCT runs as a SELECT: the query checker accepts SELECT and ASK only, and the embedded
        store's killable worker returns solutions, not graphs. So the template is cut off the text and the
        rest runs as a ``SELECT`` of the template's variables, checked with every refusal of :meth:`select`
        (in the checker's worker); the template is filled here with each solution as SPARQL defines it (new
        blank nodes per solution; a triple with an unbound variable, a literal subject or a non-IRI predicate
        is left out). A DESCRIBE selects the resources it names the same way and gives each one's concise
        bounded description: its triples, and those of the blank nodes they lead to (what Oxigraph and rdflib
        give; SPARQL leaves DESCRIBE's answer to the implementation).
        """
        from ont_platform.verify.query import inspect_query

        form = _query_form(sparql)
        if form is not None and form.name == "CONSTRUCT":
            template = _template(sparql, form)
            names = sorted({str(t) for triple in template for t in triple if isinstance(t, Variable)})
            select, patterns = self._stand_in(sparql, form, " ".join(f"?{n}" for n in names) or f"(1 AS ?{_ROW})")
            with self._reasoning(reasoning) as graphs:
                return self._construct(template, self._select(select, graphs, patterns))
        if form is not None and form.name == "DESCRIBE":
            select, patterns = self._stand_in(sparql, form, f"DISTINCT {form.projection}")
            with self._reasoning(reasoning) as graphs:
                return self._describe(self._select(select, graphs, patterns), graphs)
        checked = inspect_query(sparql, timeout=self.limits.query_timeout_s)  # refuses everything else
        with self._reasoning(reasoning) as graphs:
            if checked.form == "ASK":
                return self._ask(sparql, graphs)
            return self._select(sparql, graphs, checked.patterns)

    def entailments(self, *, domain: str | None = None) -> list[Entailments]:
        """Compute what the loaded domains' ontologies entail from the stated triples, where the store does not
        hold it for the data as it is now, and say what each derived graph holds (``triples``: ``None`` when it
        was current; ``ignored``: axioms of the ontology the reasoner does not apply). A reasoning query does
        this itself; call it to pay the cost at a time of your choosing (``ont load --reasoning`` does, after
        the load). ``domain``: one domain only."""
        with self._writer:
            return self._entailments(domain)

    @contextmanager
    def _reasoning(self, reasoning: bool) -> Iterator[tuple[str, ...]]:
        """The derived graphs a query reads besides the stated graph: none without ``reasoning``; with it, every
        loaded domain's entailments, current, and no write until the query is over."""
        if not isinstance(reasoning, bool):
            raise InputError(f"reasoning is True or False, not {reasoning!r}")
        if not reasoning:
            yield ()
            return
        with self._writer:
            yield tuple(e.graph for e in self._entailments(None))

    def _entailments(self, domain: str | None) -> list[Entailments]:
        """See :meth:`entailments`. Hold ``_writer``."""
        from ont_platform import reasoning as rules

        held = self.domains()
        if domain is not None and domain not in held:
            raise InputError(f"no {domain} dataset in this graph (loaded: {', '.join(held) or 'none'})")
        if not held:
            raise InputError("reasoning applies a dataset's ontology: this graph holds no dataset (load one first)")
        out: list[Entailments] = []
        for name in [domain] if domain is not None else held:
            spec = self.domain(name)
            if rules.current(self.store, spec):
                out.append(Entailments(name, rules.entailed_graph(name), None, ignored=rules.rules_of(spec).ignored))
                continue
            if not self.store.derived_writable:
                raise StoreError(
                    f"the entailments of {name} are not computed for the data as it is now, and this "
                    f"{self.store.backend} store cannot keep them"
                    + (" (it is open read-only: open it for writing once)" if self.store.backend == "oxigraph" else "")
                )
            out.append(rules.materialise(self.store, spec, max_new=self.limits.max_entailed_triples))
        return out

    def _ask(self, query: str, graphs: tuple[str, ...] = ()) -> bool:
        if graphs:
            return self.store.ask_derived(query, graphs, timeout=self.limits.query_timeout_s, untrusted=True)
        return self.store.ask(query, timeout=self.limits.query_timeout_s, untrusted=True)

    def _select(self, query: str, graphs: tuple[str, ...] = (), patterns: Sequence[TriplePattern] = ()) -> Rows:
        timeout, cap = self.limits.query_timeout_s, self.limits.max_result_rows
        if graphs:
            rows = self.store.select_derived(query, graphs, timeout=timeout, max_rows=cap, untrusted=True)
        else:
            rows = self.store.select(query, timeout=timeout, max_rows=cap, untrusted=True)
        out = Rows((ResultRow(r) for r in rows), truncated=rows.truncated)
        if graphs:
            out.entailed = self._entailed_facts(out, graphs, patterns)
        return out

    def _entailed_facts(
        self, rows: Rows, graphs: tuple[str, ...], patterns: Sequence[TriplePattern]
    ) -> list[tuple[Triple, ...]]:
        """For each row, the entailed triples among the query's patterns filled with the row's values."""
        compiled = [
            [(str(t), None) if isinstance(t, Variable) else (None, t) for t in pattern]
            for pattern in patterns
            if not isinstance(pattern[0], Literal)
        ]
        named: list[list[Triple]] = []
        for row in rows:
            facts: list[Triple] = []
            for (sv, sc), (pv, pc), (ov, oc) in compiled:
                s = row.get(sv) if sv is not None else sc
                p = row.get(pv) if pv is not None else pc
                o = row.get(ov) if ov is not None else oc
                if s is not None and p is not None and o is not None:
                    facts.append((s, p, o))
            named.append(facts)
        distinct = [
            t
            for t in dict.fromkeys(t for facts in named for t in facts)
            if isinstance(t[1], URIRef) and not isinstance(t[0], Literal)
        ]
        entailed = {t for t, found in zip(distinct, self.store.in_derived(graphs, distinct), strict=True) if found}
        return [tuple(dict.fromkeys(t for t in facts if t in entailed)) for facts in named]

    def _stand_in(self, text: str, form: _Form, projection: str) -> tuple[str, tuple[TriplePattern, ...]]:
        """The SELECT standing for a CONSTRUCT or DESCRIBE, checked like any caller's query, and its patterns."""
        from ont_platform.verify.query import inspect_query

        select = f"{text[: form.start]}SELECT {projection}{form.where} {text[form.rest :]}"
        checked = inspect_query(select, timeout=self.limits.query_timeout_s)
        if checked.form != "SELECT":
            raise QueryRefused("not a SPARQL query that can be checked")  # the text was not what it seemed
        return select, checked.patterns

    def _construct(self, template: list[tuple[Node, Node, Node]], rows: Rows) -> ResultGraph:
        out = ResultGraph()
        cap = self.limits.max_result_rows
        for i, row in enumerate(rows):
            if rows.entailed is not None:
                out.entailed.update(rows.entailed[i])
            fresh: dict[Node, BNode] = {}
            for triple in template:
                s, p, o = (_fill(t, row, fresh) for t in triple)
                if not (isinstance(s, URIRef | BNode) and isinstance(p, URIRef) and o is not None) or (s, p, o) in out:
                    continue
                if len(out) >= cap:
                    out.truncated = True
                    return out
                out.add((s, p, o))
        out.truncated = rows.truncated
        return out

    def _describe(self, rows: Rows, graphs: tuple[str, ...] = ()) -> ResultGraph:
        deadline = time.monotonic() + self.limits.query_timeout_s
        out = ResultGraph()
        try:
            return self._described(rows, graphs, deadline, out)
        finally:
            if graphs:
                found = list(out)
                out.entailed = {t for t, e in zip(found, self.store.in_derived(graphs, found), strict=True) if e}

    def _described(self, rows: Rows, graphs: tuple[str, ...], deadline: float, out: ResultGraph) -> ResultGraph:
        cap = self.limits.max_result_rows
        todo = [t for row in rows for t in row.values() if isinstance(t, URIRef | BNode)]
        seen: set[Node] = set()
        while todo:
            node = todo.pop()
            if node in seen:
                continue
            seen.add(node)
            left = deadline - time.monotonic()
            if left <= 0:
                raise QueryTimeout(
                    f"DESCRIBE stopped: it took longer than the time limit of {self.limits.query_timeout_s:g} s",
                    limit=self.limits.query_timeout_s,
                )
            found, more = self.store.triples((node, None, None), timeout=left, max_rows=cap, derived=graphs)
            for triple in found:
                if triple in out:
                    continue
                if len(out) >= cap:
                    out.truncated = True
                    return out
                out.add(triple)
                if isinstance(triple[2], BNode):
                    todo.append(triple[2])  # a blank node is described where it is reached
            if more:
                out.truncated = True
                return out
        out.truncated = rows.truncated
        return out

    # -- rdflib's Graph conventions ----------------------------------------------------------------------------

    def triples(self, pattern: tuple[Node | None, Node | None, Node | None]) -> Iterator[tuple[Node, Node, Node]]:
        """The triples matching ``(subject, predicate, object)``, ``None`` matching any term, as rdflib terms:
        rdflib's ``Graph.triples``.

        Why bounded: the pattern is read with one SPARQL SELECT built here (terms escaped, never a caller's
        text), run with ``limits.query_timeout_s``, reading at most ``limits.max_result_rows`` matches. When
        more match, :class:`QueryError` is raised before any is returned, rather than a part of the answer
        passed off as the whole: narrow the pattern, raise the limit, or iterate the whole graph (``iter(kg)``).
        A blank node in the pattern is matched by comparing labels, which scans every triple with a blank
        node in that place (see :meth:`Store.triples`).
        """
        found, more = self.store.triples(
            pattern, timeout=self.limits.query_timeout_s, max_rows=self.limits.max_result_rows
        )
        if more:
            raise QueryError(
                f"more than {self.limits.max_result_rows} triples match {pattern!r}; narrow the "
                "pattern, raise limits.max_result_rows, or iterate the whole graph (iter(kg))"
            )
        return iter(found)

    def __iter__(self) -> Iterator[tuple[Node, Node, Node]]:
        """Every triple of the graph, as rdflib terms, as iterating an ``rdflib.Graph`` gives them.

        Why no row cap here, unlike :meth:`triples`: the whole graph is what was asked for, as with
        :meth:`serialize`. The triples come from one N-Triples dump and are built one at a time, so only the
        dump's text is held whole (see :meth:`Store.all_triples`).
        """
        return self.store.all_triples()

    def __contains__(self, pattern: object) -> bool:
        """``(s, p, o) in kg``: whether a triple matches, ``None`` matching any term, as for an
        ``rdflib.Graph``. One bounded read of at most one match (see :meth:`triples`)."""
        if not isinstance(pattern, tuple) or len(pattern) != 3:
            return False
        found, _ = self.store.triples(pattern, timeout=self.limits.query_timeout_s, max_rows=1)
        return bool(found)

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


class ResultGraph(Graph):
    """The graph a CONSTRUCT or DESCRIBE gave (:meth:`KnowledgeGraph.query`): an rdflib Graph that also says
    whether triples were left out at the limit (``truncated``), as :class:`Rows` does for a SELECT."""

    truncated: bool = False

    def __init__(self) -> None:
        super().__init__()
        self.entailed: set[Triple] = set()
        """With reasoning: the entailed (not stated) triples the solutions rest on (CONSTRUCT) or that were
        described (DESCRIBE); see :meth:`KnowledgeGraph.query`."""
        for prefix, namespace in PREFIXES.items():
            self.bind(prefix, namespace)


PREFIXES: dict[str, str] = {
    "ont": str(ONT),
    "oc": str(OC),
    "kg": str(KG),
    "pg": str(PG),
    "gs": str(GS),
    "ethon": str(ETHON),
    "rdf": str(RDF),
    "rdfs": str(RDFS),
    "xsd": str(XSD),
    "owl": str(OWL),
    "skos": str(SKOS),
}
"""The prefixes of the JSON-LD ``@context``, of RDF/XML and of query result graphs: the project's vocabularies
(:mod:`ont_platform.namespaces`) and the standard ones they use."""

_RDFXML_NAMES = frozenset({"xml", "rdf", "rdf/xml", "rdfxml", "rdf+xml", "application/rdf+xml", "owl"})
_ROW = "ont_platform_row"
_MAX_TEMPLATE_CHARS = 10_000
"""Longest CONSTRUCT template read here: rdflib's parser reads it in this thread (the rest of the query is
parsed in the checker's worker) and recurses once per triple, so ~4,000 triples exhaust Python's stack."""
_LOCAL = re.compile(r"[A-Za-z_][A-Za-z0-9_\-]*\Z")
_SCHEME = re.compile(r"([A-Za-z][A-Za-z0-9+.\-]*):")


def _with_context(expanded: bytes) -> bytes:
    """The stores' expanded JSON-LD with an ``@context`` of :data:`PREFIXES`: property and class IRIs and
    datatypes written ``prefix:name`` where the name is a plain word, node ids left whole. A prefix that is
    also the scheme of an IRI in the graph (an IRI ``oc:x``) is left out of the context: under it that IRI
    would be read as a compact one."""
    nodes = json.loads(expanded)
    schemes: set[str] = set()

    def note(value: object) -> None:
        if isinstance(value, str) and (m := _SCHEME.match(value)):
            schemes.add(m[1])

    for node in nodes:
        for key, values in node.items():
            note(key)
            for v in values if isinstance(values, list) else [values]:
                if isinstance(v, dict):
                    note(v.get("@id"))
                    note(v.get("@type"))
                else:
                    note(v)
    context = {p: ns for p, ns in PREFIXES.items() if p not in schemes}

    def compact(value: str) -> str:
        for prefix, namespace in context.items():
            if value.startswith(namespace) and _LOCAL.match(value[len(namespace) :]):
                return f"{prefix}:{value[len(namespace) :]}"
        return value

    graph = []
    for node in nodes:
        out: dict[str, object] = {}
        for key, values in node.items():
            if key == "@id":
                out[key] = values
            elif key == "@type":
                out[key] = [compact(v) for v in values]
            else:
                out[compact(key)] = [
                    {**v, "@type": compact(v["@type"])} if "@value" in v and "@type" in v else v for v in values
                ]
        graph.append(out)
    return json.dumps({"@context": context, "@graph": graph}, ensure_ascii=False, indent=1).encode("utf-8")


# -- CONSTRUCT and DESCRIBE as SELECT --------------------------------------------------------------------------


class _Form(NamedTuple):
    """Where a CONSTRUCT or DESCRIBE keeps its parts: the SELECT that replaces it is ``text[:start]`` (the
    prologue), ``SELECT``, a projection, and ``text[rest:]`` (dataset clauses, WHERE, modifiers). ``template``
    is a CONSTRUCT's template text, ``projection`` a DESCRIBE's targets as a SELECT projection."""

    name: str
    start: int
    rest: int
    template: str = ""
    projection: str = ""
    where: str = ""
    """Text put before ``text[rest:]``: `` WHERE {}`` for a DESCRIBE of IRIs without a pattern."""


_TOKEN = re.compile(
    r"""
    (?P<space>\s+) | (?P<comment>\#[^\n]*)
  | (?P<iri><[^<>"{}|^`\\\x00-\x20]*>)
  | (?P<string>'''(?:[^'\\]|\\.|'(?!''))*''' | \"\"\"(?:[^"\\]|\\.|"(?!""))*\"\"\"
               | '(?:[^'\\\n]|\\.)*' | "(?:[^"\\\n]|\\.)*")
  | (?P<var>[?$][^\s{}()<>.,;'"]+)
  | (?P<word>[^\s{}()<>,;'"?$\#*=!&|+/^\[\]]+)
  | (?P<other>.)
""",
    re.VERBOSE | re.DOTALL,
)


def _tokens(text: str, start: int = 0) -> Iterator[re.Match[str]]:
    """SPARQL tokens, enough to find the form keyword and brace pairs: a string, IRI or comment is one token,
    so a brace or a keyword inside one is never taken for one. ``<`` is always read as an IRI: true in the
    parts walked (a prologue, a template, a DESCRIBE's targets). Comments and spaces are skipped."""
    pos = start
    while pos < len(text):
        m = _TOKEN.match(text, pos)
        assert m is not None  # "other" matches any character
        pos = m.end()
        if m.lastgroup not in ("space", "comment"):
            yield m


def _query_form(text: object) -> _Form | None:
    """The parts of a CONSTRUCT or DESCRIBE query (its keyword is the first word after the prologue), or None
    for any other text: the checker then judges it as it stands (and refuses an update)."""
    if not isinstance(text, str):
        return None
    from ont_platform.verify.query import MAX_QUERY_CHARS

    if len(text) > MAX_QUERY_CHARS:
        return None  # refused by the checker
    for m in _tokens(text):
        word = m[0].upper()
        if m.lastgroup == "iri" or m.lastgroup == "word" and (word in ("PREFIX", "BASE") or word.endswith(":")):
            continue
        if m.lastgroup == "word" and word == "CONSTRUCT":
            return _construct_form(text, m)
        if m.lastgroup == "word" and word == "DESCRIBE":
            return _describe_form(text, m)
        return None
    return None


def _closing(text: str, opening: re.Match[str]) -> re.Match[str]:
    depth = 1
    for m in _tokens(text, opening.end()):
        if m[0] == "{":
            depth += 1
        elif m[0] == "}":
            depth -= 1
            if depth == 0:
                return m
    raise QueryRefused(f"not a SPARQL query that can be checked: the brace at {opening.start()} is never closed")


def _construct_form(text: str, keyword: re.Match[str]) -> _Form:
    for m in _tokens(text, keyword.end()):
        if m[0] != "{":
            continue
        close = _closing(text, m)
        if m.start() == _next_token_start(text, keyword.end()):  # CONSTRUCT { template } WHERE { ... }
            return _Form("CONSTRUCT", keyword.start(), close.end(), template=text[m.end() : close.start()])
        # the short form, CONSTRUCT WHERE { triples }: the pattern is the template
        return _Form("CONSTRUCT", keyword.start(), keyword.end(), template=text[m.end() : close.start()])
    raise QueryRefused("not a SPARQL query that can be checked: a CONSTRUCT without a pattern")


def _next_token_start(text: str, pos: int) -> int:
    return next((m.start() for m in _tokens(text, pos)), len(text))


def _describe_form(text: str, keyword: re.Match[str]) -> _Form:
    targets: list[str] = []
    rest = len(text)
    for m in _tokens(text, keyword.end()):
        if m[0] == "*" and not targets:
            targets.append("*")
        elif m.lastgroup == "var" and "*" not in targets:
            targets.append(m[0])
        elif (m.lastgroup == "iri" or m.lastgroup == "word" and ":" in m[0]) and "*" not in targets:
            targets.append(f"({m[0]} AS ?{_ROW}{len(targets)})")
        else:
            rest = m.start()
            break
    if not targets:
        raise QueryRefused("not a SPARQL query that can be checked: DESCRIBE names nothing to describe")
    pattern = re.match(r"\s*(WHERE\b|FROM\b|\{)", text[rest:], re.IGNORECASE)
    return _Form(
        "DESCRIBE", keyword.start(), rest, projection=" ".join(targets), where="" if pattern else " WHERE {}"
    )  # DESCRIBE <iri> alone: one solution naming it


def _template(text: str, form: _Form) -> list[tuple[Node, Node, Node]]:
    """The CONSTRUCT template's triples, read with rdflib's parser (with the query's prologue)."""
    from rdflib.plugins.sparql.algebra import translateQuery
    from rdflib.plugins.sparql.parser import parseQuery

    if len(form.template) > _MAX_TEMPLATE_CHARS:
        raise QueryRefused(
            f"CONSTRUCT template is {len(form.template)} characters, over the limit of {_MAX_TEMPLATE_CHARS}"
        )
    try:
        query = translateQuery(parseQuery(f"{text[: form.start]}CONSTRUCT {{{form.template}}} WHERE {{}}"))
    except Exception as exc:  # noqa: BLE001 - pyparsing and rdflib raise many unrelated types, RecursionError too
        raise QueryRefused(f"not a CONSTRUCT template that can be checked: {str(exc)[:200]}") from exc
    return list(query.algebra.template or [])


def _fill(term: Node, row: Any, fresh: dict[Node, BNode]) -> Node | None:
    if isinstance(term, Variable):
        return row.get(str(term))  # type: ignore[no-any-return]
    if isinstance(term, BNode):
        return fresh.setdefault(term, BNode())  # a template's blank node is a new one for every solution
    return term
