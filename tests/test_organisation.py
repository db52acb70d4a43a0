"""Document organisations: weights, a hand-worked organisation, the reductions on real data.

* weights: the first n positions carry W_n, the tail the rest; equal weights without a tail;
* the hand-worked organisation of ``docs/organisation.md`` §7 (levels, clusters, a tail),
  loaded from ``tests/data/organisation/handworked`` and scored through ``evaluate``;
* RepLab 2013 written out and loaded as an organisation (one level, no tail) gives the official
  Reliability and Sensitivity;
* TREC DL 2019 cut into filtering outputs (each run's top 100 positive, two levels, no tail)
  gives R = precision(pos) x precision(neg), S = recall(pos) x recall(neg), against a count
  with Python sets.
"""

from __future__ import annotations

import shutil
from pathlib import Path

import numpy as np
import pandas as pd
import pytest

from metrics.errors import UnanimityError
from metrics.io import load
from metrics.io.organisation_build import build_organisation_campaign
from metrics.measures.organisation.weights import level_weights, shift
from metrics.measures.registry import default_metric_pairs, parse_metric
from metrics.measures.scoring import evaluate
from metrics.model.campaign import Campaign

ROOT = Path(__file__).resolve().parents[1]
DATA = ROOT / "tests" / "data"
SHARED = ROOT.parent / "shared" / "campaigns"
TREC_DL = SHARED / "trec-dl-2019"


# --- weights ------------------------------------------------------------------------------------
@pytest.mark.parametrize("n, w", [(30, 0.8), (800, 0.8), (10, 0.5), (1, 0.99)])
def test_first_n_positions_carry_w_n(n, w):
    k = 3 * n + 5
    lw = level_weights(np.zeros(k, np.int64), np.arange(1, k + 1), 1, True, n, w)
    assert abs(lw.occurrence[:n].sum() - w) < 1e-12
    # the whole list plus the tail weighs 1; the tail weighs c / (N + c)
    c = n * (1 - w) / w
    assert abs(lw.occurrence.sum() + lw.tail[0] - 1) < 1e-12
    assert abs(lw.tail[0] - c / (k + c)) < 1e-15
    # position i weighs c (1/(i-1+c) - 1/(i+c)), decreasing
    i = np.arange(1, k + 1)
    assert np.allclose(lw.occurrence, c * (1 / (i - 1 + c) - 1 / (i + c)), rtol=0, atol=1e-15)
    assert np.all(np.diff(lw.occurrence) < 0)


def test_a_level_shares_the_weight_of_its_positions():
    # levels of sizes 2, 3, 1 after each other = positions 1-2, 3-5, 6
    level = np.array([1, 1, 2, 2, 2, 3])
    lw = level_weights(np.zeros(6, np.int64), level, 1, True, 4, 0.6)
    flat = level_weights(np.zeros(6, np.int64), np.arange(1, 7), 1, True, 4, 0.6).occurrence
    assert np.allclose(lw.occurrence, [flat[:2].mean()] * 2 + [flat[2:5].mean()] * 3 + [flat[5]])
    assert np.allclose(lw.level_total, [flat[:2].sum()] * 2 + [flat[2:5].sum()] * 3 + [flat[5]])


def test_no_tail_means_equal_weights_whatever_n_and_w():
    level = np.array([1, 2, 2, 5, 1, 1])
    topic = np.array([0, 0, 0, 0, 1, 1])
    lw = level_weights(topic, level, 2, False, 3, 0.2)
    assert np.allclose(lw.occurrence, [0.25] * 4 + [0.5] * 2)
    assert np.all(lw.tail == 0)


def test_bad_weighting_parameters():
    with pytest.raises(UnanimityError, match="strictly between 0 and 1"):
        shift(30, 1.0)
    with pytest.raises(UnanimityError, match="positive"):
        shift(0, 0.8)
    with pytest.raises(UnanimityError, match="between 0 and 1"):
        parse_metric("reliability(w=1.5)")
    assert str(parse_metric("reliability(n=800,w=0.8)")) == "reliability(n=800)"
    assert str(parse_metric("reliability(n=30, w=0.8)")) == "reliability"


