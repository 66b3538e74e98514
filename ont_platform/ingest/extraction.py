"""LLM extractions into the graph: guard, map to RDF, SHACL on the new data and its neighbourhood, commit.

Nothing invalid reaches the graph. An extraction is written only if

1. the guard passes it (``lightweight`` with the domain's ontology unless another guard is given; a guard
   with an LLM may re-ask, and then the corrected output is what gets written),
2. every accepted entity and relation maps to the domain's terms without contradicting what the graph
   already says about the same resources (class, relation ends),
3. the new triples, together with the part of the store the shapes look at around them, conform to the
   domain's SHACL shapes (the whole store is never validated: pyshacl takes seconds to minutes on it),

Between 1 and 2 every id, label and evidence text passes the text policy the CSV loader applies
(:mod:`ont_platform.text_policy`): ids are taken in their NFKC form (two ids that differ only in width are
one id, and a duplicate), and control, bidirectional and invisible characters are refused (code
``unsafe_text``), so an extraction can write nothing a dataset folder could not.

and then in one call to :meth:`Store.add_ntriples`, which every backend applies all or nothing. The mapping
follows the CSV loader: a relation is a resource (source, target, kind, grounded, chunk) plus the plain
triple; evidence becomes ``ont:Evidence`` resources; a relation's chunk text an ``ont:Chunk``.

>>> from ont_platform import KnowledgeGraph
>>> kg = KnowledgeGraph.open()
>>> report = ingest(kg, {"entities": [
...     {"id": "E_1", "label": "홍길동", "type": "individual", "ontology_class": "Person"},
...     {"id": "E_2", "label": "에이씨미", "type": "individual", "ontology_class": "Company"}],
...     "relations": [{"id": "R_1", "source_id": "E_1", "predicate": "worksFor", "target_id": "E_2",
...                    "evidence": {"chunk_text": "홍길동은 에이씨미에서 일한다."}}]}, domain="kg")
>>> report.accepted, report.counts["relations"]
(True, 1)
"""

from __future__ import annotations

import threading
import time
from dataclasses import dataclass, field
from typing import Any

from rdflib import RDF, Literal, URIRef

from ont_platform.domains import Domain, get_domain
from ont_platform.domains.registry import DEFAULT_ENTITIES
from ont_platform.errors import InputError
from ont_platform.families import DEFAULT_FAMILY
from ont_platform.ingest.resolve import resolve
from ont_platform.namespaces import ONT, dataset_iri
from ont_platform.rdf_terms import iri
from ont_platform.storage.base import Store
from ont_platform.text_policy import TextKind, UnsafeText, clean_text
from ont_platform.validation.facts import (
    Facts,
    Triple,
    already_known,
    as_store,
    build_facts,
    neighbourhood,
    nt_term,
    reconcile,
    report_violations,
    shacl_violations,
)
from ont_platform.validation.guard import OntologyGuard
from ont_platform.validation.models import (
    Evidence,
    OntologyEntity,
    OntologyExtractionResult,
    OntologyRelation,
    ValidationIssue,
)
from ont_platform.validation.result import CheckStatus, ValidationResult
from ont_platform.validation.rules import Findings, RuleConfig, check_ontology
from ont_platform.validation.shapes import Triples
from ont_platform.validation.structure import Payload
from ont_platform.validation.terms import ontology_index


