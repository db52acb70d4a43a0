"""Spearman correlations between the topics of a campaign, over each pair's common systems.

The kernel of Robustness (:func:`metrics.meta.meta_evaluation.robustness`; docs/meta-evaluation.md):
for scores ``values[s, t]`` of S systems on T topics (NaN = not scored), the (T, T) matrix of
Spearman correlations between topics t_i and t_j over the systems scored on both, as
``scipy.stats.spearmanr`` computes each (Pearson correlation of average ranks). NaN where it
is undefined: fewer than two common systems, or all of them tied on one of the topics.
"""

from __future__ import annotations

import numpy as np
from scipy.stats import rankdata

__all__ = ["topic_correlations"]

#: Above this many distinct sets of scored systems, :func:`topic_correlations` switches from
#: grouping topics by set to the masked route, when its S x S x T comparison tensor holds at
#: most ``_MASKED_MAX_CELLS`` cells.
_MAX_PATTERNS = 24
_MASKED_MAX_CELLS = 10_000_000  # two float64 copies: 160 MB


def topic_correlations(values: np.ndarray, method: str = "auto") -> np.ndarray:
    """(T, T) Spearman correlations of the systems' scores between every two topics.

    Parameters
    ----------
    values : ndarray, shape (S, T)
        Scores; NaN = not scored.
    method : {"auto", "patterns", "masked"}
        ``patterns`` groups topics by the set of systems they score: within a group (or a
        pair of groups) all correlations are one product of standardised rank matrices; few
        groups (no missing score: one) make it the fast route. ``masked`` ranks every topic
        within every pair's common systems from a systems x systems x topics comparison
        tensor, in matrix products over blocks of topics: the route for scattered missing
        scores. ``auto`` picks by the number of groups.

    Returns
    -------
    ndarray, shape (T, T), symmetric; the diagonal is not meaningful.
    """
    v = np.asarray(values, dtype=np.float64)
    valid = ~np.isnan(v)
    patterns, group = np.unique(valid.T, axis=0, return_inverse=True)
    if method == "auto":
        small = v.shape[0] ** 2 * v.shape[1] <= _MASKED_MAX_CELLS
        method = "masked" if len(patterns) > _MAX_PATTERNS and small else "patterns"
    if method == "masked":
        return _masked_correlations(v)
    if method == "patterns":
        return _pattern_correlations(v, patterns, group.reshape(-1))
    raise ValueError(f"unknown method {method!r}; use auto, patterns or masked")


def _standardised_ranks(block: np.ndarray) -> np.ndarray:
    """Columns of average ranks, centred and scaled to unit norm (NaN for a constant column)."""
    r = rankdata(block, axis=0)
    r = r - r.mean(axis=0, keepdims=True)
    norm = np.sqrt(np.sum(r * r, axis=0, keepdims=True))
    with np.errstate(divide="ignore", invalid="ignore"):
        return np.where(norm > 0, r / norm, np.nan)


def _pattern_correlations(v: np.ndarray, patterns: np.ndarray, group: np.ndarray) -> np.ndarray:
    """(T, T) Spearman correlations, topics grouped by their set of scored systems."""
    n_t = v.shape[1]
    corr = np.full((n_t, n_t), np.nan)
    members = [np.flatnonzero(group == g) for g in range(len(patterns))]
    for a in range(len(patterns)):
        for b in range(a, len(patterns)):
            common = patterns[a] & patterns[b]
            if common.sum() < 2:
                continue
            ta, tb = members[a], members[b]
            za = _standardised_ranks(v[np.ix_(common, ta)])
            zb = za if a == b else _standardised_ranks(v[np.ix_(common, tb)])
            block = np.clip(za.T @ zb, -1.0, 1.0)
            corr[np.ix_(ta, tb)] = block
            corr[np.ix_(tb, ta)] = block.T
    return corr


def _masked_correlations(v: np.ndarray) -> np.ndarray:
    """(T, T) Spearman correlations over each pair's common systems, batched over topics.

    ``below[p, s, t] = [v_pt < v_st] + 1/2 [v_pt = v_st, p != s]`` (both scored): the average
    rank of s on topic t among a set C of systems is ``1 + sum_{p in C} below[p, s, t]``.
    """
    n_s, n_t = v.shape
    m = (~np.isnan(v)).astype(np.float64)
    x = np.where(m > 0, v, 0.0)
    below = (x[:, None, :] < x[None, :, :]) + 0.5 * (x[:, None, :] == x[None, :, :])
    below -= 0.5 * np.eye(n_s)[:, :, None]
    below *= m[:, None, :] * m[None, :, :]
    # by_topic[t, s, p] = below[p, s, t]; rank of s on topic i among the systems p scored on
    # topic t too: 1 + by_topic[i] @ m[:, t]; on topic j among those scored on i: the same
    # with the roles swapped. Both are single matrix products for a block of topics i.
    by_topic = np.ascontiguousarray(below.transpose(2, 1, 0))  # (T, S, S)
    flat = by_topic.reshape(n_t * n_s, n_s)
    corr = np.full((n_t, n_t), np.nan)
    step = max(1, int(4_000_000 // max(1, n_s * n_t)))
    for i0 in range(0, n_t, step):
        idx = np.arange(i0, min(n_t, i0 + step))
        common = m.T[idx][:, :, None] * m[None, :, :]           # (B, S, T)
        # ranks of topic i's scores, and of topic j's, among the systems scored on both
        r_i = 1.0 + (by_topic[idx].reshape(-1, n_s) @ m).reshape(len(idx), n_s, n_t)
        r_j = 1.0 + (flat @ m.T[idx].T).reshape(n_t, n_s, len(idx)).transpose(2, 1, 0)
        n = common.sum(axis=1)                                   # (B, T)
        # average ranks of n systems sum to n (n + 1) / 2: the mean is known
        mean = (n + 1.0) / 2.0
        c_ri = common * r_i
        sxy = np.einsum("bst,bst->bt", c_ri, r_j) - n * mean * mean
        sxx = np.einsum("bst,bst->bt", c_ri, r_i) - n * mean * mean
        syy = np.einsum("bst,bst,bst->bt", common, r_j, r_j) - n * mean * mean
        with np.errstate(divide="ignore", invalid="ignore"):
            ok = (n >= 2) & (sxx > 1e-9) & (syy > 1e-9)
            block = np.where(ok, sxy / np.sqrt(np.where(ok, sxx * syy, 1.0)), np.nan)
        corr[idx] = np.clip(block, -1.0, 1.0)
    return corr
