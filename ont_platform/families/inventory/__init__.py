"""The ``inventory`` family: a page inventory with metric columns, filtered rather than walked, answered with
the PageFilterResult contract (seed 004, the bundled ``pages`` domain)."""

from __future__ import annotations

from collections.abc import Iterator
from typing import TYPE_CHECKING

from rdflib import URIRef

from ont_platform.families.base import QuestionPlan, TableFamily
from ont_platform.families.tables import TablesDataset

if TYPE_CHECKING:
    from ont_platform.answer.contracts import PageFilterResult
    from ont_platform.ingest.datasets import DatasetLoad
    from ont_platform.qa.context import Context
    from ont_platform.verify.case import Case


class InventoryFamily(TablesDataset):
    """One table of pages and their metrics (``pages.csv``)."""

    name: str = "inventory"
    tables: tuple[str, ...] = ("pages.csv",)
    contract: str = "page_filter_result"
    decision_field: str = "status"
    telltales: tuple[str, ...] = ("status", "parsed_filter", "matched", "expected_urls")
    has_names: bool = False
    has_chunks: bool = False
    own_ontology: bool = False
    bundled_domain: str | None = "pages"
    mints_iris: bool = True
    node_fields: tuple[tuple[str, str], ...] = ()

    def read_tables(self, load: DatasetLoad) -> Iterator[str]:
        from ont_platform.ingest.datasets import read_pages

        return read_pages(load)

    def answer(self, ctx: Context, question: str, qid: str) -> PageFilterResult:
        """A page answer names its question, not an id: ``qid`` is not part of the contract."""
        from ont_platform.qa import pages

        return pages.answer(ctx, question)

    def read_plan(self, ctx: Context, question: str) -> QuestionPlan | None:
        """Page questions are filters, not walks: there is no start or hop limit to check."""
        return None

    def check(self, case: Case) -> None:
        from ont_platform.verify import pages

        pages.check(case)

    def node_query(self, iri: URIRef) -> str:
        from ont_platform.sparql.kg import node_info

        return node_info(iri)


if TYPE_CHECKING:
    _satisfies: TableFamily = InventoryFamily()  # mypy checks the class against the protocol
