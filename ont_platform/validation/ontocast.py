"""``ontocast``: a critic in the manner of OntoCast, for facts an LLM wants to add to the graph.

OntoCast (which needs Python 3.12 or later) pairs an LLM that renders facts with a critic that judges them
against the ontology. This module is that critic:

1. deterministic findings first: structure, seed 001's rules, unknown classes and predicates, domain and
   range, literal datatypes, cardinality of functional properties, conflicts with what the graph already
   says about the same resources;
2. then SHACL on a *copy*: the would-be triples plus their stored neighbourhood (never the whole graph); when
   the copy is over ``max_shacl_triples`` SHACL is reported as ``not_evaluated`` with a warning, never as
   passed;
3. a score (the share of entities and relations without an error) and concrete suggestions, which the
   re-ask message carries back to the LLM.

It also reviews SPARQL UPDATE requests (:meth:`OntoCastValidator.review_update`): only ``INSERT DATA`` and
``DELETE DATA`` on allowed graphs pass, after a parse with rdflib (the shared inspector, :mod:`ont_platform.sparql.inspect`) and a dry run on a copy checked like the
facts above; :meth:`OntoCastValidator.apply_update` runs a reviewed request as the canonical text that was
reviewed, never the caller's own string.
"""

from __future__ import annotations

import re
from collections.abc import Iterable
from typing import Any, ClassVar

from rdflib import RDF, BNode, Literal, URIRef
from rdflib.term import Node

from ont_platform.errors import InputError, ValidationFailed
from ont_platform.namespaces import ONT
from ont_platform.sparql.inspect import parse_update
from ont_platform.storage.base import Store
from ont_platform.validation.base import Validator, evaluate, make_result
from ont_platform.validation.facts import (
    Facts,
    as_store,
    build_facts,
    neighbourhood,
    nt_term,
    reconcile,
    report_violations,
    shacl_violations,
)
from ont_platform.validation.models import OntologyExtractionResult
from ont_platform.validation.result import CheckStatus, ValidationResult
from ont_platform.validation.rules import Code, Findings, RuleConfig
from ont_platform.validation.shapes import Triples
from ont_platform.validation.structure import Payload
from ont_platform.validation.terms import datatype_name, lexical

DEFAULT_MAX_SHACL_TRIPLES = 100_000
_FACT_PATH = re.compile(r"^\$\.(entities|relations)\[(\d+)\]")


def score(extraction: OntologyExtractionResult | None, findings: Findings) -> float:
    """The share of entities and relations without an error; 0 when the payload as a whole is wrong."""
    if extraction is None:
        return 0.0
    total = len(extraction.entities) + len(extraction.relations)
    bad: set[tuple[str, int]] = set()
    for issue in findings.errors:
        match = _FACT_PATH.match(issue.path)
        if match is None:
            return 0.0
        bad.add((match.group(1), int(match.group(2))))
    if total == 0:
        return 1.0
    return round((total - len(bad)) / total, 4)


