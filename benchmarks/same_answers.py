"""Every question of the repository's question files asked once, each reply written as one JSON line.

    PYTHONPATH=. python benchmarks/same_answers.py OUT.jsonl [--english-first]

Run at two commits, the two files compare byte for byte when no answer changed (how the English fast path of
the analyser was shown to change nothing: docs/performance.md#start-up). The questions: examples/*/questions*.jsonl
(asked of their own folder, without ``domain=``), and the held-out sets 1 to 8 and films (asked of
examples/<domain> with ``domain=``, films without, as their harness asks them). One graph per folder, loaded
once, asked in file order: as a long-running process would be. ``--english-first`` asks every question without
Hangul before the others, so that they meet a lexicon whose Korean labels have not been read yet.
"""

from __future__ import annotations

import json
import re
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
SETS = ["heldout", *(f"heldout{n}" for n in range(2, 9)), "heldout_films"]


def questions() -> list[tuple[str, str, str | None, str]]:
    """(file, folder, domain or None, question) in the order asked."""
    out = []
    for path in sorted((ROOT / "examples").glob("*/questions*.jsonl")):
        for line in path.read_text("utf-8").splitlines():
            if line.strip():
                out.append((str(path.relative_to(ROOT)), path.parent.name, None, json.loads(line)["question"]))
    for name in SETS:
        path = ROOT / "benchmarks" / name / "questions.jsonl"
        for line in path.read_text("utf-8").splitlines():
            if line.strip():
                item = json.loads(line)
                domain = item.get("domain") or "films"
                out.append(
                    (str(path.relative_to(ROOT)), domain, None if name == "heldout_films" else domain, item["question"])
                )
    return out


def main() -> None:
    from ont_platform import KnowledgeGraph

    graphs: dict[str, KnowledgeGraph] = {}
    started = time.perf_counter()
    asked = questions()
    if "--english-first" in sys.argv[2:]:
        asked.sort(key=lambda item: bool(re.search("[\uac00-\ud7a3]", item[3])))
    with open(sys.argv[1], "w", encoding="utf-8") as out:
        for n, (source, folder, domain, question) in enumerate(asked):
            if folder not in graphs:
                graphs[folder] = KnowledgeGraph.open()
                graphs[folder].load(ROOT / "examples" / folder)
            try:
                reply = graphs[folder].ask(question, domain=domain, qid=f"q{n}").to_json()
            except Exception as exc:  # noqa: BLE001 - a failure is an outcome to compare too
                reply = {"error": f"{type(exc).__name__}: {exc}"}
            out.write(json.dumps({"source": source, "question": question, "reply": reply}, ensure_ascii=False) + "\n")
    print(f"{n + 1} questions in {time.perf_counter() - started:.1f} s", file=sys.stderr)


if __name__ == "__main__":
    main()
