"""Campaign analyses and the comparison report (docs/measures.md §6), on hand-made tables and on
RepLab 2013."""

from __future__ import annotations

import csv
import gzip
import json
import os
from pathlib import Path

import numpy as np
import pandas as pd
import pytest
from scipy import stats
from score_examples import JAIR

from metrics.analyses import (
    compare,
    cross_testbed_prediction,
    pair_topics,
    rank_moves,
    ranking,
    threshold_curve,
)
from metrics.comparison.combine import campaign_f, f_curves
from metrics.comparison.uir import uir_matrix

HERE = Path(__file__).resolve().parent
FIXTURE = HERE / "data" / "replab2013_official_rs.csv.gz"
OFFICIAL = HERE.parents[1] / "shared" / "campaigns" / "replab2013" / "official_scores"
RS = ["reliability", "sensitivity"]


def load_official(folder: Path) -> pd.DataFrame:
    """RepLab 2013 official per-entity scores -> score table (reliability, sensitivity).

    Columns of NAME.tsv: system, entity, Reliability, Sensitivity, F measure; the 'average' row is
    skipped; the system name is the basename of the path in the system column.
    """
    rows = []
    for path in sorted(folder.glob("*.tsv")):
        with open(path, encoding="utf-8") as fh:
            for rec in csv.DictReader(fh, delimiter="\t"):
                if rec["entity"] == "average":
                    continue
                name = os.path.basename(rec["system"].rstrip("/"))
                rows.append((name, rec["entity"], "reliability", float(rec["Reliability"])))
                rows.append((name, rec["entity"], "sensitivity", float(rec["Sensitivity"])))
    return pd.DataFrame(rows, columns=["system", "topic", "metric", "value"])


@pytest.fixture(scope="module")
def replab() -> pd.DataFrame:
    if OFFICIAL.exists():
        return load_official(OFFICIAL)
    return pd.read_csv(FIXTURE, dtype={"system": str, "topic": str, "metric": str})


@pytest.fixture(scope="module")
def replab_beds(replab) -> dict[str, str]:
    return {t: t[6:9] for t in pd.unique(replab["topic"])}  # RL2013D01E001 -> D01


@pytest.fixture(scope="module")
def result(replab, replab_beds):
    return compare(replab, "reliability", "sensitivity", testbeds=replab_beds)


def hand_counts(rows: list[tuple[str, str, str, float]], a: str, b: str, tol: float = 1e-9):
    """(a better, b better, tied, biased) counted with plain Python from the per-topic rows."""
    score: dict[tuple[str, str], dict[str, float]] = {}
    for s, t, m, v in rows:
        score.setdefault((s, t), {})[m] = v
    topics = sorted({t for s, t in score if s == a})
    out = [0, 0, 0, 0]
    for t in topics:
        ge_ab = all(score[(a, t)][m] + tol >= score[(b, t)][m] for m in RS)
        ge_ba = all(score[(b, t)][m] + tol >= score[(a, t)][m] for m in RS)
        out[2 if ge_ab and ge_ba else 0 if ge_ab else 1 if ge_ba else 3] += 1
    return tuple(out)


# --- the fixture copy ------------------------------------------------------------------------


def test_fixture_copy_matches_the_official_scores():
    if not OFFICIAL.exists():
        pytest.skip("shared RepLab official scores not available")
    a = load_official(OFFICIAL).sort_values(["system", "topic", "metric"]).reset_index(drop=True)
    b = pd.read_csv(FIXTURE).sort_values(["system", "topic", "metric"]).reset_index(drop=True)
    assert len(a) == len(b) == 35 * 61 * 2
    assert (a[["system", "topic", "metric"]].to_numpy() == b[["system", "topic", "metric"]].to_numpy()).all()
    assert np.array_equal(a["value"].to_numpy(), b["value"].to_numpy())


# --- RepLab facts a reader can check by hand -------------------------------------------------


