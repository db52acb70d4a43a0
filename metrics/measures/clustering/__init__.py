"""Clustering metric kernels (docs/measures.md §3).

Each module holds one family; kernels take a :class:`~metrics.model.contingency.Contingency` (all
topics of one system) and return one value per topic. Label-array wrappers with the
scikit-learn calling convention (``labels_true, labels_pred``) are provided for one topic.

* :mod:`~metrics.measures.clustering.purity` — purity, inverse purity, clustering F
* :mod:`~metrics.measures.clustering.bcubed` — BCubed precision/recall, adapted recall
* :mod:`~metrics.measures.clustering.overlap` — extended BCubed, occurrence-level
Reliability/Sensitivity; :mod:`~metrics.measures.clustering.overlap_sets` — the same for one
topic given as Python sets
* :mod:`~metrics.measures.clustering.entropy` — H(C|K), H(K|C), homogeneity, completeness, V, VI,
NVI
* :mod:`~metrics.measures.clustering.pairs` — Rand, adjusted Rand, Jaccard, Fowlkes-Mallows, pair
P/R/F
* :mod:`~metrics.measures.clustering.mapping` — many-to-one and one-to-one accuracy
"""

from metrics.measures.clustering.bcubed import adapted_recall, bcubed_precision_recall
from metrics.measures.clustering.entropy import homogeneity_completeness_v_measure
from metrics.measures.clustering.overlap_sets import extended_bcubed_from_sets

__all__ = ["adapted_recall", "bcubed_precision_recall", "homogeneity_completeness_v_measure",
           "extended_bcubed_from_sets"]
