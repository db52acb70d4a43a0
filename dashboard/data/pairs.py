"""The Compare page's all-pairs table: the ordered pairs where a improves b
(:func:`metrics.comparison.reference.robust_pairs`, the robust-pairs table of the reports), or
every pair in the same order (UIR, then Delta F, descending). Nothing is computed here."""

from __future__ import annotations

import pandas as pd

from metrics.comparison.reference import robust_pairs

__all__ = ["pairs_table"]


def pairs_table(pairs: pd.DataFrame, threshold: float, strict: bool,
                robust_only: bool) -> pd.DataFrame:
    """The rows of ``pairs`` the table shows: the robust pairs at ``threshold`` (``strict``: UIR
    above it, else at least it) when ``robust_only``, else all of them, best UIR first."""
    if robust_only:
        return robust_pairs(pairs, threshold, strict)
    return pairs.sort_values(["uir", "delta_f"], ascending=[False, False], kind="stable")
