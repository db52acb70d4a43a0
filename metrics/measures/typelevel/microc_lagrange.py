"""The Lagrangian bound of the MicroC branch and bound (``docs/type-level.md``).

With one cluster per word type, MicroC under M-1 is Σ_c g_c(T_c) / N* with T_c the clusters
sent to class c and g_c(T) = 2 (W⁰_c + w_c(T)) φ_c(S⁰_c + s(T)), φ_c(S) = S / (S + |c|)
(:mod:`metrics.measures.typelevel.microc_branch`; S⁰_c, W⁰_c the clusters already placed).
For any multipliers μ_k of the constraints "cluster k goes to one class",

    Σ_c g_c(T_c) = Σ_k μ_k + Σ_c [g_c(T_c) - μ(T_c)] ≤ Σ_k μ_k + Σ_c V_c,

V_c the largest g_c(T) - μ(T) over every set T of the remaining clusters that may take c. V_c is
bounded from above one size interval s(T) ∈ (G_{i-1}, G_i] at a time (a grid G of added sizes up
to N*): φ_c rises, so there g_c(T) - μ(T) ≤ 2 W⁰_c φ_c(S⁰_c + G_i) + Σ_{k∈T} p_k with
p_k = 2 φ_c(S⁰_c + G_i) w_kc - μ_k, a knapsack whose LP relaxation (G_{i-1} + 1 ≤ Σ s_k x_k ≤ G_i,
x in [0, 1]; sizes are counts of word types, so s(T) > G_{i-1} is s(T) ≥ G_{i-1} + 1) is solved
greedily: clusters by decreasing p_k / s_k, filled up to the weight of the clusters with
p_k > 0 clipped to the interval. The intervals that hold the best bound of a class are split
again (φ_c then taken at each part's own upper end). The empty T gives 2 W⁰_c φ_c(S⁰_c). A cluster
whose μ_k is at least the most it can add to g_c (:func:`microc_dual.gain_bound`) is left out of
class c: some best set does without it, and the knapsacks get tighter and smaller. The
bound is exact when no cluster remains. The multipliers come from a subgradient search at the root
(Polyak steps towards the best mapping's value), started from each cluster's marginal value in
that mapping; any multipliers give a valid bound, better ones a tighter one.
"""

from __future__ import annotations

import time

import numpy as np

from metrics.measures.typelevel.microc_dual import gain_bound

__all__ = ["size_grid", "class_values", "root_multipliers", "mapping_value"]

#: The grid of added sizes: every integer up to GRID_DENSE, then steps of GRID_GROWTH (the
#: finer, the tighter the bound and the slower each evaluation).
GRID_DENSE = 30
GRID_GROWTH = 1.05
#: The intervals of each class split again after a first pass, and into how many parts.
REFINE = 4
SPLIT = 8
ROUNDS = 2
#: Subgradient steps at the root, and how many steps without progress halve the step size.
_STEPS = 100
_PATIENCE = 5


def mapping_value(size: np.ndarray, w: np.ndarray, a: np.ndarray, target: np.ndarray) -> float:
    """Σ_c g_c(S_c, W_c) of a mapping (not divided by N*)."""
    s_c = np.bincount(target, weights=size, minlength=a.size)
    w_c = np.bincount(target, weights=w[np.arange(size.size), target], minlength=a.size)
    return float(np.sum(2.0 * w_c * s_c / (s_c + a)))


def size_grid(total: float, dense: int = GRID_DENSE, growth: float = GRID_GROWTH) -> np.ndarray:
    """G_1 < G_2 < ... ≤ ``total`` with G_last = total: the upper ends of the size intervals,
    every integer up to ``dense``, then steps of ``growth``."""
    far = dense * growth ** np.arange(int(np.log(max(total / dense, 1.0)) / np.log(growth)) + 2)
    g = np.concatenate((np.arange(1.0, dense + 1), np.ceil(far)))
    return np.unique(np.append(g[g < total], total))


def _knapsacks(s, w, a, mu, s0, w0, allowed, low, up):
    """The LP knapsack bound of each class state and size interval [low, up] (shape (q, n, G)):
    values, the fractions of the clusters in sorted order, and that order."""
    top = s0[..., None] + up
    phi = top / (top + a[:, None])
    # profits (q, n, G, r); a cluster that may not take the class is left out
    p = 2.0 * phi[..., None] * w.T[None, :, None, :] - mu
    p = np.where(allowed.T[None, :, None, :], p, -np.inf)
    order = np.argsort(-(p / s), axis=-1)
    ps = np.take_along_axis(p, order, -1)
    ss = s[order]
    ok = np.isfinite(ps)
    ps, ss = np.where(ok, ps, 0.0), np.where(ok, ss, 0.0)
    total = ss.sum(axis=-1)
    fill = np.minimum(np.clip(np.where(ps > 0, ss, 0.0).sum(axis=-1), low, up), total)
    before = np.cumsum(ss, axis=-1) - ss
    frac = np.clip((fill[..., None] - before) / np.where(ss > 0, ss, 1.0), 0.0, 1.0)
    val = np.where((total >= low) & (low <= up),
                   (frac * ps).sum(axis=-1) + 2.0 * w0[..., None] * phi, -np.inf)
    return val, frac, order


