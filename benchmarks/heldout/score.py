"""Score ont_platform's question answering on the held-out set (questions.jsonl, made by gold.py).

Each domain gets a fresh in-memory graph (``KnowledgeGraph.open()`` + ``load("examples/<domain>")``) and every
question goes through the public API only: ``kg.ask(question, domain=...)``, then ``.to_json()``.

Outcome of every question: ``correct``, ``confidently wrong`` (a confident reply that is not correct),
``safe miss`` (an answer was expected but the reply declined: refuse / max_hops / clarify / unsupported / a
low-confidence or empty on-chain reply), or ``error`` (the call raised). A refusal gold answered by a refusal
is ``correct``.

Scoring rules
-------------
kg (HopDecision)
  * gold answer: correct iff ``decision == "answer"`` and ``answer`` is the gold node id.
    A reply with ``decision`` in {refuse, max_hops} is a safe miss; any other answer is confidently wrong.
  * gold refusal (refuse or max_hops): correct iff ``decision`` in {refuse, max_hops}. ``decision == "answer"``
    is confidently wrong. Secondary figure: the exact decision (refuse vs max_hops) and, for refuse, the exact
    factor (missing_start_node / node_alias_unmapped / missing_edge / ungrounded_hop).

onchain (OnchainAnswer; confidence is one of low / mid / high)
  * A reply *declines* when ``confidence == "low"``, or when it makes no claim about the graph: empty ``path``
    and empty ``cited_nodes`` (this is how the library reports "that node is not in the graph" or "no node
    found in the question"; the contract has no other field for it).
  * gold path_exists: correct iff intent is path_exists, the path is a chain of real transfer edges
    (edge id, from, to as in onchain_edges.csv) that starts at the start node, its length equals the shortest
    length computed by BFS, and it ends in a node of the asked class / the asked node.
  * gold no_path: correct iff intent is no_path and the path is empty and the reply does not decline (a
    "node not found" reply for a node that exists is a safe miss).
  * gold cluster_lookup: correct iff intent is cluster_lookup and ``set(cited_nodes) - {start}`` equals the
    gold member set (the connected component over same_entity links, minus the start; may be empty).
  * gold label_lookup: correct iff intent is label_lookup and answer_ko names the gold class (its local name,
    e.g. ``Mixer``, as a whole word; failing that, its Korean/English label) and names no other class except the
    gold class's superclasses.
  * gold token_flow: correct iff intent is token_flow and the set of path edge ids equals the gold set (the
    transfers of that token reachable from the start within the hop limit).
  * gold refusal (unknown node, unanswerable, ambiguous, unknown class): correct iff the reply declines.
  * confidently wrong: not correct, does not decline, and confidence in {high, mid}.
    safe miss: an answer (path_exists / no_path / cluster / label / token) was gold and the reply declines.
  * Secondary figure (strict reading of "not understood"): refusal golds answered with ``confidence == "low"``.

pages (PageFilterResult)
  * gold ran: correct iff ``status == "ran"`` and the set of matched URLs equals the gold set exactly.
    status clarify/unsupported is a safe miss; ran with another URL set is confidently wrong.
  * gold clarify/unsupported: correct iff status in {clarify, unsupported}; ``ran`` is confidently wrong.
    Secondary figure: the exact status.

Usage:
  .venv/bin/python benchmarks/heldout/score.py                # table
  .venv/bin/python benchmarks/heldout/score.py --json --out results.json   # plus per-question outcomes
"""

from __future__ import annotations

import argparse
import csv
import json
import re
import sys
import time
from collections import Counter, defaultdict
from pathlib import Path

HERE = Path(__file__).resolve().parent
ROOT = HERE.parents[1]
sys.path.insert(0, str(ROOT))

from rdflib import RDFS, Graph, Namespace  # noqa: E402

from ont_platform import KnowledgeGraph  # noqa: E402

OC_NS = Namespace("https://w3id.org/ont-platform/onchain#")


