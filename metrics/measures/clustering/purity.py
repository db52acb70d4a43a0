"""Set-matching metrics: purity, inverse purity, clustering F (docs/measures.md §3).

Kernels take a :class:`~metrics.model.contingency.Contingency` and return one value per topic.
With overlap they follow docs/measures.md §3: purity is normalised by Σ_j |C_j|, inverse purity by
Σ_i |L_i|, and (choice of this module, by analogy) clustering F weighs classes by |L_i| / Σ_i |L_i|.
All three are in [0, 1] and equal 1 when the clusterings are identical.
"""

from __future__ import annotations

import numpy as np

from metrics.measures.clustering.safe import safe_div
from metrics.model.contingency import Contingency, contingency_from_labels

__all__ = ["purity", "inverse_purity", "fscore", "purity_score", "inverse_purity_score",
           "fscore_score"]


def purity(table: Contingency) -> np.ndarray:
    """Purity per topic: Σ_j max_i n_ij / Σ_j |C_j| (= (1/n) Σ_j max_i n_ij without overlap).

    Returns
    -------
    ndarray of float64, shape (n_topics,), values in (0, 1].
    """
    return safe_div(table.cluster_sum(table.max_per_cluster()),
                     table.cluster_sum(table.cluster_size), 1.0)


def inverse_purity(table: Contingency) -> np.ndarray:
    """Inverse purity per topic: Σ_i max_j n_ij / Σ_i |L_i|."""
    return safe_div(table.class_sum(table.max_per_class()), table.class_sum(table.class_size), 1.0)


def fscore(table: Contingency) -> np.ndarray:
    """Clustering F (Zhao & Karypis FScore, SemEval-2007) per topic.

    F = Σ_i (|L_i| / n) max_j F(L_i, C_j) with F(L_i, C_j) = 2 n_ij / (|L_i| + |C_j|), the
    harmonic mean of n_ij/|C_j| and n_ij/|L_i|. With overlap n is replaced by Σ_i |L_i|.
    """
    f = 2.0 * table.cell_count / (table.class_size[table.cell_class]
                                  + table.cluster_size[table.cell_cluster])
    starts = np.flatnonzero(np.r_[True, table.cell_class[1:] != table.cell_class[:-1]])
    best = np.zeros(table.class_size.size)
    if f.size:
        best[table.cell_class[starts]] = np.maximum.reduceat(f, starts)
    return safe_div(table.class_sum(table.class_size * best), table.class_sum(table.class_size),
                    1.0)


def purity_score(labels_true, labels_pred) -> float:
    """Purity of two label arrays (one topic, no overlap)."""
    return float(purity(contingency_from_labels(labels_true, labels_pred))[0])


def inverse_purity_score(labels_true, labels_pred) -> float:
    """Inverse purity of two label arrays (one topic, no overlap)."""
    return float(inverse_purity(contingency_from_labels(labels_true, labels_pred))[0])


def fscore_score(labels_true, labels_pred) -> float:
    """Clustering F of two label arrays (one topic, no overlap)."""
    return float(fscore(contingency_from_labels(labels_true, labels_pred))[0])
