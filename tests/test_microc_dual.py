"""The exact Lagrangian bound of the MicroC branch and bound
(metrics/measures/typelevel/microc_dual.py; docs/type-level.md) against every set and every
mapping."""

from __future__ import annotations

import itertools

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from test_microc_branch import _by_hand, _class_best, _no_rounding, _tables
from typelevel_bruteforce import brute_score

from metrics.measures.typelevel import microc_branch
from metrics.measures.typelevel.microc_branch import branch_and_bound
from metrics.measures.typelevel.microc_dual import DualTables, gain_bound
from metrics.measures.typelevel.microc_master import column_generation


def _assert_tables_exact(tables, size, w, a, mu, allowed, rng) -> None:
    """Every value of ``tables`` (clusters j, j+1, ... at random placed sizes) equals the best
    g_c(T) - μ(T) over every set T of those clusters allowed on c."""
    m, n = w.shape
    s0 = rng.integers(0, 4, n).astype(float)
    w0 = np.minimum(rng.integers(0, 4, n), s0).astype(float)
    for j in range(m + 1):
        for c in range(n):
            rest = allowed.copy()
            rest[:j] = False
            want = _class_best(size, w, a, mu, s0, w0, rest, c)
            assert tables.value(j, c, s0[c], w0[c]) == pytest.approx(want, abs=1e-9)


@settings(max_examples=120, deadline=None)
@given(st.integers(0, 2**32 - 1))
def test_tables_give_the_best_set_of_each_class(seed):
    """DualTables.value is exactly the best g_c(T) - μ(T) over every set T of the clusters
    j, j+1, ... allowed on c, for any multipliers and placed sizes; the root's bound and its
    relaxed sets agree with it; Σ μ + Σ V bounds every mapping."""
    size, w, a, _, _ = _tables(seed)
    m, n = w.shape
    rng = np.random.default_rng(seed)
    mu = rng.normal(0.0, 2.0, m) * rng.integers(0, 2)
    allowed = rng.random((m, n)) < 0.8
    tables = DualTables(size, w, a, mu, allowed)
    _assert_tables_exact(tables, size, w, a, mu, allowed, rng)
    bound, sets = tables.root(3)
    chosen = sets[0]
    values = []
    for c in range(n):
        t = chosen[c] > 0
        assert not np.any(t & ~allowed[:, c])
        big_s, big_w = size[t].sum(), w[t, c].sum()
        values.append((2 * big_w * big_s / (big_s + a[c]) if big_s else 0.0) - mu[t].sum())
        assert values[-1] == pytest.approx(
            _class_best(size, w, a, mu, np.zeros(n), np.zeros(n), allowed, c), abs=1e-9)
    assert bound == pytest.approx(mu.sum() + sum(values), abs=1e-9)
    for c in range(n):  # the other sets read back: allowed, and no better than the best
        for t in sets[1:, c] > 0:
            assert not np.any(t & ~allowed[:, c])
            big_s, big_w = size[t].sum(), w[t, c].sum()
            g = 2 * big_w * big_s / (big_s + a[c]) if big_s else 0.0
            assert g - mu[t].sum() <= values[c] + 1e-9
    every = np.ones((m, n), dtype=bool)
    top = max(_by_hand(size, w, a, h) for h in itertools.product(range(n), repeat=m))
    assert top * size.sum() <= DualTables(size, w, a, mu, every).root()[0] + 1e-9


@settings(max_examples=120, deadline=None)
@given(st.integers(0, 2**32 - 1))
def test_gain_bound_is_the_most_a_cluster_adds(seed):
    """gain_bound[k, c] is at least g_c(T + k) - g_c(T) for every set T of the other clusters
    and every placed state (W⁰ ≤ S⁰), by enumeration."""
    size, w, a, _, _ = _tables(seed)
    m, n = w.shape
    rng = np.random.default_rng(seed)
    s0 = rng.integers(0, 6, n).astype(float)
    w0 = np.minimum(rng.integers(0, 6, n), s0).astype(float)
    bound = gain_bound(size, w, a)
    for c in range(n):
        def g(t, c=c):
            big_s, big_w = s0[c] + size[t].sum(), w0[c] + w[t, c].sum()
            return 2 * big_w * big_s / (big_s + a[c]) if big_s else 0.0
        for r in range(m + 1):
            for t in itertools.combinations(range(m), r):
                for k in set(range(m)) - set(t):
                    assert g(list(t) + [k]) - g(list(t)) <= bound[k, c] + 1e-12


