"""Scoring answers against a gold set: accuracy, decision accuracy, path match rate, URL-set exact match.

Gold format: JSON lines ``{"id", "question", "expected": {...}}`` — the ``questions.jsonl`` files of
``examples/`` are gold files as they are. ``expected`` holds any of the contract's structural fields; only
the fields it holds are compared, each its own way:

* ``intent``, ``decision``, ``status``, ``confidence``, ``grounding_ok``, ``parsed_filter``, ``count``: equal;
* ``answer`` (hop decisions): the same set of comma-separated ids;
* ``cited_nodes``, ``factors``, ``columns_used``: the same set;
* ``path``: the same steps in the same order, on the keys the gold steps give;
* ``matched`` (its URLs) or ``expected_urls``: the same URL set.

Free text (``answer_ko``, ``reason``, ``evidence``, ``hedge``) and ``generated_query`` are never compared: they
are worded, not right or wrong (the query is checked by running it, in :mod:`ont_platform.verify`).

Metrics, overall and per group (the gold's intent, decision or status, prefixed by the domain):
``accuracy`` (every expected field matches), ``decision_accuracy`` (the intent/decision/status alone),
``path_match_rate`` (over items whose gold has a path), ``url_set_match`` (over page items the gold says ran),
and ``verified_rate`` (answers that pass every verification check). A rate over no items is ``None``.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from ont_platform.domains import get_domain
from ont_platform.errors import InputError
from ont_platform.families import claims, families, get_family
from ont_platform.verify import Verifier, read_gold
from ont_platform.verify.query import Isolation

SET_FIELDS = ("cited_nodes", "factors", "columns_used")
EQUAL_FIELDS = ("intent", "decision", "status", "confidence", "grounding_ok", "parsed_filter", "count")
TEXT_FIELDS = ("answer_ko", "reason", "evidence", "hedge", "generated_query", "question", "q_id", "query_id")


@dataclass
class ItemScore:
    """How one answer compares with its gold line."""

    id: str
    domain: str
    group: str
    correct: bool
    decision_ok: bool
    path_ok: bool | None = None
    urls_ok: bool | None = None
    verified: bool | None = None
    mismatches: list[str] = field(default_factory=list)

    def to_json(self) -> dict[str, Any]:
        return {
            "id": self.id,
            "group": self.group,
            "correct": self.correct,
            "decision_ok": self.decision_ok,
            "path_ok": self.path_ok,
            "urls_ok": self.urls_ok,
            "verified": self.verified,
            "mismatches": self.mismatches,
        }


def _rate(values: list[bool | None]) -> float | None:
    known = [v for v in values if v is not None]
    return round(sum(known) / len(known), 6) if known else None


def metrics(items: list[ItemScore]) -> dict[str, Any]:
    """The rates over ``items`` (see the module documentation)."""
    return {
        "n": len(items),
        "accuracy": _rate([i.correct for i in items]),
        "decision_accuracy": _rate([i.decision_ok for i in items]),
        "path_match_rate": _rate([i.path_ok for i in items]),
        "path_n": sum(1 for i in items if i.path_ok is not None),
        "url_set_match": _rate([i.urls_ok for i in items]),
        "url_n": sum(1 for i in items if i.urls_ok is not None),
        "verified_rate": _rate([i.verified for i in items]),
    }


@dataclass
class GoldReport:
    """Scores of every gold item, with the rates overall and per group."""

    items: list[ItemScore]

    def by_group(self) -> dict[str, dict[str, Any]]:
        groups: dict[str, list[ItemScore]] = {}
        for item in self.items:
            groups.setdefault(item.group, []).append(item)
        return {g: metrics(groups[g]) for g in sorted(groups)}

    def to_json(self) -> dict[str, Any]:
        return {
            "overall": metrics(self.items),
            "by_intent": self.by_group(),
            "items": [i.to_json() for i in self.items],
        }

    def table(self) -> str:
        """A plain-text table of the rates, one row per group and one overall."""
        head = ("group", "n", "accuracy", "decision", "path", "urls", "verified")
        rows = [head]

        def cell(x: float | None) -> str:
            return "-" if x is None else f"{x:.3f}"

        for name, m in [*self.by_group().items(), ("all", metrics(self.items))]:
            rows.append(
                (
                    name,
                    str(m["n"]),
                    cell(m["accuracy"]),
                    cell(m["decision_accuracy"]),
                    cell(m["path_match_rate"]),
                    cell(m["url_set_match"]),
                    cell(m["verified_rate"]),
                )
            )
        widths = [max(len(r[c]) for r in rows) for c in range(len(head))]
        lines = []
        for k, r in enumerate(rows):
            lines.append("  ".join(v.ljust(widths[c]) if c == 0 else v.rjust(widths[c]) for c, v in enumerate(r)))
            if k == 0 or k == len(rows) - 2:
                lines.append("  ".join("-" * w for w in widths))
        misses = [i for i in self.items if not i.correct]
        if misses:
            lines.append("")
            lines.append("not matching the gold:")
            for i in misses:
                lines.append(f"  {i.id} ({i.group}): {'; '.join(i.mismatches)}")
        return "\n".join(lines) + "\n"


# -- comparing -------------------------------------------------------------------------------------------------


def family_of(expected: Mapping[str, Any], answer: Mapping[str, Any] | None) -> str | None:
    """The domain family whose contract the gold (or else the answer) is written in."""
    for doc in (expected, answer or {}):
        for family in families():
            if claims(family, doc):
                return family.name
    return None


def _domain_for(kg: Any, loaded: list[str], family: str | None) -> str | None:
    """The one loaded domain of ``family`` (or the only loaded domain when the family is not known)."""
    if family is None:
        return loaded[0] if len(loaded) == 1 else None
    fitting = [d for d in loaded if kg.domain(d).family == family]
    return fitting[0] if len(fitting) == 1 else None


def _urls(value: Iterable[object] | None) -> set[str]:
    return {str(m.get("url")) if isinstance(m, dict) else str(m) for m in value or []}


def _ids(value: object) -> set[str]:
    return {x.strip() for x in str(value).split(",") if x.strip()} if value is not None else set()


def _path_equal(want: list[Any], got: list[Any]) -> bool:
    if len(want) != len(got):
        return False
    for w, g in zip(want, got, strict=True):
        if not isinstance(w, dict) or not isinstance(g, dict):
            return False
        if any(g.get(k) != v for k, v in w.items()):
            return False
    return True


def score(
    item_id: str, expected: Mapping[str, Any], answer: Mapping[str, Any] | None, domain: str, family: str | None = None
) -> ItemScore:
    """Compare one answer with its gold ``expected`` object."""
    if family is None:
        family = get_domain(domain).family
    key = get_family(family).decision_field
    group = f"{domain}:{expected.get(key, (answer or {}).get(key, '?'))}"
    if answer is None:
        missed_urls = (
            False
            if family == "inventory"
            and expected.get("status", "ran") == "ran"
            and ("matched" in expected or "expected_urls" in expected)
            else None
        )
        return ItemScore(
            item_id,
            domain,
            group,
            False,
            False,
            False if "path" in expected else None,
            missed_urls,
            None,
            ["no answer"],
        )
    miss: list[str] = []
    for f in EQUAL_FIELDS:
        if f in expected and answer.get(f) != expected[f]:
            miss.append(f"{f}: expected {expected[f]!r}, got {answer.get(f)!r}")
    if "answer" in expected and _ids(expected["answer"]) != _ids(answer.get("answer")):
        miss.append(f"answer: expected {expected['answer']!r}, got {answer.get('answer')!r}")
    for f in SET_FIELDS:
        if f in expected and set(map(str, expected[f] or [])) != set(map(str, answer.get(f) or [])):
            miss.append(
                f"{f}: expected {sorted(map(str, expected[f] or []))}, got {sorted(map(str, answer.get(f) or []))}"
            )
    path_ok: bool | None = None
    if isinstance(expected.get("path"), list):
        path_ok = _path_equal(expected["path"], list(answer.get("path") or []))
        if not path_ok:
            miss.append("path differs from the gold path")
    urls_ok: bool | None = None
    gold_urls = (
        _urls(expected["expected_urls"])
        if "expected_urls" in expected
        else (_urls(expected["matched"]) if "matched" in expected else None)
    )
    if gold_urls is not None:
        same = gold_urls == _urls(answer.get("matched"))
        if not same:
            got = _urls(answer.get("matched"))
            miss.append(f"URLs: missing {sorted(gold_urls - got) or 'none'}, extra {sorted(got - gold_urls) or 'none'}")
        if expected.get("status", "ran") == "ran":
            urls_ok = same
    decision_ok = key not in expected or answer.get(key) == expected[key]
    return ItemScore(item_id, domain, group, not miss, decision_ok, path_ok, urls_ok, None, miss)


# -- running ---------------------------------------------------------------------------------------------------


def _answers_by_id(source: str | Path | Iterable[Mapping[str, Any]]) -> dict[str, dict[str, Any]]:
    from ont_platform.jsonl import strict_jsonl

    if isinstance(source, (str, Path)):
        # the shared reader: line and depth limits, numbers too long to convert, file and line in every error
        docs = [doc for _n, doc in strict_jsonl(Path(source))]
    else:
        docs = [dict(d) for d in source]
    out: dict[str, dict[str, Any]] = {}
    for doc in docs:
        if not isinstance(doc, dict):
            raise InputError("every answer must be a JSON object")
        for key in ("q_id", "query_id", "question", "id"):
            if isinstance(doc.get(key), (str, int)):
                out.setdefault(str(doc[key]), doc)
    return out


def evaluate_gold(
    kg: Any,
    gold: str | Path | Iterable[Mapping[str, Any]],
    *,
    answers: str | Path | Iterable[Mapping[str, Any]] | None = None,
    verify: bool = True,
    isolation: Isolation = "thread",
) -> GoldReport:
    """Score answers against a gold file: the answers in ``answers`` (joined on ``q_id``/``query_id``, or the
    question for pages), or, without it, fresh answers from ``kg.ask``. ``verify`` also runs every
    verification check on each answer (``verified_rate``)."""
    lines = read_gold(gold)
    ordered: list[dict[str, Any]] = []
    seen: set[int] = set()
    for doc in lines.values():
        if id(doc) not in seen:
            seen.add(id(doc))
            ordered.append(doc)
    given = _answers_by_id(answers) if answers is not None else None
    loaded = list(kg.domains())
    items: list[ItemScore] = []
    with Verifier(kg, isolation=isolation) as verifier:
        for doc in ordered:
            item_id = str(doc["id"])
            expected = doc.get("expected") or {}
            question = doc.get("question")
            answer: dict[str, Any] | None
            if given is not None:
                answer = given.get(item_id) or (given.get(question) if isinstance(question, str) else None)
            else:
                if not isinstance(question, str):
                    raise InputError(f"gold item {item_id} has no question to ask")
                domain = _domain_for(kg, loaded, family_of(expected, None))
                if domain is None:
                    raise InputError(
                        f"gold item {item_id}: cannot tell its domain; give expected.intent, "
                        "expected.decision or expected.status"
                    )
                answer = kg.ask(question, domain=domain, qid=item_id).to_json()
            family = family_of(expected, answer)
            domain = _domain_for(kg, loaded, family) or (loaded[0] if loaded else "?")
            s = score(item_id, expected, answer, domain, family or kg.domain(domain).family)
            if verify and answer is not None:
                s.verified = verifier.verify(
                    answer, question=question if isinstance(question, str) else None, gold=dict(expected)
                ).ok
            items.append(s)
    return GoldReport(items)
