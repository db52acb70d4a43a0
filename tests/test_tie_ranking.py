"""Ranking with tie groups (metrics/comparison/tie_ranking.py): hand-worked orders, a UIR cycle, and
on
RepLab 2013 a property test over all pairs against the rule."""

from __future__ import annotations

from pathlib import Path

import numpy as np
import pandas as pd
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from metrics.analyses import compare
from metrics.comparison.tie_ranking import RANKING_COLUMNS, ranking_from_comparison, tie_ranking
from metrics.errors import UnanimityError

FIXTURE = Path(__file__).resolve().parent / "data" / "replab2013_official_rs.csv.gz"


def _pairs(edges: dict[tuple[str, str], tuple[float, str]], systems: str) -> pd.DataFrame:
    """Every ordered pair of ``systems``; (a, b) in ``edges`` -> (UIR(a, b), class(a, b)); the
    reverse pair gets -UIR and the mirrored class; all others UIR 0, class none."""
    rows = {(a, b): (0.0, "none") for a in systems for b in systems if a != b}
    mirror = {"concordant": "worsening", "opposite": "opposite", "none": "none"}
    for (a, b), (u, c) in edges.items():
        rows[(a, b)] = (u, c)
        rows[(b, a)] = (-u, mirror[c])
    return pd.DataFrame([(a, b, u, c) for (a, b), (u, c) in rows.items()],
                        columns=["system_a", "system_b", "uir", "pair_class"])


def _table(r) -> dict[str, tuple[int, int, int]]:
    df = r.to_dataframe()
    return {s: (lo, hi, g) for s, lo, hi, g in
            zip(df["system"], df["rank_low"], df["rank_high"], df["group"])}


def test_chain_and_incomparable_system_by_hand():
    # A -> B -> C robust, D separated from nobody; A above C only through B
    r = tie_ranking(_pairs({("A", "B"): (0.5, "concordant"), ("B", "C"): (0.3, "concordant"),
                            ("A", "C"): (0.1, "concordant")}, "ABCD"))
    # S = 4: rank_low = 1 + #above, rank_high = 4 - #below
    assert _table(r) == {"A": (1, 2, 1), "B": (2, 3, 2), "C": (3, 4, 3), "D": (1, 4, 1)}
    assert r.above[0, 2] and not r.direct[0, 2]
    assert set(map(tuple, r.hasse.to_numpy())) == {("A", "B"), ("B", "C")}
    assert r.cycles == () and r.rule == "uir+concordant"


def test_threshold_is_inclusive_and_class_must_be_concordant():
    edges = {("A", "B"): (0.25, "concordant"), ("C", "D"): (0.9, "opposite"),
             ("E", "F"): (0.2499, "concordant")}
    r = tie_ranking(_pairs(edges, "ABCDEF"))
    t = _table(r)
    assert t["A"] == (1, 5, 1) and t["B"] == (2, 6, 2)
    for s in "CDEF":  # opposite significant changes / UIR below t: not ordered
        assert t[s] == (1, 6, 1)
    # without classes (comparison without tests) the rule is UIR alone: C above D
    no_cls = _pairs(edges, "ABCDEF").assign(pair_class=None)
    r2 = tie_ranking(no_cls)
    assert r2.rule == "uir" and _table(r2)["D"] == (2, 6, 2)


def test_uir_cycle_is_merged_into_one_tie_block():
    # A -> B -> C -> A (UIR is not transitive), and C -> D
    edges = {("A", "B"): (0.4, "concordant"), ("B", "C"): (0.4, "concordant"),
             ("C", "A"): (0.3, "concordant"), ("C", "D"): (0.5, "concordant")}
    r = tie_ranking(_pairs(edges, "ABCD"))
    assert _table(r) == {"A": (1, 3, 1), "B": (1, 3, 1), "C": (1, 3, 1), "D": (4, 4, 2)}
    assert r.cycles == (("A", "B", "C"),)
    assert not r.above[:3, :3].any()
    # every member of the block covers D in the Hasse diagram
    assert set(map(tuple, r.hasse.to_numpy())) == {("A", "D"), ("B", "D"), ("C", "D")}


def test_csv_frame_and_latex():
    r = tie_ranking(_pairs({("A", "B"): (0.5, "concordant")}, "ABC"), score=[0.2, 0.9, 0.5])
    csv = r.to_csv_frame()
    assert tuple(csv.columns) == RANKING_COLUMNS
    # group 1 listed by score: C (0.5) before A (0.2)
    assert csv["system"].tolist() == ["C", "A", "B"]
    tex = r.to_latex()
    assert r"\toprule" in tex and "1--2" in tex and "2--3" in tex


def test_bad_threshold_and_unknown_system():
    p = _pairs({}, "AB")
    with pytest.raises(UnanimityError, match="threshold"):
        tie_ranking(p, threshold=float("nan"))
    with pytest.raises(UnanimityError, match="outside"):
        tie_ranking(p, systems=["A"])


def test_threshold_zero_without_classes_ties_both_ways():
    # UIR(A, B) = UIR(B, A) = 0 is ">= 0" both ways: a 2-cycle, merged into one tied block;
    # C is robustly above both
    p = _pairs({("C", "A"): (0.5, "concordant"), ("C", "B"): (0.5, "concordant")}, "ABC")
    r = tie_ranking(p.assign(pair_class=None), threshold=0.0)
    assert r.cycles == (("A", "B"),)
    assert _table(r) == {"A": (2, 3, 2), "B": (2, 3, 2), "C": (1, 1, 1)}
    assert _table(tie_ranking(p, threshold=1.5)) == {s: (1, 3, 1) for s in "ABC"}


