"""The ``entities`` family: an entity–relation graph grounded in text chunks, answered with the HopDecision
contract (seed 003). Any OWL ontology drives it: the bundled ``kg`` domain is one instance, a user's ontology
another."""

from __future__ import annotations

from collections.abc import Iterator
from typing import TYPE_CHECKING

from rdflib import URIRef

from ont_platform.families.base import QuestionPlan, TableFamily
from ont_platform.families.tables import TablesDataset

if TYPE_CHECKING:
    from ont_platform.answer.contracts import HopDecision
    from ont_platform.ingest.datasets import DatasetLoad
    from ont_platform.qa.context import Context
    from ont_platform.verify.case import Case


class EntitiesFamily(TablesDataset):
    """Nodes, edges and the chunks that ground them (``kg_nodes.csv``, ``kg_edges.csv``, ``kg_chunks.csv``)."""

    name: str = "entities"
    tables: tuple[str, ...] = ("kg_nodes.csv", "kg_edges.csv", "kg_chunks.csv")
    contract: str = "hop_decision"
    decision_field: str = "decision"
    telltales: tuple[str, ...] = ("query_id", "decision", "factors")
    has_names: bool = True
    has_chunks: bool = True
    own_ontology: bool = True
    bundled_domain: str | None = "kg"
    mints_iris: bool = True
    node_fields: tuple[tuple[str, str], ...] = ()

    def read_tables(self, load: DatasetLoad) -> Iterator[str]:
        from ont_platform.ingest.datasets import read_entities

        return read_entities(load)

    def answer(self, ctx: Context, question: str, qid: str) -> HopDecision:
        from ont_platform.qa import entities

        return entities.answer(ctx, question, qid)

    def read_plan(self, ctx: Context, question: str) -> QuestionPlan | None:
        return entity_plan(ctx, question)

    def check(self, case: Case) -> None:
        hop_checks(case)

    def node_query(self, iri: URIRef) -> str:
        from ont_platform.sparql.kg import node_info

        return node_info(iri)


def entity_plan(ctx: Context, question: str) -> QuestionPlan:
    """The entity–relation reader's plan as the verifier needs it (shared by every family it reads for)."""
    from ont_platform.qa import entities

    p = entities.plan(ctx, question)
    return QuestionPlan(None, p.start, int(p.limit), ambiguous=bool(p.ambiguous), target_class=p.asked)


def hop_checks(case: Case) -> None:
    """The hop-decision checks (:mod:`ont_platform.verify.kg`)."""
    from ont_platform.verify import kg

    kg.check(case)


if TYPE_CHECKING:
    _satisfies: TableFamily = EntitiesFamily()  # mypy checks the class against the protocol
