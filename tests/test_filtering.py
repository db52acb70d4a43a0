"""Filtering measures (metrics/measures/organisation/filtering.py; docs/meta-evaluation.md):
hand-worked values, and
Reliability/Sensitivity of a filtering output against the pairwise definition (Hypothesis)."""

from __future__ import annotations

import math

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from metrics.measures.organisation import filtering as flt

# TP=3 FP=1 FN=2 TN=4 on topic 0; a second topic with nothing accepted.
C = flt.FilteringCounts.of([3, 0], [1, 0], [2, 5], [4, 5])


def test_hand_worked_values():
    assert flt.accuracy(C)[0] == pytest.approx(7 / 10)
    assert flt.precision(C)[0] == pytest.approx(3 / 4)
    assert flt.recall(C)[0] == pytest.approx(3 / 5)
    assert flt.f_measure(C)[0] == pytest.approx(2 * 0.75 * 0.6 / (0.75 + 0.6))
    assert flt.utility(C)[0] == 2 * 3 - 1
    # U / U_max = 5 / 10 = 0.5 -> (0.5 + 0.5) / 1.5
    assert flt.scaled_utility(C)[0] == pytest.approx(2 / 3)
    # fpr = 1.5/5.5, fnr = 2.5/5.5: odds 1.5/4 and 2.5/3; lam = sqrt(odds product) as a rate
    odds = math.sqrt((1.5 / 4) * (2.5 / 3))
    assert flt.lam(C)[0] == pytest.approx(100 * odds / (1 + odds))
    assert flt.reliability(C)[0] == pytest.approx(3 / 4 * 4 / 6)
    assert flt.sensitivity(C)[0] == pytest.approx(3 / 5 * 4 / 5)
    assert flt.rs_f(C)[0] == pytest.approx(2 * 0.5 * 0.48 / 0.98)


def test_nothing_accepted():
    # precision 0/0 -> zero_division; recall 0/5 = 0; accuracy 5/10
    assert flt.precision(C)[1] == 0.0
    assert flt.precision(C, zero_division=np.nan)[1] != flt.precision(C, zero_division=np.nan)[1]
    assert flt.recall(C)[1] == 0.0 and flt.f_measure(C)[1] == 0.0
    assert flt.accuracy(C)[1] == 0.5
    assert flt.scaled_utility(C)[1] == pytest.approx(0.5 / 1.5)  # U = 0 -> (0 + 0.5) / 1.5
    # lam: no relevant document accepted -> fnr = (5 + 0.5) / (0 + 5 + 0.5) = 1, logit +inf
    assert flt.lam(C)[1] == pytest.approx(100.0)


def test_trivial_outputs_score_zero_in_r_and_s():
    # the paper (§4.3): R*S is 0 for the all-relevant and all-irrelevant baselines
    everything = flt.FilteringCounts.of(4, 6, 0, 0)
    nothing = flt.FilteringCounts.of(0, 0, 4, 6)
    for c in (everything, nothing):
        assert float(flt.rs_f(c)) == 0.0
    assert float(flt.recall(everything)) == 1.0 and float(flt.f_measure(everything)) > 0


def test_counts_by_topic():
    rel = [1, 1, 0, 0, 1, 0, 0]
    acc = [1, 0, 1, 0, 0, 0, 1]
    top = [0, 0, 0, 0, 1, 1, 1]
    c = flt.filtering_counts(rel, acc, top)
    assert c.tp.tolist() == [1, 0] and c.fp.tolist() == [1, 1]
    assert c.fn.tolist() == [1, 1] and c.tn.tolist() == [1, 1]


def test_score_filtering_and_directions():
    out = flt.score_filtering(C, ["lam", "accuracy"])
    assert list(out) == ["lam", "accuracy"]
    assert flt.FILTERING_DIRECTIONS["lam"] == -1 and flt.FILTERING_DIRECTIONS["utility"] == 1
    with pytest.raises(ValueError, match="unknown filtering measure"):
        flt.score_filtering(C, ["nope"])
    with pytest.raises(ValueError, match="non-negative"):
        flt.FilteringCounts.of(-1, 0, 0, 0)


def _pairwise_r_s(rel: list[bool], acc: list[bool]) -> tuple[float, float]:
    """R and S straight from the relation definition: every document weighs the same; R(d) is
    the share of d's output priority relations found in the gold, S(d) the converse."""
    n = len(rel)
    r_doc, s_doc = [], []
    for d in range(n):
        out_rel = [e for e in range(n) if acc[d] != acc[e]]  # d > e or e > d in the output
        gold_rel = [e for e in range(n) if rel[d] != rel[e]]
        if out_rel:
            r_doc.append(sum(1 for e in out_rel
                             if (acc[d] and rel[d] and not rel[e]) or
                             (acc[e] and rel[e] and not rel[d])) / len(out_rel))
        if gold_rel:
            s_doc.append(sum(1 for e in gold_rel
                             if (rel[d] and acc[d] and not acc[e]) or
                             (rel[e] and acc[e] and not acc[d])) / len(gold_rel))
    # a document without relations has no R(d); with none at all the output states nothing
    r = sum(r_doc) / n if r_doc else 0.0
    s = sum(s_doc) / n if s_doc else 0.0
    return r, s


@settings(max_examples=200, deadline=None)
@given(st.lists(st.tuples(st.booleans(), st.booleans()), min_size=1, max_size=14))
def test_r_and_s_equal_the_pairwise_definition(docs):
    rel = [r for r, _ in docs]
    acc = [a for _, a in docs]
    c = flt.filtering_counts(rel, acc)
    want_r, want_s = _pairwise_r_s(rel, acc)
    assert float(flt.reliability(c)[0]) == pytest.approx(want_r, abs=1e-12)
    assert float(flt.sensitivity(c)[0]) == pytest.approx(want_s, abs=1e-12)


counts = st.integers(1, 30)


@settings(max_examples=200, deadline=None)
@given(counts, counts, counts, counts)
def test_priority_holds_on_any_counts(tp, fp, fn, tn):
    # the paper's filtering priority constraint, both halves, on every topic with all four
    # cells filled: accept one more relevant document / reject one more irrelevant document
    base = flt.FilteringCounts.of(tp, fp, fn, tn)
    moves = (flt.FilteringCounts.of(tp + 1, fp, fn - 1, tn),
             flt.FilteringCounts.of(tp, fp - 1, fn, tn + 1))
    for name in ("accuracy", "f_measure", "utility", "lam", "rs_f"):
        fn_ = flt.FILTERING_MEASURES[name]
        sign = flt.FILTERING_DIRECTIONS[name]
        for moved in moves:
            assert sign * (float(fn_(moved)[()]) - float(fn_(base)[()])) > 0, name
    for moved in moves:  # T11SU never decreases, but ties below its floor (see next test)
        assert float(flt.scaled_utility(moved)[()]) >= float(flt.scaled_utility(base)[()])


def test_scaled_utility_ties_below_its_floor():
    # U / U_max = (2 - 20) / 4 and (2 - 19) / 4 are both below -0.5: both clip to 0
    worse = flt.FilteringCounts.of(1, 20, 1, 5)
    better = flt.FilteringCounts.of(1, 19, 1, 6)
    assert float(flt.scaled_utility(worse)[()]) == float(flt.scaled_utility(better)[()]) == 0.0
    assert float(flt.utility(better)[()]) > float(flt.utility(worse)[()])
