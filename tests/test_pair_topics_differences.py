"""The per-topic difference view of a pair (metrics.analyses.per_topic.topic_differences): by
hand on the JAIR example, against a plain-Python sort, and with a lower-is-better metric."""

from __future__ import annotations

import numpy as np
import pandas as pd
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from score_examples import JAIR

from metrics.analyses import pair_topics, topic_differences
from metrics.analyses.per_topic import WINNER_ORDER


def test_hand_worked_jair_example():
    v = pair_topics(JAIR, "a", "b", ["precision", "recall"])
    d = topic_differences(v, ["precision", "recall"])
    # winners (test_analyses): t0, t1 tied; t2-t5 a; t6, t7 b; t8, t9 biased.
    # a block by mean difference: t5 (.15), t2 (.10), then t3 and t4 (.05 each, by name);
    # tied t0, t1; biased t8 (+.1, -.1) and t9 (-.1, +.1) both mean 0, by name; b: t6, t7
    assert list(d["topic"]) == ["t5", "t2", "t3", "t4", "t0", "t1", "t8", "t9", "t6", "t7"]
    assert list(d["winner"]) == ["a"] * 4 + ["tied"] * 2 + ["biased"] * 2 + ["b"] * 2
    assert list(d["position"]) == list(range(10))
    row = d.set_index("topic").loc["t5"]
    assert row["oriented_precision"] == pytest.approx(0.2)
    assert row["oriented_recall"] == pytest.approx(0.1)
    assert row["mean_oriented"] == pytest.approx(0.15)


def test_lower_is_better_metric_is_oriented_and_missing_topics_left_out():
    pt = pd.DataFrame({"topic": ["x", "y", "z"], "delta_err": [0.2, -0.1, np.nan],
                       "delta_acc": [0.1, 0.3, 0.0], "winner": ["biased", "a", "missing"]})
    d = topic_differences(pt, ["err", "acc"], directions={"err": -1, "acc": 1})
    assert list(d["topic"]) == ["y", "x"]  # z has a missing score: not drawn
    assert d.set_index("topic").loc["x", "oriented_err"] == pytest.approx(-0.2)  # a worse
    assert d.set_index("topic").loc["y", "oriented_err"] == pytest.approx(0.1)   # a better


def _reference(pt: pd.DataFrame, metrics, signs) -> list[str]:
    """Plain Python: class rank, then mean oriented difference (largest first), then name."""
    rows = []
    for r in pt.to_dict("records"):
        if r["winner"] == "missing":
            continue
        mean = sum(s * r[f"delta_{m}"] for m, s in zip(metrics, signs)) / len(metrics)
        rows.append((WINNER_ORDER.index(r["winner"]), -round(mean, 12), r["topic"]))
    return [t for _, _, t in sorted(rows)]


@settings(max_examples=80, deadline=None)
@given(st.lists(st.tuples(st.integers(-3, 3), st.integers(-3, 3), st.integers(-3, 3)),
                min_size=1, max_size=25),
       st.sampled_from([(1, 1), (1, -1), (-1, 1)]))
def test_order_matches_a_plain_sort(rows, signs):
    # small integer grids (x 0.1) make ties in the mean frequent, so the name order is exercised
    metrics = ["m0", "m1", "m2"]
    signs3 = (*signs, 1)
    d = np.array(rows, dtype=float) * 0.1
    o = d * np.array(signs3)
    ge_ab, ge_ba = (o >= 0).all(axis=1), (o <= 0).all(axis=1)
    winner = np.select([ge_ab & ge_ba, ge_ab, ge_ba], ["tied", "a", "b"], "biased")
    pt = pd.DataFrame({"topic": [f"q{i:02d}" for i in range(len(rows))], "winner": winner,
                       **{f"delta_{m}": d[:, k] for k, m in enumerate(metrics)}})
    out = topic_differences(pt, metrics, directions=dict(zip(metrics, signs3)))
    assert list(out["topic"]) == _reference(pt, metrics, signs3)
    # the A block is wholly >= 0 and the B block wholly <= 0 on every oriented metric
    cols = [f"oriented_{m}" for m in metrics]
    assert (out.loc[out["winner"] == "a", cols] >= 0).all().all()
    assert (out.loc[out["winner"] == "b", cols] <= 0).all().all()
