"""What a reply is worth: the judges of the held-out sets (``set.json`` ``"judge"``).

Every reply gets exactly one outcome:

* ``correct``            -- see each judge below;
* ``confidently_wrong``  -- not correct, and the reply is a confident claim;
* ``safe_miss``          -- the gold is an answer, and the reply declined;
* ``other_miss``         -- anything else (e.g. an onchain low-confidence wrong claim);
* ``error``              -- the call raised / the command failed to give JSON (set by the scorer).

``contract`` (sets 2 to 8; the judge sets 9 and 10 extend)
----------------------------------------------------------
A confident claim is kg/films ``decision == "answer"``; pages ``status == "ran"``; onchain a positive claim -- a
path, a cluster member or a class -- with confidence ``high`` or ``mid``. A decline is refuse / max_hops /
clarify / unsupported / an onchain reply with no positive claim or confidence ``low``.

Answer golds (``gold_kind`` ``answer`` or ``multi``):

* kg, films (hop_decision): ``decision == "answer"`` and the set of node ids in ``answer`` equals the gold set
  exactly. ``answer`` is a string; it is split on commas, semicolons, ``|`` and whitespace, so a reply naming
  several ids is read as a set. For ``multi`` golds (several true answers) naming only some of them is wrong.
* pages (page_filter_result): ``status == "ran"`` and the set of matched URLs equals the gold URL set exactly
  (an empty gold set needs an empty ``ran`` result).
* onchain (onchain_answer):
  - path_exists: ``intent == "path_exists"``; the path is a chain of real ``transfer`` edges (edge id, from, to
    as in onchain_edges.csv) starting at the gold start; its length equals the BFS shortest length; it ends in
    one of the gold end nodes.
  - cluster_lookup: ``intent == "cluster_lookup"`` and ``set(cited_nodes) - {start}`` equals the gold members.
  - label_lookup: ``intent == "label_lookup"`` and ``answer_ko`` names the gold class (local name as a whole
    word, else one of its rdfs:labels) and no other class except the gold class's superclasses.

Decline golds (``gold_kind == "decline"``): any refusal counts, whatever its exact form:

* kg, films: ``decision`` in {refuse, max_hops} (gold ``refuse`` answered ``max_hops`` or the reverse is still
  correct; the exact decision and factor are secondary figures).
* pages: ``status`` in {clarify, unsupported} (exact status: secondary figure).
* onchain (gold ``no_path``, an empty cluster, or a question the graph cannot answer): the reply makes no
  positive claim -- ``confidence == "low"``; or an empty path with ``intent`` ``no_path``; or an empty path with
  ``intent`` ``cluster_lookup`` citing no node but the start; or an empty path and no cited nodes. A
  ``label_lookup`` that names a class, or any non-empty path, is a claim.

``set1`` (set 1, benchmarks/heldout: gold ``kind`` answer / no_path / refusal)
-------------------------------------------------------------------------------
Pages are judged as by ``contract``. Where it differs:

* kg: the gold is one node id; correct iff ``decision == "answer"`` and ``answer`` is that id, as a string.
  The exact factor is a secondary figure of ``refuse`` golds only, and needs ``decision == "refuse"``.
* onchain: a reply *declines* when ``confidence == "low"`` or it cites no node and no edge (empty ``path`` and
  ``cited_nodes``). A ``no_path`` gold is an answer: correct iff intent ``no_path``, an empty path and no
  decline. An empty cluster must be said about the node (a decline is not correct). ``token_flow``: correct iff
  intent ``token_flow`` and the set of path edge ids equals the gold set. Refusal golds: correct iff the reply
  declines (secondary: with ``confidence == "low"``, ``strict_low``).
* safe miss: a decline where the gold kind is not ``refusal`` (a ``no_path`` gold counts as an answer).

``films`` (benchmarks/heldout_films: gold ``expected`` = decision, answer, path, factors)
------------------------------------------------------------------------------------------
``dec_ok``: the decision equals the gold decision; ``full``: decision, answer node, factors (as a set) and path
(src, rel, dst, chunk_id of every hop, in order) all equal the gold; ``path_ok``: the path alone. ``correct`` is
a full match; ``confidently_wrong`` (``conf_wrong``) is ``decision == "answer"`` where the gold refuses or names
another node; ``safe_miss``: the gold is ``answer`` and the reply is refuse / max_hops. Decision right, full
match and path match are the set's figures.
"""

