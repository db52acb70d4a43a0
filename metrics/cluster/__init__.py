"""Clustering metric kernels (docs/measures.md §3).

Each module holds one family; kernels take a :class:`~metrics.contingency.Contingency` (all
topics of one system) and return one value per topic. Label-array wrappers with the
scikit-learn calling convention (``labels_true, labels_pred``) are provided for one topic.

* :mod:`~metrics.cluster.purity` — purity, inverse purity, clustering F
* :mod:`~metrics.cluster.bcubed` — BCubed precision/recall, adapted recall
* :mod:`~metrics.cluster.overlap` — extended BCubed, occurrence-level Reliability/Sensitivity
* :mod:`~metrics.cluster.entropy` — H(C|K), H(K|C), homogeneity, completeness, V, VI, NVI
* :mod:`~metrics.cluster.pairs` — Rand, adjusted Rand, Jaccard, Fowlkes-Mallows, pair P/R/F
* :mod:`~metrics.cluster.mapping` — many-to-one and one-to-one accuracy
"""

from metrics.cluster.bcubed import adapted_recall, bcubed_precision_recall
from metrics.cluster.entropy import homogeneity_completeness_v_measure
from metrics.cluster.overlap import extended_bcubed_from_sets

__all__ = ["adapted_recall", "bcubed_precision_recall", "homogeneity_completeness_v_measure",
           "extended_bcubed_from_sets"]
