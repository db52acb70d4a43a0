"""F_alpha, campaign scores, F_alpha curves, crossings and "beats for every alpha" (docs/measures.md
§4)."""

from __future__ import annotations

import math
from pathlib import Path

import numpy as np
import pandas as pd
import pytest
from alpha_reference import pair_crossings
from scipy.optimize import minimize_scalar

from metrics.analyses import compare
from metrics.comparison.alpha import _grid_bounds
from metrics.comparison.combine import (
    beats_all_alpha,
    campaign_f,
    crossings,
    f_alpha,
    f_curves,
)
from metrics.comparison.curves import curves_from_arrays

DATA = Path(__file__).resolve().parent / "data"


def pr_table(systems: dict[str, list[tuple[float, float]]], p="P", r="R") -> pd.DataFrame:
    """Score table from {system: [(precision, recall) per topic]}."""
    rows = []
    for s, pairs in systems.items():
        for t, (pv, rv) in enumerate(pairs):
            rows.append((s, f"t{t}", p, pv))
            rows.append((s, f"t{t}", r, rv))
    return pd.DataFrame(rows, columns=["system", "topic", "metric", "value"])


# --- f_alpha ---------------------------------------------------------------------------------


def test_f_alpha_hand_values():
    assert f_alpha(0.5, 0.25) == pytest.approx(1 / 3)  # 2 * .5 * .25 / .75
    assert f_alpha(0.5, 0.25, alpha=1.0) == pytest.approx(0.5)  # precision alone
    assert f_alpha(0.5, 0.25, alpha=0.0) == pytest.approx(0.25)  # recall alone
    assert f_alpha(0.8, 0.4, alpha=0.2) == pytest.approx(1 / (0.2 / 0.8 + 0.8 / 0.4))
    assert isinstance(f_alpha(0.5, 0.5), float)


def test_f_alpha_zero_and_nan():
    assert f_alpha(0.0, 0.7) == 0.0
    assert f_alpha(0.7, 0.0) == 0.0
    assert f_alpha(0.7, 0.0, alpha=1.0) == 0.0  # docs/measures.md §4: 0 when P or R is 0 (continuous in alpha)
    assert math.isnan(f_alpha(float("nan"), 0.5))
    out = f_alpha(np.array([0.5, 0.0, 1.0]), np.array([0.5, 0.3, 1.0]), alpha=np.array([[0.0], [1.0]]))
    assert out.shape == (2, 3)
    np.testing.assert_allclose(out, [[0.5, 0.0, 1.0], [0.5, 0.0, 1.0]])


def test_f_alpha_rejects_bad_alpha():
    with pytest.raises(ValueError, match="alpha"):
        f_alpha(0.5, 0.5, alpha=1.5)
    with pytest.raises(ValueError):
        f_alpha(-0.1, 0.5)


# --- campaign scores -------------------------------------------------------------------------


def test_macro_and_micro_hand_worked():
    # topic 1: F = 2*1*.5/1.5 = 2/3 ; topic 2: F = .5 -> macro 7/12; micro F(.75, .5) = .6
    table = pr_table({"A": [(1.0, 0.5), (0.5, 0.5)], "B": [(0.5, 0.5), (0.5, 0.5)]})
    macro = campaign_f(table, "P", "R")
    micro = campaign_f(table, "P", "R", average="micro")
    assert macro["A"] == pytest.approx(7 / 12)
    assert micro["A"] == pytest.approx(0.6)
    assert macro["B"] == pytest.approx(0.5) and micro["B"] == pytest.approx(0.5)
    assert list(macro.index) == ["A", "B"]
    with pytest.raises(ValueError, match="average"):
        campaign_f(table, "P", "R", average="weighted")


def test_missing_topic_left_out_of_that_system_mean():
    table = pr_table({"A": [(1.0, 0.5), (0.5, 0.5)], "B": [(0.5, 0.5), (0.5, 0.5)]})
    table = table[~((table.system == "A") & (table.topic == "t1") & (table.metric == "R"))]
    assert campaign_f(table, "P", "R")["A"] == pytest.approx(2 / 3)


def test_f_curves_grid_and_endpoints():
    table = pr_table({"A": [(0.9, 0.3), (0.6, 0.6)], "B": [(0.4, 0.8), (0.5, 0.7)]})
    curves = f_curves(table, "P", "R")
    assert curves.shape == (101, 2)
    assert curves.index[0] == 0.0 and curves.index[-1] == 1.0
    assert curves.loc[0.0, "A"] == pytest.approx((0.3 + 0.6) / 2)  # alpha 0: recall
    assert curves.loc[1.0, "B"] == pytest.approx((0.4 + 0.5) / 2)  # alpha 1: precision
    assert curves.loc[0.5, "A"] == pytest.approx(campaign_f(table, "P", "R")["A"])


