"""Write ``tests/slow.txt``, the tests ``make test-fast`` leaves out, from a pytest run's ``--durations=0`` report.

A test is slow when its own call took at least :data:`SLOW_S` seconds. Setup times are not counted: they are
mostly fixtures shared by a module, whose cost would only move to the next test. The list is measured, not
chosen, so the split stays honest; run it again after adding tests that take seconds:

    python -m pytest -n 2 -m "not remote and not browser and not notebook" --durations=0 > durations.log
    python tests/slow_list.py durations.log
"""

from __future__ import annotations

import re
import sys
from pathlib import Path

SLOW_S = 0.25
LIST = Path(__file__).with_name("slow.txt")
_LINE = re.compile(r"^(\d+(?:\.\d+)?)s call\s+(\S.*)$")


def slow_tests(report: str) -> list[str]:
    """Node ids whose call took at least SLOW_S seconds in a ``--durations`` report."""
    found = set()
    for line in report.splitlines():
        m = _LINE.match(line.strip())
        if m and float(m.group(1)) >= SLOW_S:
            found.add(m.group(2).strip())
    return sorted(found)


def main(argv: list[str]) -> None:
    """``slow_list.py REPORT [--add]``: the list becomes the report's slow tests (with ``--add``: and the ones
    listed before, for a report of part of the suite)."""
    names = set(slow_tests(Path(argv[1]).read_text(encoding="utf-8")))
    if "--add" in argv[2:]:
        names |= set(read_list())
    header = f"# tests whose call took at least {SLOW_S} s (tests/slow_list.py); make test-fast leaves them out\n"
    LIST.write_text(header + "".join(f"{n}\n" for n in sorted(names)), encoding="utf-8")
    print(f"{len(names)} slow tests written to {LIST}")


def read_list() -> list[str]:
    """The node ids in tests/slow.txt (empty when there is none)."""
    if not LIST.exists():
        return []
    return [ln.strip() for ln in LIST.read_text(encoding="utf-8").splitlines() if ln.strip() and ln[0] != "#"]


if __name__ == "__main__":
    main(sys.argv)
