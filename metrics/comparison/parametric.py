"""Parametric UIR: the UIR of a normal fit of the per-topic differences (JAIR 2011 §8).

Amigó, Gonzalo, Artiles and Verdejo (2011), "Combining evaluation metrics via the unanimous
improvement ratio and its application to clustering tasks", JAIR 42, §8. The definition, the
handling of singular covariances and the seed are described in ``docs/measures.md``
("Parametric UIR"). With three or more metrics the orthant probabilities come from
:class:`scipy.stats.multivariate_normal` (Genz's quasi-Monte Carlo), seeded by ``seed``; with one
or two metrics the value is exact and the seed is unused.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence

import numpy as np
import pandas as pd
from scipy import special, stats

from metrics.comparison.uir import DEFAULT_TOL, check_metrics, check_tol, oriented
from metrics.model.score_table import score_cube

__all__ = ["parametric_uir", "parametric_uir_matrix", "parametric_from_deltas",
           "parametric_matrix", "DEFAULT_SEED"]

#: Seed of the quasi-Monte Carlo orthant probabilities (three or more metrics).
DEFAULT_SEED = 0




def _bvn_cdf(h, k, rho):
    """P(Z1 <= h, Z2 <= k) for a standard bivariate normal with correlation ``rho``.

    Owen's T formulation (Owen 1956): Phi2 = (Phi(h) + Phi(k)) / 2 - T(h, a_h) - T(k, a_k) - c,
    a_h = (k - rho h) / (h sqrt(1 - rho^2)), a_k likewise, c = 1/2 when h k < 0 or (h k = 0 and
    h + k < 0), else 0. |rho| = 1 is handled in closed form.
    """
    h, k, rho = np.broadcast_arrays(*(np.asarray(v, dtype=np.float64) for v in (h, k, rho)))
    out = np.empty(h.shape)
    Ph, Pk = special.ndtr(h), special.ndtr(k)
    up = rho >= 1 - 1e-15
    down = rho <= -1 + 1e-15
    mid = ~(up | down)
    out[up] = np.minimum(Ph, Pk)[up]
    out[down] = np.maximum(0.0, Ph + Pk - 1)[down]
    if mid.any():
        hm, km, rm = h[mid], k[mid], rho[mid]
        s = np.sqrt(1 - rm * rm)
        with np.errstate(divide="ignore", invalid="ignore"):
            ah = (km - rm * hm) / (hm * s)
            ak = (hm - rm * km) / (km * s)
        # h = 0 (or k = 0): T(0, a) = arctan(a) / (2 pi); a = +-inf gives +-1/4
        th = np.where(hm == 0, 0.25 * np.sign(km - rm * hm), 0.0)
        tk = np.where(km == 0, 0.25 * np.sign(hm - rm * km), 0.0)
        th = np.where(hm != 0, special.owens_t(np.where(hm != 0, hm, 1.0),
                                               np.where(hm != 0, ah, 0.0)), th)
        tk = np.where(km != 0, special.owens_t(np.where(km != 0, km, 1.0),
                                               np.where(km != 0, ak, 0.0)), tk)
        both0 = (hm == 0) & (km == 0)
        c = np.where((hm * km < 0) | ((hm * km == 0) & (hm + km < 0)), 0.5, 0.0)
        val = 0.5 * (special.ndtr(hm) + special.ndtr(km)) - th - tk - c
        val = np.where(both0, 0.25 + np.arcsin(rm) / (2 * np.pi), val)
        out[mid] = np.clip(val, 0.0, 1.0)
    return out


def _orthant_probs(mu: np.ndarray, cov: np.ndarray, seed: int = 0) -> tuple[float, float]:
    """(P(all D >= 0), P(all D <= 0)) for D ~ N(mu, cov) with positive variances."""
    k = mu.size
    sd = np.sqrt(np.diag(cov))
    h = mu / sd
    if k == 1:
        return float(special.ndtr(h[0])), float(special.ndtr(-h[0]))
    corr = cov / np.outer(sd, sd)
    corr = np.clip((corr + corr.T) / 2, -1.0, 1.0)
    np.fill_diagonal(corr, 1.0)
    if k == 2:
        return float(_bvn_cdf(h[0], h[1], corr[0, 1])), float(_bvn_cdf(-h[0], -h[1], corr[0, 1]))
    # k >= 3: Genz's algorithm; a singular correlation (rank-deficient differences) is nudged
    # towards the identity by 1e-9, which changes an orthant probability by O(1e-9) because no
    # marginal is degenerate (the orthant boundary has probability zero).
    w = np.linalg.eigvalsh(corr)
    if w.min() < 1e-9:
        corr = (1 - 1e-9) * corr + 1e-9 * np.eye(k)
    mvn = stats.multivariate_normal(mean=np.zeros(k), cov=corr, allow_singular=True,
                                    maxpts=200_000 * k, abseps=1e-7, releps=1e-7)
    p_ge = float(mvn.cdf(h, rng=np.random.default_rng(seed)))
    p_le = float(mvn.cdf(-h, rng=np.random.default_rng(seed)))
    return p_ge, p_le


def parametric_from_deltas(D: np.ndarray, tol: float = DEFAULT_TOL,
                           seed: int = DEFAULT_SEED) -> float:
    """Parametric UIR of per-topic oriented differences D (n, M); see :func:`parametric_uir`."""
    D = D[~np.isnan(D).any(axis=1)]
    n, M = D.shape
    if n == 0:
        return float("nan")
    mu = D.mean(axis=0)
    const = np.ptp(D, axis=0) <= tol
    # constant dimensions: D_x = mu_x with probability 1
    pos = const & (mu > tol)
    neg = const & (mu < -tol)
    f_ge = 0.0 if neg.any() else 1.0
    f_le = 0.0 if pos.any() else 1.0
    rest = ~const
    if not rest.any() or (f_ge == 0 and f_le == 0):
        return f_ge - f_le
    Dr, mur = D[:, rest], mu[rest]
    if rest.sum() == 2 and f_ge == 1 and f_le == 1:
        # P(A and B) - P(not A and not B) = P(A) + P(B) - 1 for any law with P(D_x = 0) = 0:
        # the orthant difference does not depend on the correlation.
        sd = Dr.std(axis=0, ddof=1)
        return float(special.ndtr(mur[0] / sd[0]) + special.ndtr(mur[1] / sd[1]) - 1.0)
    cov = np.atleast_2d(np.cov(Dr, rowvar=False, ddof=1))
    p_ge, p_le = _orthant_probs(mur, cov, seed=seed)
    return float(f_ge * p_ge - f_le * p_le)


def parametric_uir(
    table: pd.DataFrame,
    a: str,
    b: str,
    metrics: Sequence[str],
    tol: float = DEFAULT_TOL,
    directions: Mapping[str, int] | None = None,
    seed: int = DEFAULT_SEED,
) -> float:
    """Parametric UIR (JAIR 2011 §8; docs/measures.md §5).

    The per-topic differences D_x = x(a) - x(b) (oriented, topics with a missing score left out)
    are fitted by a multivariate normal N(mu, Sigma) (sample mean, covariance with ddof = 1), and

        UIR_param = P(all D_x >= 0) - P(all D_x <= 0).

    Singular covariance, handled explicitly:

    * a metric whose difference is constant over the topics (range <= ``tol``; always so with a
      single topic) has zero variance: D_x = mu_x surely. If mu_x > tol, P(all <= 0) = 0;
      if mu_x < -tol, P(all >= 0) = 0; if |mu_x| <= tol the metric is a tie and drops out.
      The probabilities of the remaining metrics are computed on the reduced dimension;
      all metrics constant gives the sign rule [all mu >= 0] - [all mu <= 0] (0 for ties).
    * two remaining metrics and no constant one: the exact identity
      P(A and B) - P(not A and not B) = P(A) + P(B) - 1 gives
      Phi(mu_1 / sd_1) + Phi(mu_2 / sd_2) - 1, which is independent of the correlation and thus
      also right for correlation +-1;
    * otherwise: orthant probabilities of the standardised law -- one metric: Phi; two: exact
      bivariate normal CDF (Owen's T, closed form at correlation +-1); three or more:
      :class:`scipy.stats.multivariate_normal` ``cdf`` (Genz, seeded) with a rank-deficient
      correlation matrix nudged by 1e-9 towards the identity.

    Parameters
    ----------
    seed : int, default 0
        Seed of the quasi-Monte Carlo orthant probabilities (three or more metrics only).

    Returns
    -------
    float
        In [-1, 1]; NaN when no topic is usable.
    """
    metrics = check_metrics(metrics)
    tol = check_tol(tol)
    cube = score_cube(table, metrics, systems=[a] if a == b else [a, b])
    X = oriented(cube, directions)
    D = X[cube.system_index(a)] - X[cube.system_index(b)]
    return parametric_from_deltas(D, tol, seed)


def parametric_matrix(X: np.ndarray, tol: float = DEFAULT_TOL,
                      seed: int = DEFAULT_SEED) -> np.ndarray:
    """(S, S) parametric UIR for oriented scores X (S, T, M); closed form vectorised for the
    common case, :func:`parametric_from_deltas` for the rest (constant or missing differences,
    M != 2)."""
    S, T, M = X.shape
    out = np.full((S, S), np.nan)
    valid = ~np.isnan(X).any(axis=2)
    complete = valid.all(axis=1)
    Xc = np.where(valid[:, :, None], X, 0.0)
    k = int(max(1, min(S, 2_000_000 // max(1, S * T * M))))
    for i0 in range(0, S, k):
        i1 = min(S, i0 + k)
        D = Xc[i0:i1, None] - Xc[None, :]  # (k, S, T, M)
        mu = D.mean(axis=2)
        sd = np.sqrt(((D - mu[:, :, None, :]) ** 2).sum(axis=2) / max(T - 1, 1))
        ptp = D.max(axis=2) - D.min(axis=2)
        if M == 2:
            with np.errstate(divide="ignore", invalid="ignore"):
                val = (special.ndtr(mu[..., 0] / sd[..., 0])
                       + special.ndtr(mu[..., 1] / sd[..., 1]) - 1.0)
        else:
            val = np.full(mu.shape[:2], np.nan)
        simple = (M == 2) & (ptp > tol).all(axis=-1) & (T > 1)
        simple &= complete[i0:i1, None] & complete[None, :]
        out[i0:i1] = np.where(simple, val, np.nan)
        for ia, ib in zip(*np.nonzero(~simple), strict=True):
            a = i0 + ia
            out[a, ib] = parametric_from_deltas(X[a] - X[ib], tol, seed)
    return out


def parametric_uir_matrix(
    table: pd.DataFrame,
    metrics: Sequence[str],
    tol: float = DEFAULT_TOL,
    systems: Sequence[str] | None = None,
    directions: Mapping[str, int] | None = None,
    seed: int = DEFAULT_SEED,
) -> pd.DataFrame:
    """Parametric UIR (:func:`parametric_uir`) of every ordered pair, vectorised over pairs.

    Returns
    -------
    DataFrame
        Square, rows ``system_a`` and columns ``system_b``; antisymmetric, zero diagonal.
    """
    metrics = check_metrics(metrics)
    tol = check_tol(tol)
    cube = score_cube(table, metrics, systems=systems)
    vals = parametric_matrix(oriented(cube, directions), tol, seed)
    return pd.DataFrame(vals, index=pd.Index(cube.systems, name="system_a"),
                        columns=pd.Index(cube.systems, name="system_b"))
