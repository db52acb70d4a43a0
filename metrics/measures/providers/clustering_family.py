"""The flat clustering metrics: set matching (one provider), entropy, pair counting and mapping
measures (another).

Each metric is a kernel over the shared quantities of a
:class:`~metrics.measures.system_scorer.SystemScorer` (the contingency table n_ij = |L_i ∩ C_j|
of classes L and clusters C, docs/measures.md §3). On overlapping clusterings the metrics without
a definition of their own are computed on the (item, class, cluster) expansion of the table
(:mod:`metrics.model.contingency`); purity, inverse purity and FScore have one. The Dask engine
sums their contingency tables over partitions (docs/dask.md).
"""

from __future__ import annotations

import math

from metrics.measures.citations import (
    AMIGO09,
    FM,
    GOLDWATER,
    HA85,
    MEILA,
    RAND,
    RH07,
    RR09,
    SEMEVAL10,
    ZK,
)
from metrics.measures.provider import MetricInfo, MetricSpec, Provider, positive
from metrics.model.campaign_kinds import CampaignKind

__all__ = ["SetMatchingProvider", "ClusteringProvider", "CLUSTERING_TAIL_HINT"]

_UNBOUNDED = (0.0, math.inf)
_SIGNED = (-1.0, 1.0)

#: what to use instead of a clustering metric on a collection with a tail
CLUSTERING_TAIL_HINT = ("use reliability, sensitivity (and their _priority / _relatedness parts) "
                        "or IR measures such as nDCG@10, AP(rel=2)")

_KINDS = frozenset({CampaignKind.CLUSTERING, CampaignKind.OVERLAPPING_CLUSTERING,
                    CampaignKind.TOKEN_TAGGING, CampaignKind.ORGANISATION_MIXTURE})


class SetMatchingProvider(Provider):
    """Purity, inverse purity and FScore: each cluster (class) matched with its best class
    (cluster); defined with overlap too."""

    family = "set matching"
    kinds = _KINDS
    dask = True
    infos: tuple[MetricInfo, ...] = (
        MetricInfo("purity", 1, "set matching", "share of items in their cluster's majority class",
                   "(1/n) Σ_j max_i n_ij; with overlap Σ_j max_i n_ij / Σ_j |C_j|", AMIGO09,
                   overlap_aware=True,
                   kernel=lambda s: s.purity),
        MetricInfo("inverse_purity", 1, "set matching",
                   "share of items in their class's majority cluster",
                   "(1/n) Σ_i max_j n_ij; with overlap Σ_i max_j n_ij / Σ_i |L_i|", AMIGO09,
                   overlap_aware=True,
                   kernel=lambda s: s.inverse_purity),
        MetricInfo("fscore", 1, "set matching",
                   "clustering F (FScore): best-matching cluster per class",
                   "Σ_i (|L_i|/n) max_j 2 n_ij / (|L_i| + |C_j|); with overlap n → Σ_i |L_i|", ZK,
                   overlap_aware=True,
                   kernel=lambda s: s.fscore),
    )

    def problem(self, spec: MetricSpec, campaign) -> str | None:
        if campaign.tail:
            return (f"{self.family} metrics do not apply to a collection with a tail; "
                    f"{CLUSTERING_TAIL_HINT}")
        return None


