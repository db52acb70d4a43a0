"""Paired tests, corrections and pair classes (docs/measures.md §6)."""

from __future__ import annotations

import itertools
import warnings
from pathlib import Path

import numpy as np
import pandas as pd
import pytest
from scipy import stats

from metrics.analyses import compare
from metrics.comparison.significance import (
    bootstrap_ci,
    correct_pvalues,
    pair_classes,
    pair_tests,
    paired_test,
)

DATA = Path(__file__).resolve().parent / "data"


def _scipy_wilcoxon(x, y):
    """scipy's Wilcoxon test on the differences without their float noise (rounded to 12
    decimals: 0.57 - 0.23 and 0.86 - 0.52 are one rank), as the project ranks them."""
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        return stats.wilcoxon(np.round(np.asarray(x) - np.asarray(y), 12))


@pytest.mark.parametrize("n", [4, 9, 13, 14, 25, 50, 51, 61])
def test_wilcoxon_equals_scipy_per_pair(n):
    rng = np.random.default_rng(n)
    rows = 5 if n <= 13 else 30  # n <= 13 with ties: scipy enumerates 2^n sign vectors per pair
    x = np.round(rng.uniform(0, 1, (rows, n)), 2)  # rounding: ties and zero differences
    y = np.round(rng.uniform(0, 1, (rows, n)), 2)
    x[0] = y[0]  # all differences zero
    x[1, :3] = y[1, :3]  # a few zeros
    x[2], y[2] = rng.uniform(0, 1, n), rng.uniform(0, 1, n)  # no ties: exact test when n <= 50
    got = paired_test(x, y, "wilcoxon")
    for i in range(rows):
        ref = _scipy_wilcoxon(x[i], y[i])
        assert got.statistic[i] == ref.statistic
        if np.isnan(ref.pvalue):
            assert np.isnan(got.pvalue[i])
        else:
            assert got.pvalue[i] == pytest.approx(ref.pvalue, rel=1e-12, abs=0)


def test_wilcoxon_drops_missing_topics():
    x = np.array([0.1, 0.5, np.nan, 0.7, 0.2, 0.9, 0.3])
    y = np.array([0.3, 0.1, 0.4, 0.2, 0.6, 0.1, 0.35])
    ok = ~np.isnan(x)
    assert paired_test(x, y).pvalue == pytest.approx(_scipy_wilcoxon(x[ok], y[ok]).pvalue)


def test_t_and_sign_tests():
    rng = np.random.default_rng(1)
    x = rng.normal(0.5, 0.1, 40)
    y = x - rng.normal(0.03, 0.05, 40)
    t = paired_test(x, y, "t")
    ref = stats.ttest_rel(x, y)
    assert t.statistic == pytest.approx(ref.statistic) and t.pvalue == pytest.approx(ref.pvalue)
    s = paired_test(x, y, "sign")
    k = int(np.sum(x > y))
    assert s.statistic == k
    assert s.pvalue == pytest.approx(stats.binomtest(k, 40).pvalue)
    # hand-worked: 8 positive, 2 negative, 1 zero: p = 2 * P(Bin(10, .5) <= 2) = 2 * 56/1024
    d = np.array([1, 1, 1, 1, 1, 1, 1, 1, -1, -1, 0], dtype=float)
    assert paired_test(d, np.zeros_like(d), "sign").pvalue == pytest.approx(112 / 1024)


def test_randomization_exact_enumeration_and_seeds():
    d = np.array([0.3, 0.1, -0.05, 0.2, 0.25, 0.15])
    # all 2^6 sign vectors: p = share with |mean| >= |observed mean|
    signs = np.array(list(itertools.product([-1, 1], repeat=6)))
    perm = np.abs(signs @ d) / 6
    expected = np.mean(perm >= abs(d.mean()) - 1e-12)
    got = paired_test(d, np.zeros(6), "randomization")
    assert got.pvalue == pytest.approx(expected)
    assert got.statistic == pytest.approx(d.mean())
    rng = np.random.default_rng(3)
    x, y = rng.uniform(size=40), rng.uniform(size=40)
    a = paired_test(x, y, "randomization", seed=11)
    b = paired_test(x, y, "randomization", seed=11)
    c = paired_test(x, y, "randomization", seed=12)
    assert a == b and a.pvalue != c.pvalue
    assert abs(a.pvalue - c.pvalue) < 0.03
    # against scipy's permutation test of the mean (different random draws)
    ref = stats.permutation_test((x - y,), np.mean, permutation_type="samples", n_resamples=20_000,
                                 rng=0).pvalue
    assert a.pvalue == pytest.approx(ref, abs=0.03)


