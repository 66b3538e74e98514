"""Score ont_platform's question answering on held-out set 10 (questions.jsonl, made by build.py).

This scorer is held-out set 2's scorer (``benchmarks/heldout2/score.py``) with one addition. It imports that
module, keeps its ``judge`` for every kind it knows, and only adds a judge for the two onchain kinds its rules do
not cover. The rest comes from set 2 unchanged: how questions are asked (API, or ``--cli``), the outcomes, the
table, ``--json`` and ``--dry-run``. The shared kinds (kg, films, pages, and onchain path / cluster / label /
decline questions) are therefore scored exactly as set 2 scores them.

Outcomes, as in set 2: ``correct``, ``confidently_wrong`` (not correct, and the reply is a confident claim),
``safe_miss`` (the gold is an answer and the reply declined), ``other_miss``, ``error``.

Onchain amounts and traces (gold ``flow`` = ``amount`` / ``trace``; rules in gold_extra.py)
--------------------------------------------------------------------------------------------
What the onchain_answer contract can carry is ``intent``, ``path`` (edge ids with from / to), ``cited_nodes``,
``confidence`` and the text ``answer_ko``. An amount or a trace is judged from these:

* **amount** (how much was sent between two addresses, out of one, or into one) is correct when all hold:
  - ``intent == "token_flow"``;
  - every path entry is a real ``transfer`` edge of onchain_edges.csv, with its own ``from`` and ``to``;
  - the set of path edge ids equals the gold edge set exactly (a missing or an extra transfer is wrong);
  - the gold total appears in ``answer_ko`` as a number: the exact sum in base units (wei; thousands separators
    allowed), or, for ETH, the same sum in ETH (``2.75``, ``2.750``). Numbers glued to a letter before them
    (``e21``, ``n_w1``, ``0xab4``) and counts of hops or items (``3-hop``, ``2단계``, ``2 transfers``, ``2건``)
    are not read as amounts.
* **trace** (where money went within N steps, or where it came from within N steps back) is correct when
  ``intent == "token_flow"``, every path entry is a real ``transfer`` edge, and the set of path edge ids equals
  the gold edge set exactly (every transfer on a walk of at most N steps in the asked direction; the gold region is
  a tree, so a breadth-first tree and the full set of walks give the same edges).
* **decline** golds of these kinds (nothing was sent; no transfer into / out of the node; a node not in the graph)
  are correct when the reply makes no positive claim: set 2's rule (confidence ``low``; or an empty path with
  intent ``no_path``; or an empty path and no cited node ...), or an empty path with intent ``token_flow`` or
  ``no_path`` whatever it cites (saying "nothing was sent" about a named node is not a claim of a flow).
* A reply counts as a **confident claim** when its path is not empty (or it is not a decline as above) and its
  confidence is ``high`` or ``mid``; a claim that is not exactly right is then ``confidently_wrong``.

Usage (from the repository root):
  .venv/bin/python benchmarks/heldout10/score.py --dry-run   # parse and check questions.jsonl, ask nothing
  .venv/bin/python benchmarks/heldout10/score.py             # ask every question once, print the table
  .venv/bin/python benchmarks/heldout10/score.py --json      # also write results.json (per question)
  .venv/bin/python benchmarks/heldout10/score.py --cli       # through the `ont` command instead of the API

This set must not be used for tuning: see README.md.
"""

from __future__ import annotations

import csv
import importlib.util
import json
import re
import sys
from collections import Counter
from decimal import Decimal, InvalidOperation
from pathlib import Path

HERE = Path(__file__).resolve().parent
ROOT = HERE.parents[1]
SET2 = ROOT / "benchmarks" / "heldout2" / "score.py"

_spec = importlib.util.spec_from_file_location("heldout2_score", SET2)
set2 = importlib.util.module_from_spec(_spec)
_spec.loader.exec_module(set2)
shared_judge = set2.judge

WEI = Decimal(10) ** 18
NUMBER = re.compile(r"(?<![A-Za-z0-9_.,])\d[\d,]*(?:\.\d+)?(?![\d.])"
                    r"(?!\s*-?\s*(?:hop|홉|단계|step|transfer|개|건|번|회))", re.IGNORECASE)


def transfers() -> dict[str, dict]:
    with (ROOT / "examples" / "onchain" / "onchain_edges.csv").open(encoding="utf-8") as fh:
        return {r["edge_id"]: r for r in csv.DictReader(fh) if r["rel"] == "transfer"}


TRANSFERS = transfers()


def numbers(text: str) -> set[Decimal]:
    out = set()
    for m in NUMBER.finditer(text or ""):
        raw = m.group().rstrip(",").replace(",", "")
        try:
            out.add(Decimal(raw))
        except InvalidOperation:
            pass
    return out


