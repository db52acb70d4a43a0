"""Token-level vs type-level rankings of the same runs (Reichart, Abend, Rappoport 2010, §5).

The paper's point is that token-level measures (M-1 / 1-1 accuracy, V, NVI, ...) and the
type-level ones (MacroI, MicroI, MicroC) can rank the same induction systems differently,
correlating weakly or even negatively. :func:`rank_comparison` turns a score table into the
paper's Table 1 layout (one row per system, one column per measure: the campaign mean) with
the rank of every system under every measure and the Spearman correlation between the rankings.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

import numpy as np
import pandas as pd

from metrics.measures.registry import direction, metric_info

__all__ = ["RankComparison", "rank_comparison", "is_type_level"]


def is_type_level(metric: str) -> bool:
    """True for a type-level metric name (parameters allowed)."""
    try:
        return metric_info(metric).type_level
    except Exception:  # noqa: BLE001 - an unknown name is not type-level
        return False


@dataclass(frozen=True)
class RankComparison:
    """Mean scores, ranks and rank correlations of systems under several measures.

    Attributes
    ----------
    means : DataFrame
        index = system, columns = metric: the macro average over topics.
    ranks : DataFrame
        Same shape: rank 1 = best (direction-aware: lower is better for NVI, H(C|K), H(K|C));
        ties share the lowest rank.
    spearman : DataFrame
        metric x metric Spearman correlation of the rankings (NaN when a metric is constant).
    type_level : dict
        metric -> True when it is a type-level measure.
    """

    means: pd.DataFrame
    ranks: pd.DataFrame
    spearman: pd.DataFrame
    type_level: dict

    def to_dataframe(self) -> pd.DataFrame:
        """One row per system: mean and rank of every metric (``metric``, ``metric rank``)."""
        out = pd.DataFrame(index=self.means.index)
        for m in self.means.columns:
            out[m] = self.means[m]
            out[f"{m} rank"] = self.ranks[m].astype(int)
        return out


def _spearman(ranks: np.ndarray) -> np.ndarray:
    """Spearman's rho of every pair of columns of ``ranks`` (systems x metrics): the Pearson
    correlation of the columns' ranks (ties averaged), as ``scipy.stats.spearmanr`` of each
    pair; NaN where a column is constant or has a missing value.

    rho(a, b) = cov(rank a, rank b) / (sd(rank a) sd(rank b))   (Spearman 1904)
    """
    r = pd.DataFrame(ranks).rank(axis=0, method="average").to_numpy()
    ok = ~np.isnan(r).any(axis=0) & (np.ptp(np.nan_to_num(r), axis=0) > 0)
    out = np.full((r.shape[1], r.shape[1]), np.nan)
    if ok.any():
        z = r[:, ok] - r[:, ok].mean(axis=0)
        z /= np.sqrt((z * z).sum(axis=0))
        out[np.ix_(ok, ok)] = np.clip(z.T @ z, -1.0, 1.0)
    return out


def rank_comparison(scores: pd.DataFrame, metrics: Sequence[str] | None = None,
                    systems: Sequence[str] | None = None) -> RankComparison:
    """Rank the systems of a score table under each metric and correlate the rankings.

    Parameters
    ----------
    scores : DataFrame
        Score table ``system, topic, metric, value`` (:func:`metrics.measures.scoring.evaluate`).
    metrics : sequence of str, optional
        Metrics to keep, in this order (default: all, in table order).
    systems : sequence of str, optional
        Systems to keep, in this order (default: all, in table order).
    """
    table = scores
    names = list(pd.unique(table["metric"])) if metrics is None else list(metrics)
    missing = [m for m in names if m not in set(table["metric"])]
    if missing:
        raise ValueError(f"metric(s) not in the score table: {', '.join(missing)}")
    means = (table[table["metric"].isin(names)]
             .groupby(["system", "metric"], sort=False)["value"].mean().unstack("metric"))
    order = list(pd.unique(table["system"])) if systems is None else list(systems)
    means = means.reindex(index=order, columns=names)
    signed = means * np.array([direction(m) for m in names])[None, :]
    ranks = signed.rank(axis=0, ascending=False, method="min")
    spearman = pd.DataFrame(_spearman(ranks.to_numpy(dtype=float)), index=names, columns=names)
    return RankComparison(means, ranks, spearman, {m: is_type_level(m) for m in names})