def test_bootstrap_ci():
    rng = np.random.default_rng(4)
    x = rng.normal(0.6, 0.1, 50)
    y = x - rng.normal(0.05, 0.02, 50)
    ci = bootstrap_ci(x, y, seed=0)
    assert ci == bootstrap_ci(x, y, seed=0)
    assert ci.low < ci.estimate < ci.high
    assert ci.estimate == pytest.approx(np.mean(x - y))
    se = np.std(x - y, ddof=1) / np.sqrt(50)
    assert ci.high - ci.low == pytest.approx(2 * 1.96 * se, rel=0.15)
    flat = bootstrap_ci(np.ones(5), np.zeros(5), seed=1)
    assert flat.low == flat.high == 1.0
    with pytest.raises(ValueError):
        bootstrap_ci(x, y, confidence=1.5)


def test_corrections_hand_worked():
    p = np.array([0.01, 0.04, 0.03, 0.005])
    # Holm: sorted .005 .01 .03 .04 -> 4*.005, 3*.01, 2*.03, 1*.04 = .02 .03 .06 .04 -> running max
    np.testing.assert_allclose(correct_pvalues(p, "holm"), [0.03, 0.06, 0.06, 0.02])
    # BH: m p_(i) / i = .02 .02 .04 .04, running min from the top
    np.testing.assert_allclose(correct_pvalues(p, "bh"), [0.02, 0.04, 0.04, 0.02])
    np.testing.assert_allclose(correct_pvalues(p, "bh"), stats.false_discovery_control(p))
    np.testing.assert_allclose(correct_pvalues(p, "none"), p)
    # Bonferroni: 4 p, at most 1
    np.testing.assert_allclose(correct_pvalues(p, "bonferroni"), [0.04, 0.16, 0.12, 0.02])
    np.testing.assert_allclose(correct_pvalues([0.3, 0.01, np.nan], "bonferroni"),
                               [0.6, 0.02, np.nan])
    assert correct_pvalues([0.6, 0.9], "bonferroni").tolist() == [1.0, 1.0]
    withnan = correct_pvalues([0.01, np.nan, 0.02], "holm")
    assert np.isnan(withnan[1]) and withnan[0] == pytest.approx(0.02) and withnan[2] == pytest.approx(0.02)
    with pytest.raises(ValueError):
        correct_pvalues(p, "bonferroni-ish")


def _table(scores):
    rows = [(s, f"t{t}", m, v) for s, bm in scores.items() for m, vals in bm.items() for t, v in enumerate(vals)]
    return pd.DataFrame(rows, columns=["system", "topic", "metric", "value"])


def test_pair_tests_against_scipy_on_replab():
    table = pd.read_csv(DATA / "replab2013_official_rs.csv.gz")
    tests = pair_tests(table, ["reliability", "sensitivity"])
    assert len(tests) == 35 * 34 * 2
    wide = table.pivot_table(index=["system", "topic"], columns="metric", values="value")
    for a, b in [("best_replab", "t_twitter_LDA"), ("terms_jaccard_HAC_40%", "SVM_terms_jaccard_HAC_40%")]:
        for m in ("reliability", "sensitivity"):
            xa, xb = wide.loc[a, m], wide.loc[b, m]
            ref = _scipy_wilcoxon(xa.to_numpy(), xb.reindex(xa.index).to_numpy())
            row = tests[(tests.system_a == a) & (tests.system_b == b) & (tests.metric == m)].iloc[0]
            back = tests[(tests.system_a == b) & (tests.system_b == a) & (tests.metric == m)].iloc[0]
            assert row.pvalue == pytest.approx(ref.pvalue, rel=1e-12)
            assert back.pvalue == row.pvalue and back.statistic == row.statistic
            assert back.delta == pytest.approx(-row.delta) and back.direction == -row.direction
            assert row.delta == pytest.approx((xa - xb.reindex(xa.index)).mean())
    # Holm per metric over the 595 unordered pairs
    one = tests[tests.metric == "reliability"]
    first = one[one.system_a < one.system_b]
    np.testing.assert_allclose(first.pvalue_corrected, correct_pvalues(first.pvalue.to_numpy(), "holm"))