class OntoCastValidator(Validator):
    """The critic validator.

    ``store`` (a Store, a KnowledgeGraph or an rdflib Graph) is the graph the facts would join: their
    neighbourhood is copied from it for SHACL and for conflict checks. Without ``ontology=`` only the
    deterministic seed rules run and SHACL is ``not_evaluated`` (shapes belong to a domain).
    """

    name: ClassVar[str] = "ontocast"
    blocking: ClassVar[bool] = True

    def __init__(
        self,
        *,
        ontology: Any = None,
        config: RuleConfig | None = None,
        store: Any = None,
        max_shacl_triples: int = DEFAULT_MAX_SHACL_TRIPLES,
        allowed_graphs: Iterable[str | None] = (None,),
    ) -> None:
        super().__init__(ontology=ontology, config=config)
        self.store = as_store(store)
        self.max_shacl_triples = int(max_shacl_triples)
        self.allowed_graphs = {None if g is None else str(g) for g in allowed_graphs}

    # -- extraction payloads ----------------------------------------------------------------------------------

    def check(self, payload: Payload) -> ValidationResult:
        extraction, findings, checks = evaluate(payload, self.config, self.index)
        if extraction is None:
            checks["shacl"] = "not_evaluated"
        elif self.index is None:
            checks["shacl"] = "not_evaluated"
            findings.warn(
                Code.SHACL_NOT_EVALUATED,
                "$",
                "SHACL not evaluated: no ontology was given, and shapes belong to a domain",
                "",
            )
        elif findings.errors:
            checks["shacl"] = "not_evaluated"  # deterministic findings first: fix those, then ask again
        else:
            self._graph_checks(extraction, findings, checks)
        return make_result(self.name, findings, checks, extraction, score=score(extraction, findings))

    def _graph_checks(
        self, extraction: OntologyExtractionResult, findings: Findings, checks: dict[str, CheckStatus]
    ) -> None:
        assert self.index is not None
        graph_findings = Findings(max_issues=self.config.max_issues)
        facts = build_facts(extraction, self.index, graph_findings)
        copy = neighbourhood(self.store, facts) if self.store is not None else Triples()
        reconcile(facts, copy, graph_findings)
        checks["graph"] = "failed" if graph_findings.errors else "passed"
        findings.extend(graph_findings)
        if graph_findings.errors:
            checks["shacl"] = "not_evaluated"
            return
        self._shacl(copy, facts, findings, checks)

    def _shacl(self, copy: Triples, facts: Facts, findings: Findings, checks: dict[str, CheckStatus]) -> None:
        assert self.index is not None
        size = len(copy) + len(facts)
        if size > self.max_shacl_triples:
            checks["shacl"] = "not_evaluated"
            findings.warn(
                Code.SHACL_NOT_EVALUATED,
                "$",
                f"SHACL not evaluated: the copy would hold {size} triples, over the limit of {self.max_shacl_triples}",
                "",
            )
            return
        for triple in facts.triples:
            copy.add(triple)
        violations = shacl_violations(copy, self.index.domain, facts.focus)
        shacl = Findings(max_issues=self.config.max_issues)
        report_violations(violations, facts, shacl)
        for issue in shacl.errors:
            shacl.suggestions.append(f"Fix {issue.path}: {issue.message}")
        checks["shacl"] = "failed" if shacl.errors else "passed"
        findings.extend(shacl)

    # -- SPARQL UPDATE requests -------------------------------------------------------------------------------

    def review_update(self, update: str, *, store: Any = None) -> ValidationResult:
        """Judge a SPARQL UPDATE request before anything runs it.

        Accepted only if it parses (rdflib), every operation is ``INSERT DATA`` or ``DELETE DATA``, every
        graph it names is allowed (the default graph only, unless ``allowed_graphs=`` says more), it has no
        blank nodes, every term is known to the ontology, and the store's neighbourhood with the change
        applied conforms to the shapes. The store itself is never touched.
        """
        if self.index is None:
            raise InputError("reviewing an update needs the ontology of a domain: OntoCastValidator(ontology=...)")
        target = as_store(store) if store is not None else self.store
        findings = Findings(max_issues=self.config.max_issues)
        checks: dict[str, CheckStatus] = {
            "parse": "not_evaluated",
            "operations": "not_evaluated",
            "ontology": "not_evaluated",
            "shacl": "not_evaluated",
        }
        plan = self._parse_update(update, findings, checks)
        if plan is not None:
            self._dry_run(plan, target, findings, checks)
        return make_result(self.name, findings, checks, None, score=1.0 if not findings.errors else 0.0)

    def apply_update(self, store: Any, update: str) -> ValidationResult:
        """Review ``update`` against ``store`` and, if it passes, run the reviewed request on the store.

        Raises :class:`~ont_platform.errors.ValidationFailed` (carrying the review) when it does not pass;
        the store is then unchanged.
        """
        target = as_store(store)
        if target is None:
            raise InputError("apply_update needs a store")
        result = self.review_update(update, store=target)
        if not result.validation_passed:
            raise ValidationFailed(result)
        plan = self._parse_update(update, Findings(), {})
        assert plan is not None
        target.update(canonical_update(plan))
        return result

    def _parse_update(self, update: Any, findings: Findings, checks: dict[str, CheckStatus]) -> list[_Operation] | None:
        if not isinstance(update, str):
            findings.error(Code.UPDATE_SYNTAX, "$", f"an update is SPARQL text, not {type(update).__name__}")
            checks["parse"] = "failed"
            return None
        if len(update) > self.config.max_payload_chars:
            findings.error(Code.TOO_LARGE, "$", f"update of {len(update)} characters is over the limit")
            checks["parse"] = "failed"
            return None
        try:
            operations = parse_update(update)  # the shared inspector: rdflib's parser (ont_platform.sparql.inspect)
        except Exception as exc:  # noqa: BLE001 - rdflib's parser raises many kinds (ParseException, AssertionError, ...)
            findings.error(Code.UPDATE_SYNTAX, "$", f"not a SPARQL 1.1 update: {str(exc).splitlines()[0][:200]}")
            checks["parse"] = "failed"
            return None
        checks["parse"] = "passed"
        plan: list[_Operation] = []
        for k, op in enumerate(operations):
            path = f"$.operations[{k}]"
            name = getattr(op, "name", type(op).__name__)
            if name not in ("InsertData", "DeleteData"):
                findings.error(
                    Code.UPDATE_OPERATION,
                    path,
                    f"{_OPERATION_NAMES.get(name, name)} is not accepted: only INSERT DATA and DELETE DATA",
                    "Send the change as INSERT DATA / DELETE DATA with the exact triples.",
                )
                continue
            blocks: list[tuple[str | None, list[tuple[Node, Node, Node]]]] = []
            if op.get("triples"):
                blocks.append((None, list(op["triples"])))
            for graph, triples in (op.get("quads") or {}).items():
                blocks.append((str(graph), list(triples)))
            for graph, _triples in blocks:
                if graph not in self.allowed_graphs:
                    where = "the default graph" if graph is None else f"graph <{graph}>"
                    findings.error(Code.UPDATE_GRAPH, path, f"{where} is not one this update may change")
            plan.append(_Operation(name == "InsertData", blocks, path))
        checks["operations"] = "failed" if findings.errors else "passed"
        return None if findings.errors else plan

    def _dry_run(
        self, plan: list[_Operation], store: Store | None, findings: Findings, checks: dict[str, CheckStatus]
    ) -> None:
        assert self.index is not None
        index = self.index
        onto_findings = Findings(max_issues=self.config.max_issues)
        inserted: list[tuple[URIRef, URIRef, Node]] = []
        deleted: list[tuple[URIRef, URIRef, Node]] = []
        paths: dict[URIRef, str] = {}
        for op in plan:
            for _graph, triples in op.blocks:
                for n, (s, p, o) in enumerate(triples):
                    tpath = f"{op.path}.triples[{n}]"
                    if any(isinstance(t, BNode) for t in (s, p, o)):
                        onto_findings.error(
                            Code.UPDATE_BLANK_NODE, tpath, "blank nodes are not accepted: name resources with IRIs"
                        )
                        continue
                    if not (isinstance(s, URIRef) and isinstance(p, URIRef)):
                        onto_findings.error(Code.UPDATE_SYNTAX, tpath, "subject and predicate must be IRIs")
                        continue
                    paths.setdefault(s, tpath)
                    (inserted if op.insert else deleted).append((s, p, o))
                    if op.insert:
                        self._check_term(s, p, o, tpath, onto_findings)
        checks["ontology"] = "failed" if onto_findings.errors else "passed"
        findings.extend(onto_findings)
        if onto_findings.errors:
            return
        facts = Facts(index.domain, triples=list(inserted), paths=dict(paths))
        if store is not None:
            for r in _relations_of(store, deleted):
                facts.paths.setdefault(r, "$")
        copy = neighbourhood(store, facts) if store is not None else Triples()
        for triple in deleted:
            copy.remove(triple)
        size = len(copy) + len(inserted)
        if size > self.max_shacl_triples:
            findings.error(
                Code.SHACL_NOT_EVALUATED,
                "$",
                f"the dry run would need {size} triples, over the limit of "
                f"{self.max_shacl_triples}: the update cannot be checked, so it is not accepted",
            )
            return
        for triple in inserted:
            copy.add(triple)
        shacl = Findings(max_issues=self.config.max_issues)
        report_violations(shacl_violations(copy, index.domain, facts.focus), facts, shacl)
        checks["shacl"] = "failed" if shacl.errors else "passed"
        findings.extend(shacl)

    def _check_term(self, s: URIRef, p: URIRef, o: Node, path: str, out: Findings) -> None:
        assert self.index is not None
        index = self.index
        if p not in index.properties and p not in {rel.iri for rel in index.onto.relations.values()}:
            out.error(Code.UNKNOWN_PREDICATE, path, f"<{p}> is not a property of the {index.domain} ontology")
            return
        if p == RDF.type:
            if o not in index.all_classes:
                out.error(Code.UNKNOWN_CLASS, path, f"<{o}> is not a class of the {index.domain} ontology")
            return
        rng = index.ranges.get(p) or next((d.range for d in index.datatype_properties.values() if d.iri == p), None)
        if rng is not None:
            if not isinstance(o, Literal):
                out.error(Code.DATATYPE, path, f"<{p}> takes a {datatype_name(rng)} literal, not an IRI")
            elif (o.datatype or URIRef("http://www.w3.org/2001/XMLSchema#string")) != rng or o.language:
                out.error(Code.DATATYPE, path, f"<{p}> takes a {datatype_name(rng)} literal, got {o.n3()[:80]}")
            elif lexical(str(o), rng) is None:
                out.error(Code.DATATYPE, path, f"{str(o)[:60]!r} is not a valid {datatype_name(rng)}")


