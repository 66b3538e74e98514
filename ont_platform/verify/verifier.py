"""The verifier: reads each answer's contract, runs the checks of its domain, and reports what failed.

One :class:`Verifier` serves many answers over one graph: the graph is read into a snapshot once per domain,
the question planners' context is built once, and one query runner (with its worker, if any) is reused.
"""

from __future__ import annotations

import threading
from typing import Any, Self

from ont_platform.answer.contracts import schema_errors
from ont_platform.families import claims, families, get_family
from ont_platform.limits import Limits
from ont_platform.verify.case import Case
from ont_platform.verify.graph import DEFAULT_MAX_ROWS, Snapshot, read_snapshot
from ont_platform.verify.query import Isolation, QueryRunner
from ont_platform.verify.report import VerifyReport


def contract_of(obj: dict[str, Any], contracts: list[str]) -> str | None:
    """Which seed contract an answer claims to follow: by its id field, else by its telltale fields, else the
    contract of the only loaded domain (``contracts``: those of the loaded domains)."""
    known = list(families())
    for family in known:  # a family's first telltale is its id field (or, without one, its surest field)
        if family.telltales and family.telltales[0] in obj:
            return family.contract
    for family in known:
        if claims(family, obj):
            return family.contract
    if len(set(contracts)) == 1:
        return contracts[0]
    return None


def answer_id(obj: object, fallback: str) -> str:
    """The answer's own id (``q_id``, ``query_id``, or the question for pages), else ``fallback``."""
    if isinstance(obj, dict):
        for key in ("q_id", "query_id", "question", "id"):
            value = obj.get(key)
            if isinstance(value, (str, int)) and str(value):
                return str(value)
    return fallback


def oversized(answer: object, limits: Limits) -> str | None:
    """Why ``answer`` is too big to check (a list longer than ``limits.max_answer_items``, nesting deeper than
    ``limits.max_answer_depth``), or None. Walks the answer without recursion and stops at the first excess, so
    the walk itself is bounded; the JSON Schema validator that runs next recurses once per nesting level."""
    stack: list[tuple[object, int, str]] = [(answer, 0, "")]
    while stack:
        node, depth, where = stack.pop()
        if isinstance(node, dict):
            children: list[tuple[str, object]] = [(f"{where}/{k}", v) for k, v in node.items()]
        elif isinstance(node, (list, tuple)):
            children = [(f"{where}/{i}", v) for i, v in enumerate(node)]
        else:
            continue
        if depth + 1 > limits.max_answer_depth:
            return (
                f"the answer nests deeper than {limits.max_answer_depth} levels at {where[:200] or '(root)'} "
                "(Limits.max_answer_depth); it was not checked"
            )
        if len(children) > limits.max_answer_items:
            return (
                f"{where[:200] or '(root)'} has {len(children)} entries, over the limit of "
                f"{limits.max_answer_items} (Limits.max_answer_items); the answer was not checked"
            )
        stack.extend((value, depth + 1, path) for path, value in children if isinstance(value, (dict, list, tuple)))
    return None


