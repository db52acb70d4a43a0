"""The Lagrangian bound of MicroC that counts a word type once per class it reaches
(microc_cover) against every mapping of small random cases, types in several clusters and
identical clusters included, and the search that uses it against every mapping (Reichart,
Abend and Rappoport 2010, §4.2; docs/type-level.md; tests/typelevel_bruteforce.py)."""

from __future__ import annotations

import itertools

import numpy as np
import pytest
from hypothesis import assume, given, settings
from hypothesis import strategies as st
from typelevel_bruteforce import check_search_against_every_mapping, microc_every_mapping

from metrics.measures.typelevel import microc_cover
from metrics.measures.typelevel.microc_cover import CoverBound, cover_bound
from metrics.measures.typelevel.microc_prices import phi
from metrics.measures.typelevel.microc_union import union_inputs
from metrics.measures.typelevel.type_scores import TypeEntries, _tables


def _sets(seed: int, m_max: int = 6) -> tuple[list[set], list[set]]:
    """Up to 10 types, 2-4 classes, 2-``m_max`` clusters, most types in 2-3 clusters, and
    sometimes a cluster that holds exactly the types of another (identical clusters)."""
    rng = np.random.default_rng(seed)
    n, m, n_types = int(rng.integers(2, 5)), int(rng.integers(2, m_max)), int(rng.integers(3, 11))
    gold = [set(rng.choice(n, rng.integers(1, 3), replace=False).tolist())
            for _ in range(n_types)]
    induced = [set(rng.choice(m, rng.integers(1, min(m, 3) + 1), replace=False).tolist())
               for _ in range(n_types)]
    if rng.random() < 0.5:  # cluster m holds exactly the types of cluster 0
        induced = [b | {m} if 0 in b else b for b in induced]
    cmap = {c: i for i, c in enumerate(sorted(set().union(*gold)))}
    kmap = {k: i for i, k in enumerate(sorted(set().union(*induced)))}
    return [{cmap[c] for c in a} for a in gold], [{kmap[k] for k in b} for b in induced]


def _case(seed):
    gold, induced = _sets(seed)
    e = TypeEntries.from_sets(gold, induced)
    return gold, induced, e


@pytest.fixture(autouse=True, params=["fine", "coarse", "coarse, split once"])
def grid(request, monkeypatch):
    """The default grid (every size its own interval on these small cases) and a coarse one
    (intervals of several sizes, so that φ is bounded over each), its best intervals split
    or not."""
    if request.param != "fine":
        monkeypatch.setattr(microc_cover, "GRID_DENSE", 2)
        monkeypatch.setattr(microc_cover, "GRID_GROWTH", 1.6)
        monkeypatch.setattr(microc_cover, "SPLIT", 2)
        monkeypatch.setattr(microc_cover, "REFINE", 1)
        monkeypatch.setattr(microc_cover, "ROUNDS", 0 if request.param == "coarse" else 1)
    return request.param


@settings(max_examples=80, deadline=None)
@given(st.integers(0, 2**32 - 1))
def test_the_bound_holds_for_every_mapping_at_any_multipliers(seed):
    """Σ μ + Σ V_c ≥ Σ_c (g_c - λ S_c) = (F - λ) N* of every mapping, for random multipliers
    (μ free, ν and ρ ≥ 0) and λ, and at the multipliers of the subgradient steps."""
    gold, induced, e = _case(seed)
    assume(e.n_classes >= 2 and max(len(b) for b in induced) >= 2)
    every = microc_every_mapping(gold, induced, e)
    cover = CoverBound(*union_inputs(_tables(e)))
    rng = np.random.default_rng(seed)
    top = max(f for f, _ in every.values())
    for lam in (0.0, top, top * rng.uniform(0.3, 1.2)):
        worst = max((f - lam) * size for f, size in every.values())
        multipliers = [cover.start(np.zeros(cover.m, dtype=np.int64), lam),
                       (rng.normal(0.0, 2.0, cover.m),
                        np.abs(rng.normal(0.0, 2.0, (cover.pg.size, cover.n))),
                        np.abs(rng.normal(0.0, 2.0, (cover.gb.shape[0], cover.n))))]
        for mu, nu, rho in multipliers:
            assert cover.bound(mu, nu, rho, lam)[0] >= worst - 1e-9, (seed, lam)
        found = cover.descend(*multipliers[0], lam, 30, lambda: False)
        assert found[0] >= worst - 1e-9
    assert cover_bound(union_inputs(_tables(e)), np.zeros(e.n_clusters, dtype=np.int64),
                       0.0, lambda: False) >= top - 1e-12


@pytest.mark.parametrize("seed", range(60))
def test_each_class_value_bounds_every_set_of_items(seed):
    """V_c at random costs and class states is at least 2 (W⁰ + W) φ_c(S⁰ + S) - λ S - cost of
    every set of the available items (clusters and several-cluster types, each once)."""
    gold, induced, e = _case(seed)
    if e.n_classes < 2:
        return
    cover = CoverBound(*union_inputs(_tables(e)))
    rng = np.random.default_rng(seed)
    r = cover.s.size
    cost = rng.normal(0.0, 0.2, (cover.n, r))  # small: the sets' own values decide
    lam = float(rng.uniform(0.0, 0.8))
    s0, w0 = rng.integers(0, 4, cover.n).astype(float), np.zeros(cover.n)
    w0 = np.minimum(rng.integers(0, 3, cover.n), s0).astype(float)
    avail = rng.random(r) < 0.8
    values, _ = cover.values(cost, lam, s0, w0, avail)
    items = np.flatnonzero(avail)
    for c in range(cover.n):
        for size in range(items.size + 1):
            for pick in itertools.combinations(items.tolist(), size):
                big_s = s0[c] + cover.s[list(pick)].sum()
                big_w = w0[c] + cover.w[list(pick), c].sum()
                own = 2.0 * big_w * phi(big_s, cover.a[c]) if big_s else 0.0
                worth = own - lam * cover.s[list(pick)].sum() - cost[c, list(pick)].sum()
                assert values[c] >= worth - 1e-9, (seed, c, pick)


@settings(max_examples=40, deadline=None)
@given(st.integers(0, 2**32 - 1))
def test_the_search_with_the_bound_equals_every_mapping(seed):
    """With no time for the node search and no help from the integer program, a mapping
    proven by the bound over unions is the best of every mapping, and the bound given
    (value + gap) is never below that best."""
    gold, induced, e = _case(seed)
    assume(e.n_classes >= 2 and max(len(b) for b in induced) >= 2)
    check_search_against_every_mapping(gold, induced, e)


def test_the_bound_proves_small_cases(grid):
    """On small cases the bound reaches the best score often (the test fails if it never
    proves anything, e.g. a bound stuck at its start); on the default grid only, the coarse
    ones being looser by design."""
    if grid != "fine":
        pytest.skip("a coarse grid is looser")
    proven = 0
    for seed in range(40):
        gold, induced, e = _case(seed)
        if e.n_classes < 2 or max(len(b) for b in induced) < 2:
            continue
        every = microc_every_mapping(gold, induced, e)
        h, (top, _) = max(every.items(), key=lambda kv: kv[1][0])
        bound = cover_bound(union_inputs(_tables(e)), np.array(h), top, lambda: False)
        assert bound >= top - 1e-12
        proven += bound <= top + 1e-9
    assert proven >= 10
