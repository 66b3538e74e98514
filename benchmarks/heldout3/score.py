"""Score ont_platform's question answering on held-out set 3 (questions.jsonl, made by build.py).

Every question is asked exactly once, through the public API: for each domain a fresh in-memory graph
(``KnowledgeGraph.open()`` + ``load("examples/<domain>")``), then ``kg.ask(question, domain=..., qid=...)`` and
``.to_json()``. ``--cli`` asks through the command line instead (``ont ask --data examples/<domain> --json``;
pages: ``ont pages QUESTION --inventory examples/pages --json``), one process per question.

Every reply gets exactly one outcome:

* ``correct``            -- see the rules below;
* ``confidently_wrong``  -- not correct, and the reply is a confident claim (kg/films ``decision == "answer"``;
  pages ``status == "ran"``; onchain a positive claim -- a path, a cluster member or a class -- with confidence
  ``high`` or ``mid``);
* ``safe_miss``          -- the gold is an answer, and the reply declined (refuse / max_hops / clarify /
  unsupported / an onchain reply with no positive claim or confidence ``low``);
* ``other_miss``         -- anything else (e.g. an onchain low-confidence wrong claim);
* ``error``              -- the call raised / the command failed to give JSON.

Definition of "correct"
-----------------------
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
  correct; the exact decision and factor are reported as a secondary figure).
* pages: ``status`` in {clarify, unsupported} (exact status: secondary figure).
* onchain (gold ``no_path``, an empty cluster, or a question the graph cannot answer): the reply makes no
  positive claim -- ``confidence == "low"``; or an empty path with ``intent`` ``no_path``; or an empty path with
  ``intent`` ``cluster_lookup`` citing no node but the start; or an empty path and no cited nodes. A
  ``label_lookup`` that names a class, or any non-empty path, is a claim.

Printed per domain (and overall, per language, per gold kind): number of questions, % correct,
% confidently wrong, and safe misses (x / number of answer golds, and % of all questions).

Usage (from the repository root):
  .venv/bin/python benchmarks/heldout3/score.py --dry-run        # parse and check questions.jsonl, ask nothing
  .venv/bin/python benchmarks/heldout3/score.py                  # ask every question once, print the table
  .venv/bin/python benchmarks/heldout3/score.py --json           # also write results.json (per question)
  .venv/bin/python benchmarks/heldout3/score.py --cli            # through the `ont` command instead of the API

This set must not be used for tuning: see README.md.
"""

from __future__ import annotations

import argparse
import csv
import json
import re
import subprocess
import sys
import time
from collections import Counter, defaultdict
from pathlib import Path

HERE = Path(__file__).resolve().parent
ROOT = HERE.parents[1]
DOMAINS = ("kg", "onchain", "pages", "films")


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
            classes.add(str(s)[len(ns):])
            if str(o).startswith(ns):
                direct[str(s)[len(ns):]].add(str(o)[len(ns):])
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
        rest, found = text, set()
        for c, lab in sorted(((c, lab) for c, labs in self.labels.items() for lab in labs), key=lambda cl: -len(cl[1])):
            if lab and lab in rest:
                found.add(c)
                rest = rest.replace(lab, " ")
        return found

    def correct(self, gold: dict, ans: dict, decline_gold: bool) -> bool:
        intent = ans.get("intent")
        path = ans.get("path") or []
        if decline_gold:
            return self.no_claim(ans, gold.get("start"))
        gi = gold["intent"]
        if gi == "path_exists":
            return (intent == "path_exists" and len(path) == gold["length"] and self.valid_chain(path, gold["start"])
                    and path[-1].get("to") in gold["end_nodes"])
        if gi == "cluster_lookup":
            return intent == "cluster_lookup" and set(ans.get("cited_nodes") or []) - {gold["start"]} == set(gold["members"])
        if gi == "label_lookup":
            named = self.classes_named(ans.get("answer_ko") or "")
            return intent == "label_lookup" and gold["class"] in named and named <= self.supers.get(gold["class"], {gold["class"]})
        raise ValueError(gi)


# ---------------------------------------------------------------------------------------------------------


def answer_ids(answer: object) -> set[str]:
    if not answer:
        return set()
    if isinstance(answer, list):
        return {str(a) for a in answer}
    return {p for p in re.split(r"[,;|\s]+", str(answer)) if p}


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
        res["detail"] = (f"intent={ans.get('intent')} conf={ans.get('confidence')} len={len(path)} "
                         f"end={path[-1].get('to') if path else None} cited={ans.get('cited_nodes')}")
    else:
        st = ans.get("status")
        urls = {m.get("url") for m in ans.get("matched") or []}
        declined = st in ("clarify", "unsupported")
        confident = st == "ran"
        if decline_gold:
            correct = declined
            res["exact_status"] = st == gold["status"]
        else:
            correct = st == "ran" and urls == set(gold["urls"])
        res["detail"] = f"status={st} n={len(urls)} filter={ans.get('parsed_filter')}"
    if correct:
        res["outcome"] = "correct"
    elif confident:
        res["outcome"] = "confidently_wrong"
    elif declined and not decline_gold:
        res["outcome"] = "safe_miss"
    else:
        res["outcome"] = "other_miss"
    return res


# ---------------------------------------------------------------------------------------------------------