class Verifier:
    """Checks answers against one knowledge graph.

    ``isolation`` is how an answer's ``generated_query`` runs (see :mod:`ont_platform.verify.query`);
    ``timeout`` and ``max_rows`` bound each such query (default: the graph's limits); ``max_snapshot_rows``
    bounds each query that reads the graph for the reference checks.
    """

    def __init__(
        self,
        kg: Any,
        *,
        isolation: Isolation = "thread",
        timeout: float | None = None,
        max_rows: int | None = None,
        max_snapshot_rows: int = DEFAULT_MAX_ROWS,
    ) -> None:
        self.kg = kg
        self.limits = kg.limits
        self.max_snapshot_rows = max_snapshot_rows
        self.runner = QueryRunner(
            kg.store,
            timeout=timeout if timeout is not None else kg.limits.query_timeout_s,
            max_rows=max_rows if max_rows is not None else kg.limits.max_result_rows,
            isolation=isolation,
        )
        self._snapshots: dict[str, Snapshot] = {}
        self._loaded: list[str] | None = None
        self._size: int | None = None
        self._cache = threading.RLock()
        """Guards the three caches above: one verifier serves many threads (the HTTP service shares one per
        graph). Held while a snapshot is first read, so concurrent answers read it once."""

    # -- shared state ----------------------------------------------------------------------------------------

    def _refresh(self) -> None:
        """Forget what was read when the graph changed since (local stores: their size is free to ask)."""
        if self.kg.store.backend == "remote":
            return
        size = len(self.kg.store)
        with self._cache:
            if size != self._size:
                self._size = size
                self._snapshots.clear()
                self._loaded = None

    def loaded(self) -> list[str]:
        with self._cache:
            if self._loaded is None:
                self._loaded = list(self.kg.domains())
            return self._loaded

    def snapshot(self, domain: str) -> Snapshot:
        with self._cache:
            if domain not in self._snapshots:
                self._snapshots[domain] = read_snapshot(
                    self.kg.store,
                    self.kg.domain(domain),
                    max_rows=self.max_snapshot_rows,
                    timeout=self.limits.query_timeout_s,
                )
            return self._snapshots[domain]

    def context(self, domain: str) -> Any:
        """The graph's own question context of ``domain`` (the one ``ask`` reads with), as a view for one
        question: the planners' queries are recorded there, not in a list shared by every answer."""
        return self.kg.context(domain).for_question()

    def contracts(self) -> dict[str, str]:
        """The loaded domains and the contract each answers with."""
        return {d: self.kg.domain(d).contract for d in self.loaded()}

    # -- checking --------------------------------------------------------------------------------------------

    def verify(
        self,
        answer: object,
        *,
        question: str | None = None,
        gold: dict[str, Any] | None = None,
        fallback_id: str = "answer",
        domain: str | None = None,
    ) -> VerifyReport:
        """Run every check that applies to ``answer`` (a contract model or its JSON) and report the failures.

        ``question`` (the text that was asked) enables the checks that need to know the start node, the target
        and the hop limit; ``gold`` (the ``expected`` object of a gold line) adds the comparisons with the gold
        node and URL sets. ``domain`` says which loaded domain the answer is about, needed only when several
        loaded domains answer with the same contract (two entity–relation domains, say).
        """
        if hasattr(answer, "to_json"):
            answer = answer.to_json()
        self._refresh()
        report = VerifyReport(answer_id(answer, fallback_id))
        if not isinstance(answer, dict):
            report.fail("json", f"an answer must be a JSON object, got {type(answer).__name__}")
            return report
        over = oversized(answer, self.limits)
        if over is not None:
            report.fail("limits", over)
            return report
        if isinstance(gold, dict) and isinstance(gold.get("expected"), dict):
            question = question or (gold.get("question") if isinstance(gold.get("question"), str) else None)
            gold = gold["expected"]
        if question is not None and not isinstance(question, str):
            question = None
        if question is None and isinstance(answer.get("question"), str):
            question_source = "the answer's question"
            asked = answer["question"]
        else:
            question_source, asked = "the question", question
        if asked is not None and len(asked) > self.limits.max_question_chars:
            report.fail(
                "limits",
                f"{question_source} is {len(asked)} characters, over the limit of "
                f"{self.limits.max_question_chars} (Limits.max_question_chars); it was not read",
            )
            return report
        by_domain = self.contracts()
        contract = contract_of(answer, list(by_domain.values()) if domain is None else [by_domain.get(domain, "")])
        if contract is None:
            report.fail("schema", "cannot tell which contract the answer follows (no q_id, query_id or status)")
            return report
        errors = schema_errors(answer, contract)
        for err in errors:
            report.fail("schema", f"{contract}: {err}")
        if errors:
            return report
        if domain is None:
            fitting = [d for d, c in by_domain.items() if c == contract]
            if len(fitting) != 1:
                report.fail(
                    "data",
                    f"no dataset answering with {contract} is loaded to check it against"
                    if not fitting
                    else f"several loaded domains answer with {contract} ({', '.join(fitting)}): say which",
                )
                return report
            domain = fitting[0]
        elif by_domain.get(domain) != contract:
            report.fail("data", f"no {domain} dataset answering with {contract} is loaded to check it against")
            return report
        snap = self.snapshot(domain)
        if snap.truncated:
            report.fail(
                "data",
                f"the {domain} graph is too large to read for checking ({'; '.join(snap.truncated)});"
                " raise max_snapshot_rows",
            )
            return report
        if not snap.spec.has_names and question is None:
            question = answer.get("question")
        case = Case(self, snap, answer, report, question, gold if isinstance(gold, dict) else None)
        get_family(snap.spec.family).check(case)
        return report

    def close(self) -> None:
        """Stop the query worker, if any."""
        self.runner.close()

    def __enter__(self) -> Self:
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()