from __future__ import annotations

import csv
import json
import re
from collections import defaultdict
from collections.abc import Callable
from pathlib import Path

from .sets import ROOT

# ---------------------------------------------------------------------------------------------------------
# onchain helpers


def onchain_classes() -> tuple[dict[str, set[str]], dict[str, list[str]]]:
    """address class local name -> its superclasses (incl. itself); -> its rdfs:labels."""
    from rdflib import RDFS, Graph, Namespace

    oc = Namespace("https://w3id.org/ont-platform/onchain#")
    g = Graph().parse(ROOT / "ontologies" / "onchain.ttl")
    ns = str(oc)
    direct: dict[str, set[str]] = defaultdict(set)
    classes: set[str] = set()
    for s, o in g.subject_objects(RDFS.subClassOf):
        if str(s).startswith(ns):
            classes.add(str(s)[len(ns) :])
            if str(o).startswith(ns):
                direct[str(s)[len(ns) :]].add(str(o)[len(ns) :])
    sup: dict[str, set[str]] = {}

    def up(c: str) -> set[str]:
        if c not in sup:
            sup[c] = {c}.union(*[up(p) for p in direct.get(c, ())]) if direct.get(c) else {c}
        return sup[c]

    for c in classes:
        up(c)
    addr = {c for c in classes if "Address" in sup[c] and c != "Address"}
    labels = {c: [str(o) for o in g.objects(oc[c], RDFS.label)] for c in addr}
    return {c: sup[c] for c in addr}, labels


class OnchainCheck:
    def __init__(self) -> None:
        with (ROOT / "examples" / "onchain" / "onchain_edges.csv").open(encoding="utf-8") as fh:
            self.edges = {r["edge_id"]: r for r in csv.DictReader(fh)}
        self.supers, self.labels = onchain_classes()

    @staticmethod
    def no_claim(ans: dict, start: str | None = None) -> bool:
        """The reply asserts nothing positive about the graph."""
        path = ans.get("path") or []
        cited = set(ans.get("cited_nodes") or [])
        if ans.get("confidence") == "low":
            return True
        if path:
            return False
        intent = ans.get("intent")
        if intent == "no_path":
            return True
        if intent == "cluster_lookup":
            return not (cited - ({start} if start else set())) or len(cited) <= 1
        return not cited

    def valid_chain(self, path: list[dict], start: str) -> bool:
        cur = start
        for hop in path:
            e = self.edges.get(hop.get("edge_id"))
            if e is None or e["rel"] != "transfer" or e["from"] != hop.get("from") or e["to"] != hop.get("to"):
                return False
            if hop["from"] != cur:
                return False
            cur = hop["to"]
        return True

    def classes_named(self, text: str) -> set[str]:
        named = {c for c in self.supers if re.search(rf"(?<![A-Za-z]){re.escape(c)}(?![A-Za-z])", text)}
        if named:
            return named
        # labels, longest first, each match removed so that '토큰 컨트랙트' does not also count '컨트랙트'
        rest, found = text, set()
        for c, lab in sorted(((c, lab) for c, labs in self.labels.items() for lab in labs), key=lambda cl: -len(cl[1])):
            if lab and lab in rest:
                found.add(c)
                rest = rest.replace(lab, " ")
        return found

    def path_correct(self, gold: dict, ans: dict) -> bool:
        path = ans.get("path") or []
        return (
            ans.get("intent") == "path_exists"
            and len(path) == gold["length"]
            and self.valid_chain(path, gold["start"])
            and path[-1].get("to") in gold["end_nodes"]
        )

    def label_correct(self, gold: dict, ans: dict) -> bool:
        named = self.classes_named(ans.get("answer_ko") or "")
        allowed = self.supers.get(gold["class"], {gold["class"]})
        return ans.get("intent") == "label_lookup" and gold["class"] in named and named <= allowed

    def correct(self, gold: dict, ans: dict, decline_gold: bool) -> bool:
        if decline_gold:
            return self.no_claim(ans, gold.get("start"))
        gi = gold["intent"]
        if gi == "path_exists":
            return self.path_correct(gold, ans)
        if gi == "cluster_lookup":
            cited = set(ans.get("cited_nodes") or [])
            return ans.get("intent") == "cluster_lookup" and cited - {gold["start"]} == set(gold["members"])
        if gi == "label_lookup":
            return self.label_correct(gold, ans)
        raise ValueError(gi)


