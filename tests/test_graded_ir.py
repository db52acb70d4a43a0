"""ERR and the Q-measure (metrics/measures/organisation/graded_ir.py): hand-worked values and
the loops of tests/bruteforce.py on random rankings."""

from __future__ import annotations

import numpy as np
import pytest

from metrics.measures.organisation.graded_ir import err, q_measure
from tests.bruteforce import err_loop, q_measure_loop


def test_err_by_hand():
    # grades 1, 0, 2 with g_max = 2: stop probabilities 1/4, 0, 3/4
    assert err([1, 0, 2], 2) == pytest.approx(1 / 4 + 0 + (3 / 4) * (3 / 4) / 3)
    assert err([0, 1], 1) == pytest.approx(0.5 / 2)
    assert err([], 3) == 0.0
    assert err([0, 0], 0) == 0.0


def test_q_measure_by_hand():
    # binary, R = 2, beta = 1: relevant at ranks 2 and 3
    # ideal cumulative gains 1, 2, 2: BR(2) = (1 + 1) / (2 + 2), BR(3) = (2 + 2) / (2 + 3)
    assert q_measure([0, 1, 1], [1, 1, 0]) == pytest.approx((2 / 4 + 4 / 5) / 2)
    # every relevant document first: Q = AP = 1
    assert q_measure([2, 1, 0], [1, 2, 0, 0]) == pytest.approx(1.0)
    # graded: ideal gains 3, 1; ranking 1, 3: BR(1) = (1 + 1)/(3 + 1), BR(2) = (4 + 2)/(4 + 2)
    assert q_measure([1, 3], [3, 1]) == pytest.approx((2 / 4 + 1) / 2)
    assert q_measure([0, 0], [0, 0]) == 0.0


def test_against_loops():
    rng = np.random.default_rng(7)
    for _ in range(300):
        judged = rng.integers(0, 4, size=rng.integers(1, 12)).tolist()
        ranked = rng.permutation(len(judged))[: rng.integers(0, len(judged) + 1)]
        order = [judged[i] for i in ranked] + [0] * int(rng.integers(0, 3))  # unjudged at the end
        beta = float(rng.choice([0.0, 0.5, 1.0, 3.0]))
        assert q_measure(order, judged, beta) == pytest.approx(q_measure_loop(order, judged, beta))
        gmax = max(judged)
        assert err(order, gmax) == pytest.approx(err_loop(order, gmax))
