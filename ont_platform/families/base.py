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
from pathlib import Path
from typing import TYPE_CHECKING, Any, Protocol, runtime_checkable

from rdflib import URIRef

if TYPE_CHECKING:
    from ont_platform.answer.contracts import HopDecision, OnchainAnswer, PageFilterResult
    from ont_platform.domains import Domain
    from ont_platform.errors import Problem
    from ont_platform.ingest.datasets import DatasetLoad, ShaclReport
    from ont_platform.limits import Limits
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
class Dataset(Protocol):
    """A dataset on its way into a store, as :meth:`ont_platform.KnowledgeGraph.load` drives it: checked while
    its N-Triples text streams out, all or nothing. After the stream, ``counts``, ``warnings`` and ``shacl`` say
    what it held."""

    spec: Domain
    domain: str
    counts: dict[str, int]
    warnings: list[Problem]
    shacl: ShaclReport

    def chunks(self, *, settle_later: bool = False) -> Iterator[bytes]:
        """The dataset as UTF-8 N-Triples chunks; raises DatasetError (before the last chunk) when refused."""
        ...

    def settle(self) -> None:
        """Raise the problems of checks still running when the stream ended, if any."""
        ...

    def close(self) -> None:
        """Stop whatever still runs for a load that will not be committed."""
        ...

    def origin(self, resource: str) -> tuple[str, int | None]:
        """The file and line a resource (an IRI) was written at, for messages."""
        ...


@runtime_checkable
class Family(Protocol):
    """The behaviour of one kind of graph. Attributes are plain data, read without importing the family's
    stage code; methods are called by the stage they belong to."""

    name: str
    """The family's registered name (``entities``, ``transfers``, ``inventory``, or a plug-in's)."""
    tables: tuple[str, ...]
    """The CSV files of a dataset folder of this family, the first one telling what a folder holds (none for a
    family whose datasets are not tables)."""
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
    mints_iris: bool
    """Whether the library mints the IRIs of the family's nodes (``id:<domain>/node/<id>``, written in the core
    vocabulary: ``ont:id``, relations as resources, the core shapes) or keeps the data's own (plain RDF)."""
    node_fields: tuple[tuple[str, str], ...]
    """Extra fields the admin page shows for a node, each with the variable of :meth:`node_query` that holds
    it (``("address", "norm")``)."""

    def recognises(self, path: Path) -> bool:
        """Whether ``path`` (a folder, or a file) holds a dataset of this family."""
        ...

    def open_dataset(self, path: Path, spec: Domain, limits: Limits, mode: str) -> Dataset:
        """Prepare to stream the dataset at ``path`` into a store (``mode``: the SHACL pass, see
        :func:`ont_platform.ingest.datasets.shacl_mode`); nothing need be read yet."""
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
    "mints_iris",
    "node_fields",
    "recognises",
    "open_dataset",
    "answer",
    "read_plan",
    "check",
    "node_query",
)
"""Every member of :class:`Family`, to name what an object offered as a family lacks."""


@runtime_checkable
class TableFamily(Family, Protocol):
    """A family whose datasets are folders of CSV tables, read by :class:`~ont_platform.ingest.datasets.DatasetLoad`
    (row checks, the checks in a second process, incremental loads)."""

    def read_tables(self, load: DatasetLoad) -> Iterator[str]:
        """The N-Triples text of a dataset folder, one row's triples at a time, problems recorded on ``load``
        (:meth:`~ont_platform.ingest.datasets.DatasetLoad.problem`)."""
        ...


def claims(family: Family, doc: Mapping[str, Any]) -> bool:
    """Whether ``doc`` (an answer or a gold object) carries one of the family's telltale fields."""
    return any(field in doc for field in family.telltales)
