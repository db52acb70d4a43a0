"""Paired significance tests over topics, vectorised over pairs of systems (docs/measures.md §6).

Every test is paired over topics: for systems a and b and one metric, the sample is the
per-topic difference d_t = x_t(a) - x_t(b). Topics where either score is missing are dropped;
differences within ``tol`` (the UIR tolerance) are ties, set to exactly 0. All randomness goes
through ``np.random.default_rng(seed)``; global random state is never used.

Tests (two-sided)
-----------------
* ``wilcoxon`` (default): :func:`scipy.stats.wilcoxon` with its defaults (zeros dropped --
  ``zero_method="wilcox"`` --, no continuity correction, ``method="auto"``). The p-value equals
  the one of a direct per-pair call: pairs are vectorised with ``axis=`` in groups that make the
  same automatic choice of method scipy makes for each pair alone (exact without ties or zeros
  for n <= 50, normal approximation otherwise, exact permutation for n <= 13 with ties). All
  differences zero: whatever scipy answers for that pair alone (p NaN for n > 13, 1 for
  n <= 13); a NaN p-value means "not significant" downstream.
* ``t``: :func:`scipy.stats.ttest_rel`. Constant differences: p NaN (all zero) or 0.
* ``sign``: statistic n+ (positive differences), p = min(1, 2 P(Bin(n+ + n-, 1/2) <= min(n+, n-)))
  (exact; zero differences dropped; p = 1 when none is left).
* ``randomization``: paired sign-flip randomisation of the mean difference (Fisher);
  p = (1 + #{|mean*| >= |mean|}) / (1 + R) over R random sign vectors, or the exact proportion
  over all 2^n sign vectors when 2^n <= ``n_resamples``.
* :func:`bootstrap_ci`: percentile bootstrap interval of the mean difference.
"""

from __future__ import annotations

import warnings
from dataclasses import dataclass

import numpy as np
from scipy import special, stats

from metrics.comparison.profiles import TESTS
from metrics.comparison.uir import DEFAULT_TOL, check_tol

__all__ = ["TestResult", "ConfidenceInterval", "TESTS", "DEFAULT_RESAMPLES", "paired_test",
           "bootstrap_ci", "run_tests", "check_test"]

DEFAULT_RESAMPLES = 10_000


@dataclass(frozen=True)
class TestResult:
    """Result of a paired test: ``statistic`` and two-sided ``pvalue`` (floats or arrays)."""

    __test__ = False  # not a pytest class

    statistic: float | np.ndarray
    pvalue: float | np.ndarray


@dataclass(frozen=True)
class ConfidenceInterval:
    """Bootstrap interval of the mean difference."""

    low: float
    high: float
    estimate: float
    confidence: float


def check_test(test: str) -> str:
    if test not in TESTS:
        raise ValueError(f"test must be one of {', '.join(TESTS)}, got {test!r}")
    return test


# ---------------------------------------------------------------------------------------------
# Vectorised kernels on a complete (rows, n) array of differences
# ---------------------------------------------------------------------------------------------


