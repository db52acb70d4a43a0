"""Parametric UIR with three or more metrics (docs/measures.md, "Parametric UIR"): the vectorised
orthant probabilities against SciPy at tight tolerance and against an independent route
(conditioning on one variable, integrated by scipy.integrate.quad over SciPy's exact bivariate
CDF), the singular-covariance rules, the all-pairs matrix and the size refusal."""

from __future__ import annotations

import math

import numpy as np
import pandas as pd
import pytest
from scipy import integrate, special, stats
from test_uir import random_table

import metrics.comparison.parametric as parametric
from metrics.analyses import compare
from metrics.comparison.orthant import adaptive_integral, bvn_cdf, tvn_cdf
from metrics.comparison.orthant_lattice import orthant_difference
from metrics.comparison.parametric import (
    parametric_all_pairs,
    parametric_from_deltas,
    parametric_pairs,
    parametric_uir,
)
from metrics.comparison.parametric_batch import uir_from_deltas
from metrics.comparison.uir import oriented
from metrics.model.score_table import score_cube


def _corr(C: np.ndarray) -> np.ndarray:
    sd = np.sqrt(np.diag(C))
    R = C / np.outer(sd, sd)
    np.fill_diagonal(R, 1.0)
    return R


def _random_corr(rng, k: int, kind: int) -> np.ndarray:
    """Correlation matrices of five kinds: generic, nearly singular (rank k - 1 plus 1e-6 I),
    strongly correlated (|r| > 0.95, random signs), rank one plus 1e-9 I, diagonal-heavy."""
    if kind == 0:
        A = rng.normal(size=(k, k))
        return _corr(A @ A.T)
    if kind == 1:
        A = rng.normal(size=(k, k - 1))
        return _corr(A @ A.T + 1e-6 * np.eye(k))
    if kind == 2:
        rho = rng.uniform(0.95, 0.9999)
        s = rng.choice([-1.0, 1.0], k)
        return (1 - rho) * np.eye(k) + rho * np.outer(s, s)
    if kind == 3:
        a = rng.normal(size=(k, 1))
        return _corr(a @ a.T + 1e-9 * np.eye(k))
    A = rng.normal(size=(k, k))
    return _corr(A @ A.T + np.diag(rng.uniform(0, 2, k)))


def _scipy_cdf(h: np.ndarray, R: np.ndarray) -> float:
    """SciPy's multivariate normal CDF at tight tolerance (Genz's QMC, 1e-7)."""
    k = h.size
    mvn = stats.multivariate_normal(np.zeros(k), R, allow_singular=True, abseps=1e-7,
                                    releps=1e-7, maxpts=500_000 * k)
    return float(mvn.cdf(h, rng=np.random.default_rng(0)))


def _conditioned(h: np.ndarray, R: np.ndarray) -> float:
    """P(Z <= h) in three dimensions by conditioning on the best-conditioned Z_i: the integral
    over z <= h_i of phi(z) times SciPy's (deterministic) bivariate CDF of the rest."""
    i = int(np.argmin(np.abs(R - np.eye(3)).max(axis=0)))
    j, k = [x for x in range(3) if x != i]
    rij, rik, rjk = R[i, j], R[i, k], R[j, k]
    sj, sk = math.sqrt(1 - rij ** 2), math.sqrt(1 - rik ** 2)
    rc = float(np.clip((rjk - rij * rik) / (sj * sk), -1, 1))
    bvn = stats.multivariate_normal([0.0, 0.0], [[1.0, rc], [rc, 1.0]], allow_singular=True)

    def f(z):
        return math.exp(-z * z / 2) / math.sqrt(2 * math.pi) * float(
            bvn.cdf([(h[j] - rij * z) / sj, (h[k] - rik * z) / sk]))

    return integrate.quad(f, -np.inf, h[i], epsabs=1e-13, epsrel=1e-12, limit=400)[0]


# --- bivariate and trivariate CDF ----------------------------------------------------------------


def test_bvn_matches_scipy():
    rng = np.random.default_rng(0)
    h, k = rng.normal(0, 1.5, 60), rng.normal(0, 1.5, 60)
    rho = np.concatenate((rng.uniform(-1, 1, 56), [0.9999999, -0.9999999, 1.0, -1.0]))
    got = bvn_cdf(h, k, rho)
    for i in range(60):
        R = [[1.0, rho[i]], [rho[i], 1.0]]
        ref = stats.multivariate_normal([0, 0], R, allow_singular=True).cdf([h[i], k[i]])
        assert got[i] == pytest.approx(ref, abs=1e-7 if abs(rho[i]) == 1 else 1e-10)
    assert bvn_cdf(0.0, 0.0, 0.5) == pytest.approx(0.25 + math.asin(0.5) / (2 * math.pi), abs=1e-15)


