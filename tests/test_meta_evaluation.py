"""Robustness and Strictness (R&S paper §4.1; docs/meta-evaluation.md): a hand computation on a
small table, and an independent route straight from the definitions (loops over topic pairs,
systems and references, ``scipy.stats.spearmanr``) against the vectorised one."""

from __future__ import annotations

import itertools
import math
import warnings

import numpy as np
import pandas as pd
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from scipy.stats import spearmanr

from metrics.meta.meta_evaluation import meta_evaluate, robustness, scaled_ranks, strictness

SYSTEMS = ["A", "B", "C", "D"]
TOPICS = ["t1", "t2", "t3"]
# measure -> topic -> scores of A, B, C, D. r2 is lower-is-better.
HAND = {
    "m": {"t1": [4, 3, 2, 1], "t2": [3, 4, 1, 2], "t3": [1, 2, 3, 4]},
    "r1": {"t1": [3, 4, 2, 1], "t2": [2, 2, 1, 3], "t3": [1, 2, 3, 4]},
    "r2": {"t1": [1, 2, 3, 4], "t2": [4, 1, 2, 3], "t3": [1, 1, 1, 1]},
}


def _table(data: dict) -> pd.DataFrame:
    rows = [(s, t, m, float(v)) for m, per in data.items() for t, vals in per.items()
            for s, v in zip(SYSTEMS, vals)]
    return pd.DataFrame(rows, columns=["system", "topic", "metric", "value"])


@pytest.fixture(scope="module")
def hand():
    return meta_evaluate(_table(HAND), ["m"], ["r1", "r2"], directions={"r2": -1})


def test_robustness_by_hand(hand):
    # ranks of m (1 = worst): t1 (4,3,2,1), t2 (3,4,1,2), t3 (1,2,3,4);
    # rho = 1 - 6 sum d^2 / (n (n^2 - 1)) with n = 4:
    # (t1,t2): sum d^2 = 4 -> 0.6; (t1,t3): 20 -> -1; (t2,t3): 16 -> -0.6
    assert hand["m"].robustness == pytest.approx((0.6 - 1.0 - 0.6) / 3)
    assert hand["m"].topic_pairs == 3 and hand["m"].undefined_pairs == 0
    # r2 ties every system on t3: only (t1, t2) is defined; oriented ranks (4,3,2,1) vs
    # (1,4,3,2): sum d^2 = 12 -> 1 - 72/60 = -0.2
    assert hand["r2"].robustness == pytest.approx(-0.2)
    assert (hand["r2"].topic_pairs, hand["r2"].undefined_pairs) == (1, 2)


def test_strictness_by_hand(hand):
    # scaled ranks of m: t1 A=1 B=2/3 C=1/3 D=0; t2 A=2/3 B=1 C=0 D=1/3; t3 A=0 ... D=1.
    # r1: t1 A=2/3 B=1 C=1/3 D=0 -> max diff 1/3 (A); t2 ties A=B=0.5, C=0, D=1 -> 0.5 (B);
    # t3 equal -> 0.  r2 (lower is better): t1 equal to m -> 0; t2 B=1 C=2/3 D=1/3 A=0 ->
    # 2/3 (A); t3 all tied at 0.5 -> 0.5 (D).  max = 2/3 on t2, system A, against r2.
    m = hand["m"]
    assert m.strictness == pytest.approx(-2 / 3)
    assert (m.worst_topic, m.worst_system, m.worst_reference) == ("t2", "A", "r2")
    per = hand.per_topic[hand.per_topic["metric"] == "m"]
    assert per["strictness"].to_numpy() == pytest.approx([-1 / 3, -2 / 3, -0.5])
    # the references against each other: r1 vs r2 peaks at D on t2 (1 - 1/3), r2 vs r1 at C
    assert hand["r1"].strictness == pytest.approx(-2 / 3)
    assert (hand["r1"].worst_topic, hand["r1"].worst_system) == ("t2", "D")
    assert hand["r2"].strictness == pytest.approx(-2 / 3)
    assert (hand["r2"].worst_topic, hand["r2"].worst_system) == ("t2", "C")


def test_strictness_against_one_reference_by_hand():
    res = meta_evaluate(_table(HAND), ["m"], ["r1"])
    assert res["m"].strictness == pytest.approx(-0.5)  # t2, B: 1 - 0.5
    assert (res["m"].worst_topic, res["m"].worst_system) == ("t2", "B")
    assert math.isnan(res["r1"].strictness)  # no other reference to compare with


def test_result_table_and_ranks(hand):
    df = hand.to_dataframe()
    assert list(df.columns) == ["metric", "robustness", "strictness"]
    assert list(df["metric"]) == ["m", "r1", "r2"]
    ranks = hand.ranks
    t2 = ranks[(ranks["metric"] == "r1") & (ranks["topic"] == "t2")]
    assert t2["scaled_rank"].to_numpy() == pytest.approx([0.5, 0.5, 0.0, 1.0])
    assert list(hand.per_topic.columns) == ["metric", "topic", "systems", "robustness",
                                            "strictness"]


def test_missing_scores_rank_over_the_systems_scored():
    data = {k: {t: list(v) for t, v in per.items()} for k, per in HAND.items()}
    table = _table(data)
    table = table[~((table["system"] == "D") & (table["topic"] == "t1"))]
    res = meta_evaluate(table, ["m"], ["r1"])
    # (t1, t2) over A, B, C: ranks (3,2,1) vs (2,3,1): rho = 0.5; (t1,t3): (3,2,1) vs (1,2,3):
    # -1; (t2,t3) over all four: -0.6
    assert res["m"].robustness == pytest.approx((0.5 - 1.0 - 0.6) / 3)


