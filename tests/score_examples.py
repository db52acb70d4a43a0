"""Small score tables shared by the comparison tests."""

from __future__ import annotations

import numpy as np
import pandas as pd


def long_table(scores: dict[str, dict[str, list[float]]]) -> pd.DataFrame:
    """{system: {metric: [value per topic]}} -> score table (topics t0, t1, ...)."""
    rows = []
    for s, by_metric in scores.items():
        for m, values in by_metric.items():
            for t, v in enumerate(values):
                rows.append((s, f"t{t}", m, v))
    return pd.DataFrame(rows, columns=["system", "topic", "metric", "value"])


# Our instance of the JAIR 2011 UIR example (Table 5 of the paper: ten test cases, precision and
# recall of systems a and b, "a >= b" yes for cases 1-6, "b >= a" yes for cases 1, 2, 7, 8).
#   cases 1-2: tied on both metrics          -> in both sets
#   cases 3-6: a better (or equal) on both   -> a >= b only
#   cases 7-8: b better on both              -> b >= a only
#   cases 9-10: the metrics disagree         -> metric-biased
# so UIR(a, b) = (6 - 4) / 10 = 0.2.
JAIR = long_table({
    "a": {"precision": [0.5, 0.7, 0.6, 0.8, 0.4, 0.9, 0.3, 0.5, 0.7, 0.2],
          "recall":    [0.4, 0.6, 0.7, 0.5, 0.5, 0.6, 0.2, 0.4, 0.3, 0.8]},
    "b": {"precision": [0.5, 0.7, 0.5, 0.8, 0.3, 0.7, 0.4, 0.6, 0.6, 0.3],
          "recall":    [0.4, 0.6, 0.6, 0.4, 0.5, 0.5, 0.3, 0.5, 0.4, 0.7]},
})


def random_score_table(systems: int, topics: int, seed: int = 7, spread: tuple = (0.2, 0.8),
                       noise: float = 0.08, system_name: str = "SVM_terms_jaccard_HAC_{}%",
                       topic_name: str = "topic{:03d}") -> pd.DataFrame:
    """A seeded BCubed precision / recall score table of ``systems`` x ``topics``: each system's
    level drawn uniformly from ``spread``, per-topic normal noise ``noise``, clipped to
    [0.01, 1]. The default names are long and differ only at the end, as real campaigns' do.
    Shared by the dashboard's browser tests, its AppTests and ``bench/bench_dashboard.py``."""

    rng = np.random.default_rng(seed)
    base = rng.uniform(*spread, size=(systems, 1, 2))
    vals = np.clip(base + rng.normal(0, noise, size=(systems, topics, 2)), 0.01, 1.0)
    s, t = np.meshgrid(np.arange(systems), np.arange(topics), indexing="ij")
    names = [system_name.format(i) for i in s.ravel()]
    tops = [topic_name.format(j) for j in t.ravel()]
    return pd.concat([pd.DataFrame({"system": names, "topic": tops, "metric": m,
                                    "value": vals[:, :, k].ravel()})
                      for k, m in enumerate(("bcubed_precision", "bcubed_recall"))])
