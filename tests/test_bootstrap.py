"""Bootstrap over topics: intervals of UIR, parametric UIR, Delta F and simultaneous rank
confidence sets (metrics/comparison/bootstrap.py, rank_confidence.py, analyses/uncertainty.py)."""

from __future__ import annotations

import numpy as np
import pandas as pd
import pytest
from compare_cli import run_compare
from score_examples import random_score_table

from metrics.analyses import compare
from metrics.analyses.uncertainty import bootstrap_comparison, with_bootstrap
from metrics.comparison.bootstrap import (
    resample_counts,
    resample_indices,
    topic_strata,
)
from metrics.comparison.combine import campaign_f
from metrics.comparison.parametric import parametric_uir
from metrics.comparison.rank_confidence import rank_confidence_sets
from metrics.comparison.uir import uir
from metrics.errors import UnanimityError

P, R = "bcubed_precision", "bcubed_recall"


def _boot(table, n=300, seed=5, confidence=0.9, testbeds=None, metrics=None):
    res = compare(table, P, R, test="none", metrics=metrics)
    return res, with_bootstrap(res, bootstrap_comparison(table, res, n, seed, confidence,
                                                          testbeds))


def test_intervals_contain_the_point_estimate():
    _, res = _boot(random_score_table(12, 25, seed=3))
    p = res.pairs
    for col in ("uir", "uir_param", "delta_f"):
        assert (p[f"{col}_low"] <= p[col] + 1e-7).all(), col
        assert (p[col] <= p[f"{col}_high"] + 1e-7).all(), col
        assert (p[f"{col}_low"] < p[f"{col}_high"]).mean() > 0.5  # not degenerate
    s = res.systems
    assert ((s["rank_ci_low"] <= s["rank"]) & (s["rank"] <= s["rank_ci_high"])).all()


def test_antisymmetric_pairs():
    _, res = _boot(random_score_table(6, 15, seed=4))
    p = res.pairs.set_index(["system_a", "system_b"])
    rev = p.reindex(pd.MultiIndex.from_arrays([p.index.get_level_values(1),
                                               p.index.get_level_values(0)]))
    for col in ("uir", "delta_f"):
        np.testing.assert_allclose(p[f"{col}_low"].to_numpy(), -rev[f"{col}_high"].to_numpy(),
                                   atol=1e-7)


def _mean_width(table, col):
    _, res = _boot(table, n=400, seed=2)
    return float((res.pairs[f"{col}_high"] - res.pairs[f"{col}_low"]).mean())


@pytest.mark.parametrize("col", ["uir", "delta_f", "uir_param"])
def test_intervals_shrink_as_topics_are_added(col):
    widths = [_mean_width(random_score_table(8, n, seed=11), col) for n in (10, 40, 160)]
    assert widths[0] > widths[1] > widths[2]
    assert widths[2] < 0.75 * widths[0]


def _resampled_table(table, topics, rows):
    """The score table of one resample: topic rows[u] renamed to its draw position u (a loop)."""
    parts = []
    for u, t in enumerate(rows):
        part = table[table["topic"] == topics[t]].copy()
        part["topic"] = f"draw{u}"
        parts.append(part)
    return pd.concat(parts, ignore_index=True)


def test_matches_a_plain_loop_reference_with_the_same_seed():
    table = random_score_table(4, 8, seed=9)
    table.loc[(table["system"] == table["system"].iloc[0]) & (table["topic"] == "topic003"),
              "value"] = np.nan   # a missing score: the pair leaves that topic out
    n, seed, conf = 60, 17, 0.8
    res = compare(table, P, R, test="none")
    boot = with_bootstrap(res, bootstrap_comparison(table, res, n, seed, conf)).pairs
    topics = list(pd.unique(table["topic"]))
    idx = np.random.default_rng(seed).integers(0, len(topics), size=(n, len(topics)))
    systems = list(res.systems["system"])
    for a in systems:
        for b in systems:
            if a == b:
                continue
            u, par, df = [], [], []
            for rows in idx:
                sub = _resampled_table(table, topics, rows)
                u.append(uir(sub, a, b, [P, R]).uir)
                par.append(parametric_uir(sub, a, b, [P, R]))
                f = campaign_f(sub, P, R)
                df.append(f[a] - f[b])
            row = boot[(boot["system_a"] == a) & (boot["system_b"] == b)].iloc[0]
            for name, vals in (("uir", u), ("uir_param", par), ("delta_f", df)):
                lo = np.quantile(vals, (1 - conf) / 2, method="lower")
                hi = np.quantile(vals, (1 + conf) / 2, method="higher")
                assert row[f"{name}_low"] == pytest.approx(lo, abs=1e-6), (a, b, name)
                assert row[f"{name}_high"] == pytest.approx(hi, abs=1e-6), (a, b, name)


def test_stratified_resamples_keep_each_bed():
    topics = [f"t{i}" for i in range(9)]
    beds = {t: ("A" if i < 3 else "B") for i, t in enumerate(topics)}
    strata = topic_strata(topics, beds)
    idx = resample_indices(9, 200, 1, strata)
    assert (idx[:, :3] < 3).all() and (idx[:, 3:] >= 3).all()
    counts = resample_counts(idx, 9)
    assert (counts[:, :3].sum(axis=1) == 3).all() and (counts.sum(axis=1) == 9).all()
    assert set(np.unique(idx[:, :3])) == {0, 1, 2}


