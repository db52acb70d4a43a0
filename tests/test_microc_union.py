"""The MicroC branch and bound for word types in several clusters (microc_union) against every
mapping of small random cases: its value, its result, every node's bounds, and the integer
program taking over when the search stops (Reichart, Abend and Rappoport 2010, §4.2;
docs/type-level.md; tests/typelevel_bruteforce.py)."""

from __future__ import annotations

import dataclasses
import itertools
from pathlib import Path

import numpy as np
import pytest
from hypothesis import assume, given, settings
from hypothesis import strategies as st
from typelevel_bruteforce import all_mappings, brute_score

from metrics.io import load
from metrics.measures.typelevel import microc_union
from metrics.measures.typelevel.microc_union import (
    union_branch_and_bound,
    union_inputs,
    union_value,
)
from metrics.measures.typelevel.type_entries import topic_entries
from metrics.measures.typelevel.type_scores import TypeEntries, _tables, best_mapping

DEMO = Path(__file__).resolve().parents[1] / "demo_data" / "ud-ewt"


def _sets(seed: int, m_max: int = 7) -> tuple[list[set], list[set]]:
    """Up to 12 types, 2-4 classes, 2-``m_max`` clusters, most types in 2-3 clusters, some
    repeated (merged types), recoded as a campaign's codes would be."""
    rng = np.random.default_rng(seed)
    n, m, n_types = int(rng.integers(2, 5)), int(rng.integers(2, m_max)), int(rng.integers(3, 13))
    gold = [set(rng.choice(n, rng.integers(1, 3), replace=False).tolist())
            for _ in range(n_types)]
    induced = [set(rng.choice(m, rng.integers(1, min(m, 3) + 1), replace=False).tolist())
               for _ in range(n_types)]
    gold += gold[:2]
    induced += induced[:2]
    cmap = {c: i for i, c in enumerate(sorted(set().union(*gold)))}
    kmap = {k: i for i, k in enumerate(sorted(set().union(*induced)))}
    return [{cmap[c] for c in a} for a in gold], [{kmap[k] for k in b} for b in induced]


def _every(gold, induced, e) -> dict[tuple, float]:
    return {tuple(h[k] for k in range(e.n_clusters)): brute_score(gold, induced, h)["microc_f"]
            for h in all_mappings(e.n_clusters, e.n_classes, one_to_one=False)}


@settings(max_examples=60, deadline=None)
@given(st.integers(0, 2**32 - 1))
def test_search_finds_the_best_of_every_mapping(seed):
    """From the worst start (every cluster on class 0), so that a node cut wrongly would show."""
    gold, induced = _sets(seed)
    e = TypeEntries.from_sets(gold, induced)
    assume(e.n_classes >= 2 and max(len(b) for b in induced) >= 2)
    inputs = union_inputs(_tables(e))
    every = _every(gold, induced, e)
    for h, f in itertools.islice(every.items(), 50):
        assert union_value(*inputs, np.array(h)) == pytest.approx(f, abs=1e-12)
    found = union_branch_and_bound(*inputs, np.zeros(e.n_clusters, dtype=np.int64), 60.0)
    top = max(every.values())
    assert found.proven and found.value == pytest.approx(top, abs=1e-12)
    assert every[tuple(found.target.tolist())] == pytest.approx(top, abs=1e-12)


@pytest.mark.parametrize("seed", range(25))
def test_every_node_bound_holds_for_every_completion(seed):
    """The bound of each child of a node (cluster j to class c, the clusters before j placed as
    in a random mapping, in the search's order) is at least F of every completion."""
    gold, induced = _sets(seed, m_max=6)
    e = TypeEntries.from_sets(gold, induced)
    if e.n_classes < 2:
        return
    every = _every(gold, induced, e)
    search = microc_union._Search(*union_inputs(_tables(e)), np.zeros(e.n_clusters, dtype=int),
                                  60.0, lambda: 0.0)
    search.prices.append(search.root_prices())
    rng = np.random.default_rng(seed)
    for j in range(search.m):
        placed = rng.integers(0, e.n_classes, j)
        s0, w0 = np.zeros(search.n), np.zeros(search.n)
        z = np.zeros((search.gb.shape[0], search.n), dtype=bool)
        for i, c in enumerate(placed.tolist()):  # the path to the node, as visit() builds it
            new = search.mult * (search.gb[:, i] & ~z[:, c])
            s0[c] += search.ms[i] + new.sum()
            w0[c] += search.mw[i, c] + new @ search.ga[:, c]
            z[:, c] |= search.gb[:, i]
        bounds = search.children(j, s0, w0, z)
        for h, f in every.items():
            ordered = np.array(h)[search.order]
            if np.array_equal(ordered[:j], placed):
                assert f <= bounds[ordered[j]] + 1e-12, (seed, j, h)


def test_the_program_takes_over_when_the_search_stops(monkeypatch):
    """With no time for the search (and no help from the Lagrangian bound over unions) the
    integer program proves the optimum from its mapping."""
    monkeypatch.setattr(microc_union, "SEARCH_SHARE", 0.0)
    monkeypatch.setattr(microc_union, "cover_search", lambda *args: (np.inf, np.zeros(0), None))
    monkeypatch.setattr(microc_union, "union_columns", lambda *args: np.inf)
    monkeypatch.setattr(microc_union, "_CLOCK_EVERY", 1)
    for seed in range(4):
        gold, induced = _sets(seed)
        e = TypeEntries.from_sets(gold, induced)
        if e.n_classes < 2 or max(len(b) for b in induced) < 2:
            continue
        best = best_mapping(e, "microc", "many_to_one", time_limit=60)
        assert best.exact and best.method == "integer program"
        assert best.value == pytest.approx(max(_every(gold, induced, e).values()), abs=1e-9)


def test_bundled_polysemous_microc_is_exact_by_the_search():
    """ctxkm-17's topics are proven by the search in a fraction of a second each (docs)."""
    camp = load(DEMO)
    run = camp.aligned("ctxkm-17", "penalize").membership
    entries = topic_entries(camp.gold_membership, run, camp.item_type, camp.item_topic,
                            camp.n_topics)
    for te in entries[:2]:
        quick = best_mapping(te.entries, "microc", "many_to_one")
        full = best_mapping(te.entries, "microc", "many_to_one", time_limit=60)
        assert full.exact and full.method == "branch and bound" and full.gap == 0.0
        assert quick.value <= full.value + 1e-12 <= quick.value + quick.gap + 1e-9


def test_a_class_without_types_is_left_out_of_the_search():
    """TypeEntries built by hand may hold a class no type has (|c| = 0, φ undefined at 0): it is
    left out of the search (a cluster sent there scores 0, and sent to a class with types it
    never lowers MicroC), so the optimum is that of the mappings to the other classes, and the
    mapping never uses it (tests/test_typelevel_exact.py checks every measure on such cases)."""
    gold, induced = [{0}, {0, 1}, {1}, {0}], [{0, 1}, {1}, {0, 2}, {2}]
    e = TypeEntries.from_sets(gold, induced)
    wider = dataclasses.replace(e, n_classes=e.n_classes + 1)  # one class more, with no type
    best = best_mapping(wider, "microc", "many_to_one", time_limit=30)
    assert best.exact and best.method == "branch and bound"
    assert best.target.max() < e.n_classes
    top = max(brute_score(gold, induced, h)["microc_f"]
              for h in all_mappings(e.n_clusters, e.n_classes, one_to_one=False))
    assert best.value == pytest.approx(top, abs=1e-9)