def _signed_ranks(d: np.ndarray):
    """One sort per row of |d|: R+ and R- (average ranks among the non-zero differences, zeros
    dropped as in ``zero_method="wilcox"``), the number of zeros, whether the non-zero |d| have
    ties, and the tie term sum(t^3 - t) over the groups of tied non-zero |d|. Every value is an
    integer or a half-integer, so all of them are exact (independent of summation order)."""
    rows, n = d.shape
    # one sort of integer keys per row: the bits of |d| (non-negative doubles order as their
    # bit patterns; the sign bit, 0, shifted out) with the lowest bit set for a positive d. The
    # sorted keys give |d| in order (y, compared as integers: equal bits, equal values) and which
    # of them are positive; the order within a group of equal |d| does not enter any result.
    key = np.abs(d).view(np.uint64) << np.uint64(1)
    key |= d > 0
    key.sort(axis=-1)
    pos = (key & np.uint64(1)).astype(bool)
    y = key >> np.uint64(1)
    eq = y[:, 1:] == y[:, :-1]
    it = np.int32 if n < 2**30 else np.int64
    cols = np.arange(n, dtype=it)
    n_zero = (y == 0).sum(axis=-1)
    count = n - n_zero
    # 1-based average rank among all = (start + end) / 2 + 1 (start, end: the first and last
    # index of the value's tie group); among the non-zero: minus n_zero. R+ in integer
    # arithmetic (twice R+), R- from R+ + R- = count (count + 1) / 2. A row without equal
    # |d| has start = end = its index: the tie groups are made for the other rows only.
    n_pos = pos.sum(axis=-1)
    twice = 2 * (np.where(pos, cols, it(0)).sum(axis=-1, dtype=np.int64) + n_pos * (1 - n_zero))
    tie_term = np.zeros(rows)
    tied = np.flatnonzero(eq.any(axis=-1))
    if tied.size:
        eq_t, y_t = eq[tied], y[tied]
        first = np.ones((tied.size, n), dtype=bool)
        first[:, 1:] = ~eq_t
        lastm = np.ones((tied.size, n), dtype=bool)
        lastm[:, :-1] = ~eq_t
        start = np.maximum.accumulate(np.where(first, cols, it(0)), axis=-1)
        end = np.minimum.accumulate(np.where(lastm, cols, it(n - 1))[:, ::-1], axis=-1)[:, ::-1]
        twice[tied] = (np.where(pos[tied], start + end, it(0)).sum(axis=-1, dtype=np.int64)
                       + 2 * n_pos[tied] * (1 - n_zero[tied]))
        cnt = (end - start + 1).astype(np.int64)
        tie_term[tied] = np.where(first & (y_t > 0), cnt * cnt * cnt - cnt, 0).sum(axis=-1)
    r_plus = twice / 2.0
    r_minus = (count * (count + 1) - twice) / 2.0
    ties = (eq & (y[:, 1:] > 0)).any(axis=-1)
    return r_plus, r_minus, n_zero, ties, tie_term


def _wilcoxon_asymptotic(n: int, r_plus, r_minus, n_zero, tie_term):
    """scipy's two-sided normal approximation (no continuity correction), same arithmetic as
    ``scipy.stats._wilcoxon`` (``_wilcoxon_statistic`` / ``_wilcoxon_nd``)."""
    count = (n - n_zero).astype(np.float64)
    mn = count * (count + 1.) * 0.25
    se = count * (count + 1.) * (2. * count + 1.)
    se = np.sqrt((se - tie_term / 2) / 24)
    z = (r_plus - mn) / se
    p = 2 * special.ndtr(-np.abs(z))
    return np.minimum(r_plus, r_minus), p


def _wilcoxon_rows(d: np.ndarray):
    """Statistic, p-value and R+ - R- of scipy's default Wilcoxon test for each row of d.

    The ranks are computed once (:func:`_signed_ranks`); rows that scipy would test with the
    normal approximation get it here with scipy's arithmetic (identical p-values); the exact
    and permutation cases are passed to :func:`scipy.stats.wilcoxon` (vectorised with
    ``axis=``, grouped so that scipy makes for every row the choice it makes for that row alone).
    """
    rows, n = d.shape
    stat = np.full(rows, np.nan)
    p = np.full(rows, np.nan)
    if rows == 0:
        return stat, p, np.zeros(0)
    r_plus, r_minus, n_zero, ties, tie_term = _signed_ranks(d)
    balance = r_plus - r_minus
    if n > 50:
        groups = {"asymptotic": np.arange(rows)}
    else:
        clean = ~(ties | (n_zero > 0))
        groups = {"exact": np.flatnonzero(clean)}
        if n <= 13:
            groups["single"] = np.flatnonzero(~clean)
        else:
            groups["asymptotic"] = np.flatnonzero(~clean)
    with np.errstate(invalid="ignore", divide="ignore"), warnings.catch_warnings():
        warnings.simplefilter("ignore", RuntimeWarning)
        for method, idx in groups.items():
            if idx.size == 0:
                continue
            if method == "single":
                for i in idx:
                    try:
                        res = stats.wilcoxon(d[i])
                    except ValueError:  # a single observation, and it is a tie: no test
                        continue  # statistic and p-value stay NaN: not significant
                    stat[i], p[i] = float(res.statistic), float(res.pvalue)
                continue
            if method == "asymptotic":
                stat[idx], p[idx] = _wilcoxon_asymptotic(n, r_plus[idx], r_minus[idx], n_zero[idx],
                                                         tie_term[idx])
                continue
            res = stats.wilcoxon(d[idx], axis=-1, method=method)
            stat[idx] = res.statistic
            p[idx] = res.pvalue
    return stat, p, balance


