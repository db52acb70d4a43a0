"""The vectorised comparison engine equals the per-pair routes it replaces, bit for bit.

* :func:`metrics.comparison.combine.all_pairs_alpha` (every pair's beats-for-all-alpha and crossings
at
  once, vectorised Brent) against :func:`beats_matrix` + :func:`pair_crossings` /
  :func:`micro_crossing` pair by pair, on random tables and on near-tangent, hidden-crossing,
  tied and undefined curves;
* the Wilcoxon kernel (one ranking, scipy's normal approximation) against
  :func:`scipy.stats.wilcoxon` row by row;
* ``compare`` against ``comparison_at(comparison_core(...))`` at several alphas
  and thresholds from one core, the vectorised threshold curve and cross-test-bed counts against
  straightforward loops.
"""

from __future__ import annotations

import warnings

import numpy as np
import pandas as pd
import pytest
from alpha_reference import beats_matrix, micro_crossing, pair_crossings
from pandas.testing import assert_frame_equal
from scipy import stats
from scipy.optimize import brentq, minimize_scalar

from metrics.analyses import THRESHOLDS, compare, comparison_at, comparison_core, threshold_curve
from metrics.comparison.alpha import _grid_bounds, _PairDiff, _roots_vec, all_pairs_alpha
from metrics.comparison.combine import f_alpha
from metrics.comparison.curves import Curves, curves_from_arrays
from metrics.comparison.paired import _wilcoxon_rows
from metrics.reports.comparison_report import CampaignComparison

# --- helpers ---------------------------------------------------------------------------------


def _per_pair(curves: Curves, average: str):
    """The per-pair route compare() used before vectorisation."""
    bounds = _grid_bounds(curves)
    beats = beats_matrix(curves, bounds=bounds)
    S = curves.U.shape[0]
    cross = {}
    for i in range(S):
        for j in range(i + 1, S):
            if beats[i, j] or beats[j, i]:
                cross[i, j] = []
            elif average == "micro":
                sub = Curves(curves.U[[i, j]], curves.V[[i, j]], curves.W[[i, j]], curves.defined[[i, j]])
                cross[i, j] = micro_crossing(sub)
            else:
                cross[i, j] = pair_crossings(curves, i, j, bounds)
    return beats, cross


def _assert_same_route(P: np.ndarray, R: np.ndarray, average: str, cells: int = 2_000_000) -> int:
    curves = curves_from_arrays(P, R, average)
    beats, cross = _per_pair(curves, average)
    got = all_pairs_alpha(curves, average, cells=cells)
    np.testing.assert_array_equal(got.beats, beats)
    n = 0
    for k, (i, j) in enumerate(zip(got.iu.tolist(), got.ju.tolist())):
        # the same crossings, at the same place within the root tolerance (xtol 1e-13) -- or,
        # where the two curves differ by rounding noise only (copies perturbed by 1e-9), at a
        # point where the difference is zero to working precision
        assert len(got.crossings[k]) == len(cross[i, j]), (i, j)
        diff = _PairDiff(curves, i, j)
        for mine, ref in zip(got.crossings[k], cross[i, j]):
            assert abs(mine - ref) <= 5e-13 or abs(diff(mine)) <= 1e-14, (i, j, mine, ref)
        n += len(cross[i, j])
    return n


def _random_pr(S: int, T: int, seed: int, decimals: int | None = 3):
    rng = np.random.default_rng(seed)
    skill = rng.uniform(0.2, 0.8, (S, 1))
    bias = rng.uniform(-0.3, 0.3, (S, 1))
    P = np.clip(skill + bias + rng.normal(0, 0.15, (S, T)), 0, 1)
    R = np.clip(skill - bias + rng.normal(0, 0.15, (S, T)), 0, 1)
    if decimals is not None:
        P, R = np.round(P, decimals), np.round(R, decimals)
    return P, R


