"""Lower-orthant probabilities of bivariate and trivariate normals, for many laws at once.

Phi_k(h; R) = P(Z_1 <= h_1, ..., Z_k <= h_k) for Z ~ N(0, R), R a correlation matrix: the
orthant probabilities of parametric UIR (docs/measures.md, "Parametric UIR"). Every function takes
arrays (one entry per law) and has no Python loop over the laws.

* k = 2, :func:`bvn_cdf`: Owen's T (Owen 1956, "Tables for computing bivariate normal
  probabilities", Ann. Math. Statist. 27), exact up to rounding.
* k = 3, :func:`tvn_cdf`: Plackett's (1954) reduction to a one-dimensional integral along a path
  of correlation matrices, in the form of Genz (2004), "Numerical computation of rectangular
  bivariate and trivariate normal and t probabilities", Statistics and Computing 14, §3:

      Phi_3(h; R) = Phi(h_1) Phi_2(h_2, h_3; r_23)
                    + 1/(2 pi) int_0^1 [ a_12 g(h_1, h_2, h_3; r_13(x), r_23, r_12(x))
                                       + a_13 g(h_1, h_3, h_2; r_12(x), r_23, r_13(x)) ] dx,

  with the variables ordered so that |r_23| is the largest correlation, a_1j = arcsin r_1j,
  r_1j(x) = sin(a_1j x) (the substitution removes the 1/sqrt(1 - r^2) singularity of the
  bivariate density), and g the bivariate density of (Z_1, Z_2) at (h_1, h_2) times the
  conditional probability of Z_3 <= h_3 (Plackett's identity dPhi_3/dr_12 = phi_2 Phi). The
  integral is computed by vectorised adaptive Gauss-Legendre quadrature (8 and 16 nodes per
  interval; an interval whose two rules differ by more than ``tol`` x its width is halved), so
  its error is below ``tol`` / (2 pi) by the rules' own estimate (returned).
  |r_23| = 1 (within 1e-14) is closed form.
* k >= 4: :mod:`metrics.comparison.orthant_lattice` (randomised lattice rule).
"""

from __future__ import annotations

import numpy as np
from scipy import special

__all__ = ["bvn_cdf", "tvn_cdf", "adaptive_integral"]

_X8, _W8 = np.polynomial.legendre.leggauss(8)
_X16, _W16 = np.polynomial.legendre.leggauss(16)
#: nodes of both rules on [0, 1] (the 8 first, then the 16)
_NODES = np.concatenate(((_X8 + 1) / 2, (_X16 + 1) / 2))

#: integrands evaluated per block of intervals (24 points each: about 1 MB per temporary)
_BLOCK = 4096

#: |r| within this of 1 is treated as exactly +-1 (Genz 2004)
_UNIT = 1e-14


def bvn_cdf(h, k, rho):
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


def adaptive_integral(f, n: int, tol: float = 1e-11, max_rounds: int = 30,
                      max_intervals: int = 64) -> tuple[np.ndarray, np.ndarray]:
    """int_0^1 f_i(x) dx for i = 0..n-1, all at once, by adaptive Gauss-Legendre quadrature.

    ``f(x, i)`` evaluates integrand ``i[j]`` at the points ``x[j, :]`` (``x`` of shape (m, q),
    ``i`` of shape (m,)). Every interval gets the 8- and the 16-node rule; where they differ by
    more than ``tol`` times the interval's width, the interval is halved (for that integrand
    only), up to ``max_rounds`` halvings and ``max_intervals`` intervals per integrand (past
    that the integrand is limited by rounding noise and its intervals are accepted as they are;
    a non-finite value stops its interval and makes the sum NaN). Returns the 16-node sums and
    the sum of the accepted differences (the error estimate) per integrand; each integrand's
    value depends on its own function only.
    """
    total = np.zeros(n)
    err = np.zeros(n)
    lo = np.zeros(n)
    width = np.ones(n)
    own = np.arange(n)
    for rnd in range(max_rounds):
        x = lo[:, None] + width[:, None] * _NODES[None, :]
        v = np.empty_like(x)
        for s in range(0, own.size, _BLOCK):  # blocks that stay in cache
            v[s:s + _BLOCK] = f(x[s:s + _BLOCK], own[s:s + _BLOCK])
        # row sums, not a matrix product: a BLAS product may sum differently for other rows
        q8 = width / 2 * (v[:, :8] * _W8).sum(axis=1)
        q16 = width / 2 * (v[:, 8:] * _W16).sum(axis=1)
        e = np.abs(q16 - q8)
        done = (e <= tol * width) | ~np.isfinite(e) | (rnd == max_rounds - 1)
        # an integrand whose rules still disagree on many intervals is limited by rounding
        # noise, not by the rule: its intervals are accepted as they are (error reported)
        crowded = np.bincount(own[~done], minlength=n) > max_intervals // 2
        done |= crowded[own]
        total += np.bincount(own[done], weights=q16[done], minlength=n)
        err += np.bincount(own[done], weights=e[done], minlength=n)
        keep = ~done
        if not keep.any():
            break
        half = width[keep] / 2
        lo = np.concatenate((lo[keep], lo[keep] + half))
        width = np.concatenate((half, half))
        own = np.concatenate((own[keep], own[keep]))
    return total, err


