"""Unanimous improvement, UIR, parametric UIR and reference systems (docs/measures.md §5)."""

from __future__ import annotations

import math

import numpy as np
import pandas as pd
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from scipy import stats
from score_examples import JAIR, long_table

from metrics.comparison import parametric
from metrics.comparison.parametric import (
    parametric_from_deltas,
    parametric_uir,
    parametric_uir_matrix,
)
from metrics.comparison.reference import reference_systems
from metrics.comparison.uir import (
    UIRMatrix,
    uir,
    uir_matrix,
)
from metrics.model.score_table import campaign_means, score_cube, validate_score_table


def test_jair_worked_example():
    r = uir(JAIR, "a", "b", ["precision", "recall"])
    # |T_{a>=b}| = 6, |T_{b>=a}| = 4, |T| = 10  ->  UIR = 0.2
    assert r.uir == pytest.approx(0.2)
    assert (r.n_a_better, r.n_b_better, r.n_tied, r.n_biased, r.n_topics) == (4, 2, 2, 2, 10)
    back = uir(JAIR, "b", "a", ["precision", "recall"])
    assert back.uir == pytest.approx(-0.2)
    assert (back.n_a_better, back.n_b_better, back.n_tied, back.n_biased) == (2, 4, 2, 2)
    d = r.to_dict()
    assert d["uir"] == pytest.approx(0.2) and d["metrics"] == ["precision", "recall"]


def test_self_is_zero_and_all_tied():
    r = uir(JAIR, "a", "a", ["precision", "recall"])
    assert r.uir == 0.0 and r.n_tied == 10 and r.n_biased == 0


def test_ties_within_tolerance():
    t = long_table({"a": {"p": [0.5, 0.5], "r": [0.5, 0.6]},
                    "b": {"p": [0.5 + 5e-10, 0.5], "r": [0.5, 0.6 - 3e-10]}})
    r = uir(t, "a", "b", ["p", "r"])  # tol 1e-9: both topics tied
    assert (r.n_tied, r.n_a_better, r.n_b_better, r.uir) == (2, 0, 0, 0.0)
    exact = uir(t, "a", "b", ["p", "r"], tol=0.0)  # exact comparison
    assert (exact.n_b_better, exact.n_a_better, exact.n_tied) == (1, 1, 0)
    assert exact.uir == 0.0


def test_large_tolerance_turns_small_losses_into_ties():
    t = long_table({"a": {"p": [0.60, 0.60, 0.9], "r": [0.40, 0.50, 0.1]},
                    "b": {"p": [0.62, 0.50, 0.5], "r": [0.30, 0.50, 0.5]}})
    assert uir(t, "a", "b", ["p", "r"]).uir == pytest.approx(1 / 3)  # topic 0 and 2 biased
    r = uir(t, "a", "b", ["p", "r"], tol=0.05)  # topic 0: p loses by 0.02 < tol -> a >= b
    assert (r.n_a_better, r.n_b_better, r.n_tied, r.n_biased) == (2, 0, 0, 1)
    assert r.uir == pytest.approx(2 / 3)
    with pytest.raises(ValueError, match="tol"):
        uir(t, "a", "b", ["p", "r"], tol=-1)


def test_all_topics_biased_gives_zero():
    t = long_table({"a": {"p": [0.9, 0.8, 0.7], "r": [0.1, 0.2, 0.3]},
                    "b": {"p": [0.1, 0.2, 0.3], "r": [0.9, 0.8, 0.7]}})
    r = uir(t, "a", "b", ["p", "r"])
    assert (r.uir, r.n_biased, r.n_a_better, r.n_b_better, r.n_tied) == (0.0, 3, 0, 0, 0)


def test_three_metrics():
    # topic 0: a better on all three; 1: a better on two, worse on one (biased);
    # 2: equal on all (tied); 3: b better on all three
    t = long_table({"a": {"x": [0.9, 0.9, 0.5, 0.1], "y": [0.9, 0.9, 0.5, 0.1], "z": [0.9, 0.1, 0.5, 0.1]},
                    "b": {"x": [0.1, 0.1, 0.5, 0.9], "y": [0.1, 0.1, 0.5, 0.9], "z": [0.1, 0.9, 0.5, 0.9]}})
    r = uir(t, "a", "b", ["x", "y", "z"])
    assert (r.n_a_better, r.n_b_better, r.n_tied, r.n_biased) == (1, 1, 1, 1)
    assert r.uir == 0.0
    two = uir(t, "a", "b", ["x", "y"])  # without z, topic 1 is a win for a
    assert (two.n_a_better, two.n_b_better, two.n_tied, two.n_biased, two.uir) == (2, 1, 1, 0, 0.25)