def test_tvn_within_1e4_of_scipy_and_1e8_of_conditioning():
    rng = np.random.default_rng(11)
    cases = [(rng.normal(0, 1.5, 3), _random_corr(rng, 3, i % 5)) for i in range(40)]
    # the centred closed form P(all Z <= 0) = 1/8 + (asin r12 + asin r13 + asin r23) / (4 pi)
    cases.append((np.zeros(3), _random_corr(rng, 3, 0)))
    H = np.array([c[0] for c in cases])
    R = np.array([c[1] for c in cases])
    got, err = tvn_cdf(H, R[:, 0, 1], R[:, 0, 2], R[:, 1, 2])
    assert err.max() < 1e-9
    for i, (h, r) in enumerate(cases):
        assert got[i] == pytest.approx(_scipy_cdf(h, r), abs=1e-4), (i, h, r)
        assert got[i] == pytest.approx(_conditioned(h, r), abs=1e-8), (i, h, r)
    r = R[-1]
    closed = 1 / 8 + (math.asin(r[0, 1]) + math.asin(r[0, 2]) + math.asin(r[1, 2])) / (4 * math.pi)
    assert got[-1] == pytest.approx(closed, abs=1e-12)


def test_tvn_degenerate_correlations_closed_forms():
    h = np.array([[0.3, -0.2, 0.5], [0.3, -0.2, 0.5], [0.1, 0.4, -0.7], [0.1, 0.4, 0.7]])
    # r23 = 1: Z3 = Z2 -> Phi2(h1, min(h2, h3); r12); r23 = -1: Z3 = -Z2
    got, err = tvn_cdf(h, np.array([0.4, 0.0, 0.2, 0.2]), np.array([0.4, 0.0, -0.2, -0.2]),
                       np.array([1.0, 0.0, -1.0, -1.0]))
    assert got[0] == pytest.approx(float(bvn_cdf(0.3, -0.2, 0.4)), abs=1e-15)
    assert got[1] == pytest.approx(float(np.prod(special.ndtr(h[1]))), abs=1e-12)  # independent
    assert got[2] == 0.0  # Z2 <= 0.4 and Z2 >= 0.7 is impossible
    assert got[3] == pytest.approx(float(bvn_cdf(0.1, 0.4, 0.2) - bvn_cdf(0.1, -0.7, 0.2)),
                                   abs=1e-15)
    assert err[0] == err[2] == err[3] == 0.0


def test_adaptive_integral():
    # a square root needs halvings near 0; a step stops at the interval cap with its error shown
    sq, e_sq = adaptive_integral(lambda x, i: np.sqrt(x), 1, tol=1e-12)
    assert sq[0] == pytest.approx(2 / 3, abs=1e-10) and e_sq[0] < 1e-9
    step, e_step = adaptive_integral(lambda x, i: (x > 1 / 3).astype(float), 1)
    assert step[0] == pytest.approx(2 / 3, abs=1e-3) and e_step[0] > 0
    nan, _ = adaptive_integral(lambda x, i: np.where(x > 0.5, np.nan, 1.0), 1)
    assert math.isnan(nan[0])

    # each integrand's value depends on its own function only
    def f(x, i):
        return np.cos(3 * x * (1 + i[:, None]))

    batch, _ = adaptive_integral(f, 3)
    alone, _ = adaptive_integral(lambda x, i: f(x, i + 2), 1)
    assert batch[2] == alone[0]


# --- the lattice rule (four or more metrics) ----------------------------------------------------


def _conditioned4(h: np.ndarray, R: np.ndarray) -> float:
    """P(Z <= h) in four dimensions: conditioning on Z_1, the trivariate rest by tvn_cdf."""
    r = R[0, 1:]
    Sc = R[1:, 1:] - np.outer(r, r)
    s = np.sqrt(np.diag(Sc))
    Rc = Sc / np.outer(s, s)

    def f(z):
        lim = (h[1:] - z * r) / s
        return math.exp(-z * z / 2) / math.sqrt(2 * math.pi) * float(
            tvn_cdf(lim[None], Rc[0, 1], Rc[0, 2], Rc[1, 2])[0][0])

    return integrate.quad(f, -np.inf, h[0], epsabs=1e-12, epsrel=1e-11, limit=300)[0]


