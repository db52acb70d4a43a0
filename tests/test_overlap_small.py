"""The overlap kernel (metrics.measures.clustering.overlap.overlap_scores) against the brute-force
definitions of tests/bruteforce.py: extended BCubed P/R and occurrence-level R&S, one topic or
many at once, with and without missing items under ``penalize``, straight from label sets.

tests/test_bruteforce.py checks the same kernel through ``evaluate``.
"""

from __future__ import annotations

import warnings

import bruteforce as bf
import numpy as np
import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

import metrics.measures.clustering.overlap as ov
from metrics.measures.clustering.overlap_sets import extended_bcubed_from_sets


def _kernel(topics):
    """Kernel scores of ``[(gold, system, missing), ...]`` as one multi-topic call, shape (T, 4).

    Labels are coded per topic (the same name in two topics is two labels); a missing item is
    given a singleton cluster and its recall zeroed, as the aligned run does under penalize.
    """
    c_rows, l_rows, topic, zero = [], [], [], []
    c_codes, l_codes = {}, {}
    base = 0
    for t, (gold, system, missing) in enumerate(topics):
        for e in range(len(gold)):
            clusters = [("missing", e)] if e in missing else system[e]
            for lab in set(clusters):
                c_rows.append((base + e, c_codes.setdefault((t, lab), len(c_codes))))
            for lab in set(gold[e]):
                l_rows.append((base + e, l_codes.setdefault((t, lab), len(l_codes))))
            topic.append(t)
            zero.append(e in missing)
        base += len(gold)
    c_item, c_lab = np.array(sorted(c_rows)).T
    l_item, l_lab = np.array(sorted(l_rows)).T
    with warnings.catch_warnings():
        warnings.simplefilter("error")          # no 0/0 or x/0 on the way
        out = ov.overlap_scores(c_item, c_lab, len(c_codes), l_item, l_lab, len(l_codes),
                                np.array(topic), len(topics), np.array(zero))
    return np.stack([out.bcubed_precision, out.bcubed_recall, out.reliability,
                     out.sensitivity], axis=1)


def _reference(topics):
    out = []
    for gold, system, missing in topics:
        gold, system = [set(g) for g in gold], [set(s) for s in system]
        out.append(bf.bcubed(gold, system, frozenset(missing), penalize=True)
                   + bf.reliability_sensitivity(gold, system, frozenset(missing), penalize=True))
    return np.array(out)


@st.composite
def overlapping(draw, max_items=14, max_labels=4):
    """(gold, system): per item a list (possibly with repeats), set or tuple of labels."""
    n = draw(st.integers(1, max_items))
    as_str = draw(st.booleans())
    offset = draw(st.sampled_from([0, -3, 1000]))   # negative / sparse int codes too

    def side(k, prefix):
        out = []
        for _ in range(n):
            labs = draw(st.lists(st.integers(0, k - 1), min_size=1, max_size=max_labels))
            labs = [f"{prefix}{x}" if as_str else x + offset for x in labs]
            out.append(draw(st.sampled_from([list, set, tuple]))(labs))
        return out

    return side(draw(st.integers(1, 5)), "L"), side(draw(st.integers(1, 6)), "C")


@st.composite
def with_missing(draw, max_items=12, max_labels=4):
    gold, system = draw(overlapping(max_items, max_labels))
    missing = set(draw(st.lists(st.integers(0, len(gold) - 1), max_size=3)))
    return gold, system, missing


