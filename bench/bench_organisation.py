"""Document organisations on TREC DL 2019 (37 runs x 43 topics, up to 1,000 ranked passages).

* ``load_trec_dl``: load the campaign from ``../shared`` (target <= 3 s; ratio 3 / seconds).
* ``organisation_rs_trec_dl``: Reliability and Sensitivity of every run and topic after loading
  (target <= 2 s; ratio 2 / seconds).
* ``organisation_rs_vs_pairs``: the same against a straightforward per-pair implementation of
  the definition (the paper's O(n²) route: a Python loop over every pair of occurrences), timed
  on a few topics of the longest runs and scaled to all 37 x 43 (target >= 100);
* ``organisation_rs_vs_pair_matrices``: against the pairs as numpy matrices (every occurrence
  pair at once, one topic at a time), timed on three full runs and scaled; both routes give the
  fast route's numbers (largest difference printed).

Skipped (no line) when the shared campaign is absent. ``--quick`` (bench/run.py): the two
per-pair routes are left out, one load and one scoring.
"""

from __future__ import annotations

import time
from pathlib import Path

import numpy as np
from timing import best_of, quick, sized

from metrics.io import load
from metrics.measures.organisation.scores import campaign_sides
from metrics.measures.organisation.weights import level_weights
from metrics.measures.scoring import evaluate

ROOT = Path(__file__).resolve().parents[1]
TREC_DL = ROOT.parent / "shared" / "campaigns" / "trec-dl-2019"


def _per_pair(own_level, other_level, tail, n=30, w=0.8):
    """Priority precision of one topic straight from the pairs (items listed once per side).

    own_level: level of each prioritised occurrence of this side; other_level: the level of the
    same item on the other side (inf when it lies in the other side's tail).
    """
    k = own_level.size
    lw = level_weights(np.zeros(k, np.int64), own_level, 1, tail, n, w)
    wo, wt = lw.occurrence, float(lw.tail[0])
    a, b = own_level[:, None], own_level[None, :]
    ga, gb = other_level[:, None], other_level[None, :]
    related = a != b
    correct = ((a < b) & (ga < gb)) | ((a > b) & (ga > gb))
    in_other = np.isfinite(other_level)
    num = (related & correct) @ wo + wt * in_other
    den = related @ wo + wt
    r_occ = np.divide(num, den, out=np.zeros(k), where=den > 0)
    has = den > 0
    total = (wo * r_occ)[has].sum() + wt * ((wo * in_other).sum() / wo.sum())
    return total / (wo[has].sum() + wt)


def _loop_pairs(own_level, other_level, tail, n=30, w=0.8):
    """The same as :func:`_per_pair`, one pair at a time in Python."""
    k = own_level.size
    lw = level_weights(np.zeros(k, np.int64), own_level, 1, tail, n, w)
    wo, wt = lw.occurrence.tolist(), float(lw.tail[0])
    lev, oth = own_level.tolist(), other_level.tolist()
    total = norm = 0.0
    inf = float("inf")
    for i in range(k):
        num = den = 0.0
        for j in range(k):
            if lev[i] != lev[j]:
                den += wo[j]
                if (lev[i] < lev[j] and oth[i] < oth[j]) or (lev[i] > lev[j] and oth[i] > oth[j]):
                    num += wo[j]
        num += wt * (oth[i] != inf)
        den += wt
        total += wo[i] * num / den
        norm += wo[i]
    total += wt * sum(wo[i] * (oth[i] != inf) for i in range(k)) / sum(wo)
    return total / (norm + wt)


def _per_pair_campaign(camp, systems, kernel=None, topics=None):
    run, gold, _, n_groups = campaign_sides(camp, systems)
    out_r, out_s = np.zeros(n_groups), np.zeros(n_groups)
    n_items = camp.n_items
    kernel = kernel or _per_pair
    for g in (range(n_groups) if topics is None else topics):
        xr = run.topic == g
        gr = gold.topic == g
        x_item, x_lev = run.item[xr], run.level[xr].astype(float)
        g_item, g_lev = gold.item[gr], gold.level[gr].astype(float)
        g_of = np.full(n_items * len(systems), np.inf)
        g_of[g_item] = g_lev
        x_of = np.full(n_items * len(systems), np.inf)
        x_of[x_item] = x_lev
        out_r[g] = kernel(x_lev, g_of[x_item], True)
        out_s[g] = kernel(g_lev, x_of[g_item], True)
    return out_r, out_s


def run() -> list[tuple[str, float, str]]:
    if not TREC_DL.is_dir():
        return []
    out = []
    t0 = time.perf_counter()
    camp = load(TREC_DL)
    t_load = time.perf_counter() - t0
    if not quick():
        t_load = min(t_load, best_of(lambda: load(TREC_DL), repeat=1))
    out.append(("load_trec_dl", 3.0 / t_load,
                f"TREC DL 2019 qrels + 37 runs {t_load:.2f} s; target <= 3 s"))
    t_rs = best_of(lambda: evaluate(camp, "reliability,sensitivity"), repeat=sized(2, 1))
    out.append(("organisation_rs_trec_dl", 2.0 / t_rs,
                f"R and S, 37 runs x 43 topics {t_rs:.2f} s; target <= 2 s"))
    if quick():  # the per-pair peers take minutes
        return out
    longest = sorted(camp.runs, key=lambda r: -camp.runs[r].n_rows)[:3]
    fast = evaluate(camp, "reliability,sensitivity", systems=longest)
    fast_r = fast[fast.metric == "reliability"]["value"].to_numpy()
    fast_s = fast[fast.metric == "sensitivity"]["value"].to_numpy()
    all_pairs = len(camp.runs) * camp.n_topics
    # numpy matrices of all pairs: three full runs
    t_mat = best_of(lambda: _per_pair_campaign(camp, longest), repeat=1)
    r, s = _per_pair_campaign(camp, longest)
    diff = max(np.abs(fast_r - r).max(), np.abs(fast_s - s).max())
    scaled_mat = t_mat * all_pairs / (len(longest) * camp.n_topics)
    # Python loop over pairs: two topics of the longest run
    topics = [0, 1]
    t_loop = best_of(lambda: _per_pair_campaign(camp, longest[:1], _loop_pairs, topics), repeat=1)
    r1, s1 = _per_pair_campaign(camp, longest[:1], _loop_pairs, topics)
    diff1 = max(np.abs(fast_r[topics] - r1[topics]).max(),
                np.abs(fast_s[topics] - s1[topics]).max())
    scaled_loop = t_loop * all_pairs / len(topics)
    out.append(("organisation_rs_vs_pairs", scaled_loop / t_rs,
                f"per-pair loop {t_loop:.1f} s on {len(topics)} topics -> {scaled_loop:.0f} s for "
                f"37 x 43 vs {t_rs:.2f} s; largest difference {diff1:.1e}; target >= 100"))
    out.append(("organisation_rs_vs_pair_matrices", scaled_mat / t_rs,
                f"pair matrices {t_mat:.2f} s on 3 runs -> {scaled_mat:.1f} s for 37 vs "
                f"{t_rs:.2f} s; largest difference {diff:.1e}"))
    return out