def test_lattice_four_metrics_against_conditioning_and_scipy():
    rng = np.random.default_rng(5)
    cases = []
    for i in range(16):
        R = _random_corr(rng, 4, (0, 2, 4)[i % 3])   # positive definite kinds
        cases.append((rng.normal(0, 1.2, 4), R))
    H = np.array([c[0] for c in cases])
    R = np.array([c[1] for c in cases])
    ones = np.ones(len(cases))
    value, se = orthant_difference(H, R, ones, ones)
    assert (se > 0).all() and se.max() < 1e-4
    for i, (h, r) in enumerate(cases):
        ref = _conditioned4(h, r) - _conditioned4(-h, r)
        assert value[i] == pytest.approx(ref, abs=max(5e-5, 6 * se[i])), (i, se[i])
        sp = _scipy_cdf(h, r) - _scipy_cdf(-h, r)
        assert value[i] == pytest.approx(sp, abs=1e-4)
    # a law's value does not depend on the laws computed with it
    v1, s1 = orthant_difference(H[3:4], R[3:4], ones[:1], ones[:1])
    assert v1[0] == value[3] and s1[0] == se[3]


# --- parametric UIR ------------------------------------------------------------------------------


def _scipy_parametric(D: np.ndarray) -> float:
    """The definition with SciPy: P(all D >= 0) - P(all D <= 0) of the fitted normal."""
    mu, C = D.mean(axis=0), np.cov(D, rowvar=False)
    h, R = mu / np.sqrt(np.diag(C)), _corr(C)
    if np.linalg.eigvalsh(R).min() < 1e-9:
        R = (1 - 1e-9) * R + 1e-9 * np.eye(R.shape[0])
    return _scipy_cdf(h, R) - _scipy_cdf(-h, R)


def test_parametric_three_metrics_within_1e4_of_scipy():
    rng = np.random.default_rng(21)
    worst = 0.0
    for i in range(30):
        R = _random_corr(rng, 3, i % 5)
        sd = rng.uniform(0.02, 0.2, 3)
        mu = rng.normal(0, 0.05, 3)
        T = int(rng.integers(8, 80))
        D = rng.multivariate_normal(mu, R * np.outer(sd, sd), size=T, check_valid="ignore")
        got = parametric_from_deltas(D)
        ref = _scipy_parametric(D)
        worst = max(worst, abs(got - ref))
        assert got == pytest.approx(ref, abs=1e-4), (i, got, ref)
    assert worst > 0  # the two routes are different computations


def test_parametric_three_metrics_singular_rules():
    rng = np.random.default_rng(3)
    z = rng.normal(0.02, 0.05, (30, 2))
    h = z.mean(axis=0) / z.std(axis=0, ddof=1)
    r = np.corrcoef(z, rowvar=False)[0, 1]
    # a metric constant at +0.1: P(all <= 0) = 0, the rest is P(D1 >= 0, D2 >= 0)
    D = np.column_stack([np.full(30, 0.1), z])
    assert parametric_from_deltas(D) == pytest.approx(float(bvn_cdf(h[0], h[1], r)), abs=1e-12)
    # constant at -0.1: P(all >= 0) = 0
    D = np.column_stack([z[:, 0], np.full(30, -0.1), z[:, 1]])
    assert parametric_from_deltas(D) == pytest.approx(-float(bvn_cdf(-h[0], -h[1], r)), abs=1e-12)
    # constant at 0: a tie, drops out -> the two-metric closed form
    D = np.column_stack([z, np.zeros(30)])
    closed = special.ndtr(h[0]) + special.ndtr(h[1]) - 1
    assert parametric_from_deltas(D) == pytest.approx(closed, abs=1e-12)
    # opposite certain signs, everything constant, one topic, no topic
    assert parametric_from_deltas(np.column_stack([np.full(30, 0.1), np.full(30, -0.1), z[:, 0]])) == 0.0
    assert parametric_from_deltas(np.tile([0.1, 0.2, 0.0], (4, 1))) == 1.0
    assert parametric_from_deltas(np.array([[-0.1, -0.3, -0.2]])) == -1.0
    assert math.isnan(parametric_from_deltas(np.full((3, 3), np.nan)))
    # rows with a NaN are left out
    D = rng.normal(0.01, 0.05, (25, 3))
    Dn = np.vstack([D, [[np.nan, 0.5, 0.5]]])
    assert parametric_from_deltas(Dn) == pytest.approx(parametric_from_deltas(D), abs=1e-13)