def class_values(s, w, a, mu, s0, w0, allowed, grid):
    """The bound on V_c (module docstring) for each class state in ``s0``, ``w0``.

    The intervals of ``grid`` are evaluated first; the :data:`REFINE` best of each class are
    then split into :data:`SPLIT` parts each (φ taken at each part's own upper end), the other
    intervals keeping their bound.

    Parameters
    ----------
    s, w, mu : ndarray, shapes (r,), (r, n), (r,)
        Sizes, shared types and multipliers of the r remaining clusters.
    a : ndarray, shape (n,)
        Class sizes |c|.
    s0, w0 : ndarray, shape (q, n)
        q states of the classes (placed sizes and shared types).
    allowed : ndarray of bool, shape (r, n)
        The classes each remaining cluster may take.
    grid : ndarray
        :func:`size_grid` of a total at least Σ s.

    Returns
    -------
    values : ndarray, shape (q, n)
    share : ndarray, shape (q, n, r)
        The fraction of each cluster in the best relaxed set of each class (a subgradient).
    """
    r = s.size
    empty = 2.0 * w0 * s0 / np.maximum(s0 + a, 1e-300)
    allowed = allowed & (mu[:, None] < gain_bound(s, w, a))  # the others never raise V_c
    reach = (allowed * s[:, None]).sum(axis=0)  # the most a class can gain
    low = np.concatenate(([0.0], grid[:-1])) + 1.0  # sizes are counts: s(T) > G_{i-1}
    keep = low <= reach.max(initial=0.0)
    if not keep.any():  # no cluster may take any class: only the empty sets
        return empty, np.zeros(s0.shape + (r,))
    shape = s0.shape + (int(keep.sum()),)
    up, low = np.broadcast_to(grid[keep], shape), np.broadcast_to(low[keep], shape)
    val, frac, order = _knapsacks(s, w, a, mu, s0, w0, allowed, low, up)
    parts = np.arange(1, SPLIT + 1) / SPLIT
    for _ in range(ROUNDS):
        k = min(REFINE, up.shape[-1])
        best = np.argpartition(-val, k - 1, axis=-1)[..., :k]  # (q, n, k)
        lo_k = np.take_along_axis(low, best, -1)[..., None]
        up_k = np.take_along_axis(up, best, -1)[..., None]
        sub_up = np.ceil(lo_k - 1.0 + (up_k - lo_k + 1.0) * parts)  # up_k at the last part
        sub_lo = np.concatenate((lo_k, sub_up[..., :-1] + 1.0), axis=-1)
        sub_up, sub_lo = sub_up.reshape(shape[:2] + (-1,)), sub_lo.reshape(shape[:2] + (-1,))
        fine, fine_frac, fine_order = _knapsacks(s, w, a, mu, s0, w0, allowed, sub_lo, sub_up)
        np.put_along_axis(val, best, -np.inf, -1)  # a refined interval: its parts instead
        val = np.concatenate((val, fine), axis=-1)
        frac = np.concatenate((frac, fine_frac), axis=2)
        order = np.concatenate((order, fine_order), axis=2)
        low = np.concatenate((low, sub_lo), axis=-1)
        up = np.concatenate((up, sub_up), axis=-1)
    pick = np.argmax(val, axis=-1)
    top = np.take_along_axis(val, pick[..., None], -1)[..., 0]
    share = np.zeros(val.shape[:2] + (r,))
    chosen = np.take_along_axis(frac, pick[..., None, None], 2)[:, :, 0]
    where = np.take_along_axis(order, pick[..., None, None], 2)[:, :, 0]
    np.put_along_axis(share, where, chosen, -1)
    share[top <= empty] = 0.0
    return np.maximum(top, empty), share


def root_multipliers(s, w, a, allowed, target, best: float, grid, deadline: float):
    """Multipliers μ that lower the root's Lagrangian bound (module docstring): a subgradient
    search from each cluster's marginal value in ``target`` (value ``best``), stopped after
    :data:`_STEPS` steps or at ``deadline``. Returns the best μ, its bound, the share of each
    cluster in each class's relaxed set there (shape (n, m)) and the best mapping among
    ``target`` and the relaxed solutions rounded (each cluster to the class of its largest
    share)."""
    m, n = w.shape
    rows = np.arange(m)
    s_c = np.bincount(target, weights=s, minlength=n)
    w_c = np.bincount(target, weights=w[rows, target], minlength=n)
    own_s, own_w, size = s_c[target], w_c[target], a[target]
    left_s, left_w = own_s - s, own_w - w[rows, target]
    mu = 2.0 * own_w * own_s / (own_s + size) - 2.0 * left_w * left_s / (left_s + size)
    zero = np.zeros((1, n))
    best_mu, best_bound, best_share, step, stall = mu, np.inf, None, 1.0, 0
    found, found_value = target, best
    for _ in range(_STEPS):
        values, share = class_values(s, w, a, mu, zero, zero, allowed, grid)
        bound = float(mu.sum() + values.sum())
        # the relaxed solution rounded: each cluster to its largest share (else where it was)
        cand = np.where(share[0].max(axis=0) > 0.0, share[0].argmax(axis=0), target)
        cand_value = mapping_value(s, w, a, cand)
        if cand_value > found_value:
            found, found_value = cand, cand_value
        if bound < best_bound - 1e-12:
            best_mu, best_bound, best_share, stall = mu, bound, share[0], 0
        else:
            stall += 1
            if stall >= _PATIENCE:
                step, stall = step / 2.0, 0
        sub = 1.0 - share[0].sum(axis=0)
        norm = float(sub @ sub)
        if norm < 1e-12 or bound <= found_value or time.monotonic() > deadline:
            break
        mu = mu - step * (bound - found_value) / norm * sub
    return best_mu, best_bound, best_share, found