class ClusteringProvider(SetMatchingProvider):
    """Entropy, pair counting and mapping metrics of flat clusterings."""

    family = "clustering"
    infos: tuple[MetricInfo, ...] = (
        MetricInfo("homogeneity", 1, "entropy", "each cluster holds items of one class",
                   "1 - H(C|K)/H(C) (1 when H(C) = 0); C = gold classes, K = clusters", RH07,
                   kernel=lambda s: s.entropies.homogeneity),
        MetricInfo("completeness", 1, "entropy", "each class lies in one cluster",
                   "1 - H(K|C)/H(K) (1 when H(K) = 0)", RH07,
                   kernel=lambda s: s.entropies.completeness),
        MetricInfo("v_measure", 1, "entropy",
                   "weighted harmonic mean of homogeneity and completeness",
                   "(1+β) h c / (β h + c) (0 when β h + c = 0)", RH07, params={"beta": 1.0},
                   kernel=lambda s, beta=1.0: s.entropies.v_measure(beta),
                   param_checks={"beta": (positive, "beta must be a positive number")}),
        MetricInfo("vi", -1, "entropy", "variation of information (nats); lower is better",
                   "H(C|K) + H(K|C)", MEILA,
                   kernel=lambda s: s.entropies.vi,
                   value_range=_UNBOUNDED),
        MetricInfo("nvi", -1, "entropy", "normalised variation of information; lower is better",
                   "VI / H(C), C the gold classes; VI / H(K) when H(C) = 0; 0 when both are 0",
                   RR09,
                   kernel=lambda s: s.entropies.nvi,
                   value_range=_UNBOUNDED),
        MetricInfo("h_c_given_k", -1, "entropy",
                   "conditional entropy of the classes given the clusters (nats); lower is better",
                   "H(C|K) = -Σ_ij (n_ij/n) log(n_ij/|C_j|)", RH07,
                   kernel=lambda s: s.entropies.h_c_given_k,
                   value_range=_UNBOUNDED),
        MetricInfo("h_k_given_c", -1, "entropy",
                   "conditional entropy of the clusters given the classes (nats); lower is better",
                   "H(K|C) = -Σ_ij (n_ij/n) log(n_ij/|L_i|)", RH07,
                   kernel=lambda s: s.entropies.h_k_given_c,
                   value_range=_UNBOUNDED),
        MetricInfo("rand", 1, "pair counting",
                   "share of item pairs on which both clusterings agree",
                   "(TP + TN) / C(n,2) (1 when n < 2)", RAND,
                   kernel=lambda s: s.pairs.rand),
        MetricInfo("adjusted_rand", 1, "pair counting", "Rand index corrected for chance",
                   "(S - SA·SB/T) / ((SA+SB)/2 - SA·SB/T), S = Σ C(n_ij,2), SA = Σ C(|L_i|,2), "
                   "SB = Σ C(|C_j|,2), T = C(n,2); 1 when the denominator is 0", HA85,
                   kernel=lambda s: s.pairs.adjusted_rand,
                   value_range=_SIGNED),
        MetricInfo("jaccard", 1, "pair counting", "Jaccard coefficient over co-clustered pairs",
                   "TP / (TP + FP + FN) (1 when no pair is together in either)", AMIGO09,
                   kernel=lambda s: s.pairs.jaccard),
        MetricInfo("fowlkes_mallows", 1, "pair counting",
                   "geometric mean of pair precision and recall",
                   "TP / sqrt((TP+FP)(TP+FN)) (1 when both are all singletons)", FM,
                   kernel=lambda s: s.pairs.fowlkes_mallows),
        MetricInfo("pair_precision", 1, "pair counting",
                   "share of system pairs that are gold pairs",
                   "TP / (TP + FP) (1 when the system forms no pair)", SEMEVAL10,
                   kernel=lambda s: s.pairs.precision),
        MetricInfo("pair_recall", 1, "pair counting", "share of gold pairs the system forms",
                   "TP / (TP + FN) (1 when the gold has no pair)", SEMEVAL10,
                   kernel=lambda s: s.pairs.recall),
        MetricInfo("pair_f", 1, "pair counting", "paired F-score (SemEval-2010)",
                   "2 P R / (P + R) (0 when P + R = 0)", SEMEVAL10,
                   kernel=lambda s: s.pairs.f),
        MetricInfo("accuracy_m1", 1, "mapping",
                   "many-to-one accuracy: each cluster → its majority class",
                   "(1/n) Σ_j max_i n_ij", GOLDWATER,
                   kernel=lambda s: s.accuracy_m1),
        MetricInfo("accuracy_11", 1, "mapping",
                   "one-to-one accuracy: optimal assignment of clusters to classes",
                   "(1/n) max_σ Σ_j n_σ(j) j (scipy.optimize.linear_sum_assignment)", GOLDWATER,
                   kernel=lambda s: s.accuracy_11),
    )