def onchain_classes() -> tuple[dict[str, set[str]], dict[str, list[str]]]:
    """local class name -> superclasses (incl. itself); local class name -> its rdfs:labels."""
    g = Graph().parse(ROOT / "ontologies" / "onchain.ttl")
    ns = str(OC_NS)
    direct: dict[str, set[str]] = defaultdict(set)
    classes: set[str] = set()
    for s, o in g.subject_objects(RDFS.subClassOf):
        if str(s).startswith(ns):
            classes.add(str(s)[len(ns):])
            if str(o).startswith(ns):
                direct[str(s)[len(ns):]].add(str(o)[len(ns):])
    sup: dict[str, set[str]] = {}

    def up(c: str) -> set[str]:
        if c not in sup:
            sup[c] = {c}.union(*[up(p) for p in direct.get(c, ())]) if direct.get(c) else {c}
        return sup[c]

    labels = {}
    for c in classes:
        up(c)
        labels[c] = [str(o) for o in g.objects(OC_NS[c], RDFS.label)]
    # only address classes are relevant for a label lookup
    addr = {c for c in classes if "Address" in sup[c] and c != "Address"}
    return {c: sup[c] for c in addr}, {c: labels[c] for c in addr}


class OnchainCheck:
    def __init__(self) -> None:
        d = ROOT / "examples" / "onchain"
        with (d / "onchain_edges.csv").open(encoding="utf-8") as fh:
            self.edges = {r["edge_id"]: r for r in csv.DictReader(fh)}
        self.supers, self.labels = onchain_classes()

    def declines(self, ans: dict) -> bool:
        return ans.get("confidence") == "low" or (not ans.get("path") and not ans.get("cited_nodes"))

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
        # fall back to labels, longest first, removing each match so '토큰 컨트랙트' does not also count '컨트랙트'
        rest = text
        found = set()
        for c, lab in sorted(((c, lab) for c, labs in self.labels.items() for lab in labs),
                             key=lambda cl: -len(cl[1])):
            if lab and lab in rest:
                found.add(c)
                rest = rest.replace(lab, " ")
        return found

    def score(self, gold: dict, ans: dict) -> tuple[bool, str]:
        """(correct, detail)"""
        intent = ans.get("intent")
        path = ans.get("path") or []
        if gold.get("refuse"):
            return self.declines(ans), f"intent={intent} conf={ans.get('confidence')} path={len(path)}"
        gi = gold["intent"]
        if gi == "path_exists":
            ok = (intent == "path_exists" and len(path) == gold["length"] and self.valid_chain(path, gold["start"])
                  and path[-1]["to"] in gold["end_nodes"])
            return ok, f"intent={intent} len={len(path)} end={path[-1]['to'] if path else None}"
        if gi == "no_path":
            return (intent == "no_path" and not path and not self.declines(ans)), f"intent={intent} path={len(path)}"
        if gi == "cluster_lookup":
            members = set(ans.get("cited_nodes") or []) - {gold["start"]}
            # an empty gold cluster must be said about the node (cited), not as "node not found"
            ok = intent == "cluster_lookup" and members == set(gold["members"]) and not self.declines(ans)
            return ok, f"intent={intent} members={sorted(members)}"
        if gi == "label_lookup":
            named = self.classes_named(ans.get("answer_ko", ""))
            allowed = self.supers.get(gold["class"], {gold["class"]})
            ok = intent == "label_lookup" and gold["class"] in named and named <= allowed
            return ok, f"intent={intent} named={sorted(named)}"
        if gi == "token_flow":
            ids = {h.get("edge_id") for h in path}
            return (intent == "token_flow" and ids == set(gold["edges"])), f"intent={intent} edges={sorted(ids)}"
        raise ValueError(gi)


def judge(domain: str, gold: dict, ans: dict, oc: OnchainCheck) -> dict:
    """The outcome of one reply: correct / confidently_wrong / safe_miss / other_miss, plus secondary flags."""
    res: dict = {}
    if domain == "kg":
        dec = ans.get("decision")
        if gold["decision"] == "answer":
            correct = dec == "answer" and ans.get("answer") == gold["answer"]
            declined = dec in ("refuse", "max_hops")
        else:
            correct = dec in ("refuse", "max_hops")
            declined = correct
            res["exact_decision"] = dec == gold["decision"]
            if gold["decision"] == "refuse":
                res["exact_factor"] = dec == "refuse" and gold["factor"] in (ans.get("factors") or [])
        confident = dec == "answer"
        res["detail"] = f"decision={dec} answer={ans.get('answer')} factors={ans.get('factors')}"
    elif domain == "onchain":
        correct, detail = oc.score(gold, ans)
        declined = oc.declines(ans)
        confident = not declined and ans.get("confidence") in ("high", "mid")
        if gold.get("refuse"):
            res["strict_low"] = ans.get("confidence") == "low"
        res["detail"] = detail + f" conf={ans.get('confidence')}"
    else:
        st = ans.get("status")
        urls = {m["url"] for m in ans.get("matched") or []}
        if gold["status"] == "ran":
            correct = st == "ran" and urls == set(gold["urls"])
        else:
            correct = st in ("clarify", "unsupported")
            res["exact_status"] = st == gold["status"]
        declined = st in ("clarify", "unsupported")
        confident = st == "ran"
        res["detail"] = f"status={st} n={len(urls)} filter={ans.get('parsed_filter')}"
    if correct:
        res["outcome"] = "correct"
    elif confident:
        res["outcome"] = "confidently_wrong"
    elif declined and gold["kind"] != "refusal":
        res["outcome"] = "safe_miss"
    else:
        res["outcome"] = "other_miss"
    return res