def _sign_rows(d: np.ndarray):
    n_plus = (d > 0).sum(axis=-1)
    n_minus = (d < 0).sum(axis=-1)
    n = n_plus + n_minus
    k = np.minimum(n_plus, n_minus)
    p = np.where(n > 0, np.minimum(1.0, 2.0 * stats.binom.cdf(k, np.maximum(n, 1), 0.5)), 1.0)
    return n_plus.astype(np.float64), p, (n_plus - n_minus).astype(np.float64)


def _t_rows(d: np.ndarray):
    with np.errstate(invalid="ignore", divide="ignore"):
        res = stats.ttest_1samp(d, 0.0, axis=-1)
    mean = d.mean(axis=-1)
    return (np.asarray(res.statistic, dtype=np.float64), np.asarray(res.pvalue, dtype=np.float64),
            mean)


def _sign_matrix(n: int, n_resamples: int, rng: np.random.Generator) -> tuple[np.ndarray, bool]:
    """(R, n) matrix of +-1: all 2^n sign vectors when that is <= n_resamples (exact), else
    random."""
    if n <= 20 and 2 ** n <= n_resamples:
        codes = np.arange(2 ** n, dtype=np.int64)[:, None]
        bits = (codes >> np.arange(n, dtype=np.int64)[None, :]) & 1
        return (1 - 2 * bits).astype(np.float64), True
    return rng.choice(np.array([-1.0, 1.0]), size=(n_resamples, n)), False