@dataclass
class IngestReport:
    """What an ingest did: whether the extraction was written, why not, and what it added."""

    accepted: bool
    domain: str
    errors: list[ValidationIssue] = field(default_factory=list)
    warnings: list[ValidationIssue] = field(default_factory=list)
    counts: dict[str, int] = field(default_factory=dict)
    """``entities``, ``relations``, ``chunks``, ``evidence`` mapped (0 when refused) and ``triples`` written."""
    triples_added: int = 0
    shacl: CheckStatus = "not_evaluated"
    validation: ValidationResult | None = None
    """The guard's result (with the re-ask count in ``attempts``)."""
    seconds: float = 0.0
    timings: dict[str, float] = field(default_factory=dict)
    """Seconds per stage: ``validate``, ``map``, ``neighbourhood``, ``shacl``, ``commit``."""
    linked: dict[str, str] = field(default_factory=dict)
    """Extracted entity id -> the node already in the graph it was resolved to (see
    :mod:`ont_platform.ingest.resolve`)."""
    created: list[str] = field(default_factory=list)
    """Extracted entity ids that are new nodes."""
    aliases_added: int = 0
    """Names the text used that linked nodes did not have, added as ``skos:altLabel``."""

    def _repr_html_(self) -> str:
        """:meth:`as_dict` as a table, for notebooks."""
        from ont_platform.answer.html import table

        return table(type(self).__name__, self.as_dict())

    def as_dict(self) -> dict[str, Any]:
        return {
            "accepted": self.accepted,
            "domain": self.domain,
            "errors": [e.model_dump() for e in self.errors],
            "warnings": [w.model_dump() for w in self.warnings],
            "counts": dict(self.counts),
            "triples_added": self.triples_added,
            "shacl": self.shacl,
            "attempts": self.validation.attempts if self.validation is not None else 0,
            "seconds": round(self.seconds, 4),
            "timings": {k: round(v, 4) for k, v in self.timings.items()},
            "linked": dict(self.linked),
            "created": list(self.created),
            "aliases_added": self.aliases_added,
        }


def ingest(
    kg: Any,
    payload: Payload,
    *,
    guard: OntologyGuard | None = None,
    domain: str | None = None,
    shacl: bool = True,
    config: RuleConfig | None = None,
) -> IngestReport:
    """Validate an extraction and add it to ``kg`` (a KnowledgeGraph or a Store), all or nothing.

    ``domain`` is the ontology the data belongs to; when not given it is the guard's, else the domain of the
    one dataset the store holds, else ``"kg"``. ``guard`` defaults to ``OntologyGuard("lightweight",
    ontology=domain, config=config)``; a guard for another domain is refused. ``shacl=False`` skips the
    shapes (the report then says ``not_evaluated``).
    Returns an :class:`IngestReport`; ``accepted`` is false, and the store unchanged, when anything was
    wrong. Raises :class:`~ont_platform.errors.ValidationFailed` only for a strict guard,
    :class:`~ont_platform.errors.InputError` for an unknown domain or a mismatched guard, and
    :class:`~ont_platform.errors.StoreError` when the store fails (it then holds what it held before).
    """
    if not isinstance(kg, Store) and callable(getattr(kg, "ingest", None)):
        # a KnowledgeGraph: its locks, loaded domains and question lexicon must follow the write (asked by
        # what it does rather than its class, which imports this module)
        report: IngestReport = kg.ingest(payload, guard=guard, domain=domain, shacl=shacl, config=config)
        return report
    pending = check_extraction(kg, payload, guard=guard, domain=domain, shacl=shacl, config=config)
    return pending.commit() if pending.ready else pending.report


@dataclass
class PendingIngest:
    """An extraction checked against the store and ready to be written (or refused, with the report saying why).

    Checking and writing are apart so that a caller holding other state about the store (the question
    lexicon of a :class:`~ont_platform.kg.KnowledgeGraph`) can commit and update that state in one step, and
    so that nothing else writes in between: what was checked is what the batch is committed on.
    """

    report: IngestReport
    store: Store
    facts: Facts | None
    started: float
    written: list[tuple[str, str, str]] = field(default_factory=list)
    """After :meth:`commit`: the batch's triples as N-Triples terms (what derived indexes take in)."""
    known: tuple[int, _StoredCount] | None = None
    """What the checks found of the batch's triples in the store: how many its neighbourhood shows stored, and
    the lookup of the ones it could not tell about (see :func:`already_known`)."""
    existing: Triples | None = None
    """The stored neighbourhood the checks read (see :func:`neighbourhood`)."""

    @property
    def ready(self) -> bool:
        """Whether every check passed and :meth:`commit` may write."""
        return self.facts is not None and not self.report.errors

    @property
    def nodes(self) -> list[URIRef]:
        """The entity nodes the batch writes or extends (whose names questions may use)."""
        return list(self.facts.entities.values()) if self.facts is not None else []

    def about_nodes(self) -> list[Triple] | None:
        """Every triple about :attr:`nodes` the store holds once the batch is written, as far as the checks saw:
        each literal and core link of theirs in the stored neighbourhood, and the batch's own (``None`` when the
        neighbourhood was not kept)."""
        if self.facts is None or self.existing is None:
            return None
        nodes = set(self.facts.entities.values())
        return [t for t in (*self.existing, *self.facts.triples) if t[0] in nodes]

    def commit(self) -> IngestReport:
        """Write the batch in one :meth:`Store.add_ntriples` call; the report gets the triples added."""
        if not self.ready:
            raise InputError("this extraction was refused; there is nothing to commit")
        assert self.facts is not None
        facts, report = self.facts, self.report
        clock = time.perf_counter()
        written = facts.written()
        known = self.known
        more = known[1].result() if known is not None else None
        if known is not None and more is not None:
            # nothing was written since the neighbourhood was read: only what it could not tell was looked up
            present = known[0] + more
        else:
            present = _already_stored(self.store, written)
        self.store.add_ntriples("".join(f"{s} {p} {o} .\n" for s, p, o in written))
        self.written = written
        report.timings["commit"] = time.perf_counter() - clock
        report.triples_added = len(written) - present
        report.counts = dict(facts.counts, triples=len(facts))
        report.accepted = True
        self.facts = None  # committed once
        return _done(report, self.started)


