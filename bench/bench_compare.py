"""Comparison-engine benchmarks (issue: comparison engine, docs/measures.md §4-6).

* ``uir_all_pairs_400x1000``: the UIR matrix of 400 systems x 1,000 topics x 2 metrics, from the
  score table (target <= 2 s); ratio = time of a straightforward per-pair numpy loop / ours.
* ``compare_replab``: the whole :func:`metrics.analyses.compare` on RepLab 2013 (35 systems,
  1,190 ordered pairs, Reliability / Sensitivity = BCubed precision / recall) with Wilcoxon for
  every pair and metric; ratio = 3 s target / measured seconds.
* ``compare_400_systems``: :func:`metrics.analyses.compare` on 400 systems x 60 topics (79,800
  unordered pairs, Wilcoxon x 2 metrics), split as the dashboard uses it: the alpha-free
  :func:`~metrics.analyses.comparison_core` (target <= 2 s) and the alpha / threshold step
  :func:`~metrics.analyses.comparison_at` (target <= 0.1 s); ratio = the smaller
  of target / measured for the two (>= 1: both targets met).
* ``compare_3_vs_2_metrics_100x60``: ``compare`` with three metrics (UIR, parametric UIR and
  Wilcoxon over all three) against the same call with two, 100 systems x 60 topics, taking
  turns; ratio = two-metric seconds / three-metric seconds (target >= 0.4: at most 2.5x).
* ``compare_400x60x3``: the same at 400 systems (159,600 ordered pairs); ratio = 90 s target /
  measured, the two-metric call of the same run in the detail.
* ``parametric_uir_3_metrics_vs_scipy_400x60``: the all-pairs parametric UIR of three metrics
  (:func:`metrics.comparison.parametric.parametric_all_pairs`) against SciPy's
  ``multivariate_normal.cdf`` at the tolerance the project used before (1e-7, twice per ordered
  pair), timed on 12 pairs and scaled to all; the largest difference on those pairs in the
  detail.

``--quick`` (bench/run.py): 100 systems instead of 400, 40 instead of 100 for the three-vs-two
figure, 200 topics instead of 1,000 for the UIR matrix.
"""

from __future__ import annotations

import os
import time
from pathlib import Path

import numpy as np
import pandas as pd
from scipy import stats
from timing import best_of, best_of_each, sized

from metrics.analyses import compare, comparison_at, comparison_core
from metrics.comparison.parametric import parametric_all_pairs
from metrics.comparison.uir import oriented, uir_matrix
from metrics.io import load
from metrics.measures.scoring import evaluate
from metrics.model.score_table import score_cube

ROOT = Path(__file__).resolve().parents[1]
FIXTURE = ROOT / "tests" / "data" / "replab2013_official_rs.csv.gz"
OFFICIAL = ROOT.parent / "shared" / "campaigns" / "replab2013" / "official_scores"



def random_table(n_systems: int = 400, n_topics: int = 1000, seed: int = 0,
                 accuracy: bool = False) -> pd.DataFrame:
    """Score table of correlated precision / recall with some exact ties (rounded scores); with
    ``accuracy``, a third metric near their mean (its own random stream: precision and recall
    stay the same)."""
    rng = np.random.default_rng(seed)
    skill = rng.uniform(0.2, 0.8, size=(n_systems, 1))
    bias = rng.uniform(-0.3, 0.3, size=(n_systems, 1))
    noise = rng.normal(0, 0.15, size=(n_systems, n_topics, 2))
    p = np.clip(skill + bias + noise[:, :, 0], 0, 1)
    r = np.clip(skill - bias + noise[:, :, 1], 0, 1)
    p = np.round(p, 3)
    r = np.round(r, 3)
    systems = np.repeat([f"s{i:03d}" for i in range(n_systems)], n_topics)
    topics = np.tile([f"t{j:04d}" for j in range(n_topics)], n_systems)
    named = [("precision", p), ("recall", r)]
    if accuracy:
        extra = np.random.default_rng(seed + 1).normal(0, 0.05, size=p.shape)
        named.append(("accuracy", np.round(np.clip((p + r) / 2 + extra, 0, 1), 3)))
    frames = [
        pd.DataFrame({"system": systems, "topic": topics, "metric": name, "value": v.ravel()})
        for name, v in named
    ]
    return pd.concat(frames, ignore_index=True)