def load_items(path: Path) -> list[dict]:
    items = []
    for n, line in enumerate(path.read_text(encoding="utf-8").splitlines(), 1):
        if not line.strip():
            continue
        it = json.loads(line)
        for key in ("id", "domain", "lang", "question", "gold", "kind", "gold_kind"):
            if key not in it:
                raise SystemExit(f"{path}:{n}: missing '{key}'")
        if it["domain"] not in DOMAINS or it["gold_kind"] not in ("answer", "multi", "decline"):
            raise SystemExit(f"{path}:{n}: bad domain or gold_kind")
        items.append(it)
    ids = [it["id"] for it in items]
    if len(set(ids)) != len(ids):
        raise SystemExit("duplicate ids")
    return items


def ask_cli(domain: str, item: dict) -> dict:
    ont = ROOT / ".venv" / "bin" / "ont"
    if domain == "pages":
        cmd = [str(ont), "pages", item["question"], "--inventory", str(ROOT / "examples" / "pages"), "--json"]
    else:
        cmd = [str(ont), "ask", "--data", str(ROOT / "examples" / domain), "--json", "--id", item["id"], item["question"]]
    proc = subprocess.run(cmd, capture_output=True, text=True, cwd=ROOT, timeout=300)
    if proc.returncode not in (0, 1):
        raise RuntimeError(f"exit {proc.returncode}: {proc.stderr.strip()[-300:]}")
    return json.loads(proc.stdout)


def pct(a: int, b: int) -> str:
    return f"{100 * a / b:5.1f}%" if b else "    -"


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--questions", default=str(HERE / "questions.jsonl"))
    ap.add_argument("--dry-run", action="store_true", help="parse and check the question file; ask nothing")
    ap.add_argument("--cli", action="store_true", help="ask through the `ont` command instead of the Python API")
    ap.add_argument("--json", action="store_true", help="write per-question outcomes to --out")
    ap.add_argument("--out", default=str(HERE / "results.json"))
    args = ap.parse_args()

    items = load_items(Path(args.questions))
    if args.dry_run:
        OnchainCheck()  # the ontology and edge table it needs are readable
        print(f"{len(items)} questions parsed")
        for key in ("domain", "lang", "gold_kind"):
            print(f"  {key}: {dict(Counter(it[key] for it in items))}")
        return 0

    sys.path.insert(0, str(ROOT))
    from ont_platform import KnowledgeGraph

    oc = OnchainCheck()
    results = []
    t0 = time.perf_counter()
    for domain in DOMAINS:
        todo = [it for it in items if it["domain"] == domain]
        kg = None
        if not args.cli:
            kg = KnowledgeGraph.open()
            kg.load(ROOT / "examples" / domain)
        for it in todo:
            try:
                if kg is not None:
                    ans = kg.ask(it["question"], domain=domain, qid=it["id"]).to_json()
                else:
                    ans = ask_cli(domain, it)
                res = judge(domain, it, ans, oc)
            except Exception as exc:  # a crash is neither an answer nor a refusal
                ans = None
                res = {"outcome": "error", "detail": f"{type(exc).__name__}: {exc}"}
            results.append({"id": it["id"], "domain": domain, "lang": it["lang"], "kind": it["kind"],
                            "gold_kind": it["gold_kind"], "question": it["question"], "gold": it["gold"],
                            "reply": ans, **res})
        if kg is not None:
            kg.close()
    secs = time.perf_counter() - t0

    head = (f"{'':18s} {'n':>4s} {'correct':>8s} {'conf.wrong':>10s} {'safe miss':>14s} {'other':>6s} {'error':>6s}")

    def row(name: str, rs: list[dict]) -> str:
        n = len(rs)
        c = Counter(r["outcome"] for r in rs)
        exp = sum(r["gold_kind"] != "decline" for r in rs)
        sm = f"{c['safe_miss']}/{exp} {pct(c['safe_miss'], n)}"
        return (f"{name:18s} {n:4d} {pct(c['correct'], n):>8s} {pct(c['confidently_wrong'], n):>10s} "
                f"{sm:>14s} {c['other_miss']:6d} {c['error']:6d}")

    print(head)
    print("-" * len(head))
    for dom in DOMAINS:
        print(row(dom, [r for r in results if r["domain"] == dom]))
    print(row("overall", results))
    print("-" * len(head))
    for lang in ("ko", "en"):
        print(row(f"lang={lang}", [r for r in results if r["lang"] == lang]))
    for gk in ("answer", "multi", "decline"):
        print(row(f"gold={gk}", [r for r in results if r["gold_kind"] == gk]))
    print("-" * len(head))
    print("correct / conf.wrong: % of n; safe miss: declined where an answer was gold (x / answer golds, % of n).")
    dec = [r for r in results if r["gold_kind"] == "decline" and r["outcome"] != "error"]
    ed = [r for r in dec if "exact_decision" in r]
    ef = [r for r in dec if "exact_factor" in r]
    es = [r for r in dec if "exact_status" in r]
    ei = [r for r in dec if "exact_intent" in r]
    cnp = [r for r in results if "confident_no_path" in r]
    print(f"secondary: kg/films declines with the exact decision {sum(r['exact_decision'] for r in ed)}/{len(ed)}, "
          f"with the exact factor {sum(r['exact_factor'] for r in ef)}/{len(ef)}; "
          f"pages declines with the exact status {sum(r['exact_status'] for r in es)}/{len(es)}; "
          f"onchain no_path golds answered with intent no_path {sum(r['exact_intent'] for r in ei)}/{len(ei)}; "
          f"onchain path golds answered with a confident no_path {sum(r['confident_no_path'] for r in cnp)}/{len(cnp)}")
    print(f"time: {secs:.1f}s ({'cli' if args.cli else 'api'})")
    if args.json:
        Path(args.out).write_text(json.dumps(results, ensure_ascii=False, indent=1), encoding="utf-8")
        print(f"per-question outcomes written to {args.out}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
