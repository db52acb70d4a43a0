"""Crossing points of campaign F_alpha curves, every bracket at once (docs/measures.md §4).

:mod:`metrics.comparison.alpha` brackets each crossing of two curves between two grid points
where ``d = A_i - A_j`` changes sign; this module refines all brackets together.

The function is a difference of two sums of hyperbolas (:mod:`metrics.comparison.curves`)::

    d(alpha)   =  sum_k W_ik / (U_ik + alpha V_ik)  -  sum_k W_jk / (U_jk + alpha V_jk)
    d'(alpha)  = -sum_k W_ik V_ik / D_ik^2          +  sum_k W_jk V_jk / D_jk^2
    d''(alpha) = 2 sum_k W_ik V_ik^2 / D_ik^3       -  2 sum_k W_jk V_jk^2 / D_jk^3

(D = U + alpha V > 0 on [0, 1]), so its first two derivatives cost little more than its value.
:func:`crossing_roots` starts at the regula falsi point of each bracket and takes Halley steps
(Halley 1694; Traub, *Iterative Methods for the Solution of Equations*, 1964, §8.3: cubic
convergence at a simple root), ``x <- x - 2 d d' / (2 d'^2 - d d'')``, keeping the bracket: a
step that would leave it is replaced by the bisection of the bracket. A bracket is done when d
is exactly 0 at the point, or after a step no longer than ``2 (XTOL + RTOL |x|)`` (the
tolerance of :func:`roots_vec`): with cubic convergence the error left after a step of length
``s`` is of the order of ``s^3``, so the point is the crossing to machine precision (to the
rounding of d itself). Most brackets take two evaluations where a derivative-free method
needs twenty or more. The few brackets not done after :data:`HALLEY_STEPS` steps (a crossing
where the curves are nearly tangent, d' close to 0) are finished by :func:`roots_vec`, the
bracketing Illinois method, on the bracket reached.

d is evaluated exactly as :class:`metrics.comparison.alpha._PairDiff` evaluates it (the same
operations in the same order), so both agree on its sign at every point.
"""

from __future__ import annotations

from collections.abc import Callable

import numpy as np

from metrics.comparison.curves import Curves

__all__ = ["XTOL", "RTOL", "HALLEY_STEPS", "crossing_roots", "diff_values", "roots_vec"]

#: Bracket width at which :func:`roots_vec` stops: ``2 (XTOL + RTOL |x|)`` (brentq's tolerance).
XTOL = 1e-13
RTOL = 4 * np.finfo(float).eps
#: Halley steps before a bracket is handed to :func:`roots_vec`.
HALLEY_STEPS = 12
#: brackets x topics per chunk of :func:`crossing_roots` (arrays of 512 KB, kept in the cache)
_BRACKET_CELLS = 1 << 16


def _side_sum(curves: Curves, rows: np.ndarray, a: np.ndarray) -> np.ndarray:
    """sum_t W / (U + a V) over the systems ``rows``, the operations of ``_PairDiff`` in the
    same order, in one (rows x topics) buffer."""
    buf = np.take(curves.V, rows, axis=0)
    buf *= a
    buf += np.take(curves.U, rows, axis=0)
    np.divide(np.take(curves.W, rows, axis=0), buf, out=buf)
    return buf.sum(axis=1)


def diff_values(curves: Curves, I: np.ndarray, J: np.ndarray,  # noqa: E741 - as in the formula
                x: np.ndarray) -> np.ndarray:
    """d(x_k) = A_{I_k}(x_k) - A_{J_k}(x_k), evaluated exactly as ``_PairDiff`` does."""
    a = x[:, None]
    return _side_sum(curves, I, a) - _side_sum(curves, J, a)


