"""Van Rijsbergen's F_alpha, the combination every other module uses (docs/measures.md §4).

Amigó, Gonzalo, Artiles and Verdejo (2011, "Combining evaluation metrics via the unanimous
improvement ratio and its application to clustering tasks", JAIR 42), §2:

    F_alpha(P, R) = 1 / (alpha / P + (1 - alpha) / R),        0 when P or R is 0.

A module of its own (numpy only) so that the composite metrics of the registry
(:mod:`metrics.measures.providers.composite_family`) use it without loading the score-table
functions of :mod:`metrics.comparison.combine`, which re-exports it.
"""

from __future__ import annotations

import numpy as np

__all__ = ["f_alpha"]


def f_alpha(p, r, alpha=0.5):
    """Van Rijsbergen's F_alpha, vectorised.

    Parameters
    ----------
    p, r : float or array_like
        Precision-like and recall-like scores in [0, 1]; broadcast together.
    alpha : float or array_like, default 0.5
        Weight of ``p`` in [0, 1]; broadcasts with ``p`` and ``r``.

    Returns
    -------
    float or ndarray
        ``1 / (alpha / p + (1 - alpha) / r) = p r / (alpha r + (1 - alpha) p)``; 0 where ``p`` or
        ``r``
        is 0 (also at alpha = 1 or 0, the continuous extension in alpha); NaN where an input is NaN.
        Range [0, 1] for inputs in [0, 1].
    """
    p_arr = np.asarray(p, dtype=np.float64)
    r_arr = np.asarray(r, dtype=np.float64)
    a_arr = np.asarray(alpha, dtype=np.float64)
    if np.any((a_arr < 0) | (a_arr > 1)) or np.any(np.isnan(a_arr)):
        raise ValueError(f"alpha must be in [0, 1], got {alpha!r}")
    if np.any(p_arr < 0) or np.any(r_arr < 0):
        raise ValueError("f_alpha: precision and recall must be non-negative")
    with np.errstate(divide="ignore", invalid="ignore"):
        out = p_arr * r_arr / (a_arr * r_arr + (1.0 - a_arr) * p_arr)
    out = np.where((p_arr == 0) | (r_arr == 0), 0.0, out)
    out = np.where(np.isnan(p_arr) | np.isnan(r_arr), np.nan, out)
    if out.ndim == 0:
        return float(out)
    return out
