"""Baselines of docs/measures.md §7 added to a campaign."""

from __future__ import annotations

from pathlib import Path

import bruteforce as bf
import numpy as np
import pandas as pd
import pytest

from metrics.analyses.baselines import BASELINES, add_baselines, baseline_membership
from metrics.errors import UnanimityError
from metrics.io import load
from metrics.measures.scoring import evaluate

ROOT = Path(__file__).resolve().parents[1]


@pytest.fixture(scope="module")
def camp():
    rng = np.random.default_rng(3)
    topics = []
    for n in (12, 7, 1):
        gold = [{f"L{x}"} for x in rng.integers(0, 3, n)]
        topics.append((gold, [{"x"}] * n, set()))
    return bf.toy_campaign(topics)


def _sizes(m, topic_of_label):
    return pd.Series(np.bincount(m.label, minlength=m.n_labels)).groupby(topic_of_label).apply(
        lambda s: sorted(s[s > 0].tolist(), reverse=True))


def test_names_and_all(camp):
    assert BASELINES == ("all-in-one", "one-in-one", "combined", "random", "ultra-shaped")
    c = add_baselines(camp, "all")
    assert list(c.runs) == ["sys", *BASELINES]
    assert list(camp.runs) == ["sys"]          # the input is not modified
    with pytest.raises(UnanimityError, match="unknown baseline"):
        add_baselines(camp, "nope")
    with pytest.raises(UnanimityError, match="already"):
        add_baselines(add_baselines(camp, "random"), "random")


def test_shapes(camp):
    n_t = np.diff(camp.topic_offsets)
    k_gold = [len({camp.gold.label[i] for i in range(a, b)})
              for a, b in zip(camp.topic_offsets[:-1], camp.topic_offsets[1:])]
    aio = baseline_membership(camp, "all-in-one")
    assert aio.n_rows == camp.n_items and not aio.is_overlapping
    assert _sizes(aio, aio.label_topic).tolist() == [[n] for n in n_t]
    oio = baseline_membership(camp, "one-in-one")
    assert _sizes(oio, oio.label_topic).tolist() == [[1] * n for n in n_t]
    comb = baseline_membership(camp, "combined")
    assert comb.is_overlapping and comb.n_rows == 2 * camp.n_items
    rnd = baseline_membership(camp, "random")
    for sizes, n, k in zip(_sizes(rnd, rnd.label_topic), n_t, k_gold):
        assert len(sizes) == min(k, n) and max(sizes) - min(sizes) <= 1 and sum(sizes) == n
    ultra = baseline_membership(camp, "ultra-shaped", k=4)
    for sizes, n in zip(_sizes(ultra, ultra.label_topic), n_t):
        k = min(4, n)
        assert sizes == [n - (k - 1)] + [1] * (k - 1)


def test_seeded_and_independent(camp):
    a = baseline_membership(camp, "random", seed=1)
    b = baseline_membership(camp, "random", seed=1)
    c = baseline_membership(camp, "random", seed=2)
    assert np.array_equal(a.label, b.label)
    big = load(ROOT / "demo_data" / "replab2013")
    x = baseline_membership(big, "random", seed=1)
    y = baseline_membership(big, "random", seed=2)
    assert not np.array_equal(x.label, y.label)
    assert c.n_rows == a.n_rows


def test_scores_of_trivial_baselines(camp):
    c = add_baselines(camp, "all-in-one,one-in-one,combined")
    t = evaluate(c, "bcubed_precision,bcubed_recall,purity,inverse_purity")
    v = t.set_index(["system", "topic", "metric"])["value"]
    for topic in c.topics:
        assert v[("one-in-one", topic, "bcubed_precision")] == 1.0
        assert v[("all-in-one", topic, "bcubed_recall")] == 1.0
        assert v[("all-in-one", topic, "inverse_purity")] == 1.0
        assert v[("one-in-one", topic, "purity")] == 1.0
        # combined: extended BCubed recall is 1 (every relation is kept)
        assert v[("combined", topic, "bcubed_recall")] == pytest.approx(1.0)
