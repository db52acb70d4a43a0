"""Bound 2 of the MicroC branch and bound (:mod:`metrics.measures.typelevel.microc_branch`,
``docs/type-level.md``): prices λ_c of a word type sent to class c.

With g_c(S, W) = 2 W φ_c(S), φ_c(S) = S / (S + |c|) (Reichart, Abend and Rappoport 2010, §4.2),
for S in [S⁰_c, U_c]: g_c ≤ ψ_c(W) + λ_c S with ψ_c(W) = max_σ 2 W φ_c(σ) - λ_c σ, convex in W,
hence below its chord over [W⁰_c, W̄_c]: a sum over the clusters (λ_c s_k + slope · w_kc).
"""

from __future__ import annotations

from collections.abc import Callable

import numpy as np

__all__ = ["phi", "psi", "chords", "slopes", "lower_prices", "PRICE_STEPS"]


def phi(s: np.ndarray, a: np.ndarray) -> np.ndarray:
    """φ_c(S) = S / (S + |c|), elementwise (``a`` the class sizes |c|)."""
    return s / (s + a)


def slopes(size: np.ndarray, w: np.ndarray, a: np.ndarray, target: np.ndarray) -> np.ndarray:
    """∂g_c/∂S = 2 W_c |c| / (S_c + |c|)² at the mapping ``target`` (cluster -> class)."""
    m, n = w.shape
    s_c = np.bincount(target, weights=size, minlength=n)
    w_c = np.bincount(target, weights=w[np.arange(m), target], minlength=n)
    return 2.0 * w_c * a / (s_c + a) ** 2


def psi(a, lam, wv, lo, hi):
    """ψ_c(W) = max over σ in [lo, hi] of 2 W φ_c(σ) - λ_c σ (stationary point clipped)."""
    with np.errstate(divide="ignore", invalid="ignore"):
        free = np.where(lam > 0, np.sqrt(2.0 * wv * a / lam) - a, hi)
    sig = np.minimum(np.maximum(free, lo), hi)
    return 2.0 * wv * phi(sig, a) - lam * sig


def chords(a, lams, sx, wx, left, w_left):
    """Bound 2's constant ψ(W⁰) + λ S⁰ and chord slope, shape (prices, states, classes), for the
    price vectors ``lams`` (prices, 1, n), the class states ``sx``, ``wx`` and the sizes and
    shared types still to place, ``left`` and ``w_left``."""
    u = sx + left
    p0 = psi(a, lams, wx, sx, u)
    slope = np.divide(psi(a, lams, wx + w_left, sx, u) - p0, w_left,
                      out=np.zeros(p0.shape), where=w_left > 0)
    return p0 + lams * sx, slope


#: Factors tried on each price by :func:`lower_prices`.
PRICE_STEPS = np.array([0.0, 0.5, 0.7, 0.85, 1.0, 1.2, 1.4, 2.0])


def lower_prices(start: np.ndarray, bound: Callable[[np.ndarray], float], sweeps: int,
                 late: Callable[[], bool] = lambda: False) -> np.ndarray:
    """Prices that lower the root's bound 2: a coordinate search from ``start`` (the best
    mapping's slopes, a class without any taking a mean one), trying each price times every
    factor of :data:`PRICE_STEPS` and keeping what lowers ``bound``, for at most ``sweeps``
    sweeps, until a sweep changes nothing or ``late()``."""
    lam = start.copy()
    lam[lam <= 0] = lam[lam > 0].mean() if np.any(lam > 0) else 0.1
    value = bound(lam)
    for _ in range(sweeps):
        improved = False
        for c in range(lam.size):  # a loop over classes, each step vectorised
            base = lam[c]
            for f in PRICE_STEPS:
                lam[c] = base * f
                trial = bound(lam)
                if trial < value - 1e-12:
                    value, base, improved = trial, lam[c], True
            lam[c] = base
        if not improved or late():
            break
    return lam
