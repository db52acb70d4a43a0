"""Hand-worked values of every metric on small examples (the arithmetic is in the comments)."""

from __future__ import annotations

import math

import numpy as np
import pytest
from sklearn import metrics as skm

from metrics.measures.clustering import bcubed_precision_recall, homogeneity_completeness_v_measure
from metrics.measures.clustering.mapping import mapping_scores
from metrics.measures.clustering.pairs import pair_scores
from metrics.measures.clustering.purity import fscore_score, inverse_purity_score, purity_score
from metrics.measures.registry import available_metrics
from metrics.measures.scoring import score_clusterings

ALL = [m.name for m in available_metrics()]

# Example 1: gold a a a b b c ; system 1 1 2 2 2 3
#   cluster 1 = {a, a}, cluster 2 = {a, b, b}, cluster 3 = {c}
#   |L_a| = 3, |L_b| = 2, |L_c| = 1 ; |C_1| = 2, |C_2| = 3, |C_3| = 1 ; n = 6
GOLD1 = ["a", "a", "a", "b", "b", "c"]
SYS1 = [1, 1, 2, 2, 2, 3]
LN = math.log
H_SIZES = -(3 / 6 * LN(3 / 6) + 2 / 6 * LN(2 / 6) + 1 / 6 * LN(1 / 6))  # H(C) = H(K) here
# H(C|K) = -Σ n_ij/n log(n_ij/|C_j|) = -(2/6 log 1 + 1/6 log 1/3 + 2/6 log 2/3 + 1/6 log 1)
H_C_K = -(1 / 6 * LN(1 / 3) + 2 / 6 * LN(2 / 3))
# H(K|C) = -Σ n_ij/n log(n_ij/|L_i|) = -(2/6 log 2/3 + 1/6 log 1/3 + 2/6 log 1 + 1/6 log 1)
H_K_C = -(2 / 6 * LN(2 / 3) + 1 / 6 * LN(1 / 3))
HOM = 1 - H_C_K / H_SIZES
COM = 1 - H_K_C / H_SIZES
EXPECTED1 = {
    "purity": 5 / 6,                     # (2 + 2 + 1) / 6
    "inverse_purity": 5 / 6,             # (max_a 2 + max_b 2 + max_c 1) / 6
    # F(a,1) = 2·2/(3+2) = .8, F(b,2) = 2·2/(2+3) = .8, F(c,3) = 1: (3·.8 + 2·.8 + 1·1)/6
    "fscore": (3 * 0.8 + 2 * 0.8 + 1.0) / 6,
    # P = (2²/2 + 1²/3 + 2²/3 + 1²/1)/6 ; R = (2²/3 + 1²/3 + 2²/2 + 1²/1)/6
    "bcubed_precision": (2 + 1 / 3 + 4 / 3 + 1) / 6,
    "bcubed_recall": (4 / 3 + 1 / 3 + 2 + 1) / 6,
    "bcubed_adapted_recall": ((4 / 3 + 1 / 3 + 2 + 1) / 6) ** 2,
    "reliability": (2 + 1 / 3 + 4 / 3 + 1) / 6,
    "sensitivity": (4 / 3 + 1 / 3 + 2 + 1) / 6,
    "homogeneity": HOM,
    "completeness": COM,
    "v_measure": 2 * HOM * COM / (HOM + COM),
    "vi": H_C_K + H_K_C,
    "nvi": (H_C_K + H_K_C) / H_SIZES,
    "h_c_given_k": H_C_K,
    "h_k_given_c": H_K_C,
    # T = 15 pairs; S = C(2,2) + C(2,2) = 2; SA = C(3,2) + C(2,2) = 4; SB = C(2,2) + C(3,2) = 4
    # TP = 2, FP = 2, FN = 2, TN = 15 - 4 - 4 + 2 = 9
    "rand": 11 / 15,
    "adjusted_rand": (2 - 16 / 15) / (4 - 16 / 15),   # = 7/22
    "jaccard": 2 / 6,
    "fowlkes_mallows": 2 / math.sqrt(4 * 4),
    "pair_precision": 0.5,
    "pair_recall": 0.5,
    "pair_f": 0.5,
    "accuracy_m1": 5 / 6,
    "accuracy_11": 5 / 6,                # a→1 (2), b→2 (2), c→3 (1)
}