def test_lower_is_better_metrics_are_flipped():
    # p higher is better; "err" lower is better. a: higher p and lower err on both topics.
    t = long_table({"a": {"p": [0.8, 0.7], "err": [0.1, 0.2]},
                    "b": {"p": [0.6, 0.5], "err": [0.3, 0.4]}})
    assert uir(t, "a", "b", ["p", "err"]).uir == 0.0  # unknown name: higher is better -> biased
    assert uir(t, "a", "b", ["p", "err"], directions={"err": -1}).uir == 1.0
    m = uir_matrix(t, ["p", "err"], directions={"err": -1})
    assert m.uir[0, 1] == 1.0 and m.uir[1, 0] == -1.0
    # registry metric: the conditional entropy H(C|K) is lower-is-better
    t2 = t.replace({"metric": {"err": "h_c_given_k"}})
    assert uir(t2, "a", "b", ["p", "h_c_given_k"]).uir == 1.0
    with pytest.raises(ValueError):
        uir(t, "a", "b", ["p", "err"], directions={"err": 0})


def test_missing_scores_are_excluded_and_counted():
    t = long_table({"a": {"p": [0.9, 0.9, np.nan], "r": [0.9, 0.1, 0.5]},
                    "b": {"p": [0.1, 0.1, 0.1], "r": [0.1, 0.9, 0.1]}})
    r = uir(t, "a", "b", ["p", "r"])
    assert (r.n_topics, r.n_missing, r.n_a_better, r.n_biased) == (2, 1, 1, 1)
    assert r.uir == 0.5
    m = uir_matrix(t, ["p", "r"])
    assert m.result("a", "b") == r


def test_bad_arguments():
    with pytest.raises(ValueError, match="two metrics"):
        uir(JAIR, "a", "b", ["precision"])
    with pytest.raises(ValueError, match="not in the score table"):
        uir(JAIR, "a", "b", ["precision", "nope"])
    with pytest.raises(ValueError, match="system"):
        uir(JAIR, "a", "zz", ["precision", "recall"])


# --- the matrix ------------------------------------------------------------------------------


def random_table(S=12, T=30, M=3, seed=0, decimals=1, nan_share=0.03):
    rng = np.random.default_rng(seed)
    v = np.round(rng.uniform(0, 1, (S, T, M)), decimals)  # rounding makes many exact ties
    v[rng.uniform(size=v.shape) < nan_share] = np.nan
    rows = [(f"s{s}", f"t{t}", f"m{m}", v[s, t, m]) for s in range(S) for t in range(T) for m in range(M)]
    return pd.DataFrame(rows, columns=["system", "topic", "metric", "value"])


@pytest.mark.parametrize("tol", [0.0, 1e-9, 0.1])
def test_matrix_equals_pairwise(tol):
    t = random_table()
    metrics = ["m0", "m1", "m2"]
    m = uir_matrix(t, metrics, tol=tol, directions={"m2": -1})
    for a in m.systems:
        for b in m.systems:
            assert m.result(a, b) == uir(t, a, b, metrics, tol=tol, directions={"m2": -1})
    assert np.allclose(m.uir, -m.uir.T) and np.all(np.diag(m.uir) == 0)
    assert np.all(m.n_tied == m.n_tied.T) and np.all(m.n_biased >= 0)


def test_matrix_frames():
    m = uir_matrix(JAIR, ["precision", "recall"])
    assert isinstance(m, UIRMatrix)
    long = m.to_dataframe()
    assert list(long.columns) == ["system_a", "system_b", "uir", "n_a_better", "n_b_better",
                                  "n_tied", "n_biased", "n_topics"]
    assert long.set_index(["system_a", "system_b"]).loc[("a", "b"), "uir"] == pytest.approx(0.2)
    assert len(m.to_dataframe(include_self=True)) == 4
    assert m.frame().loc["b", "a"] == pytest.approx(-0.2)


@settings(max_examples=40, deadline=None)
@given(st.integers(0, 10_000), st.integers(2, 6), st.integers(1, 12), st.integers(2, 3))
def test_antisymmetry_property(seed, S, T, M):
    t = random_table(S, T, M, seed=seed, decimals=1, nan_share=0.1)
    m = uir_matrix(t, [f"m{k}" for k in range(M)])
    u = m.uir
    finite = ~np.isnan(u)
    assert np.array_equal(finite, finite.T)
    assert np.all(u[finite] == -u.T[finite])
    assert np.all(np.abs(u[finite]) <= 1)
    assert np.all(np.diag(u)[~np.isnan(np.diag(u))] == 0)
    assert np.all(m.n_better + m.n_better.T + m.n_tied + m.n_biased == m.n_topics)


# --- reference systems -----------------------------------------------------------------------