def test_two_metric_pairs_are_the_matrix_entries():
    # every ordered pair in closed form (broadcast by rows) and a list of pairs (gathered)
    t = random_table(S=7, T=25, M=2, seed=9, decimals=2, nan_share=0.03)
    X = oriented(score_cube(t, ["m0", "m1"]), None)
    full = parametric_all_pairs(X)
    ia, ib = np.array([0, 3, 6, 2, 4]), np.array([5, 1, 2, 6, 4])
    some = parametric_pairs(X, ia, ib)
    assert np.array_equal(some.value, full.value[ia, ib]) and not some.error.any()
    assert np.allclose(full.value, -full.value.T, atol=1e-15)


@pytest.mark.parametrize("M", [3, 4])
def test_all_pairs_matrix_pairs_and_single_pair_agree(M):
    t = random_table(S=7, T=25, M=M, seed=M, decimals=2, nan_share=0.03)
    names = [f"m{i}" for i in range(M)]
    cube = score_cube(t, names)
    X = oriented(cube, None)
    full = parametric_all_pairs(X)
    v = full.value
    assert np.array_equal(v, -v.T) and np.all(np.diag(v) == 0)
    assert np.array_equal(full.error, full.error.T) and (full.error >= 0).all()
    if M == 4:
        assert full.error.max() > 0
    ia, ib = np.array([0, 3, 6, 2]), np.array([5, 1, 2, 6])
    some = parametric_pairs(X, ia, ib)
    assert np.array_equal(some.value, v[ia, ib]) and np.array_equal(some.error, full.error[ia, ib])
    for a, b in [(0, 5), (5, 0), (2, 6)]:
        one = parametric_uir(t, cube.systems[a], cube.systems[b], names)
        assert one == pytest.approx(v[a, b], abs=1e-12)
    # the same numbers from the differences of all the pairs at once
    D = X[ia] - X[ib]
    batch = uir_from_deltas(D, 1e-9)
    assert np.allclose(batch.value, v[ia, ib], atol=1e-12, rtol=0)


def test_compare_four_metrics_reports_the_lattice_error():
    t = random_table(S=5, T=20, M=4, seed=2, decimals=2, nan_share=0.0)
    res = compare(t, "m0", "m1", metrics=["m0", "m1", "m2", "m3"], test="none")
    p = res.pairs
    cols = list(p.columns)
    assert cols[cols.index("uir_param") + 1] == "uir_param_error"
    assert (p["uir_param_error"] > 0).any() and (p["uir_param_error"] < 1e-4).all()
    three = compare(t, "m0", "m1", metrics=["m0", "m1", "m2"], test="none")
    assert "uir_param_error" not in three.pairs


# --- the size refusal and leaving parametric UIR out --------------------------------------------


def test_too_many_systems_refused_before_the_work(monkeypatch):
    monkeypatch.setattr(parametric, "MAX_MATRIX_BYTES", 1000)
    X = np.zeros((9, 3, 3))
    with pytest.raises(ValueError, match=r"9 systems needs 9 x 9 .*--no-parametric") as exc:
        parametric_all_pairs(X)
    assert "\n" not in str(exc.value)
    t = random_table(S=9, T=6, M=3, seed=1, decimals=2, nan_share=0.0)
    with pytest.raises(ValueError, match="parametric UIR of 9 systems"):
        compare(t, "m0", "m1", metrics=["m0", "m1", "m2"], test="none")
    # the pairs a view asks for are still computed
    assert parametric_pairs(oriented(score_cube(t, ["m0", "m1", "m2"]), None), [0], [1]).value.size == 1
    res = compare(t, "m0", "m1", metrics=["m0", "m1", "m2"], test="none", parametric=False)
    assert res.pairs["uir_param"].isna().all() and res.parameters["parametric"] is False


def test_leaving_parametric_out_drops_its_predictor():
    t = random_table(S=6, T=12, M=2, seed=4, decimals=2, nan_share=0.0)
    beds = {f"t{i}": "A" if i < 6 else "B" for i in range(12)}
    on = compare(t, "m0", "m1", testbeds=beds, test="none")
    off = compare(t, "m0", "m1", testbeds=beds, test="none", parametric=False)
    assert set(on.cross_testbed["predictor"]) == {"uir", "uir_param", "delta_f"}
    assert set(off.cross_testbed["predictor"]) == {"uir", "delta_f"}
    keep = on.cross_testbed[on.cross_testbed["predictor"] != "uir_param"].reset_index(drop=True)
    pd.testing.assert_frame_equal(keep, off.cross_testbed)
    pd.testing.assert_series_equal(on.pairs["uir"], off.pairs["uir"])