def roots_vec(f: Callable[[np.ndarray, np.ndarray], np.ndarray], lo: np.ndarray, hi: np.ndarray,
              xtol: float = XTOL, rtol: float = RTOL, maxiter: int = 300) -> np.ndarray:
    """Roots of many functions at once, each with a sign change on its bracket [lo, hi].

    The Illinois variant of regula falsi (Dowell and Jarratt, BIT 11, 1971): the next point is
    where the chord through the two bracket ends crosses zero, and the bracket keeps the end
    whose sign differs from the new point's; when the same end is kept twice in a row, its
    function value is halved, which keeps the convergence superlinear. Every third step is a
    bisection, so each bracket at least halves every three steps whatever the function. A
    bracket is done when f is exactly 0 at the new point or the bracket is narrower than
    ``2 (xtol + rtol |x|)`` -- the tolerance of :func:`scipy.optimize.brentq` with the same
    ``xtol`` and ``rtol``.

    Parameters
    ----------
    f : callable ``f(x, idx) -> ndarray``
        Values of the functions numbered ``idx`` at the points ``x`` (same shape).
    lo, hi : ndarray, shape (n,)
        Brackets, ``lo < hi``, with ``f(lo) * f(hi) <= 0``.

    Returns
    -------
    ndarray, shape (n,)
        A root in each bracket.
    """
    n = lo.size
    out = np.full(n, np.nan)
    if n == 0:
        return out
    ids = np.arange(n)
    a = np.asarray(lo, dtype=np.float64).copy()
    b = np.asarray(hi, dtype=np.float64).copy()
    fa, fb = f(a, ids), f(b, ids)
    if np.any(fa * fb > 0):
        raise ValueError("every bracket needs a sign change")
    kept = np.zeros(n, dtype=np.int8)  # +1: b was kept at the last step, -1: a was
    at_end = (fa == 0) | (fb == 0)
    out[at_end] = np.where(fa == 0, a, b)[at_end]
    live = ~at_end
    ids, a, b, fa, fb, kept = ids[live], a[live], b[live], fa[live], fb[live], kept[live]
    with np.errstate(divide="ignore", invalid="ignore", over="ignore"):
        for step in range(maxiter):
            if ids.size == 0:
                return out
            mid = 0.5 * (a + b)
            x = mid if step % 3 == 2 else b - fb * (b - a) / (fb - fa)
            x = np.where(np.isfinite(x) & (a < x) & (x < b), x, mid)
            fx = f(x, ids)
            keep_b = np.sign(fx) == np.sign(fa)  # the root lies in [x, b]: x replaces a
            fb = np.where(keep_b & (kept == 1), 0.5 * fb, fb)
            fa = np.where(~keep_b & (kept == -1), 0.5 * fa, fa)
            a, fa = np.where(keep_b, x, a), np.where(keep_b, fx, fa)
            b, fb = np.where(keep_b, b, x), np.where(keep_b, fb, fx)
            kept = np.where(keep_b, 1, -1).astype(np.int8)
            done = (fx == 0) | (b - a <= 2 * (xtol + rtol * np.abs(x)))
            if done.any():
                out[ids[done]] = x[done]
                k = ~done
                ids, a, b, fa, fb, kept = ids[k], a[k], b[k], fa[k], fb[k], kept[k]
    if ids.size:
        raise RuntimeError(f"{ids.size} root(s) did not converge in {maxiter} steps")
    return out


def _value(sides: tuple[tuple[np.ndarray, np.ndarray, np.ndarray], ...],
           x: np.ndarray) -> np.ndarray:
    """d at ``x`` from the gathered (U, V, W) of both sides, by the operations of
    :func:`diff_values`."""
    a = x[:, None]
    vals = []
    for U, V, W in sides:
        den = V * a
        den += U
        np.divide(W, den, out=den)
        vals.append(den.sum(axis=1))
    return vals[0] - vals[1]


def _derivatives(sides: tuple[tuple[np.ndarray, np.ndarray, np.ndarray], ...],
                 x: np.ndarray) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """d, d' and d'' at ``x`` (module docstring) from the gathered (U, V, W) of both sides; d
    by the operations of :func:`diff_values`."""
    out = []
    a = x[:, None]
    for U, V, W in sides:
        den = V * a
        den += U
        q = W / den
        val = q.sum(axis=1)
        q *= V
        q /= den  # W V / D^2
        d1 = q.sum(axis=1)
        q *= V
        q /= den  # W V^2 / D^3
        out.append((val, d1, q.sum(axis=1)))
    (vi, si, ci), (vj, sj, cj) = out
    return vi - vj, sj - si, 2.0 * (ci - cj)


