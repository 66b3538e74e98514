"""What answering needs about one loaded domain: its ontology, its lexicon, and the store to query.

A context is built once per graph and domain and reused across questions (reading every node's names costs
one query); the knowledge graph drops it whenever its data changes.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from datetime import date

from rdflib import URIRef

from ont_platform.limits import Limits
from ont_platform.namespaces import ONT, dataset_iri
from ont_platform.ontology import DomainOntology, load_domain
from ont_platform.qa.lexicon import Lexicon, add_cues
from ont_platform.rdf_terms import iri
from ont_platform.sparql.common import PREFIXES, node_names
from ont_platform.storage import Store


@dataclass
class Context:
    """One domain of one graph, ready for questions."""

    store: Store
    domain: str
    onto: DomainOntology
    lexicon: Lexicon
    limits: Limits
    as_of: date | None
    queries: list[str]
    cache: dict[str, object] = field(default_factory=dict)
    """Per-domain data an answerer derives once from the graph (the pages vocabulary, for instance)."""

    def run_select(self, query: str) -> list[dict[str, object]]:
        """Run one of our own read queries, recording it."""
        self.queries.append(query)
        return [dict(r) for r in self.store.select(query, timeout=self.limits.query_timeout_s)]

    def node_classes(self, node_id: str) -> list[URIRef]:
        """The classes of one node."""
        from ont_platform.namespaces import mint
        from ont_platform.sparql.common import node_classes

        rows = self.run_select(node_classes(mint(self.domain, "node", node_id)))
        return [URIRef(str(r["cls"])) for r in rows if r.get("cls") is not None]

    def run_ask(self, query: str) -> bool:
        self.queries.append(query)
        return self.store.ask(query, timeout=self.limits.query_timeout_s)


def build_context(store: Store, domain: str, limits: Limits) -> Context:
    """Read the ontology's terms and the graph's names into a lexicon."""
    onto = load_domain(domain)
    lex = Lexicon()
    for cls in onto.classes.values():
        for label in onto.labels(cls):
            lex.add_term(label, "class", str(cls))
    for rel in onto.relations.values():
        for label in [*onto.labels(rel.iri), rel.notation]:
            lex.add_term(label, "relation", str(rel.iri))
    for sup in onto.super_relations.values():
        for label in onto.labels(sup):
            lex.add_term(label, "relation", str(sup))
    for col in onto.columns.values():
        for label in [*col.labels, col.name]:
            lex.add_term(label, "column", col.name)
    add_cues(lex, domain)
    if domain != "pages":
        for row in store.select(node_names(limits.max_names)):
            node_id = str(row["id"])
            lex.add_name(node_id, node_id)
            if row.get("name") is not None:
                lex.add_name(str(row["name"]), node_id)
    as_of = None
    rows = store.select(f"{PREFIXES}SELECT ?d WHERE {{ {iri(dataset_iri(domain))} {iri(ONT.asOf)} ?d }} LIMIT 1")
    if rows and rows[0]["d"] is not None:
        as_of = date.fromisoformat(str(rows[0]["d"]))
    return Context(store, domain, onto, lex, limits, as_of, [])


def node_iri(domain: str, node_id: str) -> URIRef:
    from ont_platform.namespaces import mint

    return mint(domain, "node", node_id)


