"""Small pieces every analysis of :mod:`metrics.analyses` uses: sub-cubes, ranks, means, the
Pearson record, argument checks."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

import numpy as np
import pandas as pd
from scipy import stats

from metrics.model.score_table import ScoreCube

__all__ = ["Correlation", "sub_cube", "dedupe", "pearson", "ranks", "means", "check_alpha",
           "uir_metric_list", "THRESHOLDS"]

#: The thresholds t = 0, 0.01, ..., 1 of the threshold curve and the cross-test-bed prediction.
THRESHOLDS: np.ndarray = np.arange(101) / 100.0


@dataclass(frozen=True, eq=False)
class Correlation:
    """A Pearson correlation and the points it was computed on.

    Attributes
    ----------
    pearson_r, pvalue : float
        :func:`scipy.stats.pearsonr` of the two columns (NaN with fewer than three points or a
        constant column).
    n : int
        Number of points.
    points : DataFrame
        One row per pair of systems.

    ``record["pearson_r"]`` works as ``record.pearson_r`` (the report's earlier dict form).
    """

    pearson_r: float
    pvalue: float
    n: int
    points: pd.DataFrame

    def __getitem__(self, name: str):
        return getattr(self, name)

    def copy(self) -> Correlation:
        return Correlation(self.pearson_r, self.pvalue, self.n, self.points.copy())


def sub_cube(cube: ScoreCube, metrics: Sequence[str]) -> ScoreCube:
    """The cube restricted to ``metrics`` (in that order)."""
    idx = [cube.metrics.index(m) for m in metrics]
    return ScoreCube(cube.systems, cube.topics, tuple(metrics), cube.values[:, :, idx])


def dedupe(names: Sequence[str]) -> list[str]:
    """``names`` without repeats, first occurrence kept."""
    out: list[str] = []
    for n in names:
        if n not in out:
            out.append(n)
    return out


def uir_metric_list(precision: str, recall: str, metrics: Sequence[str] | None) -> list[str]:
    """The UIR metrics of an analysis: ``metrics`` or the F_alpha pair, at least two."""
    out = dedupe([str(m) for m in (metrics or [precision, recall])])
    if len(out) < 2:
        raise ValueError("UIR needs at least two metrics")
    return out


def pearson(x: np.ndarray, y: np.ndarray, points: pd.DataFrame | None = None) -> Correlation:
    """Pearson correlation of x and y over the points where both are defined."""
    x = np.asarray(x, dtype=np.float64)
    y = np.asarray(y, dtype=np.float64)
    n = len(points) if points is not None else x.size
    pts = points if points is not None else pd.DataFrame({"x": x, "y": y})
    ok = ~(np.isnan(x) | np.isnan(y))
    x, y = x[ok], y[ok]
    if x.size < 3 or np.ptp(x) == 0 or np.ptp(y) == 0:
        return Correlation(float("nan"), float("nan"), n, pts)
    res = stats.pearsonr(x, y)
    return Correlation(float(res.statistic), float(res.pvalue), n, pts)


def ranks(values: np.ndarray) -> np.ndarray:
    """1 = best (highest); ties share the smallest rank; NaN last."""
    s = pd.Series(values)
    return s.rank(ascending=False, method="min", na_option="bottom").astype(np.int64).to_numpy()


def means(X: np.ndarray) -> np.ndarray:
    """(S, M) mean over the topics where every metric is present."""
    valid = ~np.isnan(X).any(axis=2)
    n = valid.sum(axis=1)
    with np.errstate(invalid="ignore", divide="ignore"):
        return np.where(valid[:, :, None], X, 0.0).sum(axis=1) / n[:, None]


def check_alpha(alpha: float) -> float:
    """``alpha`` as a float in [0, 1] (ValueError otherwise)."""
    alpha = float(alpha)
    if not 0 <= alpha <= 1:
        raise ValueError(f"alpha must be in [0, 1], got {alpha}")
    return alpha
