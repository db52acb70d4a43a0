"""Simultaneous confidence sets for the ranks of all systems, from a bootstrap over topics
(docs/uncertainty.md, "Rank confidence sets").

Mogstad, Romano, Shaikh and Wilhelm (2024), "Inference for ranks with applications to mobility
across neighbourhoods and academic achievement across countries", Review of Economic Studies 91(1),
§3-4, with the studentized max-t stepdown of Romano and Wolf (2005), "Exact and approximate
stepdown methods for multiple hypothesis testing", JASA 100(469); the bootstrap-t of Efron and
Tibshirani (1993), ch. 12.

A system's score is a mean over topics, theta_j = mean_t y_jt (y: per-topic contributions, see
:func:`contributions`). For every ordered pair (j, k), j != k, with d_t = y_jt - y_kt,

    Delta_jk = mean_t d_t,   se_jk^2 = (mean_t d_t^2 - Delta_jk^2) / T,   t_jk = Delta_jk / se_jk,

and on bootstrap resample n (counts C[n, t], :mod:`metrics.comparison.bootstrap`) the same
quantities with weights C[n, t] give Delta*_jk and se*_jk, and

    Z*_n(j, k) = (Delta*_jk - Delta_jk) / se*_jk        (studentized: 0 where se* = 0).

Stepdown: start with every pair in the active set I; c = the ``higher`` c-quantile over n of
max_{(j,k) in I} Z*_n(j, k); conclude theta_j > theta_k for every active pair with t_jk > c;
remove those pairs from I and repeat until a step concludes nothing. A pair whose difference is
the same on every topic (se = 0) is decided by its sign without a test. With the concluded pairs,

    rank_ci_low(j)  = 1 + #{k : theta_k > theta_j concluded},
    rank_ci_high(j) = S - #{k : theta_j > theta_k concluded},

and all S intervals hold together with probability at least c (asymptotically; the
studentization keeps the rate with few topics, where the plain max over Delta* - Delta falls
short). Z*(k, j) = -Z*(j, k), so each unordered pair is computed once; pairs are taken in blocks by
decreasing |t|, and a step recomputes only the blocks whose active set changed. Only pairs with t_jk
> 0 can be concluded (c >= 0 while both orientations of a pair are active), so the point rank 1 +
#{k : theta_k > theta_j} is always inside its interval. A system whose score is undefined (NaN) is
ranked after the others, as the point ranks are, and gets [number of defined + 1, S]. """

from __future__ import annotations

from dataclasses import dataclass

import numpy as np

from metrics.comparison.combine import f_alpha
from metrics.compute_budget import CHUNK_BYTES

__all__ = ["RankConfidence", "rank_confidence_sets", "contributions"]


@dataclass(frozen=True, eq=False)
class RankConfidence:
    """Simultaneous rank confidence sets (module docstring).

    Attributes
    ----------
    low, high : ndarray of int64, shape (S,)
        ``[low, high]``, 1 = best.
    concluded : ndarray of bool, shape (S, S)
        ``concluded[j, k]``: theta_j > theta_k is concluded.
    steps : int
        Stepdown steps taken.
    critical : list of float
        The critical value of each step.
    """

    low: np.ndarray
    high: np.ndarray
    concluded: np.ndarray
    steps: int
    critical: list[float]


def contributions(P: np.ndarray, R: np.ndarray, alpha: float, average: str) -> np.ndarray:
    """(S, T) per-topic contributions y whose topic mean is each system's campaign F_alpha.

    Macro: y_t = F_alpha(P_t, R_t) (0 when P or R is 0). Micro, F(P_bar, R_bar): the delta-method
    linearisation y_t = F + dF/dP (P_t - P_bar) + dF/dR (R_t - R_bar), with
    dF/dP = alpha R^2 / D^2, dF/dR = (1 - alpha) P^2 / D^2, D = alpha R + (1 - alpha) P (Efron and
    Tibshirani 1993, §21.3). A topic a system has no score on contributes its own mean (no
    influence). A system with no scored topic is NaN throughout.
    """
    valid = ~(np.isnan(P) | np.isnan(R))
    n = valid.sum(axis=1)
    Pz, Rz = np.where(valid, P, 0.0), np.where(valid, R, 0.0)
    with np.errstate(invalid="ignore", divide="ignore"):
        if average == "macro":
            y = np.where(valid, f_alpha(Pz, Rz, alpha), 0.0)
            mean = y.sum(axis=1) / n
            return np.where(valid, y, mean[:, None])
        pm, rm = Pz.sum(axis=1) / n, Rz.sum(axis=1) / n
        F = f_alpha(np.nan_to_num(pm), np.nan_to_num(rm), alpha)
        D = alpha * rm + (1 - alpha) * pm
        pos = (pm > 0) & (rm > 0)
        dp = np.where(pos, alpha * rm ** 2 / np.where(pos, D, 1.0) ** 2, 0.0)
        dr = np.where(pos, (1 - alpha) * pm ** 2 / np.where(pos, D, 1.0) ** 2, 0.0)
        y = F[:, None] + dp[:, None] * (Pz - pm[:, None]) + dr[:, None] * (Rz - rm[:, None])
        y = np.where(valid, y, F[:, None])
    return np.where((n > 0)[:, None], y, np.nan)


