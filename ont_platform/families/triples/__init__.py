"""The ``triples`` family: plain RDF with its own ontology — a Turtle, N-Triples, RDF/XML or JSON-LD file, or a
folder of them — answered with the HopDecision contract. Its stated triples are its relations, its IRIs stay
its own, and a walked triple is its own evidence (docs/your-rdf.md)."""

from __future__ import annotations

from pathlib import Path
from typing import TYPE_CHECKING

from rdflib import URIRef

from ont_platform.families.base import Dataset, Family, QuestionPlan
from ont_platform.families.entities import entity_plan, hop_checks

if TYPE_CHECKING:
    from ont_platform.answer.contracts import HopDecision
    from ont_platform.domains import Domain
    from ont_platform.limits import Limits
    from ont_platform.qa.context import Context
    from ont_platform.verify.case import Case


class TriplesFamily:
    """RDF data files and the ontology they are written in."""

    name: str = "triples"
    tables: tuple[str, ...] = ()
    contract: str = "hop_decision"
    decision_field: str = "decision"
    telltales: tuple[str, ...] = ("query_id", "decision", "factors")
    has_names: bool = True
    has_chunks: bool = False
    own_ontology: bool = True
    bundled_domain: str | None = None
    mints_iris: bool = False
    node_fields: tuple[tuple[str, str], ...] = ()

    def recognises(self, path: Path) -> bool:
        from ont_platform.families import families
        from ont_platform.ingest.rdf_data import holds_rdf

        tables = tuple(t for f in families() if f.name != self.name for t in f.tables)
        return holds_rdf(path, tables)

    def open_dataset(self, path: Path, spec: Domain, limits: Limits, mode: str) -> Dataset:
        from ont_platform.ingest.rdf_data import RdfDataset

        return RdfDataset(path, spec, limits, mode)

    def answer(self, ctx: Context, question: str, qid: str) -> HopDecision:
        """The entity–relation reader, over the data's own IRIs and stated triples (its node space), with each
        hop citing the triple it walked and the files it came from."""
        from ont_platform.families.triples.evidence import cite_triples
        from ont_platform.qa import entities

        return cite_triples(ctx, entities.answer(ctx, question, qid))

    def read_plan(self, ctx: Context, question: str) -> QuestionPlan | None:
        return entity_plan(ctx, question)

    def check(self, case: Case) -> None:
        """The hop-decision checks; the snapshot holds the stated triples, each grounded by the rule."""
        hop_checks(case)

    def node_query(self, iri: URIRef) -> str:
        """The node's classes and ``rdfs:label`` (the admin page's view; the data's own IRI is its id)."""
        from rdflib import RDFS

        from ont_platform.qa.space import StatedSpace

        return StatedSpace("", (RDFS.label,)).node_info(iri)


if TYPE_CHECKING:
    _satisfies: Family = TriplesFamily()  # mypy checks the class against the protocol
