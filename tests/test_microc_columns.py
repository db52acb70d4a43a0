"""The column generation over unions of MicroC (microc_columns): each class's pricing against
every set of clusters, its bound against every mapping at any multipliers, and the search that
uses it against every mapping, identical clusters included (Reichart, Abend and Rappoport 2010,
§4.2; docs/type-level.md; tests/typelevel_bruteforce.py)."""

from __future__ import annotations

import itertools

import numpy as np
import pytest
from hypothesis import assume, given, settings
from hypothesis import strategies as st
from typelevel_bruteforce import check_search_against_every_mapping, microc_every_mapping

from metrics.measures.typelevel import microc_columns, microc_union
from metrics.measures.typelevel.microc_columns import UnionColumns, union_columns
from metrics.measures.typelevel.microc_cover import cover_search
from metrics.measures.typelevel.microc_union import union_inputs
from metrics.measures.typelevel.type_scores import TypeEntries, _tables, best_mapping


def _case(seed: int, m_max: int = 6):
    """Up to 10 types, 2-4 classes, 2-``m_max`` clusters, most types in 2-3 clusters, some
    repeated (merged types), and sometimes a cluster holding exactly the types of another
    (identical clusters); codes recoded as a campaign's."""
    rng = np.random.default_rng(seed)
    n, m, n_types = int(rng.integers(2, 5)), int(rng.integers(2, m_max)), int(rng.integers(3, 11))
    gold = [set(rng.choice(n, rng.integers(1, 3), replace=False).tolist())
            for _ in range(n_types)]
    induced = [set(rng.choice(m, rng.integers(1, min(m, 3) + 1), replace=False).tolist())
               for _ in range(n_types)]
    gold, induced = gold + gold[:1], induced + induced[:1]
    if rng.random() < 0.5:  # cluster m holds exactly the types of cluster 0
        induced = [b | {m} if 0 in b else b for b in induced]
    cmap = {c: i for i, c in enumerate(sorted(set().union(*gold)))}
    kmap = {k: i for i, k in enumerate(sorted(set().union(*induced)))}
    gold = [{cmap[c] for c in a} for a in gold]
    induced = [{kmap[k] for k in b} for b in induced]
    return gold, induced, TypeEntries.from_sets(gold, induced)


def _h(gold, induced, c: int, chosen: set, lam: float) -> float:
    """2 W φ_c(S) - λ S of the clusters ``chosen`` sent to class c, from the type sets: S the
    types one of whose clusters is chosen (each once), W those of them tagged c."""
    size = sum(1 for b in induced if b & chosen)
    shared = sum(1 for a, b in zip(gold, induced) if b & chosen and c in a)
    own = sum(1 for a in gold if c in a)
    return (2.0 * shared * size / (size + own) if size else 0.0) - lam * size


@pytest.mark.parametrize("seed", range(60))
def test_each_class_price_is_the_best_set(seed, monkeypatch):
    """V_c(μ) is the largest h_c(T) - μ(T) over every set of clusters at random multipliers and
    λ (below and above 1/2, where the clusters that never pay are told apart differently),
    its set reaches it, and a search stopped at once still bounds it, from any first price λ'
    of the node bound (any λ' ≥ 0 gives a bound)."""
    gold, induced, e = _case(seed)
    if e.n_classes < 2 or e.n_clusters < 2:
        return
    rng = np.random.default_rng(seed)
    m = e.n_clusters
    for lam in (0.0, float(rng.uniform(0.2, 0.5)), float(rng.uniform(0.5, 0.9))):
        cols = UnionColumns(*union_inputs(_tables(e)), lam)
        mu = rng.normal(0.0, 1.5, m)
        for c in range(e.n_classes):
            best = max(_h(gold, induced, c, set(pick), lam) - mu[list(pick)].sum()
                       for size in range(m + 1) for pick in itertools.combinations(range(m), size))
            value, t = cols.price(c, mu, lambda: False)
            assert value == pytest.approx(best, abs=1e-9), (seed, lam, c)
            chosen = set(np.flatnonzero(t).tolist())
            assert _h(gold, induced, c, chosen, lam) - mu[list(chosen)].sum() == pytest.approx(
                best, abs=1e-9)
            with monkeypatch.context() as mp:
                mp.setattr(microc_columns, "_CLOCK_EVERY", 1)
                assert cols.price(c, mu, lambda: True)[0] >= best - 1e-9
                for root in (0.0, float(rng.uniform(0.05, 3.0)), 10.0):
                    mp.setattr(microc_columns, "_ROOT", root)
                    assert cols.price(c, mu, lambda: True)[0] >= best - 1e-9, root
                    assert cols.price(c, mu, lambda: False)[0] == pytest.approx(best, abs=1e-9)