def real_edges(path: list[dict]) -> bool:
    for hop in path:
        e = TRANSFERS.get(hop.get("edge_id"))
        if e is None or e["from"] != hop.get("from") or e["to"] != hop.get("to"):
            return False
    return True


def flow_declined(ans: dict, start: str | None, oc) -> bool:
    path = ans.get("path") or []
    return oc.no_claim(ans, start) or (not path and ans.get("intent") in ("token_flow", "no_path"))


def flow_correct(gold: dict, ans: dict, decline_gold: bool, oc) -> bool:
    if decline_gold:
        return flow_declined(ans, gold.get("start"), oc)
    path = ans.get("path") or []
    if ans.get("intent") != "token_flow" or not path or not real_edges(path):
        return False
    if {hop.get("edge_id") for hop in path} != set(gold["edges"]):
        return False
    if gold["flow"] == "trace":
        return True
    total = Decimal(gold["total"])
    wanted = {total} | ({total / WEI} if gold.get("token") == "ETH" else set())
    return bool(numbers(ans.get("answer_ko") or "") & wanted)


def judge(domain: str, item: dict, ans: dict, oc) -> dict:
    gold = item["gold"]
    if domain != "onchain" or "flow" not in gold:
        return shared_judge(domain, item, ans, oc)
    decline_gold = item["gold_kind"] == "decline"
    correct = flow_correct(gold, ans, decline_gold, oc)
    declined = flow_declined(ans, gold.get("start"), oc)
    confident = not declined and ans.get("confidence") in ("high", "mid")
    path = ans.get("path") or []
    res = {"detail": (f"flow={gold['flow']} intent={ans.get('intent')} conf={ans.get('confidence')} "
                      f"edges={sorted(h.get('edge_id') for h in path if h.get('edge_id'))} "
                      f"numbers={sorted(str(n) for n in numbers(ans.get('answer_ko') or ''))[:6]}")}
    if correct:
        res["outcome"] = "correct"
    elif confident:
        res["outcome"] = "confidently_wrong"
    elif declined and not decline_gold:
        res["outcome"] = "safe_miss"
    else:
        res["outcome"] = "other_miss"
    return res


set2.judge = judge  # set 2's main() looks the judge up in its module at call time


# ---------------------------------------------------------------------------------------------------------


def check(path: Path) -> None:
    """What --dry-run adds: the golds of the extra kinds agree with the tables; the set has its promised shape."""
    items = set2.load_items(path)
    for it in items:
        assert it.get("meaning") is not None, it["id"]
        g = it["gold"]
        if it["domain"] != "onchain" or "flow" not in g:
            continue
        if it["gold_kind"] == "decline":
            assert g.get("refuse") and g["flow"] in ("amount", "trace"), it["id"]
            continue
        assert g["intent"] == "token_flow" and g["edges"], it["id"]
        edges = [TRANSFERS[e] for e in g["edges"]]  # KeyError: not a transfer
        if g["flow"] == "amount":
            assert {e["token"] for e in edges} == {g["token"]}, it["id"]
            assert sum(int(e["value"]) for e in edges) == int(g["total"]), it["id"]
            if g["token"] == "ETH":
                assert Decimal(g["total_eth"]) == Decimal(g["total"]) / WEI, it["id"]
            for e in edges:
                assert g["src"] in (None, e["from"]) and g["dst"] in (None, e["to"]), it["id"]
        else:
            near = "to" if g["direction"] == "backward" else "from"
            far = "from" if g["direction"] == "backward" else "to"
            assert {e[far] for e in edges} == set(g["nodes"]), it["id"]
            assert g["start"] in {e[near] for e in edges}, it["id"]
    n = len(items)
    per = Counter(it["domain"] for it in items)
    en = sum(it["lang"] == "en" for it in items) / n
    dec = sum(it["gold_kind"] == "decline" for it in items) / n
    assert n >= 150 and min(per.values()) >= 35 and en >= 0.30 and dec >= 0.25, (n, per, en, dec)
    flows = Counter(it["gold"]["flow"] for it in items if "flow" in it["gold"])
    print(f"set 10 checks passed: {n} questions, english {en:.0%}, decline {dec:.0%}, extra onchain kinds {dict(flows)}")


def main() -> int:
    args = sys.argv[1:]
    if "--questions" not in args:
        args += ["--questions", str(HERE / "questions.jsonl")]
    if "--out" not in args:
        args += ["--out", str(HERE / "results.json")]
    if "--dry-run" in args:
        check(Path(args[args.index("--questions") + 1]))
    sys.argv = [str(SET2), *args]
    return set2.main()


if __name__ == "__main__":
    sys.exit(main())