@settings(max_examples=80, deadline=None)
@given(st.integers(0, 2**32 - 1))
def test_tables_leave_out_the_clusters_that_never_pay(seed):
    """A cluster whose μ_k reaches gain_bound on class c is left out of c's tables (the
    attribute ``allowed`` shrinks), and every V_c stays the best over every set of the
    clusters allowed on c, those included."""
    size, w, a, _, _ = _tables(seed)
    m, n = w.shape
    rng = np.random.default_rng(seed)
    allowed = np.ones((m, n), dtype=bool)
    pick = rng.integers(0, n, m)
    mu = gain_bound(size, w, a)[np.arange(m), pick]  # exactly the bound on class pick[k]
    lower = rng.random(m) < 0.3
    lower[0] = False  # at least one cluster left out
    mu[lower] *= rng.random()
    tables = DualTables(size, w, a, mu, allowed)
    assert tables.allowed.sum() < allowed.sum()
    _assert_tables_exact(tables, size, w, a, mu, allowed, rng)


@settings(max_examples=100, deadline=None)
@given(st.integers(0, 2**32 - 1))
def test_children_bound_every_completion(seed):
    """DualTables.children at a node (a prefix of the clusters placed) bounds Σ_c g_c of every
    completion of each child that keeps to the allowed classes; -inf where the node's cluster
    may not go."""
    size, w, a, _, _ = _tables(seed)
    m, n = w.shape
    rng = np.random.default_rng(seed)
    j = int(rng.integers(0, m))
    placed = rng.integers(0, n, j)
    s0 = np.bincount(placed, weights=size[:j], minlength=n)
    w0 = np.bincount(placed, weights=w[np.arange(j), placed], minlength=n)
    allowed = rng.random((m, n)) < 0.7
    allowed[np.arange(m), rng.integers(0, n, m)] = True
    tables = DualTables(size, w, a, rng.normal(0.0, 2.0, m), allowed)
    bounds = tables.children(j, s0, w0, allowed[j])
    assert np.all(np.isneginf(bounds[~allowed[j]]))
    for rest in itertools.product(*(np.flatnonzero(r).tolist() for r in allowed[j:])):
        full = np.concatenate((placed, np.array(rest, dtype=np.int64)))
        assert _by_hand(size, w, a, full) * size.sum() <= bounds[rest[0]] + 1e-9


@settings(max_examples=120, deadline=None)
@given(st.integers(0, 2**32 - 1), st.booleans(), st.booleans())
def test_branch_and_bound_with_the_exact_bound_against_every_mapping(seed, twins, start):
    """With the first phase skipped and no relaxed or master solution rounded into a mapping
    (so that the best mapping improves at the leaves only), the search that the exact
    Lagrangian bound's tables decide finds the optimum of all n^m mappings: a node wrongly cut
    would show. ``start``: the column generation starts from multipliers 0 instead of the
    interval bound's, so that its own steps make the multipliers."""
    size, w, a, gold, induced = _tables(seed, twins)
    m, n = w.shape
    built = []

    def spy(s, w, a, allowed, mu, *rest):
        built.append(column_generation(s, w, a, allowed, mu * (not start), *rest))
        return built[-1]

    with pytest.MonkeyPatch.context() as mp:
        mp.setattr(microc_branch, "_PLAIN_SHARE", 0.0)
        mp.setattr(microc_branch, "_CLOCK_EVERY", 1)
        mp.setattr(microc_branch._Search, "_offer", lambda self, j, rounded: None)
        mp.setattr(microc_branch, "root_multipliers", _no_rounding)
        mp.setattr(microc_branch, "column_generation", spy)
        found = branch_and_bound(size, w, a, np.zeros(m, dtype=np.int64), seconds=60)
    top = max(_by_hand(size, w, a, h) for h in itertools.product(range(n), repeat=m))
    assert found.proven and found.value == pytest.approx(top, abs=1e-12)
    assert _by_hand(size, w, a, found.target) == pytest.approx(top, abs=1e-12)
    h = {k: int(c) for k, c in enumerate(found.target)}
    assert brute_score(gold, induced, h)["microc_f"] == pytest.approx(top, abs=1e-12)
    if found.nodes > 1:  # the second phase ran, with the tables
        assert built and built[0][0] is not None