def _halley_chunk(curves: Curves, I: np.ndarray, J: np.ndarray,  # noqa: E741 - as in the formula
                  lo: np.ndarray, hi: np.ndarray, out: np.ndarray) -> None:
    """:func:`crossing_roots` of one chunk of brackets, written into ``out``."""
    sides = tuple((np.take(curves.U, rows, axis=0), np.take(curves.V, rows, axis=0),
                   np.take(curves.W, rows, axis=0)) for rows in (I, J))
    n = lo.size
    ids = np.arange(n)
    a, b = lo.astype(np.float64), hi.astype(np.float64)
    fa, fb = _value(sides, a), _value(sides, b)
    if np.any(fa * fb > 0):
        raise ValueError("every bracket needs a sign change")
    at_end = (fa == 0) | (fb == 0)
    out[at_end] = np.where(fa == 0, a, b)[at_end]
    with np.errstate(divide="ignore", invalid="ignore", over="ignore"):
        x = b - fb * (b - a) / (fb - fa)  # the regula falsi point
        x = np.where(np.isfinite(x) & (a < x) & (x < b), x, 0.5 * (a + b))
        live = ~at_end
        for _ in range(HALLEY_STEPS):
            if not live.all():  # keep the brackets still open (copies: only when some closed)
                ids, a, b, fa, x = ids[live], a[live], b[live], fa[live], x[live]
                sides = tuple((U[live], V[live], W[live]) for U, V, W in sides)
            if not ids.size:
                return
            f, f1, f2 = _derivatives(sides, x)
            left = np.sign(f) == np.sign(fa)  # the root lies in [x, b]: x replaces a
            a, fa = np.where(left, x, a), np.where(left, f, fa)
            b = np.where(left, b, x)
            raw = x - 2.0 * f * f1 / (2.0 * f1 * f1 - f * f2)
            zero = f == 0
            # a step within the tolerance is the last (even onto the bracket end x just became)
            done = zero | (np.abs(raw - x) <= 2 * (XTOL + RTOL * np.abs(x)))
            out[ids[done]] = np.where(zero, x, np.clip(raw, a, b))[done]
            new = np.where(np.isfinite(raw) & (a < raw) & (raw < b), raw, 0.5 * (a + b))
            live = ~done
            x = new
    if ids[live].size:  # nearly tangent curves: the bracketing method on the bracket reached
        rest = ids[live]
        out[rest] = roots_vec(lambda z, k: diff_values(curves, I[rest[k]], J[rest[k]], z),
                              a[live], b[live])


def crossing_roots(curves: Curves, I: np.ndarray, J: np.ndarray,  # noqa: E741 - as in the formula
                   lo: np.ndarray, hi: np.ndarray, cells: int = _BRACKET_CELLS) -> np.ndarray:
    """The crossing of the curves ``I[k]`` and ``J[k]`` in the bracket ``[lo[k], hi[k]]``, for
    every k at once (safeguarded Halley steps, module docstring).

    Parameters
    ----------
    curves : Curves
    I, J : ndarray of int, shape (n,)
        The two systems of each bracket.
    lo, hi : ndarray, shape (n,)
        Brackets, ``lo < hi``, where ``d = A_I - A_J`` changes sign (``d(lo) d(hi) <= 0``).
    cells : int
        Brackets x topics gathered at a time (bounds the memory).

    Returns
    -------
    ndarray, shape (n,)
        The crossing in each bracket, to machine precision (a bracket end where d is 0 there).
    """
    n = lo.size
    out = np.full(n, np.nan)
    step = max(1, cells // max(1, curves.U.shape[1]))
    for c0 in range(0, n, step):
        sl = slice(c0, min(n, c0 + step))
        _halley_chunk(curves, I[sl], J[sl], lo[sl], hi[sl], out[sl])
    return out
