"""The filtering measures of a filtering campaign (Amigó, Gonzalo, Verdejo, SIGIR 2013, §2.2,
Table 7; docs/providers.md, Filtering).

A filtering campaign puts every document of a topic on level 1 (accepted; in the gold:
relevant) or level 2 (rejected; irrelevant), without clusters and without a tail. Per system
and topic the confusion counts TP (relevant accepted), FP, FN and TN are counted over the
gold's documents, and the measures are the closed forms of
:mod:`metrics.measures.organisation.filtering` (one copy of each formula):

=====================  ===========================================================  =========
metric                 formula                                                      better
=====================  ===========================================================  =========
``accuracy``           (TP + TN) / N                                                higher
``filtering_precision`` TP / (TP + FP), the positive class                          higher
``filtering_recall``   TP / (TP + FN), the positive class                           higher
``filtering_f``        F_alpha of the positive class's precision and recall         higher
``utility``            a TP - b FP (TREC T11U for a = 2, b = 1)                     higher
``scaled_utility``     T11SU: (max(U / U_max, m) - m) / (1 - m), U_max = a (TP + FN)  higher
``lam``                lam%: 100 logit⁻¹((logit fpr + logit fnr) / 2), smoothed      lower
=====================  ===========================================================  =========

A document the run does not list counts as rejected (a missing item under ``penalize`` and
``singleton``; ``error`` refuses the run). A quantity with a zero denominator is 0.
"""

from __future__ import annotations

import math
from collections.abc import Sequence

import numpy as np

from metrics.measures.citations import AGV13
from metrics.measures.organisation import filtering
from metrics.measures.provider import MetricInfo, MetricSpec, Provider, positive
from metrics.model.campaign_kinds import CampaignKind

__all__ = ["FilteringProvider", "FORMULAS", "score_counts"]

_T11 = "Robertson, Soboroff. The TREC 2002 filtering track report. TREC 2002"
_LAM = "Cormack, Lynam. TREC 2005 spam track overview. TREC 2005"
_UNBOUNDED = (-math.inf, math.inf)
_UTILITY = {"a": 2.0, "b": 1.0}
_UTILITY_CHECKS = {"a": (positive, "a must be a positive number"),
                   "b": (lambda v: v >= 0 and math.isfinite(v), "b must be a number >= 0")}


#: metric name -> its closed form in
#: :data:`~metrics.measures.organisation.filtering.FILTERING_MEASURES`
#: (called with the metric's parameters as keywords)
FORMULAS: dict[str, str] = {"accuracy": "accuracy", "filtering_precision": "precision",
                            "filtering_recall": "recall", "filtering_f": "f_measure",
                            "utility": "utility", "scaled_utility": "scaled_utility", "lam": "lam"}


def score_counts(counts: filtering.FilteringCounts, specs: Sequence[MetricSpec]
                 ) -> dict[str, np.ndarray]:
    """Every metric of ``specs`` on the confusion counts (any shape): the provider's one
    computation, shared with the R&S paper's Table 7 (:mod:`metrics.meta.filtering_table`)."""
    return {str(s): np.asarray(filtering.FILTERING_MEASURES[FORMULAS[s.name]](counts, **s.params),
                               dtype=np.float64) for s in specs}


class FilteringProvider(Provider):
    """Accuracy, utility, lam% and the positive class's precision, recall and F."""

    family = "filtering"
    kinds = frozenset({CampaignKind.FILTERING})
    dask_refusal = "the Dask engine reads clusterings, not filterings"
    infos: tuple[MetricInfo, ...] = (
        MetricInfo("accuracy", 1, "filtering", "share of documents put in their gold class",
                   "(TP + TN) / (TP + FP + FN + TN)", AGV13),
        MetricInfo("filtering_precision", 1, "filtering",
                   "share of accepted documents that are relevant", "TP / (TP + FP)", AGV13),
        MetricInfo("filtering_recall", 1, "filtering",
                   "share of relevant documents that are accepted", "TP / (TP + FN)", AGV13),
        MetricInfo("filtering_f", 1, "filtering",
                   "F of the positive class: F_alpha of its precision and recall",
                   "1 / (alpha / P + (1 - alpha) / R), 0 when P or R is 0", AGV13,
                   params={"alpha": 0.5},
                   param_checks={"alpha": (lambda v: 0 <= v <= 1, "alpha must lie in [0, 1]")}),
        MetricInfo("utility", 1, "filtering", "linear utility (TREC T11U for a = 2, b = 1)",
                   "a TP - b FP", _T11, params=dict(_UTILITY), param_checks=_UTILITY_CHECKS,
                   value_range=_UNBOUNDED),
        MetricInfo("scaled_utility", 1, "filtering",
                   "scaled linear utility (TREC T11SU), 0 when the topic has no relevant "
                   "document", "(max(U / U_max, m) - m) / (1 - m), U = a TP - b FP, "
                   "U_max = a (TP + FN), m = min_nu", _T11,
                   params={**_UTILITY, "min_nu": -0.5},
                   param_checks={**_UTILITY_CHECKS,
                                 "min_nu": (lambda v: v < 1, "min_nu must be below 1")}),
        MetricInfo("lam", -1, "filtering",
                   "lam%: logistic average misclassification (a percentage); lower is better",
                   "100 logit⁻¹((logit fpr + logit fnr) / 2), fpr = (FP + ½) / (FP + TN + ½), "
                   "fnr = (FN + ½) / (TP + FN + ½)", _LAM, value_range=(0.0, 100.0)),
    )

    def kernel(self, spec: MetricSpec, campaign) -> None:
        return None

    def score(self, campaign, specs: Sequence[MetricSpec], systems: Sequence[str],
              missing: str = "penalize") -> dict[str, np.ndarray]:
        if missing == "error":
            for system in systems:
                campaign.aligned(system, "error")  # refuses a run that misses a document
        n = campaign.n_items
        counts = filtering.output_counts(
            filtering.level_mask(campaign.gold_membership, n),
            [filtering.level_mask(campaign.runs[system], n) for system in systems],
            campaign.item_topic, campaign.n_topics)
        return score_counts(counts, specs)
