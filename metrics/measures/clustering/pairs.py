"""Pair-counting metrics from the contingency table (docs/measures.md §3).

Over the T = C(n, 2) unordered pairs of distinct items of a topic:

    TP = S = Σ_ij C(n_ij, 2)     together in both          SA = Σ_i C(a_i, 2)  together in gold
    FP = SB - S                  together only in system    SB = Σ_j C(b_j, 2)  together in system
    FN = SA - S                  together only in gold      TN = T - SA - SB + S

    rand = (TP + TN) / T
    adjusted_rand = (S - SA·SB/T) / ((SA + SB)/2 - SA·SB/T)      (Hubert & Arabie)
    jaccard = TP / (TP + FP + FN)
    fowlkes_mallows = TP / sqrt((TP + FP)(TP + FN))
    pair_precision = TP / (TP + FP),  pair_recall = TP / (TP + FN),  pair_f = 2PR/(P+R)

Edge cases (no pair to count), chosen so that identical clusterings score 1:

* n < 2: every metric is 1;
* adjusted_rand: the denominator is 0 only when both clusterings are all singletons or both
  are one cluster (identical): 1 (as scikit-learn);
* jaccard: no pair together in either clustering (both all singletons): 1;
* fowlkes_mallows: both all singletons: 1 (scikit-learn returns 0 there); otherwise 0 when
  TP = 0;
* pair_precision: the system forms no pair: 1; pair_recall: the gold has no pair: 1;
* pair_f: 0 when P + R = 0.

With overlap they are computed on the (item, class, cluster) expansion of the table.
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np

from metrics.measures.clustering.safe import safe_div
from metrics.model.contingency import Contingency, contingency_from_labels

__all__ = ["PairCounts", "pair_counts", "pair_scores"]


def _c2(x: np.ndarray) -> np.ndarray:
    return x * (x - 1.0) / 2.0


@dataclass(frozen=True)
class PairCounts:
    """Per-topic pair counts: S (TP), SA (gold pairs), SB (system pairs), T (all pairs)."""

    s: np.ndarray
    sa: np.ndarray
    sb: np.ndarray
    t: np.ndarray

    @property
    def tp(self) -> np.ndarray:
        return self.s

    @property
    def fp(self) -> np.ndarray:
        return self.sb - self.s

    @property
    def fn(self) -> np.ndarray:
        return self.sa - self.s

    @property
    def tn(self) -> np.ndarray:
        return self.t - self.sa - self.sb + self.s

    @property
    def rand(self) -> np.ndarray:
        return safe_div(self.tp + self.tn, self.t, 1.0)

    @property
    def adjusted_rand(self) -> np.ndarray:
        expected = safe_div(self.sa * self.sb, self.t, 0.0)
        den = 0.5 * (self.sa + self.sb) - expected
        out = np.ones_like(self.s)
        np.divide(self.s - expected, den, out=out, where=np.abs(den) > 1e-12)
        return out

    @property
    def jaccard(self) -> np.ndarray:
        return safe_div(self.tp, self.tp + self.fp + self.fn, 1.0)

    @property
    def fowlkes_mallows(self) -> np.ndarray:
        den = np.sqrt(self.sa * self.sb)
        out = np.where((self.sa == 0) & (self.sb == 0), 1.0, 0.0)
        np.divide(self.s, den, out=out, where=den > 0)
        return np.minimum(out, 1.0)

    @property
    def precision(self) -> np.ndarray:
        return safe_div(self.s, self.sb, 1.0)

    @property
    def recall(self) -> np.ndarray:
        return safe_div(self.s, self.sa, 1.0)

    @property
    def f(self) -> np.ndarray:
        p, r = self.precision, self.recall
        return safe_div(2.0 * p * r, p + r, 0.0)


def pair_counts(table: Contingency) -> PairCounts:
    """Pair counts per topic of a contingency table."""
    n = table.n_total
    return PairCounts(
        s=table.topic_sum(_c2(table.cell_count)),
        sa=table.class_sum(_c2(table.row_sum)),
        sb=table.cluster_sum(_c2(table.col_sum)),
        t=_c2(n),
    )


def pair_scores(labels_true, labels_pred) -> dict[str, float]:
    """Every pair-counting metric of two label arrays (one topic, no overlap)."""
    pc = pair_counts(contingency_from_labels(labels_true, labels_pred))
    return {
        "rand": float(pc.rand[0]), "adjusted_rand": float(pc.adjusted_rand[0]),
        "jaccard": float(pc.jaccard[0]), "fowlkes_mallows": float(pc.fowlkes_mallows[0]),
        "pair_precision": float(pc.precision[0]), "pair_recall": float(pc.recall[0]),
        "pair_f": float(pc.f[0]),
    }
