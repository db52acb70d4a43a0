"""evaluate(): the score table's shape and order, policies, subsets, drill-down, RepLab speed."""

from __future__ import annotations

from pathlib import Path

import bruteforce as bf
import numpy as np
import pandas as pd
import pytest

from metrics.errors import CampaignAlignmentError, UnanimityError
from metrics.io import load
from metrics.measures.registry import available_metrics
from metrics.measures.scoring import contingency_table, evaluate

ROOT = Path(__file__).resolve().parents[1]
ALL = [m.name for m in available_metrics()]


@pytest.fixture(scope="module")
def replab():
    return load(ROOT / "demo_data" / "replab2013")


@pytest.fixture()
def toy():
    # two topics; item 2 of topic 0 missing
    return bf.toy_campaign([
        ([{"a"}, {"a"}, {"b"}, {"b"}], [{"x"}, {"x"}, {"y"}, {"y"}], {2}),
        ([{"a"}, {"b"}, {"b"}], [{"x"}, {"x"}, {"x"}], set()),
    ])


def test_columns_order_and_types(toy):
    t = evaluate(toy, "v_measure(beta=2),purity")
    assert list(t.columns) == ["system", "topic", "metric", "value"]
    assert t["value"].dtype == np.float64
    assert t[["topic", "metric"]].values.tolist() == [
        ["T000", "v_measure(beta=2)"], ["T000", "purity"],
        ["T001", "v_measure(beta=2)"], ["T001", "purity"]]
    assert set(t["system"]) == {"sys"}


def test_missing_policies(toy):
    pen = evaluate(toy, "bcubed_recall", missing="penalize")["value"].to_numpy()
    sing = evaluate(toy, "bcubed_recall", missing="singleton")["value"].to_numpy()
    # topic 0: items 0,1: 1 ; item 2: missing ; item 3: 1/2 (its class mate 2 is elsewhere)
    assert pen[0] == pytest.approx((1 + 1 + 0 + 0.5) / 4)
    assert sing[0] == pytest.approx((1 + 1 + 0.5 + 0.5) / 4)
    assert pen[1] == sing[1] == 1.0
    with pytest.raises(CampaignAlignmentError):
        evaluate(toy, "bcubed_recall", missing="error")
    with pytest.raises(UnanimityError, match="missing policy"):
        evaluate(toy, "bcubed_recall", missing="ignore")


def test_unknown_metric_and_system(toy):
    with pytest.raises(UnanimityError, match="known metrics"):
        evaluate(toy, "purity,foo")
    with pytest.raises(UnanimityError, match="unknown system"):
        evaluate(toy, "purity", systems=["nope"])


def test_contingency_table(toy):
    tab = contingency_table(toy, "sys", "T000")
    assert tab.loc["a", "x"] == 2 and tab.loc["b", "y"] == 1
    assert tab.to_numpy().sum() == 4          # the missing item is its own cluster
    assert any(c.startswith("(missing") for c in tab.columns)
    with pytest.raises(UnanimityError, match="unknown topic"):
        contingency_table(toy, "sys", "T999")


def test_replab_all_metrics(replab):
    t = evaluate(replab, ALL)
    assert len(t) == 35 * 61 * len(ALL)
    assert list(pd.unique(t["system"])) == list(replab.runs)
    assert t["value"].notna().all()
    # campaign means are a separate step
    means = t.groupby(["system", "metric"], sort=False)["value"].mean()
    assert means.loc[("best_replab", "bcubed_precision")] == pytest.approx(0.472197157828443,
                                                                            abs=1e-9)


def test_replab_subset_equals_full(replab):
    sub = evaluate(replab, "purity,accuracy_11", systems=["best_replab"])
    full = evaluate(replab, "purity,accuracy_11")
    full = full[full["system"] == "best_replab"].reset_index(drop=True)
    pd.testing.assert_frame_equal(sub, full)


def test_replab_contingency_table_sums(replab):
    topic = replab.topics[0]
    tab = contingency_table(replab, "best_replab", topic)
    n = int(np.diff(replab.topic_offsets)[0])
    assert tab.to_numpy().sum() == n
