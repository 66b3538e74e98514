"""Where the held-out sets are and which rules each one uses (its ``set.json``)."""

from __future__ import annotations

import importlib
import json
from pathlib import Path
from types import ModuleType

ROOT = Path(__file__).resolve().parents[2]
BENCHMARKS = ROOT / "benchmarks"

# set.json "gold": the module that computes the set's questions.jsonl from its spec (its ``build``)
GOLD = {"shared": "gold", "set2": "gold_set2", "set1": "gold_set1", "films": "gold_films"}
# set.json "judge": the module whose ``judge`` says what each reply is worth (``judge.RULES``)
JUDGES = ("contract", "set1", "films")


def folder_of(name: str) -> Path:
    """``1`` -> benchmarks/heldout, ``4`` -> benchmarks/heldout4, ``films`` -> benchmarks/heldout_films.

    A folder name (``heldout4``) or a path works too. Only a folder with a ``set.json`` is a set of the kit.
    """
    path = Path(name)
    if not path.is_dir():
        if name == "1":
            name = "heldout"
        elif name.isdigit():
            name = f"heldout{name}"
        elif not name.startswith("heldout"):
            name = f"heldout_{name}"
        path = BENCHMARKS / name
    if not (path / "set.json").is_file():
        raise SystemExit(f"{path}: not a held-out set of the kit (no set.json)")
    return path.resolve()


def config_of(folder: Path) -> dict:
    config = json.loads((folder / "set.json").read_text(encoding="utf-8"))
    assert config["gold"] in GOLD and config["judge"] in JUDGES, config
    return config


def gold_rules(config: dict) -> ModuleType:
    return importlib.import_module(f"{__package__}.{GOLD[config['gold']]}")