def test_official_replab_f_is_the_macro_mean():
    """The official RepLab 2013 'average' F equals our macro F_0.5 on the per-entity scores."""
    table = pd.read_csv(DATA / "replab2013_official_rs.csv.gz")
    f = campaign_f(table, "reliability", "sensitivity")
    # numbers from official_scores/NAME.tsv, row 'average', column 'F measure'
    assert f["best_replab"] == pytest.approx(0.367133841495212, abs=1e-12)
    assert f["SVM_allfeatures_HAC_30%"] == pytest.approx(0.311603978931004, abs=1e-12)
    assert f["SVM_allfeatures_HAC_100%"] == pytest.approx(0.124175371695457, abs=1e-12)


# --- crossings -------------------------------------------------------------------------------


def test_micro_crossing_closed_form():
    # 1/F_a - 1/F_b = (1/.4 - 1/.6) + alpha((1/.8 - 1/.4) - (1/.5 - 1/.6)) = 5/6 - 19/12 alpha
    table = pr_table({"a": [(0.8, 0.4)], "b": [(0.5, 0.6)]})
    (x,) = crossings(table, "a", "b", "P", "R", average="micro")
    assert x == pytest.approx(10 / 19, abs=1e-15)
    assert f_alpha(0.8, 0.4, x) == pytest.approx(f_alpha(0.5, 0.6, x), abs=1e-14)
    # one topic: macro is micro, found by brentq
    (y,) = crossings(table, "a", "b", "P", "R")
    assert y == pytest.approx(10 / 19, abs=1e-12)


def test_macro_two_crossings_hand_worked():
    # B = mean of F(1, .25) = 1/(4-3a) and F(.25, 1) = 1/(1+3a); A = 0.5 for every alpha.
    # B = A  <=>  9a^2 - 9a + 1 = 0  <=>  a = 1/2 -+ sqrt(5)/6
    table = pr_table({"A": [(0.5, 0.5), (0.5, 0.5)], "B": [(1.0, 0.25), (0.25, 1.0)]})
    got = crossings(table, "A", "B", "P", "R")
    assert got == pytest.approx([0.5 - math.sqrt(5) / 6, 0.5 + math.sqrt(5) / 6], abs=1e-12)
    assert not beats_all_alpha(table, "B", "A", "P", "R")
    assert not beats_all_alpha(table, "A", "B", "P", "R")
    # on a grid {0, 1} only, both crossings are hidden between grid points and still found
    P = np.array([[0.5, 0.5], [1.0, 0.25]])
    R = np.array([[0.5, 0.5], [0.25, 1.0]])
    curves = curves_from_arrays(P, R, "macro")
    coarse = _grid_bounds(curves, np.array([0.0, 1.0]))
    assert pair_crossings(curves, 0, 1, coarse) == pytest.approx(got, abs=1e-12)


def test_no_crossing_for_identical_or_dominating_systems():
    table = pr_table({"A": [(0.6, 0.4), (0.7, 0.2)], "B": [(0.6, 0.4), (0.7, 0.2)],
                      "C": [(0.7, 0.5), (0.8, 0.3)]})
    assert crossings(table, "A", "B", "P", "R") == []
    assert crossings(table, "A", "C", "P", "R") == []
    assert crossings(table, "A", "A", "P", "R") == []
    assert beats_all_alpha(table, "C", "A", "P", "R")
    assert not beats_all_alpha(table, "A", "B", "P", "R")  # equal curves: not strictly better
    assert not beats_all_alpha(table, "A", "A", "P", "R")


# --- beats for every alpha: exactness --------------------------------------------------------


def _dip_table(offset: float) -> tuple[pd.DataFrame, float]:
    """B = mean of F(1, .25) and F(.3, 1) has its minimum between grid points (near 0.5077);
    A has F = c for every alpha with c = min B + offset."""
    def curve(a):
        return (f_alpha(1.0, 0.25, a) + f_alpha(0.3, 1.0, a)) / 2

    res = minimize_scalar(curve, bounds=(0, 1), method="bounded", options={"xatol": 1e-12})
    c = float(res.fun) + offset
    table = pr_table({"A": [(c, c), (c, c)], "B": [(1.0, 0.25), (0.3, 1.0)]})
    return table, float(res.x)


