"""Score ont_platform's question answering on held-out set 9 (questions.jsonl, made by build.py).

Everything the shared rules cover is scored exactly as ``benchmarks/heldout2/score.py`` scores it: this file
loads that scorer as a module, keeps its ``main`` (asking, outcomes, table, ``--json``, ``--cli``) and its
``judge``, and only routes the on-chain questions whose gold carries ``"extra"`` (amounts and traces, see
``gold_extra.py``) to the rules below. ``--questions`` defaults to this folder's questions.jsonl and ``--out`` to
its results.json.

Outcomes are the shared ones: ``correct``; ``confidently_wrong`` (not correct, and the reply is a positive claim
with confidence ``high`` or ``mid``); ``safe_miss`` (an answer was gold and the reply made no claim);
``other_miss``; ``error``.

On-chain amounts (gold ``extra == "amount"``, an answer)
--------------------------------------------------------
Correct only if all of these hold:

* ``intent == "token_flow"``;
* every path hop is a real ``transfer`` edge (edge id, ``from`` and ``to`` as in onchain_edges.csv);
* the set of path edge ids equals the gold edge set exactly (the transfers the total is the sum of: between two
  addresses in the asked direction, out of one, or into one; of one token when the question names one);
* the gold total appears as a number in ``answer_ko``: in base units, or for ETH also in ETH (base units /
  10^18). Numbers are read as digit runs not glued to a preceding letter, digit, ``_`` or ``.`` (so ``e36``,
  ``n_w9`` and ``0xab36`` give no number), with ``,`` thousands groups allowed and an optional decimal part,
  and compared as exact decimals (``2.75`` = ``2.750``).

A reply that cites other edges, misses one, sums another token or states no matching total is not correct; when
it makes a claim with confidence ``high``/``mid`` it is confidently wrong.

On-chain traces (gold ``extra == "trace"``, an answer)
------------------------------------------------------
"Where did the money of X go / where did the money in X come from, within N transfers". Correct only if:

* ``intent`` is ``token_flow`` or ``path_exists`` and the path is not empty;
* every path hop is a real ``transfer`` edge and one of the gold's allowed edges (forward: its ``from`` is at most
  N-1 transfers after the start; backward: its ``to`` is at most N-1 transfers before it);
* the addresses the reply names -- ``cited_nodes`` plus the far end of every hop (``to`` forward, ``from``
  backward), the start left out -- are exactly the gold set (every address reached in 1..N transfers);
* every gold address is the far end of some hop of the path (each one is backed by a cited transfer).

Declines of these kinds (gold ``extra`` set, ``gold_kind == "decline"``: a node not in the graph, no transfer
to sum, nothing reached) are correct when the reply makes no positive claim: confidence ``low``, or an empty
path -- except a ``label_lookup`` that names a class or a ``cluster_lookup`` citing a node other than the start,
which are claims. (An empty ``token_flow`` or ``path_exists`` reply that says there is nothing is no claim; unlike
the shared rule, cited nodes alone do not make one, since "n_d4 sent nothing" must cite n_d4.)

Every other question (kg, films, pages, and the on-chain path / cluster / class / cannot-answer questions) is
judged by ``heldout2/score.py``'s ``judge`` unchanged.

Usage (from the repository root):
  .venv/bin/python benchmarks/heldout9/score.py --dry-run   # parse and check questions.jsonl, ask nothing
  .venv/bin/python benchmarks/heldout9/score.py             # ask every question once, print the table
  .venv/bin/python benchmarks/heldout9/score.py --json      # also write results.json (per question)

This set must not be used for tuning: see README.md.
"""

from __future__ import annotations

import csv
import importlib.util
import json
import re
import sys
from decimal import Decimal
from pathlib import Path

HERE = Path(__file__).resolve().parent
ROOT = HERE.parents[1]
SCORER = ROOT / "benchmarks" / "heldout2" / "score.py"

_spec = importlib.util.spec_from_file_location("heldout2_score", SCORER)
base = importlib.util.module_from_spec(_spec)
_spec.loader.exec_module(base)
shared_judge = base.judge

NUMBER = re.compile(r"(?<![A-Za-z0-9_.])(\d{1,3}(?:,\d{3})+|\d+)(\.\d+)?(?![0-9])(?![xX][0-9a-fA-F])")


def numbers_in(text: str) -> set[Decimal]:
    return {Decimal(m.group(1).replace(",", "") + (m.group(2) or "")) for m in NUMBER.finditer(text or "")}


def real_hop(oc, hop: dict) -> bool:
    e = oc.edges.get(hop.get("edge_id"))
    return e is not None and e["rel"] == "transfer" and e["from"] == hop.get("from") and e["to"] == hop.get("to")


def no_claim_extra(oc, ans: dict, start: str | None) -> bool:
    if ans.get("confidence") == "low":
        return True
    if ans.get("path"):
        return False
    intent = ans.get("intent")
    if intent == "label_lookup":
        return not oc.classes_named(ans.get("answer_ko") or "")
    if intent == "cluster_lookup":
        return not (set(ans.get("cited_nodes") or []) - ({start} if start else set()))
    return True


