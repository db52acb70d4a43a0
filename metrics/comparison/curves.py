"""Campaign F_alpha curves as weighted sums of hyperbolas (docs/measures.md §4).

For fixed P, R > 0, ``F_alpha = 1 / (u + alpha v)`` with u = 1/R and v = 1/P - 1/R, so a macro
campaign curve is ``A_s(alpha) = sum_k W[s, k] / (U[s, k] + alpha V[s, k])`` (W = 1/n_s per scored
topic, 0 for a topic with P or R = 0) and a micro curve is the same with one term built from the
topic means. :mod:`metrics.comparison.alpha` analyses these curves exactly;
:mod:`metrics.comparison.combine` builds
them from score tables.
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np

from metrics.comparison.profiles import AVERAGES

__all__ = ["AVERAGES", "DEFAULT_ALPHAS", "Curves", "curves_from_arrays", "check_average",
           "iso_f_points"]

DEFAULT_ALPHAS: np.ndarray = np.arange(101) / 100.0


def check_average(average: str) -> str:
    """``average`` if it is ``macro`` or ``micro`` (ValueError otherwise)."""
    if average not in AVERAGES:
        raise ValueError(f"average must be one of {', '.join(AVERAGES)}, got {average!r}")
    return average


@dataclass(frozen=True)
class Curves:
    """Campaign F_alpha curves of S systems, each a convex sum of hyperbolas in alpha."""

    U: np.ndarray  # (S, K) 1/R
    V: np.ndarray  # (S, K) 1/P - 1/R
    W: np.ndarray  # (S, K) weights (0 for padding and zero-F topics)
    defined: np.ndarray  # (S,) bool: the system has at least one scored topic

    def _rows(self, rows=None) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
        """U, V, W of all systems, or of the systems ``rows``."""
        if rows is None:
            return self.U, self.V, self.W
        return self.U[rows], self.V[rows], self.W[rows]

    def values(self, alphas, rows=None) -> np.ndarray:
        """(S', G) curve values at ``alphas``."""
        U, V, W = self._rows(rows)
        alphas = np.atleast_1d(np.asarray(alphas, dtype=np.float64))
        out = np.empty((U.shape[0], alphas.size))
        for g, a in enumerate(alphas):
            out[:, g] = (W / (U + a * V)).sum(axis=1)
        defined = self.defined if rows is None else self.defined[rows]
        out[~defined] = np.nan
        return out

    def slopes(self, alphas, rows=None) -> np.ndarray:
        """(S', G) derivative d A / d alpha at ``alphas``."""
        U, V, W = self._rows(rows)
        alphas = np.atleast_1d(np.asarray(alphas, dtype=np.float64))
        out = np.empty((U.shape[0], alphas.size))
        for g, a in enumerate(alphas):
            den = U + a * V
            out[:, g] = -(W * V / (den * den)).sum(axis=1)
        return out


def curves_from_arrays(P: np.ndarray, R: np.ndarray, average: str) -> Curves:
    """Build :class:`Curves` from (S, T) precision and recall arrays (NaN = not scored)."""
    check_average(average)
    P = np.asarray(P, dtype=np.float64)
    R = np.asarray(R, dtype=np.float64)
    valid = ~(np.isnan(P) | np.isnan(R))
    n = valid.sum(axis=1)
    defined = n > 0
    if average == "micro":
        with np.errstate(invalid="ignore", divide="ignore"):
            Pm = np.where(valid, P, 0.0).sum(axis=1) / n
            Rm = np.where(valid, R, 0.0).sum(axis=1) / n
        P, R = Pm[:, None], Rm[:, None]
        valid = defined[:, None].copy()
        n = np.ones_like(n)
    pos = valid & (P > 0) & (R > 0)
    with np.errstate(divide="ignore", invalid="ignore"):
        U = np.where(pos, 1.0 / np.where(pos, R, 1.0), 1.0)
        V = np.where(pos, 1.0 / np.where(pos, P, 1.0) - 1.0 / np.where(pos, R, 1.0), 0.0)
        W = np.where(pos, 1.0 / np.maximum(n, 1)[:, None], 0.0)
    return Curves(U, V, W, defined)


def iso_f_points(f: float, alpha: float, n: int = 200) -> tuple[np.ndarray, np.ndarray]:
    """Points (P, R) of the unit square where F_alpha(P, R) = ``f`` (JAIR 2011 Figs 1 and 3).

    F_alpha = 1 / (alpha / P + (1 - alpha) / R), so for 0 < alpha < 1

        R = (1 - alpha) f P / (P - alpha f),   P in [P0, 1],

    from the square's right edge (R = 1 at P0 = alpha f / (1 - (1 - alpha) f)) to its top edge
    (P = 1), so the curve reaches both edges; for alpha = 1 the line P = f, for alpha = 0 the
    line R = f.
    """
    if not 0 <= alpha <= 1 or not 0 < f <= 1:
        raise ValueError(f"alpha must be in [0, 1] and f in (0, 1], got {alpha!r}, {f!r}")
    line = np.linspace(0.0, 1.0, n + 1)[1:]  # F is undefined where P or R is 0
    if alpha == 1:
        return np.full(n, float(f)), line
    if alpha == 0:
        return line, np.full(n, float(f))
    p = np.linspace(alpha * f / (1 - (1 - alpha) * f), 1.0, n)
    r = (1 - alpha) * f * p / (p - alpha * f)
    return p, np.minimum(r, 1.0)