def test_routes_agree_on_scattered_missing_scores():
    rng = np.random.default_rng(3)
    v = np.round(rng.normal(size=(12, 1)) + rng.normal(size=(12, 60)), 1)
    v[rng.random(v.shape) < 0.15] = np.nan  # many distinct sets of scored systems: masked route
    a, b = robustness(v, "patterns"), robustness(v, "masked")
    assert a.value == pytest.approx(b.value, abs=1e-12) and a.pairs == b.pairs
    assert np.allclose(a.per_topic, b.per_topic, equal_nan=True)
    assert robustness(v).value == pytest.approx(a.value, abs=1e-12)
    with pytest.raises(ValueError, match="unknown method"):
        robustness(v, "nope")


def test_unknown_metric_is_an_error():
    with pytest.raises(ValueError, match="nope"):
        meta_evaluate(_table(HAND), ["nope"], ["r1"])


# ---- independent route, straight from the definitions ------------------------------------

def _brute_robustness(v: np.ndarray) -> tuple[float, int]:
    vals = []
    for i, j in itertools.combinations(range(v.shape[1]), 2):
        both = ~np.isnan(v[:, i]) & ~np.isnan(v[:, j])
        if both.sum() < 2:
            continue
        with warnings.catch_warnings():
            warnings.simplefilter("ignore")
            rho = spearmanr(v[both, i], v[both, j]).statistic
        if not np.isnan(rho):
            vals.append(rho)
    return (float(np.mean(vals)) if vals else float("nan")), len(vals)


def _brute_rank(x: np.ndarray, o: int, among: list[int]) -> float:
    worse = sum(1 for p in among if x[p] < x[o])
    ties = sum(1 for p in among if x[p] == x[o] and p != o)
    return (worse + ties / 2.0) / (len(among) - 1)  # (average rank - 1) / (n - 1)


def _brute_strictness(v: np.ndarray, refs: list[np.ndarray]) -> float:
    best = -np.inf
    for ref in refs:
        for t in range(v.shape[1]):
            among = [o for o in range(v.shape[0])
                     if not np.isnan(v[o, t]) and not np.isnan(ref[o, t])]
            if len(among) < 2:
                continue
            for o in among:
                best = max(best, _brute_rank(v[:, t], o, among) - _brute_rank(ref[:, t], o, among))
    return -best if np.isfinite(best) else float("nan")


scores = st.integers(0, 4).map(float) | st.just(float("nan"))


@st.composite
def cubes(draw):
    s = draw(st.integers(2, 6))
    t = draw(st.integers(2, 6))
    k = draw(st.integers(1, 3))
    flat = draw(st.lists(scores, min_size=s * t * (k + 1), max_size=s * t * (k + 1)))
    return np.asarray(flat).reshape(s, t, k + 1)


@settings(max_examples=150, deadline=None)
@given(cubes())
def test_fast_equals_brute_force(cube):
    v, refs = cube[:, :, 0], cube[:, :, 1:]
    want, pairs = _brute_robustness(v)
    for method in ("patterns", "masked"):  # topics grouped by scored systems; masked ranks
        rob = robustness(v, method)
        assert rob.pairs == pairs, method
        assert rob.pairs + rob.undefined_pairs == v.shape[1] * (v.shape[1] - 1) // 2
        if math.isnan(want):
            assert math.isnan(rob.value)
        else:
            assert rob.value == pytest.approx(want, abs=1e-12), method
    want = _brute_strictness(v, [refs[:, :, j] for j in range(refs.shape[2])])
    ranked = np.stack([scaled_ranks(refs[:, :, j]) for j in range(refs.shape[2])], axis=2)
    for got in (strictness(v, refs).value,  # and with the ranks over each measure's systems given
                strictness(v, refs, ranks=(scaled_ranks(v), ranked)).value):
        if math.isnan(want):
            assert math.isnan(got)
        else:
            assert got == pytest.approx(want, abs=1e-12)
            assert -1.0 <= got <= 0.0


@settings(max_examples=60, deadline=None)
@given(cubes())
def test_scaled_ranks_match_the_definition(cube):
    v = cube[:, :, 0]
    got = scaled_ranks(v)
    for t in range(v.shape[1]):
        among = [o for o in range(v.shape[0]) if not np.isnan(v[o, t])]
        for o in range(v.shape[0]):
            if o in among and len(among) >= 2:
                assert got[o, t] == pytest.approx(_brute_rank(v[:, t], o, among))
            else:
                assert np.isnan(got[o, t])


@settings(max_examples=60, deadline=None)
@given(cubes())
def test_direction_and_identity(cube):
    v, refs = cube[:, :, 0], cube[:, :, 1:]
    rows = []
    for s in range(v.shape[0]):
        for t in range(v.shape[1]):
            rows.append((f"s{s}", f"t{t}", "m", v[s, t]))
            rows.append((f"s{s}", f"t{t}", "neg", -v[s, t]))  # m, lower-is-better
            rows.append((f"s{s}", f"t{t}", "copy", v[s, t]))
            rows.append((f"s{s}", f"t{t}", "ref", refs[s, t, 0]))
    table = pd.DataFrame(rows, columns=["system", "topic", "metric", "value"])
    res = meta_evaluate(table, ["m", "neg"], ["ref"], directions={"neg": -1})
    a, b = res["m"], res["neg"]
    assert (math.isnan(a.strictness) and math.isnan(b.strictness)) or \
        a.strictness == pytest.approx(b.strictness)
    assert (math.isnan(a.robustness) and math.isnan(b.robustness)) or \
        a.robustness == pytest.approx(b.robustness)
    # against an identical reference a measure is perfectly strict wherever it ranks anything
    same = meta_evaluate(table, ["m"], ["copy"])["m"].strictness
    assert math.isnan(same) or same == 0.0
