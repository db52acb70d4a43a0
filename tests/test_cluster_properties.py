"""Properties of all metrics at once: bounds, permutation invariance, perfect scores, symmetry;
plus cross-checks against scikit-learn on random label arrays."""

from __future__ import annotations

import math

import bruteforce as bf
import numpy as np
import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from sklearn import metrics as skm

from metrics.measures.clustering.entropy import homogeneity_completeness_v_measure
from metrics.measures.clustering.pairs import pair_scores
from metrics.measures.registry import available_metrics, direction
from metrics.measures.scoring import evaluate

ALL = [m.name for m in available_metrics()]
OVERLAP_AWARE = [m.name for m in available_metrics() if m.overlap_aware]
UNBOUNDED = {"vi", "h_c_given_k", "h_k_given_c", "nvi"}
SETTINGS = settings(max_examples=60, deadline=None, suppress_health_check=[HealthCheck.too_slow])

# metric -> its mirror when gold and system swap
MIRROR = {
    "purity": "inverse_purity", "inverse_purity": "purity",
    "bcubed_precision": "bcubed_recall", "bcubed_recall": "bcubed_precision",
    "reliability": "sensitivity", "sensitivity": "reliability",
    "homogeneity": "completeness", "completeness": "homogeneity",
    "h_c_given_k": "h_k_given_c", "h_k_given_c": "h_c_given_k",
    "pair_precision": "pair_recall", "pair_recall": "pair_precision",
    "v_measure": "v_measure", "vi": "vi", "rand": "rand", "adjusted_rand": "adjusted_rand",
    "jaccard": "jaccard", "fowlkes_mallows": "fowlkes_mallows", "pair_f": "pair_f",
    "accuracy_11": "accuracy_11",
}


@st.composite
def topic(draw, overlap=False, max_items=10):
    n = draw(st.integers(1, max_items))
    k = 2 if overlap else 1

    def sets(m, p):
        return [set(f"{p}{x}" for x in draw(st.lists(st.integers(0, m), min_size=1, max_size=k)))
                for _ in range(n)]

    return sets(draw(st.integers(0, 4)), "L"), sets(draw(st.integers(0, 5)), "C")


def scores(gold, system, metrics=ALL):
    camp = bf.toy_campaign([(gold, system, set())])
    t = evaluate(camp, metrics)
    return dict(zip(t["metric"], t["value"]))


@SETTINGS
@given(topic(overlap=False), st.booleans())
def test_bounds(t, _):
    gold, system = t
    s = scores(gold, system)
    n = len(gold)
    for name, v in s.items():
        assert np.isfinite(v), name
        if name in ("vi", "h_c_given_k", "h_k_given_c"):
            assert -1e-12 <= v <= 2 * math.log(max(n, 1)) + 1e-9, (name, v)
        elif name == "nvi":
            assert v >= -1e-12
        elif name == "adjusted_rand":
            assert -1 - 1e-12 <= v <= 1 + 1e-12
        else:
            assert -1e-12 <= v <= 1 + 1e-12, (name, v)


@SETTINGS
@given(topic(overlap=True))
def test_bounds_with_overlap(t):
    gold, system = t
    for name, v in scores(gold, system).items():
        if name not in UNBOUNDED and name != "adjusted_rand":
            assert -1e-12 <= v <= 1 + 1e-12, (name, v)


@SETTINGS
@given(topic(overlap=True), st.randoms(use_true_random=False))
def test_label_permutation_invariance(t, rnd):
    gold, system = t
    g_names = sorted({x for s in gold for x in s})
    s_names = sorted({x for s in system for x in s})
    g_map = dict(zip(g_names, rnd.sample(g_names, len(g_names))))
    s_map = dict(zip(s_names, rnd.sample(s_names, len(s_names))))
    gold2 = [{g_map[x] for x in s} for s in gold]
    system2 = [{s_map[x] for x in s} for s in system]
    a, b = scores(gold, system), scores(gold2, system2)
    for name in ALL:
        assert a[name] == pytest.approx(b[name], abs=1e-12), name


@SETTINGS
@given(topic(overlap=False))
def test_identical_clusterings_score_perfectly(t):
    gold, _ = t
    system = [{x.replace("L", "C")} for s in gold for x in s]
    s = scores(gold, system)
    for name in ALL:
        best = 0.0 if direction(name) < 0 else 1.0
        assert s[name] == pytest.approx(best, abs=1e-12), name


@SETTINGS
@given(topic(overlap=True))
def test_identical_overlapping_clusterings_score_perfectly_on_overlap_aware_metrics(t):
    gold, _ = t
    system = [{x.replace("L", "C") for x in s} for s in gold]
    s = scores(gold, system, OVERLAP_AWARE)
    for name in OVERLAP_AWARE:
        assert s[name] == pytest.approx(1.0, abs=1e-12), name


@SETTINGS
@given(topic(overlap=True))
def test_symmetry_when_gold_and_system_swap(t):
    gold, system = t
    a = scores(gold, system)
    b = scores([{x.replace("C", "L") for x in s} for s in system],
               [{x.replace("L", "C") for x in s} for s in gold])
    for name, mirror in MIRROR.items():
        assert a[name] == pytest.approx(b[mirror], abs=1e-12), (name, mirror)


@pytest.mark.parametrize("seed", range(5))
def test_against_sklearn_on_random_arrays(seed):
    rng = np.random.default_rng(seed)
    n = int(rng.integers(2, 3000))
    g = rng.integers(0, int(rng.integers(1, 30)), n)
    s = np.where(rng.random(n) < 0.5, g, rng.integers(0, int(rng.integers(1, 40)), n))
    assert homogeneity_completeness_v_measure(g, s) == pytest.approx(
        skm.homogeneity_completeness_v_measure(g, s), abs=1e-10)
    ps = pair_scores(g, s)
    assert ps["rand"] == pytest.approx(skm.rand_score(g, s), abs=1e-12)
    assert ps["adjusted_rand"] == pytest.approx(skm.adjusted_rand_score(g, s), abs=1e-12)
    assert ps["fowlkes_mallows"] == pytest.approx(skm.fowlkes_mallows_score(g, s), abs=1e-12)
    # string labels, arbitrary integers: same result
    assert homogeneity_completeness_v_measure(g.astype(str), s * 1_000_003) == pytest.approx(
        skm.homogeneity_completeness_v_measure(g, s), abs=1e-10)


def test_label_array_validation():
    with pytest.raises(ValueError, match="same length"):
        homogeneity_completeness_v_measure([1, 2], [1])
