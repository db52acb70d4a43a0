"""What a reopened bundle gives in the shape a live comparison gives it: the stored ranking with
tie groups, the stored correlations, the stored aggregation tables (docs/rankings.md, "Bundles").

Nothing is recomputed: each record is the bundle's tables as written by
:func:`metrics.reports.bundle.write_comparison_bundle`, so that a page, the LaTeX report
(:func:`metrics.reports.comparison_latex.comparison_latex`) and the HTML report render a bundle
with the code that renders a live :class:`~metrics.reports.comparison_report.CampaignComparison`.
"""

from __future__ import annotations

import math
from dataclasses import dataclass

import pandas as pd

from metrics.analyses.aggregation import AggregationRobustness
from metrics.analyses.common import Correlation
from metrics.comparison.tie_ranking import RANKING_COLUMNS, ranking_latex

__all__ = ["StoredRanking", "stored_ranking", "stored_correlation", "stored_aggregation"]


@dataclass(frozen=True, eq=False)
class StoredRanking:
    """The ranking with tie groups of a bundle, with the rendering interface of
    :class:`metrics.comparison.tie_ranking.TieRanking`.

    Attributes
    ----------
    order : DataFrame
        ``ranking_order.csv``: ``system, rank_low, rank_high, group, n_above, n_below, block,
        score``, in the order of :meth:`TieRanking.to_dataframe`.
    hasse : DataFrame
        ``ranking_hasse.csv``: ``upper, lower``.
    rule : str
        ``"uir+concordant"`` when the stored pairs carry pair classes (the rule
        :func:`~metrics.comparison.tie_ranking.tie_ranking` applied when the bundle was
        written), else ``"uir"``.
    threshold : float
    strict : bool
        The profile's rule (``UIR > threshold``, jair2011).
    cycles : tuple of tuple of str
        The stored blocks of more than one system.
    """

    order: pd.DataFrame
    hasse: pd.DataFrame
    rule: str
    threshold: float
    strict: bool
    cycles: tuple[tuple[str, ...], ...]

    def to_dataframe(self) -> pd.DataFrame:
        return self.order.copy()

    def to_csv_frame(self) -> pd.DataFrame:
        """The four columns of ``ranking.csv``: ``system, rank_low, rank_high, group``."""
        return self.order[list(RANKING_COLUMNS)].copy()

    def to_latex(self, caption_metric: str = "F", top: int | None = None,
                 csv_name: str = "ranking.csv") -> str:
        """:func:`metrics.comparison.tie_ranking.ranking_latex` of the stored ranking."""
        return ranking_latex(self, caption_metric, top, csv_name)


def stored_ranking(tables: dict, pairs: pd.DataFrame, threshold: float,
                   strict: bool) -> StoredRanking:
    """The :class:`StoredRanking` of a bundle's ``ranking_order`` and ``ranking_hasse`` tables."""
    order = tables["ranking_order"]
    sizes = order.groupby("block")["system"].transform("size")
    cycles = tuple(tuple(g["system"].astype(str)) for _, g in
                   order[sizes > 1].groupby("block", sort=True))
    concordant = "pair_class" in pairs and bool(pairs["pair_class"].notna().any())
    return StoredRanking(order, tables["ranking_hasse"],
                         "uir+concordant" if concordant else "uir", threshold, strict, cycles)


def stored_correlation(points: pd.DataFrame, pearson_r: float | None,
                       pvalue: float | None = None) -> Correlation:
    """A correlation of the bundle: its points table and the ``pearson_r`` and ``pvalue`` of
    ``summary.json`` (NaN where not stored: undefined, or a bundle written before p-values were
    stored)."""
    r = math.nan if pearson_r is None else float(pearson_r)
    p = math.nan if pvalue is None else float(pvalue)
    return Correlation(r, p, len(points), points)


def stored_aggregation(tables: dict) -> AggregationRobustness | None:
    """The bundle's ``aggregation``, ``aggregation_tau`` and ``aggregation_flips`` tables as
    :class:`~metrics.analyses.aggregation.AggregationRobustness` (None in a bundle without
    them)."""
    if not all(n in tables for n in ("aggregation", "aggregation_tau", "aggregation_flips")):
        return None
    return AggregationRobustness(tables["aggregation"], tables["aggregation_tau"],
                                 tables["aggregation_flips"])