@pytest.mark.parametrize("seed", range(40))
def test_the_cover_values_bound_each_class_at_any_multipliers(seed):
    """The bound over unions' V_c at its ν and ρ, at other μ and λ, is at least the largest
    h_c(T) - μ(T) over every set of clusters: it may stand for a class's price."""
    gold, induced, e = _case(seed)
    if e.n_classes < 2 or e.n_clusters < 2:
        return
    rng = np.random.default_rng(seed)
    m = e.n_clusters
    inputs = union_inputs(_tables(e))
    steps = iter(range(int(rng.integers(0, 30))))
    _, _, cap = cover_search(inputs, np.zeros(m, dtype=np.int64), 0.3,
                             lambda: next(steps, None) is None)
    for lam in (0.0, float(rng.uniform(0.2, 0.9))):
        mu = rng.normal(0.0, 1.5, m)
        values = cap(mu, lam)
        for c in range(e.n_classes):
            best = max(_h(gold, induced, c, set(pick), lam) - mu[list(pick)].sum()
                       for size in range(m + 1) for pick in itertools.combinations(range(m), size))
            assert values[c] >= best - 1e-9, (seed, lam, c)


def _several_cluster_case(seed: int):
    """A random case with a type in several clusters (hypothesis skips the others): the entries,
    every mapping's F and N*, the search's inputs, a seeded generator, the best F and the worst
    start (every cluster on class 0)."""
    gold, induced, e = _case(seed)
    assume(e.n_classes >= 2 and max(len(b) for b in induced) >= 2)
    every = microc_every_mapping(gold, induced, e)
    top = max(f for f, _ in every.values())
    return (e, every, union_inputs(_tables(e)), np.random.default_rng(seed), top,
            np.zeros(e.n_clusters, dtype=np.int64))


@settings(max_examples=60, deadline=None)
@given(st.integers(0, 2**32 - 1))
def test_the_bound_holds_for_every_mapping_at_any_multipliers(seed):
    """Σ μ + Σ V_c ≥ Σ_c h_c = (F - λ) N* of every mapping at random multipliers and λ, and the
    column generation's bound on F is at least the best F from the worst start (every cluster
    on class 0, λ its score) and from random multipliers."""
    e, every, inputs, rng, top, worst = _several_cluster_case(seed)
    for lam in (0.0, top, top * rng.uniform(0.3, 1.2)):
        cols = UnionColumns(*inputs, lam)
        most = max((f - lam) * size for f, size in every.values())
        assert cols.bound(rng.normal(0.0, 2.0, e.n_clusters), lambda: False)[0] >= most - 1e-9
    start = every[tuple(worst.tolist())][0]
    offered: list[float] = []

    def offer(target):
        offered.append(every[tuple(target.tolist())][0])

    _, _, cap = cover_search(inputs, worst, start, lambda: False)
    for mu in (np.zeros(e.n_clusters), rng.normal(0.0, 2.0, e.n_clusters)):
        assert union_columns(inputs, worst, mu, start, lambda: False, offer) >= top - 1e-9
        assert union_columns(inputs, worst, mu, start, lambda: False, offer, cap) >= top - 1e-9
    assert max(offered, default=0.0) <= top + 1e-12


def test_the_columns_prove_small_cases():
    """From the best mapping the bound reaches its score on most small cases (the test fails
    if it never proves anything, e.g. multipliers stuck at their start)."""
    proven = tried = 0
    for seed in range(40):
        gold, induced, e = _case(seed)
        if e.n_classes < 2 or max(len(b) for b in induced) < 2:
            continue
        every = microc_every_mapping(gold, induced, e)
        h, (top, _) = max(every.items(), key=lambda kv: kv[1][0])
        bound = union_columns(union_inputs(_tables(e)), np.array(h), np.zeros(e.n_clusters),
                              top, lambda: False)
        assert bound >= top - 1e-9
        tried += 1
        proven += bound <= top + 1e-9
    assert proven >= tried // 2


@settings(max_examples=40, deadline=None)
@given(st.integers(0, 2**32 - 1))
def test_the_search_with_the_columns_equals_every_mapping(seed):
    """With no time for the node search, the Lagrangian bound over unions giving nothing (μ = 0)
    and no help from the integer program, a mapping proven by the columns is the best of every
    mapping, and the bound given (value + gap) is never below that best."""
    gold, induced, e = _case(seed)
    assume(e.n_classes >= 2 and max(len(b) for b in induced) >= 2)
    check_search_against_every_mapping(
        gold, induced, e,
        cover_search=lambda inputs, *args: (np.inf, np.zeros(inputs[1].shape[0]), None))


