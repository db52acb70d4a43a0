"""Filtering measures over per-topic confusion counts (Amigó, Gonzalo, Verdejo, SIGIR 2013, §2.2,
§4.3).

Filtering puts every document of a finite set into a positive (relevant) or a negative
(irrelevant) class. With, per topic, TP relevant documents accepted, FP irrelevant accepted,
FN relevant rejected and TN irrelevant rejected (N = TP + FP + FN + TN):

========================  ==================================================================
=========
measure                   formula                                                             better
========================  ==================================================================
=========
``accuracy``              (TP + TN) / N                                                       higher
``precision``             TP / (TP + FP)            (positive class)                          higher
``recall``                TP / (TP + FN)            (positive class)                          higher
``f_measure``             1 / (alpha / precision + (1 - alpha) / recall), alpha = 0.5         higher
``utility``               a TP - b FP, a = 2, b = 1 (TREC filtering T11U)                     higher
``scaled_utility``        (max(U / U_max, m) - m) / (1 - m), U_max = a (TP + FN), m = -0.5    higher
                          (TREC 2002 filtering track T11SU; Robertson & Soboroff 2002)
``lam``                   100 logit^-1((logit fpr + logit fnr) / 2), fpr = (FP + 0.5) /       lower
                          (FP + TN + 0.5), fnr = (FN + 0.5) / (TP + FN + 0.5), as a percentage
                          (TREC 2005 spam track; Cormack & Lynam)
``reliability``           precision(positive) x precision(negative) = TP/(TP+FP) x TN/(TN+FN) higher
``sensitivity``           recall(positive) x recall(negative) = TP/(TP+FN) x TN/(TN+FP)       higher
``rs_f``                  F_0.5 of reliability and sensitivity (the paper's R*S)              higher
========================  ==================================================================
=========

The last three are what Reliability and Sensitivity reduce to on a filtering output (two
levels, no tail; the paper's §4.3); they are here as closed forms over counts, an independent
route for the general organisation measures. A quantity with a zero denominator (nothing
accepted, no relevant document, ...) is ``zero_division`` (default 0): in particular R and S
score 0 for the all-positive and all-negative outputs, as the paper states. Every function
is vectorised: the counts broadcast as arrays (one entry per topic, system, ...).
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass

import numpy as np

from metrics.comparison.van_rijsbergen import f_alpha

__all__ = [
    "FilteringCounts",
    "filtering_counts",
    "level_mask",
    "output_counts",
    "accuracy",
    "precision",
    "recall",
    "f_measure",
    "utility",
    "scaled_utility",
    "lam",
    "reliability",
    "sensitivity",
    "rs_f",
    "FILTERING_MEASURES",
    "FILTERING_DIRECTIONS",
    "score_filtering",
    "non_informative_counts",
    "non_informative_profile",
]


@dataclass(frozen=True)
class FilteringCounts:
    """Confusion counts, one entry per topic (arrays of equal shape, float64)."""

    tp: np.ndarray
    fp: np.ndarray
    fn: np.ndarray
    tn: np.ndarray

    @classmethod
    def of(cls, tp, fp, fn, tn) -> FilteringCounts:
        arrs = np.broadcast_arrays(*(np.asarray(x, dtype=np.float64) for x in (tp, fp, fn, tn)))
        if any(np.any(a < 0) for a in arrs):
            raise ValueError("filtering counts must be non-negative")
        return cls(*arrs)


def filtering_counts(relevant, accepted, topic=None,
                     n_topics: int | None = None) -> FilteringCounts:
    """Per-topic confusion counts of one filtering output.

    Parameters
    ----------
    relevant, accepted : array_like of bool, shape (n_docs,)
        Gold relevance and the system's decision of each document.
    topic : array_like of int, shape (n_docs,), optional
        Topic code of each document (0 .. n_topics-1); all one topic when omitted.
    n_topics : int, optional
        Number of topics (default: max code + 1).
    """
    rel = np.asarray(relevant, dtype=bool)
    acc = np.asarray(accepted, dtype=bool)
    if rel.shape != acc.shape:
        raise ValueError(f"relevant has shape {rel.shape}, accepted {acc.shape}")
    top = np.zeros(rel.shape, dtype=np.int64) if topic is None else np.asarray(topic, np.int64)
    k = int(n_topics if n_topics is not None else (top.max() + 1 if top.size else 1))
    cell = top * 4 + rel * 2 + acc  # (rel, acc): (1,1) TP, (0,1) FP, (1,0) FN, (0,0) TN
    c = np.bincount(cell, minlength=4 * k).reshape(k, 4).astype(np.float64)
    return FilteringCounts(tp=c[:, 3], fp=c[:, 1], fn=c[:, 2], tn=c[:, 0])


def level_mask(output, n_items: int, top: int = 1) -> np.ndarray:
    """Boolean mask over a campaign's items: on the levels 1 .. ``top`` of ``output`` (a
    :class:`~metrics.model.campaign.Membership`; one without levels is all on level 1).

    On a filtering output, level 1 is accepted (in the gold: relevant); on a ranking, the first
    ``top`` levels are its top ``top`` documents.
    """
    mask = np.zeros(n_items, dtype=bool)
    level = np.ones(output.n_rows, dtype=np.int64) if output.level is None else output.level
    mask[output.item[(level >= 1) & (level <= top)]] = True
    return mask


def output_counts(relevant: np.ndarray, accepted: Sequence[np.ndarray], item_topic: np.ndarray,
                  n_topics: int, documents: np.ndarray | None = None) -> FilteringCounts:
    """Confusion counts of several outputs over the same documents, shape (outputs, topics).

    Parameters
    ----------
    relevant : ndarray of bool, shape (n_items,)
        Gold relevance of every item.
    accepted : sequence of ndarray of bool, shape (n_items,)
        Each output's decision on every item (:func:`level_mask`).
    item_topic : ndarray of int, shape (n_items,)
    n_topics : int
    documents : ndarray of int, optional
        The items counted (default: all).
    """
    docs = np.arange(relevant.size) if documents is None else np.asarray(documents)
    topic = item_topic[docs]
    counts = [filtering_counts(relevant[docs], acc[docs], topic, n_topics) for acc in accepted]
    if not counts:
        empty = np.zeros((0, n_topics))
        return FilteringCounts(empty, empty, empty, empty)
    return FilteringCounts(*(np.vstack([getattr(c, f) for c in counts])
                             for f in ("tp", "fp", "fn", "tn")))


def _ratio(num, den, zero_division: float) -> np.ndarray:
    num = np.asarray(num, dtype=np.float64)
    den = np.asarray(den, dtype=np.float64)
    with np.errstate(divide="ignore", invalid="ignore"):
        return np.where(den > 0, num / np.where(den > 0, den, 1.0), zero_division)


def accuracy(c: FilteringCounts, zero_division: float = 0.0) -> np.ndarray:
    """(TP + TN) / N, in [0, 1]."""
    return _ratio(c.tp + c.tn, c.tp + c.fp + c.fn + c.tn, zero_division)


def precision(c: FilteringCounts, zero_division: float = 0.0) -> np.ndarray:
    """Positive-class precision TP / (TP + FP), in [0, 1]."""
    return _ratio(c.tp, c.tp + c.fp, zero_division)


def recall(c: FilteringCounts, zero_division: float = 0.0) -> np.ndarray:
    """Positive-class recall TP / (TP + FN), in [0, 1]."""
    return _ratio(c.tp, c.tp + c.fn, zero_division)


def f_measure(c: FilteringCounts, alpha: float = 0.5, zero_division: float = 0.0) -> np.ndarray:
    """Positive-class F_alpha = 1 / (alpha/P + (1-alpha)/R) (van Rijsbergen), 0 if P or R is 0."""
    return np.asarray(f_alpha(precision(c, zero_division), recall(c, zero_division), alpha))


def utility(c: FilteringCounts, a: float = 2.0, b: float = 1.0) -> np.ndarray:
    """Linear utility a TP - b FP (TREC filtering T11U for a = 2, b = 1); unbounded."""
    return a * c.tp - b * c.fp


def scaled_utility(c: FilteringCounts, a: float = 2.0, b: float = 1.0, min_nu: float = -0.5,
                   zero_division: float = 0.0) -> np.ndarray:
    """T11SU: (max(U / U_max, min_nu) - min_nu) / (1 - min_nu), U_max = a (TP + FN); in [0, 1].

    Robertson & Soboroff, The TREC 2002 filtering track report. ``zero_division`` when the
    topic has no relevant document (U_max = 0).
    """
    nu = _ratio(utility(c, a, b), a * (c.tp + c.fn), np.nan)
    out = (np.maximum(nu, min_nu) - min_nu) / (1.0 - min_nu)
    return np.where(np.isnan(nu), zero_division, out)


def lam(c: FilteringCounts, smoothing: float = 0.5) -> np.ndarray:
    """Logistic average misclassification, a percentage in [0, 100]; lower is better.

    ``100 logit^-1((logit(fpr) + logit(fnr)) / 2)`` with the rates smoothed as in the TREC
    spam track (``smoothing`` = 0.5): fpr = (FP + s) / (FP + TN + s) (irrelevant documents
    accepted), fnr = (FN + s) / (TP + FN + s) (relevant documents rejected). The smoothing
    keeps both rates above 0; a rate of exactly 1 (no relevant document accepted, or no
    irrelevant one in the topic) gives 100. With ``smoothing=0`` this is the raw definition,
    50 for every non-informative output (fpr = 1 - fnr).
    """
    fpr = _ratio(c.fp + smoothing, c.fp + c.tn + smoothing, np.nan)
    fnr = _ratio(c.fn + smoothing, c.tp + c.fn + smoothing, np.nan)
    with np.errstate(divide="ignore", invalid="ignore"):
        z = (np.log(fpr / (1.0 - fpr)) + np.log(fnr / (1.0 - fnr))) / 2.0
    return 100.0 / (1.0 + np.exp(-z))


def reliability(c: FilteringCounts, zero_division: float = 0.0) -> np.ndarray:
    """Reliability of a filtering output: TP/(TP+FP) x TN/(TN+FN) (the paper's §4.3)."""
    return _ratio(c.tp, c.tp + c.fp, zero_division) * _ratio(c.tn, c.tn + c.fn, zero_division)


def sensitivity(c: FilteringCounts, zero_division: float = 0.0) -> np.ndarray:
    """Sensitivity of a filtering output: TP/(TP+FN) x TN/(TN+FP) (the paper's §4.3)."""
    return _ratio(c.tp, c.tp + c.fn, zero_division) * _ratio(c.tn, c.tn + c.fp, zero_division)


def rs_f(c: FilteringCounts, alpha: float = 0.5) -> np.ndarray:
    """F_alpha of Reliability and Sensitivity (R*S in the paper for alpha = 0.5)."""
    return np.asarray(f_alpha(reliability(c), sensitivity(c), alpha))


#: name -> function of the counts, in the order the paper lists them (then R, S, R*S).
FILTERING_MEASURES: dict[str, Callable[..., np.ndarray]] = {
    "accuracy": accuracy,
    "precision": precision,
    "recall": recall,
    "f_measure": f_measure,
    "utility": utility,
    "scaled_utility": scaled_utility,
    "lam": lam,
    "reliability": reliability,
    "sensitivity": sensitivity,
    "rs_f": rs_f,
}

#: +1 higher is better, -1 lower is better.
FILTERING_DIRECTIONS: dict[str, int] = {name: (-1 if name == "lam" else 1)
                                        for name in FILTERING_MEASURES}


def score_filtering(c: FilteringCounts,
                    measures: Sequence[str] | None = None) -> dict[str, np.ndarray]:
    """Every requested filtering measure (default: all) on the same counts."""
    names = list(FILTERING_MEASURES) if measures is None else list(measures)
    unknown = [m for m in names if m not in FILTERING_MEASURES]
    if unknown:
        raise ValueError(f"unknown filtering measure(s) {', '.join(unknown)}; "
                         f"known: {', '.join(FILTERING_MEASURES)}")
    return {m: np.asarray(FILTERING_MEASURES[m](c), dtype=np.float64) for m in names}


def non_informative_counts(n_docs: int, n_relevant: int,
                           sizes: Sequence[float] | np.ndarray) -> FilteringCounts:
    """Expected counts of non-informative outputs: k documents accepted at random.

    A non-informative output ignores the documents' content (the paper's §2.2): accepting k
    of N documents at random gives, in expectation, TP = k R / N, FP = k (N - R) / N,
    FN = R - TP, TN = N - R - FP. One entry per size k; the counts may be fractional.
    """
    k = np.asarray(sizes, dtype=np.float64)
    if n_docs <= 0 or not 0 <= n_relevant <= n_docs or np.any((k < 0) | (k > n_docs)):
        raise ValueError("need 0 <= n_relevant <= n_docs, n_docs > 0 and 0 <= size <= n_docs")
    tp = k * n_relevant / n_docs
    fp = k - tp
    return FilteringCounts.of(tp, fp, n_relevant - tp, n_docs - n_relevant - fp)


def non_informative_profile(n_docs: int = 100, n_relevant: int = 20,
                            sizes: Sequence[float] | None = None,
                            measures: Sequence[str] | None = None,
                            tol: float = 1e-9) -> tuple[dict[str, np.ndarray], dict[str, str]]:
    """How each measure scores non-informative outputs as the accepted set grows.

    The paper (§2.2) sorts filtering measures by this behaviour: a constant score (lam%,
    correlation-based measures), a score growing with the accepted set (F of the positive
    class), or one that depends on the class distribution and the measure's parameters
    (accuracy, utility). Sizes 0 and N (accept nothing, accept all) are included.

    Returns
    -------
    scores : dict measure -> ndarray, the score at each size
    behaviour : dict measure -> "constant", "increasing", "decreasing" or "other", read on
        the sizes strictly between 0 and N (the two trivial outputs are often special cases).
    """
    k = np.linspace(0, n_docs, 11) if sizes is None else np.asarray(sizes, dtype=np.float64)
    scores = score_filtering(non_informative_counts(n_docs, n_relevant, k), measures)
    inner = (k > 0) & (k < n_docs)
    behaviour = {}
    for name, v in scores.items():
        d = np.diff(v[inner])
        scale = max(1.0, float(np.max(np.abs(v[inner])))) if inner.any() else 1.0
        if np.all(np.abs(d) <= tol * scale):
            behaviour[name] = "constant"
        elif np.all(d > tol * scale):
            behaviour[name] = "increasing"
        elif np.all(d < -tol * scale):
            behaviour[name] = "decreasing"
        else:
            behaviour[name] = "other"
    return scores, behaviour
