"""The dashboard's CSV downloads, each built by the one output policy of every table the
product writes (:mod:`metrics.reports.table_output`, docs/output-safety.md): names a spreadsheet
would evaluate are neutralised, lists are ``;``-separated, floats at full precision."""

from __future__ import annotations

import pandas as pd

from metrics.reports.table_output import table_bytes

__all__ = ["scores_csv", "pairs_csv", "leaderboard_csv", "ties_csv", "mapping_csv"]


def scores_csv(scores: pd.DataFrame) -> bytes:
    """Export "Per-topic scores": the score table ``system, topic, metric, value``."""
    return table_bytes(scores)


def pairs_csv(comparison) -> bytes:
    """Export "All pairs": the comparison's pairs table (``pairs.csv`` of ``compare --out``)."""
    return table_bytes(comparison.to_dataframe())


def leaderboard_csv(board: pd.DataFrame) -> bytes:
    """Export "Leaderboard": the ranking at alpha with reference and improved systems."""
    return table_bytes(board)


def ties_csv(ranking) -> bytes:
    """Export "Tie groups": ``system, rank_low, rank_high, group`` (``ranking.csv``)."""
    return table_bytes(ranking.to_csv_frame())


def mapping_csv(maps: pd.DataFrame) -> bytes:
    """Type level "Mapping as CSV": the cluster -> tag mapping of every topic."""
    return table_bytes(maps)