def amount_ok(oc, gold: dict, ans: dict) -> bool:
    path = ans.get("path") or []
    if ans.get("intent") != "token_flow" or not path or not all(real_hop(oc, h) for h in path):
        return False
    if {h.get("edge_id") for h in path} != set(gold["edges"]):
        return False
    return bool(numbers_in(ans.get("answer_ko") or "") & {Decimal(x) for x in gold["accepted_numbers"]})


def trace_ok(oc, gold: dict, ans: dict) -> bool:
    path = ans.get("path") or []
    if ans.get("intent") not in ("token_flow", "path_exists") or not path:
        return False
    allowed = set(gold["allowed_edges"])
    if not all(real_hop(oc, h) and h.get("edge_id") in allowed for h in path):
        return False
    far = "from" if gold["direction"] == "backward" else "to"
    ends = {h[far] for h in path}
    named = (set(ans.get("cited_nodes") or []) | ends) - {gold["start"]}
    want = set(gold["end_nodes"])
    return named == want and want <= ends


def judge(domain: str, item: dict, ans: dict, oc) -> dict:
    gold = item["gold"]
    if domain != "onchain" or not gold.get("extra"):
        return shared_judge(domain, item, ans, oc)
    decline_gold = item["gold_kind"] == "decline"
    declined = no_claim_extra(oc, ans, gold.get("start"))
    confident = not declined and ans.get("confidence") in ("high", "mid")
    if decline_gold:
        correct = declined
    elif gold["extra"] == "amount":
        correct = amount_ok(oc, gold, ans)
    else:
        correct = trace_ok(oc, gold, ans)
    path = ans.get("path") or []
    res: dict = {"detail": (f"intent={ans.get('intent')} conf={ans.get('confidence')} "
                            f"edges={[h.get('edge_id') for h in path]} cited={ans.get('cited_nodes')} "
                            f"numbers={sorted(str(n) for n in numbers_in(ans.get('answer_ko') or ''))}")}
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


def check(path: Path) -> None:
    """What --dry-run checks beyond the shared parse: the extra golds agree with the tables; every decline says why."""
    with (ROOT / "examples" / "onchain" / "onchain_edges.csv").open(encoding="utf-8") as fh:
        edges = {r["edge_id"]: r for r in csv.DictReader(fh)}
    with (ROOT / "examples" / "onchain" / "onchain_nodes.csv").open(encoding="utf-8") as fh:
        nodes = {r["node_id"] for r in csv.DictReader(fh)}
    n_extra = 0
    for line in path.read_text(encoding="utf-8").splitlines():
        if not line.strip():
            continue
        it = json.loads(line)
        g = it["gold"]
        if it["gold_kind"] == "decline" and not g.get("why"):
            raise SystemExit(f"{it['id']}: a decline gold without 'why'")
        if it["domain"] != "onchain" or not g.get("extra"):
            continue
        n_extra += 1
        assert g["extra"] in ("amount", "trace"), it["id"]
        if it["gold_kind"] == "decline":
            assert g.get("refuse") and g["intent"] is None, it["id"]
            continue
        assert g["intent"] == "token_flow" and g["start"] in nodes, it["id"]
        if g["extra"] == "amount":
            picked = [edges[e] for e in g["edges"]]
            assert all(e["rel"] == "transfer" for e in picked), it["id"]
            assert len({e["token"] for e in picked}) == 1 and picked[0]["token"] == g["token"], it["id"]
            total = sum(int(e["value"]) for e in picked)
            assert str(total) == g["total"] == g["accepted_numbers"][0], it["id"]
            for x in g["accepted_numbers"]:
                Decimal(x)
            if g["token"] == "ETH" and total:
                assert Decimal(g["accepted_numbers"][1]) * 10 ** 18 == total, it["id"]
        else:
            assert set(g["end_nodes"]) <= nodes and g["start"] not in g["end_nodes"], it["id"]
            assert all(edges[e]["rel"] == "transfer" for e in g["allowed_edges"]), it["id"]
            far = "from" if g["direction"] == "backward" else "to"
            assert set(g["end_nodes"]) <= {edges[e][far] for e in g["allowed_edges"]}, it["id"]
    # the number reader on the forms a reply may use
    assert numbers_in("총 2.75 ETH (2,750,000,000,000,000,000 wei), e4·e5, n_w9, 0xab36, 3-hop") == {
        Decimal("2.75"), Decimal("2750000000000000000"), Decimal(3)}
    assert numbers_in("합계 0 ETH") == {Decimal(0)} and numbers_in("0xab36") == set()
    print(f"extra golds checked: {n_extra} (amounts and traces agree with onchain_edges.csv)")


def main() -> int:
    args = sys.argv[1:]
    if "--questions" not in args:
        args += ["--questions", str(HERE / "questions.jsonl")]
    if "--out" not in args:
        args += ["--out", str(HERE / "results.json")]
    if "--dry-run" in args:
        check(Path(args[args.index("--questions") + 1]))
    base.judge = judge
    sys.argv = [str(SCORER), *args]
    return base.main()


if __name__ == "__main__":
    sys.exit(main())
