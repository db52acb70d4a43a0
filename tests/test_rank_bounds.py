"""Rank bounds of reported scores (:mod:`metrics.comparison.rank_bounds`) against brute force
in exact arithmetic, and at a size whose cube would not fit.

The brute force is the definition: the rank of a system at alpha is 1 + #{systems with a
strictly larger F_alpha}; over alpha in [0, 1] it changes only at pairwise crossings, so it is
evaluated with :class:`fractions.Fraction` at 0, 1, every crossing and every midpoint between
consecutive crossings (ties at a crossing are exact here, where floats may miss them).
"""

from __future__ import annotations

import tracemalloc
from fractions import Fraction
from itertools import combinations

import numpy as np
import pandas as pd
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

import metrics.comparison.rank_bounds as rb
from metrics.comparison.rank_bounds import alpha_rank_range, dominance_rank_interval
from metrics.comparison.tie_ranking import tie_ranking


def _f(p: Fraction, r: Fraction, a: Fraction) -> Fraction:
    if p == 0 or r == 0:
        return Fraction(0)
    return 1 / (a / p + (1 - a) / r)


def _brute(p: list[Fraction], r: list[Fraction]) -> tuple[list[int], list[int]]:
    cuts = {Fraction(0), Fraction(1)}
    for i, j in combinations(range(len(p)), 2):
        if min(p[i], r[i], p[j], r[j]) == 0:
            continue
        d0, d1 = 1 / r[i] - 1 / r[j], 1 / p[i] - 1 / p[j]
        if d0 != d1:
            rho = d0 / (d0 - d1)
            if 0 < rho < 1:
                cuts.add(rho)
    cuts = sorted(cuts)
    alphas = cuts + [(a + b) / 2 for a, b in zip(cuts, cuts[1:])]
    ranks = [[1 + sum(_f(p[j], r[j], a) > _f(p[i], r[i], a) for j in range(len(p)))
              for a in alphas] for i in range(len(p))]
    return [min(x) for x in ranks], [max(x) for x in ranks]


# values of three decimals, as papers report them, with zeros and repeats to make ties
_value = st.integers(0, 20).map(lambda k: Fraction(k * 5, 100))


@settings(max_examples=150, deadline=None)
@given(st.lists(st.tuples(_value, _value), min_size=1, max_size=9))
def test_alpha_rank_range_equals_exact_brute_force(pr):
    p = [x for x, _ in pr]
    r = [y for _, y in pr]
    best, worst = alpha_rank_range(np.array(p, dtype=float), np.array(r, dtype=float))
    want_best, want_worst = _brute(p, r)
    assert best.tolist() == want_best and worst.tolist() == want_worst


def test_three_lines_through_one_point_tie_there():
    # F_alpha(P, R) of (0.5, 0.2), (0.2, 0.5) and (0.2857..., 0.2857...) are equal at alpha = 0.5
    p = np.array([0.5, 0.2, 2 / 7])
    r = np.array([0.2, 0.5, 2 / 7])
    best, worst = alpha_rank_range(p, r)
    assert best.tolist() == [1, 1, 1] and worst.tolist() == [3, 3, 2]


@settings(max_examples=100, deadline=None)
@given(st.lists(st.tuples(_value, _value), min_size=1, max_size=12))
def test_dominance_interval_equals_the_tie_ranking(pr):
    p = np.array([float(x) for x, _ in pr])
    r = np.array([float(y) for _, y in pr])
    names = [f"s{i}" for i in range(p.size)]
    dom = ((p[:, None] >= p[None, :]) & (r[:, None] >= r[None, :])
           & ((p[:, None] > p[None, :]) | (r[:, None] > r[None, :])))
    ia, ib = np.nonzero(dom)
    pairs = pd.DataFrame({"system_a": np.asarray(names, dtype=object)[ia],
                          "system_b": np.asarray(names, dtype=object)[ib], "uir": 1.0})
    want = tie_ranking(pairs, names, threshold=1.0, require_concordant=False)
    low, high = dominance_rank_interval(p, r)
    assert low.tolist() == want.rank_low.tolist() and high.tolist() == want.rank_high.tolist()


def test_chunks_give_the_whole_answer(monkeypatch):
    """Rows cut into chunks of 7 give what one chunk gives."""
    rng = np.random.default_rng(4)
    p, r = rng.integers(0, 30, 60) / 30, rng.integers(0, 30, 60) / 30
    whole = alpha_rank_range(p, r), dominance_rank_interval(p, r)
    monkeypatch.setattr(rb, "chunk_rows", lambda _b, rows: min(7, rows))
    assert [a.tolist() for pair in (alpha_rank_range(p, r), dominance_rank_interval(p, r))
            for a in pair] == [a.tolist() for pair in whole for a in pair]


@pytest.mark.slow
def test_five_thousand_systems_in_bounded_memory():
    """The cube of 5,000 systems would be 10^11 cells; the chunks stay within the budget."""
    rng = np.random.default_rng(0)
    p, r = rng.uniform(0.1, 0.9, 5000).round(3), rng.uniform(0.1, 0.9, 5000).round(3)
    tracemalloc.start()
    best, worst = alpha_rank_range(p, r)
    low, high = dominance_rank_interval(p, r)
    peak = tracemalloc.get_traced_memory()[1]
    tracemalloc.stop()
    assert peak < 400 * 2**20
    assert (best >= 1).all() and (worst <= 5000).all() and (best <= worst).all()
    assert (low <= high).all()
