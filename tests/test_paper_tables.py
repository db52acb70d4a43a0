"""The papers' tables and the jair2011 profile (metrics/analyses/paper_tables.py,
metrics/comparison/profiles.py) on
synthetic campaigns written out here, with the counts worked by hand for each convention."""

from __future__ import annotations

import json

import numpy as np
import pandas as pd
import pytest
from scipy import stats

from metrics.analyses import compare
from metrics.analyses.paper_tables import (
    jair_table5,
    jair_table6,
    random_baselines_by_k,
    weakest_metric_top,
    weps_table2,
)
from metrics.cli import main
from metrics.comparison.combine import f_alpha
from metrics.comparison.reference import improved_systems
from metrics.io import load
from metrics.reports.bundle import open_bundle

# Three systems, eight topics. A scores 0.5 on both metrics everywhere.
#   B = A + dB on both metrics: two topics down (|d| ranks 1, 2), six up -> Wilcoxon W- = 3,
#       exact two-sided p = 2 * #{subsets of 1..8 with sum <= 3} / 2^8 = 2 * 5 / 256 = 0.0390625;
#       UIR(B, A) = (6 - 2) / 8 = 0.5.
#   C = A + (cP, cR): topics 1-3 both up, topic 4 both down, topics 5-8 P up / R down
#       -> UIR(C, A) = (3 - 1) / 8 = 0.25 exactly; P: W- = 8 -> p = 2 * 25 / 256 = 0.195;
#       R: W+ = 17, W- = 19 -> far from significant.
#   B - C keeps B's signs and rank order on both metrics (|c| << |dB|): W- = 3 -> p = 10/256,
#       UIR(B, C) = 0.5.
# Holm over the 3 pairs of a metric: 3 * 0.039 = 0.117 > 0.05 -> nothing significant;
# without correction B > A and B > C are concordant, C vs A none.
DB = np.array([-0.01, -0.02, 0.03, 0.04, 0.05, 0.06, 0.07, 0.08])
CP = np.array([0.001, 0.002, 0.003, -0.009, 0.004, 0.005, 0.006, 0.007])
CR = np.array([0.006, 0.007, 0.0015, -0.001, -0.002, -0.003, -0.004, -0.005])
P_EXACT = 10 / 256
TOPICS = [f"t{i}" for i in range(1, 9)]
SCORES = {"A": (0.5 + 0 * DB, 0.5 + 0 * DB), "B": (0.5 + DB, 0.5 + DB), "C": (0.5 + CP, 0.5 + CR)}


def _table() -> pd.DataFrame:
    rows = [(s, t, m, v) for s, (p, r) in SCORES.items() for m, vals in (("p", p), ("r", r))
            for t, v in zip(TOPICS, vals)]
    return pd.DataFrame(rows, columns=["system", "topic", "metric", "value"])


@pytest.fixture(scope="module")
def table():
    return _table()


def test_the_hand_computed_p_values_hold(table):
    # independent route: scipy's exact Wilcoxon on the same differences
    assert stats.wilcoxon(DB).pvalue == pytest.approx(P_EXACT)
    assert stats.wilcoxon(DB - CP).pvalue == pytest.approx(P_EXACT)
    assert stats.wilcoxon(DB - CR).pvalue == pytest.approx(P_EXACT)
    assert stats.wilcoxon(CP).pvalue == pytest.approx(50 / 256)
    assert stats.wilcoxon(CR).pvalue > 0.5


def _by_pair(result, col):
    return result.pairs.set_index(["system_a", "system_b"])[col].to_dict()


