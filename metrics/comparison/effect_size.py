"""Effect size of a paired difference: the mean difference with its t interval, and Cohen's d_z
(docs/measures.md §6, "Effect size").

For a pair (a, b) and one metric the per-topic oriented differences are
d_t = s (x_t(a) - x_t(b)), s = +1 for a higher-is-better metric and -1 otherwise (> 0: a is
better). Over the n topics where both scores exist,

    d̄ = mean(d),  sd = std(d, ddof=1),
    CI = d̄ ± t_{(1 + confidence)/2, n - 1} · sd / √n   (Student's t interval),
    d_z = d̄ / sd                                      (Cohen 1988, the paired d).

An interval that excludes 0 agrees with the paired t-test at 1 - confidence; d_z says how large
the mean is against the topic-to-topic spread (0.2 small, 0.5 medium, 0.8 large, Cohen's
conventions). With one topic the interval and d_z are undefined (NaN); with no spread d_z is
±inf (0 when the mean is 0 too).
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass

import numpy as np
import pandas as pd
from scipy import stats

from metrics.model.score_table import metric_directions

__all__ = ["PairedEffect", "paired_effect", "pair_effects"]


@dataclass(frozen=True)
class PairedEffect:
    """The mean oriented difference of one metric with its t interval and Cohen's d_z.

    Attributes
    ----------
    metric : str
    n : int
        Topics with both scores.
    mean, low, high : float
        d̄ and its ``confidence`` Student t interval (NaN below two topics).
    dz : float
        Cohen's d_z = d̄ / sd (NaN below two topics).
    confidence : float
    """

    metric: str
    n: int
    mean: float
    low: float
    high: float
    dz: float
    confidence: float


def paired_effect(d, metric: str = "", confidence: float = 0.95) -> PairedEffect:
    """:class:`PairedEffect` of the oriented per-topic differences ``d`` (NaN dropped)."""
    if not 0 < confidence < 1:
        raise ValueError(f"confidence must be in (0, 1), got {confidence!r}")
    d = np.asarray(d, dtype=np.float64).ravel()
    d = d[~np.isnan(d)]
    n = int(d.size)
    mean = float(d.mean()) if n else float("nan")
    if n < 2:
        return PairedEffect(metric, n, mean, float("nan"), float("nan"), float("nan"),
                            confidence)
    sd = float(d.std(ddof=1))
    half = float(stats.t.ppf((1 + confidence) / 2, n - 1)) * sd / np.sqrt(n)
    with np.errstate(divide="ignore", invalid="ignore"):
        dz = float(np.divide(mean, sd)) if sd > 0 else (0.0 if mean == 0 else np.copysign(
            np.inf, mean))
    return PairedEffect(metric, n, mean, mean - half, mean + half, dz, confidence)


def pair_effects(scores: pd.DataFrame, a: str, b: str, metrics: Sequence[str],
                 directions: Mapping[str, int] | None = None,
                 confidence: float = 0.95) -> tuple[PairedEffect, ...]:
    """:func:`paired_effect` of every metric for the ordered pair (a, b) of a long score table
    (``system, topic, metric, value``); directions as
    :func:`metrics.model.score_table.metric_directions`."""
    sub = scores[scores["system"].isin([a, b]) & scores["metric"].isin(list(metrics))]
    wide = sub.pivot_table(index="topic", columns=["metric", "system"], values="value",
                           aggfunc="first")
    out = []
    for m, sign in zip(metrics, metric_directions(metrics, directions), strict=True):
        if (m, a) in wide.columns and (m, b) in wide.columns:
            d = sign * (wide[(m, a)].to_numpy(float) - wide[(m, b)].to_numpy(float))
        else:
            d = np.zeros(0)
        out.append(paired_effect(d, m, confidence))
    return tuple(out)
