"""What a domain family is: the one protocol every family implements, built in or brought by a plug-in.

A *family* is the behaviour a kind of graph needs from every stage — which tables a dataset folder holds and how
they become triples, how a question is answered and with which contract, how an answer is checked against the
graph, what the admin page shows of a node. The shared machinery (loader, question engine, verifier, service,
evaluation) asks the domain's family for these and never compares family names, so adding a family touches no
shared module: it is a class that satisfies :class:`Family`, registered in code or by an entry point
(:mod:`ont_platform.families`).

The protocol's methods take the stage's own objects (the load being read, the question context, the answer
being checked); a family imports the stage code it delegates to inside its methods, so that knowing a family —
its tables, its contract — costs nothing at import.
"""

from __future__ import annotations

from collections.abc import Iterator, Mapping
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any, Protocol, runtime_checkable

from rdflib import URIRef

if TYPE_CHECKING:
    from ont_platform.answer.contracts import HopDecision, OnchainAnswer, PageFilterResult
    from ont_platform.ingest.datasets import DatasetLoad
    from ont_platform.qa.context import Context
    from ont_platform.verify.case import Case

    AnswerModel = HopDecision | OnchainAnswer | PageFilterResult


@dataclass(frozen=True)
class QuestionPlan:
    """What a question asks, as its family's planner reads it: the start node, the hop limit and, for path
    questions, the target and the direction. The verifier uses it to know what an answer had to reach, never
    the answer itself."""

    intent: str | None
    start: str | None
    hops: int
    backward: bool = False
    target_class: URIRef | None = None
    target_node: str | None = None
    ambiguous: bool = False


@runtime_checkable
class Family(Protocol):
    """The behaviour of one kind of graph. Attributes are plain data, read without importing the family's
    stage code; methods are called by the stage they belong to."""

    name: str
    """The family's registered name (``entities``, ``transfers``, ``inventory``, or a plug-in's)."""
    tables: tuple[str, ...]
    """The CSV files of a dataset folder of this family; the first one tells what a folder holds."""
    contract: str
    """The name of the answer contract (``ont_platform.answer.CONTRACTS``) the family answers with."""
    decision_field: str
    """The contract field that holds the outcome (``decision``, ``intent``, ``status``)."""
    telltales: tuple[str, ...]
    """Contract fields that tell an answer of this family from the others, its id field first."""
    has_names: bool
    """Whether questions name the graph's nodes (a page inventory is filtered, never named)."""
    has_chunks: bool
    """Whether relations are grounded in text chunks, so that text can be read into this family's graph."""
    own_ontology: bool
    """Whether a dataset folder of this family may bring its own ``ontology.ttl``."""
    bundled_domain: str | None
    """The bundled domain a folder of these tables belongs to when it brings no ontology of its own."""
    node_fields: tuple[tuple[str, str], ...]
    """Extra fields the admin page shows for a node, each with the variable of :meth:`node_query` that holds
    it (``("address", "norm")``)."""

    def read_tables(self, load: DatasetLoad) -> Iterator[str]:
        """The N-Triples text of a dataset folder, one row's triples at a time, problems recorded on ``load``."""
        ...

    def answer(self, ctx: Context, question: str, qid: str) -> AnswerModel:
        """Answer ``question`` over the context's domain, in the family's contract."""
        ...

    def read_plan(self, ctx: Context, question: str) -> QuestionPlan | None:
        """The question as the family's planner reads it (parsing only), or None when it has no planner."""
        ...

    def check(self, case: Case) -> None:
        """Run every check of an answer of this family, recording failures on ``case``."""
        ...

    def node_query(self, iri: URIRef) -> str:
        """The SELECT whose rows describe one node for the admin page (``cls``, ``label`` and the
        :attr:`node_fields`)."""
        ...


MEMBERS: tuple[str, ...] = (
    "name",
    "tables",
    "contract",
    "decision_field",
    "telltales",
    "has_names",
    "has_chunks",
    "own_ontology",
    "bundled_domain",
    "node_fields",
    "read_tables",
    "answer",
    "read_plan",
    "check",
    "node_query",
)
"""Every member of :class:`Family`, to name what an object offered as a family lacks."""


def claims(family: Family, doc: Mapping[str, Any]) -> bool:
    """Whether ``doc`` (an answer or a gold object) carries one of the family's telltale fields."""
    return any(field in doc for field in family.telltales)