def _plackett_term(ba, bb, bc, ra, rb, r, rr):
    """exp(-q/2) P(Z_3 <= bc | Z_1 = ba, Z_2 = bb) for corr(Z1, Z2) = r, rr = 1 - r^2,
    corr(Z1, Z3) = ra, corr(Z2, Z3) = rb; q the exponent of the (Z1, Z2) density, so that this
    times 1 / (2 pi sqrt(rr)) is Plackett's dPhi_3 / dr (Genz 2004, eq. 5)."""
    with np.errstate(divide="ignore", invalid="ignore", over="ignore"):
        dt = rr * (rr - (ra - rb) ** 2 - 2 * ra * rb * (1 - r))   # rr x det R(x)
        num = bc * rr + ba * (r * rb - ra) + bb * (r * ra - rb)
        ft = (ba - r * bb) ** 2 / rr + bb * bb
        cond = np.where(dt > 0, special.ndtr(num / np.sqrt(np.where(dt > 0, dt, 1.0))),
                        (num > 0) + 0.5 * (num == 0))
        val = np.exp(-ft / 2) * cond
    return np.where(rr > 0, val, 0.0)


def tvn_cdf(h: np.ndarray, r12, r13, r23, tol: float = 1e-11
            ) -> tuple[np.ndarray, np.ndarray]:
    """P(Z_1 <= h_1, Z_2 <= h_2, Z_3 <= h_3) for standard trivariate normals (module docstring).

    Parameters
    ----------
    h : array of shape (n, 3)
        Upper limits (finite).
    r12, r13, r23 : arrays of shape (n,)
        Correlations of a positive semi-definite correlation matrix each.
    tol : float
        Tolerance of the adaptive quadrature per unit length of the path.

    Returns
    -------
    prob, error : ndarrays of shape (n,)
        The probabilities and the quadrature's error estimate (0 for the closed forms).
    """
    h = np.asarray(h, dtype=np.float64).reshape(-1, 3)
    n = h.shape[0]
    full = np.empty((n, 3, 3))
    full[:, [0, 1, 2], [0, 1, 2]] = 1.0
    full[:, 0, 1] = full[:, 1, 0] = r12
    full[:, 0, 2] = full[:, 2, 0] = r13
    full[:, 1, 2] = full[:, 2, 1] = r23
    # the largest |correlation| becomes r_23 (Genz's ordering: the path crosses the two smaller)
    top = np.argmax(np.abs(np.stack([full[:, 0, 1], full[:, 0, 2], full[:, 1, 2]], axis=1)), axis=1)
    perm = np.array([[2, 0, 1], [1, 0, 2], [0, 1, 2]])[top]
    rows = np.arange(n)
    g = h[rows[:, None], perm]
    s12 = full[rows, perm[:, 0], perm[:, 1]]
    s13 = full[rows, perm[:, 0], perm[:, 2]]
    s23 = full[rows, perm[:, 1], perm[:, 2]]
    g1, g2, g3 = g[:, 0], g[:, 1], g[:, 2]
    prob = np.empty(n)
    err = np.zeros(n)
    up = s23 >= 1 - _UNIT            # Z_3 = Z_2
    down = s23 <= -1 + _UNIT         # Z_3 = -Z_2
    mid = ~(up | down)
    prob[up] = bvn_cdf(g1[up], np.minimum(g2, g3)[up], s12[up])
    d = down & (g2 > -g3)
    prob[down] = 0.0
    prob[d] = bvn_cdf(g1[d], g2[d], s12[d]) - bvn_cdf(g1[d], -g3[d], s12[d])
    if mid.any():
        b1, b2, b3 = g1[mid], g2[mid], g3[mid]
        r23m = s23[mid]
        a12, a13 = np.arcsin(s12[mid]), np.arcsin(s13[mid])

        def integrand(x, i):
            c12, c13 = a12[i, None], a13[i, None]
            x12, x13 = c12 * x, c13 * x
            r12x, r13x = np.sin(x12), np.sin(x13)
            rr12, rr13 = np.cos(x12) ** 2, np.cos(x13) ** 2
            bi1, bi2, bi3, ri = b1[i, None], b2[i, None], b3[i, None], r23m[i, None]
            return (c12 * _plackett_term(bi1, bi2, bi3, r13x, ri, r12x, rr12)
                    + c13 * _plackett_term(bi1, bi3, bi2, r12x, ri, r13x, rr13))

        integral, ierr = adaptive_integral(integrand, int(mid.sum()), tol)
        base = special.ndtr(b1) * bvn_cdf(b2, b3, r23m)
        prob[mid] = base + integral / (2 * np.pi)
        err[mid] = ierr / (2 * np.pi)
    return np.clip(prob, 0.0, 1.0), err