THREE = ["precision", "recall", "accuracy"]


def _scipy_parametric(D: np.ndarray) -> float:
    """Parametric UIR of one pair's differences the way it was computed before: SciPy's
    multivariate normal CDF (Genz's quasi-Monte Carlo, tolerance 1e-7) twice."""
    mu, cov = D.mean(axis=0), np.cov(D, rowvar=False)
    sd = np.sqrt(np.diag(cov))
    corr = cov / np.outer(sd, sd)
    k = mu.size
    mvn = stats.multivariate_normal(mean=np.zeros(k), cov=corr, allow_singular=True,
                                    maxpts=200_000 * k, abseps=1e-7, releps=1e-7)
    h = mu / sd
    return float(mvn.cdf(h, rng=np.random.default_rng(0))
                 - mvn.cdf(-h, rng=np.random.default_rng(0)))


def bench_three_metrics() -> list[tuple[str, float, str]]:
    out = []
    S, T = sized(100, 40), 60
    table = random_table(S, T, accuracy=True)
    t = best_of_each({
        "two": lambda: compare(table, "precision", "recall", test="wilcoxon"),
        "three": lambda: compare(table, "precision", "recall", metrics=THREE, test="wilcoxon"),
    }, repeat=3)
    out.append((f"compare_3_vs_2_metrics_{S}x{T}", t["two"] / t["three"],
                f"three metrics {t['three']:.2f} s = {t['three'] / t['two']:.2f}x the same call "
                f"with two ({t['two']:.2f} s); target <= 2.5x"))

    S = sized(400, 100)
    table = random_table(S, T, accuracy=True)
    t = best_of_each({
        "two": lambda: compare(table, "precision", "recall", test="wilcoxon"),
        "three": lambda: compare(table, "precision", "recall", metrics=THREE, test="wilcoxon"),
    }, repeat=1)
    out.append((f"compare_{S}x{T}x3", 90.0 / t["three"],
                f"{S} systems, three metrics {t['three']:.1f} s (target <= 90 s) = "
                f"{t['three'] / t['two']:.2f}x the two-metric call ({t['two']:.1f} s)"))

    X = oriented(score_cube(table, THREE), None)
    ours = best_of(lambda: parametric_all_pairs(X), repeat=1)
    mine = parametric_all_pairs(X)
    pairs = [(a, a + 1) for a in range(0, 24, 2)]
    t0 = time.perf_counter()
    ref = [_scipy_parametric(X[a] - X[b]) for a, b in pairs]
    per_pair = (time.perf_counter() - t0) / len(pairs)
    diff = max(abs(mine.value[a, b] - r) for (a, b), r in zip(pairs, ref, strict=True))
    n_ordered = S * (S - 1)
    out.append((f"parametric_uir_3_metrics_vs_scipy_{S}x{T}", per_pair * n_ordered / ours,
                f"all {n_ordered:,} ordered pairs {ours:.2f} s vs SciPy's "
                f"multivariate_normal.cdf {per_pair * 1e3:.0f} ms a pair (12 pairs timed) -> "
                f"{per_pair * n_ordered:,.0f} s; "
                f"largest difference on those pairs {diff:.1e}"))
    return out


def loop_uir(table: pd.DataFrame, metrics=("precision", "recall"), tol: float = 1e-9) -> np.ndarray:
    """The straightforward route: pivot once, then numpy per ordered pair."""
    wide = table.pivot_table(index=["system", "topic"], columns="metric", values="value")
    systems = list(pd.unique(table["system"]))
    arrays = [wide.loc[s, list(metrics)].to_numpy() for s in systems]
    S = len(systems)
    out = np.zeros((S, S))
    for i in range(S):
        xa = arrays[i]
        for j in range(S):
            xb = arrays[j]
            ge_ab = np.all(xa >= xb - tol, axis=1)
            ge_ba = np.all(xb >= xa - tol, axis=1)
            out[i, j] = (ge_ab.sum() - ge_ba.sum()) / xa.shape[0]
    return out


