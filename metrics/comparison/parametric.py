"""Parametric UIR: the UIR of a normal fit of the per-topic differences (JAIR 2011 §8).

Amigó, Gonzalo, Artiles and Verdejo (2011), "Combining evaluation metrics via the unanimous
improvement ratio and its application to clustering tasks", JAIR 42, §8. The definition, the
handling of singular covariances and the seed are described in ``docs/measures.md``
("Parametric UIR"). With one or two metrics the value is closed form; with three or more it comes
from :mod:`metrics.comparison.parametric_batch`, for all pairs at once: exact up to a quadrature
error below 1e-11 for three remaining metrics, a randomised lattice rule (seeded by ``seed``,
standard error reported) for four or more.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence

import numpy as np
import pandas as pd
from scipy import special

from metrics.comparison.orthant import bvn_cdf
from metrics.comparison.parametric_batch import ParametricValues, uir_from_deltas
from metrics.comparison.uir import DEFAULT_TOL, check_metrics, check_tol, oriented
from metrics.model.score_table import score_cube

__all__ = ["parametric_uir", "parametric_uir_matrix", "parametric_from_deltas",
           "parametric_matrix", "parametric_pairs", "parametric_all_pairs",
           "check_parametric_size", "pair_columns", "ParametricValues", "DEFAULT_SEED",
           "MAX_MATRIX_BYTES"]

#: Seed of the lattice rule's random shifts (four or more metrics).
DEFAULT_SEED = 0
#: The largest all-pairs parametric UIR built at once: S x S values and errors, float64.
MAX_MATRIX_BYTES = 2 << 30
#: Pairs x topics x metrics differences held at once.
_BLOCK_CELLS = 2_000_000


def _orthant_probs(mu: np.ndarray, cov: np.ndarray) -> tuple[float, float]:
    """(P(all D >= 0), P(all D <= 0)) for D ~ N(mu, cov) in one or two dimensions, positive
    variances."""
    sd = np.sqrt(np.diag(cov))
    h = mu / sd
    if mu.size == 1:
        return float(special.ndtr(h[0])), float(special.ndtr(-h[0]))
    corr = cov / np.outer(sd, sd)
    corr = np.clip((corr + corr.T) / 2, -1.0, 1.0)
    return float(bvn_cdf(h[0], h[1], corr[0, 1])), float(bvn_cdf(-h[0], -h[1], corr[0, 1]))


def parametric_from_deltas(D: np.ndarray, tol: float = DEFAULT_TOL,
                           seed: int = DEFAULT_SEED) -> float:
    """Parametric UIR of per-topic oriented differences D (n, M); see :func:`parametric_uir`."""
    if D.shape[1] >= 3:
        return float(uir_from_deltas(D[None], tol, seed).value[0])
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
    p_ge, p_le = _orthant_probs(mur, cov)
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
      bivariate normal CDF (Owen's T, closed form at correlation +-1); three: Plackett's
      one-dimensional integral (Genz 2004) by adaptive quadrature, error below 1e-11; four or
      more: a randomised lattice rule (Genz's separation of variables), standard error at most
      2e-5 for most pairs (:mod:`metrics.comparison.orthant_lattice`). With three or more, a
      rank-deficient correlation matrix is nudged by 1e-9 towards the identity.

    Parameters
    ----------
    seed : int, default 0
        Seed of the lattice rule's random shifts (four or more remaining metrics only).

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


def check_parametric_size(n_systems: int) -> None:
    """Refuse, before any work, an all-pairs parametric UIR larger than :data:`MAX_MATRIX_BYTES`."""
    need = 2 * 8 * n_systems * n_systems
    if need > MAX_MATRIX_BYTES:
        raise ValueError(
            f"parametric UIR of {n_systems:,} systems needs {n_systems:,} x {n_systems:,} "
            f"matrices of values and errors ({need / 1e9:.1f} GB, limit "
            f"{MAX_MATRIX_BYTES / 1e9:.1f} GB): leave it out with --no-parametric "
            f"(parametric=False) and compute the pairs you need with "
            f"metrics.comparison.parametric.parametric_pairs")


def _two_metric_pairs(X: np.ndarray, ia: np.ndarray, ib: np.ndarray, tol: float, seed: int,
                      every_pair: bool = False) -> np.ndarray:
    """Parametric UIR of ordered pairs (ia, ib) for M <= 2: the closed form vectorised where
    every topic is usable and no difference is constant, :func:`parametric_from_deltas` for
    the rest. ``every_pair``: (ia, ib) are all S x S pairs row by row, whose differences are
    then broadcast a block of rows at a time instead of gathered."""
    S, T, M = X.shape
    out = np.full(ia.size, np.nan)
    valid = ~np.isnan(X).any(axis=2)
    complete = valid.all(axis=1)
    # metric first, (M, S, T): each metric's differences are then reduced along their last,
    # contiguous axis (over a trailing axis of length 2 numpy's reductions are several times
    # slower)
    Xm = np.ascontiguousarray(np.moveaxis(np.where(valid[:, :, None], X, 0.0), 2, 0))
    k = max(1, _BLOCK_CELLS // max(1, T * M))
    if every_pair:
        k = max(1, k // S) * S  # whole rows
    for p0 in range(0, ia.size, k):
        a, b = ia[p0:p0 + k], ib[p0:p0 + k]
        z = np.zeros(a.size)  # the sum of the metrics' ndtr(mean / sd)
        simple = np.full(a.size, (M == 2) & (T > 1)) & complete[a] & complete[b]
        for m in range(M):
            if every_pair:
                D = (Xm[m, p0 // S:(p0 + a.size) // S, None] - Xm[m, None, :]).reshape(-1, T)
            else:
                D = Xm[m, a] - Xm[m, b]  # (k, T)
            mu = D.mean(axis=1)
            simple &= D.max(axis=1) - D.min(axis=1) > tol
            D -= mu[:, None]  # D is this block's own array: centred and squared in place
            np.square(D, out=D)
            sd = np.sqrt(D.sum(axis=1) / max(T - 1, 1))
            with np.errstate(divide="ignore", invalid="ignore"):
                z += special.ndtr(mu / sd)
        out[p0:p0 + k] = np.where(simple, z - 1.0, np.nan)
        for j in np.flatnonzero(~simple):
            out[p0 + j] = parametric_from_deltas(X[a[j]] - X[b[j]], tol, seed)
    return out


def parametric_pairs(X: np.ndarray, ia, ib, tol: float = DEFAULT_TOL,
                     seed: int = DEFAULT_SEED) -> ParametricValues:
    """Parametric UIR of the ordered pairs (ia[i], ib[i]) only: what a view that shows some
    pairs needs, at a cost proportional to their number.

    Parameters
    ----------
    X : ndarray of shape (S, T, M)
        Oriented scores (:func:`metrics.comparison.uir.oriented`), NaN where missing.
    ia, ib : array-like of int
        System indices of the pairs.

    Returns
    -------
    ParametricValues
        ``value`` and ``error`` per pair
        (:class:`metrics.comparison.parametric_batch.ParametricValues`); the same numbers as the
        entries of :func:`parametric_all_pairs`.
    """
    ia = np.asarray(ia, dtype=np.int64).reshape(-1)
    ib = np.asarray(ib, dtype=np.int64).reshape(-1)
    S, T, M = X.shape
    if M <= 2:
        value = _two_metric_pairs(X, ia, ib, tol, seed)
        return ParametricValues(value, np.where(np.isnan(value), np.nan, 0.0))
    value, error = np.empty(ia.size), np.empty(ia.size)
    k = max(1, _BLOCK_CELLS // max(1, T * M))
    for p0 in range(0, ia.size, k):
        res = uir_from_deltas(X[ia[p0:p0 + k]] - X[ib[p0:p0 + k]], tol, seed)
        value[p0:p0 + k], error[p0:p0 + k] = res.value, res.error
    return ParametricValues(value, error)


def parametric_all_pairs(X: np.ndarray, tol: float = DEFAULT_TOL,
                         seed: int = DEFAULT_SEED) -> ParametricValues:
    """(S, S) parametric UIR and its numerical error for oriented scores X (S, T, M).

    With three or more metrics each unordered pair is computed once and (b, a) is exactly minus
    (a, b); with one or two every ordered pair is computed (closed form, vectorised). Refused
    before the work past :data:`MAX_MATRIX_BYTES` (:func:`check_parametric_size`).
    """
    S, T, M = X.shape
    check_parametric_size(S)
    if M <= 2:
        ia, ib = np.divmod(np.arange(S * S), S)
        value = _two_metric_pairs(X, ia, ib, tol, seed, every_pair=True).reshape(S, S)
        return ParametricValues(value, np.where(np.isnan(value), np.nan, 0.0))
    iu, ju = np.triu_indices(S, k=1)
    res = parametric_pairs(X, iu, ju, tol, seed)
    value = np.zeros((S, S))
    error = np.zeros((S, S))
    value[iu, ju], value[ju, iu] = res.value, -res.value
    error[iu, ju] = error[ju, iu] = res.error
    # a system against itself: every difference 0 (a tie), NaN without a usable topic
    alone = ~(~np.isnan(X).any(axis=2)).any(axis=1)
    value[alone, alone] = error[alone, alone] = np.nan
    return ParametricValues(value, error)


def pair_columns(values: ParametricValues | None, ia: np.ndarray, ib: np.ndarray,
                 n_metrics: int) -> dict[str, np.ndarray]:
    """The comparison's parametric columns for the ordered pairs (ia, ib) of an all-pairs
    result: ``uir_param`` (NaN when left out, ``values`` None) and, with four or more metrics
    (the lattice rule), its standard error ``uir_param_error``."""
    if values is None:
        return {"uir_param": np.full(len(ia), np.nan)}
    out = {"uir_param": values.value[ia, ib]}
    if n_metrics >= 4:
        out["uir_param_error"] = values.error[ia, ib]
    return out


def parametric_matrix(X: np.ndarray, tol: float = DEFAULT_TOL,
                      seed: int = DEFAULT_SEED) -> np.ndarray:
    """(S, S) parametric UIR for oriented scores X (S, T, M): :func:`parametric_all_pairs`'s
    values."""
    return parametric_all_pairs(X, tol, seed).value


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
