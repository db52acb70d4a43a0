"""Orthant probabilities of normals in four or more dimensions: one randomised lattice rule for
many laws at once, with its standard error.

Genz's separation of variables (Genz 1992, "Numerical computation of multivariate normal
probabilities", J. Comput. Graph. Statist. 1; Genz and Bretz 2009, "Computation of multivariate
normal and t probabilities", §4.1) turns Phi_k(h; R) = P(Z <= h), Z ~ N(0, R), into an integral
over the unit cube of dimension k - 1: with R = L L^T (Cholesky, variables reordered so that the
least likely comes first, Genz and Bretz §4.1.3),

    e_1 = Phi(h_1 / L_11),  y_i = Phi^-1(w_i e_i),
    e_i = Phi((h_i - sum_{j<i} L_ij y_j) / L_ii),   Phi_k = int prod_i e_i dw.

The integral is estimated with a rank-1 Korobov lattice of a prime number n of points
(generator chosen here by the weighted P_2 criterion, Sloan and Joe 1994), periodised by the
tent transform w -> |2w - 1| and shifted by ``n_shifts`` random shifts drawn from ``seed``; the
estimate is the mean over the shifts and its standard error the standard deviation of the shift
means / sqrt(n_shifts) (Genz and Bretz §5.1). Every law of a batch shares the lattice and the
shifts. A law is redone on the next, larger lattice (251 to 32,003 points per shift) until its
standard error is at most ``target_se`` and its estimate agrees with the previous lattice's
(within 3 combined standard errors: a sharp integrand, from a nearly singular correlation, can
fool the shifts of a small lattice into agreeing with each other); so every law takes two
lattices at least, and each law's value depends on its own integrand only.

:func:`orthant_difference` estimates w_ge Phi_k(h; R) - w_le Phi_k(-h; R) (the parametric-UIR
difference of docs/measures.md, "Parametric UIR") with both terms on the same points, so that its
standard error is that of the difference.
"""

from __future__ import annotations

from functools import cache

import numpy as np
from scipy import special

__all__ = ["orthant_difference", "korobov_generator", "LATTICE_SIZES", "N_SHIFTS", "TARGET_SE"]

#: points per shift of the successive lattices (primes)
LATTICE_SIZES = (251, 503, 1009, 2003, 4001, 8009, 16001, 32003)
#: random shifts per lattice (the standard error is over these)
N_SHIFTS = 10
#: a law is accepted once the standard error of its estimate is at most this
TARGET_SE = 2e-5
#: lattice points x laws evaluated at once (bounds the memory: a few float64 arrays of this size)
_CHUNK = 1 << 18
#: a probability whose Frechet bounds are this close needs no lattice
_PINNED = 1e-12
#: product weights gamma_j of the P_2 criterion: the first (most important) variables weigh most
_GAMMA = 0.8
#: candidate generators tried per lattice size
_CANDIDATES = 256


