"""Evaluation: how well a system answers a gold set, how well two people agree, and what people should check.

* :func:`evaluate_gold` — accuracy, decision accuracy, path match rate and URL-set exact match, overall and per
  intent/decision/status, plus the share of answers that pass verification;
* :func:`kappa_with_ci` / :func:`kappa_files` — Cohen's kappa of two labellers with a seeded bootstrap interval;
* :func:`stratified_sample` / :func:`write_sample_csv` — the 5 % spot-check sample, stratified and seeded.

See docs/verification.md.
"""

from ont_platform.evaluate.gold import (
    GoldReport,
    ItemScore,
    evaluate_gold,
    metrics,
    score,
)
from ont_platform.evaluate.kappa import (
    KappaResult,
    cohen_kappa,
    join_labels,
    kappa_files,
    kappa_with_ci,
    read_labels,
)
from ont_platform.evaluate.sample import (
    SampleRow,
    stratified_sample,
    stratum_of,
    write_sample_csv,
)

__all__ = [
    "GoldReport",
    "ItemScore",
    "KappaResult",
    "SampleRow",
    "cohen_kappa",
    "evaluate_gold",
    "join_labels",
    "kappa_files",
    "kappa_with_ci",
    "metrics",
    "read_labels",
    "score",
    "stratified_sample",
    "stratum_of",
    "write_sample_csv",
]