def _table(P: np.ndarray, R: np.ndarray) -> pd.DataFrame:
    S, T = P.shape
    sys_ = np.repeat([f"s{i:03d}" for i in range(S)], T)
    top = np.tile([f"t{j:03d}" for j in range(T)], S)
    return pd.concat([pd.DataFrame({"system": sys_, "topic": top, "metric": m, "value": v.ravel()})
                      for m, v in (("precision", P), ("recall", R))], ignore_index=True).dropna()


# --- crossings and beats-for-all-alpha ---------------------------------------------------------


@pytest.mark.parametrize("average", ["macro", "micro"])
@pytest.mark.parametrize("seed", [0, 1, 2])
def test_all_pairs_equal_per_pair_on_random_tables(average, seed):
    P, R = _random_pr(40, 25, seed, decimals=None if seed == 2 else 2)
    # small chunks: the chunking must not change anything
    n = _assert_same_route(P, R, average, cells=3_000)
    assert n > 0


def _dip_pr(offset: float):
    """B's curve has its minimum between grid points; A is the constant min B + offset."""
    def curve(a):
        return (f_alpha(1.0, 0.25, a) + f_alpha(0.3, 1.0, a)) / 2

    res = minimize_scalar(curve, bounds=(0, 1), method="bounded", options={"xatol": 1e-12})
    c = float(res.fun) + offset
    return [(c, c), (c, c)], [(1.0, 0.25), (0.3, 1.0)]


@pytest.mark.parametrize("average", ["macro", "micro"])
def test_all_pairs_equal_per_pair_near_tangent_and_degenerate(average):
    rows = []
    # near-tangent dips: a hidden pair of crossings (+), a narrow certified margin (-), and
    # margins at the rounding level
    for off in (1e-6, -1e-6, 1e-12, -1e-12, 1e-15, 0.0):
        a, b = _dip_pr(off)
        rows += [a, b]
    # identical systems, a system equal on some topics, an all-zero system, a crossing exactly
    # through a grid point region, and a system with a missing topic
    rows += [[(0.6, 0.4), (0.7, 0.2)], [(0.6, 0.4), (0.7, 0.2)], [(0.6, 0.4), (0.2, 0.7)],
             [(0.0, 0.5), (0.5, 0.0)], [(0.5, 0.5), (0.5, 0.5)], [(1.0, 0.25), (0.25, 1.0)],
             [(0.8, 0.4), (np.nan, np.nan)], [(np.nan, np.nan), (np.nan, np.nan)]]
    P = np.array([[p for p, _ in r] for r in rows])
    R = np.array([[q for _, q in r] for r in rows])
    n = _assert_same_route(P, R, average)
    if average == "macro":
        # the +1e-6 dip really holds two crossings found between grid points
        cr = all_pairs_alpha(curves_from_arrays(P, R, average), average)
        k = 0  # pair (0, 1)
        assert len(cr.crossings[k]) == 2 and 0.5 < cr.crossings[k][0] < cr.crossings[k][1] < 0.51
    assert n > 0


def test_all_pairs_equal_per_pair_with_perturbed_copies():
    # pairs that are copies up to tiny perturbations: grid differences of either sign near 0
    rng = np.random.default_rng(5)
    P0, R0 = _random_pr(6, 12, 5, decimals=None)
    P = np.concatenate([P0] + [np.clip(P0 + rng.normal(0, s, P0.shape), 0, 1) for s in (1e-9, 1e-6, 1e-3)])
    R = np.concatenate([R0] + [np.clip(R0 + rng.normal(0, s, R0.shape), 0, 1) for s in (1e-9, 1e-6, 1e-3)])
    for average in ("macro", "micro"):
        _assert_same_route(P, R, average)