# --- the hand-worked organisation ---------------------------------------------------------------
def test_handworked_organisation_with_levels_clusters_and_tail():
    """docs/organisation.md §7: n = 1, W_n = 0.5 so c = 1.

    Run X: level 1 = cluster {a, b}, level 2 = cluster {c}, tail.
    Gold G: level 1 = cluster {a}, level 2 = cluster {b, c}, tail.
    X weights: a, b = 1/3 each, c = 1/12, tail 1/4. G weights: a = 1/2, b, c = 1/8, tail 1/4.

    R priority: R(a) = 1 (a ≻ c and a ≻ tail hold in G), R(b) = (1/4)/(1/3) = 3/4 (b ≻ c does
    not), R(c) = (1/3 + 1/4)/(11/12) = 7/11, R(tail) = 1:
    1/3 + 1/4 + 7/132 + 1/4 = 39/44.
    R relatedness: R(a) = R(b) = 1/2, R(c) = 1: (1/6 + 1/6 + 1/12)/(3/4) = 5/9.
    R both: R(a) = 2/3, R(b) = 7/12, R(c) = 8/12, tail 1: 13/18.
    S priority: S(a) = 3/4, S(b) = 1/3, S(c) = 1, tail 1: 19/24.
    S relatedness: S(a) = 1, S(b) = S(c) = 1/2: (1/2 + 1/16 + 1/16)/(3/4) = 5/6.
    S both: S(a) = 7/8, S(b) = 3/8, S(c) = 7/8, tail 1: 27/32.
    """
    camp = load(DATA / "organisation" / "handworked")
    assert camp.tail and camp.is_organisation
    names = ["reliability_priority", "reliability_relatedness", "reliability",
             "sensitivity_priority", "sensitivity_relatedness", "sensitivity"]
    table = evaluate(camp, [f"{m}(n=1,w=0.5)" for m in names])
    got = dict(zip(table["metric"], table["value"]))
    want = [39 / 44, 5 / 9, 13 / 18, 19 / 24, 5 / 6, 27 / 32]
    for m, v in zip(names, want):
        assert abs(got[f"{m}(n=1, w=0.5)"] - v) < 1e-12, m


# --- RepLab 2013 as an organisation: the official numbers ---------------------------------------
def _official_rs() -> pd.DataFrame:
    off = pd.read_csv(DATA / "replab2013_official_rs.csv.gz")
    return off.pivot_table(index=["system", "topic"], columns="metric", values="value")


@pytest.mark.slow
def test_replab_as_organisation_gives_official_scores(tmp_path):
    flat = load(ROOT / "demo_data" / "replab2013")
    folder = tmp_path / "replab_org"
    (folder / "runs").mkdir(parents=True)
    (folder / "campaign.toml").write_text('format = "organisation"\ntail = false\n')

    def write(m, path):
        pd.DataFrame({"topic": flat.topics[flat.item_topic[m.item]],
                      "item": flat.item_ids[m.item], "level": 1,
                      "cluster": m.label_names[m.label]}).to_parquet(path)

    write(flat.gold, folder / "gold.parquet")
    for name, run in flat.runs.items():
        write(run, folder / "runs" / f"{name}.parquet")
    org = load(folder)
    assert org.is_organisation and not org.tail
    table = evaluate(org, "reliability,sensitivity,reliability(n=800,w=0.5)", missing="penalize")
    ours = table.pivot_table(index=["system", "topic"], columns="metric", values="value")
    off = _official_rs()
    common = off.index.intersection(ours.index)
    assert len(common) == 35 * 61
    for m in ("reliability", "sensitivity"):
        diff = np.abs(ours.loc[common, m].to_numpy() - off.loc[common, m].to_numpy()).max()
        assert diff <= 1e-9, (m, diff)
    # without a tail the weighting has no effect
    assert np.array_equal(ours["reliability"].to_numpy(), ours["reliability(n=800, w=0.5)"].to_numpy())
    # and on the flat campaign the priority relations do not exist
    flat_table = evaluate(flat, "reliability_relatedness,reliability_priority")
    rel = flat_table[flat_table.metric == "reliability_relatedness"]["value"].to_numpy()
    assert np.abs(rel - evaluate(flat, "reliability")["value"].to_numpy()).max() <= 1e-12
    assert (flat_table[flat_table.metric == "reliability_priority"]["value"] == 0).all()


# --- TREC DL cut into filtering outputs -------------------------------------------------------
@pytest.fixture(scope="module")
def trec_dl() -> Campaign:
    if not TREC_DL.is_dir():
        pytest.skip(f"shared TREC DL 2019 campaign not found at {TREC_DL}")
    return load(TREC_DL)


