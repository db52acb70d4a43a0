"""Parametric UIR of many pairs at once, three or more metrics (docs/measures.md, "Parametric UIR").

Amigó, Gonzalo, Artiles and Verdejo (2011), JAIR 42, §8: the per-topic oriented differences
D_x = x(a) - x(b) of a pair are fitted by a normal N(mu, Sigma) (sample mean, covariance with
ddof = 1, topics with a missing score left out), and

    UIR_param = P(all D_x >= 0) - P(all D_x <= 0).

:func:`uir_from_deltas` takes the differences of many pairs as one array and has no Python loop
over pairs: the moments are array reductions, the singular cases are masks, and the orthant
probabilities of all the pairs that need the same metrics are computed together
(:mod:`metrics.comparison.orthant` for up to three, :mod:`metrics.comparison.orthant_lattice`
for four or more). With D ~ N(mu, Sigma), h = mu / sd and R the correlation,
P(all D >= 0) = Phi_k(h; R) and P(all D <= 0) = Phi_k(-h; R); the pair (b, a) has -h and the same
R, so its value is exactly minus that of (a, b).

Singular covariances (the rule of :func:`metrics.comparison.parametric.parametric_uir`): a
metric whose difference is constant over the topics (range <= tol) is certain -- it zeroes
P(all >= 0) when its mean is < -tol, P(all <= 0) when > tol, and drops out as a tie otherwise;
two remaining metrics with no certain sign give Phi(h_1) + Phi(h_2) - 1 exactly; three or more
remaining metrics with a rank-deficient correlation (smallest eigenvalue < 1e-9) have it nudged
towards the identity, (1 - 1e-9) R + 1e-9 I.
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np
from scipy import special

from metrics.comparison.orthant import bvn_cdf, tvn_cdf
from metrics.comparison.orthant_lattice import orthant_difference

__all__ = ["ParametricValues", "uir_from_deltas", "NUDGE"]

#: a correlation matrix whose smallest eigenvalue is below this is nudged towards the identity
#: by this much
NUDGE = 1e-9


@dataclass(frozen=True, eq=False)
class ParametricValues:
    """Parametric UIR of a list of pairs.

    Attributes
    ----------
    value : ndarray of float64
        UIR_param per pair (NaN when the pair has no usable topic).
    error : ndarray of float64
        Its numerical error: 0 for the closed forms (one or two remaining metrics), the
        quadrature's error estimate for three (below 1e-11), the standard error over the
        lattice's random shifts for four or more; NaN where the value is NaN.
    """

    value: np.ndarray
    error: np.ndarray


def _moments(D: np.ndarray, tol: float):
    """Topic counts, means, covariances and certain-metric masks of differences D (P, T, M)."""
    valid = ~np.isnan(D).any(axis=2)
    n = valid.sum(axis=1)
    v3 = valid[:, :, None]
    mu = np.where(v3, D, 0.0).sum(axis=1) / np.maximum(n, 1)[:, None]
    dev = np.where(v3, D - mu[:, None, :], 0.0)
    cov = np.einsum("ptm,ptn->pmn", dev, dev) / np.maximum(n - 1, 1)[:, None, None]
    ptp = np.where(v3, D, -np.inf).max(axis=1) - np.where(v3, D, np.inf).min(axis=1)
    const = ~(ptp > tol)            # also every metric of a pair without usable topic
    return n, mu, cov, const


def _correlation(cov: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """(sd, R): standard deviations and the symmetrised, clipped correlation matrices."""
    sd = np.sqrt(np.einsum("pii->pi", cov))
    corr = cov / (sd[:, :, None] * sd[:, None, :])
    corr = np.clip((corr + corr.transpose(0, 2, 1)) / 2, -1.0, 1.0)
    k = corr.shape[1]
    corr[:, np.arange(k), np.arange(k)] = 1.0
    if k >= 3:
        low = np.linalg.eigvalsh(corr)[:, 0] < NUDGE
        corr[low] = (1 - NUDGE) * corr[low] + NUDGE * np.eye(k)
    return sd, corr


def _orthants(h: np.ndarray, corr: np.ndarray, f_ge: np.ndarray, f_le: np.ndarray, seed: int
              ) -> tuple[np.ndarray, np.ndarray]:
    """f_ge Phi_k(h; R) - f_le Phi_k(-h; R) and its error, k = h.shape[1] >= 1."""
    P, k = h.shape
    if k == 1:
        return f_ge * special.ndtr(h[:, 0]) - f_le * special.ndtr(-h[:, 0]), np.zeros(P)
    if k == 2:
        r = corr[:, 0, 1]
        return (f_ge * bvn_cdf(h[:, 0], h[:, 1], r) - f_le * bvn_cdf(-h[:, 0], -h[:, 1], r),
                np.zeros(P))
    if k == 3:
        r12, r13, r23 = (np.tile(corr[:, i, j], 2) for i, j in ((0, 1), (0, 2), (1, 2)))
        p, e = tvn_cdf(np.concatenate((h, -h)), r12, r13, r23)
        return f_ge * p[:P] - f_le * p[P:], f_ge * e[:P] + f_le * e[P:]
    return orthant_difference(h, corr, f_ge, f_le, seed)


def uir_from_deltas(D: np.ndarray, tol: float, seed: int = 0) -> ParametricValues:
    """Parametric UIR of pairs from their per-topic oriented differences (module docstring).

    Parameters
    ----------
    D : ndarray of shape (P, T, M)
        Differences x(a) - x(b) of P pairs; a topic with a NaN on any metric is left out of its
        pair.
    tol : float
        Range at or below which a metric's difference is constant.
    seed : int
        Seed of the lattice shifts (four or more remaining metrics).
    """
    D = np.asarray(D, dtype=np.float64)
    n, mu, cov, const = _moments(D, tol)
    f_ge = (~(const & (mu < -tol)).any(axis=1)).astype(np.float64)
    f_le = (~(const & (mu > tol)).any(axis=1)).astype(np.float64)
    rest = ~const
    value = f_ge - f_le             # no remaining metric, or both orthants excluded
    error = np.zeros(value.size)
    value[n == 0] = error[n == 0] = np.nan
    todo = (n > 0) & rest.any(axis=1) & ((f_ge > 0) | (f_le > 0))
    patterns, which = np.unique(rest[todo], axis=0, return_inverse=True)
    idx_todo = np.flatnonzero(todo)
    for g, pattern in enumerate(patterns):
        idx = idx_todo[which.reshape(-1) == g]
        dims = np.flatnonzero(pattern)
        sub = cov[idx][:, dims][:, :, dims]
        m = mu[idx][:, dims]
        fg, fl = f_ge[idx], f_le[idx]
        if dims.size == 2:
            # P(A and B) - P(not A and not B) = P(A) + P(B) - 1, whatever the correlation
            closed = (fg == 1) & (fl == 1)
            sd = np.sqrt(np.einsum("pii->pi", sub[closed]))
            value[idx[closed]] = (special.ndtr(m[closed, 0] / sd[:, 0])
                                  + special.ndtr(m[closed, 1] / sd[:, 1]) - 1.0)
            idx, sub, m, fg, fl = idx[~closed], sub[~closed], m[~closed], fg[~closed], fl[~closed]
            if idx.size == 0:
                continue
        sd, corr = _correlation(sub)
        value[idx], error[idx] = _orthants(m / sd, corr, fg, fl, seed)
    return ParametricValues(value, error)
