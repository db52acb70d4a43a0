"""Adapted BCubed recall for unbalanced data sets (Moreno and Dias, SIGIR 2015, eq. 5).

R_mod = R_b3^(k-1): BCubed recall of k-tuples of items, read off the scorer's BCubed recall.
"""

from __future__ import annotations

from metrics.measures.citations import MD15
from metrics.measures.provider import MetricInfo
from metrics.measures.providers.bcubed_family import BCubedProvider

__all__ = ["AdaptedBCubedProvider"]


class AdaptedBCubedProvider(BCubedProvider):
    """Moreno and Dias's adapted BCubed recall."""

    family = "adapted BCubed"
    infos: tuple[MetricInfo, ...] = (
        MetricInfo("bcubed_adapted_recall", 1, "bcubed",
                   "BCubed recall for k-tuples of items (Moreno & Dias): R^(k-1)",
                   "R_mod = R_b3^(k-1)", MD15, params={"k": 3}, overlap_aware=True,
                   kernel=lambda s, k=3: s.adapted_recall(k),
                   param_checks={"k": (lambda v: v >= 2, "k must be at least 2")}),
    )