def test_beats_all_alpha_sees_a_dip_between_grid_points():
    table, where = _dip_table(+1e-6)
    grid = f_curves(table, "P", "R")
    assert (grid["B"] > grid["A"]).all()  # every grid point says "B beats A" ...
    assert not beats_all_alpha(table, "B", "A", "P", "R")  # ... but not between 0.50 and 0.51
    cr = crossings(table, "A", "B", "P", "R")
    assert len(cr) == 2 and 0.5 < cr[0] < where < cr[1] < 0.51


def test_beats_all_alpha_certifies_a_narrow_margin():
    table, _ = _dip_table(-1e-6)
    assert beats_all_alpha(table, "B", "A", "P", "R")
    assert crossings(table, "A", "B", "P", "R") == []


def test_beats_all_alpha_micro_is_both_means_higher():
    table = pr_table({"a": [(0.9, 0.1), (0.5, 0.9)], "b": [(0.6, 0.4), (0.7, 0.5)]})
    # means: a (.7, .5), b (.65, .45): a higher on both -> beats for all alpha (micro)
    assert beats_all_alpha(table, "a", "b", "P", "R", average="micro")
    assert not beats_all_alpha(table, "b", "a", "P", "R", average="micro")


def test_beats_and_crossings_agree_with_a_dense_grid():
    rng = np.random.default_rng(7)
    S, T = 14, 9
    P = rng.uniform(0.05, 1, (S, T))
    R = rng.uniform(0.05, 1, (S, T))
    rows = [(f"s{s}", f"t{t}", m, v[s, t]) for s in range(S) for t in range(T) for m, v in (("P", P), ("R", R))]
    table = pd.DataFrame(rows, columns=["system", "topic", "metric", "value"])
    dense = np.linspace(0, 1, 20001)
    vals = np.stack([f_alpha(P, R, a).mean(axis=1) for a in dense], axis=1)
    for i in range(S):
        for j in range(S):
            if i == j:
                continue
            d = vals[i] - vals[j]
            assert beats_all_alpha(table, f"s{i}", f"s{j}", "P", "R") == bool(np.all(d > 0))
            if i < j:
                changes = int(np.sum(np.sign(d[1:]) != np.sign(d[:-1])))
                cr = crossings(table, f"s{i}", f"s{j}", "P", "R")
                assert len(cr) == changes
                for x in cr:
                    assert abs(f_alpha(P[i], R[i], x).mean() - f_alpha(P[j], R[j], x).mean()) < 1e-12


def test_micro_equal_precision_meets_at_alpha_one_without_crossing():
    # same mean precision: F_1 is equal, which is a tie at the end point, not a crossing
    rng = np.random.default_rng(0)
    for r_a, r_b in rng.uniform(0.05, 1, size=(200, 2)):
        tab = pd.DataFrame([("a", "t", "P", 0.2), ("a", "t", "R", r_a),
                            ("b", "t", "P", 0.2), ("b", "t", "R", r_b)],
                           columns=["system", "topic", "metric", "value"])
        assert crossings(tab, "a", "b", "P", "R", average="micro") == []
    tab = pd.DataFrame([("a", "t", "P", 0.2), ("a", "t", "R", 0.8636400902455758),
                        ("b", "t", "P", 0.2), ("b", "t", "R", 0.9811950400663443)],
                       columns=["system", "topic", "metric", "value"])

    assert compare(tab, "P", "R", test="none", average="micro").pairs["crossings"].map(len).sum() == 0


def test_equal_mean_precision_is_a_tie_at_alpha_one_not_a_win():
    """Two systems with the same per-topic precisions in another order (the same mean precision):
    F_1 is the mean precision, equal for both, so neither beats the other for every alpha
    (strict, endpoints included), although the macro curves' sums round differently at
    alpha = 1 (TREC DL 2019, P@10 / R@10: 1.1e-16)."""
    rng = np.random.default_rng(3)
    noisy = 0
    for _ in range(200):
        n = int(rng.integers(20, 60))
        p = np.round(rng.uniform(0.05, 1, n), 1)
        r_b = rng.uniform(0.05, 0.8, n)
        P = np.stack([p, rng.permutation(p)])
        R = np.stack([r_b + 0.1, r_b])
        curves = curves_from_arrays(P, R, "macro")
        end = curves.values(np.array([1.0]))[:, 0]
        noisy += bool(end[0] != end[1])
        rows = [(s, f"t{t}", m, v[i, t]) for i, s in enumerate("ab") for t in range(n)
                for m, v in (("P", P), ("R", R))]
        tab = pd.DataFrame(rows, columns=["system", "topic", "metric", "value"])
        assert not beats_all_alpha(tab, "a", "b", "P", "R")
        assert not beats_all_alpha(tab, "b", "a", "P", "R")
    assert noisy  # the sums did round differently: the case is exercised
