"""Metric-pair words and the one-signal verdict (metrics/analyses/metric_pair.py)."""

from __future__ import annotations

import itertools
from pathlib import Path

import numpy as np
import pandas as pd
import pytest

from metrics.analyses.metric_pair import ONE_SIGNAL_SHARE, pair_agreement, pair_words
from metrics.io import load
from metrics.measures.scoring import evaluate

ROOT = Path(__file__).resolve().parents[1]
SHARED_DL = ROOT.parent / "shared" / "campaigns" / "trec-dl-2019"


@pytest.mark.parametrize("first, second, pr", [
    ("precision", "recall", True),
    ("purity", "inverse_purity", True),
    ("bcubed_precision", "bcubed_recall", True),
    ("bcubed_precision", "bcubed_adapted_recall(k=3)", True),
    ("reliability", "sensitivity", True),
    ("reliability_priority", "sensitivity_priority", True),
    ("P@10", "R@10", True),
    ("P(rel=2)@10", "R(rel=2)@10", True),
    ("P@10", "R@100", False),
    ("nDCG@10", "AP", False),
    ("recall", "precision", False),
    ("purity", "rand", False),
])
def test_words(first, second, pr):
    words = pair_words(first, second)
    assert words.pr_like is pr
    if pr:
        assert (words.first, words.second) == ("precision-like", "recall-like")
        assert words.alpha_caption == "\u03b1, weight of the precision-like metric"
    else:
        assert (words.first, words.second) == ("first metric", "second metric")
        assert words.alpha_caption == "\u03b1, weight of the first metric"


def _concordant_by_pairs(table: pd.DataFrame, first: str, second: str, sign2: int = 1) -> int:
    """Topics where no two systems are ordered differently by the two metrics (loops)."""
    wide = table.pivot_table(index=["topic", "system"], columns="metric", values="value")
    n = 0
    for _, rows in wide.groupby(level=0):
        a, b = rows[first].to_numpy(), sign2 * rows[second].to_numpy()
        n += all(np.sign(round(a[i] - a[j], 12)) == np.sign(round(b[i] - b[j], 12))
                 for i, j in itertools.combinations(range(len(a)), 2))
    return n


def _table(values: dict) -> pd.DataFrame:
    return pd.DataFrame([(s, t, m, v) for (s, t), ms in values.items() for m, v in ms.items()],
                        columns=["system", "topic", "metric", "value"])


def test_agreement_by_hand():
    # t1: same order (ties kept); t2: x and y swap; t3: same order
    t = _table({("a", "t1"): {"m1": 0.9, "m2": 0.5}, ("b", "t1"): {"m1": 0.1, "m2": 0.2},
                ("c", "t1"): {"m1": 0.1, "m2": 0.2},
                ("a", "t2"): {"m1": 0.9, "m2": 0.1}, ("b", "t2"): {"m1": 0.1, "m2": 0.2},
                ("c", "t2"): {"m1": 0.5, "m2": 0.3},
                ("a", "t3"): {"m1": 0.3, "m2": 0.6}, ("b", "t3"): {"m1": 0.2, "m2": 0.5},
                ("c", "t3"): {"m1": 0.1, "m2": 0.4}})
    got = pair_agreement(t, "m1", "m2")
    assert (got.n_topics, got.concordant) == (3, 2) == (3, _concordant_by_pairs(t, "m1", "m2"))
    assert got.one_signal is (2 >= ONE_SIGNAL_SHARE * 3) and got.message == ""


def test_lower_is_better_is_oriented():
    """purity against vi (lower is better): a clustering that is better by both is concordant."""
    campaign = load(ROOT / "demo_data" / "replab2013")
    table = evaluate(campaign, ["purity", "vi"])
    got = pair_agreement(table, "purity", "vi")
    assert got.concordant == _concordant_by_pairs(table, "purity", "vi", sign2=-1)


@pytest.mark.skipif(not SHARED_DL.exists(), reason=f"TREC DL 2019 not found at {SHARED_DL}")
def test_trec_dl_p10_r10_is_one_signal():
    table = evaluate(load(SHARED_DL), ["P@10", "R@10", "nDCG@10", "AP"])
    got = pair_agreement(table, "P@10", "R@10")
    assert (got.n_topics, got.concordant) == (43, _concordant_by_pairs(table, "P@10", "R@10"))
    assert got.concordant == 43 and got.one_signal
    assert "rank the systems identically on 43 of 43 topics" in got.message
    other = pair_agreement(table, "nDCG@10", "AP")
    assert other.concordant == _concordant_by_pairs(table, "nDCG@10", "AP")
    assert not other.one_signal