def _block_size(T: int, N: int, n_pairs: int) -> int:
    return int(max(1, min(max(n_pairs, 1), CHUNK_BYTES // (4 * (T + 3 * N)))))


def _block_max(Y32: np.ndarray, theta: np.ndarray, Ct: np.ndarray, a: np.ndarray,
               b: np.ndarray, delta: np.ndarray, act_ab: np.ndarray,
               act_ba: np.ndarray) -> np.ndarray:
    """(N,) max of Z* over the active orientations of the unordered pairs (a, b) of one block:
    Z* of (a, b), and its negative for (b, a); -inf when none is active. ``theta`` (S, N) are the
    resampled means (Delta* = theta*_a - theta*_b); the resampled second moment of d is one
    product with the counts (from d itself, so that close systems lose no digits)."""
    T = Ct.shape[0]
    out = np.full(Ct.shape[1], -np.inf)
    if not (act_ab.any() or act_ba.any()):
        return out
    d = Y32[a] - Y32[b]
    m = (theta[a] - theta[b]).astype(np.float32)
    q = ((d * d) @ Ct) / T
    se = np.sqrt(np.maximum(q - m * m, 0.0) / T)
    z = m - delta[:, None].astype(np.float32)
    with np.errstate(invalid="ignore", divide="ignore"):
        z = np.where(se > 0, z / se, np.float32(0.0))
    for act, sign, reduce in ((act_ab, 1.0, np.max), (act_ba, -1.0, np.min)):
        if act.all():              # every pair of the block (the first step): no copy
            np.maximum(out, sign * reduce(z, axis=0), out=out)
        elif act.any():
            np.maximum(out, sign * reduce(z[act], axis=0), out=out)
    return out


def rank_confidence_sets(y: np.ndarray, counts: np.ndarray, confidence: float) -> RankConfidence:
    """Simultaneous confidence sets of the ranks by theta = y.mean(axis=1) (higher is better).

    Parameters
    ----------
    y : ndarray (S, T)
        Per-topic contributions (:func:`contributions`); a row of NaN is an undefined score.
    counts : ndarray (N, T)
        Bootstrap counts (:func:`metrics.comparison.bootstrap.resample_counts`).
    confidence : float
        Joint coverage of the S intervals, in (0, 1).

    Returns
    -------
    RankConfidence
    """
    y = np.asarray(y, dtype=np.float64)
    S, T = y.shape
    ok = np.isfinite(y).all(axis=1)
    Y = np.where(ok[:, None], y, 0.0)
    a, b = np.triu_indices(S, k=1)
    both = ok[a] & ok[b]
    d = Y[a] - Y[b]
    delta = d.mean(axis=1)
    se = np.sqrt(np.maximum((d * d).mean(axis=1) - delta ** 2, 0.0) / T)
    scale = max(float(np.abs(Y).max(initial=0.0)), 1.0)
    varies = se > 1e-12 * scale
    sure = both & ~varies & (np.abs(delta) > 1e-12 * scale)
    concluded = np.zeros((S, S), dtype=bool)
    concluded[a[sure & (delta > 0)], b[sure & (delta > 0)]] = True
    concluded[b[sure & (delta < 0)], a[sure & (delta < 0)]] = True
    with np.errstate(invalid="ignore", divide="ignore"):
        t_stat = np.where(varies, delta / np.where(varies, se, 1.0), 0.0)
    # pairs by |t| descending, in blocks: a step removes a run of the largest |t|, so only the
    # blocks it touched are recomputed; the others keep their max of the step before
    order = np.argsort(-np.abs(t_stat), kind="stable")
    a, b, delta, t_stat = a[order], b[order], delta[order], t_stat[order]
    act_ab = both[order] & varies[order]
    act_ba = act_ab.copy()
    Ct = counts.T.astype(np.float32)
    Y32 = Y.astype(np.float32)
    theta = Y @ counts.T / T
    size = _block_size(T, Ct.shape[1], a.size)
    starts = list(range(0, a.size, size))
    cache = np.full((len(starts), Ct.shape[1]), -np.inf)
    dirty = np.ones(len(starts), dtype=bool)
    critical: list[float] = []
    while act_ab.any() or act_ba.any():
        for k in np.flatnonzero(dirty):
            sl = slice(starts[k], starts[k] + size)
            cache[k] = _block_max(Y32, theta, Ct, a[sl], b[sl], delta[sl], act_ab[sl],
                                  act_ba[sl])
        dirty[:] = False
        c = float(np.quantile(cache.max(axis=0), confidence, method="higher"))
        critical.append(c)
        new_ab = act_ab & (t_stat > c)
        new_ba = act_ba & (-t_stat > c)
        if not (new_ab.any() or new_ba.any()):
            break
        concluded[a[new_ab], b[new_ab]] = True
        concluded[b[new_ba], a[new_ba]] = True
        act_ab &= ~new_ab
        act_ba &= ~new_ba
        dirty[np.flatnonzero(new_ab | new_ba) // size] = True
    n_ok = int(ok.sum())
    low = np.where(ok, 1 + concluded.sum(axis=0), n_ok + 1).astype(np.int64)
    high = np.where(ok, n_ok - concluded.sum(axis=1), S).astype(np.int64)
    return RankConfidence(low, high, concluded, len(critical), critical)