def test_replab_facts_by_hand(replab, result):
    rows = list(replab.itertuples(index=False, name=None))
    pairs = result.pairs.set_index(["system_a", "system_b"])
    systems = result.systems.set_index("system")

    # 1. At the same cut, the SVM-learned similarity unanimously improves plain Jaccard:
    #    on 52 of the 61 entities both R and S are >=, on none the reverse, 3 ties, 6 biased.
    a, b = "SVM_terms_jaccard_HAC_10%", "terms_jaccard_HAC_10%"
    assert hand_counts(rows, a, b) == (52, 0, 3, 6)
    row = pairs.loc[(a, b)]
    assert (row.n_a_better, row.n_b_better, row.n_tied, row.n_biased) == (52, 0, 3, 6)
    assert row.uir == pytest.approx(52 / 61)
    assert systems.loc[b, "reference_system"] == a
    assert systems.loc[b, "reference_uir"] == pytest.approx(52 / 61)

    # 2. Neighbouring thresholds of a sweep trade reliability for sensitivity: for 10% vs 20%
    #    every one of the 61 entities is metric-biased, so UIR = 0 ...
    assert hand_counts(rows, "terms_jaccard_HAC_10%", "terms_jaccard_HAC_20%") == (0, 0, 0, 61)
    assert pairs.loc[("terms_jaccard_HAC_10%", "terms_jaccard_HAC_20%"), "uir"] == 0.0
    # ... and no HAC threshold is the reference system of its neighbour in the same sweep.
    for sweep in ("terms_jaccard_HAC_", "SVM_terms_jaccard_HAC_", "SVM_allfeatures_HAC_"):
        for x in range(0, 100, 10):
            lo, hi = f"{sweep}{x}%", f"{sweep}{x + 10}%"
            assert abs(pairs.loc[(lo, hi), "uir"]) < 0.25
            assert systems.loc[lo, "reference_system"] != hi
            assert systems.loc[hi, "reference_system"] != lo

    # 3. terms_jaccard_HAC_70%: SVM_terms_jaccard_HAC_70% improves it on 15 entities, is worse on
    #    none (1 tie, 45 biased): UIR 15/61 = 0.246 < 0.25 -> no reference system at 0.25.
    assert hand_counts(rows, "SVM_terms_jaccard_HAC_70%", "terms_jaccard_HAC_70%") == (15, 0, 1, 45)
    assert pd.isna(systems.loc["terms_jaccard_HAC_70%", "reference_system"])
    lower = compare(replab, "reliability", "sensitivity", threshold=0.24, test="none")
    low = lower.systems.set_index("system")
    assert low.loc["terms_jaccard_HAC_70%", "reference_system"] == "SVM_terms_jaccard_HAC_70%"

    # 4. The topic-model run is unanimously improved by SVM_allfeatures_HAC_60% on 60 of 61
    #    entities, its reference system.
    assert hand_counts(rows, "SVM_allfeatures_HAC_60%", "t_twitter_LDA") == (60, 0, 0, 1)
    assert systems.loc["t_twitter_LDA", "reference_system"] == "SVM_allfeatures_HAC_60%"
    assert systems.loc["t_twitter_LDA", "reference_uir"] == pytest.approx(60 / 61)

    # 5. The 100% cuts are alike: 34 entities tied on both metrics, UIR 0.
    assert hand_counts(rows, "SVM_terms_jaccard_HAC_100%", "terms_jaccard_HAC_100%")[2] == 34
    assert pairs.loc[("SVM_terms_jaccard_HAC_100%", "terms_jaccard_HAC_100%"), "uir"] == 0.0

    # 6. The best F_0.5 (0.4744, SVM_allfeatures_HAC_60%) has no reference system.
    top = result.systems.sort_values("rank").iloc[0]
    assert top.system == "SVM_allfeatures_HAC_60%" and top.f_alpha == pytest.approx(0.474366, abs=1e-6)
    assert pd.isna(top.reference_system)


# --- compare end to end on RepLab ------------------------------------------------------------


