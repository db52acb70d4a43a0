"""Robustness to the aggregation rule (metrics/analyses/aggregation.py): hand-worked rankings,
the exact alpha range against a brute-force sweep, Kendall tau, flips and the Pareto front."""

from __future__ import annotations

import numpy as np
import pandas as pd
import pytest
from scipy import stats
from score_examples import long_table, random_score_table

from metrics.analyses import compare
from metrics.analyses.aggregation import (
    RULES,
    aggregation_at,
    aggregation_core,
    aggregation_robustness,
)
from metrics.comparison.combine import f_alpha

# Four systems, two topics, three metrics (p, r, x; all higher-is-better), dyadic values so that
# every mean below is exact. Campaign means (p, r, x):
#   A (0.75, 0.25, 0.5)  B (0.375, 0.625, 0.5625)  C (0.5, 0.5, 0.25)  D (0.25, 0.1875, 0.125)
HAND = long_table({
    "A": {"p": [0.875, 0.625], "r": [0.125, 0.375], "x": [0.5, 0.5]},
    "B": {"p": [0.375, 0.375], "r": [0.625, 0.625], "x": [0.625, 0.5]},
    "C": {"p": [0.5, 0.5], "r": [0.5, 0.5], "x": [0.25, 0.25]},
    "D": {"p": [0.25, 0.25], "r": [0.1875, 0.1875], "x": [0.125, 0.125]},
})


@pytest.fixture(scope="module")
def hand():
    res = compare(HAND, "p", "r", metrics=["p", "r", "x"], test="none")
    return aggregation_robustness(HAND, res).ranks.set_index("system")


def test_hand_worked_rankings(hand):
    # mean of the three means: A 1.5 / 3, B 1.5625 / 3, C 1.25 / 3, D 0.5625 / 3
    assert hand["rank_mean"].to_dict() == {"B": 1, "A": 2, "C": 3, "D": 4}
    # ranks per metric: p A1 C2 B3 D4, r B1 C2 A3 D4, x B1 A2 C3 D4;
    # Borda (S - rank): A 3+1+2 = 6, B 1+3+3 = 7, C 2+2+1 = 5, D 0
    assert hand["rank_borda"].to_dict() == {"B": 1, "A": 2, "C": 3, "D": 4}
    # median rank: A median(1, 3, 2) = 2, B median(3, 1, 1) = 1, C median(2, 2, 3) = 2, D 4
    assert hand["rank_median_rank"].to_dict() == {"B": 1, "A": 2, "C": 2, "D": 4}
    # worst metric: A 0.25, B 0.375, C 0.25, D 0.125
    assert hand["rank_min_metric"].to_dict() == {"B": 1, "A": 2, "C": 2, "D": 4}
    # F at alpha 0 = mean recall, at 1 = mean precision
    assert hand["rank_f_alpha_0"].to_dict() == {"B": 1, "C": 2, "A": 3, "D": 4}
    assert hand["rank_f_alpha_1"].to_dict() == {"A": 1, "C": 2, "B": 3, "D": 4}
    # F_0.5 macro: A (0.21875 + 0.46875) / 2 = 0.34375, B 0.46875, C 0.5, D 0.2143
    assert hand["rank_f_alpha"].to_dict() == {"C": 1, "B": 2, "A": 3, "D": 4}
    # over alpha: B above C for alpha < 0.375 only; A first near 1, third at 0; D always last
    assert hand["rank_f_alpha_best"].to_dict() == {"A": 1, "B": 1, "C": 1, "D": 4}
    assert hand["rank_f_alpha_worst"].to_dict() == {"A": 3, "B": 3, "C": 2, "D": 4}


def test_hand_worked_pareto(hand):
    # D is dominated by C on the means and on both topics; A, B, C are not dominated
    assert hand["pareto_means"].to_dict() == {"A": True, "B": True, "C": True, "D": False}
    assert hand["pareto_topics"].to_dict() == {"A": 2, "B": 2, "C": 2, "D": 0}