def check_extraction(
    kg: Any,
    payload: Payload,
    *,
    guard: OntologyGuard | None = None,
    domain: str | None = None,
    shacl: bool = True,
    config: RuleConfig | None = None,
) -> PendingIngest:
    """Everything :func:`ingest` does before writing: guard, mapping, neighbourhood, conflicts, SHACL.

    Arguments, errors and the report are those of :func:`ingest`; nothing is written. The stored
    neighbourhood is read with the library's own bound queries, in this process: each is led by a ``VALUES``
    list of the batch's resources, so its cost follows the batch, and running it in the store's query worker
    would fork a copy of the store after every write (tens to hundreds of milliseconds on a large graph).
    """
    started = time.perf_counter()
    store = as_store(kg)
    if store is None:
        raise InputError("ingest needs a KnowledgeGraph or a Store")
    # entities are resolved against the graph's names when there is a graph (a bare Store has no lexicon)
    resolve_with = kg if hasattr(kg, "context") and hasattr(kg, "domains") else None
    if domain is None:
        domain = guard.domain if guard is not None and guard.domain else _stored_domain(store) or DEFAULT_ENTITIES
    spec = _resolve(kg, domain)
    domain = spec.name
    if guard is None:
        guard = OntologyGuard("lightweight", ontology=domain, config=config)
    elif guard.domain not in (None, domain):
        raise InputError(f"the guard checks the {guard.domain} ontology, but the data is for {domain}")
    index = ontology_index(spec)
    report = IngestReport(accepted=False, domain=domain)
    refused = PendingIngest(report, store, None, started)
    clock = time.perf_counter()

    result = guard.validate_sync(payload)
    report.validation = result
    report.timings["validate"] = time.perf_counter() - clock
    report.warnings = list(result.warnings)
    if not result.validation_passed or result.extraction is None:
        report.errors = list(result.validation_errors)
        _done(report, started)
        return refused

    clock = time.perf_counter()
    extraction, unsafe = apply_text_policy(result.extraction)
    if unsafe:
        report.errors = unsafe
        _done(report, started)
        return refused
    findings = Findings(max_issues=(config or guard.validator.config).max_issues)
    if guard.domain is None:
        check_ontology(extraction, index, findings)
    resolution = None
    if resolve_with is not None and spec.has_chunks and domain in resolve_with.domains():
        extraction, resolution = resolve(resolve_with.context(domain), extraction, index, findings)
        report.linked, report.created = resolution.linked, resolution.created
        report.aliases_added = len(resolution.aliases)
    facts = build_facts(extraction, index, findings)
    if resolution is not None:
        for s, p, o in resolution.triples():
            facts.add(s, p, o)
    report.timings["map"] = time.perf_counter() - clock
    clock = time.perf_counter()
    existing = neighbourhood(store, facts)
    reconcile(facts, existing, findings)
    report.timings["neighbourhood"] = time.perf_counter() - clock
    _merge_warnings(report, findings)
    if findings.errors:
        report.errors = list(findings.errors)
        _done(report, started)
        return refused

    marker = dataset_iri(domain)
    if not store.ask(f"ASK {{ {iri(str(marker))} a {iri(str(ONT.Dataset))} }}"):
        facts.add(marker, RDF.type, ONT.Dataset)
        facts.add(marker, ONT.domain, Literal(domain))
        if not spec.bundled:  # as a load does: a later process reads the user's domain back from the store
            facts.add(marker, ONT.ontologyText, Literal(spec.ontology_sources[0].read()))
            if spec.shapes_sources:
                facts.add(marker, ONT.shapesText, Literal(spec.shapes_sources[0].read()))
            if spec.family != DEFAULT_FAMILY:  # a record without one is read back in the default family
                facts.add(marker, ONT.family, Literal(spec.family))

    stored, unsure = already_known(facts, existing)  # before the shapes' copy below takes the facts in
    known = (stored, _StoredCount(store, unsure))  # looked up while the shapes run
    if shacl:
        clock = time.perf_counter()
        copy = existing
        for triple in facts.triples:
            copy.add(triple)
        violations = shacl_violations(copy, domain, facts.focus - {marker})
        report.timings["shacl"] = time.perf_counter() - clock
        shacl_findings = Findings()
        report_violations(violations, facts, shacl_findings)
        report.shacl = "failed" if shacl_findings.errors else "passed"
        if shacl_findings.errors:
            report.errors = list(shacl_findings.errors)
            _done(report, started)
            return refused
    return PendingIngest(report, store, facts, started, known=known, existing=existing)