# ---------------------------------------------------------------------------------------------------------
# contract


def answer_ids(answer: object) -> set[str]:
    if not answer:
        return set()
    if isinstance(answer, list):
        return {str(a) for a in answer}
    return {p for p in re.split(r"[,;|\s]+", str(answer)) if p}


def outcome(correct: bool, confident: bool, safe: bool) -> str:
    """``safe``: the reply declined where an answer was gold."""
    if correct:
        return "correct"
    if confident:
        return "confidently_wrong"
    return "safe_miss" if safe else "other_miss"


def pages_judge(gold: dict, ans: dict, decline_gold: bool, res: dict) -> tuple[bool, bool, bool]:
    """(correct, declined, confident) of a page_filter_result reply; the secondary figure and detail go to res."""
    st = ans.get("status")
    urls = {m.get("url") for m in ans.get("matched") or []}
    declined = st in ("clarify", "unsupported")
    if decline_gold:
        correct = declined
        res["exact_status"] = st == gold["status"]
    else:
        correct = st == "ran" and urls == set(gold["urls"])
    res["detail"] = f"status={st} n={len(urls)} filter={ans.get('parsed_filter')}"
    return correct, declined, st == "ran"


def judge(domain: str, item: dict, ans: dict, oc: OnchainCheck) -> dict:
    gold, gk = item["gold"], item["gold_kind"]
    decline_gold = gk == "decline"
    res: dict = {}
    if domain in ("kg", "films"):
        dec = ans.get("decision")
        declined = dec in ("refuse", "max_hops")
        confident = dec == "answer"
        if decline_gold:
            correct = declined
            res["exact_decision"] = dec == gold["decision"]
            if gold.get("factor"):
                res["exact_factor"] = gold["factor"] in (ans.get("factors") or [])
        else:
            correct = dec == "answer" and answer_ids(ans.get("answer")) == set(gold["answer"])
        res["detail"] = f"decision={dec} answer={ans.get('answer')} factors={ans.get('factors')}"
    elif domain == "onchain":
        correct = oc.correct(gold, ans, decline_gold)
        declined = oc.no_claim(ans, gold.get("start"))
        confident = not declined and ans.get("confidence") in ("high", "mid")
        if decline_gold and gold.get("intent") == "no_path":
            res["exact_intent"] = ans.get("intent") == "no_path"
        if not decline_gold and gold.get("intent") == "path_exists":
            res["confident_no_path"] = ans.get("intent") == "no_path" and ans.get("confidence") in ("high", "mid")
        path = ans.get("path") or []
        res["detail"] = (
            f"intent={ans.get('intent')} conf={ans.get('confidence')} len={len(path)} "
            f"end={path[-1].get('to') if path else None} cited={ans.get('cited_nodes')}"
        )
    else:
        correct, declined, confident = pages_judge(gold, ans, decline_gold, res)
    res["outcome"] = outcome(correct, confident, declined and not decline_gold)
    return res


# ---------------------------------------------------------------------------------------------------------
# set1


def set1_declines(ans: dict) -> bool:
    return ans.get("confidence") == "low" or (not ans.get("path") and not ans.get("cited_nodes"))


def set1_onchain(oc: OnchainCheck, gold: dict, ans: dict) -> tuple[bool, str]:
    """(correct, detail) of an onchain reply to a set 1 question."""
    intent = ans.get("intent")
    path = ans.get("path") or []
    if gold.get("refuse"):
        return set1_declines(ans), f"intent={intent} conf={ans.get('confidence')} path={len(path)}"
    gi = gold["intent"]
    if gi == "path_exists":
        return oc.path_correct(gold, ans), f"intent={intent} len={len(path)} end={path[-1]['to'] if path else None}"
    if gi == "no_path":
        return intent == "no_path" and not path and not set1_declines(ans), f"intent={intent} path={len(path)}"
    if gi == "cluster_lookup":
        members = set(ans.get("cited_nodes") or []) - {gold["start"]}
        ok = intent == "cluster_lookup" and members == set(gold["members"]) and not set1_declines(ans)
        return ok, f"intent={intent} members={sorted(members)}"
    if gi == "label_lookup":
        return oc.label_correct(
            gold, ans
        ), f"intent={intent} named={sorted(oc.classes_named(ans.get('answer_ko', '')))}"
    if gi == "token_flow":
        ids = {h.get("edge_id") for h in path}
        return intent == "token_flow" and ids == set(gold["edges"]), f"intent={intent} edges={sorted(ids)}"
    raise ValueError(gi)