def test_hand_worked_flips_and_tau():
    res = compare(HAND, "p", "r", metrics=["p", "r", "x"], test="none")
    agg = aggregation_robustness(HAND, res)
    flipped = {frozenset(p) for p in zip(agg.flips["system_a"], agg.flips["system_b"],
                                          strict=True)}
    # C and A above D under every rule: never flipped; A-B (B by the means, A by precision)
    # and B-C (crossing at alpha 0.375) are
    assert frozenset("CD") not in flipped and frozenset("AD") not in flipped
    assert frozenset("AB") in flipped and frozenset("BC") in flipped
    bc = agg.flips[(agg.flips["system_a"] == "C") & (agg.flips["system_b"] == "B")].iloc[0]
    assert bc["f_alpha_crosses"] and bc["order_f_alpha_0"] == -1 and bc["order_f_alpha"] == 1
    assert bc["uir"] == pytest.approx(res.uir.uir[2, 1])
    assert len(agg.tau) == len(RULES) * (len(RULES) - 1) // 2
    row = agg.tau[(agg.tau["rule_a"] == "f_alpha_0") & (agg.tau["rule_b"] == "f_alpha_1")]
    expected = stats.kendalltau([0.25, 0.625, 0.5, 0.1875], [0.75, 0.375, 0.5, 0.25]).statistic
    assert float(row["kendall_tau"].iloc[0]) == pytest.approx(expected)


def _ranks_tol(F: np.ndarray) -> np.ndarray:
    """(G, S) ranks with values within 1e-9 tied."""
    return 1 + (F[:, None, :] > F[:, :, None] + 1e-9).sum(axis=2)


@pytest.mark.parametrize("seed", [1, 2])
def test_alpha_range_equals_a_brute_force_sweep(seed):
    table = random_score_table(12, 6, seed=seed, noise=0.2)
    P, R = "bcubed_precision", "bcubed_recall"
    res = compare(table, P, R, test="none")
    agg = aggregation_robustness(table, res).ranks
    cross = np.unique(np.concatenate([np.asarray(c, dtype=float) for c in res.pairs["crossings"]]
                                     + [np.zeros(0)]))
    pts = np.concatenate([np.linspace(0, 1, 2001), cross,
                          (np.concatenate([[0.0], cross]) + np.concatenate([cross, [1.0]])) / 2])
    wide = table.pivot_table(index=["system", "topic"], columns="metric", values="value")
    F = np.stack([pd.Series(f_alpha(wide[P].to_numpy(), wide[R].to_numpy(), a),
                            index=wide.index).groupby(level="system").mean()
                  .reindex(res.systems["system"]).to_numpy() for a in pts])
    rk = _ranks_tol(F)
    np.testing.assert_array_equal(agg["rank_f_alpha_best"].to_numpy(), rk.min(axis=0))
    np.testing.assert_array_equal(agg["rank_f_alpha_worst"].to_numpy(), rk.max(axis=0))


@pytest.mark.parametrize("alphas", [(0.5, 0.2), (0.3, 0.9)])
def test_core_at_another_alpha_equals_the_whole_computation(alphas):
    """The dashboard computes the alpha-free core once and the rest at each alpha: the same
    tables as aggregation_robustness at that alpha (whatever order the systems come in)."""
    table = random_score_table(15, 8, seed=3, noise=0.25)
    P, R = "bcubed_precision", "bcubed_recall"
    first = compare(table, P, R, alpha=alphas[0], test="none")
    core = aggregation_core(table, first)
    for alpha in alphas:
        res = compare(table, P, R, alpha=alpha, test="none", threshold=0.3)
        whole = aggregation_robustness(table, res)
        step = aggregation_at(core, res)
        pd.testing.assert_frame_equal(step.ranks, whole.ranks)
        pd.testing.assert_frame_equal(step.tau, whole.tau)
        pd.testing.assert_frame_equal(step.flips, whole.flips)
    shuffled = core.reordered(list(reversed(core.names)))
    assert list(shuffled.reordered(list(core.names)).f0) == list(core.f0)
    res = compare(table, P, R, alpha=alphas[1], test="none")
    pd.testing.assert_frame_equal(aggregation_at(shuffled, res).ranks,
                                  aggregation_robustness(table, res).ranks)