def test_classes_under_each_convention(table):
    holm = compare(table, "p", "r", correction="holm")
    raw = compare(table, "p", "r", correction="none")
    assert _by_pair(raw, "uir")[("B", "A")] == 0.5
    assert _by_pair(raw, "uir")[("C", "A")] == 0.25
    assert _by_pair(raw, "uir")[("B", "C")] == 0.5
    cls_raw = _by_pair(raw, "pair_class")
    assert (cls_raw[("B", "A")], cls_raw[("B", "C")], cls_raw[("C", "A")]) == \
        ("concordant", "concordant", "none")
    assert set(_by_pair(holm, "pair_class").values()) == {"none"}
    # improved systems: >= 0.25 -> B: A, C; C: A (3 relations); strict > 0.25 -> C improves none
    loose = improved_systems(raw.pairs, ["A", "B", "C"], 0.25, strict=False)
    strict = improved_systems(raw.pairs, ["A", "B", "C"], 0.25, strict=True)
    assert loose["improved_systems"].tolist() == [[], ["A", "C"], ["A"]]
    assert strict["improved_systems"].tolist() == [[], ["A", "C"], []]
    assert (loose["n_improved"].sum(), strict["n_improved"].sum()) == (3, 2)


def _f(p, r, alpha=0.5):
    return f_alpha(np.asarray(p), np.asarray(r), alpha).mean()


def test_jair_tables_5_and_6_by_hand(table):
    raw = compare(table, "p", "r", correction="none")
    fa, fb, fc = (_f(*SCORES[s]) for s in "ABC")
    # F_0.5: B = 0.5 + mean(dB) = 0.5375; C slightly above A -> increasing pairs (B,A) (B,C) (C,A)
    assert fb == pytest.approx(0.5375) and fc > fa
    # B beats A and C for every alpha; C vs A crosses (R mean of C below 0.5, P mean above)
    t5 = jair_table5(raw.pairs).set_index("set")
    assert t5.loc["all_alpha", "n_pairs"] == 2 and t5.loc["other", "n_pairs"] == 1
    assert t5.loc["all_alpha", "mean_uir"] == pytest.approx(0.5)
    assert t5.loc["other", "mean_uir"] == pytest.approx(0.25)
    assert t5.loc["all_alpha", "mean_abs_delta_f"] == pytest.approx(((fb - fa) + (fb - fc)) / 2)
    assert t5.loc["other", "mean_abs_delta_f"] == pytest.approx(fc - fa)
    assert t5.loc["other", "mean_rel_delta_f"] == pytest.approx((fc - fa) / fa)
    t6 = jair_table6(raw.pairs).set_index("set")
    assert t6["n_pairs"].to_dict() == {"concordant": 2, "opposite": 0, "none": 1, "worsening": 0}
    assert t6.loc["concordant", "mean_uir"] == pytest.approx(0.5)
    assert np.isnan(t6.loc["opposite", "mean_uir"])
    # Holm: all three pairs in "none", mean UIR (0.5 + 0.5 + 0.25) / 3
    t6h = jair_table6(compare(table, "p", "r").pairs).set_index("set")
    assert t6h.loc["none", "n_pairs"] == 3
    assert t6h.loc["none", "mean_uir"] == pytest.approx(1.25 / 3)


def test_weps_table2_reversal_by_hand():
    # X: P 0.9, R 0.4 + 0.001 t; Y: P 0.5, R 0.55. F_0.5: X 0.554.. > Y 0.524 on every topic;
    # F_0.2: X 0.45.. < Y 0.539 on every topic -> p = 2 / 256 at both alphas, opposite signs
    t = np.arange(8)
    rows = []
    for i in t:
        rows += [("X", f"t{i}", "p", 0.9), ("X", f"t{i}", "r", 0.4 + 0.001 * i),
                 ("Y", f"t{i}", "p", 0.5), ("Y", f"t{i}", "r", 0.55)]
    tab = pd.DataFrame(rows, columns=["system", "topic", "metric", "value"])
    out, counts = weps_table2(tab, "p", "r", (0.5, 0.2))
    row = out.iloc[0]
    assert (row.system_a, row.system_b) == ("X", "Y")
    assert row["p_0.5"] == pytest.approx(2 / 256)
    assert row["p_0.2"] == pytest.approx(2 / 256)
    assert row["delta_0.5"] > 0 > row["delta_0.2"] and bool(row.reverses)
    assert row["f_a_0.5"] == pytest.approx(f_alpha(0.9, 0.4 + 0.001 * t, 0.5).mean())
    assert counts == {"n_pairs": 1, "significant_0.5": 1, "significant_0.2": 1, "reversed": 1,
                      "correction": "none", "level": 0.05}


