"""A scalar, per-pair reference route for the exact alpha analysis of
:mod:`metrics.comparison.combine`.

The library answers "a beats b for every alpha" and the crossing points with one vectorised
route (:func:`metrics.comparison.combine.all_pairs_alpha`). This is the route it replaced, kept as
an
independent check: one pair at a time, sign changes refined with :func:`scipy.optimize.brentq`,
its own bisections over the certified convex bound (module docstring of
``metrics.comparison.combine``).
"""

from __future__ import annotations

import numpy as np
from scipy.optimize import brentq

from metrics.comparison.alpha import TIE_REL, _grid_bounds, _GridBounds, _micro_roots, _PairDiff
from metrics.comparison.curves import Curves

_MIN_WIDTH = 1e-10
_GRID = np.arange(101) / 100.0


def _tied(va: np.ndarray, vb: np.ndarray) -> np.ndarray:
    """va - vb, zero where the two are equal within rounding (relative TIE_REL: the rule the
    library states, a tie at a grid point is neither a win nor a crossing)."""
    d = va - vb
    with np.errstate(invalid="ignore"):
        return np.where(np.abs(d) <= TIE_REL * np.maximum(np.abs(va), np.abs(vb)), 0.0, d)


def _hidden_sign_change(diff: _PairDiff, lo: float, hi: float, d_lo: float, d_hi: float, sign: int):
    """Search [lo, hi] (where sign*d > 0 at both ends) for a point with sign*d < 0.

    Returns the point, or None when sign*d > 0 is certified on the interval (or d only
    touches 0 to within rounding).
    """
    stack = [(lo, hi, d_lo, d_hi)]
    while stack:
        a, b, da, db = stack.pop()
        if diff.lower_bound(a, b, sign, da, db) > 0:
            continue
        if b - a < _MIN_WIDTH:
            continue
        m = 0.5 * (a + b)
        dm = diff(m)
        if sign * dm < 0:
            return m, dm
        if sign * dm == 0:
            continue  # touches zero: not a sign change; the halves around it are skipped
        stack.append((m, b, dm, db))
        stack.append((a, m, da, dm))
    return None


def pair_crossings(curves: Curves, i: int, j: int, bounds: _GridBounds | None = None) -> list[float]:
    """Crossing points of systems i and j: alphas in (0, 1) where d changes sign."""
    if not (curves.defined[i] and curves.defined[j]):
        return []
    if bounds is None:
        sub = Curves(curves.U[[i, j]], curves.V[[i, j]], curves.W[[i, j]], curves.defined[[i, j]])
        return pair_crossings(sub, 0, 1, _grid_bounds(sub))
    grid = bounds.grid
    diff = _PairDiff(curves, i, j)
    vi, vj = bounds.vals[i], bounds.vals[j]
    d_grid = _tied(vi, vj)
    # certified lower bounds of d and of -d on every grid interval
    lb_pos = np.minimum(bounds.tl[i] - vj[:-1], bounds.tr[i] - vj[1:])
    lb_neg = np.minimum(bounds.tl[j] - vi[:-1], bounds.tr[j] - vi[1:])
    out: list[float] = []
    nz = np.flatnonzero(d_grid != 0)
    # sign changes between consecutive non-zero grid values
    for k0, k1 in zip(nz[:-1], nz[1:]):
        lo, hi, dlo, dhi = grid[k0], grid[k1], d_grid[k0], d_grid[k1]
        if dlo * dhi < 0:
            out.append(float(brentq(diff, lo, hi, xtol=1e-13, rtol=4 * np.finfo(float).eps)))
        elif k1 == k0 + 1:
            if (lb_pos[k0] if dlo > 0 else lb_neg[k0]) > 0:
                continue  # no sign change possible in this interval
            out.extend(_hidden_crossings(diff, lo, hi, dlo, dhi))
    return sorted(out)


def _hidden_crossings(diff: _PairDiff, lo: float, hi: float, dlo: float, dhi: float) -> list[float]:
    """Pairs of crossings hidden between two grid points where d has the same sign."""
    sign = 1 if dlo > 0 else -1
    found = _hidden_sign_change(diff, lo, hi, dlo, dhi, sign)
    if found is None:
        return []
    m, dm = found
    left = float(brentq(diff, lo, m, xtol=1e-13, rtol=4 * np.finfo(float).eps))
    right = float(brentq(diff, m, hi, xtol=1e-13, rtol=4 * np.finfo(float).eps))
    return [left, right]


def beats_matrix(curves: Curves, grid: np.ndarray = _GRID, bounds: _GridBounds | None = None) -> np.ndarray:
    """(S, S) bool: A_a(alpha) > A_b(alpha) for every alpha in [0, 1], certified (see module
    doc)."""
    S = curves.U.shape[0]
    bounds = _grid_bounds(curves, grid) if bounds is None else bounds
    grid, vals, tl, tr = bounds.grid, bounds.vals, bounds.tl, bounds.tr
    out = np.zeros((S, S), dtype=bool)
    defined = curves.defined
    for a in range(S):
        if not defined[a]:
            continue
        d = _tied(vals[a][None, :], vals)  # (S, G): d_{a,b} on the grid
        ok = np.all(d > 0, axis=1) & defined
        ok[a] = False
        cand = np.flatnonzero(ok)
        if cand.size == 0:
            continue
        lb = np.minimum(tl[a][None, :] - vals[cand, :-1], tr[a][None, :] - vals[cand, 1:])
        for ci, b in enumerate(cand):
            bad = np.flatnonzero(lb[ci] <= 0)
            if bad.size == 0:
                out[a, b] = True
                continue
            diff = _PairDiff(curves, a, b)
            out[a, b] = not any(
                _touches_zero(diff, grid[k], grid[k + 1], d[b, k], d[b, k + 1]) for k in bad
            )
    return out


def _touches_zero(diff: _PairDiff, lo: float, hi: float, dlo: float, dhi: float) -> bool:
    """True when d reaches 0 (within rounding) somewhere in [lo, hi] without a certified bound."""
    stack = [(lo, hi, dlo, dhi)]
    while stack:
        a, b, da, db = stack.pop()
        if diff.lower_bound(a, b, 1, da, db) > 0:
            continue
        if b - a < _MIN_WIDTH:
            return True
        m = 0.5 * (a + b)
        dm = diff(m)
        if dm <= 0:
            return True
        stack.append((m, b, dm, db))
        stack.append((a, m, da, dm))
    return False


def micro_crossing(curves: Curves) -> list[float]:
    if not curves.defined.all():
        return []
    pos = curves.W[:, 0] > 0
    if not pos.all():
        return []  # a constant-zero curve never crosses a positive one (F > 0 on [0, 1])
    ok, root = _micro_roots(curves, np.array([0]), np.array([1]))
    return [float(root[0])] if ok[0] else []


