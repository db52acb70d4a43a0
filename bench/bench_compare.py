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
"""

from __future__ import annotations

import os
import time
from pathlib import Path

import numpy as np
import pandas as pd
from timing import best_of

from metrics.analyses import compare, comparison_at, comparison_core
from metrics.comparison.uir import uir_matrix
from metrics.io import load
from metrics.measures.scoring import evaluate

ROOT = Path(__file__).resolve().parents[1]
FIXTURE = ROOT / "tests" / "data" / "replab2013_official_rs.csv.gz"
OFFICIAL = ROOT.parent / "shared" / "campaigns" / "replab2013" / "official_scores"



def random_table(n_systems: int = 400, n_topics: int = 1000, seed: int = 0) -> pd.DataFrame:
    """Score table of correlated precision / recall with some exact ties (rounded scores)."""
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
    frames = [
        pd.DataFrame({"system": systems, "topic": topics, "metric": name, "value": v.ravel()})
        for name, v in (("precision", p), ("recall", r))
    ]
    return pd.concat(frames, ignore_index=True)


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
    table = random_table()
    ours = best_of(lambda: uir_matrix(table, ["precision", "recall"]))
    t0 = time.perf_counter()
    ref = loop_uir(table)
    loop = time.perf_counter() - t0
    got = uir_matrix(table, ["precision", "recall"]).uir
    if not np.allclose(got, ref, atol=0, rtol=0):
        raise AssertionError("uir_matrix disagrees with the per-pair loop")
    out.append(("uir_all_pairs_400x1000", loop / ours,
                f"ours {ours:.3f} s (target <= 2 s) vs per-pair numpy loop {loop:.2f} s; "
                f"159,600 ordered pairs, identical values"))

    rep = replab_table()
    beds = {t: t[6:9] for t in pd.unique(rep["topic"])}
    secs = best_of(lambda: compare(rep, "reliability", "sensitivity", test="wilcoxon"))
    with_beds = best_of(lambda: compare(rep, "reliability", "sensitivity", test="wilcoxon",
                                         testbeds=beds), repeat=1)
    out.append(("compare_replab", 3.0 / secs,
                f"compare on RepLab 2013 (35 systems, 1,190 ordered pairs, Wilcoxon x 2 metrics) "
                f"{secs:.3f} s, target <= 3 s; with cross-test-bed prediction over 4 domains "
                f"{with_beds:.3f} s"))

    big = random_table(400, 60)
    core_s = best_of(lambda: comparison_core(big, "precision", "recall", test="wilcoxon"), repeat=2)
    core = comparison_core(big, "precision", "recall", test="wilcoxon")
    alphas = iter(np.linspace(0.05, 0.95, 50))
    step_s = best_of(lambda: comparison_at(core, next(alphas), 0.25), repeat=5)
    whole_s = best_of(lambda: compare(big, "precision", "recall", alpha=0.3, test="wilcoxon"),
                      repeat=1)
    out.append(("compare_400_systems", min(2.0 / core_s, 0.1 / step_s),
                f"400 systems x 60 topics (79,800 pairs, Wilcoxon x 2 metrics): core "
                f"{core_s:.3f} s (target <= 2 s), alpha/threshold step {step_s:.3f} s "
                f"(target <= 0.1 s), whole compare {whole_s:.3f} s"))

    # the whole pipeline a user runs: load the bundled clusterings, BCubed P/R, compare
    demo = ROOT / "demo_data" / "replab2013"

    def pipeline():
        campaign = load(demo)
        scores = evaluate(campaign, ["bcubed_precision", "bcubed_recall"])
        return compare(scores, "bcubed_precision", "bcubed_recall", test="wilcoxon",
                       testbeds=campaign.topic_testbeds())

    whole = best_of(pipeline, repeat=2)
    out.append(("compare_replab_from_files", 3.0 / whole,
                f"load bundled RepLab + BCubed P/R of 35 runs + compare with Wilcoxon and "
                f"cross-test-bed prediction: {whole:.3f} s, target <= 3 s"))
    return out


if __name__ == "__main__":  # pragma: no cover
    for name, ratio, detail in run():
        print(f"RATIO {name} {ratio:.2f}    # {detail}")