def _reach(direct: np.ndarray) -> np.ndarray:
    """Reachability by breadth-first search from every node (independent of the matrix route)."""
    S = direct.shape[0]
    out = np.zeros_like(direct)
    for s in range(S):
        seen, todo = set(), [s]
        while todo:
            v = todo.pop()
            for w in np.flatnonzero(direct[v]):
                if w not in seen:
                    seen.add(w)
                    todo.append(w)
        out[s, list(seen)] = True
    return out


def _check_against_rule(r, pairs: pd.DataFrame, threshold: float, use_class: bool) -> None:
    S = len(r.systems)
    idx = {s: i for i, s in enumerate(r.systems)}
    direct = np.zeros((S, S), dtype=bool)
    for a, b, u, c in pairs[["system_a", "system_b", "uir", "pair_class"]].itertuples(index=False):
        if u >= threshold and (c == "concordant" or not use_class):
            direct[idx[a], idx[b]] = True
    assert np.array_equal(direct, r.direct)
    reach = _reach(direct)
    mutual = reach & reach.T
    # a above b exactly where a chain of robust improvements leads from a to b and not back
    assert np.array_equal(r.above, reach & ~reach.T)
    # same block exactly where both reach each other
    same = r.block[:, None] == r.block[None, :]
    assert np.array_equal(same & ~np.eye(S, dtype=bool), mutual & ~np.eye(S, dtype=bool))
    # rank intervals: counts of systems above / below; groups strictly increase down the order
    assert np.array_equal(r.rank_low, 1 + r.above.sum(axis=0))
    assert np.array_equal(r.rank_high, S - r.above.sum(axis=1))
    i, j = np.nonzero(r.above)
    assert (r.group[i] < r.group[j]).all()
    assert (r.rank_low <= r.rank_high).all()
    # every non-top system has a system right above it in the previous group
    for s in np.flatnonzero(r.group > 1):
        assert (r.above[:, s] & (r.group == r.group[s] - 1)).any()
    # Hasse diagram: a above b with no system between them
    between = (r.above.astype(np.int64) @ r.above.astype(np.int64)) > 0
    cover = {(r.systems[i], r.systems[j]) for i, j in zip(*np.nonzero(r.above & ~between),
                                                          strict=True)}
    assert set(map(tuple, r.hasse.to_numpy())) == cover


@pytest.fixture(scope="module")
def replab_result():
    table = pd.read_csv(FIXTURE, dtype={"system": str, "topic": str, "metric": str})
    return compare(table, "reliability", "sensitivity")


@pytest.mark.parametrize("threshold", [0.1, 0.25, 0.5])
def test_replab_order_follows_the_rule_for_every_pair(replab_result, threshold):
    r = ranking_from_comparison(replab_result, threshold=threshold)
    assert r.rule == "uir+concordant"
    _check_against_rule(r, replab_result.pairs, threshold, use_class=True)
    assert len(r.systems) == 35


def test_replab_ranking_facts(replab_result):
    r = ranking_from_comparison(replab_result)
    df = r.to_dataframe()
    # the campaign's best system by F is in the top group; nothing is above it
    best = replab_result.systems.sort_values("f_alpha", ascending=False)["system"].iloc[0]
    assert df.set_index("system").loc[best, "rank_low"] == 1
    # fewer groups than systems: the order is partial
    assert df["group"].max() < len(df)


@settings(max_examples=60, deadline=None)
@given(st.integers(3, 9).flatmap(lambda n: st.tuples(
    st.just(n),
    st.lists(st.floats(-1, 1, allow_nan=False), min_size=n * n, max_size=n * n),
    st.lists(st.sampled_from(["concordant", "opposite", "none"]), min_size=n * n, max_size=n * n),
    st.sampled_from([0.1, 0.25, 0.6]))))
def test_random_relations_follow_the_rule(case):
    # random (not antisymmetric) UIR tables: cycles of any length, 2-cycles included
    n, us, cls, thr = case
    names = [f"s{i}" for i in range(n)]
    rows = [(names[a], names[b], us[a * n + b], cls[a * n + b])
            for a in range(n) for b in range(n) if a != b]
    pairs = pd.DataFrame(rows, columns=["system_a", "system_b", "uir", "pair_class"])
    r = tie_ranking(pairs, threshold=thr)
    _check_against_rule(r, pairs, thr, use_class=True)


@pytest.mark.parametrize(("n", "density"), [(17, 0.2), (130, 0.02), (130, 0.3)])
def test_larger_random_relations_follow_the_rule(n, density):
    # relations over several bytes of packed rows: long chains, cycles, isolated systems
    rng = np.random.default_rng(n)
    names = [f"s{i}" for i in range(n)]
    a, b = np.nonzero(~np.eye(n, dtype=bool))
    u = np.where(rng.random(a.size) < density, 0.5, 0.0)
    pairs = pd.DataFrame({"system_a": np.asarray(names)[a], "system_b": np.asarray(names)[b],
                          "uir": u, "pair_class": "concordant"})
    r = tie_ranking(pairs)
    _check_against_rule(r, pairs, 0.25, use_class=True)
