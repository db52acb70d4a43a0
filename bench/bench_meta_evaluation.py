"""Meta-evaluation benchmarks (Robustness and Strictness, docs/meta-evaluation.md).

* ``meta_evaluate_100x500``: :func:`metrics.meta.meta_evaluation.meta_evaluate` of 2 measures
  against 4 references, 100 systems x 500 topics, every score present (124,750 topic pairs
  per measure); ratio = 2 s target / measured seconds.
* ``robustness_scattered_nan_vs_pandas``: Robustness of 40 systems x 300 topics with 2 % of
  the scores missing at random (almost every topic scores a different set of systems, so each
  pair is ranked over its own common systems); ratio = ``pandas.DataFrame.corr(method=
  "spearman")`` (pairwise-complete Spearman, what a user would reach for) / ours.

``--quick`` (bench/run.py): 40 systems x 200 topics for the first.
"""

from __future__ import annotations

import numpy as np
import pandas as pd
from timing import best_of, sized

from metrics.meta.meta_evaluation import meta_evaluate, robustness


def _table(n_systems: int, n_topics: int, names: list[str], seed: int = 0) -> pd.DataFrame:
    rng = np.random.default_rng(seed)
    skill = rng.normal(size=(n_systems, 1))
    systems = np.repeat([f"s{i:03d}" for i in range(n_systems)], n_topics)
    topics = np.tile([f"t{j:04d}" for j in range(n_topics)], n_systems)
    frames = [pd.DataFrame({"system": systems, "topic": topics, "metric": name,
                            "value": np.round(skill + rng.normal(size=(n_systems, n_topics)),
                                              2).ravel()}) for name in names]
    return pd.concat(frames, ignore_index=True)


def run():
    names = ["m1", "m2", "r1", "r2", "r3", "r4"]
    S, T = sized(100, 40), sized(500, 200)
    table = _table(S, T, names)
    t = best_of(lambda: meta_evaluate(table, names[:2], names[2:]), repeat=2)
    yield f"meta_evaluate_{S}x{T}", 2.0 / t, f"{t:.2f} s (target <= 2 s)"

    rng = np.random.default_rng(1)
    v = np.round(rng.normal(size=(40, 1)) + rng.normal(size=(40, 300)), 2)
    v[rng.random(v.shape) < 0.02] = np.nan
    ours = best_of(lambda: robustness(v), repeat=2)
    frame = pd.DataFrame(v)
    theirs = best_of(lambda: frame.corr(method="spearman"), repeat=1)
    yield ("robustness_scattered_nan_vs_pandas", theirs / ours,
           f"{ours:.2f} s vs pandas {theirs:.2f} s (40 systems x 300 topics, 2 % missing)")
