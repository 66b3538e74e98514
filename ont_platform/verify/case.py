"""One answer being checked (:class:`Case`) and the question as the domain's planner reads it.

Its own module so that the family checks (:mod:`~ont_platform.verify.onchain`, ``kg``, ``pages``) and the
verifier that runs them import it and not each other. :class:`QuestionPlan` is the families' (it is re-exported
here for the checks).
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any

from ont_platform.domains import Domain
from ont_platform.errors import OntError
from ont_platform.families import QuestionPlan, get_family
from ont_platform.verify.graph import Snapshot
from ont_platform.verify.report import VerifyReport

__all__ = ["Case", "QuestionPlan", "read_plan"]

if TYPE_CHECKING:
    from ont_platform.qa.context import Context
    from ont_platform.verify.verifier import Verifier


def read_plan(spec: Domain, ctx: Context, question: str) -> QuestionPlan | None:
    """The question read by the answerer's own planner (parsing only, no query runs), or None when it cannot
    be read. The checks use it to know the start, the target and the hop limit; never the answer."""
    try:
        return get_family(spec.family).read_plan(ctx, question)
    except (OntError, ValueError):
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
