"""Improved systems and reference systems, under the one rule of "a improves b" (docs/measures.md
§5; Amigó, Artiles and Gonzalo, "The unanimous improvement ratio" (WePS), §5 and Table 5).

a **improves** b when UIR(a, b) >= t (the default profile) or, under a profile with the strict
rule (``jair2011``: the WePS paper's table writes "> 0.25"), when UIR(a, b) > t; t is
:data:`~metrics.comparison.uir.DEFAULT_THRESHOLD` unless given. :func:`improves` is that rule;
the comparison's systems table (improved and reference systems), the robust verdict of a pair
and the tie ranking all use it, so that the report, the bundle and the dashboard agree.

* **Improved systems** of a: every s != a that a improves, in system order.
* **Reference system** of a: ``argmax_s UIR(s, a)`` over s != a, kept only where s improves a
  (ties for the maximum go to the system listed first).
"""

from __future__ import annotations

from collections.abc import Sequence

import numpy as np
import pandas as pd

from metrics.comparison.uir import DEFAULT_THRESHOLD, UIRMatrix

__all__ = ["improves", "improved_systems", "reference_systems", "robust_pairs"]


def improves(uir, threshold: float = DEFAULT_THRESHOLD, strict: bool = False) -> np.ndarray:
    """Elementwise "a improves b" from UIR(a, b): ``uir > threshold`` when ``strict``, else
    ``uir >= threshold``; NaN (no usable topic) never improves."""
    u = np.asarray(uir, dtype=np.float64)
    with np.errstate(invalid="ignore"):
        return (u > threshold) if strict else (u >= threshold)


def robust_pairs(pairs: pd.DataFrame, threshold: float = DEFAULT_THRESHOLD,
                 strict: bool = False) -> pd.DataFrame:
    """The rows (a, b) of a comparison's ordered pairs where a improves b, by UIR then Delta F,
    descending (the robust-pairs table of the LaTeX and HTML reports)."""
    keep = improves(pairs["uir"], float(threshold), strict)
    return pairs[keep].sort_values(["uir", "delta_f"], ascending=[False, False], kind="stable")


def _improved_lists(U: np.ndarray, names: Sequence[str], threshold: float,
                    strict: bool) -> list[list[str]]:
    keep = improves(U, threshold, strict)
    np.fill_diagonal(keep, False)
    return [[names[s] for s in np.flatnonzero(row).tolist()] for row in keep]


def improved_systems(pairs: pd.DataFrame, systems: Sequence[str],
                     threshold: float = DEFAULT_THRESHOLD, strict: bool = False) -> pd.DataFrame:
    """``system, improved_systems`` (list, system order), ``n_improved`` from the ordered pairs
    ``system_a, system_b, uir`` of a comparison."""
    names = list(systems)
    pos = pd.Index(names)
    U = np.full((len(names), len(names)), np.nan)
    ia = pos.get_indexer(pairs["system_a"])
    ib = pos.get_indexer(pairs["system_b"])
    ok = (ia >= 0) & (ib >= 0)
    U[ia[ok], ib[ok]] = pairs["uir"].to_numpy(dtype=np.float64)[ok]
    out = pd.DataFrame({"system": names})
    out["improved_systems"] = _improved_lists(U, names, float(threshold), strict)
    out["n_improved"] = out["improved_systems"].map(len)
    return out


def reference_systems(matrix: UIRMatrix, threshold: float = DEFAULT_THRESHOLD,
                      strict: bool = False) -> pd.DataFrame:
    """Reference system and improved systems of every system.

    Parameters
    ----------
    matrix : UIRMatrix
    threshold : float, default 0.25
    strict : bool, default False
        The profile's rule: improvement needs ``UIR > threshold`` (else ``>=``).

    Returns
    -------
    DataFrame
        One row per system: ``system``; ``reference_system`` = argmax_s UIR(s, a) over s != a
        when s improves a (ties: first in system order), else None; ``reference_uir`` = that
        UIR (NaN without a reference); ``improved_systems`` = list of every s != a that a
        improves, in system order.
    """
    threshold = float(threshold)
    U = np.array(matrix.uir, dtype=np.float64, copy=True)
    np.fill_diagonal(U, np.nan)
    names = list(matrix.systems)
    has = ~np.all(np.isnan(U), axis=0)
    best = np.zeros(U.shape[0], dtype=np.int64)
    if has.any():
        best[has] = np.nanargmax(U[:, has], axis=0)  # first maximum of UIR(s, a) over s
    val = U[best, np.arange(U.shape[0])]
    ok = has & improves(val, threshold, strict)
    return pd.DataFrame({
        "system": names,
        "reference_system": [names[b] if k else None for b, k in zip(best, ok, strict=True)],
        "reference_uir": np.where(ok, val, np.nan),
        "improved_systems": _improved_lists(U, names, threshold, strict),
    })