def test_seed_reproduces_and_changes():
    table = random_score_table(5, 12, seed=2)
    a = _boot(table, seed=1)[1].pairs["delta_f_low"]
    b = _boot(table, seed=1)[1].pairs["delta_f_low"]
    c = _boot(table, seed=2)[1].pairs["delta_f_low"]
    assert a.equals(b) and not a.equals(c)


def _coverage(theta, reps=300, T=30, N=400, conf=0.9, seed=0):
    """Share of replications whose rank sets all hold, and the mean width of the sets."""
    rng = np.random.default_rng(seed)
    S = theta.size
    true_rank = 1 + (theta[None, :] > theta[:, None]).sum(axis=1)
    covered, width = 0, 0.0
    for r in range(reps):
        scores = theta[:, None] + rng.normal(0, 0.1, (1, T)) + rng.normal(0, 0.08, (S, T))
        rc = rank_confidence_sets(scores, resample_counts(resample_indices(T, N, r), T), conf)
        covered += bool(((rc.low <= true_rank) & (true_rank <= rc.high)).all())
        width += float((rc.high - rc.low).mean()) / reps
    return covered / reps, width


def test_rank_confidence_sets_cover_the_true_ranking_at_the_stated_rate():
    """Simulation, 300 replications, confidence 0.9. All systems equal (the least favourable
    case: the sets hold iff the stepdown concludes nothing, so the rate is the stated one):
    within three standard errors of 0.9. Distinct means with two close pairs: at least 0.9
    within sampling error, and the sets are informative (narrower than the whole list)."""
    conf, reps = 0.9, 300
    se = np.sqrt(conf * (1 - conf) / reps)
    rate, _ = _coverage(np.full(6, 0.5), reps=reps, conf=conf)
    assert conf - 3 * se <= rate <= conf + 3 * se
    rate, width = _coverage(np.array([0.60, 0.58, 0.50, 0.40, 0.39, 0.30]), reps=reps,
                            conf=conf, seed=1)
    assert rate >= conf - 3 * se
    assert width < 2.0


def test_rank_sets_separate_clearly_different_systems():
    scores = np.array([[0.9] * 20, [0.5] * 20, [0.1] * 20]) + np.linspace(0, 0.01, 20)
    rc = rank_confidence_sets(scores, resample_counts(resample_indices(20, 200, 0), 20), 0.95)
    assert rc.low.tolist() == [1, 2, 3] and rc.high.tolist() == [1, 2, 3]



def test_cli_writes_the_intervals(tmp_path, capsys):
    src = tmp_path / "scores.csv"
    random_score_table(5, 10, seed=1).to_csv(src, index=False)
    out = tmp_path / "out"
    assert run_compare([str(src), "--metrics", f"{P},{R}", "--out", str(out), "--bootstrap", "100",
                 "--seed", "4", "--confidence", "0.9"]) == 0
    assert "bootstrap: 100 resamples over topics, seed 4, 0.9 intervals" in capsys.readouterr().out
    pairs = pd.read_csv(out / "pairs.csv")
    for col in ("uir_low", "uir_high", "delta_f_low", "delta_f_high", "uir_param_low"):
        assert pairs[col].notna().all()
    ranking = pd.read_csv(out / "ranking.csv")
    assert list(ranking.columns[:5]) == ["system", "rank_low", "rank_high", "rank_ci_low",
                                         "rank_ci_high"]
    with pytest.raises(UnanimityError, match="--confidence"):
        run_compare([str(src), "--metrics", f"{P},{R}", "--out", str(out), "--bootstrap", "10",
              "--confidence", "1.5"])


def test_bundle_format_4_reopens_with_the_intervals_and_3_still_reads(tmp_path):
    import json  # noqa: PLC0415 - only here

    from metrics.reports.bundle import open_bundle, write_comparison_bundle  # noqa: PLC0415

    src = tmp_path / "scores.csv"
    table = random_score_table(4, 8, seed=2)
    table.to_csv(src, index=False)
    out = tmp_path / "b4"
    assert run_compare([str(src), "--metrics", f"{P},{R}", "--out", str(out), "--bootstrap", "50"]) == 0
    b4 = open_bundle(out)
    assert {"uir_low", "delta_f_high"} <= set(b4.pairs.columns)
    assert {"rank_ci_low", "pareto_means"} <= set(b4.tables["ranking"].columns)
    assert {"aggregation", "aggregation_tau", "aggregation_flips"} <= set(b4.tables)
    # a bundle of the layout before the intervals, marked version 3, is still read
    old = tmp_path / "b3"
    write_comparison_bundle(compare(table, P, R, test="none"), old)
    manifest = json.loads((old / "manifest.json").read_text())
    manifest["format_version"] = 3
    (old / "manifest.json").write_text(json.dumps(manifest))
    b3 = open_bundle(old)
    assert "uir_low" not in b3.pairs.columns and "aggregation" not in b3.tables
