"""The fast route (contingency tables, signature groups) against the brute-force definitions."""

from __future__ import annotations

import bcubed as bcubed_pkg
import bruteforce as bf
import numpy as np
import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

import metrics.measures.clustering.overlap as ov
from metrics.measures.registry import available_metrics
from metrics.measures.scoring import evaluate

ALL = [m.name for m in available_metrics()]
OVERLAP_AWARE = [m.name for m in available_metrics() if m.overlap_aware]


@st.composite
def clusterings(draw, max_items=9, overlap=True, allow_missing=True, max_labels=2):
    """(gold_sets, system_sets, missing) of one topic; up to ``max_labels`` labels per item
    when overlapping."""
    n = draw(st.integers(1, max_items))
    n_cls = draw(st.integers(1, 4))
    n_clu = draw(st.integers(1, 5))
    max_labels = max_labels if overlap else 1

    def sets(k, prefix):
        return [set(f"{prefix}{x}" for x in draw(st.lists(st.integers(0, k - 1), min_size=1,
                                                           max_size=max_labels)))
                for _ in range(n)]

    gold, system = sets(n_cls, "L"), sets(n_clu, "C")
    missing = set()
    if allow_missing:
        missing = set(draw(st.lists(st.integers(0, n - 1), max_size=2)))
    return gold, system, missing


def _fast(topics, metrics, missing):
    camp = bf.toy_campaign(topics)
    table = evaluate(camp, metrics, missing=missing)
    out = []
    for t in range(len(topics)):
        sub = table[table["topic"] == f"T{t:03d}"]
        out.append(dict(zip(sub["metric"], sub["value"])))
    return out


def _check(topics, metrics, policy):
    fast = _fast(topics, metrics, policy)
    for (gold, system, missing), got in zip(topics, fast):
        if policy == "singleton":
            # the item is its own cluster, plainly (no penalty)
            system = [({("__missing__", e)} if e in missing else s) for e, s in enumerate(system)]
            missing_ = frozenset()
        else:
            missing_ = frozenset(missing)
        ref = bf.all_metrics(gold, system, missing_, penalize=policy == "penalize")
        for m in metrics:
            assert got[m] == pytest.approx(ref[m], abs=1e-9), (m, gold, system, missing)


@settings(max_examples=120, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(st.lists(clusterings(overlap=False), min_size=1, max_size=3),
       st.sampled_from(["penalize", "singleton"]))
def test_all_metrics_match_definitions_without_overlap(topics, policy):
    _check(topics, ALL, policy)


@settings(max_examples=120, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(st.lists(clusterings(overlap=True), min_size=1, max_size=3),
       st.sampled_from(["penalize", "singleton"]))
def test_all_metrics_match_definitions_with_overlap(topics, policy):
    # entropy, pair and mapping metrics on the (item, class, cluster) expansion; the others by
    # their overlap definitions
    _check(topics, ALL, policy)


@settings(max_examples=60, deadline=None)
@given(clusterings(max_items=12, overlap=True, allow_missing=False))
def test_extended_bcubed_matches_bcubed_package(topic):
    gold, system, _ = topic
    got = _fast([(gold, system, set())], ["bcubed_precision", "bcubed_recall"], "penalize")[0]
    cdict = dict(enumerate(system))
    ldict = dict(enumerate(gold))
    assert got["bcubed_precision"] == pytest.approx(bcubed_pkg.precision(cdict, ldict), abs=1e-9)
    assert got["bcubed_recall"] == pytest.approx(bcubed_pkg.recall(cdict, ldict), abs=1e-9)


def test_larger_random_overlapping_campaign():
    """Bigger topics (many complex items sharing labels) against the definitions."""
    rng = np.random.default_rng(7)
    topics = []
    for n in (60, 45, 1):
        gold = [{f"L{x}" for x in rng.integers(0, 6, rng.integers(1, 3))} for _ in range(n)]
        system = [{f"C{x}" for x in rng.integers(0, 8, rng.integers(1, 3))} for _ in range(n)]
        missing = set(rng.choice(n, size=min(3, n - 1), replace=False).tolist()) if n > 1 else set()
        topics.append((gold, system, missing))
    metrics = ["bcubed_precision", "bcubed_recall", "reliability", "sensitivity", "purity",
               "inverse_purity", "fscore"]

    old = ov._CHUNK, ov._GROUP_MIN
    try:
        # the label-pair join in many chunks or in one; identical items merged or not
        for ov._CHUNK, ov._GROUP_MIN in ((1, 0), (50, 1024), (old[0], 0), old):
            _check(topics, metrics, "penalize")
            _check(topics, metrics, "singleton")
    finally:
        ov._CHUNK, ov._GROUP_MIN = old


@settings(max_examples=80, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(st.lists(clusterings(max_items=12, overlap=True, max_labels=4), min_size=2, max_size=4),
       st.sampled_from(["penalize", "singleton"]), st.sampled_from([1, 1 << 21]))
def test_overlap_kernel_many_topics_missing_items(topics, policy, chunk):
    """Extended BCubed and R&S of several overlapping topics at once, with missing items."""

    old = ov._CHUNK
    try:
        ov._CHUNK = chunk
        _check(topics, ["bcubed_precision", "bcubed_recall", "reliability", "sensitivity"],
               policy)
    finally:
        ov._CHUNK = old
