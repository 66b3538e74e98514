"""One answer being checked (:class:`Case`) and the question as the domain's planner reads it.

Its own module so that the family checks (:mod:`~ont_platform.verify.onchain`, ``kg``, ``pages``) and the
verifier that runs them import it and not each other.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any

from rdflib import URIRef

from ont_platform.domains import Domain
from ont_platform.errors import OntError
from ont_platform.verify.graph import Snapshot
from ont_platform.verify.report import VerifyReport

if TYPE_CHECKING:
    from ont_platform.verify.verifier import Verifier


@dataclass(frozen=True)
class QuestionPlan:
    """What the question asks, as the domain's planner reads it: the start node, the hop limit and, for
    on-chain path questions, the target and the direction."""

    intent: str | None
    start: str | None
    hops: int
    backward: bool = False
    target_class: URIRef | None = None
    target_node: str | None = None
    ambiguous: bool = False


def read_plan(spec: Domain, ctx: Any, question: str) -> QuestionPlan | None:
    """The question read by the answerer's own planner (parsing only, no query runs), or None when it cannot
    be read. The checks use it to know the start, the target and the hop limit; never the answer."""
    try:
        if spec.family == "transfers":
            from ont_platform.qa import onchain

            p: Any = onchain.plan(ctx, question)
            target = getattr(p, "target_class", None)
            return QuestionPlan(
                str(p.intent),
                p.start,
                int(p.hops),
                bool(getattr(p, "backward", False)),
                URIRef(str(target)) if target is not None else None,
                getattr(p, "target_node", None),
                bool(getattr(p, "ambiguous", None)),
            )
        if spec.family == "entities":
            from ont_platform.qa import entities

            p = entities.plan(ctx, question)
            return QuestionPlan(
                None, p.start, int(p.limit), ambiguous=bool(getattr(p, "ambiguous", None)), target_class=p.asked
            )
    except (OntError, ValueError, AttributeError, TypeError):
        return None
    return None


@dataclass
class Case:
    """One answer being checked, with everything the checks share."""

    verifier: Verifier
    snap: Snapshot
    answer: dict[str, Any]
    report: VerifyReport
    question: str | None
    gold: dict[str, Any] | None
    _plan: QuestionPlan | None = field(default=None, repr=False)
    _planned: bool = field(default=False, repr=False)

    def fail(self, check: str, detail: str) -> None:
        self.report.fail(check, detail)

    def plan(self) -> QuestionPlan | None:
        """The question read by the domain's planner (start node, target, hop limit), or None without one."""
        if not self._planned:
            self._planned = True
            if self.question and self.snap.spec.has_names:
                self._plan = read_plan(self.snap.spec, self.verifier.context(self.snap.domain), self.question)
        return self._plan