def test_compare_pairs_frame(replab, result):
    p = result.pairs
    assert len(p) == 35 * 34
    for c in ["system_a", "system_b", "uir", "n_a_better", "n_b_better", "n_tied", "uir_param",
              "delta_f", "beats_all_alpha", "crossings", "pair_class", "p_reliability", "p_sensitivity"]:
        assert c in p.columns
    idx = p.set_index(["system_a", "system_b"])
    back = idx.loc[list(zip(p.system_b, p.system_a))]
    assert np.array_equal(p["uir"].to_numpy(), -back["uir"].to_numpy())
    assert np.allclose(p["uir_param"].to_numpy(), -back["uir_param"].to_numpy())
    assert np.array_equal(p["n_a_better"].to_numpy(), back["n_b_better"].to_numpy())
    assert np.allclose(p["delta_f"], p["f_a"] - p["f_b"])
    assert (p["uir"] == (p["n_a_better"] - p["n_b_better"]) / p["n_topics"]).all()
    # beating for every alpha implies a positive Delta F and no crossing
    beats = p[p["beats_all_alpha"]]
    assert len(beats) > 0 and (beats["delta_f"] > 0).all() and (beats["crossings"].map(len) == 0).all()
    # an odd number of crossings <=> the order at alpha = 0 and alpha = 1 differs
    ends = f_curves(replab, *RS, alphas=[0.0, 1.0])
    d0 = ends.loc[0.0, p.system_a].to_numpy() - ends.loc[0.0, p.system_b].to_numpy()
    d1 = ends.loc[1.0, p.system_a].to_numpy() - ends.loc[1.0, p.system_b].to_numpy()
    odd = p["crossings"].map(len).to_numpy() % 2 == 1
    assert np.array_equal(odd, np.sign(d0) * np.sign(d1) < 0)
    assert set(p["pair_class"]) <= {"concordant", "opposite", "none", "worsening"}
    m = result.uir
    assert np.allclose(idx.loc[("best_replab", "t_twitter_LDA"), "uir"],
                       m.uir[m.index("best_replab"), m.index("t_twitter_LDA")])


def test_compare_wilcoxon_matches_scipy(replab, result):
    wide = replab.pivot_table(index=["system", "topic"], columns="metric", values="value")
    row = result.pairs.set_index(["system_a", "system_b"]).loc[("best_replab", "SVM_allfeatures_HAC_50%")]
    for m in RS:
        ref = stats.wilcoxon(wide.loc["best_replab", m], wide.loc["SVM_allfeatures_HAC_50%", m])
        assert row[f"p_raw_{m}"] == pytest.approx(ref.pvalue, rel=1e-12)
        assert row[f"p_{m}"] >= row[f"p_raw_{m}"]


def test_compare_systems_frame(result):
    s = result.systems
    assert list(s.columns[:8]) == ["system", "f_alpha", "precision", "recall", "rank",
                                   "reference_system", "reference_uir", "improved_systems"]
    pairs = result.pairs.set_index(["system_a", "system_b"])
    for r in s.itertuples(index=False):
        if not pd.isna(r.reference_system):
            assert r.reference_uir >= 0.25
            assert pairs.loc[(r.reference_system, r.system), "uir"] == r.reference_uir
        expect = sorted(b for (a, b), u in pairs["uir"].items() if a == r.system and u >= 0.25)
        assert sorted(r.improved_systems) == expect
    assert sorted(s["rank"]) == list(range(1, 36))


def test_threshold_curve_series(result):
    c = result.threshold_curve
    assert len(c) == 101
    assert np.array_equal(c["threshold"].to_numpy(), np.arange(101) / 100)
    u = result.pairs["uir"].to_numpy()
    for t in (0.0, 0.25, 0.5):
        row = c[c.threshold == t].iloc[0]
        sel = result.pairs[u >= t]
        assert row.n_pairs == len(sel) and row.pairs == pytest.approx(len(sel) / 1190)
        assert row.concordant == pytest.approx((sel.pair_class == "concordant").mean())
        assert row.opposite == pytest.approx((sel.pair_class == "opposite").mean())
        assert row.beats_all_alpha == pytest.approx(sel.beats_all_alpha.mean())
        assert row.f_contradicts == pytest.approx(((sel.uir > 0) & (sel.delta_f < 0)).mean())
    assert c.loc[c.threshold == 0.25, "n_pairs"].item() == 35
    assert (np.diff(c["n_pairs"]) <= 0).all()
    for col in ("concordant", "opposite", "none", "worsening", "beats_all_alpha", "f_contradicts"):
        vals = c[col].dropna()
        assert ((vals >= 0) & (vals <= 1)).all()


def test_delta_f_and_weakest_metric(result):
    d = result.delta_f_vs_uir
    assert d["n"] == 595 and (d["points"]["delta_f"] >= 0).all()
    assert d["pearson_r"] == pytest.approx(stats.pearsonr(d["points"]["delta_f"], d["points"]["uir"])[0])
    w = result.weakest_metric
    pts = w["points"]
    pairs = result.pairs.set_index(["system_a", "system_b"])
    for r in pts.itertuples(index=False):
        dr = pairs.loc[(r.system_a, r.system_b), "delta_reliability"]
        ds = pairs.loc[(r.system_a, r.system_b), "delta_sensitivity"]
        assert dr > 0 and ds > 0 and r.weakest_delta == min(dr, ds)
    n_all = int(((pairs["delta_reliability"] > 0) & (pairs["delta_sensitivity"] > 0)).sum())
    assert w["n"] == n_all > 3
    assert w["pearson_r"] == pytest.approx(stats.pearsonr(pts["weakest_delta"], pts["uir"])[0])
    assert w["pearson_r"] > 0  # UIR follows the weakest improvement (JAIR Fig. 10)


