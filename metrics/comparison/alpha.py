"""The exact alpha analysis: for every pair of campaign F_alpha curves, is one above the other for
every alpha in [0, 1], and where do they cross (docs/measures.md §4)? Vectorised over pairs.

The crossing points are refined by :mod:`metrics.comparison.alpha_roots` (safeguarded Halley
steps on every bracket at once).

Why the alpha questions can be answered exactly
-----------------------------------------------
For fixed P, R > 0, ``1 / F_alpha = 1/R + alpha (1/P - 1/R)`` is *affine* in alpha and positive on
[0, 1], so ``F_alpha = 1 / (u + alpha v)`` (u = 1/R, v = 1/P - 1/R) is a **convex** function of
alpha on [0, 1] (1/x is convex and decreasing on x > 0; composed with an affine map it stays
convex). A topic with P = 0 or R = 0 contributes the constant 0, also convex. Hence:

* **micro** campaign F (F of the topic-mean P and R): two systems' curves cross where
  ``1/F_a - 1/F_b``, an affine function of alpha, is 0 -- at most one crossing, in closed form;
  and a beats b for all alpha iff mean P and mean R of a are both higher.
* **macro** campaign F (mean over topics of per-topic F): each system's curve
  ``A_s(alpha) = (1/n_s) sum_t F_alpha(p_st, r_st)`` is a sum of convex functions, hence convex.
  The difference ``d = A_a - A_b`` is a difference of two convex functions. On an interval
  [lo, hi] with midpoint m, convexity gives ``A_a(alpha) >= A_a(m) + A_a'(m) (alpha - m)`` (the
  tangent lies below a convex curve) and ``A_b(alpha) <= chord of A_b through lo and hi`` (the chord
  lies above). So ``d(alpha) >= tangent_a(alpha) - chord_b(alpha)``, an affine function whose
  minimum over [lo, hi] is at an endpoint: a *certified lower bound* of d on the interval, computed
  from values at three points. Its error is O((hi - lo)^2). :func:`beats_all_alpha` evaluates d on
  the grid 0, 0.01, ..., 1; a non-positive value is a witness (False); otherwise every interval
  whose bound is not positive is bisected until the bound is positive (proved) or a midpoint
  with d <= 0 is found (a witness). The answer is therefore exact up to the floating-point
  evaluation of F (relative error about 1e-15); an interval still unresolved at width 1e-10
  means min d is zero to within rounding and counts as "not strictly better" (False).

Choices the papers leave open, made here
----------------------------------
* "a beats b for every alpha" is *strict*: F_alpha(a) > F_alpha(b) for every alpha in [0, 1]
  (the endpoints included), as in the JAIR paper (F_alpha(a) > F_alpha(b) for all alpha). On
  the grid, values within :data:`TIE_REL` (relative) of each other are equal: the rounding of a
  sum over topics does not make a win (two systems with the same mean precision are tied at
  alpha = 1).
* A crossing point is an alpha in the open interval (0, 1) where d changes sign; a curve that
  only touches (d = 0 without a sign change) or is tied at an endpoint is not a crossing.
  Identical curves have no crossing.
* Topics where a system lacks P or R are left out of *that system's* means (macro and micro);
  score tables built by :func:`metrics.measures.scoring.evaluate` have no such gaps (a missing topic
  is
  scored under the ``missing`` policy).
* Both metrics are taken as higher-is-better here (they are a precision / recall pair).
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np

from metrics.comparison.alpha_roots import crossing_roots
from metrics.comparison.alpha_roots import diff_values as _diff_values
from metrics.comparison.alpha_roots import roots_vec as _roots_vec
from metrics.comparison.curves import DEFAULT_ALPHAS, Curves, check_average

__all__ = ["all_pairs_alpha", "PairsAlpha"]

_GRID = DEFAULT_ALPHAS
_MIN_WIDTH = 1e-10
#: Two curves whose values differ by at most this share of the larger are tied there: a macro
#: curve is a sum over topics, and two systems with the same mean precision differ at alpha = 1
#: by a few units of the last place (1.1e-16 on TREC DL 2019, P@10 / R@10), which is not a win.
TIE_REL = 1e-12


# ---------------------------------------------------------------------------------------------
# Exact sign analysis of d(alpha) = A_i(alpha) - A_j(alpha)
# ---------------------------------------------------------------------------------------------


class _PairDiff:
    """d(alpha) = A_i(alpha) - A_j(alpha) for two systems of a :class:`Curves`."""

    def __init__(self, curves: Curves, i: int, j: int) -> None:
        self.u = (curves.U[i], curves.U[j])
        self.v = (curves.V[i], curves.V[j])
        self.w = (curves.W[i], curves.W[j])

    def _val(self, k: int, a: float) -> float:
        return float((self.w[k] / (self.u[k] + a * self.v[k])).sum())

    def _slope(self, k: int, a: float) -> float:
        den = self.u[k] + a * self.v[k]
        return float(-(self.w[k] * self.v[k] / (den * den)).sum())

    def __call__(self, a: float) -> float:
        return self._val(0, a) - self._val(1, a)

    def lower_bound(self, lo: float, hi: float, sign: int, d_lo: float, d_hi: float) -> float:
        """Certified lower bound of ``sign * d`` on [lo, hi] (tangent of the convex part minus
        chord of the subtracted convex part); ``d_lo``, ``d_hi`` are d at the endpoints."""
        first, second = (0, 1) if sign > 0 else (1, 0)
        m = 0.5 * (lo + hi)
        f_m, f_s = self._val(first, m), self._slope(first, m)
        # chord of the subtracted curve at the endpoints equals its values there:
        # second(lo) = first(lo) - sign*d(lo)
        s_lo = self._val(second, lo)
        s_hi = self._val(second, hi)
        return min(f_m + f_s * (lo - m) - s_lo, f_m + f_s * (hi - m) - s_hi)


@dataclass(frozen=True)
class _GridBounds:
    """Curve values on the grid and, per interval, the tangent at its midpoint evaluated at both
    ends (the convex lower bounds of the module docstring), for all systems at once."""

    grid: np.ndarray
    vals: np.ndarray  # (S, G)
    tl: np.ndarray  # (S, G-1) tangent at the interval midpoint, evaluated at the left end
    tr: np.ndarray  # (S, G-1) ... at the right end


def _grid_bounds(curves: Curves, grid: np.ndarray = _GRID) -> _GridBounds:
    vals = curves.values(grid)
    mids = 0.5 * (grid[:-1] + grid[1:])
    f_m = curves.values(mids)
    f_s = curves.slopes(mids)
    return _GridBounds(grid, vals, f_m + f_s * (grid[:-1] - mids), f_m + f_s * (grid[1:] - mids))


def _bisect(diff: _PairDiff, lo: float, hi: float, d_lo: float, d_hi: float, sign: int,
            touching: bool) -> tuple[float, float] | None:
    """The one bisection of this module: search [lo, hi], where ``sign * d > 0`` at both ends,
    for a point where the sign fails.

    Intervals whose certified lower bound (:meth:`_PairDiff.lower_bound`) is positive are
    dropped; the others are halved. ``touching=False`` looks for ``sign * d < 0`` (a sign
    change: a point between a hidden pair of crossings), skipping points where d is exactly 0
    and intervals narrower than 1e-10. ``touching=True`` looks for ``sign * d <= 0`` (d is not
    strictly positive), and an interval still uncertified at width 1e-10 counts as found (d
    is zero to within rounding there).

    Returns
    -------
    (alpha, d(alpha)) or None
        A point where the sign fails, or None when ``sign * d > 0`` is certified on [lo, hi].
    """
    stack = [(lo, hi, d_lo, d_hi)]
    while stack:
        a, b, da, db = stack.pop()
        if diff.lower_bound(a, b, sign, da, db) > 0:
            continue
        if b - a < _MIN_WIDTH:
            if touching:
                return a, da
            continue
        m = 0.5 * (a + b)
        dm = diff(m)
        if sign * dm < 0 or (touching and dm == 0):
            return m, dm
        if dm == 0:
            continue  # touches zero: not a sign change; the halves around it are skipped
        stack.append((m, b, dm, db))
        stack.append((a, m, da, dm))
    return None


def _hidden_crossings(curves: Curves, i: int, j: int, lo: float, hi: float, dlo: float,
                      dhi: float) -> list[float]:
    """The pair of crossings hidden between two grid points where d has the same sign, if any:
    :func:`_bisect` finds a point of the other sign, the bracketing Illinois method
    (:func:`metrics.comparison.alpha_roots.roots_vec`: the curves are nearly tangent there)
    refines both brackets."""
    found = _bisect(_PairDiff(curves, i, j), lo, hi, dlo, dhi, 1 if dlo > 0 else -1, False)
    if found is None:
        return []
    m = found[0]
    I, J = np.array([i, i]), np.array([j, j])  # noqa: E741 - I, J: pair indices, as in the formulas
    roots = _roots_vec(lambda x, idx: _diff_values(curves, I[idx], J[idx], x),
                       np.array([lo, m]), np.array([m, hi]))
    return [float(roots[0]), float(roots[1])]


def _micro_roots(curves: Curves, i: np.ndarray, j: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """Micro-averaged crossings of the pairs (i, j), closed form.

    With u = 1/R and u + v = 1/P of the topic means, 1/F_a - 1/F_b = (1 - alpha) d0 + alpha d1
    where d0 = u_a - u_b (alpha = 0) and d1 = (u + v)_a - (u + v)_b (alpha = 1): the order flips
    inside (0, 1) iff d0 and d1 have strictly opposite signs, at alpha = d0 / (d0 - d1).
    Differences within rounding of their operands (8 ulp) are ties: two systems with the same
    mean precision meet at alpha = 1, which is not a crossing.
    """
    u, v = curves.U[:, 0], curves.V[:, 0]
    eps = 8 * np.finfo(float).eps
    d0 = u[i] - u[j]
    end_a, end_b = u[i] + v[i], u[j] + v[j]
    d1 = end_a - end_b
    d0 = np.where(np.abs(d0) <= eps * np.maximum(np.abs(u[i]), np.abs(u[j])), 0.0, d0)
    d1 = np.where(np.abs(d1) <= eps * np.maximum(np.abs(end_a), np.abs(end_b)), 0.0, d1)
    ok = d0 * d1 < 0
    with np.errstate(divide="ignore", invalid="ignore"):
        root = np.where(ok, d0 / (d0 - d1), np.nan)
    return ok, root


# ---------------------------------------------------------------------------------------------
# All pairs at once: beats-for-all-alpha and crossings without a Python loop over pairs
# ---------------------------------------------------------------------------------------------
#
# :func:`all_pairs_alpha` answers, for every unordered pair (i, j), i < j, whether one curve is
# above the other for every alpha and where they cross; :func:`crossings` and
# :func:`beats_all_alpha` call it on two systems. (A scalar per-pair reference route with
# ``scipy.optimize.brentq`` lives in the tests, ``tests/alpha_reference.py``, and gives the same
# answers and the same crossings within the root tolerance.)
#
# * the grid values d = A_i - A_j and the certified convex lower bounds of d and -d on every grid
#   interval are (n_pairs x n_grid) arrays, built in chunks of pairs to bound memory;
# * a pair beats the other for all alpha when d > 0 on the whole grid and every interval bound
#   is positive; the rare intervals whose bound is not positive go through the scalar
#   bisection :func:`_bisect`, so the answer keeps its exactness argument;
# * sign changes of d between consecutive non-zero grid values bracket the crossings; all
#   brackets are refined together by :func:`metrics.comparison.alpha_roots.crossing_roots`
#   (safeguarded Halley steps, to machine precision); intervals where d keeps its sign at both
#   ends but whose certified bound is not positive (possible hidden pair of crossings,
#   near-tangent curves) go through :func:`_hidden_crossings` (:func:`_bisect`, then
#   :func:`_roots_vec`);
# * micro averaging: the closed form of :func:`_micro_roots`, vectorised.

#: pairs x grid points per chunk: arrays of 256 KB, which stay in the cache and are reused
_PAIR_CELLS = 1 << 15


@dataclass(frozen=True)
class PairsAlpha:
    """Alpha-free results of every unordered pair (i, j), i < j (in ``np.triu_indices`` order).

    ``beats[a, b]``: F_alpha(a) > F_alpha(b) for every alpha (certified). ``crossings``: an object
    array of sorted lists of crossing points, one per unordered pair (empty when one curve
    beats the other, when a curve is undefined, or when they do not cross)."""

    iu: np.ndarray
    ju: np.ndarray
    beats: np.ndarray  # (S, S) bool
    crossings: np.ndarray  # (n_pairs,) object: list of float


def all_pairs_alpha(curves: Curves, average: str, bounds: _GridBounds | None = None,
                     cells: int = _PAIR_CELLS) -> PairsAlpha:
    """Beats-for-all-alpha and crossings of every pair, vectorised over pairs (see above)."""
    check_average(average)
    bounds = _grid_bounds(curves) if bounds is None else bounds
    grid, vals, tl, tr = bounds.grid, bounds.vals, bounds.tl, bounds.tr
    S = vals.shape[0]
    G = grid.size
    iu, ju = np.triu_indices(S, k=1)
    n_up = iu.size
    beats = np.zeros((S, S), dtype=bool)
    defined = curves.defined
    step = max(1, cells // max(G, 1))
    br_pair, br_lo, br_hi = [], [], []  # brackets of sign changes
    hid_pair, hid_k = [], []  # intervals that may hide a pair of crossings
    no_cross = np.zeros(n_up, dtype=bool)
    cols = np.arange(G)
    for c0 in range(0, n_up, step):
        sl = slice(c0, min(n_up, c0 + step))
        I, J = iu[sl], ju[sl]  # noqa: E741 - pair indices, as in the formulas
        vi, vj = np.take(vals, I, axis=0), np.take(vals, J, axis=0)
        d = vi - vj
        with np.errstate(invalid="ignore"):  # ties within rounding (TIE_REL) are ties
            d[np.abs(d) <= TIE_REL * np.maximum(np.abs(vi), np.abs(vj))] = 0.0
        with np.errstate(invalid="ignore"):
            pos = np.all(d > 0, axis=1)
            neg = np.all(d < 0, axis=1)
            lb_pos = _interval_bound(tl, tr, I, vj)
            lb_neg = _interval_bound(tl, tr, J, vi)
        # beats, i over j and j over i
        for mask, lb, A, B, sgn in ((pos, lb_pos, I, J, 1.0), (neg, lb_neg, J, I, -1.0)):
            rows = np.flatnonzero(mask)
            if rows.size == 0:
                continue
            with np.errstate(invalid="ignore"):
                bad = lb[rows] <= 0
            ok = ~bad.any(axis=1)
            beats[A[rows[ok]], B[rows[ok]]] = True
            for r in rows[~ok]:
                a, b = int(A[r]), int(B[r])
                diff = _PairDiff(curves, a, b)
                dd = sgn * d[r]
                beats[a, b] = not any(
                    _bisect(diff, grid[k], grid[k + 1], dd[k], dd[k + 1], 1, True) is not None
                    for k in np.flatnonzero(lb[r] <= 0)
                )
        skip = beats[I, J] | beats[J, I] | ~(defined[I] & defined[J])
        no_cross[sl] = skip
        if average == "micro":
            continue
        # sign changes of d between consecutive non-zero grid values, and adjacent grid points of
        # equal sign whose certified bound is not positive (a possible hidden pair of crossings)
        nz = d != 0
        dense = nz.all(axis=1) & ~skip
        rows = np.flatnonzero(dense)
        if rows.size:
            dlo, dhi = d[rows, :-1], d[rows, 1:]
            with np.errstate(invalid="ignore", under="ignore"):
                change = dlo * dhi < 0
                lbk = np.where(dlo > 0, lb_pos[rows], lb_neg[rows])
                hidden = ~change & ~(lbk > 0)
            r, k = np.nonzero(change)
            br_pair.append(rows[r] + c0)
            br_lo.append(grid[k])
            br_hi.append(grid[k + 1])
            r, k = np.nonzero(hidden)
            hid_pair.append(rows[r] + c0)
            hid_k.append(k)
        rows = np.flatnonzero(~nz.all(axis=1) & ~skip)
        if rows.size:  # grid points where d == 0: pair each non-zero point with the previous one
            dz, nzz = d[rows], nz[rows]
            last = np.maximum.accumulate(np.where(nzz, cols[None, :], -1), axis=1)
            prev = np.empty_like(last)
            prev[:, 0] = -1
            prev[:, 1:] = last[:, :-1]
            cand = nzz & (prev >= 0)
            pk = np.maximum(prev, 0)
            dprev = np.take_along_axis(dz, pk, axis=1)
            with np.errstate(invalid="ignore", under="ignore"):
                change = cand & (dprev * dz < 0)
                adj = cand & ~change & (prev == cols[None, :] - 1)
                lbk = np.where(dprev > 0, _lb_at(lb_pos[rows], pk), _lb_at(lb_neg[rows], pk))
                hidden = adj & ~(lbk > 0)
            r, k = np.nonzero(change)
            br_pair.append(rows[r] + c0)
            br_lo.append(grid[prev[r, k]])
            br_hi.append(grid[k])
            r, k = np.nonzero(hidden)
            hid_pair.append(rows[r] + c0)
            hid_k.append(prev[r, k])

    cross = np.empty(n_up, dtype=object)
    if average == "micro":
        _micro_all(curves, iu, ju, no_cross, cross)
        return PairsAlpha(iu, ju, beats, cross)

    p_all = np.concatenate(br_pair) if br_pair else np.zeros(0, dtype=np.int64)
    lo = np.concatenate(br_lo) if br_lo else np.zeros(0)
    hi = np.concatenate(br_hi) if br_hi else np.zeros(0)
    roots = crossing_roots(curves, iu[p_all], ju[p_all], lo, hi)
    pairs_list = [p_all]
    vals_list = [roots]
    hp = np.concatenate(hid_pair) if hid_pair else np.zeros(0, dtype=np.int64)
    hk = np.concatenate(hid_k) if hid_k else np.zeros(0, dtype=np.int64)
    for p, k in zip(hp.tolist(), hk.tolist(), strict=True):
        i, j = int(iu[p]), int(ju[p])
        dlo = vals[i, k] - vals[j, k]
        dhi = vals[i, k + 1] - vals[j, k + 1]
        found = _hidden_crossings(curves, i, j, grid[k], grid[k + 1], dlo, dhi)
        if found:
            pairs_list.append(np.full(len(found), p))
            vals_list.append(np.asarray(found, dtype=np.float64))
    pp = np.concatenate(pairs_list)
    vv = np.concatenate(vals_list)
    order = np.lexsort((vv, pp))
    pp, vv = pp[order], vv[order]
    starts = np.searchsorted(pp, np.arange(n_up + 1)).tolist()
    values = vv.tolist()  # Python floats, sliced per pair
    for p in range(n_up):
        cross[p] = values[starts[p]:starts[p + 1]]
    return PairsAlpha(iu, ju, beats, cross)


def _interval_bound(tl: np.ndarray, tr: np.ndarray, rows: np.ndarray,
                    other: np.ndarray) -> np.ndarray:
    """min(tl[rows] - other[:, :-1], tr[rows] - other[:, 1:]): the certified lower bound of
    ``A_rows - other`` on every grid interval, in two (pairs x intervals) buffers."""
    lb = np.take(tl, rows, axis=0)
    lb -= other[:, :-1]
    right = np.take(tr, rows, axis=0)
    right -= other[:, 1:]
    return np.minimum(lb, right, out=lb)


def _lb_at(lb: np.ndarray, pk: np.ndarray) -> np.ndarray:
    """lb[row, pk[row, k]] for every k, with pk clipped to the (G-1) intervals."""
    return np.take_along_axis(lb, np.minimum(pk, lb.shape[1] - 1), axis=1)


def _micro_all(curves: Curves, iu: np.ndarray, ju: np.ndarray, skip: np.ndarray,
               cross: np.ndarray) -> None:
    """Micro-averaged crossings of every pair (closed form of :func:`_micro_roots`): a constant-zero
    curve never crosses a positive one (F > 0 on [0, 1])."""
    pos = curves.W[:, 0] > 0
    flips, root = _micro_roots(curves, iu, ju)
    ok = ~skip & pos[iu] & pos[ju] & flips
    for p in range(iu.size):
        cross[p] = []
    for q in np.flatnonzero(ok).tolist():
        cross[q] = [float(root[q])]