def test_roots_vec_matches_scipy_brentq():

    rng = np.random.default_rng(3)
    c = rng.uniform(-0.9, 0.9, 200)
    k = rng.uniform(0.5, 20, 200)

    def f_vec(x, idx):
        return np.tanh(k[idx] * (x - c[idx])) + 0.1 * (x - c[idx]) ** 3

    got = _roots_vec(f_vec, np.full(200, -1.0), np.full(200, 1.0))
    for i in range(200):
        want = brentq(lambda x: np.tanh(k[i] * (x - c[i])) + 0.1 * (x - c[i]) ** 3, -1.0, 1.0,  # noqa: B023 - called in this iteration
                      xtol=1e-13, rtol=4 * np.finfo(float).eps)
        assert abs(got[i] - want) <= 3e-13, (i, got[i], want)


def test_roots_vec_edge_cases():
    # roots at a bracket end, a root at a point where the chord lands exactly, steep and flat
    # functions, and a bracket without a sign change
    def lin(x, idx):
        return x - np.array([0.0, 1.0, 0.25, 0.3])[idx]

    np.testing.assert_allclose(_roots_vec(lin, np.zeros(4), np.ones(4)), [0.0, 1.0, 0.25, 0.3],
                               atol=1e-13)

    def steep(x, idx):
        return np.where(x < 0.4, -1.0, 1.0) * np.abs(x - 0.4) ** 0.01

    assert abs(_roots_vec(steep, np.zeros(1), np.ones(1))[0] - 0.4) < 1e-12
    with pytest.raises(ValueError):
        _roots_vec(lambda x, idx: x + 1.0, np.zeros(1), np.ones(1))


# --- Wilcoxon ------------------------------------------------------------------------------------


