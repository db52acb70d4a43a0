"""Rank bounds of reported scores, for many systems and without a cube (docs/rankings.md,
"Checking reported scores").

* **Best and worst rank by F_alpha over alpha in [0, 1].** With P, R > 0,
  1/F_alpha = alpha/P + (1 - alpha)/R is linear in alpha, so for two systems i, j the difference
  h(alpha) = 1/F_i - 1/F_j = (1 - alpha) d0 + alpha d1 (d0 = 1/R_i - 1/R_j, d1 = 1/P_i - 1/P_j)
  changes sign at most once, at rho = d0 / (d0 - d1), and j is above i (F_j > F_i) exactly where
  h > 0. The rank of i, 1 + #{j : F_j > F_i} (tied systems share the better rank, as the reported
  ranking counts them), is therefore constant between i's crossings: it is evaluated at
  alpha = 0 and 1, just after 0, at every crossing value (where the crossing systems tie) and
  after it, by sorting i's crossings and summing the systems that leave and enter the set above
  i. Values equal within float noise (1e-12, relative) are equal, so that systems whose F is
  equal in exact arithmetic tie. A system with P = 0 or R = 0 has F = 0 for every alpha
  (:func:`metrics.comparison.combine.f_alpha`): below every other system and tied with the
  other zeros. Cost O(S^2 log S) time, in row chunks
  of bounded memory (:mod:`metrics.compute_budget`), where evaluating every system at every
  crossing costs S^3 cells (S^4 with the comparisons).
* **Rank interval under unanimity on the averages** (JAIR 2011's unanimous improvement relation
  on (P, R)): a is above b iff P_a >= P_b and R_a >= R_b with one strict. This relation is already
  a strict partial order (transitive, never both ways), so its closure is itself and
  rank_low = 1 + #systems above, rank_high = S - #systems below, counted in row chunks: O(S^2)
  time, no S x S matrix, where the general ranking with tie groups
  (:mod:`metrics.comparison.tie_ranking`) needs a transitive closure.
"""

from __future__ import annotations

import numpy as np

from metrics.compute_budget import chunk_rows

__all__ = ["alpha_rank_range", "dominance_rank_interval"]

#: Bytes per (system, other system) cell of one chunk of :func:`alpha_rank_range`.
_CELL_BYTES = 160
#: Relative float noise: 1/F values (and crossing points) this close are equal.
_EPS = 1e-12


def _snap(d: np.ndarray, a: np.ndarray, b: np.ndarray) -> np.ndarray:
    """``d = a - b`` with differences within float noise of ``a`` and ``b`` set to 0: two systems
    whose F is equal in exact arithmetic tie here too."""
    return np.where(np.abs(d) <= _EPS * (np.abs(a) + np.abs(b)), 0.0, d)


def _chunk_range(u: np.ndarray, v: np.ndarray, rows: slice) -> tuple[np.ndarray, np.ndarray]:
    """Fewest and most systems above each system of ``rows`` over alpha in [0, 1] (all P, R > 0;
    ``u`` = 1/R = 1/F at alpha 0, ``v`` = 1/P = 1/F at alpha 1)."""
    d0 = _snap(u[rows, None] - u[None, :], u[rows, None], u[None, :])  # > 0: j above at 0
    d1 = _snap(v[rows, None] - v[None, :], v[rows, None], v[None, :])  # > 0: j above at 1
    m, n = d0.shape
    at0 = (d0 > 0).sum(axis=1)
    at1 = (d1 > 0).sum(axis=1)
    base = ((d0 > 0) | ((d0 == 0) & (d1 > 0))).sum(axis=1)  # just after alpha = 0
    down = (d0 > 0) & (d1 < 0)  # above, then tied at rho, then below
    up = (d0 < 0) & (d1 > 0)    # below, then tied at rho, then above
    with np.errstate(divide="ignore", invalid="ignore"):
        rho = np.where(down | up, d0 / (d0 - d1), np.inf)
    order = np.argsort(rho, axis=1, kind="stable")
    rho = np.take_along_axis(rho, order, axis=1)
    n_down = np.cumsum(np.take_along_axis(down, order, axis=1), axis=1)
    up_s = np.take_along_axis(up, order, axis=1)
    n_up = np.cumsum(up_s, axis=1)
    new = np.ones((m, n), dtype=bool)
    with np.errstate(invalid="ignore"):  # inf - inf past the last crossing
        new[:, 1:] = rho[:, 1:] - rho[:, :-1] > _EPS  # crossings this close are one
    last = np.ones((m, n), dtype=bool)
    last[:, :-1] = new[:, 1:]
    last &= np.isfinite(rho)  # the last crossing of each distinct value
    first = np.maximum.accumulate(np.where(new, np.arange(n), 0), axis=1)
    up_before: np.ndarray = np.take_along_axis(n_up - up_s, first, axis=1)
    at = base[:, None] - n_down + up_before     # at the crossing value: its systems tie
    after = base[:, None] - n_down + n_up       # on the interval after it
    big = n + 1
    lo = np.minimum(np.minimum(at0, at1), base)
    hi = np.maximum(np.maximum(at0, at1), base)
    lo = np.minimum(lo, np.where(last, np.minimum(at, after), big).min(axis=1, initial=big))
    hi = np.maximum(hi, np.where(last, after, -1).max(axis=1, initial=-1))
    return lo, hi


def alpha_rank_range(p, r) -> tuple[np.ndarray, np.ndarray]:
    """Best and worst rank of each system by F_alpha(P, R) over alpha in [0, 1].

    Parameters
    ----------
    p, r : array_like, shape (S,)
        Precision and recall, finite and >= 0.

    Returns
    -------
    best, worst : ndarray of int64, shape (S,)
        1 = first; tied systems share the better rank.
    """
    p = np.asarray(p, dtype=np.float64)
    r = np.asarray(r, dtype=np.float64)
    pos = (p > 0) & (r > 0)
    n_pos = int(pos.sum())
    best = np.full(p.size, 1 + n_pos, dtype=np.int64)  # F = 0 for every alpha
    worst = best.copy()
    if n_pos:
        u, v = 1.0 / r[pos], 1.0 / p[pos]
        lo, hi = np.empty(n_pos, dtype=np.int64), np.empty(n_pos, dtype=np.int64)
        step = chunk_rows(_CELL_BYTES * n_pos, n_pos)
        for start in range(0, n_pos, step):
            rows = slice(start, start + step)
            lo[rows], hi[rows] = _chunk_range(u, v, rows)
        best[pos], worst[pos] = 1 + lo, 1 + hi
    return best, worst


def dominance_rank_interval(p, r) -> tuple[np.ndarray, np.ndarray]:
    """Rank interval of each system under unanimity on (P, R): ``(rank_low, rank_high)`` =
    ``(1 + #above, S - #below)``, a above b iff P_a >= P_b, R_a >= R_b, one strict."""
    p = np.asarray(p, dtype=np.float64)
    r = np.asarray(r, dtype=np.float64)
    S = p.size
    above = np.empty(S, dtype=np.int64)
    below = np.empty(S, dtype=np.int64)
    step = chunk_rows(8 * S, S)
    for start in range(0, S, step):
        pi, ri = p[start:start + step, None], r[start:start + step, None]
        same = ((p[None, :] == pi) & (r[None, :] == ri)).sum(axis=1)
        above[start:start + step] = ((p[None, :] >= pi) & (r[None, :] >= ri)).sum(axis=1) - same
        below[start:start + step] = ((p[None, :] <= pi) & (r[None, :] <= ri)).sum(axis=1) - same
    return 1 + above, S - below