def judge_set1(domain: str, item: dict, ans: dict, oc: OnchainCheck) -> dict:
    gold = item["gold"]
    res: dict = {}
    if domain == "kg":
        dec = ans.get("decision")
        declined = dec in ("refuse", "max_hops")
        if gold["decision"] == "answer":
            correct = dec == "answer" and ans.get("answer") == gold["answer"]
        else:
            correct = declined
            res["exact_decision"] = dec == gold["decision"]
            if gold["decision"] == "refuse":
                res["exact_factor"] = dec == "refuse" and gold["factor"] in (ans.get("factors") or [])
        confident = dec == "answer"
        res["detail"] = f"decision={dec} answer={ans.get('answer')} factors={ans.get('factors')}"
    elif domain == "onchain":
        correct, detail = set1_onchain(oc, gold, ans)
        declined = set1_declines(ans)
        confident = not declined and ans.get("confidence") in ("high", "mid")
        if gold.get("refuse"):
            res["strict_low"] = ans.get("confidence") == "low"
        res["detail"] = detail + f" conf={ans.get('confidence')}"
    else:
        correct, declined, confident = pages_judge(gold, ans, gold["status"] != "ran", res)
    res["outcome"] = outcome(correct, confident, declined and gold["kind"] != "refusal")
    return res


def items_set1(items: list[dict], folder: Path) -> list[dict]:
    """Set 1's gold says its kind (answer / no_path / refusal); a refusal is the set's decline."""
    for it in items:
        it["kind"] = it["gold"]["kind"]
        it["gold_kind"] = "decline" if it["kind"] == "refusal" else "answer"
    return items


# ---------------------------------------------------------------------------------------------------------
# films


def hops(path: list[dict] | None) -> list[tuple]:
    return [(h.get("src"), h.get("rel"), h.get("dst"), h.get("chunk_id")) for h in path or []]


def judge_films(domain: str, item: dict, ans: dict, oc: OnchainCheck) -> dict:
    exp = item["gold"]
    dec_ok = ans.get("decision") == exp["decision"]
    ans_ok = ans.get("answer") == exp["answer"]
    fac_ok = sorted(ans.get("factors") or []) == sorted(exp["factors"])
    path_ok = hops(ans.get("path")) == hops(exp["path"])
    full = dec_ok and ans_ok and fac_ok and path_ok
    conf_wrong = ans.get("decision") == "answer" and (exp["decision"] != "answer" or not ans_ok)
    safe_miss = exp["decision"] == "answer" and ans.get("decision") in ("refuse", "max_hops")
    detail = f"decision={ans.get('decision')} answer={ans.get('answer')} factors={ans.get('factors')}"
    return {
        "dec_ok": dec_ok,
        "full": full,
        "path_ok": path_ok,
        "conf_wrong": conf_wrong,
        "safe_miss": safe_miss,
        "detail": detail,
        "outcome": outcome(full, conf_wrong, safe_miss),
    }


def items_films(items: list[dict], folder: Path) -> list[dict]:
    """The films questions hold their gold in ``expected``; their kind is the meaning's kind in spec.jsonl."""
    spec = {}
    if (folder / "spec.jsonl").exists():
        lines = (folder / "spec.jsonl").read_text(encoding="utf-8").splitlines()
        spec = {q["id"]: q for q in map(json.loads, filter(str.strip, lines))}
    for it in items:
        it["domain"] = "films"
        it["kind"] = spec.get(it["id"], {}).get("meaning", {}).get("kind", "?")
        exp = it.pop("expected")
        it["gold_kind"] = "answer" if exp["decision"] == "answer" else "decline"
        it["gold"] = exp
    return items


Judge = Callable[[str, dict, dict, OnchainCheck], dict]
# set.json "judge" -> (how its questions.jsonl lines become items, the judge)
RULES: dict[str, tuple[Callable[[list[dict], Path], list[dict]], Judge]] = {
    "contract": (lambda items, folder: items, judge),
    "set1": (items_set1, judge_set1),
    "films": (items_films, judge_films),
}
