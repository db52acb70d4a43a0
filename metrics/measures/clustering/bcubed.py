"""BCubed precision and recall from the contingency table, and adapted BCubed (docs/measures.md §3).

Without overlap (Bagga & Baldwin 1998; Amigó et al. 2009), each item paired with itself too:

    P = (1/n) Σ_ij n_ij² / |C_j|,    R = (1/n) Σ_ij n_ij² / |L_i|.

Under ``missing="penalize"`` (docs/measures.md §2) a missing item is a singleton cluster (precision
1) whose
self pair earns no recall: the table's ``missing_self_recall`` (Σ 1/|L(e)| over missing items)
is removed from the recall numerator, so its recall is 0.

Reliability and Sensitivity for clustering (Amigó, Gonzalo, Verdejo 2013) equal BCubed P and R
without overlap. Overlapping clusterings go through :mod:`metrics.measures.clustering.overlap`
(extended
BCubed); this module refuses them.

Adapted BCubed (Moreno & Dias 2015, eq. 5): P_mod = P and R_mod = R^(k-1) for k-tuples.
"""

from __future__ import annotations

import numpy as np

from metrics.measures.clustering.safe import safe_div
from metrics.model.contingency import Contingency, contingency_from_labels

__all__ = ["bcubed", "adapted_recall", "bcubed_precision_recall"]


def bcubed(table: Contingency) -> tuple[np.ndarray, np.ndarray]:
    """BCubed precision and recall per topic of non-overlapping clusterings.

    Returns
    -------
    precision, recall : ndarray of float64, shape (n_topics,), values in (0, 1]
        (recall can be 0 under the penalize policy).
    """
    if table.overlapping:
        raise ValueError("bcubed() needs non-overlapping clusterings; use "
                         "metrics.measures.clustering.overlap.extended_bcubed for overlapping ones")
    # Σ_i n_ij² per cluster and Σ_j n_ij² per class (whole numbers, exact below 2^53), then one
    # division per label rather than one per cell
    sq = np.square(table.cell_count)
    n = table.n_items
    p = table.cluster_sum(safe_div(table.per_cluster_sum(sq), table.cluster_size, 0.0))
    r = (table.class_sum(safe_div(table.per_class_sum(sq), table.class_size, 0.0))
         - table.missing_self_recall)
    with np.errstate(invalid="ignore", divide="ignore"):
        p = np.where(n > 0, p / n, 1.0)
        r = np.where(n > 0, np.maximum(r, 0.0) / n, 1.0)
    return np.minimum(p, 1.0), np.minimum(r, 1.0)


def adapted_recall(recall: np.ndarray, k: int = 3) -> np.ndarray:
    """Adapted BCubed recall R^(k-1) of Moreno & Dias (2015, eq. 5), k ≥ 2 (k = 2 gives R)."""
    if k < 2:
        raise ValueError(f"k must be at least 2, got {k}")
    return np.asarray(recall, dtype=np.float64) ** (k - 1)


def bcubed_precision_recall(labels_true, labels_pred) -> tuple[float, float]:
    """BCubed precision and recall of two label arrays (one topic, no overlap)."""
    p, r = bcubed(contingency_from_labels(labels_true, labels_pred))
    return float(p[0]), float(r[0])
