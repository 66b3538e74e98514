"""Agreement of two labellers: Cohen's kappa with a seeded percentile-bootstrap confidence interval.

    kappa = (p_o - p_e) / (1 - p_e)

``p_o`` is the share of items both people labelled the same, ``p_e`` the share expected by chance from each
person's own label frequencies. Kappa is *undefined* when ``p_e = 1`` (both gave every item one and the same
label): there is no disagreement that chance could explain, so the value is reported as ``None`` (``null`` in
JSON) rather than a made-up 1 or 0.

The interval resamples the items with replacement (``resamples`` times, default 2000, from a fixed ``seed``),
computes kappa on each resample, and takes the percentiles ``(1 - confidence) / 2`` and
``1 - (1 - confidence) / 2`` of the defined values. With fewer than two items there is nothing to resample and
both bounds are ``None``. The seeds ask for a lower bound of at least 0.6.
"""

from __future__ import annotations

import csv
import io
import math
from collections import Counter
from collections.abc import Hashable, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import TYPE_CHECKING

from ont_platform.errors import InputError
from ont_platform.text_policy import from_spreadsheet_cell

if TYPE_CHECKING:
    import numpy as np

DEFAULT_RESAMPLES = 2000
DEFAULT_SEED = 20240501
_BATCH_CELLS = 4_000_000  # resample cells drawn at once (bounds memory on large label files)


@dataclass(frozen=True)
class KappaResult:
    """Kappa, its bootstrap interval and the number of items both people labelled."""

    kappa: float | None
    ci_low: float | None
    ci_high: float | None
    n: int

    def to_json(self) -> dict[str, float | int | None]:
        def r(x: float | None) -> float | None:
            return None if x is None else round(x, 6)

        return {"kappa": r(self.kappa), "ci_low": r(self.ci_low), "ci_high": r(self.ci_high), "n": self.n}


def cohen_kappa(a: Sequence[Hashable], b: Sequence[Hashable]) -> float | None:
    """Cohen's kappa of two equally long label sequences (item i labelled ``a[i]`` and ``b[i]``).

    None when undefined (no items, or both people used one and the same label for everything).
    """
    if len(a) != len(b):
        raise InputError(f"label sequences differ in length: {len(a)} and {len(b)}")
    n = len(a)
    if n == 0:
        return None
    p_o = sum(1 for x, y in zip(a, b, strict=True) if x == y) / n
    ca, cb = Counter(a), Counter(b)
    p_e = sum(ca[k] * cb[k] for k in ca) / (n * n)
    if math.isclose(p_e, 1.0, rel_tol=0.0, abs_tol=1e-12):
        return None
    return (p_o - p_e) / (1 - p_e)


def _kappas(codes_a: np.ndarray, codes_b: np.ndarray, k: int, idx: np.ndarray) -> np.ndarray:
    """Kappa of each resample (rows of ``idx``); NaN where undefined."""
    import numpy as np  # imported where used: the command line reads this module's defaults for its help

    batch, n = idx.shape
    ra, rb = codes_a[idx], codes_b[idx]
    p_o = (ra == rb).mean(axis=1)
    offsets = (np.arange(batch) * k)[:, None]
    ma = np.bincount((ra + offsets).ravel(), minlength=batch * k).reshape(batch, k) / n
    mb = np.bincount((rb + offsets).ravel(), minlength=batch * k).reshape(batch, k) / n
    p_e = (ma * mb).sum(axis=1)
    out = np.full(batch, np.nan)
    defined = ~np.isclose(p_e, 1.0, rtol=0.0, atol=1e-12)
    out[defined] = (p_o[defined] - p_e[defined]) / (1 - p_e[defined])
    return out


