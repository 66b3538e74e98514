"""The benchmark scripts as modules, for tests that reuse them (the seeded dataset generator, the HTTP load
driver). ``benchmarks/`` is a folder of scripts, not a package, so each is loaded from its file once."""

from __future__ import annotations

import importlib.util
import sys
from functools import cache
from pathlib import Path
from types import ModuleType

BENCHMARKS = Path(__file__).resolve().parents[1] / "benchmarks"


@cache
def benchmark(name: str) -> ModuleType:
    """``benchmarks/<name>.py``, imported as ``ont_bench_<name>``."""
    spec = importlib.util.spec_from_file_location(f"ont_bench_{name}", BENCHMARKS / f"{name}.py")
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    sys.modules[spec.name] = module  # dataclasses look their module up while the class is built
    spec.loader.exec_module(module)
    return module


def generate(n_transfers: int, seed: int, out: Path) -> Path:
    """A seeded synthetic on-chain dataset folder (``benchmarks/generate.py``) of ``n_transfers`` transfers."""
    benchmark("generate").generate(n_transfers, seed, out)
    return out
