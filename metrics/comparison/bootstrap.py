"""Paired bootstrap over topics: confidence intervals of UIR, parametric UIR and Delta F_alpha for
every pair of systems (docs/uncertainty.md).

Efron and Tibshirani (1993), *An Introduction to the Bootstrap*, ch. 13 (percentile intervals);
the statistics are those of Amigó, Gonzalo, Artiles and Verdejo (2011), JAIR 42, §4 (UIR), §8
(parametric UIR) and §2 (F_alpha).

The resampling unit is the topic, and the resample is **paired**: one draw of topics is applied to
every system, so a pair's statistic is recomputed on the same topics for both systems. With test
beds it is **stratified**: each bed's topics are drawn with replacement from that bed, the bed
keeps its size. Resample n is a row ``idx[n]`` of an index matrix of shape (N, T)
(:func:`resample_indices`, seeded by ``seed``); the statistics that are means over topics take it as
counts ``C[n, t] = #{u : idx[n, u] = t}`` and become matrix products (no Python loop over resamples
or pairs):

    UIR*_n(a, b)  = sum_t C[n, t] s_t(a, b) / sum_t C[n, t] v_t(a, b),
    s_t(a, b)     = [a >=_forall b on t] - [b >=_forall a on t],

with ``v_t`` = 1 where both systems have every metric on t (a tied topic has s_t = 0 and counts in
the denominator, a metric-biased one too: exactly the definition of UIR), and

    F*_n(s) = sum_t C[n, t] F_t(s) v_t(s) / sum_t C[n, t] v_t(s)     (macro F_alpha),
    F*_n(s) = F_alpha(P*_n(s), R*_n(s))                              (micro: F of resampled means),
    Delta F*_n(a, b) = F*_n(a) - F*_n(b).

Parametric UIR is refitted on each resample's topics (``D[:, idx[n]]``) by
:func:`metrics.comparison.parametric_batch.uir_from_deltas`, the same code as the point value.

The interval at confidence c is the percentile interval ``[q_lo, q_hi]`` of the N resampled values
with q_lo the ``floor((N - 1) (1 - c) / 2)``-th and q_hi the ``ceil((N - 1) (1 + c) / 2)``-th order
statistic (0-based; ``numpy.quantile`` methods ``lower`` and ``higher``), so it never claims more
than c. UIR and Delta F are antisymmetric, so only the unordered pairs a < b are resampled and
``(b, a)`` gets ``[-high, -low]``. Ranks: :mod:`metrics.comparison.rank_confidence`.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass

import numpy as np

from metrics.comparison.combine import f_alpha
from metrics.comparison.curves import check_average
from metrics.comparison.parametric_batch import uir_from_deltas
from metrics.comparison.profiles import DEFAULT_CONFIDENCE
from metrics.compute_budget import CHUNK_BYTES, ComputeBudgetError

__all__ = ["DEFAULT_CONFIDENCE", "DEFAULT_RESAMPLES", "PairIntervals", "check_confidence",
           "resample_indices", "resample_counts", "percentile_interval", "uir_intervals",
           "parametric_intervals", "resampled_f", "delta_f_intervals", "topic_strata"]

#: Resamples of ``compare --bootstrap`` when the dashboard asks without a number.
DEFAULT_RESAMPLES = 2000
#: Pair x resample x topic x metric cells of the parametric refit allowed in one comparison: about
#: a minute of this machine's time; above it ``compare`` asks for ``--no-parametric``.
MAX_PARAMETRIC_CELLS = 4e9


@dataclass(frozen=True, eq=False)
class PairIntervals:
    """Percentile intervals of one antisymmetric pair statistic, every ordered pair.

    Attributes
    ----------
    low, high : ndarray of float64, shape (S, S)
        ``[low[i, j], high[i, j]]`` is the interval of the statistic of (systems[i], systems[j]);
        ``low[j, i] = -high[i, j]``; the diagonal is 0; NaN where the statistic is undefined.
    """

    low: np.ndarray
    high: np.ndarray


def check_confidence(confidence: float) -> float:
    """``confidence`` as a float in (0, 1) (ValueError otherwise)."""
    c = float(confidence)
    if not 0 < c < 1:
        raise ValueError(f"confidence must be in (0, 1), got {confidence!r}")
    return c


def topic_strata(topics: Sequence[str], testbeds: Mapping[str, str] | None) -> np.ndarray | None:
    """Integer stratum of each topic (its test bed), or None without test beds.

    A topic with no bed is its own stratum ``""`` (kept, never dropped)."""
    if not testbeds:
        return None
    beds = [str(testbeds.get(t, "")) for t in topics]
    _, codes = np.unique(np.asarray(beds, dtype=object).astype(str), return_inverse=True)
    return codes.reshape(-1)


def resample_indices(n_topics: int, n_resamples: int, seed: int,
                     strata: np.ndarray | None = None) -> np.ndarray:
    """The (N, T) index matrix of a paired, stratified bootstrap over topics.

    Row n is resample n: within each stratum (all topics when ``strata`` is None), as many topics
    as the stratum holds, drawn uniformly with replacement from it, written at the stratum's
    positions. ``numpy.random.default_rng(seed)``; strata in increasing code order.
    """
    if n_resamples < 1:
        raise ValueError(f"the bootstrap needs at least one resample, got {n_resamples}")
    if n_topics < 1:
        raise ValueError("the bootstrap needs at least one topic")
    rng = np.random.default_rng(seed)
    if strata is None:
        return rng.integers(0, n_topics, size=(n_resamples, n_topics))
    strata = np.asarray(strata)
    idx = np.empty((n_resamples, n_topics), dtype=np.int64)
    for code in np.unique(strata):
        members = np.flatnonzero(strata == code)
        idx[:, members] = members[rng.integers(0, members.size, size=(n_resamples, members.size))]
    return idx


def resample_counts(idx: np.ndarray, n_topics: int) -> np.ndarray:
    """(N, T) float64 counts ``C[n, t]`` of topic t in resample n (one ``bincount``)."""
    N = idx.shape[0]
    flat = (np.arange(N)[:, None] * n_topics + idx).ravel()
    return np.bincount(flat, minlength=N * n_topics).reshape(N, n_topics).astype(np.float64)


def percentile_interval(values: np.ndarray, confidence: float) -> tuple[np.ndarray, np.ndarray]:
    """Percentile interval along the last axis (module docstring): the ``lower`` quantile at
    (1 - c) / 2 and the ``higher`` one at (1 + c) / 2. NaN rows give NaN.

    The values are sorted as given: float32 (which sorts about eight times faster than float64 on
    this machine) for Delta F, whose endpoints are then exact to float32's 7 digits; integers
    stored as float32 for UIR's counts, exactly."""
    N = values.shape[-1]
    k_lo = int(np.floor((N - 1) * (1 - confidence) / 2))
    k_hi = int(np.ceil((N - 1) * (1 + confidence) / 2))
    srt = np.sort(values, axis=-1)
    return srt[..., k_lo].astype(np.float64), srt[..., k_hi].astype(np.float64)


