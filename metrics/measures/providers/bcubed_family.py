"""BCubed precision and recall, extended to overlapping clusterings (Amigó et al. 2009, §5).

On a flat clustering the kernels read the contingency table ((1/n) Σ_ij n_ij² / |C_j|); with
overlap the extended definition over item pairs (:mod:`metrics.measures.clustering.overlap`).
"""

from __future__ import annotations

from metrics.measures.citations import AMIGO09
from metrics.measures.provider import MetricInfo
from metrics.measures.providers.clustering_family import SetMatchingProvider

__all__ = ["BCubedProvider"]


class BCubedProvider(SetMatchingProvider):
    """Extended BCubed precision and recall."""

    family = "extended BCubed"
    infos: tuple[MetricInfo, ...] = (
        MetricInfo("bcubed_precision", 1, "bcubed",
                   "per item, share of its cluster mates that share its class (extended with "
                   "overlap)",
                   "(1/n) Σ_ij n_ij² / |C_j|; with overlap mean_e mean_{e': C(e)∩C(e')≠∅} "
                   "min(|C∩C'|, |L∩L'|) / |C∩C'|", AMIGO09, overlap_aware=True,
                   kernel=lambda s: s.bcubed[0]),
        MetricInfo("bcubed_recall", 1, "bcubed",
                   "per item, share of its class mates that share its cluster (extended with "
                   "overlap)",
                   "(1/n) Σ_ij n_ij² / |L_i|; with overlap mean_e mean_{e': L(e)∩L(e')≠∅} "
                   "min(|C∩C'|, |L∩L'|) / |L∩L'|", AMIGO09, overlap_aware=True,
                   kernel=lambda s: s.bcubed[1]),
    )