def _matrix(names, values):
    u = np.asarray(values, dtype=float)
    z = np.zeros_like(u, dtype=np.int64)
    return UIRMatrix(tuple(names), ("p", "r"), u, z, z, z + 10)


def test_reference_systems_hand_worked():
    # UIR(row, column)
    u = [[0.00, 0.30, 0.25, 0.10],
         [-0.30, 0.00, 0.40, 0.40],
         [-0.25, -0.40, 0.00, 0.24],
         [-0.10, -0.40, -0.24, 0.00]]
    ref = reference_systems(_matrix("ABCD", u)).set_index("system")
    assert pd.isna(ref.loc["A", "reference_system"])  # nobody improves A
    assert ref.loc["B", "reference_system"] == "A" and ref.loc["B", "reference_uir"] == 0.30
    # C: UIR(A, C) = .25 and UIR(B, C) = .40 -> B
    assert ref.loc["C", "reference_system"] == "B" and ref.loc["C", "reference_uir"] == 0.40
    # D: UIR(B, D) = .40 (max); UIR(C, D) = .24 is below the threshold
    assert ref.loc["D", "reference_system"] == "B"
    assert ref.loc["A", "improved_systems"] == ["B", "C"]  # .30 and .25 (>= threshold)
    assert ref.loc["C", "improved_systems"] == []  # .24 < .25
    strict = reference_systems(_matrix("ABCD", u), threshold=0.41).set_index("system")
    assert strict["reference_system"].isna().all()


def test_reference_tie_goes_to_first_system():
    u = [[0.0, 0.0, 0.5], [0.0, 0.0, 0.5], [-0.5, -0.5, 0.0]]
    ref = reference_systems(_matrix("XYZ", u)).set_index("system")
    assert ref.loc["Z", "reference_system"] == "X"


@settings(max_examples=30, deadline=None)
@given(st.integers(0, 10_000), st.floats(0.0, 1.0))
def test_reference_never_below_threshold(seed, threshold):
    t = random_table(S=8, T=10, M=2, seed=seed, decimals=1, nan_share=0.0)
    m = uir_matrix(t, ["m0", "m1"])
    ref = reference_systems(m, threshold)
    for row in ref.itertuples(index=False):
        a = m.index(row.system)
        col = np.delete(m.uir[:, a], a)
        if row.reference_system is None or (isinstance(row.reference_system, float)):
            assert np.all(col < threshold)
        else:
            s = m.index(row.reference_system)
            assert m.uir[s, a] >= threshold and m.uir[s, a] == col.max()
        for s in row.improved_systems:
            assert m.uir[a, m.index(s)] >= threshold


# --- parametric UIR --------------------------------------------------------------------------


def _mc(D, n=2_000_000, seed=1):
    rng = np.random.default_rng(seed)
    Z = rng.multivariate_normal(D.mean(axis=0), np.cov(D, rowvar=False), size=n)
    return float(np.mean(np.all(Z >= 0, axis=1)) - np.mean(np.all(Z <= 0, axis=1)))


@pytest.mark.parametrize("M,rho", [(2, 0.6), (2, -0.4), (3, 0.3), (3, 0.8)])
def test_parametric_against_monte_carlo(M, rho):
    rng = np.random.default_rng(M * 10 + int(rho * 10))
    cov = 0.01 * ((1 - rho) * np.eye(M) + rho)
    D = rng.multivariate_normal(np.linspace(0.02, 0.06, M), cov, size=61)
    got = parametric_from_deltas(D)
    # MC standard error <= 1/sqrt(2e6) ~ 7e-4
    assert got == pytest.approx(_mc(D), abs=3e-3)


def test_parametric_two_metrics_closed_form_and_scipy_orthants():
    rng = np.random.default_rng(5)
    D = rng.multivariate_normal([0.03, -0.01], [[0.01, 0.006], [0.006, 0.02]], size=40)
    mu, C = D.mean(axis=0), np.cov(D, rowvar=False)
    sd = np.sqrt(np.diag(C))
    closed = stats.norm.cdf(mu[0] / sd[0]) + stats.norm.cdf(mu[1] / sd[1]) - 1
    mvn = stats.multivariate_normal(mean=mu, cov=C)
    orth = (mvn.cdf([np.inf, np.inf], lower_limit=[0, 0]) - mvn.cdf([0, 0]))
    assert parametric_from_deltas(D) == pytest.approx(closed, abs=1e-12)
    assert parametric_from_deltas(D) == pytest.approx(orth, abs=1e-4)