def replab_table() -> pd.DataFrame:
    """RepLab 2013 official per-entity Reliability / Sensitivity as a score table."""
    if OFFICIAL.exists():
        rows = []
        for path in sorted(OFFICIAL.glob("*.tsv")):
            d = pd.read_csv(path, sep="\t")
            d = d[d["entity"] != "average"]
            name = d["system"].map(lambda s: os.path.basename(str(s).rstrip("/")))
            for col, metric in (("Reliability", "reliability"), ("Sensitivity", "sensitivity")):
                rows.append(pd.DataFrame({"system": name, "topic": d["entity"], "metric": metric,
                                          "value": d[col].astype(float)}))
        return pd.concat(rows, ignore_index=True)
    return pd.read_csv(FIXTURE, dtype={"system": str, "topic": str, "metric": str})


def run() -> list[tuple[str, float, str]]:
    out = []
    n_sys, n_top = sized(400, 100), sized(1000, 200)
    table = random_table(n_sys, n_top)
    ours = best_of(lambda: uir_matrix(table, ["precision", "recall"]))
    t0 = time.perf_counter()
    ref = loop_uir(table)
    loop = time.perf_counter() - t0
    got = uir_matrix(table, ["precision", "recall"]).uir
    if not np.allclose(got, ref, atol=0, rtol=0):
        raise AssertionError("uir_matrix disagrees with the per-pair loop")
    out.append((f"uir_all_pairs_{n_sys}x{n_top}", loop / ours,
                f"ours {ours:.3f} s (target <= 2 s) vs per-pair numpy loop {loop:.2f} s; "
                f"{n_sys * (n_sys - 1):,} ordered pairs, identical values"))

    rep = replab_table()
    beds = {t: t[6:9] for t in pd.unique(rep["topic"])}
    secs = best_of(lambda: compare(rep, "reliability", "sensitivity", test="wilcoxon"))
    with_beds = best_of(lambda: compare(rep, "reliability", "sensitivity", test="wilcoxon",
                                         testbeds=beds), repeat=1)
    out.append(("compare_replab", 3.0 / secs,
                f"compare on RepLab 2013 (35 systems, 1,190 ordered pairs, Wilcoxon x 2 metrics) "
                f"{secs:.3f} s, target <= 3 s; with cross-test-bed prediction over 4 domains "
                f"{with_beds:.3f} s"))

    big = random_table(sized(400, 100), 60)
    core_s = best_of(lambda: comparison_core(big, "precision", "recall", test="wilcoxon"), repeat=2)
    core = comparison_core(big, "precision", "recall", test="wilcoxon")
    alphas = iter(np.linspace(0.05, 0.95, 50))
    step_s = best_of(lambda: comparison_at(core, next(alphas), 0.25), repeat=5)
    whole_s = best_of(lambda: compare(big, "precision", "recall", alpha=0.3, test="wilcoxon"),
                      repeat=1)
    out.append((f"compare_{sized(400, 100)}_systems", min(2.0 / core_s, 0.1 / step_s),
                f"{sized(400, 100)} systems x 60 topics (Wilcoxon x 2 metrics): core "
                f"{core_s:.3f} s (target <= 2 s), alpha/threshold step {step_s:.3f} s "
                f"(target <= 0.1 s), whole compare {whole_s:.3f} s"))

    # the whole pipeline a user runs: load the bundled clusterings, BCubed P/R, compare
    demo = ROOT / "demo_data" / "replab2013"

    def pipeline():
        campaign = load(demo)
        scores = evaluate(campaign, ["bcubed_precision", "bcubed_recall"])
        return compare(scores, "bcubed_precision", "bcubed_recall", test="wilcoxon",
                       testbeds=campaign.topic_testbeds())

    whole = best_of(pipeline, repeat=sized(2, 1))
    out.append(("compare_replab_from_files", 3.0 / whole,
                f"load bundled RepLab + BCubed P/R of 35 runs + compare with Wilcoxon and "
                f"cross-test-bed prediction: {whole:.3f} s, target <= 3 s"))
    return out + bench_three_metrics()


if __name__ == "__main__":  # pragma: no cover
    for name, ratio, detail in run():
        print(f"RATIO {name} {ratio:.2f}    # {detail}")