@settings(max_examples=300, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(overlapping())
def test_from_sets_equals_brute_force(topic):
    gold, system = topic
    ref = bf.bcubed([set(g) for g in gold], [set(s) for s in system], penalize=False)
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        assert extended_bcubed_from_sets(gold, system) == pytest.approx(ref, abs=1e-12)


@settings(max_examples=150, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(st.lists(with_missing(), min_size=1, max_size=4), st.sampled_from([1, 7, 1 << 21]),
       st.sampled_from([0, 1024]))
def test_many_topics_missing_items_and_rs(topics, chunk, group_min):
    """P, R, Reliability, Sensitivity of several topics in one call, missing items penalized,
    the label-pair join in one chunk or in many, identical items merged or not."""
    old = ov._CHUNK, ov._GROUP_MIN
    try:
        ov._CHUNK, ov._GROUP_MIN = chunk, group_min
        got = _kernel(topics)
    finally:
        ov._CHUNK, ov._GROUP_MIN = old
    np.testing.assert_allclose(got, _reference(topics), rtol=0, atol=1e-12)


@settings(max_examples=40, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(st.lists(with_missing(max_items=30, max_labels=6), min_size=1, max_size=2))
def test_many_labels_per_item(topics):
    """Up to six labels per item: pairs sharing 3+ clusters and classes, big join blocks."""
    np.testing.assert_allclose(_kernel(topics), _reference(topics), rtol=0, atol=1e-12)


def test_larger_random_topics():
    rng = np.random.default_rng(11)
    topics = []
    for n in (150, 90, 1):
        gold = [set(rng.integers(0, 7, rng.integers(1, 4)).tolist()) for _ in range(n)]
        system = [set(rng.integers(0, 9, rng.integers(1, 4)).tolist()) for _ in range(n)]
        missing = set(rng.choice(n, size=min(5, n - 1), replace=False).tolist())
        topics.append((gold, system, missing))
    np.testing.assert_allclose(_kernel(topics), _reference(topics), rtol=0, atol=1e-12)
    gold, system, _ = topics[0]
    assert extended_bcubed_from_sets(gold, system) == pytest.approx(
        bf.bcubed(gold, system, penalize=False), abs=1e-12)


def test_identical_overlapping_items_are_grouped(monkeypatch):
    """Many items with the same two clusters and classes: one group, exact multiplicities."""
    monkeypatch.setattr(ov, "_GROUP_MIN", 0)
    gold = [{0, 1}] * 40 + [{2}] * 5 + [{0, 2}] * 7
    system = [{0, 1}] * 30 + [{0}] * 15 + [{1, 2, 3}] * 7
    topics = [(gold, system, {3, 44})]
    np.testing.assert_allclose(_kernel(topics), _reference(topics), rtol=0, atol=1e-12)
    assert extended_bcubed_from_sets(gold, system) == pytest.approx(
        bf.bcubed(gold, system, penalize=False), abs=1e-12)


def test_combined_baseline_shape():
    """Every item in the topic's cluster and in its own singleton (the ``combined`` baseline)."""
    rng = np.random.default_rng(5)
    gold = [{int(x)} for x in rng.integers(0, 4, 25)]
    system = [{"all", e} for e in range(25)]
    topics = [(gold, system, set())]
    np.testing.assert_allclose(_kernel(topics), _reference(topics), rtol=0, atol=1e-12)


def test_item_with_many_labels():
    """An item with 300 labels (beyond one byte of count) next to small ones.

    Its self pair is met C(300, 2) times in the join, each with weight 1 / C(300, 2): the
    rounding of that sum stays far below 1e-9."""
    gold = [set(range(300)), {1}, {2, 3}, {1, 2}]
    system = [{0, 1}, {0, 1}, {1}, set(range(5, 305))]
    ref = bf.bcubed(gold, system, penalize=False)
    assert extended_bcubed_from_sets(gold, system) == pytest.approx(ref, abs=1e-10)
    np.testing.assert_allclose(_kernel([(gold, system, {2})]),
                               _reference([(gold, system, {2})]), rtol=0, atol=1e-10)


def test_large_label_space():
    """Sparse int labels (factorised) and a cluster × class grid too large for a dense table."""
    rng = np.random.default_rng(3)
    n = 400
    gold = [set((rng.integers(0, 500, rng.integers(1, 3)) * 10**6).tolist()) for _ in range(n)]
    system = [set(rng.integers(0, 500, rng.integers(1, 3)).tolist()) for _ in range(n)]
    assert 500 * 500 > max(ov._DENSE_CELLS, 16 * 4 * n)      # the np.unique route
    assert extended_bcubed_from_sets(gold, system) == pytest.approx(
        bf.bcubed(gold, system, penalize=False), abs=1e-12)


def test_single_labels_and_errors():
    assert extended_bcubed_from_sets(["a", "b"], [1, 1]) == pytest.approx((0.5, 1.0))
    assert extended_bcubed_from_sets([], []) == (1.0, 1.0)
    with pytest.raises(ValueError, match="no label"):
        extended_bcubed_from_sets([{1}, set()], [{1}, {2}])
    with pytest.raises(ValueError, match="system items"):
        extended_bcubed_from_sets([{1}], [{1}, {2}])
    # labels that only look alike stay distinct: "1" is not 1, 1.5 is not 1
    assert extended_bcubed_from_sets([{1}, {"1"}], [{1}, {1}]) == pytest.approx((0.5, 1.0))
    assert extended_bcubed_from_sets([{1}, {1}], [{1}, {1.5}]) == pytest.approx((1.0, 0.5))
    # hashable tuples are single labels, not rows of a 2-D array
    gold = [{(1, 2)}, {(1, 2), (3,)}, {(3, 4)}]
    system = [{("a", 1)}, {("a", 1)}, {("a", 1), ("b", 2, 3)}]
    assert extended_bcubed_from_sets(gold, system) == pytest.approx(
        bf.bcubed(gold, system, penalize=False), abs=1e-12)
    gold = [{(1, 2)}, {(3, 4)}]
    assert extended_bcubed_from_sets(gold, [{7}, {7}]) == pytest.approx((0.5, 1.0))


def test_label_kinds_of_the_int_fast_path():
    """Ints beyond int64 and numpy floats take the factorised route; numpy ints and repeated
    labels in a list the int route: all as the definitions say."""
    gold = [{2**70, 1}, {2**70}, {np.float64(3.0)}, {1}]
    system = [[np.int64(5), 5, 7], [7], [7, 5], [np.int32(9)]]
    ref = bf.bcubed([set(g) for g in gold], [set(s) for s in system], penalize=False)
    assert extended_bcubed_from_sets(gold, system) == pytest.approx(ref, abs=1e-12)
    assert extended_bcubed_from_sets(system, gold) == pytest.approx(ref[::-1], abs=1e-12)