def pct(a: int, b: int) -> str:
    return f"{100 * a / b:5.1f}%" if b else "   - "


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--json", action="store_true", help="write per-question outcomes as JSON")
    ap.add_argument("--out", default=str(HERE / "results.json"), help="file for --json (default results.json)")
    ap.add_argument("--questions", default=str(HERE / "questions.jsonl"))
    args = ap.parse_args()

    items = [json.loads(line) for line in Path(args.questions).read_text(encoding="utf-8").splitlines() if line.strip()]
    oc = OnchainCheck()
    results = []
    t0 = time.perf_counter()
    for domain in ("kg", "onchain", "pages"):
        kg = KnowledgeGraph.open()
        kg.load(ROOT / "examples" / domain)
        for it in (i for i in items if i["domain"] == domain):
            try:
                ans = kg.ask(it["question"], domain=domain, qid=it["id"]).to_json()
                res = judge(domain, it["gold"], ans, oc)
            except Exception as exc:  # a crash is neither an answer nor a refusal
                ans = None
                res = {"outcome": "error", "detail": f"{type(exc).__name__}: {exc}"}
            results.append({"id": it["id"], "domain": domain, "lang": it["lang"], "question": it["question"],
                            "gold": it["gold"], "reply": ans, **res})
        kg.close()
    secs = time.perf_counter() - t0

    def row(name: str, rs: list[dict]) -> str:
        n = len(rs)
        c = Counter(r["outcome"] for r in rs)
        exp_ans = sum(r["gold"]["kind"] != "refusal" for r in rs)
        return (f"{name:16s} {n:4d} {c['correct']:8d} {pct(c['correct'], n):>9s} {c['confidently_wrong']:6d} "
                f"{pct(c['confidently_wrong'], n):>7s} {c['safe_miss']:5d}/{exp_ans:<4d} {c['other_miss'] + c['error']:6d}")

    head = f"{'':16s} {'n':>4s} {'correct':>8s} {'correct%':>9s} {'conf.wrong':>6s} {'cw%':>7s} {'safe miss':>10s} {'other':>6s}"
    print(head)
    print("-" * len(head))
    for dom in ("kg", "onchain", "pages"):
        print(row(dom, [r for r in results if r["domain"] == dom]))
    print(row("overall", results))
    print("-" * len(head))
    for lang in ("ko", "en"):
        print(row(f"overall[{lang}]", [r for r in results if r["lang"] == lang]))
    for kind in ("answer", "no_path", "refusal"):
        rs = [r for r in results if r["gold"]["kind"] == kind]
        if rs:
            print(row(f"gold={kind}", rs))
    print("-" * len(head))
    print("safe miss = declined where an answer was expected (x/y: y = questions whose gold is an answer);")
    print("other = a non-confident miss that is not a safe miss, or an error.")
    # secondary figures
    kgr = [r for r in results if r["domain"] == "kg" and r["gold"]["kind"] == "refusal"]
    ocr = [r for r in results if r["domain"] == "onchain" and r["gold"]["kind"] == "refusal"]
    pgr = [r for r in results if r["domain"] == "pages" and r["gold"]["kind"] == "refusal"]
    fr = [r for r in kgr if "exact_factor" in r]
    print(f"secondary: kg refusals with the exact decision {sum(r.get('exact_decision', False) for r in kgr)}/{len(kgr)}, "
          f"refuse with the exact factor {sum(r['exact_factor'] for r in fr)}/{len(fr)}; "
          f"onchain refusals answered with confidence=low {sum(r.get('strict_low', False) for r in ocr)}/{len(ocr)}; "
          f"pages refusals with the exact status {sum(r.get('exact_status', False) for r in pgr)}/{len(pgr)}")
    errs = sum(r["outcome"] == "error" for r in results)
    print(f"errors: {errs}   time: {secs:.1f}s")
    if args.json:
        Path(args.out).write_text(json.dumps(results, ensure_ascii=False, indent=1), encoding="utf-8")
        print(f"per-question outcomes written to {args.out}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