UNSAFE_TEXT = "unsafe_text"
"""Issue code of a field the text policy refuses."""
DUPLICATE_ID = "duplicate_id"


def apply_text_policy(ext: OntologyExtractionResult) -> tuple[OntologyExtractionResult, list[ValidationIssue]]:
    """The extraction with its ids in NFKC form, and the issues of every field the text policy refuses
    (:func:`ont_platform.text_policy.clean_text`: ids ``id``, evidence chunks ``text``, every other string
    ``label``), plus ids that became equal once normalised. The same policy as the CSV loader's cells."""
    issues: list[ValidationIssue] = []

    def clean(value: str, kind: TextKind, path: str) -> str:
        try:
            return clean_text(value, kind, what=path.rsplit(".", 1)[-1])
        except UnsafeText as exc:
            issues.append(ValidationIssue(code=UNSAFE_TEXT, path=path, message=str(exc)))
            return value

    evidence_fields: tuple[tuple[str, TextKind], ...] = (
        ("source_url", "label"),
        ("chunk_text", "text"),
        ("chunk_id", "id"),
    )

    def evidence(items: list[Evidence], path: str) -> list[Evidence]:
        out = []
        for k, ev in enumerate(items):
            p = f"{path}.evidence[{k}]"
            update = {}
            for name, kind in evidence_fields:
                value = getattr(ev, name)
                if isinstance(value, str):
                    update[name] = clean(value, kind, f"{p}.{name}")
            out.append(ev.model_copy(update=update))
        return out

    def attributes(attrs: dict[str, object], path: str) -> None:
        for key, value in attrs.items():
            clean(key, "label", f"{path}.attributes")
            for v in value if isinstance(value, list) else [value]:
                if isinstance(v, str):
                    clean(v, "label", f"{path}.attributes.{key}")

    entities: list[OntologyEntity] = []
    first: dict[str, int] = {}
    for i, e in enumerate(ext.entities):
        p = f"$.entities[{i}]"
        new_id = clean(e.id, "id", f"{p}.id")
        clean(e.label, "label", f"{p}.label")
        clean(e.type, "label", f"{p}.type")
        if e.ontology_class is not None:
            clean(e.ontology_class, "label", f"{p}.ontology_class")
        attributes(dict(e.attributes), p)
        if new_id in first:  # the guard refused ids that were equal as given: these became equal by NFKC
            issues.append(
                ValidationIssue(
                    code=DUPLICATE_ID,
                    path=f"{p}.id",
                    message=(
                        f"id {e.id[:60]!r} is {new_id[:60]!r} once normalised (NFKC), the id of $.entities[{first[new_id]}]"
                    ),
                )
            )
        first.setdefault(new_id, i)
        entities.append(e.model_copy(update={"id": new_id, "evidence": evidence(e.evidence, p)}))
    relations: list[OntologyRelation] = []
    seen: dict[str, int] = {}
    for j, r in enumerate(ext.relations):
        p = f"$.relations[{j}]"
        update: dict[str, object] = {
            end: clean(getattr(r, end), "id", f"{p}.{end}") for end in ("id", "source_id", "target_id")
        }
        clean(r.predicate, "label", f"{p}.predicate")
        attributes(dict(r.attributes), p)
        new_id = str(update["id"])
        if new_id in seen:
            issues.append(
                ValidationIssue(
                    code=DUPLICATE_ID,
                    path=f"{p}.id",
                    message=(
                        f"id {r.id[:60]!r} is {new_id[:60]!r} once normalised (NFKC), the id of $.relations[{seen[new_id]}]"
                    ),
                )
            )
        seen.setdefault(new_id, j)
        update["evidence"] = evidence(r.evidence, p)
        relations.append(r.model_copy(update=update))
    if issues:
        return ext, issues
    return ext.model_copy(update={"entities": entities, "relations": relations}), []


