"""Evaluation: how well a system answers a gold set, how well two people agree, and what people should check.

* :func:`evaluate_gold` — accuracy, decision accuracy, path match rate and URL-set exact match, overall and per
  intent/decision/status, plus the share of answers that pass verification;
* :func:`kappa_with_ci` / :func:`kappa_files` — Cohen's kappa of two labellers with a seeded bootstrap interval;
* :func:`stratified_sample` / :func:`write_sample_csv` — the 5 % spot-check sample, stratified and seeded.

See docs/verification.md.

Every public name is imported when first read (see ``ont_platform._lazy``), so the command line can show
the defaults of one part without loading the verifier behind gold scoring.
"""

from typing import TYPE_CHECKING

from ont_platform._lazy import lazy_exports

if TYPE_CHECKING:
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

__getattr__, __dir__ = lazy_exports(
    __name__,
    {
        "GoldReport": "ont_platform.evaluate.gold",
        "ItemScore": "ont_platform.evaluate.gold",
        "evaluate_gold": "ont_platform.evaluate.gold",
        "metrics": "ont_platform.evaluate.gold",
        "score": "ont_platform.evaluate.gold",
        "KappaResult": "ont_platform.evaluate.kappa",
        "cohen_kappa": "ont_platform.evaluate.kappa",
        "join_labels": "ont_platform.evaluate.kappa",
        "kappa_files": "ont_platform.evaluate.kappa",
        "kappa_with_ci": "ont_platform.evaluate.kappa",
        "read_labels": "ont_platform.evaluate.kappa",
        "SampleRow": "ont_platform.evaluate.sample",
        "stratified_sample": "ont_platform.evaluate.sample",
        "stratum_of": "ont_platform.evaluate.sample",
        "write_sample_csv": "ont_platform.evaluate.sample",
    },
)
del TYPE_CHECKING, lazy_exports  # not public names of the package

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
