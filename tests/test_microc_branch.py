"""The branch and bound of MicroC under M-1 when every word type has one cluster
(metrics/measures/typelevel/microc_branch.py; docs/type-level.md) against every mapping."""

from __future__ import annotations

import itertools

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from typelevel_bruteforce import all_mappings, brute_score

from metrics.measures.typelevel import microc_branch, microc_lagrange, microc_master
from metrics.measures.typelevel.microc_branch import branch_and_bound
from metrics.measures.typelevel.type_scores import TypeEntries, best_mapping


def _tables(seed: int, twins: bool = False):
    """Cluster sizes s_k, shared types w_kc (a type may hold several gold classes) and class
    sizes |c| of up to 7 clusters and 2-4 classes, with the raw sets. With ``twins`` some
    clusters are copies of another (their types' gold entries repeated, as in a run whose
    small clusters each hold one word type of one tag)."""
    rng = np.random.default_rng(seed)
    n, m = int(rng.integers(2, 5)), int(rng.integers(1, 8))
    n_types = int(rng.integers(m, 3 * m + 3))
    cluster = np.concatenate((np.arange(m), rng.integers(0, m, n_types - m)))
    gold = [set(rng.choice(n, rng.integers(1, 3), replace=False).tolist())
            for _ in range(n_types)]
    if twins:  # up to 7 clusters in all, some of them copies
        copies = rng.integers(0, m, int(rng.integers(1, 8 - m))) if m < 7 else []
        for new, k in enumerate(copies, start=m):
            held = np.flatnonzero(cluster == k)
            cluster = np.concatenate((cluster, np.full(held.size, new)))
            gold += [set(gold[i]) for i in held]
        m += len(copies)
    extra = [set(rng.choice(n, rng.integers(1, 3), replace=False).tolist())  # types of no
             for _ in range(int(rng.integers(0, 3)))]                       # cluster
    extra += [{c} for c in set(range(n)) - set().union(*gold, *extra)]  # every class held
    size = np.bincount(cluster, minlength=m).astype(float)
    w = np.zeros((m, n))
    for k, g in zip(cluster, gold, strict=True):
        w[k, list(g)] += 1
    a = np.zeros(n)
    for g in gold + extra:
        a[list(g)] += 1
    return size, w, a, gold + extra, [{int(k)} for k in cluster] + [set() for _ in extra]


def _by_hand(size, w, a, target) -> float:
    """Σ_c 2 W_c S_c / (S_c + |c|) / N*, the united clusters summed in a loop."""
    total = 0.0
    for c in range(a.size):
        s_c = sum(size[k] for k in range(size.size) if target[k] == c)
        w_c = sum(w[k, c] for k in range(size.size) if target[k] == c)
        total += 2 * w_c * s_c / (s_c + a[c]) if s_c else 0.0
    return total / size.sum()


def _no_rounding(s, w, a, allowed, target, best, grid, deadline):
    """microc_lagrange.root_multipliers with its rounded relaxed solutions thrown away."""
    mu, bound, share, _ = microc_lagrange.root_multipliers(s, w, a, allowed, target, best,
                                                           grid, deadline)
    return mu, bound, share, target


@settings(max_examples=120, deadline=None)
@given(st.integers(0, 2**32 - 1), st.booleans(), st.sampled_from(["no", "yes", "alone"]))
def test_branch_and_bound_against_every_mapping(seed, twins, lagrangian):
    """Exact against all n^m mappings, with identical clusters (searched once in each order)
    and with the search's first phase skipped, so that the Lagrangian bound, its order of the
    clusters and its multipliers decide (microc_lagrange, microc_master); ``alone``: no relaxed
    or master solution rounded into a mapping either, so that the best mapping improves at the
    leaves only and a node wrongly cut would show."""
    size, w, a, gold, induced = _tables(seed, twins)
    m, n = w.shape
    start = np.zeros(m, dtype=np.int64)
    with pytest.MonkeyPatch.context() as mp:
        if lagrangian != "no":  # the first phase stops at its first node
            mp.setattr(microc_branch, "_PLAIN_SHARE", 0.0)
            mp.setattr(microc_branch, "_CLOCK_EVERY", 1)
        if lagrangian == "alone":
            mp.setattr(microc_branch._Search, "_offer", lambda self, j, rounded: None)
            mp.setattr(microc_branch, "root_multipliers", _no_rounding)
        found = branch_and_bound(size, w, a, start, seconds=60)
    every = {h: _by_hand(size, w, a, h) for h in itertools.product(range(n), repeat=m)}
    top = max(every.values())
    assert found.proven and found.value == pytest.approx(top, abs=1e-12)
    assert found.bound == found.value
    assert _by_hand(size, w, a, found.target) == pytest.approx(top, abs=1e-12)
    # the same optimum from the sets, read by the independent route of the definitions
    h = {k: int(c) for k, c in enumerate(found.target)}
    assert brute_score(gold, induced, h)["microc_f"] == pytest.approx(top, abs=1e-12)


class _Ticks:
    """A clock that moves one second each time it is read: the search stops after a set
    number of looks (one a node with _CLOCK_EVERY = 1)."""

    def __init__(self) -> None:
        self.now = 0.0

    def monotonic(self) -> float:
        self.now += 1.0
        return self.now


