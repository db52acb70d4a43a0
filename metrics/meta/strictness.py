"""Strictness of a measure against reference measures, under both readings of the R&S paper.

Amigó, Gonzalo and Verdejo (SIGIR 2013, §4.1): "we compute, for each measure, all the rank
positions obtained by each system output o ∈ O for each topic and measure. Then we define
strictness as the largest difference between a high rank assigned by our measure and a low rank
assigned by a traditional measure" (the formula was lost in the text we have). Two readings:

``per-topic``
    On each topic the measure and each reference rank the systems; ranks are scaled to [0, 1],
    1 = best: ``(r - 1) / (n - 1)`` for the r-th worst of n (average ranks for ties).
``all-outputs``
    Every (system, topic) output is one item of O: the measure and each reference rank all the
    outputs of the campaign at once, scaled the same way over all of them.

The difference of an output is its rank by the measure minus its rank by a reference (both over
the outputs the two score). Strictness = -(the largest difference over outputs and references),
or, with ``top = k``, minus the mean of the k largest ("we have also computed strictness
considering the 10 maximum differences", §4.4). Range [-1, 0]; 0 means the measure never ranks an
output above where a reference ranks it. See ``docs/meta-evaluation.md``.
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np
from scipy.stats import rankdata

from metrics.meta.readings import STRICTNESS_READINGS

__all__ = ["Strictness", "strictness", "scaled_ranks", "output_ranks", "STRICTNESS_READINGS"]



@dataclass(frozen=True)
class Strictness:
    """Strictness of one measure against reference measures.

    Attributes
    ----------
    value : float
        Minus the largest scaled-rank difference (minus the mean of the ``top`` largest) over
        outputs and references; NaN when no reference other than the measure itself ranks two
        outputs the measure ranks too.
    per_topic : ndarray, shape (T,)
        The same taken over the outputs of each topic alone.
    worst : tuple (system index, topic index, reference index) or None
        Where the largest difference is reached (first in system, topic, reference order).
    reading : str
        ``per-topic`` or ``all-outputs``.
    top : int
        How many of the largest differences are averaged.
    """

    value: float
    per_topic: np.ndarray
    worst: tuple[int, int, int] | None
    reading: str = "per-topic"
    top: int = 1


def scaled_ranks(values: np.ndarray) -> np.ndarray:
    """Per-topic ranks of the systems scaled to [0, 1], 1 = best.

    Parameters
    ----------
    values : ndarray, shape (S, T)
        Higher-is-better scores (orient lower-is-better measures first); NaN = not scored.

    Returns
    -------
    ndarray, shape (S, T)
        ``(r - 1) / (n_t - 1)`` with r the average rank (1 = worst) among the n_t systems
        scored on topic t; NaN where not scored or where n_t < 2.
    """
    v = np.asarray(values, dtype=np.float64)
    r = rankdata(v, axis=0, nan_policy="omit") if v.size else v.copy()
    n = np.sum(~np.isnan(v), axis=0).astype(np.float64)
    with np.errstate(divide="ignore", invalid="ignore"):
        out = (r - 1.0) / (n - 1.0)
    return np.where(n >= 2, out, np.nan)


def output_ranks(values: np.ndarray) -> np.ndarray:
    """Ranks of every (system, topic) output among all the outputs scored, scaled to [0, 1].

    Parameters
    ----------
    values : ndarray, shape (S, T)
        Higher-is-better scores; NaN = not scored.

    Returns
    -------
    ndarray, shape (S, T)
        ``(r - 1) / (N - 1)`` with r the average rank (1 = worst) among the N outputs scored;
        NaN where not scored, everywhere when N < 2.
    """
    v = np.asarray(values, dtype=np.float64)
    out = np.full(v.shape, np.nan)
    ok = ~np.isnan(v)
    n = int(ok.sum())
    if n >= 2:
        out[ok] = (rankdata(v[ok]) - 1.0) / (n - 1.0)
    return out


_RANKERS = {"per-topic": scaled_ranks, "all-outputs": output_ranks}


def _differences(v: np.ndarray, refs: np.ndarray, ranks, reading: str) -> np.ndarray:
    """rank_m - rank_m' of every output and reference, shape (S, T, K); NaN where undefined."""
    rank_of = _RANKERS[reading]
    n_s, n_t = v.shape
    k = refs.shape[2] if refs.ndim == 3 else 0
    diff = np.full((n_s, n_t, k), np.nan)
    valid = ~np.isnan(v)
    rank_v = rank_of(v) if ranks is None else ranks[0]
    for j in range(k):  # one pass per reference measure: a handful
        ref = refs[:, :, j]
        both = valid & ~np.isnan(ref)
        rank_r = rank_of(ref) if ranks is None else ranks[1][:, :, j]
        same = np.all(both == valid, axis=0) & np.all(both == ~np.isnan(ref), axis=0)
        rank_v_j = rank_v
        if reading == "per-topic" and not same.all():
            # topics where the two score different systems: rank over the systems both score
            cols = ~same
            rank_v_j, rank_r = rank_v.copy(), rank_r.copy()
            rank_v_j[:, cols] = scaled_ranks(np.where(both, v, np.nan)[:, cols])
            rank_r[:, cols] = scaled_ranks(np.where(both, ref, np.nan)[:, cols])
        elif reading == "all-outputs" and not same.all():  # rank over the outputs both score
            rank_v_j = output_ranks(np.where(both, v, np.nan))
            rank_r = output_ranks(np.where(both, ref, np.nan))
        diff[:, :, j] = rank_v_j - rank_r
    return diff