def test_example1_every_metric():
    got = score_clusterings(GOLD1, SYS1, ALL)
    assert set(got) == set(EXPECTED1)
    for name, value in EXPECTED1.items():
        assert got[name] == pytest.approx(value, abs=1e-12), name
    assert EXPECTED1["adjusted_rand"] == pytest.approx(7 / 22)


def test_example1_label_array_wrappers():
    assert purity_score(GOLD1, SYS1) == pytest.approx(5 / 6)
    assert inverse_purity_score(GOLD1, SYS1) == pytest.approx(5 / 6)
    assert fscore_score(GOLD1, SYS1) == pytest.approx(EXPECTED1["fscore"])
    p, r = bcubed_precision_recall(GOLD1, SYS1)
    assert (p, r) == pytest.approx((14 / 18, 14 / 18))
    assert homogeneity_completeness_v_measure(GOLD1, SYS1) == pytest.approx(
        (HOM, COM, EXPECTED1["v_measure"]))
    ps = pair_scores(GOLD1, SYS1)
    assert ps["adjusted_rand"] == pytest.approx(7 / 22)


def test_example1_against_sklearn():
    g = np.array([0, 0, 0, 1, 1, 2])
    s = np.array(SYS1)
    assert homogeneity_completeness_v_measure(g, s) == pytest.approx(
        skm.homogeneity_completeness_v_measure(g, s))
    ps = pair_scores(g, s)
    assert ps["rand"] == pytest.approx(skm.rand_score(g, s))
    assert ps["adjusted_rand"] == pytest.approx(skm.adjusted_rand_score(g, s))
    assert ps["fowlkes_mallows"] == pytest.approx(skm.fowlkes_mallows_score(g, s))


def test_example2_mapping_one_to_one_differs():
    # gold a a a b b b ; system 1 1 2 2 3 3: cluster 1 = {a,a}, 2 = {a,b}, 3 = {b,b}
    # M-1: (2 + 1 + 2)/6 ; 1-1: a→1 (2) + b→3 (2) = 4/6
    got = mapping_scores(list("aaabbb"), [1, 1, 2, 2, 3, 3])
    assert got["accuracy_m1"] == pytest.approx(5 / 6)
    assert got["accuracy_11"] == pytest.approx(4 / 6)


def test_example3_missing_item_penalize_vs_singleton():
    # gold 1 1 2 2 3 ; system A A A B, item 4 missing (singleton cluster)
    gold, system = [1, 1, 2, 2, 3], ["A", "A", "A", "B", None]
    pen = score_clusterings(gold, system, ["bcubed_precision", "bcubed_recall", "purity"])
    # P: items 0,1: 2/3 ; item 2: 1/3 ; item 3: 1 ; item 4: 1 (missing) -> (11/3)/5
    assert pen["bcubed_precision"] == pytest.approx(11 / 15)
    # R: items 0,1: 1 ; items 2,3: 1/2 ; item 4: 0 (penalize) -> 3/5
    assert pen["bcubed_recall"] == pytest.approx(3 / 5)
    # set matching sees the missing item as a singleton: (2 + 1 + 1)/5... cluster A max 2,
    # cluster B 1, singleton 1
    assert pen["purity"] == pytest.approx(4 / 5)
    sing = score_clusterings(gold, system, ["bcubed_precision", "bcubed_recall"],
                             missing="singleton")
    assert sing["bcubed_precision"] == pytest.approx(11 / 15)
    assert sing["bcubed_recall"] == pytest.approx(4 / 5)   # item 4 now gets 1


