"""The type-level measures of token taggings (Reichart, Abend, Rappoport, CoNLL 2010, §4).

MacroI, MacroC, MicroI and MicroC under their best one-to-one or many-to-one mapping of clusters
to tags, on a token tagging campaign (the word type of every item, ``docs/type-level.md``). The
kernels read the topics' word-type entries and mappings, kept per system in the scorer's
:attr:`~metrics.measures.system_scorer.SystemScorer.family_cache`
(:mod:`metrics.measures.typelevel.type_entries`). The Dask engine does not compute them: a
mapping is searched over a whole topic, which is no sum over partitions.
"""

from __future__ import annotations

import math
from collections.abc import Callable

import numpy as np

from metrics.measures.citations import RAR10
from metrics.measures.provider import MetricInfo, Provider
from metrics.measures.typelevel.mapping_settings import DEFAULT_SECONDS, MAPPINGS
from metrics.model.campaign_kinds import CampaignKind

__all__ = ["TypeLevelProvider"]


def _kernel(name: str) -> Callable[..., np.ndarray]:
    """The kernel of ``name``: :data:`~metrics.measures.typelevel.type_entries.TYPE_KERNELS`,
    loaded when a type-level metric is first scored (the mapping search needs scipy)."""

    def kernel(scorer, **params) -> np.ndarray:
        from metrics.measures.typelevel.type_entries import TYPE_KERNELS  # noqa: PLC0415 - deferred: the mapping search (scipy) loads when a type-level metric is scored

        return TYPE_KERNELS[name](scorer, **params)
    return kernel


_MAPPING_CHECKS = {
    "mapping": (lambda v: v in MAPPINGS, f"mapping is none of {', '.join(MAPPINGS)}"),
    "seconds": (lambda v: 0 <= v < math.inf, "seconds must be a number >= 0")}
_H = "h(B_i) = {h(k) : k ∈ B_i}, a set; under 1-1 an unmapped cluster counts in |h(B_i)|"


def _type_info(name: str, description: str, formula: str, measure: str) -> MetricInfo:
    """A type-level entry: parameters ``mapping`` (one_to_one, many_to_one) and ``seconds``
    (time limit of the exact many-to-one search per topic, default by measure)."""
    return MetricInfo(name, 1, "type level", description, formula, RAR10,
                      params={"mapping": "one_to_one", "seconds": DEFAULT_SECONDS[measure]},
                      type_level=True, kernel=_kernel(name), param_checks=_MAPPING_CHECKS)




class TypeLevelProvider(Provider):
    """MacroI, MacroC, MicroI and MicroC precision, recall and F."""

    family = "type level"
    kinds = frozenset({CampaignKind.TOKEN_TAGGING})
    dask_refusal = "a type-level mapping is searched over a whole topic, not summed over parts"
    infos: tuple[MetricInfo, ...] = (
        _type_info("type_macro_precision",
                   "MacroI precision: gold tags of word types reached by their mapped clusters, "
                   "per "
                   "tag reached", f"Σ_i |A_i ∩ h(B_i)| / Σ_i |h(B_i)|; {_H}", "macro"),
        _type_info("type_macro_recall",
                   "MacroI recall: share of the word types' gold tags reached by the mapping",
                   "Σ_i |A_i ∩ h(B_i)| / Σ_i |A_i|", "macro"),
        _type_info("type_macro_f", "MacroI F: harmonic mean of MacroI P/R",
                   "2 P R / (P + R) = 2 Σ_i |A_i ∩ h(B_i)| / (Σ_i |A_i| + Σ_i |h(B_i)|), h "
                   "maximising it", "macro"),
        _type_info("type_macroc_f",
                   "MacroC F: cluster-based macro F over the united clusters (equals MacroI F)",
                   "2 Σ_z |z ∩ h(z)| / (Σ_c |c| + Σ_z |z|), z ∈ K_h (clusters mapped to one tag "
                   "united), h of MacroI", "macro"),
        _type_info("type_micro_precision",
                   "MicroI precision: mean over word types of the share of tags reached that are "
                   "gold", "(1/l) Σ_i |A_i ∩ h(B_i)| / |h(B_i)|, h of MicroI", "micro"),
        _type_info("type_micro_recall",
                   "MicroI recall: mean over word types of the share of gold tags reached",
                   "(1/l) Σ_i |A_i ∩ h(B_i)| / |A_i|, h of MicroI", "micro"),
        _type_info("type_micro_f", "MicroI: mean over word types of the per-type F",
                   f"(1/l) Σ_i 2 |A_i ∩ h(B_i)| / (|A_i| + |h(B_i)|); {_H}", "micro"),
        _type_info("type_microc_precision",
                   "MicroC precision: per united cluster precision, weighted by cluster size",
                   "Σ_z (|z| / N*) |z ∩ h(z)| / |z|, N* = Σ_z |z|, h of MicroC", "microc"),
        _type_info("type_microc_recall",
                   "MicroC recall: per united cluster recall, weighted by cluster size",
                   "Σ_z (|z| / N*) |z ∩ h(z)| / |h(z)|, h of MicroC", "microc"),
        _type_info("type_microc_f",
                   "MicroC: per mapped (united) cluster F, weighted by cluster size",
                   "Σ_z (|z| / N*) 2 |z ∩ h(z)| / (|z| + |h(z)|), z ∈ K_h", "microc"),
    )
