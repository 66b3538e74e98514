"""The shared gold rules, at the path held-out sets 9 and 10 import them from (``import heldout_gold``).

The rules live in ``benchmarks/heldout_kit/gold.py``; this module *is* that module under its old name (it replaces
itself in ``sys.modules``), so set 9's ``hg.Onchain = ...`` still changes what ``write_set`` uses. Remove it once
sets 9 and 10 are built by the kit.
"""

import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))
from benchmarks.heldout_kit import gold

sys.modules[__name__] = gold
