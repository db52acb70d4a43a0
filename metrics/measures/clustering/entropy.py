"""Entropy-based metrics (docs/measures.md §3): H(C|K), H(K|C), homogeneity, completeness, V_β, VI,
NVI.

Natural logarithms (nats). C is the gold clustering (classes), K the system clustering
(clusters), following Rosenberg & Hirschberg (2007) and Reichart et al. (2010): "We denote the
induced clustering by K and the gold clustering by C". With p_ij = n_ij / n:

    H(C) = -Σ_i (a_i/n) log(a_i/n),  a_i = Σ_j n_ij      H(K) likewise with b_j = Σ_i n_ij
    H(C|K) = -Σ_ij p_ij log(n_ij / b_j)                   H(K|C) = -Σ_ij p_ij log(n_ij / a_i)
    homogeneity h = 1 - H(C|K)/H(C)                       completeness c = 1 - H(K|C)/H(K)
    V_β = (1+β) h c / (β h + c)                           VI = H(C|K) + H(K|C)
    NVI = VI / H(C)   (Reichart & Rappoport 2009: normalised by the entropy of the gold)

Edge cases, explicit:

* a single class (H(C) = 0): h = 1 (no cluster can mix classes), H(C|K) = 0,
  NVI = VI / H(K) = 1 unless the system also has a single cluster;
* a single cluster (H(K) = 0): c = 1;
* both (including a topic of one item): h = c = V = 1, VI = NVI = 0;
* β h + c = 0: V = 0.

Entropies are computed as log n - Σ x log x / n over the cells (one ``bincount`` per
quantity; over the cells, Σ_v v log v times the number of cells of count v when the counts are
few values); "one class" and "one cluster" are detected by counting, so the degenerate cases
are exact, and conditional entropies are clipped to [0, H] against rounding.

With overlap these metrics are computed on the (item, class, cluster) expansion of the table
(see :mod:`metrics.model.contingency`).
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np

from metrics.measures.clustering.safe import safe_div
from metrics.model.contingency import Contingency, contingency_from_labels

__all__ = ["Entropies", "entropies", "homogeneity_completeness_v_measure", "v_measure",
           "vi", "nvi"]


def _xlogx(x: np.ndarray) -> np.ndarray:
    """x log x, 0 at 0."""
    pos = x > 0
    if pos.all():  # non-empty cells and labels: nothing to mask
        return x * np.log(x)
    out = np.log(x, where=pos, out=np.zeros_like(x, dtype=np.float64))
    return np.multiply(x, out, out=out, where=pos)


def _cell_xlogx(table: Contingency) -> np.ndarray:
    """Σ n_ij log n_ij over the cells of each topic.

    The counts are whole numbers, most of them small: when (largest count + 1) x topics is at
    most the number of cells, Σ_v v log v · #{cells of the topic with n_ij = v}, with one
    ``bincount`` of the counts and one logarithm per value rather than per cell."""
    c = table.cell_count
    top = int(c.max(initial=0)) + 1
    if c.size and top * table.n_topics <= max(c.size, 1024):
        ci = c.astype(np.int64)
        if np.array_equal(ci, c):
            if table.n_topics > 1:
                ci += table.cell_topic * top
            freq = np.bincount(ci, minlength=top * table.n_topics).reshape(table.n_topics, top)
            return freq @ _xlogx(np.arange(top, dtype=np.float64))
    return table.topic_sum(_xlogx(c))


@dataclass(frozen=True)
class Entropies:
    """Per-topic entropies (nats), arrays of shape (n_topics,)."""

    h_c: np.ndarray
    h_k: np.ndarray
    h_c_given_k: np.ndarray
    h_k_given_c: np.ndarray

    @property
    def homogeneity(self) -> np.ndarray:
        out = np.ones_like(self.h_c)
        np.subtract(1.0, self.h_c_given_k / np.where(self.h_c > 0, self.h_c, 1.0), out=out,
                    where=self.h_c > 0)
        return np.clip(out, 0.0, 1.0)

    @property
    def completeness(self) -> np.ndarray:
        out = np.ones_like(self.h_k)
        np.subtract(1.0, self.h_k_given_c / np.where(self.h_k > 0, self.h_k, 1.0), out=out,
                    where=self.h_k > 0)
        return np.clip(out, 0.0, 1.0)

    def v_measure(self, beta: float = 1.0) -> np.ndarray:
        h, c = self.homogeneity, self.completeness
        den = beta * h + c
        return safe_div((1.0 + beta) * h * c, den, 0.0)

    @property
    def vi(self) -> np.ndarray:
        return self.h_c_given_k + self.h_k_given_c

    @property
    def nvi(self) -> np.ndarray:
        vi = self.vi
        den = np.where(self.h_c > 0, self.h_c, self.h_k)
        return safe_div(vi, den, 0.0)


def entropies(table: Contingency) -> Entropies:
    """H(C), H(K), H(C|K), H(K|C) per topic of a contingency table."""
    n = table.n_total
    logn = np.log(np.where(n > 0, n, 1.0))
    nsafe = np.where(n > 0, n, 1.0)
    s_cells = _cell_xlogx(table)
    s_rows = table.class_sum(_xlogx(table.row_sum))
    s_cols = table.cluster_sum(_xlogx(table.col_sum))
    h_ck = logn - s_cells / nsafe                      # joint entropy H(C, K)
    one_class = table.n_classes() <= 1
    one_cluster = table.n_clusters() <= 1
    h_c = np.where(one_class, 0.0, np.maximum(logn - s_rows / nsafe, 0.0))
    h_k = np.where(one_cluster, 0.0, np.maximum(logn - s_cols / nsafe, 0.0))
    h_c_given_k = np.where(one_class, 0.0, np.clip(h_ck - h_k, 0.0, h_c))
    h_k_given_c = np.where(one_cluster, 0.0, np.clip(h_ck - h_c, 0.0, h_k))
    return Entropies(h_c=h_c, h_k=h_k, h_c_given_k=h_c_given_k, h_k_given_c=h_k_given_c)


def homogeneity_completeness_v_measure(labels_true, labels_pred, *, beta: float = 1.0
                                       ) -> tuple[float, float, float]:
    """Homogeneity, completeness and V_β of two label arrays (one topic, no overlap).

    Same contract as :func:`sklearn.metrics.homogeneity_completeness_v_measure`; the
    contingency table is built with ``np.bincount`` on integer codes (hash-factorised labels),
    without sorting.

    Parameters
    ----------
    labels_true : array-like of shape (n_items,)
        Gold classes.
    labels_pred : array-like of shape (n_items,)
        System clusters.
    beta : float, default 1.0
        Weight of completeness (β > 1) or homogeneity (β < 1).

    Returns
    -------
    homogeneity, completeness, v_measure : float, in [0, 1]
    """
    e = entropies(contingency_from_labels(labels_true, labels_pred))
    return (float(e.homogeneity[0]), float(e.completeness[0]), float(e.v_measure(beta)[0]))


def v_measure(labels_true, labels_pred, *, beta: float = 1.0) -> float:
    """V_β of two label arrays (one topic, no overlap)."""
    return homogeneity_completeness_v_measure(labels_true, labels_pred, beta=beta)[2]


def vi(labels_true, labels_pred) -> float:
    """Variation of information (nats) of two label arrays."""
    return float(entropies(contingency_from_labels(labels_true, labels_pred)).vi[0])


def nvi(labels_true, labels_pred) -> float:
    """Normalised variation of information VI / H(C) of two label arrays."""
    return float(entropies(contingency_from_labels(labels_true, labels_pred)).nvi[0])
