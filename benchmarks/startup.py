"""How long a fresh process takes to start: import, ``ont --help``, and a first ``ont ask``, against baselines.

    python benchmarks/startup.py [--runs 5]

Every measure is the wall time of a new Python process (this venv's interpreter, or the ``ont`` script beside
it), run ``--runs`` times in turn with the others so that a change in the machine's load touches all of them;
the median is printed with the ratio to its baseline from the same run:

* ``import ont_platform`` and ``from ont_platform import KnowledgeGraph`` against
  ``python -c "import rdflib, pyoxigraph"`` (target: import ≤ 1.5x);
* ``ont --help`` and ``ont --version`` against the same baseline (target: help ≤ 2x);
* a cold ``ont ask --data examples/kg`` and ``--data examples/onchain`` (a process that loads the folder, reads
  one question and answers it) against the Korean analyser's own load: a process that imports kiwipiepy,
  builds ``Kiwi()`` and analyses one sentence (target: ask ≤ analyser + 1.5 s);
* a cold English ``ont ask --data examples/kg``, which never builds the analyser, against
  ``python -c "import rdflib, pyoxigraph"`` (target: ≤ 1.5 s wall; its ratio to the baseline is printed too).

The load average before and after the run is printed too; compare runs only at a similar load.
"""

from __future__ import annotations

import argparse
import os
import statistics
import subprocess
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
PY = sys.executable
ONT = str(Path(PY).with_name("ont"))

BASELINE = [PY, "-c", "import rdflib, pyoxigraph"]
ANALYSER = [PY, "-c", "from kiwipiepy import Kiwi; Kiwi().tokenize('홍길동이 다니는 회사는 어느 도시에 있어?')"]

MEASURES: dict[str, list[str]] = {
    "baseline: import rdflib, pyoxigraph": BASELINE,
    "import ont_platform": [PY, "-c", "import ont_platform"],
    "from ont_platform import KnowledgeGraph": [PY, "-c", "from ont_platform import KnowledgeGraph"],
    "ont --help": [ONT, "--help"],
    "ont --version": [ONT, "--version"],
    "baseline: Korean analyser load": ANALYSER,
    "ont ask (kg, cold)": [
        ONT,
        "ask",
        "--data",
        str(ROOT / "examples" / "kg"),
        "홍길동이 다니는 회사는 어느 도시에 있어?",
    ],
    "ont ask (kg, English, cold)": [
        ONT,
        "ask",
        "--data",
        str(ROOT / "examples" / "kg"),
        "Which city is the company Gildong Hong works for in?",
    ],
    "ont ask (onchain, cold)": [
        ONT,
        "ask",
        "--data",
        str(ROOT / "examples" / "onchain"),
        "n_w1에서 거래소까지 가는 경로가 있어?",
    ],
}

# (measure, baseline, how it is compared, target); "wall": the median itself, in seconds
TARGETS: list[tuple[str, str | None, str, float | None]] = [
    ("import ont_platform", "baseline: import rdflib, pyoxigraph", "ratio", 1.5),
    ("from ont_platform import KnowledgeGraph", "baseline: import rdflib, pyoxigraph", "ratio", None),
    ("ont --help", "baseline: import rdflib, pyoxigraph", "ratio", 2.0),
    ("ont --version", "baseline: import rdflib, pyoxigraph", "ratio", None),
    ("ont ask (kg, cold)", "baseline: Korean analyser load", "plus", 1.5),
    ("ont ask (onchain, cold)", "baseline: Korean analyser load", "plus", 1.5),
    ("ont ask (kg, English, cold)", "baseline: import rdflib, pyoxigraph", "ratio", None),
    ("ont ask (kg, English, cold)", None, "wall", 1.5),
]


def wall(cmd: list[str]) -> float:
    """Seconds from starting ``cmd`` to its exit; a failing command stops the benchmark."""
    started = time.perf_counter()
    done = subprocess.run(cmd, cwd=ROOT, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE, check=False)
    took = time.perf_counter() - started
    if done.returncode not in (0, 1):  # ont ask exits 1 for a refusal, which is still a full run
        sys.exit(f"{' '.join(cmd)} exited {done.returncode}: {done.stderr.decode(errors='replace')[-400:]}")
    return took


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--runs", type=int, default=5, help="fresh processes per measure (default 5)")
    args = parser.parse_args()
    load_before = os.getloadavg()
    times: dict[str, list[float]] = {name: [] for name in MEASURES}
    for _ in range(args.runs):
        for name, cmd in MEASURES.items():
            times[name].append(wall(cmd))
    load_after = os.getloadavg()
    median = {name: statistics.median(values) for name, values in times.items()}

    print(
        f"python {sys.version.split()[0]}, {os.cpu_count()} CPUs, load average {load_before[0]:.2f} before, "
        f"{load_after[0]:.2f} after; median of {args.runs} fresh processes"
    )
    width = max(map(len, MEASURES))
    for name in MEASURES:
        print(f"  {name:<{width}}  {median[name]:7.3f} s   (min {min(times[name]):.3f}, max {max(times[name]):.3f})")
    print()
    for name, base, how, target in TARGETS:
        if base is None:
            value = median[name]
            shown = f"{value:5.2f} s wall"
        elif how == "ratio":
            value = median[name] / median[base]
            shown = f"{value:5.2f}x {base}"
        else:
            value = median[name] - median[base]
            shown = f"{value:+5.2f} s over {base}"
        verdict = (
            ""
            if target is None
            else (f"  target ≤ {target}{'x' if how == 'ratio' else ' s'}: {'met' if value <= target else 'NOT met'}")
        )
        print(f"  {name:<{width}}  {shown}{verdict}")


if __name__ == "__main__":
    main()
