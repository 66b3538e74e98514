"""The ``transfers`` family: addresses and the transfers between them, with exchange deposits, mixers and
inferred same-owner clusters, answered with the OnchainAnswer contract (seed 000, the bundled ``onchain``
domain)."""

from __future__ import annotations

from collections.abc import Iterator
from typing import TYPE_CHECKING

from rdflib import URIRef

from ont_platform.families.base import QuestionPlan, TableFamily
from ont_platform.families.tables import TablesDataset

if TYPE_CHECKING:
    from ont_platform.answer.contracts import OnchainAnswer
    from ont_platform.ingest.datasets import DatasetLoad
    from ont_platform.qa.context import Context
    from ont_platform.verify.case import Case


class TransfersFamily(TablesDataset):
    """Addresses and transfers (``onchain_nodes.csv``, ``onchain_edges.csv``)."""

    name: str = "transfers"
    tables: tuple[str, ...] = ("onchain_nodes.csv", "onchain_edges.csv")
    contract: str = "onchain_answer"
    decision_field: str = "intent"
    telltales: tuple[str, ...] = ("q_id", "intent", "cited_nodes")
    has_names: bool = True
    has_chunks: bool = False
    own_ontology: bool = False
    bundled_domain: str | None = "onchain"
    mints_iris: bool = True
    node_fields: tuple[tuple[str, str], ...] = (("address", "norm"),)

    def read_tables(self, load: DatasetLoad) -> Iterator[str]:
        from ont_platform.ingest.datasets import read_transfers

        return read_transfers(load)

    def answer(self, ctx: Context, question: str, qid: str) -> OnchainAnswer:
        from ont_platform.qa import onchain

        return onchain.answer(ctx, question, qid)

    def read_plan(self, ctx: Context, question: str) -> QuestionPlan | None:
        from ont_platform.qa import onchain

        p = onchain.plan(ctx, question)
        return QuestionPlan(
            str(p.intent),
            p.start,
            int(p.hops),
            p.backward,
            URIRef(str(p.target_class)) if p.target_class is not None else None,
            p.target_node,
            bool(p.ambiguous),
        )

    def check(self, case: Case) -> None:
        from ont_platform.verify import onchain

        onchain.check(case)

    def node_query(self, iri: URIRef) -> str:
        from ont_platform.sparql.onchain import node_facts

        return node_facts(iri)


if TYPE_CHECKING:
    _satisfies: TableFamily = TransfersFamily()  # mypy checks the class against the protocol