def test_weps_table2_on_the_three_systems(table):
    out, counts = weps_table2(table, "p", "r")
    ba = out.set_index(["system_a", "system_b"]).loc[("A", "B")]
    # F_alpha(B) - F_alpha(A) = dB on every topic for every alpha: p = 10/256, A below B
    assert ba["p_0.5"] == pytest.approx(P_EXACT) and ba["p_0.2"] == pytest.approx(P_EXACT)
    assert ba["delta_0.5"] == pytest.approx(-DB.mean()) and not ba["reverses"]
    for r in out.to_dict(orient="records"):  # every p-value against scipy on per-topic F
        pa, ra = SCORES[r["system_a"]]
        pb, rb = SCORES[r["system_b"]]
        for a in (0.5, 0.2):
            d = f_alpha(pa, ra, a) - f_alpha(pb, rb, a)
            assert r[f"p_{a:g}"] == pytest.approx(stats.wilcoxon(d).pvalue)
    assert counts["reversed"] == 0


def test_weakest_metric_ten_pairs():
    # 12 systems strictly ordered on both metrics: 66 improving ordered pairs; the ten with the
    # largest weakest improvement (R: 0.04 per index step, noise < 0.004) are those with the
    # largest gap in system index: 1 pair of gap 11, 2 of gap 10, 3 of gap 9, 4 of gap 8
    S, T = 12, 6
    rows = []
    for s in range(S):
        for t in range(T):
            rows += [(f"s{s:02d}", f"t{t}", "p", 0.2 + 0.05 * s + 0.001 * t),
                     (f"s{s:02d}", f"t{t}", "r", 0.2 + 0.04 * s + 0.002 * ((s * t) % 3))]
    res = compare(pd.DataFrame(rows, columns=["system", "topic", "metric", "value"]), "p", "r",
                  test="none")
    allp = res.weakest_metric
    top = weakest_metric_top(allp["points"], 10)
    assert allp["n"] == 66 and top["n"] == 10
    assert top["points"]["weakest_delta"].min() >= allp["points"]["weakest_delta"].nlargest(10).min()
    gaps = [int(a[1:]) - int(b[1:]) for a, b in zip(top["points"]["system_a"], top["points"]["system_b"])]
    assert sorted(gaps, reverse=True) == [11, 10, 10, 9, 9, 9, 8, 8, 8, 8]


def test_cli_profile_jair2011_and_default(tmp_path, table):
    src = tmp_path / "scores.csv"
    table.to_csv(src, index=False)
    out_j, out_d = tmp_path / "jair", tmp_path / "default"
    assert main(["compare", str(src), "--metrics", "p,r", "--out", str(out_j),
                 "--profile", "jair2011", "--latex"]) == 0
    assert main(["compare", str(src), "--metrics", "p,r", "--out", str(out_d)]) == 0
    bj, bd = open_bundle(out_j), open_bundle(out_d)
    assert bj.options["correction"] == "none" and bd.options["correction"] == "holm"
    assert "jair_table5" in bj.tables and "jair_table5" not in bd.tables
    t6 = bj.tables["jair_table6"].set_index("set")["n_pairs"].to_dict()
    assert t6 == {"concordant": 2, "opposite": 0, "none": 1, "worsening": 0}
    assert bj.tables["improved_systems"]["n_improved"].tolist() == [0, 2, 0]
    assert bj.json["paper_tables"]["improved_rule"] == "UIR > 0.25"
    assert "JAIR 2011 Table 6" in bj.texts["report"]
    # the ranking follows the classes: with the papers' convention B is above A and C ...
    rj = bj.tables["ranking"].set_index("system")
    assert rj.loc["B", ["rank_low", "rank_high", "group"]].tolist() == [1, 1, 1]
    assert rj.loc["A", ["rank_low", "rank_high", "group"]].tolist() == [2, 3, 2]
    # ... with Holm nothing is significant, so no robust improvement separates any system
    rd = bd.tables["ranking"].set_index("system")
    assert rd["rank_low"].tolist() == [1, 1, 1] and rd["rank_high"].tolist() == [3, 3, 3]
    # explicit --correction wins over the profile
    out_h = tmp_path / "jair_holm"
    assert main(["compare", str(src), "--metrics", "p,r", "--out", str(out_h),
                 "--profile", "jair2011", "--correction", "holm"]) == 0
    assert json.loads((out_h / "summary.json").read_text())["parameters"]["correction"] == "holm"


