"""The graphs a service answers from: each domain's question context (kept by its KnowledgeGraph) and one
verifier per graph, used by many requests at once.

Nothing here serialises requests. Questions go through :meth:`KnowledgeGraph.trace`, which is safe across
threads (readers share the graph's read lock, writes wait for them) and keeps the lexicon in step with ingests;
the verifier's caches are guarded by its own lock, and everything a request may run that is slow on hostile
input (an answer's query text, the query itself) runs in a worker process killed at its time limit. One slow
request therefore costs its own time limit and delays no other request; how many run at once is bounded by the
service's admission limit (:class:`~ont_platform.service.app.Admission`).
"""

from __future__ import annotations

import threading
from collections.abc import Iterable, Mapping, Sequence
from typing import Any

from rdflib import URIRef

from ont_platform.errors import InputError, NotFound
from ont_platform.kg import KnowledgeGraph, Traced
from ont_platform.namespaces import mint
from ont_platform.ontology import local_name
from ont_platform.qa.context import Context
from ont_platform.verify import Verifier, VerifyReport
from ont_platform.verify.verifier import contract_of

Graphs = KnowledgeGraph | Mapping[str, KnowledgeGraph] | Iterable[KnowledgeGraph]
"""One graph (possibly holding several domains), graphs by name, or a list of graphs."""


class GraphSet:
    """The loaded domains of one or more knowledge graphs (each domain held by exactly one graph).

    ``examples`` maps a domain to sample questions the admin page offers.
    """

    def __init__(
        self, graphs: Graphs, *, examples: Mapping[str, Sequence[str]] | None = None, verify_max_rows: int | None = None
    ) -> None:
        if isinstance(graphs, KnowledgeGraph):
            items = [graphs]
        elif isinstance(graphs, Mapping):
            items = list(graphs.values())
        else:
            items = list(graphs)
        self.graphs: list[KnowledgeGraph] = []
        self._by_domain: dict[str, KnowledgeGraph] = {}
        for kg in items:
            if not isinstance(kg, KnowledgeGraph):
                raise InputError(f"graphs must be KnowledgeGraph objects, got {type(kg).__name__}")
            if kg not in self.graphs:
                self.graphs.append(kg)
            for domain in kg.domains():
                if domain in self._by_domain and self._by_domain[domain] is not kg:
                    raise InputError(f"two graphs hold a {domain} dataset; give each domain once")
                self._by_domain[domain] = kg
        self.examples = {d: list(q) for d, q in (examples or {}).items()}
        self.lock = threading.Lock()
        """Guards this object's own caches (the verifiers); never held while a request's work runs."""
        self._verifiers: dict[int, Verifier] = {}
        self.verify_max_rows = verify_max_rows
        """Most rows of an answer's ``generated_query`` a verification reads back (None: the graph's
        ``max_result_rows``)."""

    def domains(self) -> list[str]:
        """The loaded domains, sorted."""
        return sorted(self._by_domain)

    def describe(self) -> list[dict[str, Any]]:
        """Each domain with the contract its answers follow and its sample questions."""
        out = []
        for d in self.domains():
            spec = self.graph(d).domain(d)
            out.append(
                {
                    "domain": d,
                    "title": spec.title("ko"),
                    "contract": spec.contract,
                    "family": spec.family,
                    "examples": self.examples.get(d, []),
                }
            )
        return out

    def graph(self, domain: str) -> KnowledgeGraph:
        """The graph holding ``domain``, or NotFound."""
        kg = self._by_domain.get(domain)
        if kg is None:
            loaded = ", ".join(self.domains()) or "none"
            raise NotFound(f"no {domain!r} dataset is loaded (loaded: {loaded})")
        return kg

    def context(self, domain: str) -> Context:
        """The question context of ``domain`` (its ontology, lexicon and store), the one its graph keeps: built
        once, and brought up to date by the graph's ingests."""
        return self.graph(domain).context(domain)

    def warm(self) -> None:
        """Build every domain's context now (the Korean analyser and the lexicons take seconds), so that the
        first question is answered as fast as the others."""
        for domain in self.domains():
            self.context(domain)

    # -- the three reads the routes need ---------------------------------------------------------------------

    def ask(self, domain: str, question: str, qid: str | None = None) -> Traced:
        """Answer ``question`` over ``domain`` with the domain's contract, recording the queries that ran."""
        return self.graph(domain).trace(question, domain=domain, qid=qid)

    def verify(self, answer: dict[str, Any], question: str | None = None) -> VerifyReport:
        """The verifier's report on ``answer`` against the graph holding the domain its contract names."""
        contracts = {d: self.graph(d).domain(d).contract for d in self.domains()}
        contract = contract_of(answer, list(contracts.values()))
        fitting = [d for d, c in contracts.items() if c == contract]
        kg = self._by_domain.get(fitting[0]) if len(fitting) == 1 else None
        if kg is None:
            kg = self.graphs[0] if self.graphs else None
        if kg is None:
            report = VerifyReport("answer")
            report.fail("data", "no dataset is loaded to check answers against")
            return report
        with self.lock:
            verifier = self._verifiers.get(id(kg))
            if verifier is None:
                verifier = self._verifiers[id(kg)] = Verifier(kg, isolation="thread", max_rows=self.verify_max_rows)
        return verifier.verify(answer, question=question)

    def node(self, domain: str, node_id: str) -> dict[str, Any]:
        """What the graph says about one node: classes (with their labels), label and, on chain, the address."""
        ctx = self.context(domain).for_question()
        iri = mint(domain, "node", node_id)
        family = ctx.spec.behaviour
        rows = ctx.run_select(family.node_query(iri))
        if not rows:
            raise NotFound(f"no node {node_id!r} in the {domain} dataset")
        own = set(ctx.onto.classes.values())
        classes: list[dict[str, str]] = []
        label = None
        extra: dict[str, str | None] = {field: None for field, _ in family.node_fields}
        for row in rows:
            cls = row.get("cls")
            if isinstance(cls, URIRef) and cls in own and all(c["iri"] != str(cls) for c in classes):
                classes.append({"iri": str(cls), "name": local_name(cls), "label": ctx.onto.label(cls)})
            if row.get("label") is not None and label is None:
                label = str(row["label"])
            for field, var in family.node_fields:
                if row.get(var) is not None and extra[field] is None:
                    extra[field] = str(row[var])
        out: dict[str, Any] = {"domain": domain, "id": node_id, "iri": str(iri), "label": label, "classes": classes}
        out.update(extra)
        return out

    def close(self) -> None:
        """Stop the verifiers' query workers. The graphs themselves belong to the caller."""
        with self.lock:
            for verifier in self._verifiers.values():
                verifier.close()
            self._verifiers.clear()


__all__ = ["GraphSet", "Graphs", "NotFound", "Traced"]
