"""The column generation of the exact Lagrangian bound's multipliers
(metrics/measures/typelevel/microc_master.py; docs/type-level.md) against the master over every
set of clusters and the Lagrangian bound computed by enumeration."""

from __future__ import annotations

import itertools
from types import SimpleNamespace

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from scipy.optimize import linprog
from test_microc_branch import _by_hand, _class_best, _tables

from metrics.measures.typelevel import microc_master
from metrics.measures.typelevel.microc_master import column_generation


def _every_set_master(size, w, a, allowed) -> float:
    """The dual's optimum min_μ Σ μ + Σ_c V_c(μ), as the master over every allowed set of
    every class (λ ≥ 0, each cluster covered once, each class's weights summing to 1)."""
    m, n = w.shape
    cols, val, cls = [], [], []
    for c in range(n):
        ks = np.flatnonzero(allowed[:, c]).tolist()
        for r in range(len(ks) + 1):
            for t in itertools.combinations(ks, r):
                x = np.zeros(m)
                x[list(t)] = 1.0
                big_s, big_w = x @ size, x @ w[:, c]
                cols.append(x)
                val.append(2 * big_w * big_s / (big_s + a[c]) if big_s else 0.0)
                cls.append(c)
    eq = np.vstack((np.array(cols).T, np.eye(n)[:, cls]))
    res = linprog(-np.array(val), A_eq=eq, b_eq=np.ones(m + n), bounds=(0, None),
                  method="highs")
    assert res.status == 0
    return -float(res.fun)


def _lagrangian(size, w, a, allowed, mu) -> float:
    """Σ μ + Σ_c V_c(μ), V_c by enumeration of the sets."""
    n = w.shape[1]
    z = np.zeros(n)
    return float(mu.sum() + sum(_class_best(size, w, a, mu, z, z, allowed, c)
                                for c in range(n)))


@settings(max_examples=60, deadline=None)
@given(st.integers(0, 2**32 - 1), st.sampled_from([0.0, 0.5, 1.0]))
def test_the_master_reaches_the_least_lagrangian_bound(seed, warm):
    """Left to converge (the best score 0, below every bound, so that it does not stop
    there), the bound returned is min over μ of the Lagrangian bound, the master over every
    set (LP duality), within 1e-6; it is the Lagrangian bound of the returned tables' multipliers,
    computed by enumeration. ``warm``: the share of subgradient steps before the master."""
    size, w, a, _, _ = _tables(seed)
    m, n = w.shape
    rng = np.random.default_rng(seed)
    allowed = rng.random((m, n)) < 0.8
    allowed[np.arange(m), rng.integers(0, n, m)] = True
    target = np.argmax(allowed, axis=1)
    with pytest.MonkeyPatch.context() as mp:
        mp.setattr(microc_master, "_WARM", warm)
        tables, bound, share = column_generation(
            size, w, a, allowed, rng.normal(0.0, 2.0, m), target, lambda _: 0.0, np.inf)
    best = _every_set_master(size, w, a, allowed)
    assert bound == pytest.approx(best, abs=1e-6)
    assert bound == pytest.approx(_lagrangian(size, w, a, allowed, tables.mu), abs=1e-9)
    assert share.shape == (n, m) and np.all(share >= -1e-9)


@settings(max_examples=80, deadline=None)
@given(st.integers(0, 2**32 - 1), st.integers(0, 12))
def test_the_bound_holds_wherever_the_search_stops(seed, looks):
    """Stopped after any number of looks at the clock, the bound is the Lagrangian bound of
    the returned multipliers and at least Σ_c g_c of every mapping; each mapping handed to
    ``keep`` names a class or -1 for every cluster."""
    size, w, a, _, _ = _tables(seed)
    m, n = w.shape
    rng = np.random.default_rng(seed)
    allowed = np.ones((m, n), dtype=bool)
    offered = []

    def keep(mapping):
        offered.append(mapping)
        return -1e9

    clock = iter(range(10**6))
    with pytest.MonkeyPatch.context() as mp:
        mp.setattr(microc_master, "time", SimpleNamespace(monotonic=lambda: float(next(clock))))
        tables, bound, _ = column_generation(size, w, a, allowed, rng.normal(0.0, 2.0, m),
                                             np.zeros(m, dtype=np.int64), keep, looks + 0.5)
    top = max(_by_hand(size, w, a, h) for h in itertools.product(range(n), repeat=m))
    assert top * size.sum() <= bound + 1e-9
    assert bound == pytest.approx(_lagrangian(size, w, a, allowed, tables.mu), abs=1e-9)
    assert all(x.shape == (m,) and np.all((x >= -1) & (x < n)) for x in offered)


def _from_scratch(cols, center, radius) -> float:
    """The cutting-plane model's least value in the box, a linear program solved anew."""
    m, n = cols.w.shape
    cut = np.hstack((np.array(cols.sets), np.eye(n)[cols.cls]))
    bounds = [(c - radius, c + radius) for c in center] + [(None, None)] * n
    res = linprog(np.ones(m + n), A_ub=-cut, b_ub=-np.array(cols.val), bounds=bounds,
                  method="highs")
    assert res.status == 0
    return float(res.fun)


@settings(max_examples=60, deadline=None)
@given(st.integers(0, 2**32 - 1), st.sampled_from([0.01, 0.3, 3.0]))
def test_the_warm_started_model_matches_each_step_from_scratch(seed, radius):
    """Columns added and the box moved and resized between the steps of one model (warm
    started from the last basis): each step's least value is the linear program's solved from
    scratch (within 1e-7), μ lies in the box, (μ, π) meets every cut, and the duals λ ≥ 0 are
    a convex combination of each class's columns (π is free) whose value is the optimum's."""
    size, w, a, _, _ = _tables(seed)
    m, n = w.shape
    rng = np.random.default_rng(seed)
    cols = microc_master._Columns(size, w, a)
    center = rng.normal(1.0, 1.0, m)
    for step in range(8):
        for c in range(n):
            for _ in range(int(rng.integers(0 if step else 1, 6))):
                cols.add(c, (rng.random(m) < 0.5).astype(float))
        size_now = radius * float(rng.choice([0.5, 1.0, 2.0]))
        model, mu, pi, lam = cols.solve(center, size_now)
        assert model == pytest.approx(_from_scratch(cols, center, size_now), abs=1e-7)
        assert np.all(np.abs(mu - center) <= size_now + 1e-9)
        sets, cls, val = np.array(cols.sets), np.array(cols.cls), np.array(cols.val)
        assert np.all(pi[cls] + sets @ mu >= val - 1e-7)
        assert lam.shape == (val.size,) and np.all(lam >= -1e-9)
        assert np.bincount(cls, lam, n) == pytest.approx(np.ones(n), abs=1e-7)
        cover = lam @ sets  # each cluster covered once where μ is inside the box
        inside = np.abs(np.abs(mu - center) - size_now) > 1e-7
        assert cover[inside] == pytest.approx(np.ones(int(inside.sum())), abs=1e-7)
        center = center + rng.normal(0.0, size_now, m) * (step % 2)