def _filtering(camp: Campaign, top: int = 100):
    """Two levels, no tail, over each topic's judged documents: gold positive = grade >= 2,
    a run's positive = its top ``top``."""
    g = camp.gold
    judged = pd.DataFrame({"topic": camp.topics[camp.item_topic[g.item]],
                           "item": camp.item_ids[g.item], "grade": g.weight})
    gold = judged.assign(level=np.where(judged.grade >= 2, 1, 2))[["topic", "item", "level"]]
    runs, positives = {}, {}
    for name, r in camp.runs.items():
        top_items = {(camp.topics[camp.item_topic[i]], camp.item_ids[i])
                     for i, lev in zip(r.item, r.level) if lev <= top}
        pos = [(t, d) in top_items for t, d in zip(judged.topic, judged.item)]
        runs[name] = judged.assign(level=np.where(pos, 1, 2))[["topic", "item", "level"]]
        positives[name] = top_items
    org = build_organisation_campaign(gold, runs, tail=False, name="filtering", source="",
                                      gold_source="qrels", run_sources={})
    return org, judged, positives


@pytest.mark.slow
def test_filtering_reduces_to_class_precisions_and_recalls(trec_dl):
    org, judged, positives = _filtering(trec_dl)
    table = evaluate(org, "reliability,sensitivity,reliability_priority,sensitivity_relatedness")
    got = table.set_index(["system", "topic", "metric"])["value"]
    checked = 0
    for name, top_items in positives.items():
        for topic, rows in judged.groupby("topic"):
            gold_pos = {d for d, gr in zip(rows.item, rows.grade) if gr >= 2}
            docs = set(rows.item)
            sys_pos = {d for d in docs if (topic, d) in top_items}
            gold_neg, sys_neg = docs - gold_pos, docs - sys_pos
            tp, tn = len(gold_pos & sys_pos), len(gold_neg & sys_neg)
            def ratio(a, b):
                return a / b if b else 0.0
            r = ratio(tp, len(sys_pos)) * ratio(tn, len(sys_neg))
            s = ratio(tp, len(gold_pos)) * ratio(tn, len(gold_neg))
            assert abs(got[(name, topic, "reliability")] - r) < 1e-10
            assert abs(got[(name, topic, "sensitivity")] - s) < 1e-10
            assert got[(name, topic, "reliability_priority")] == got[(name, topic, "reliability")]
            assert got[(name, topic, "sensitivity_relatedness")] == 0.0  # no clusters
            checked += 1
    assert checked == 37 * 43


# --- the metric pairs of a campaign's task ----------------------------------------------------
def test_graded_judgments_add_the_binary_measures_at_grade_two(tmp_path):
    """Graded qrels (trec_small: grades 0-3) offer P(rel=2)@10/R(rel=2)@10 and nDCG@10/AP(rel=2)
    after the grade >= 1 pairs (TREC DL counts grade >= 2 as relevant); binary qrels (0/1) do
    not, since there grade >= 2 would leave nothing relevant."""
    graded = default_metric_pairs(load(DATA / "trec_small"))
    assert list(graded)[-2:] == ["P@10/R@10 (rel=2)", "nDCG@10/AP(rel=2)"]
    assert graded["P@10/R@10 (rel=2)"] == ("P(rel=2)@10", "R(rel=2)@10")
    assert graded["nDCG@10/AP(rel=2)"] == ("nDCG@10", "AP(rel=2)")
    binary = tmp_path / "binary"
    shutil.copytree(DATA / "trec_small", binary)
    qrels = binary / "qrels.txt"
    qrels.write_text("".join(" ".join(line.split()[:3] + [str(min(int(line.split()[3]), 1))])
                             + "\n" for line in qrels.read_text().splitlines() if line.strip()))
    pairs = default_metric_pairs(load(binary))
    assert list(pairs) == ["Reliability/Sensitivity", "P@10/R@10", "nDCG@10/AP"]


def test_default_metric_pairs_follow_the_task(demo_campaign):
    trec = load(DATA / "trec_small")
    hand = load(DATA / "organisation" / "handworked")
    assert default_metric_pairs(trec)["Reliability/Sensitivity"] == ("reliability", "sensitivity")
    assert "nDCG@10/AP" in default_metric_pairs(trec)
    assert "Priority R/S" not in default_metric_pairs(trec)
    assert "BCubed P/R" in default_metric_pairs(demo_campaign)
    assert default_metric_pairs(hand)["Reliability/Sensitivity"] == ("reliability", "sensitivity")
    for pairs in (default_metric_pairs(trec), default_metric_pairs(demo_campaign)):
        for a, b in pairs.values():  # every name parses
            parse_metric(a), parse_metric(b)