def test_cross_testbed_prediction(replab, replab_beds, result):
    ct = result.cross_testbed
    assert set(ct["predictor"]) == {"uir", "uir_param", "delta_f"}
    assert set(ct["reference_bed"]) == {"D01", "D02", "D03", "D04"}
    # the truth, recomputed: F_0.5 order the same in all four domains
    f = {bed: campaign_f(replab[replab.topic.map(replab_beds) == bed], *RS) for bed in ("D01", "D02", "D03", "D04")}
    names = list(f["D01"].index)
    truth = {(a, b) for a in names for b in names if a != b and all(f[d][a] > f[d][b] for d in f)}
    assert (ct["n_true"] == len(truth)).all()
    # UIR on D02 at t = 0.25, recomputed from the D02 sub-table
    sub = replab[replab.topic.str[6:9] == "D02"]
    m = uir_matrix(sub, RS)
    pred = {(a, b) for a in m.systems for b in m.systems if a != b and m.uir[m.index(a), m.index(b)] >= 0.25}
    row = ct[(ct.predictor == "uir") & (ct.reference_bed == "D02") & (ct.threshold == 0.25)].iloc[0]
    assert row.n_predicted == len(pred) and row.n_correct == len(pred & truth)
    assert row.precision == pytest.approx(len(pred & truth) / len(pred))
    assert row.recall == pytest.approx(len(pred & truth) / len(truth))
    alone = cross_testbed_prediction(replab, *RS, replab_beds, thresholds=[0.25])
    merged = alone.merge(ct, on=["predictor", "reference_bed", "threshold"], suffixes=("", "_c"))
    assert len(merged) == 12 and np.allclose(merged.precision.fillna(-1), merged.precision_c.fillna(-1))
    with pytest.raises(ValueError, match="two test beds"):
        cross_testbed_prediction(replab, *RS, {t: "D" for t in replab_beds})


def test_report_renders_without_recomputing(replab, result, tmp_path):
    before = replab.copy()
    compare(replab, "reliability", "sensitivity", test="sign")
    pd.testing.assert_frame_equal(replab, before)  # compare never writes into its input
    d = result.to_dict()
    json.dumps(d)  # JSON-serialisable
    assert len(d["pairs"]) == 1190 and d["parameters"]["threshold"] == 0.25
    assert result.to_dataframe().equals(result.pairs) and result.to_dataframe() is not result.pairs
    tex = result.to_latex()
    for token in (r"\toprule", r"\midrule", r"\bottomrule", r"SVM\_allfeatures\_HAC\_60\%", "$^{**}$"):
        assert token in tex
    written = {p.name for p in result.write(tmp_path, latex=True)}
    assert {"pairs.csv", "systems.csv", "threshold_curve.csv", "tests.csv", "cross_testbed.csv",
            "report.tex", "summary.json"} <= written
    back = pd.read_csv(tmp_path / "pairs.csv")
    assert len(back) == 1190 and back["uir"].equals(result.pairs["uir"])


def test_compare_without_tests_and_micro(replab):
    r = compare(replab, "reliability", "sensitivity", test="none", average="micro", alpha=0.3)
    assert r.tests is None and r.pairs["pair_class"].isna().all()
    assert r.threshold_curve["concordant"].isna().all()
    assert r.pairs["p_reliability"].isna().all()
    assert (r.pairs["crossings"].map(len) <= 1).all()  # micro: at most one crossing
    f = campaign_f(replab, *RS, alpha=0.3, average="micro")
    assert np.allclose(r.systems.set_index("system")["f_alpha"], f)


# --- small hand-worked analyses --------------------------------------------------------------


def _one_topic(systems):
    rows = [(s, "t0", m, v) for s, (p, r) in systems.items() for m, v in (("P", p), ("R", r))]
    return pd.DataFrame(rows, columns=["system", "topic", "metric", "value"])


