"""Ask every question of a held-out set once, judge each reply, print the table and write results.json.

Through the public API (default): for each domain a fresh in-memory graph (``KnowledgeGraph.open()`` +
``load("examples/<domain>")``), then ``kg.ask(question, domain=..., qid=...).to_json()`` (the films set asks
without ``domain=``, as its first scorer did: ``set.json`` ``"ask_with_domain": false``). ``--cli`` asks through
the command line instead (``ont ask --data examples/<domain> --json``; pages: ``ont pages QUESTION --inventory
examples/pages --json``), one process per question. What each reply is worth is the set's judge (``judge.py``).
"""

from __future__ import annotations

import json
import subprocess
import sys
import time
from collections import Counter
from pathlib import Path

from .judge import RULES, Judge, OnchainCheck
from .sets import ROOT

DOMAINS = ("kg", "onchain", "pages", "films")
ITEM_KEYS = ("id", "domain", "lang", "question", "gold", "kind", "gold_kind")


def load_items(path: Path, normalize=None, folder: Path | None = None) -> list[dict]:
    """The questions of a questions.jsonl, checked; ``normalize`` turns another set's lines into these items."""
    lines = [(n, line) for n, line in enumerate(path.read_text(encoding="utf-8").splitlines(), 1) if line.strip()]
    raw = [json.loads(line) for _, line in lines]
    items = normalize(raw, folder or path.parent) if normalize else raw
    for (n, _), it in zip(lines, items, strict=True):
        for key in ITEM_KEYS:
            if key not in it:
                raise SystemExit(f"{path}:{n}: missing '{key}'")
        if it["domain"] not in DOMAINS or it["gold_kind"] not in ("answer", "multi", "decline"):
            raise SystemExit(f"{path}:{n}: bad domain or gold_kind")
    ids = [it["id"] for it in items]
    if len(set(ids)) != len(ids):
        raise SystemExit("duplicate ids")
    return items


def set_items(folder: Path, config: dict) -> tuple[list[dict], Judge]:
    normalize, judge = RULES[config["judge"]]
    return load_items(folder / "questions.jsonl", normalize, folder), judge


def ask_cli(domain: str, item: dict, with_domain: bool = True) -> dict:
    ont = Path(sys.executable).parent / "ont"
    if domain == "pages":
        cmd = [str(ont), "pages", item["question"], "--inventory", str(ROOT / "examples" / "pages"), "--json"]
    else:
        cmd = [str(ont), "ask", "--data", str(ROOT / "examples" / domain), "--json", "--id", item["id"]]
        cmd += [item["question"]]
    proc = subprocess.run(cmd, capture_output=True, text=True, cwd=ROOT, timeout=300)
    if proc.returncode not in (0, 1):
        raise RuntimeError(f"exit {proc.returncode}: {proc.stderr.strip()[-300:]}")
    return json.loads(proc.stdout)


def ask_all(items: list[dict], judge: Judge, *, cli: bool = False, with_domain: bool = True) -> list[dict]:
    """Every question asked once, in domain order; one result row per question."""
    sys.path.insert(0, str(ROOT))
    from ont_platform import KnowledgeGraph

    oc = OnchainCheck()
    results = []
    for domain in DOMAINS:
        todo = [it for it in items if it["domain"] == domain]
        if not todo:
            continue
        kg = None
        if not cli:
            kg = KnowledgeGraph.open()
            kg.load(ROOT / "examples" / domain)
        for it in todo:
            try:
                if kg is not None:
                    ans = kg.ask(it["question"], domain=domain if with_domain else None, qid=it["id"]).to_json()
                else:
                    ans = ask_cli(domain, it, with_domain)
                res = judge(domain, it, ans, oc)
            except Exception as exc:  # a crash is neither an answer nor a refusal
                ans = None
                res = {"outcome": "error", "detail": f"{type(exc).__name__}: {exc}"}
            row = {k: it[k] for k in ("id", "domain", "lang", "kind", "gold_kind", "question", "gold")}
            results.append({**row, "reply": ans, **res})
        if kg is not None:
            kg.close()
    return results


def pct(a: int, b: int) -> str:
    return f"{100 * a / b:5.1f}%" if b else "    -"


# secondary figures a judge may add to a row (true / rows that have it), in the order they are printed
SECONDARY = {
    "exact_decision": "kg/films declines with the exact decision",
    "exact_factor": "with the exact factor",
    "exact_status": "pages declines with the exact status",
    "exact_intent": "onchain no_path golds answered with intent no_path",
    "confident_no_path": "onchain path golds answered with a confident no_path",
    "strict_low": "onchain refusals answered with confidence=low",
    "dec_ok": "decision right",
    "full": "full match (decision, answer, factors, path)",
    "path_ok": "path right",
}


def table(results: list[dict]) -> str:
    """Per domain, overall, per language and per gold kind: n, % correct, % confidently wrong, safe misses."""
    head = f"{'':18s} {'n':>4s} {'correct':>8s} {'conf.wrong':>10s} {'safe miss':>14s} {'other':>6s} {'error':>6s}"

    def row(name: str, rs: list[dict]) -> str:
        n = len(rs)
        c = Counter(r["outcome"] for r in rs)
        exp = sum(r["gold_kind"] != "decline" for r in rs)
        sm = f"{c['safe_miss']}/{exp} {pct(c['safe_miss'], n)}"
        return (
            f"{name:18s} {n:4d} {pct(c['correct'], n):>8s} {pct(c['confidently_wrong'], n):>10s} "
            f"{sm:>14s} {c['other_miss']:6d} {c['error']:6d}"
        )

    rule = "-" * len(head)
    lines = [head, rule]
    lines += [
        row(d, [r for r in results if r["domain"] == d]) for d in DOMAINS if any(r["domain"] == d for r in results)
    ]
    lines += [row("overall", results), rule]
    lines += [row(f"lang={lang}", [r for r in results if r["lang"] == lang]) for lang in ("ko", "en")]
    for gk in ("answer", "multi", "decline"):
        if rs := [r for r in results if r["gold_kind"] == gk]:
            lines.append(row(f"gold={gk}", rs))
    lines += [
        rule,
        "correct / conf.wrong: % of n; safe miss: declined where an answer was gold (x / answer golds, % of n).",
    ]
    flags = [
        f"{text} {sum(r[key] for r in rs)}/{len(rs)}"
        for key, text in SECONDARY.items()
        if (rs := [r for r in results if key in r])
    ]
    if flags:
        lines.append("secondary: " + "; ".join(flags))
    return "\n".join(lines)


def dry_run(items: list[dict]) -> int:
    OnchainCheck()  # the ontology and edge table it needs are readable
    print(f"{len(items)} questions parsed")
    for key in ("domain", "lang", "gold_kind"):
        print(f"  {key}: {dict(Counter(it[key] for it in items))}")
    return 0


def score(
    items: list[dict], judge: Judge, *, out: Path | None, cli: bool = False, with_domain: bool = True
) -> list[dict]:
    """Ask, print the table, and write the per-question rows to ``out`` (if given)."""
    t0 = time.perf_counter()
    results = ask_all(items, judge, cli=cli, with_domain=with_domain)
    print(table(results))
    print(f"time: {time.perf_counter() - t0:.1f}s ({'cli' if cli else 'api'})")
    if out is not None:
        out.write_text(json.dumps(results, ensure_ascii=False, indent=1), encoding="utf-8")
        print(f"per-question outcomes written to {out}")
    return results