_PRESENT_BATCH = 500


class _StoredCount:
    """How many of some triples the store holds, looked up in a thread of its own from the moment it is made.

    The lookup waits on the store (on a large store on disk, random reads: ~100 of them for a batch of 100
    relations), while the shapes run meanwhile in the caller's thread on the CPU, so the two overlap. The count
    is used only if nothing was written to the store in between (its generation is the one it was made at); a
    store that cannot tell (``generation`` is ``None``: the data may change behind it) gets no lookup here, the
    commit then looking up every triple itself.
    """

    def __init__(self, store: Store, triples: list[Triple]) -> None:
        self._store = store
        self._generation = store.generation
        self._count: int | None = 0 if not triples else None
        self._thread: threading.Thread | None = None
        if triples and self._generation is not None:
            self._thread = threading.Thread(target=self._run, args=(triples,), daemon=True, name="ont-lookup")
            self._thread.start()

    def _run(self, triples: list[Triple]) -> None:
        try:
            self._count = _already_stored(self._store, [_terms(t) for t in triples])
        except Exception:  # noqa: BLE001 - the commit then counts every triple itself, and meets the error there
            self._count = None

    def result(self) -> int | None:
        """The count, or ``None`` when it cannot be used (the store was written since, or the lookup failed)."""
        if self._thread is not None:
            self._thread.join()
        generation = self._store.generation
        if generation is None or generation != self._generation:
            return None
        return self._count


def _terms(t: Triple) -> tuple[str, str, str]:
    return nt_term(t[0]), nt_term(t[1]), nt_term(t[2])


def _already_stored(store: Store, triples: list[tuple[str, str, str]]) -> int:
    """How many of ``triples`` the store already holds, by exact lookups (``VALUES`` of whole triples).

    Counting the store before and after the write would do, but ``len`` of an Oxigraph store walks every
    quad: 0.15 s per million triples, twice per batch."""
    present = 0
    for i in range(0, len(triples), _PRESENT_BATCH):
        rows = " ".join(f"({s} {p} {o})" for s, p, o in triples[i : i + _PRESENT_BATCH])
        query = f"SELECT (COUNT(*) AS ?n) WHERE {{ VALUES (?s ?p ?o) {{ {rows} }} ?s ?p ?o }}"
        found = store.select(query)
        present += int(str(found[0]["n"])) if found else 0
    return present


def _resolve(kg: Any, domain: str) -> Domain:
    """The domain called ``domain``: one the graph holds (a user's domain is read back from the store), else a
    bundled or registered one."""
    if hasattr(kg, "domain") and callable(kg.domain):
        try:
            held: Domain = kg.domain(domain)
            return held
        except InputError:
            pass
    return get_domain(domain)


def _stored_domain(store: Store) -> str | None:
    rows = store.select(
        f"SELECT DISTINCT ?d WHERE {{ ?ds a {iri(str(ONT.Dataset))} ; {iri(str(ONT.domain))} ?d }} LIMIT 2"
    )
    domains = [str(r["d"]) for r in rows if r["d"] is not None]
    return domains[0] if len(domains) == 1 else None


def _merge_warnings(report: IngestReport, findings: Findings) -> None:
    seen = {(w.code, w.path) for w in report.warnings}
    report.warnings += [w for w in findings.warnings if (w.code, w.path) not in seen]


def _done(report: IngestReport, started: float) -> IngestReport:
    report.seconds = time.perf_counter() - started
    return report


__all__ = ["IngestReport", "PendingIngest", "check_extraction", "ingest"]
