"""Combining a precision-like and a recall-like metric: F_alpha, campaign scores, F_alpha curves,
crossing points and "a beats b for every alpha" (docs/measures.md §4): the functions on a
score table.

F_alpha is van Rijsbergen's effectiveness measure as used by Amigó, Gonzalo, Artiles and Verdejo
(2011, "Combining evaluation metrics via the unanimous improvement ratio and its application to
clustering tasks", JAIR 42), §2:

    F_alpha(P, R) = 1 / (alpha / P + (1 - alpha) / R),        0 when P or R is 0.

alpha = 1 is P alone, alpha = 0 is R alone, alpha = 0.5 the harmonic mean.

The exact alpha analysis behind :func:`crossings` and :func:`beats_all_alpha` -- why it is
exact and the choices it makes -- is in :mod:`metrics.comparison.alpha`; the curves in
:mod:`metrics.comparison.curves`.
"""

from __future__ import annotations

from collections.abc import Sequence

import numpy as np
import pandas as pd

from metrics.comparison.alpha import all_pairs_alpha
from metrics.comparison.curves import (
    AVERAGES,
    DEFAULT_ALPHAS,
    Curves,
    check_average,
    curves_from_arrays,
)
from metrics.comparison.van_rijsbergen import f_alpha
from metrics.model.score_table import ScoreCube, score_cube

__all__ = [
    "f_alpha",
    "campaign_f",
    "f_curves",
    "crossings",
    "beats_all_alpha",
    "DEFAULT_ALPHAS",
    "AVERAGES",
]


def _pr_cube(table: pd.DataFrame, precision: str, recall: str, systems=None) -> ScoreCube:
    if precision == recall:
        raise ValueError("precision and recall must be two different metrics")
    return score_cube(table, [precision, recall], systems=systems)


def _curves(table, precision, recall, average, systems=None) -> tuple[ScoreCube, Curves]:
    cube = _pr_cube(table, precision, recall, systems)
    return cube, curves_from_arrays(cube.values[:, :, 0], cube.values[:, :, 1], average)


def campaign_f(
    table: pd.DataFrame,
    precision: str,
    recall: str,
    alpha: float = 0.5,
    average: str = "macro",
) -> pd.Series:
    """Campaign F_alpha of every system (docs/measures.md §4).

    Parameters
    ----------
    table : DataFrame
        Score table ``system, topic, metric, value``.
    precision, recall : str
        Names of the precision-like and recall-like metrics in the table.
    alpha : float, default 0.5
    average : {"macro", "micro"}, default "macro"
        ``macro``: mean over topics of the per-topic F_alpha (what WePS and RepLab report);
        ``micro``: F_alpha of the topic-mean precision and recall.

    Returns
    -------
    Series
        Indexed by system (order of first appearance), named ``f``. Topics where a system lacks
        either metric are left out of its mean; a system with no scored topic gets NaN.
    """
    check_average(average)
    cube, curves = _curves(table, precision, recall, average)
    vals = curves.values([float(alpha)])[:, 0]
    return pd.Series(vals, index=pd.Index(cube.systems, name="system"), name="f")


def f_curves(
    table: pd.DataFrame,
    precision: str,
    recall: str,
    alphas: Sequence[float] | None = None,
    average: str = "macro",
) -> pd.DataFrame:
    """Campaign F_alpha of every system over a grid of alphas (docs/measures.md §4).

    Returns
    -------
    DataFrame
        Index ``alpha`` (default 0, 0.01, ..., 1), one column per system.
    """
    grid = DEFAULT_ALPHAS if alphas is None else np.asarray(alphas, dtype=np.float64)
    if np.any((grid < 0) | (grid > 1)):
        raise ValueError("alphas must lie in [0, 1]")
    cube, curves = _curves(table, precision, recall, average)
    vals = curves.values(grid)
    out = pd.DataFrame(vals.T, index=pd.Index(grid, name="alpha"), columns=list(cube.systems))
    out.columns.name = "system"
    return out


def crossings(
    table: pd.DataFrame,
    a: str,
    b: str,
    precision: str,
    recall: str,
    average: str = "macro",
) -> list[float]:
    """Alphas in (0, 1) where the campaign F_alpha curves of ``a`` and ``b`` cross (docs/measures.md
    §4).

    :func:`all_pairs_alpha` on the two systems. Macro: the difference is evaluated on the grid
    0, 0.01, ..., 1; every sign change is refined by :func:`_roots_vec` (xtol 1e-13); between two
    grid points of equal sign the certified convex bound of the module docstring rules out -- or
    finds -- a hidden pair of crossings. Micro: ``1/F_a - 1/F_b`` is affine in alpha, so there is at
    most one crossing,
    ``alpha* = (1/R_b - 1/R_a) / ((1/P_a - 1/R_a) - (1/P_b - 1/R_b))``.

    Returns
    -------
    list of float
        Sorted crossing points; empty when one curve stays above (or the curves coincide).
    """
    check_average(average)
    if a == b:
        _curves(table, precision, recall, average, systems=[a])  # validates the names
        return []
    _, curves = _curves(table, precision, recall, average, systems=[a, b])
    return list(all_pairs_alpha(curves, average).crossings[0])


def beats_all_alpha(
    table: pd.DataFrame,
    a: str,
    b: str,
    precision: str,
    recall: str,
    average: str = "macro",
) -> bool:
    """True when F_alpha(a) > F_alpha(b) for every alpha in [0, 1] (docs/measures.md §4), decided
    exactly.

    Micro: iff mean precision and mean recall of ``a`` are both higher (1/F is affine in alpha,
    so its sign on [0, 1] is decided at alpha = 0 and 1), or ``b``'s curve is identically 0
    while ``a``'s is not. Macro: certified by the convex tangent/chord bound (module docstring).
    """
    check_average(average)
    if a == b:
        return False
    _, curves = _curves(table, precision, recall, average, systems=[a, b])
    return bool(all_pairs_alpha(curves, average).beats[0, 1])