def test_example4_overlapping_extended_bcubed_and_rs():
    # gold: e1 {a}, e2 {a}, e3 {b} ; system: e1 {1,2}, e2 {1,2}, e3 {2}
    gold = [{"a"}, {"a"}, {"b"}]
    system = [{"1", "2"}, {"1", "2"}, {"2"}]
    got = score_clusterings(gold, system, ["bcubed_precision", "bcubed_recall", "reliability",
                                           "sensitivity", "purity", "inverse_purity"])
    # precision: e1 with e1, e2 (shared clusters 2, classes 1 -> 1/2 each) and e3 (1 cluster, 0
    # classes -> 0): 1/3 ; e2 likewise ; e3: 0, 0, 1 -> 1/3. P = 1/3.
    assert got["bcubed_precision"] == pytest.approx(1 / 3)
    # recall: e1 with e1, e2: min(2,1)/1 = 1 each -> 1 ; e2: 1 ; e3 alone: 1. R = 1.
    assert got["bcubed_recall"] == pytest.approx(1.0)
    # reliability over the 5 occurrences: (e1,1), (e2,1): cluster {e1,e2}, min(1, 1/2) each ->
    # 1/2 ; (e1,2), (e2,2): cluster {e1,e2,e3}: (1/2 + 1/2 + 0)/3 = 1/3 ; (e3,2): (0+0+1)/3 = 1/3
    assert got["reliability"] == pytest.approx((0.5 + 0.5 + 1 / 3 + 1 / 3 + 1 / 3) / 5)
    # sensitivity over the 3 gold occurrences: class a {e1,e2}: min(1, 2/1) = 1 ; class b: 1
    assert got["sensitivity"] == pytest.approx(1.0)
    # purity with overlap: n_1a = 2, n_2a = 2, n_2b = 1: (2 + 2) / (|C_1| + |C_2| = 5)
    assert got["purity"] == pytest.approx(4 / 5)
    # inverse purity: (max_j n_aj = 2 + max_j n_bj = 1) / (|L_a| + |L_b| = 3)
    assert got["inverse_purity"] == pytest.approx(1.0)


def test_edge_cases_single_item_single_cluster():
    one = score_clusterings(["a"], ["x"], ALL)
    for name in ALL:
        expected = 0.0 if name in ("vi", "nvi", "h_c_given_k", "h_k_given_c") else 1.0
        assert one[name] == pytest.approx(expected), name
    # one class, system splits it: H(C) = 0 -> homogeneity 1; NVI = VI / H(K) = 1
    split = score_clusterings(["a", "a", "a", "a"], [1, 2, 3, 4], ALL)
    assert split["homogeneity"] == 1.0
    assert split["completeness"] == 0.0
    assert split["nvi"] == pytest.approx(1.0)
    assert split["vi"] == pytest.approx(math.log(4))
    assert split["pair_precision"] == 1.0     # the system forms no pair
    assert split["pair_recall"] == 0.0
    # all singletons on both sides: pair metrics agree perfectly
    both = score_clusterings([1, 2, 3], ["x", "y", "z"], ALL)
    for name in ("rand", "adjusted_rand", "jaccard", "fowlkes_mallows", "pair_f"):
        assert both[name] == 1.0, name


def test_v_measure_beta():
    got = score_clusterings(GOLD1, SYS1, ["v_measure(beta=2)", "v_measure(beta=0.5)"])
    for beta, key in ((2.0, "v_measure(beta=2)"), (0.5, "v_measure(beta=0.5)")):
        assert got[key] == pytest.approx((1 + beta) * HOM * COM / (beta * HOM + COM))
    g = np.array([0, 0, 0, 1, 1, 2])
    assert homogeneity_completeness_v_measure(g, SYS1, beta=2.0)[2] == pytest.approx(
        skm.v_measure_score(g, SYS1, beta=2.0))


def test_adapted_recall_k():
    got = score_clusterings(GOLD1, SYS1, ["bcubed_adapted_recall(k=2)",
                                          "bcubed_adapted_recall(k=4)"])
    r = EXPECTED1["bcubed_recall"]
    assert got["bcubed_adapted_recall(k=2)"] == pytest.approx(r)
    assert got["bcubed_adapted_recall(k=4)"] == pytest.approx(r ** 3)
