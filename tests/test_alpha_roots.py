"""The crossing points of F_alpha curves by safeguarded Halley steps
(:func:`metrics.comparison.alpha_roots.crossing_roots`) against the route they replaced (the
bracketing Illinois method :func:`~metrics.comparison.alpha_roots.roots_vec` on the same
brackets) and against plain bisection run to the last representable point, to 1e-12."""

from __future__ import annotations

import numpy as np
import pytest

from metrics.comparison import alpha_roots
from metrics.comparison.alpha import _grid_bounds, _PairDiff
from metrics.comparison.alpha_roots import crossing_roots, diff_values, roots_vec
from metrics.comparison.curves import curves_from_arrays


def _brackets(P: np.ndarray, R: np.ndarray):
    """Curves and every grid interval where a pair's d changes sign (non-zero ends)."""
    curves = curves_from_arrays(P, R, "macro")
    bounds = _grid_bounds(curves)
    iu, ju = np.triu_indices(P.shape[0], k=1)
    d = bounds.vals[iu] - bounds.vals[ju]
    r, k = np.nonzero(d[:, :-1] * d[:, 1:] < 0)
    return curves, iu[r], ju[r], bounds.grid[k], bounds.grid[k + 1]


def _bisection(diff: _PairDiff, lo: float, hi: float) -> float:
    """Plain bisection until the midpoint is one of the ends (no representable point between)."""
    flo = diff(lo)
    while True:
        m = 0.5 * (lo + hi)
        if m in (lo, hi):
            return m
        fm = diff(m)
        if fm == 0:
            return m
        if (fm > 0) == (flo > 0):
            lo, flo = m, fm
        else:
            hi = m


def _random_pr(S: int, T: int, seed: int):
    rng = np.random.default_rng(seed)
    skill = rng.uniform(0.2, 0.8, (S, 1))
    bias = rng.uniform(-0.3, 0.3, (S, 1))
    P = np.clip(skill + bias + rng.normal(0, 0.15, (S, T)), 0, 1)
    R = np.clip(skill - bias + rng.normal(0, 0.15, (S, T)), 0, 1)
    P[rng.random(P.shape) < 0.05] = np.nan  # systems missing topics: padded terms
    return P, R


@pytest.mark.parametrize("seed", [0, 1, 2])
def test_crossing_roots_match_the_illinois_route(seed, monkeypatch):
    curves, I, J, lo, hi = _brackets(*_random_pr(60, 30, seed))  # noqa: E741 - as in the formula
    assert I.size > 100
    handed = []  # brackets the Halley steps left to the bracketing method: a few at most
    monkeypatch.setattr(alpha_roots, "roots_vec",
                        lambda f, a, b: handed.append(a.size) or roots_vec(f, a, b))
    new = crossing_roots(curves, I, J, lo, hi, cells=900)  # small chunks: chunking changes nothing
    assert sum(handed) <= 0.01 * I.size
    old = roots_vec(lambda x, k: diff_values(curves, I[k], J[k], x), lo, hi)
    assert np.all((lo <= new) & (new <= hi))
    np.testing.assert_allclose(new, old, rtol=0, atol=1e-12)


def test_crossing_roots_match_bisection_to_the_last_point():
    curves, I, J, lo, hi = _brackets(*_random_pr(25, 40, 7))  # noqa: E741 - as in the formula
    new = crossing_roots(curves, I, J, lo, hi)
    for k in range(I.size):
        want = _bisection(_PairDiff(curves, int(I[k]), int(J[k])), float(lo[k]), float(hi[k]))
        assert abs(new[k] - want) <= 1e-12, (k, new[k], want)


def test_crossing_roots_fall_back_on_the_bracketing_method(monkeypatch):
    # with no Halley step allowed every bracket goes to the Illinois method: the same roots
    curves, I, J, lo, hi = _brackets(*_random_pr(20, 20, 3))  # noqa: E741 - as in the formula
    want = crossing_roots(curves, I, J, lo, hi)
    monkeypatch.setattr(alpha_roots, "HALLEY_STEPS", 0)
    np.testing.assert_allclose(crossing_roots(curves, I, J, lo, hi), want, rtol=0, atol=1e-12)


def test_crossing_roots_ends_and_errors():
    # two systems crossing exactly at alpha = 0.5 (mirror images), and brackets ending there
    P, R = np.array([[0.8], [0.4]]), np.array([[0.4], [0.8]])
    curves = curves_from_arrays(P, R, "macro")
    I, J = np.array([0, 0, 0]), np.array([1, 1, 1])  # noqa: E741 - as in the formula
    got = crossing_roots(curves, I, J, np.array([0.0, 0.5, 0.25]), np.array([0.5, 1.0, 0.75]))
    np.testing.assert_allclose(got, 0.5, rtol=0, atol=1e-15)
    assert crossing_roots(curves, I[:0], J[:0], np.zeros(0), np.zeros(0)).size == 0
    with pytest.raises(ValueError, match="sign change"):
        crossing_roots(curves, I[:1], J[:1], np.array([0.0]), np.array([0.25]))