def _randomization_rows(d: np.ndarray, n_resamples: int, rng: np.random.Generator):
    rows, n = d.shape
    mean = d.mean(axis=-1) if n else np.full(rows, np.nan)
    if rows == 0 or n == 0:
        return mean, np.full(rows, np.nan), mean
    flips, exact = _sign_matrix(n, n_resamples, rng)
    obs = np.abs(mean)
    slack = 1e-12 * np.maximum(1.0, obs)
    count = np.zeros(rows, dtype=np.int64)
    step = max(1, 4_000_000 // max(1, flips.shape[0]))
    for r0 in range(0, rows, step):
        perm = np.abs(d[r0:r0 + step] @ flips.T) / n
        count[r0:r0 + step] = (perm >= (obs - slack)[r0:r0 + step, None]).sum(axis=1)
    if exact:
        p = count / flips.shape[0]
    else:
        p = (1.0 + count) / (1.0 + flips.shape[0])
    return mean, np.minimum(p, 1.0), mean


def _run_rows(d: np.ndarray, test: str, rng: np.random.Generator, n_resamples: int):
    """(statistic, pvalue, location) for complete rows of differences."""
    if test == "wilcoxon":
        return _wilcoxon_rows(d)
    if test == "t":
        return _t_rows(d)
    if test == "sign":
        return _sign_rows(d)
    return _randomization_rows(d, n_resamples, rng)


def _ties_within(d: np.ndarray, tol: float) -> np.ndarray:
    """The differences with float noise (|d| <= ``tol``) set to an exact 0, as UIR counts them
    as ties (NaN stays NaN)."""
    with np.errstate(invalid="ignore"):
        return np.where(np.abs(d) <= tol, 0.0, d)


def _on_tol_grid(d: np.ndarray, tol: float) -> np.ndarray:
    """The differences rounded to whole multiples of ``tol``, for the Wilcoxon test's ranks: two
    |d| equal to within float noise then share their rank (two sums of the same terms in
    another order differ by about 1e-17, and split ranks moved p on TREC DL 2019 nDCG@10 from
    0.0775 to 0.0734), while |d| further apart than ``tol`` keep their order (NaN stays)."""
    with np.errstate(invalid="ignore"):
        return np.round(d / tol) * tol


def run_tests(d: np.ndarray, test: str, rng: np.random.Generator, n_resamples: int,
                   tol: float = DEFAULT_TOL):
    """Like :func:`_run_rows` for rows that may hold NaN (those topics are dropped per row);
    differences within ``tol`` are ties (:func:`_ties_within`), and the Wilcoxon test ranks
    them on a grid of step ``tol`` (:func:`_on_tol_grid`)."""
    d = _ties_within(d, tol)
    if test == "wilcoxon" and tol > 0:
        d = _on_tol_grid(d, tol)
    rows = d.shape[0]
    stat = np.full(rows, np.nan)
    p = np.full(rows, np.nan)
    loc = np.full(rows, np.nan)
    n_used = (~np.isnan(d)).sum(axis=-1)
    full = n_used == d.shape[1]
    if full.any():
        s, pv, lc = _run_rows(d[full], test, rng, n_resamples)
        stat[full], p[full], loc[full] = s, pv, lc
    for i in np.flatnonzero(~full):
        di = d[i][~np.isnan(d[i])]
        if di.size == 0:
            continue
        s, pv, lc = _run_rows(di[None, :], test, rng, n_resamples)
        stat[i], p[i], loc[i] = s[0], pv[0], lc[0]
    return stat, p, loc, n_used


def paired_test(x, y, test: str = "wilcoxon", seed=None, n_resamples: int = DEFAULT_RESAMPLES,
                tol: float = DEFAULT_TOL) -> TestResult:
    """Two-sided paired test of x against y over topics (docs/measures.md §6).

    Parameters
    ----------
    x, y : array_like, shape (..., n)
        Scores of the two systems; the last axis is the topics, leading axes are independent
        pairs (vectorised). Topics where x or y is NaN are dropped (per pair).
    test : {"wilcoxon", "t", "sign", "randomization"}
        See the module docstring for the exact definitions.
    seed : int or numpy Generator, optional
        Randomness of the randomisation test.
    n_resamples : int, default 10000
    tol : float, default 1e-9
        Differences with |x - y| <= ``tol`` are ties (exact zeros), as in UIR.

    Returns
    -------
    TestResult
        Floats for 1-D input, arrays of shape ``x.shape[:-1]`` otherwise.
    """
    check_test(test)
    x = np.asarray(x, dtype=np.float64)
    y = np.asarray(y, dtype=np.float64)
    if x.shape != y.shape:
        raise ValueError(f"x and y must have the same shape, got {x.shape} and {y.shape}")
    if x.ndim == 0:
        raise ValueError("x and y must have at least one dimension (topics)")
    rng = np.random.default_rng(seed)
    d = (x - y).reshape(-1, x.shape[-1])
    stat, p, _, _ = run_tests(d, test, rng, int(n_resamples), check_tol(tol))
    if x.ndim == 1:
        return TestResult(float(stat[0]), float(p[0]))
    return TestResult(stat.reshape(x.shape[:-1]), p.reshape(x.shape[:-1]))


def bootstrap_ci(x, y, confidence: float = 0.95, seed=None,
                 n_resamples: int = DEFAULT_RESAMPLES) -> ConfidenceInterval:
    """Percentile bootstrap confidence interval of the mean paired difference mean(x - y).

    Topics are resampled with replacement ``n_resamples`` times (``np.random.default_rng(seed)``);
    the interval is the (1 - confidence)/2 and (1 + confidence)/2 quantiles of the resampled
    means. Topics with a missing score are dropped first.
    """
    if not 0 < confidence < 1:
        raise ValueError(f"confidence must be in (0, 1), got {confidence!r}")
    x = np.asarray(x, dtype=np.float64).ravel()
    y = np.asarray(y, dtype=np.float64).ravel()
    if x.shape != y.shape:
        raise ValueError("x and y must have the same length")
    d = x - y
    d = d[~np.isnan(d)]
    if d.size == 0:
        return ConfidenceInterval(float("nan"), float("nan"), float("nan"), confidence)
    rng = np.random.default_rng(seed)
    means = np.empty(int(n_resamples))
    step = max(1, 2_000_000 // d.size)
    for r0 in range(0, means.size, step):
        r1 = min(means.size, r0 + step)
        idx = rng.integers(0, d.size, size=(r1 - r0, d.size))
        means[r0:r1] = d[idx].mean(axis=1)
    lo, hi = np.quantile(means, [(1 - confidence) / 2, (1 + confidence) / 2])
    return ConfidenceInterval(float(lo), float(hi), float(d.mean()), confidence)