def _unordered(S: int) -> tuple[np.ndarray, np.ndarray]:
    return np.triu_indices(S, k=1)


def _fill(S: int, iu: np.ndarray, ju: np.ndarray, lo: np.ndarray, hi: np.ndarray) -> PairIntervals:
    low = np.zeros((S, S))
    high = np.zeros((S, S))
    low[iu, ju], high[iu, ju] = lo, hi
    low[ju, iu], high[ju, iu] = 0.0 - hi, 0.0 - lo   # (0 - x: no negative zero)
    return PairIntervals(low, high)


def _block(cells_per_pair: float, n_pairs: int) -> int:
    return int(max(1, min(n_pairs, CHUNK_BYTES // max(8 * cells_per_pair, 1))))


def uir_intervals(X: np.ndarray, counts: np.ndarray, tol: float,
                  confidence: float) -> PairIntervals:
    """Bootstrap intervals of UIR for every pair.

    Parameters
    ----------
    X : ndarray (S, T, M)
        Oriented scores (every metric higher-is-better), NaN = missing.
    counts : ndarray (N, T)
        :func:`resample_counts`.
    tol : float
        UIR's tolerance (:mod:`metrics.comparison.uir`).
    confidence : float
    """
    S, T, _ = X.shape
    N = counts.shape[0]
    valid = ~np.isnan(X).any(axis=2)
    missing = not valid.all()
    iu, ju = _unordered(S)
    lo = np.full(iu.size, np.nan)
    hi = np.full(iu.size, np.nan)
    Ct = counts.T.astype(np.float32)            # exact: counts and signs are small integers
    step = _block(T * X.shape[2] + 2 * N, iu.size)
    for p0 in range(0, iu.size, step):
        a, b = iu[p0:p0 + step], ju[p0:p0 + step]
        xa, xb = X[a], X[b]
        with np.errstate(invalid="ignore"):
            ge_ab = np.all(xa + tol >= xb, axis=2)
            ge_ba = np.all(xb + tol >= xa, axis=2)
        v = valid[a] & valid[b]
        s = ((ge_ab & v).astype(np.float32) - (ge_ba & v).astype(np.float32))
        num = s @ Ct
        if missing:
            den = (v.astype(np.float32) @ Ct).astype(np.float64)
            with np.errstate(invalid="ignore", divide="ignore"):
                boot = np.where(den > 0, num / den, np.nan)
            lo[p0:p0 + step], hi[p0:p0 + step] = percentile_interval(boot, confidence)
        else:  # sort the integer counts, divide the two order statistics: exact
            n_lo, n_hi = percentile_interval(num, confidence)
            lo[p0:p0 + step], hi[p0:p0 + step] = n_lo / T, n_hi / T
    return _fill(S, iu, ju, lo, hi)


def parametric_intervals(X: np.ndarray, idx: np.ndarray, tol: float, confidence: float,
                         seed: int) -> PairIntervals:
    """Bootstrap intervals of parametric UIR: the normal fit of each pair redone on each resample's
    topics (:func:`metrics.comparison.parametric_batch.uir_from_deltas`, lattice seed ``seed``).

    Refused (:class:`metrics.compute_budget.ComputeBudgetError`) above
    :data:`MAX_PARAMETRIC_CELLS` pair x resample x topic x metric cells.
    """
    S, T, M = X.shape
    N = idx.shape[0]
    iu, ju = _unordered(S)
    cells = float(iu.size) * N * T * M
    if cells > MAX_PARAMETRIC_CELLS:
        raise ComputeBudgetError(
            f"the parametric UIR bootstrap of {S:,} systems x {N:,} resamples x {T:,} topics x "
            f"{M} metrics is {cells:.2g} cells, over the limit of {MAX_PARAMETRIC_CELLS:.2g}: "
            "leave parametric UIR out (--no-parametric) or draw fewer resamples")
    lo = np.full(iu.size, np.nan)
    hi = np.full(iu.size, np.nan)
    step = _block(N * T * M * 6, iu.size)
    for p0 in range(0, iu.size, step):
        a, b = iu[p0:p0 + step], ju[p0:p0 + step]
        D = (X[a] - X[b])[:, idx]                 # (P, N, T, M)
        vals = uir_from_deltas(D.reshape(-1, T, M), tol, seed).value.reshape(a.size, N)
        lo[p0:p0 + step], hi[p0:p0 + step] = percentile_interval(vals, confidence)
    return _fill(S, iu, ju, lo, hi)


def resampled_f(P: np.ndarray, R: np.ndarray, alpha: float, average: str,
                counts: np.ndarray) -> np.ndarray:
    """(S, N) campaign F_alpha of every system on every resample (module docstring).

    ``P``, ``R`` are (S, T) precision- and recall-like scores, NaN = not scored; macro: mean of the
    per-topic F over the scored topics drawn, micro: F of the resampled means."""
    check_average(average)
    valid = ~(np.isnan(P) | np.isnan(R))
    vf = valid.astype(np.float64)
    Ct = counts.T
    den = vf @ Ct
    with np.errstate(invalid="ignore", divide="ignore"):
        if average == "macro":
            F = np.where(valid, f_alpha(np.where(valid, P, 0.0), np.where(valid, R, 0.0),
                                        alpha), 0.0)
            out = (F @ Ct) / den
        else:
            Pm = (np.where(valid, P, 0.0) @ Ct) / den
            Rm = (np.where(valid, R, 0.0) @ Ct) / den
            out = np.where(den > 0, f_alpha(np.nan_to_num(Pm), np.nan_to_num(Rm), alpha), np.nan)
    return np.where(den > 0, out, np.nan)


def delta_f_intervals(f_boot: np.ndarray, confidence: float) -> PairIntervals:
    """Bootstrap intervals of Delta F_alpha = F(a) - F(b) for every pair from the (S, N) resampled
    campaign F (:func:`resampled_f`)."""
    S, N = f_boot.shape
    iu, ju = _unordered(S)
    lo = np.empty(iu.size)
    hi = np.empty(iu.size)
    step = _block(2 * N, iu.size)
    for p0 in range(0, iu.size, step):
        d = (f_boot[iu[p0:p0 + step]] - f_boot[ju[p0:p0 + step]]).astype(np.float32)
        lo[p0:p0 + step], hi[p0:p0 + step] = percentile_interval(d, confidence)
    return _fill(S, iu, ju, lo, hi)