@settings(max_examples=80, deadline=None)
@given(st.integers(0, 2**32 - 1), st.integers(-1, 30), st.booleans())
def test_a_search_stopped_early_gives_a_valid_bound(seed, looks, twins):
    """With no time (the root's bound alone, looks = -1) or stopped after ``looks`` looks at
    the clock (in the first phase, in either search of the Lagrangian multipliers or in the
    second phase), the mapping is the start's or better and the bound holds:
    value <= optimum <= bound."""
    size, w, a, _, _ = _tables(seed, twins)
    m, n = w.shape
    start = np.zeros(m, dtype=np.int64)
    with pytest.MonkeyPatch.context() as mp:
        mp.setattr(microc_branch, "_CLOCK_EVERY", 1)
        clock = _Ticks()
        mp.setattr(microc_branch, "time", clock)
        mp.setattr(microc_lagrange, "time", clock)
        mp.setattr(microc_master, "time", clock)
        found = branch_and_bound(size, w, a, start, seconds=looks + 0.5 if looks >= 0 else 0)
    top = max(_by_hand(size, w, a, h) for h in itertools.product(range(n), repeat=m))
    assert _by_hand(size, w, a, start) - 1e-12 <= found.value <= top + 1e-12
    assert found.value == pytest.approx(_by_hand(size, w, a, found.target), abs=1e-12)
    assert top <= found.bound + 1e-12
    if found.proven:
        assert found.value == pytest.approx(top, abs=1e-12)


@pytest.mark.parametrize("seed", range(6))
def test_best_mapping_uses_it_and_matches_every_mapping(seed):
    """best_mapping with a time limit on a corpus with one cluster per type is exact, and
    its P, R and F are those of an optimal mapping by the definitions."""
    _, _, _, gold, induced = _tables(seed)
    keep = [i for i, b in enumerate(induced) if b]
    gold, induced = [gold[i] for i in keep], [induced[i] for i in keep]
    cmap = {c: i for i, c in enumerate(sorted(set().union(*gold)))}
    gold = [{cmap[c] for c in g} for g in gold]
    e = TypeEntries.from_sets(gold, induced)
    if e.n_classes < 2:
        return
    best = best_mapping(e, "microc", "many_to_one", time_limit=30)
    every = [brute_score(gold, induced, h)
             for h in all_mappings(e.n_clusters, e.n_classes, one_to_one=False)]
    assert best.exact and best.gap == 0.0
    assert best.value == pytest.approx(max(s["microc_f"] for s in every), abs=1e-12)


def _class_best(s, w, a, mu, s0, w0, allowed, c) -> float:
    """max over every set T of the clusters allowed on c of g_c(T) - μ(T), by enumeration."""
    best = -np.inf
    ks = np.flatnonzero(allowed[:, c])
    for r in range(ks.size + 1):
        for t in itertools.combinations(ks.tolist(), r):
            t = list(t)
            big_s, big_w = s0[c] + s[t].sum(), w0[c] + w[t, c].sum()
            g = 2 * big_w * big_s / (big_s + a[c]) if big_s else 0.0
            best = max(best, g - mu[t].sum())
    return best


@settings(max_examples=120, deadline=None)
@given(st.integers(0, 2**32 - 1), st.booleans())
def test_lagrangian_class_values_bound_every_set(seed, coarse):
    """microc_lagrange.class_values is at least the best g_c(T) - μ(T) over every set T of the
    remaining clusters allowed on c (any multipliers, any placed sizes), equal to it when no
    cluster remains; Σ μ + Σ V bounds every mapping's Σ g_c. ``coarse``: size intervals wider
    than one type (as on real topics), each refined once into two."""
    size, w, a, _, _ = _tables(seed)
    with pytest.MonkeyPatch.context() as mp:
        if coarse:
            for name, value in (("GRID_DENSE", 1), ("GRID_GROWTH", 1.7), ("REFINE", 1),
                                ("SPLIT", 2), ("ROUNDS", 1)):
                mp.setattr(microc_lagrange, name, value)
        _check_class_values(seed, size, w, a)


def _check_class_values(seed, size, w, a) -> None:
    m, n = w.shape
    rng = np.random.default_rng(seed)
    mu = rng.normal(0.0, 2.0, m) * rng.integers(0, 2)
    s0 = rng.integers(0, 3, (2, n)).astype(float)
    w0 = np.minimum(rng.integers(0, 3, (2, n)), s0).astype(float)
    allowed = rng.random((m, n)) < 0.8
    grid = microc_lagrange.size_grid(float(size.sum()) + 1)
    values, share = microc_lagrange.class_values(size, w, a, mu, s0, w0, allowed, grid)
    assert share.shape == (2, n, m) and np.all((share >= 0) & (share <= 1))
    for q in range(2):
        for c in range(n):
            assert values[q, c] >= _class_best(size, w, a, mu, s0[q], w0[q], allowed, c) - 1e-9
    none, _ = microc_lagrange.class_values(size[:0], w[:0], a, mu[:0], s0, w0, allowed[:0], grid)
    with np.errstate(invalid="ignore", divide="ignore"):
        alone = np.where(s0 > 0, 2 * w0 * s0 / (s0 + a), 0.0)
    assert np.allclose(none, alone)
    root, _ = microc_lagrange.class_values(size, w, a, mu, np.zeros((1, n)), np.zeros((1, n)),
                                           np.ones((m, n), dtype=bool), grid)
    top = max(_by_hand(size, w, a, h) for h in itertools.product(range(n), repeat=m))
    assert top * size.sum() <= mu.sum() + root.sum() + 1e-9