def test_ranking_and_rank_moves():
    t = _one_topic({"A": (0.9, 0.3), "B": (0.5, 0.5), "C": (0.3, 0.9)})
    r = ranking(t, "P", "R", alpha=0.5)
    # F_0.5: A = .27/.6 = .45, B = .5, C = .45 (tie shares rank 2)
    assert list(r["system"]) == ["B", "A", "C"] and list(r["rank"]) == [1, 2, 2]
    assert r.set_index("system").loc["A", "f"] == pytest.approx(0.45)
    mv = rank_moves(t, "P", "R", 0.5, 0.9).set_index("system")
    # F_0.9: A = 1/(1 + 1/3) = .75, B = .5, C = 1/(3 + 1/9) = .321
    assert mv.loc["A", "rank_2"] == 1 and mv.loc["A", "move"] == 1
    assert mv.loc["B", "move"] == -1 and mv.loc["C", "rank_2"] == 3
    assert mv.loc["A", "f_2"] == pytest.approx(0.75)


def test_pair_topics_winners():
    v = pair_topics(JAIR, "a", "b", ["precision", "recall"])
    assert list(v["winner"]) == ["tied", "tied", "a", "a", "a", "a", "b", "b", "biased", "biased"]
    assert v.loc[2, "delta_precision"] == pytest.approx(0.1)
    assert list(v.columns[:5]) == ["topic", "precision_a", "precision_b", "recall_a", "recall_b"]


def test_threshold_curve_hand_worked():
    pairs = pd.DataFrame({
        "uir": [0.5, -0.5, 0.2, -0.2, 0.0, 0.0],
        "delta_f": [0.1, -0.1, -0.05, 0.05, 0.01, -0.01],
        "beats_all_alpha": [True, False, False, False, False, False],
        "pair_class": ["concordant", "worsening", "opposite", "opposite", "none", "none"],
    })
    c = threshold_curve(pairs, thresholds=[0.0, 0.2, 0.5, 0.6]).set_index("threshold")
    assert c.loc[0.0, "n_pairs"] == 4 and c.loc[0.0, "pairs"] == pytest.approx(4 / 6)
    assert c.loc[0.2, "n_pairs"] == 2
    assert c.loc[0.2, "concordant"] == 0.5 and c.loc[0.2, "opposite"] == 0.5
    assert c.loc[0.2, "beats_all_alpha"] == 0.5
    assert c.loc[0.2, "f_contradicts"] == 0.5  # UIR .2 > 0 but Delta F < 0
    assert c.loc[0.0, "f_contradicts"] == 0.25  # the UIR = 0 pair with Delta F < 0 does not count
    assert c.loc[0.5, "n_pairs"] == 1 and c.loc[0.5, "concordant"] == 1.0
    assert c.loc[0.6, "n_pairs"] == 0 and np.isnan(c.loc[0.6, "concordant"])


def test_compare_rejects_bad_input(replab):
    with pytest.raises(ValueError, match="not in the score table"):
        compare(replab, "reliability", "nope")
    with pytest.raises(ValueError, match="test"):
        compare(replab, "reliability", "sensitivity", test="anova")
    with pytest.raises(ValueError, match="two different"):
        compare(replab, "reliability", "reliability")
    with pytest.raises(ValueError, match="duplicate"):
        compare(pd.concat([replab, replab.iloc[:1]]), "reliability", "sensitivity")


def test_gz_fixture_is_readable_without_pandas_magic():
    with gzip.open(FIXTURE, "rt", encoding="utf-8") as fh:
        header = fh.readline().strip()
    assert header == "system,topic,metric,value"


def test_threshold_curve_shares_are_of_all_ordered_pairs():
    # a and b share topics t1, t2; c is scored on t3, t4 only: four of the six ordered pairs
    # have no common topic and an undefined UIR, but they still count in "all ordered pairs"
    rows = []
    for sys_, topics in (("a", ("t1", "t2")), ("b", ("t1", "t2")), ("c", ("t3", "t4"))):
        for t in topics:
            p = 0.6 if sys_ == "a" else 0.4
            rows += [(sys_, t, "P", p), (sys_, t, "R", p)]
    tab = pd.DataFrame(rows, columns=["system", "topic", "metric", "value"])
    curve = compare(tab, "P", "R", test="none").threshold_curve.set_index("threshold")
    # UIR(a, b) = 1, UIR(b, a) = -1: one ordered pair reaches t = 0, out of six
    assert curve.loc[0.0, "n_pairs"] == 1
    assert curve.loc[0.0, "pairs"] == pytest.approx(1 / 6)