def _tiny_campaign(tmp_path):
    """One topic, four items, gold classes {a, b}, {c, d}; one run (all in one cluster)."""
    root = tmp_path / "camp"
    (root / "runs").mkdir(parents=True)
    (root / "gold.csv").write_text("topic,item,cluster\nT,a,x\nT,b,x\nT,c,y\nT,d,y\n")
    (root / "runs" / "sys.csv").write_text("topic,item,cluster\nT,a,1\nT,b,1\nT,c,1\nT,d,1\n")
    (root / "runs" / "two.csv").write_text("topic,item,cluster\nT,a,1\nT,b,1\nT,c,2\nT,d,3\n")
    return load(root)


def test_random_baselines_by_k_by_hand(tmp_path):
    camp = _tiny_campaign(tmp_path)
    out = random_baselines_by_k(camp, "bcubed_precision", "bcubed_recall", ks=[1, 2, 4], runs=3)
    got = out.set_index(["algorithm", "k"])
    # k = 1: all in one: P = 2/4 = 0.5, R = 1, F_0.9 = 1 / (0.9 / 0.5 + 0.1) = 1 / 1.9
    # k = 4: singletons: P = 1, R = 0.5, F_0.9 = 1 / (0.9 + 0.1 / 0.5) = 1 / 1.1
    for algo in ("random", "ultra-shaped"):
        assert got.loc[(algo, "1"), "f_mean"] == pytest.approx(1 / 1.9)
        assert got.loc[(algo, "4"), "f_mean"] == pytest.approx(1 / 1.1)
        assert got.loc[(algo, "1"), "f_sd"] == 0
    # ultra-shaped k = 2: one singleton + three together, whichever item: P = (1 + 1/3 + 2/3 +
    # 2/3) / 4 = 2/3, R = (1/2 + 1/2 + 1 + 1) / 4 = 3/4
    assert got.loc[("ultra-shaped", "2"), "precision"] == pytest.approx(2 / 3)
    assert got.loc[("ultra-shaped", "2"), "recall"] == pytest.approx(3 / 4)
    # random k = 2: two pairs, either the gold ({ab}{cd}: P = R = 1) or not (P = R = 1/2)
    pr = got.loc[("random", "2")]
    assert pr["precision"] == pytest.approx(pr["recall"])
    assert pr["precision"] * 6 == pytest.approx(round(pr["precision"] * 6))
    # the average over k rows
    avg = got.loc[("ultra-shaped", "1-4"), "f_mean"]
    assert avg == pytest.approx(got.loc[[("ultra-shaped", k) for k in "124"], "f_mean"].mean())


def test_cli_random_baselines(tmp_path):
    _tiny_campaign(tmp_path)
    out = tmp_path / "res"
    assert main(["compare", str(tmp_path / "camp"), "--metrics", "bcubed_precision,bcubed_recall",
                 "--out", str(out), "--random-baselines"]) == 0
    rb = open_bundle(out).tables["random_baselines"]
    assert rb["k"].tolist()[-2:] == ["2-20", "2-20"] and len(rb) == 2 * 19 + 2
    # k >= 4 is capped at the topic's 4 items: singletons, F_0.9 = 1 / 1.1
    assert np.allclose(rb.loc[rb["k"] == "20", "f_mean"], 1 / 1.1)