def test_pair_tests_directions_and_classes():
    # 12 topics; a improves p on every topic and r on most; c worsens p and improves r
    base_p = np.linspace(0.2, 0.6, 12)
    base_r = np.linspace(0.3, 0.7, 12)
    t = _table({
        "base": {"p": base_p, "r": base_r, "err": 1 - base_p},
        "a": {"p": base_p + 0.1 + 0.01 * np.arange(12), "r": base_r + 0.05 + 0.001 * np.arange(12),
              "err": 1 - base_p - 0.1 - 0.01 * np.arange(12)},
        "c": {"p": base_p - 0.1 - 0.01 * np.arange(12), "r": base_r + 0.1 + 0.01 * np.arange(12),
              "err": 1 - base_p + 0.1 + 0.01 * np.arange(12)},
        "same": {"p": base_p + np.array([0.01, -0.01] * 6), "r": base_r + np.array([-0.01, 0.01] * 6),
                 "err": 1 - base_p},
    })
    tests = pair_tests(t, ["p", "r", "err"], correction="none", directions={"err": -1})
    row = tests.set_index(["system_a", "system_b", "metric"])
    assert row.loc[("a", "base", "p"), "direction"] == 1
    assert row.loc[("a", "base", "err"), "direction"] == 1  # lower error is an improvement
    assert row.loc[("a", "base", "err"), "delta"] > 0
    cls = pair_classes(tests).set_index(["system_a", "system_b"])["pair_class"]
    assert cls[("a", "base")] == "concordant"
    assert cls[("base", "a")] == "worsening"
    assert cls[("c", "base")] == "opposite"
    assert cls[("same", "base")] == "none"


def test_pair_classes_from_a_hand_made_frame():
    f = pd.DataFrame({
        "system_a": ["x"] * 2 + ["y"] * 2 + ["z"] * 2 + ["w"] * 2,
        "system_b": ["o"] * 8,
        "metric": ["p", "r"] * 4,
        "direction": [1, -1, 1, -1, 1, 1, -1, 1],
        "pvalue": [0.01, 0.3, 0.01, 0.02, 0.2, np.nan, 0.001, 0.5],
    })
    f["pvalue_corrected"] = f["pvalue"]
    cls = pair_classes(f).set_index("system_a")["pair_class"].to_dict()
    assert cls == {"x": "concordant", "y": "opposite", "z": "none", "w": "worsening"}


def test_bad_test_name():
    with pytest.raises(ValueError, match="test"):
        paired_test([1, 2], [2, 1], test="mann-whitney")


def test_wilcoxon_on_a_single_tied_topic_is_undefined_not_an_error():
    # one usable topic whose difference is 0: scipy refuses; the pair is simply not significant
    res = paired_test(np.array([0.3]), np.array([0.3]))
    assert np.isnan(res.pvalue)
    tab = pd.DataFrame([("a", "t1", "P", .5), ("a", "t1", "R", .5),
                        ("b", "t1", "P", .5), ("b", "t1", "R", .3)],
                       columns=["system", "topic", "metric", "value"])

    result = compare(tab, "P", "R")
    assert set(result.pairs["pair_class"]) == {"none"}


def test_wilcoxon_ranks_differences_equal_within_noise_as_ties():
    """Differences equal but for float noise (0.3 - 0.1 and 0.5 - 0.3: 0.19999999999999998 and
    0.2) share their Wilcoxon rank: the p-value is scipy's on the differences rounded to 12
    decimals, for the exact and the normal methods and in a campaign's pairs (compare)."""
    rng = np.random.default_rng(5)
    for n in (12, 30, 60):  # exact permutation with ties, normal approximation (n > 13 and > 50)
        base = rng.choice([0.1, 0.3, 0.5, 0.7], size=(n, 2))
        x = base[:, 0] + np.where(rng.random(n) < 0.5, 0.2, -0.1)
        y = base[:, 0].copy()
        # the same true differences, built from other operands: other float noise
        x[: n // 2], y[: n // 2] = base[: n // 2, 1] + 0.2, base[: n // 2, 1]
        clean = np.round(x - y, 12)
        assert len(np.unique(np.abs(x - y))) > len(np.unique(np.abs(clean)))  # noise is there
        want = stats.wilcoxon(clean).pvalue
        assert paired_test(x, y, "wilcoxon").pvalue == pytest.approx(want, rel=1e-12)
        # the same through the campaign's pair tests
        topics = [f"t{i}" for i in range(n)] * 2
        table = pd.concat([
            pd.DataFrame({"system": ["a"] * n + ["b"] * n, "topic": topics, "metric": "m",
                          "value": np.concatenate((x, y))}),
            pd.DataFrame({"system": ["a"] * n + ["b"] * n, "topic": topics, "metric": "r",
                          "value": rng.uniform(0, 1, 2 * n)})], ignore_index=True)
        res = compare(table, "m", "r", test="wilcoxon", correction="none")
        row = res.pairs.query("system_a == 'a' and system_b == 'b'").iloc[0]
        assert row["p_raw_m"] == pytest.approx(want, rel=1e-12)