def kappa_with_ci(
    a: Sequence[Hashable],
    b: Sequence[Hashable],
    *,
    resamples: int = DEFAULT_RESAMPLES,
    confidence: float = 0.95,
    seed: int = DEFAULT_SEED,
) -> KappaResult:
    """Kappa of the paired labels with a percentile-bootstrap interval (see the module documentation)."""
    if not 0 < confidence < 1:
        raise InputError(f"confidence must be between 0 and 1, got {confidence}")
    if resamples < 1:
        raise InputError(f"resamples must be at least 1, got {resamples}")
    kappa = cohen_kappa(a, b)
    n = len(a)
    if n < 2:
        return KappaResult(kappa, None, None, n)
    labels = {lab: i for i, lab in enumerate(sorted(set(a) | set(b), key=repr))}
    import numpy as np

    codes_a = np.array([labels[x] for x in a], dtype=np.int64)
    codes_b = np.array([labels[x] for x in b], dtype=np.int64)
    rng = np.random.default_rng(seed)
    per_batch = max(1, _BATCH_CELLS // n)
    values: list[np.ndarray] = []
    done = 0
    while done < resamples:
        batch = min(per_batch, resamples - done)
        idx = rng.integers(0, n, size=(batch, n))
        values.append(_kappas(codes_a, codes_b, len(labels), idx))
        done += batch
    all_k = np.concatenate(values)
    defined = all_k[~np.isnan(all_k)]
    if defined.size == 0:
        return KappaResult(kappa, None, None, n)
    tail = (1 - confidence) / 2 * 100
    low, high = np.percentile(defined, [tail, 100 - tail])
    return KappaResult(kappa, float(low), float(high), n)


# -- label files -----------------------------------------------------------------------------------------------


def read_labels(source: str | Path | io.TextIOBase) -> dict[str, str]:
    """``item_id,label`` rows of a CSV file (a header row naming both columns; other columns are ignored;
    rows with an empty label are not labelled yet and are skipped). Raises InputError for unusable files
    and for an item labelled twice."""
    name = str(source) if isinstance(source, (str, Path)) else "labels"
    try:
        text = Path(source).read_text(encoding="utf-8-sig") if isinstance(source, (str, Path)) else source.read()
    except (OSError, UnicodeDecodeError) as exc:
        raise InputError(f"cannot read {name}: {exc}") from exc
    reader = csv.DictReader(io.StringIO(str(text)))
    fields = [f.strip() for f in reader.fieldnames or []]
    if "item_id" not in fields or "label" not in fields:
        raise InputError(f"{name}: needs a header with the columns item_id and label (found: {', '.join(fields)})")
    reader.fieldnames = fields
    out: dict[str, str] = {}
    for line, row in enumerate(reader, 2):
        item = from_spreadsheet_cell((row.get("item_id") or "").strip())
        label = (row.get("label") or "").strip()
        if not item or not label:
            continue
        if item in out:
            raise InputError(f"{name}:{line}: item {item!r} is labelled more than once")
        out[item] = label
    return out


def join_labels(a: dict[str, str], b: dict[str, str]) -> tuple[list[str], list[str], list[str]]:
    """Items labelled in both files (sorted by id), with each person's labels in that order."""
    ids = sorted(set(a) & set(b))
    return ids, [a[i] for i in ids], [b[i] for i in ids]


def kappa_files(
    path_a: str | Path,
    path_b: str | Path,
    *,
    resamples: int = DEFAULT_RESAMPLES,
    confidence: float = 0.95,
    seed: int = DEFAULT_SEED,
) -> tuple[KappaResult, dict[str, int]]:
    """Kappa of two label files joined on item_id; also how many items only one of them labelled."""
    a, b = read_labels(path_a), read_labels(path_b)
    ids, la, lb = join_labels(a, b)
    if not ids:
        raise InputError("no item is labelled in both files")
    unmatched = {"only_a": len(set(a) - set(b)), "only_b": len(set(b) - set(a))}
    return kappa_with_ci(la, lb, resamples=resamples, confidence=confidence, seed=seed), unmatched
