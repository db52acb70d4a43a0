"""The floor of a paired test's p-value on few topics, and the sentence every view prints."""

from __future__ import annotations

import itertools

import numpy as np
import pytest

from metrics.comparison.paired import paired_test
from metrics.comparison.small_sample import small_sample, smallest_p


@pytest.mark.parametrize("test", ["wilcoxon", "sign", "randomization"])
@pytest.mark.parametrize("n", range(1, 9))
def test_smallest_p_is_the_most_extreme_sample(test, n):
    # brute force: the p-value of every sign pattern of the differences 1..n (distinct
    # magnitudes, no zero); the smallest of them is the floor
    seen = min(paired_test(np.array(signs) * np.arange(1.0, n + 1), np.zeros(n), test=test,
                           seed=0).pvalue
               for signs in itertools.product((1.0, -1.0), repeat=n))
    assert seen == pytest.approx(smallest_p(test, n), rel=1e-12)


def test_hand_worked_floors():
    # 2 / 2^n: 0.25 on 3 topics, 0.0625 on 5, 0.03125 on 6
    assert smallest_p("wilcoxon", 3) == 0.25
    assert smallest_p("sign", 5) == 0.0625
    assert smallest_p("wilcoxon", 6) == 0.03125
    assert smallest_p("t", 3) == 0.0 and smallest_p("t", 1) == 1.0
    assert smallest_p("randomization", 30, n_resamples=999) == 1 / 1000


def test_the_verdict_on_three_topics():
    few = small_sample("wilcoxon", 3, 0.05)
    assert not few.can_be_significant
    assert few.sentence().startswith("With 3 topics no paired wilcoxon test can reach p < 0.05: "
                                     "its smallest two-sided p-value is 0.25")
    assert "tie groups" in few.sentence()
    assert small_sample("wilcoxon", 6, 0.05).sentence() == ""
    assert small_sample("wilcoxon", 5, 0.05).p_min == 0.0625
    assert small_sample("t", 3, 0.05).can_be_significant


def test_no_test_nothing_to_flag():
    none = small_sample("none", 3, 0.05)
    assert none.can_be_significant and none.sentence() == ""