class _Operation:
    """One parsed INSERT DATA / DELETE DATA operation: its triples per graph (``None``: the default graph)."""

    def __init__(self, insert: bool, blocks: list[tuple[str | None, list[tuple[Node, Node, Node]]]], path: str):
        self.insert = insert
        self.blocks = blocks
        self.path = path


_OPERATION_NAMES = {
    "Modify": "INSERT/DELETE ... WHERE",
    "DeleteWhere": "DELETE WHERE",
    "Load": "LOAD",
    "Clear": "CLEAR",
    "Drop": "DROP",
    "Create": "CREATE",
    "Add": "ADD",
    "Move": "MOVE",
    "Copy": "COPY",
}


def _relations_of(store: Store, deleted: list[tuple[URIRef, URIRef, Node]]) -> set[URIRef]:
    """Relation resources whose plain triple is among ``deleted`` (they would lose it)."""
    from ont_platform.rdf_terms import iri

    out: set[URIRef] = set()
    for s, p, o in deleted:
        if not isinstance(o, URIRef):
            continue
        rows = store.select(
            f"SELECT ?r WHERE {{ ?r {iri(str(ONT.source))} {iri(str(s))} ; {iri(str(ONT.kind))} "
            f"{iri(str(p))} ; {iri(str(ONT.target))} {iri(str(o))} }} LIMIT 100"
        )
        out |= {row["r"] for row in rows if isinstance(row["r"], URIRef)}
    return out


def canonical_update(plan: list[_Operation]) -> str:
    """The reviewed operations written back as SPARQL, every term escaped by the project's writer."""
    parts: list[str] = []
    for op in plan:
        body: list[str] = []
        for graph, triples in op.blocks:
            lines = " ".join(f"{nt_term(s)} {nt_term(p)} {nt_term(o)} ." for s, p, o in triples)
            body.append(lines if graph is None else f"GRAPH {nt_term(URIRef(graph))} {{ {lines} }}")
        parts.append(f"{'INSERT' if op.insert else 'DELETE'} DATA {{ {' '.join(body)} }}")
    return " ;\n".join(parts)


__all__ = ["DEFAULT_MAX_SHACL_TRIPLES", "OntoCastValidator", "canonical_update", "score"]