@cache
def korobov_generator(n: int, dim: int) -> tuple[int, ...]:
    """Generator (1, a, a^2, ...) mod n of the Korobov lattice of ``n`` points in ``dim``
    dimensions minimising the weighted P_2 criterion

        P_2(a) = sum_{i<n} prod_j (1 + gamma^j 2 pi^2 B_2({i a^j / n})),  B_2(x) = x^2 - x + 1/6,

    over ``_CANDIDATES`` values of a spread evenly over [2, n/2] (a and n - a give the same
    lattice up to reflection).
    """
    cand = np.unique(np.linspace(2, max(2, n // 2), _CANDIDATES).astype(np.int64))
    i = np.arange(n, dtype=np.int64)
    score = np.zeros(cand.size)
    for c0 in range(0, cand.size, 16):
        a = cand[c0:c0 + 16]
        prod = np.ones((a.size, n))
        power = np.ones(a.size, dtype=np.int64)
        for j in range(dim):
            x = (i[None, :] * power[:, None] % n) / n
            prod *= 1 + _GAMMA ** j * 2 * np.pi ** 2 * (x * x - x + 1 / 6)
            power = power * a % n
        score[c0:c0 + a.size] = prod.sum(axis=1)
    best = int(cand[np.argmin(score)])
    return tuple(pow(best, j, n) for j in range(dim))


def _prioritised_cholesky(h: np.ndarray, corr: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """(L, b): the Cholesky factor and limits of every law with its variables reordered so that
    at each step the least likely next variable comes first (Genz and Bretz 2009, §4.1.3)."""
    n, k = h.shape
    C = corr.copy()
    b = h.copy()
    L = np.zeros((n, k, k))
    y = np.zeros((n, k))
    rows = np.arange(n)
    for i in range(k):
        s2 = np.einsum("nij,nij->ni", L[:, i:, :i], L[:, i:, :i])
        var = np.maximum(np.einsum("nii->ni", C[:, i:, i:]) - s2, 1e-300)
        mean = np.einsum("nij,nj->ni", L[:, i:, :i], y[:, :i])
        u = (b[:, i:] - mean) / np.sqrt(var)
        j = i + np.argmin(special.ndtr(u), axis=1)
        # swap variable i with j (limits, correlation rows / columns, rows of L)
        b[rows, i], b[rows, j] = b[rows, j], b[rows, i]
        Ci, Cj = C[rows, i, :].copy(), C[rows, j, :].copy()
        C[rows, i, :], C[rows, j, :] = Cj, Ci
        Ci, Cj = C[rows, :, i].copy(), C[rows, :, j].copy()
        C[rows, :, i], C[rows, :, j] = Cj, Ci
        Li, Lj = L[rows, i, :].copy(), L[rows, j, :].copy()
        L[rows, i, :], L[rows, j, :] = Lj, Li
        ui = u[rows, j - i]
        lii = np.sqrt(var[rows, j - i])
        L[:, i, i] = lii
        if i + 1 < k:
            L[:, i + 1:, i] = (C[:, i + 1:, i] - np.einsum("nrm,nm->nr", L[:, i + 1:, :i],
                                                           L[:, i, :i])) / lii[:, None]
        # expected value of the standard normal truncated to (-inf, u]
        y[:, i] = -np.exp(-ui * ui / 2) / np.sqrt(2 * np.pi) / np.maximum(special.ndtr(ui), 1e-300)
    return L, b


def _shift_means(L: np.ndarray, b: np.ndarray, points: np.ndarray) -> np.ndarray:
    """(laws, shifts): the lattice mean of prod_i e_i for each law and each shifted point set
    ``points`` (shifts, n, k - 1), already periodised."""
    n_law, k = b.shape
    n_shift, n_pts, _ = points.shape
    out = np.empty((n_law, n_shift))
    step = max(1, _CHUNK // n_pts)
    for s0 in range(0, n_law, step):
        Ls, bs = L[s0:s0 + step], b[s0:s0 + step]
        for r in range(n_shift):
            w = points[r]
            e = special.ndtr(bs[:, 0] / Ls[:, 0, 0])[:, None] * np.ones((1, n_pts))
            prod = e.copy()
            ys = []
            for i in range(1, k):
                ys.append(special.ndtri(np.clip(w[None, :, i - 1] * e, 1e-300, 1 - 1e-16)))
                s = sum(Ls[:, i, m, None] * ys[m] for m in range(i))
                e = special.ndtr((bs[:, i, None] - s) / Ls[:, i, i, None])
                prod *= e
            out[s0:s0 + step, r] = prod.mean(axis=1)
    return out


def _points(level: int, dim: int, seed: int) -> np.ndarray:
    """The shifted, tent-periodised lattice of ``level`` (shifts, n, dim); shifts from ``seed``."""
    n = LATTICE_SIZES[level]
    z = np.asarray(korobov_generator(n, dim), dtype=np.float64)
    base = np.outer(np.arange(n), z) / n
    shifts = np.random.default_rng([seed, level]).random((N_SHIFTS, dim))
    return np.abs(2 * ((base[None, :, :] + shifts[:, None, :]) % 1.0) - 1)


def _frechet(h: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """Lower and upper Frechet bounds of P(Z <= h) from the margins."""
    return (np.maximum(0.0, 1.0 - special.ndtr(-h).sum(axis=1)), special.ndtr(h).min(axis=1))


def orthant_difference(h: np.ndarray, corr: np.ndarray, w_ge: np.ndarray, w_le: np.ndarray,
                       seed: int = 0, target_se: float = TARGET_SE
                       ) -> tuple[np.ndarray, np.ndarray]:
    """w_ge Phi_k(h; R) - w_le Phi_k(-h; R) and its standard error, for many laws.

    Parameters
    ----------
    h : array of shape (n, k), k >= 2
        Standardised limits.
    corr : array of shape (n, k, k)
        Positive definite correlation matrices.
    w_ge, w_le : arrays of shape (n,)
        Weights of the two orthant probabilities (0 or 1 in parametric UIR).
    seed : int
        Seed of the lattice shifts.
    target_se : float
        Standard error at which a law stops; laws still above it on the largest lattice keep
        that lattice's estimate and error.

    Returns
    -------
    value, se : ndarrays of shape (n,)
    """
    h = np.asarray(h, dtype=np.float64)
    n, k = h.shape
    value = np.full(n, np.nan)
    se = np.full(n, np.nan)
    if n == 0:
        return value, se
    L_ge, b_ge = _prioritised_cholesky(h, corr)
    L_le, b_le = _prioritised_cholesky(-h, corr)
    # a probability pinned by its Frechet bounds max(0, 1 - sum Phi(-h_i)) <= P <= min Phi(h_i)
    # to within _PINNED is taken as the bounds' midpoint (no lattice)
    lo_ge, hi_ge = _frechet(h)
    lo_le, hi_le = _frechet(-h)
    pinned = (w_ge * (hi_ge - lo_ge) <= _PINNED) & (w_le * (hi_le - lo_le) <= _PINNED)
    value[pinned] = (w_ge * (hi_ge + lo_ge) - w_le * (hi_le + lo_le))[pinned] / 2
    se[pinned] = 0.0
    todo = np.flatnonzero(~pinned)
    previous = np.full(n, np.nan)
    previous_se = np.full(n, np.inf)
    for level in range(len(LATTICE_SIZES)):
        pts = _points(level, k - 1, seed)
        diff = (w_ge[todo, None] * _shift_means(L_ge[todo], b_ge[todo], pts)
                - w_le[todo, None] * _shift_means(L_le[todo], b_le[todo], pts))
        previous[todo], previous_se[todo] = value[todo], se[todo]
        value[todo] = diff.mean(axis=1)
        se[todo] = diff.std(axis=1, ddof=1) / np.sqrt(N_SHIFTS)
        # done: small standard error, and agreeing with the previous lattice's estimate (a
        # sharp integrand can fool the shifts of a small lattice into agreeing with each other)
        agree = np.abs(value[todo] - previous[todo]) <= 3 * np.hypot(se[todo], previous_se[todo])
        todo = todo[~((se[todo] <= target_se) & agree)]
        if todo.size == 0:
            break
    return value, se