@pytest.mark.parametrize("n", [14, 30, 50, 51, 60])
def test_wilcoxon_rows_equal_scipy_per_row(n):
    rng = np.random.default_rng(n)
    d = np.round(rng.normal(size=(60, n)), 1)  # ties
    d[:4] = 0.0
    d[4:10, : n // 2] = 0.0  # zeros
    d[10:20] = rng.normal(size=(10, n))  # no ties, no zeros (exact for n <= 50)
    stat, p, balance = _wilcoxon_rows(d)
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", RuntimeWarning)
        for i in range(d.shape[0]):
            res = stats.wilcoxon(d[i])
            assert np.array_equal([stat[i], p[i]], [float(res.statistic), float(res.pvalue)],
                                  equal_nan=True), i
            nz = d[i][d[i] != 0]
            r = stats.rankdata(np.abs(nz))
            assert balance[i] == r[nz > 0].sum() - r[nz < 0].sum()


# --- compare = core + alpha step ---------------------------------------------------------------


def _reference_threshold_curve(pairs: pd.DataFrame) -> pd.DataFrame:
    """The loop the vectorised threshold curve replaced."""
    u = pairs["uir"].to_numpy(dtype=np.float64)
    total = int(u.size)  # every ordered pair, undefined UIR included (docs/measures.md §6)
    cls = pairs["pair_class"].to_numpy(dtype=object)
    has_cls = np.array([c is not None and c == c and c != "" for c in cls])
    beats = pairs["beats_all_alpha"].to_numpy(dtype=bool)
    with np.errstate(invalid="ignore"):
        contra = (u > 0) & (pairs["delta_f"].to_numpy(dtype=np.float64) < 0)
    rows = []
    for t in THRESHOLDS:
        with np.errstate(invalid="ignore"):
            sel = u >= t
        n = int(sel.sum())
        row = {"threshold": float(t), "n_pairs": n, "pairs": n / total if total else float("nan")}
        for c in ("concordant", "opposite", "none", "worsening"):
            row[c] = float(np.mean(cls[sel] == c)) if n and has_cls[sel].all() else float("nan")
        row["beats_all_alpha"] = float(beats[sel].mean()) if n else float("nan")
        row["f_contradicts"] = float(contra[sel].mean()) if n else float("nan")
        rows.append(row)
    return pd.DataFrame(rows)


def _assert_same_comparison(a: CampaignComparison, b: CampaignComparison) -> None:
    assert a.parameters == b.parameters
    assert_frame_equal(a.pairs, b.pairs, check_exact=True)
    assert_frame_equal(a.systems, b.systems, check_exact=True)
    assert_frame_equal(a.threshold_curve, b.threshold_curve, check_exact=True)
    for name in ("delta_f_vs_uir", "weakest_metric"):
        assert_frame_equal(getattr(a, name)["points"], getattr(b, name)["points"], check_exact=True)
    if a.cross_testbed is None:
        assert b.cross_testbed is None
    else:
        assert_frame_equal(a.cross_testbed, b.cross_testbed, check_exact=True)
    assert a.to_dict() == b.to_dict() or str(a.to_dict()) == str(b.to_dict())


@pytest.mark.parametrize("average", ["macro", "micro"])
def test_compare_equals_core_plus_alpha_step(average):
    P, R = _random_pr(15, 24, 11)
    P[3, 5] = np.nan  # a missing score
    table = _table(P, R)
    beds = {f"t{j:03d}": f"bed{j % 3}" for j in range(24)}
    core = comparison_core(table, "precision", "recall", average=average, testbeds=beds)
    before = core.pairs.copy()
    for alpha, thr in ((0.5, 0.25), (0.0, 0.1), (1.0, 0.5), (0.37, 0.0)):
        want = compare(table, "precision", "recall", alpha=alpha, threshold=thr, average=average,
                       testbeds=beds)
        got = comparison_at(core, alpha, thr)
        _assert_same_comparison(want, got)
        assert_frame_equal(got.threshold_curve, _reference_threshold_curve(got.pairs), check_exact=True)
    assert_frame_equal(core.pairs, before)  # the core is left untouched


def test_cross_testbed_counts_equal_a_loop():
    P, R = _random_pr(12, 30, 4)
    table = _table(P, R)
    beds = {f"t{j:03d}": f"bed{j % 3}" for j in range(30)}
    comp = compare(table, "precision", "recall", alpha=0.4, testbeds=beds, test="none")
    ct = comp.cross_testbed
    # the truth and the Delta F predictor, recomputed with plain loops
    f = {b: np.array([np.mean([f_alpha(P[s, j], R[s, j], 0.4) for j in range(30) if j % 3 == k])
                      for s in range(12)]) for k, b in enumerate(("bed0", "bed1", "bed2"))}
    truth = {(a, b) for a in range(12) for b in range(12)
             if a != b and all(f[k][a] > f[k][b] for k in f)}
    for bed in ("bed0", "bed2"):
        sub = ct[(ct["predictor"] == "delta_f") & (ct["reference_bed"] == bed)]
        for t in (0.0, 0.02, 0.1):
            row = sub[np.isclose(sub["threshold"], t)].iloc[0]
            fb = f[bed]
            sel = {(a, b) for a in range(12) for b in range(12) if a != b and fb[a] - fb[b] >= t}
            assert row["n_true"] == len(truth)
            # per-bed F of the engine may differ from this loop in the last bit; allow that
            # only through thresholds far from any difference
            if not np.any(np.isclose(np.subtract.outer(fb, fb), t, atol=1e-12, rtol=0)):
                assert row["n_predicted"] == len(sel)
                assert row["n_correct"] == len(sel & truth)


def test_threshold_curve_vectorised_equals_loop_with_missing_classes():
    rng = np.random.default_rng(2)
    n = 500
    u = np.round(rng.uniform(-1, 1, n), 2)
    u[:7] = np.nan
    cls = rng.choice(np.array(["concordant", "opposite", "none", "worsening"], dtype=object), n)
    cls[rng.choice(n, 5, replace=False)] = None
    pairs = pd.DataFrame({"uir": u, "pair_class": cls, "beats_all_alpha": rng.random(n) < 0.3,
                          "delta_f": rng.normal(size=n)})
    assert_frame_equal(threshold_curve(pairs), _reference_threshold_curve(pairs), check_exact=True)
    pairs["pair_class"] = None
    assert_frame_equal(threshold_curve(pairs), _reference_threshold_curve(pairs), check_exact=True)