def test_parametric_singular_cases():
    # constant difference on one metric (zero variance) with positive mean: P(all <= 0) = 0,
    # so UIR_param = P(D_2 >= 0) = Phi(mu_2 / sd_2)
    d2 = np.array([0.1, -0.05, 0.2, 0.05])
    D = np.column_stack([np.full(4, 0.1), d2])
    assert parametric_from_deltas(D) == pytest.approx(stats.norm.cdf(d2.mean() / d2.std(ddof=1)))
    # constant zero difference: a tie on that metric, drops out: 2 Phi(h) - 1
    D0 = np.column_stack([np.zeros(4), d2])
    assert parametric_from_deltas(D0) == pytest.approx(2 * stats.norm.cdf(d2.mean() / d2.std(ddof=1)) - 1)
    # everything constant: sign of the means
    assert parametric_from_deltas(np.array([[0.1, 0.2], [0.1, 0.2]])) == 1.0
    assert parametric_from_deltas(np.array([[0.1, -0.2], [0.1, -0.2]])) == 0.0
    assert parametric_from_deltas(np.array([[-0.1, 0.0]] * 3)) == -1.0
    assert parametric_from_deltas(np.zeros((5, 2))) == 0.0
    assert parametric_from_deltas(np.array([[0.3, 0.1]])) == 1.0  # one topic
    assert math.isnan(parametric_from_deltas(np.zeros((0, 2))))
    # perfectly correlated differences (rank-1 covariance), 3 metrics: against Monte Carlo
    rng = np.random.default_rng(2)
    z = rng.normal(0.02, 0.05, size=50)
    D3 = np.column_stack([z, 2 * z + 0.01, rng.normal(0.03, 0.05, size=50)])
    got = parametric_from_deltas(D3)
    assert got == pytest.approx(_mc(D3), abs=3e-3)


def test_parametric_table_and_matrix():
    t = random_table(S=6, T=20, M=2, seed=3, decimals=2, nan_share=0.02)
    mat = parametric_uir_matrix(t, ["m0", "m1"])
    for a in mat.index:
        for b in mat.columns:
            assert mat.loc[a, b] == pytest.approx(parametric_uir(t, a, b, ["m0", "m1"]), abs=1e-12)
    assert np.allclose(mat.to_numpy(), -mat.to_numpy().T)
    assert parametric_uir(JAIR, "a", "a", ["precision", "recall"]) == 0.0


def test_parametric_all_pairs_same_whatever_the_layout_and_block(monkeypatch):
    # the cube as the caller laid it out (C order, metric last, or Fortran order) and blocks of
    # any size give the same values as each pair on its own
    rng = np.random.default_rng(11)
    X = rng.random((9, 15, 2))
    X[2, 4, 1] = np.nan
    X[5] = X[6]  # a pair of equal systems: constant differences
    want = np.array([[parametric.parametric_from_deltas(X[a] - X[b], 1e-9, 0)
                      for b in range(9)] for a in range(9)])
    for cube in (X, np.asfortranarray(X)):
        got = parametric.parametric_all_pairs(cube, 1e-9, 0).value
        assert np.allclose(got, want, atol=1e-12, equal_nan=True)
    monkeypatch.setattr(parametric, "_BLOCK_CELLS", 45)  # 1 row of pairs a block
    got = parametric.parametric_all_pairs(X, 1e-9, 0).value
    assert np.allclose(got, want, atol=1e-12, equal_nan=True)


# --- score tables (metrics.model.score_table)
# -----------------------------------------------------------


def test_validate_score_table_errors():

    with pytest.raises(ValueError, match="missing column"):
        validate_score_table(JAIR.drop(columns="value"))
    bad = JAIR.astype({"value": object})
    bad.loc[3, "value"] = "high"
    with pytest.raises(ValueError, match="non-numeric value 'high' in row 3"):
        validate_score_table(bad)
    with pytest.raises(ValueError, match="duplicate"):
        validate_score_table(pd.concat([JAIR, JAIR.iloc[[5]]]))
    ok = validate_score_table(JAIR.assign(extra=1))
    assert list(ok.columns) == ["system", "topic", "metric", "value"]


def test_score_cube_and_means():

    t = JAIR[~((JAIR.system == "b") & (JAIR.topic == "t9") & (JAIR.metric == "recall"))]
    cube = score_cube(t, ["recall", "precision"], systems=["b", "a"])
    assert cube.systems == ("b", "a") and cube.metrics == ("recall", "precision")
    assert cube.values.shape == (2, 10, 2)
    assert cube.values[1, 2, 1] == 0.6 and math.isnan(cube.values[0, 9, 0])
    means = campaign_means(t)
    assert means.loc["a", "precision"] == pytest.approx(0.56)
    assert means.loc["b", "recall"] == pytest.approx(np.mean([0.4, 0.6, 0.6, 0.4, 0.5, 0.5, 0.3, 0.5, 0.4]))
    with pytest.raises(ValueError, match="not in the score table"):
        score_cube(t, ["precision"], systems=["zz"])