def _top_mean(rows: np.ndarray, top: int) -> np.ndarray:
    """Mean of the ``top`` largest finite values of each row (of all there are when fewer);
    NaN for a row without any."""
    filled = np.where(np.isnan(rows), -np.inf, rows)
    k = min(top, rows.shape[1])
    if k == 0:
        return np.full(rows.shape[0], np.nan)
    largest = -np.sort(-filled, axis=1)[:, :k]
    finite = np.isfinite(largest)
    count = finite.sum(axis=1)
    total = np.where(finite, largest, 0.0).sum(axis=1)
    with np.errstate(divide="ignore", invalid="ignore"):
        return np.where(count > 0, total / np.maximum(count, 1), np.nan)


def strictness(values: np.ndarray, references: np.ndarray,
               ranks: tuple[np.ndarray, np.ndarray] | None = None,
               reading: str = "per-topic", top: int = 1) -> Strictness:
    """Strictness of a measure against reference measures.

    Parameters
    ----------
    values : ndarray, shape (S, T)
        Higher-is-better scores of the measure (NaN = not scored).
    references : ndarray, shape (S, T, K)
        Higher-is-better scores of the K reference measures other than this one.
    ranks : (ndarray (S, T), ndarray (S, T, K)), optional
        The ranks of ``values`` and of each reference under ``reading`` (:func:`scaled_ranks`
        per topic, :func:`output_ranks` over all outputs), when already computed; they serve
        wherever both measures score the same outputs (no re-ranking needed).
    reading : {"per-topic", "all-outputs"}
        Rank the systems within each topic, or every (system, topic) output at once.
    top : int
        Average the ``top`` largest differences instead of taking the largest (the paper's
        check with 10).

    Returns
    -------
    Strictness
    """
    if reading not in STRICTNESS_READINGS:
        raise ValueError(f"strictness reading must be one of {', '.join(STRICTNESS_READINGS)}, "
                         f"got {reading!r}")
    if int(top) != top or top < 1:
        raise ValueError(f"strictness top must be a whole number >= 1, got {top!r}")
    top = int(top)
    v = np.asarray(values, dtype=np.float64)
    refs = np.asarray(references, dtype=np.float64)
    n_t = v.shape[1]
    diff = _differences(v, refs, ranks, reading)
    if diff.size == 0 or np.all(np.isnan(diff)):
        return Strictness(float("nan"), np.full(n_t, np.nan), None, reading, top)
    value = float(-_top_mean(diff.reshape(1, -1), top)[0])
    per_topic = -_top_mean(diff.transpose(1, 0, 2).reshape(n_t, -1), top)
    flat = np.where(np.isnan(diff), -np.inf, diff)
    s, t, j = np.unravel_index(int(np.argmax(flat)), flat.shape)
    return Strictness(value, per_topic, (int(s), int(t), int(j)), reading, top)
