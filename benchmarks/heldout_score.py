"""Run the scorer of held-out set 2 (``heldout2/score.py``) on another held-out set's folder.

Every set from 4 on scores with the same rules (what counts as correct, the outcomes, the table), so each set's
``score.py`` only names its folder: ``--questions`` defaults to the folder's ``questions.jsonl`` and ``--out`` to
its ``results.json``; every other argument (``--dry-run``, ``--json``, ``--cli``) is passed on unchanged.
"""

import runpy
import sys
from pathlib import Path

SCORER = Path(__file__).resolve().parent / "heldout2" / "score.py"


def score(folder: Path) -> None:
    """Score the set in ``folder`` with the arguments this process was started with."""
    args = sys.argv[1:]
    if "--questions" not in args:
        args += ["--questions", str(folder / "questions.jsonl")]
    if "--out" not in args:
        args += ["--out", str(folder / "results.json")]
    sys.argv = [str(SCORER), *args]
    runpy.run_path(str(SCORER), run_name="__main__")