def test_topics_with_many_clusters_leave_the_columns_out(monkeypatch):
    """Beyond COLUMNS_MAX_CLUSTERS clusters the column generation does not run: the bound over
    unions has its longer share and the program the rest, and the mapping is still the best."""
    def never(*args):
        raise AssertionError("the column generation ran")

    monkeypatch.setattr(microc_union, "COLUMNS_MAX_CLUSTERS", 1)
    monkeypatch.setattr(microc_union, "union_columns", never)
    monkeypatch.setattr(microc_union, "SEARCH_ALONE", 0.0)  # the share of such topics
    for seed in range(6):
        gold, induced, e = _case(seed)
        if e.n_classes < 2 or max(len(b) for b in induced) < 2:
            continue
        top = max(f for f, _ in microc_every_mapping(gold, induced, e).values())
        found = best_mapping(e, "microc", "many_to_one", time_limit=30)
        assert found.exact and found.value == pytest.approx(top, abs=1e-9)


def _raising(every: dict, first: float):
    """An ``offer`` that returns the best score offered so far (from ``first``): λ follows."""
    best = [first]

    def offer(target):
        best[0] = max(best[0], every[tuple(target.tolist())][0])
        return best[0]

    return offer


@settings(max_examples=60, deadline=None)
@given(st.integers(0, 2**32 - 1))
def test_the_bound_holds_when_lambda_rises(seed):
    """With ``offer`` returning the best score so far, λ rises during the column generation
    (Dinkelbach's step: the columns' values and the model's rows follow); the bound on F is
    still at least the best of every mapping, from the worst start and random multipliers."""
    e, every, inputs, rng, top, worst = _several_cluster_case(seed)
    start = every[tuple(worst.tolist())][0]
    for mu in (np.zeros(e.n_clusters), rng.normal(0.0, 2.0, e.n_clusters)):
        offer = _raising(every, start)
        assert union_columns(inputs, worst, mu, start, lambda: False, offer) >= top - 1e-9


def test_lambda_rises_in_the_column_generation(monkeypatch):
    """The step that raises λ is taken on small cases from the worst start (so that the test
    above covers it)."""
    rose = 0
    lowered = microc_columns._Model.lower

    def lower(self, val):
        nonlocal rose
        rose += 1
        lowered(self, val)

    monkeypatch.setattr(microc_columns._Model, "lower", lower)
    for seed in range(40):
        gold, induced, e = _case(seed)
        if e.n_classes < 2 or max(len(b) for b in induced) < 2:
            continue
        every = microc_every_mapping(gold, induced, e)
        worst = np.zeros(e.n_clusters, dtype=np.int64)
        first = every[tuple(worst.tolist())][0]
        union_columns(union_inputs(_tables(e)), worst, np.zeros(e.n_clusters), first,
                      lambda: False, _raising(every, first))
    assert rose > 0


def test_the_model_with_new_right_hand_sides_is_solved_as_built_afresh():
    """_Model.lower: the rows' right-hand sides changed in place give the same optimum as a
    model built with them (the dual simplex restarted from the old basis)."""
    rng = np.random.default_rng(3)
    m, n = 6, 3
    sets = (rng.random((30, m)) < 0.4).astype(float)
    cls = rng.integers(0, n, 30)
    val, val2 = rng.normal(1.0, 1.0, 30), rng.normal(0.5, 1.0, 30)
    kept = microc_columns._Model(m, n)
    kept.add(sets, cls, val)
    kept.solve(np.zeros(m), 1.0)
    kept.lower(val2)
    fresh = microc_columns._Model(m, n)
    fresh.add(sets, cls, val2)
    for radius in (0.5, 2.0):
        centre = rng.normal(0.0, 0.5, m)
        assert kept.solve(centre, radius)[0] == pytest.approx(fresh.solve(centre, radius)[0],
                                                              abs=1e-9)


@pytest.mark.parametrize("seed", range(30))
def test_a_price_from_a_given_set_is_the_best_set(seed):
    """Started from any given set (the master's best column), V_c(μ) is still the largest
    h_c(T) - μ(T) over every set of clusters."""
    gold, induced, e = _case(seed)
    if e.n_classes < 2 or e.n_clusters < 2:
        return
    rng = np.random.default_rng(seed)
    m = e.n_clusters
    lam = float(rng.uniform(0.0, 0.9))
    cols = UnionColumns(*union_inputs(_tables(e)), lam)
    mu = rng.normal(0.0, 1.5, m)
    for c in range(e.n_classes):
        best = max(_h(gold, induced, c, set(pick), lam) - mu[list(pick)].sum()
                   for size in range(m + 1) for pick in itertools.combinations(range(m), size))
        given = (rng.random(m) < 0.5).astype(float)
        assert cols.price(c, mu, lambda: False, given)[0] == pytest.approx(best, abs=1e-9)
