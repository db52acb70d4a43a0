"""A Lagrangian bound of MicroC under M-1 that counts a word type once per class it reaches,
however many of its clusters go there (``docs/type-level.md``, the ``ctxkm-*`` runs).

With x_kc = 1 when cluster k goes to class c and y_gc = 1 when a (merged) type g with several
clusters B_g reaches c, MicroC F = Σ_c g_c / N* with g_c = 2 W_c φ_c(S_c), φ_c(S) = S / (S + |c|),
S_c = Σ_k ms_k x_kc + Σ_g mult_g y_gc, W_c = Σ_k mw_kc x_kc + Σ_g mult_g [c ∈ A_g] y_gc and
N* = Σ_c S_c (Reichart, Abend and Rappoport 2010, §4.2; the quantities of
:mod:`metrics.measures.typelevel.microc_union`). F ≤ λ for every mapping exactly when
Σ_c h_c ≤ 0 for every mapping, h_c = g_c - λ S_c (Dinkelbach's form: N* is a sum over classes).

A mapping satisfies Σ_c x_kc = 1, y_gc ≥ x_kc (k ∈ B_g) and y_gc ≤ Σ_{k ∈ B_g} x_kc. With
multipliers μ_k (free), ν_gkc ≥ 0 and ρ_gc ≥ 0 of these rows,

    Σ_c h_c ≤ Σ_k μ_k + Σ_c V_c,
    V_c = max over sets of items of h_c(S, W) - Σ cost,

where the items are the clusters (size ms_k, shared mw_kc, cost μ_k + Σ_{g ∋ k} (ν_gkc - ρ_gc))
and the several-cluster types (size mult_g, shared mult_g [c ∈ A_g], cost
ρ_gc - Σ_{k ∈ B_g} ν_gkc), chosen freely: a type enters a class once, not once per cluster.
V_c is bounded one interval of sizes S ∈ [lo, up] at a time: there 2 W φ_c(S) ≤ 2 W φ_c(up)
(W ≥ 0, φ rising), which leaves a knapsack (profit 2 φ_c(up) w - λ s - cost, total size in
[lo, up]) bounded by its LP relaxation; the best intervals of each class are split again. The
multipliers come from projected subgradient steps (Polyak's, towards 0, the value of the best
mapping when λ is its F). Any multipliers give a valid bound; with B = Σ μ + Σ V_c,
F ≤ λ + max(B, 0) / N*_min for N*_min the types of the topic (each reaches at least one class).
"""

from __future__ import annotations

from collections.abc import Callable

import numpy as np

from metrics.measures.typelevel.microc_lagrange import size_grid
from metrics.measures.typelevel.microc_prices import phi

__all__ = ["CoverBound", "cover_grid", "cover_bound", "cover_search", "STEPS"]

#: The grid of sizes: every integer up to GRID_DENSE, then steps of GRID_GROWTH.
GRID_DENSE = 20
GRID_GROWTH = 1.08
#: The intervals of each class split again, into how many parts, how many times.
REFINE = 3
SPLIT = 8
ROUNDS = 2
#: Steps without progress before the subgradient step halves, and the steps at most.
_PATIENCE = 4
STEPS = 400


def cover_grid(total: float) -> np.ndarray:
    """G_1 < G_2 < ... with G_last = ``total``: the upper ends of the size intervals
    (:func:`~metrics.measures.typelevel.microc_lagrange.size_grid` with this bound's grid)."""
    return size_grid(total, GRID_DENSE, GRID_GROWTH)


def _knapsack(s, w, cost, a, lam, s0, w0, low, up):
    """The LP bound of each class and size interval [low, up] added to (S⁰, W⁰): shapes
    s (r,), w (r, n), cost (n, r), s0, w0 (n,), low, up (n, I). Returns the values (n, I) and
    each item's fraction (n, I, r); -inf where no set of items reaches the interval."""
    top = s0[:, None] + up
    ph = phi(top, a[:, None])  # (n, I)
    p = 2.0 * ph[..., None] * w.T[:, None, :] - lam * s - cost[:, None, :]
    order = np.argsort(-(p / s), axis=-1)
    ps = np.take_along_axis(p, order, -1)
    ss = s[order]
    total = float(s.sum())
    fill = np.clip(np.where(ps > 0, ss, 0.0).sum(axis=-1), low, up)
    before = np.cumsum(ss, axis=-1) - ss
    frac = np.clip((fill[..., None] - before) / ss, 0.0, 1.0)
    val = np.where(low <= total, (frac * ps).sum(axis=-1) + 2.0 * w0[:, None] * ph, -np.inf)
    out = np.empty_like(frac)
    np.put_along_axis(out, order, frac, -1)
    return val, out


class CoverBound:
    """The bound of the module docstring for one topic.

    Parameters
    ----------
    ms, mw, gb, ga, mult, a : ndarray
        As :func:`metrics.measures.typelevel.microc_union.union_branch_and_bound`.
    """

    def __init__(self, ms, mw, gb, ga, mult, a) -> None:
        self.m, self.n = mw.shape
        self.a = a
        self.gb, self.ga, self.mult = gb, ga, mult
        self.s = np.concatenate((ms, mult))
        self.w = np.concatenate((mw, mult[:, None] * ga), axis=0)
        self.pg, self.pk = np.nonzero(gb)  # the pairs (type, cluster) of y_gc ≥ x_kc
        self.n_min = float(self.s.sum())
        self.grid = cover_grid(self.n_min)

    def costs(self, mu, nu, rho) -> np.ndarray:
        """Each item's cost in each class, shape (n, r) (module docstring); ``nu`` has one row
        per pair (type, cluster), ``rho`` one per type (shapes (pairs, n), (g, n))."""
        m = self.m
        cost = np.zeros((self.s.size, self.n))
        cost[:m] = mu[:, None]
        np.add.at(cost, self.pk, nu - rho[self.pg])
        cost[m:] += rho
        np.add.at(cost, m + self.pg, -nu)
        return cost.T

    def _intervals(self, cost, lam: float, s0, w0, pos):
        """The LP bound of each class over each size interval of the items ``pos`` (sizes
        > 0), the best intervals split again: values (n, I), the items' fractions (n, I, r'),
        and the intervals' ends (n, I) each."""
        n = self.n
        s, w, c = self.s[pos], self.w[pos], cost[:, pos]
        total = float(s.sum())
        up = np.append(self.grid[self.grid < total], total)
        low = np.concatenate(([0.0], up[:-1])) + 1.0
        up, low = np.tile(up, (n, 1)), np.tile(low, (n, 1))
        val, fr = _knapsack(s, w, c, self.a, lam, s0, w0, low, up)
        parts = np.arange(1, SPLIT + 1) / SPLIT
        for _ in range(ROUNDS):
            k = min(REFINE, up.shape[-1])
            best = np.argpartition(-val, k - 1, axis=1)[:, :k]
            lo_k = np.take_along_axis(low, best, 1)[..., None]
            up_k = np.take_along_axis(up, best, 1)[..., None]
            sub_up = np.ceil(lo_k - 1.0 + (up_k - lo_k + 1.0) * parts)
            sub_lo = np.concatenate((lo_k, sub_up[..., :-1] + 1.0), axis=-1)
            sub_up, sub_lo = sub_up.reshape(n, -1), sub_lo.reshape(n, -1)
            keep = sub_lo <= sub_up
            sub_lo = np.minimum(sub_lo, sub_up)
            fine, ffr = _knapsack(s, w, c, self.a, lam, s0, w0, sub_lo, sub_up)
            fine = np.where(keep, fine, -np.inf)
            np.put_along_axis(val, best, -np.inf, 1)
            val = np.concatenate((val, fine), axis=1)
            fr = np.concatenate((fr, ffr), axis=1)
            low = np.concatenate((low, sub_lo), axis=1)
            up = np.concatenate((up, sub_up), axis=1)
        return val, fr, low, up

    def values(self, cost, lam: float, s0=None, w0=None, avail=None):
        """V_c bounded (module docstring) for the items ``avail`` (all by default) added to
        the class states (S⁰, W⁰) (zero by default): the value 2 W φ_c(S) - λ S - cost
        without the states' own -λ S⁰. Returns the values (n,) and the items' fractions in
        each class's best relaxed set (n, r)."""
        n, r = self.n, self.s.size
        s0 = np.zeros(n) if s0 is None else s0
        w0 = np.zeros(n) if w0 is None else w0
        avail = np.ones(r, dtype=bool) if avail is None else avail
        pos = avail & (self.s > 0)
        zero = avail & (self.s <= 0)  # clusters whose types all sit in other clusters too
        free = np.maximum(-cost[:, zero], 0.0).sum(axis=1)
        empty = 2.0 * w0 * phi(s0, self.a) + free
        frac = np.zeros((n, r))
        frac[:, zero] = (-cost[:, zero] > 0)
        if not pos.any():
            return empty, frac
        val, fr, _, _ = self._intervals(cost, lam, s0, w0, pos)
        pick = np.argmax(val, axis=1)
        top = val[np.arange(n), pick] + free
        chosen = fr[np.arange(n), pick]
        better = top > empty
        frac[:, pos] = np.where(better[:, None], chosen, 0.0)
        return np.maximum(top, empty), frac

    def bound(self, mu, nu, rho, lam: float):
        """Σ μ + Σ V_c (bounds Σ_c g_c - λ S_c over every mapping) and the relaxed fractions."""
        values, frac = self.values(self.costs(mu, nu, rho), lam)
        return float(mu.sum() + values.sum()), frac

    def start(self, target: np.ndarray, lam: float):
        """Multipliers from the mapping ``target``: μ_k the change of Σ_c h_c when cluster k
        leaves its class, ρ_gc what a type adds to class c there (ν = 0)."""
        m, n = self.m, self.n
        x = np.zeros((m, n), dtype=bool)
        x[np.arange(m), target] = True
        reach = (self.gb.astype(float) @ x) > 0  # (g, n)
        s_c = self.s[:m] @ x + self.mult @ reach
        w_c = self.w[:m].T @ x.astype(float)
        w_c = np.diag(w_c) + (self.mult[:, None] * self.ga * reach).sum(axis=0)
        here = 2.0 * w_c * phi(s_c, self.a) - lam * s_c
        own = np.zeros(m)
        for k in range(m):  # a loop over clusters, each a vector over the types
            c = int(target[k])
            held = self.gb[:, k] & ((self.gb & x[:, c][None, :]).sum(axis=1) == 1)
            ds = self.s[k] + self.mult @ held
            dw = self.w[k, c] + (self.mult * self.ga[:, c]) @ held
            sx, wx = s_c[c] - ds, w_c[c] - dw
            own[k] = here[c] - (2.0 * wx * phi(sx, self.a[c]) - lam * sx)
        ph = phi(s_c, self.a)
        rho = np.maximum(2.0 * ph[None, :] * self.mult[:, None] * self.ga
                         - lam * self.mult[:, None], 0.0)
        return own, np.zeros((self.pg.size, n)), rho

    def descend(self, mu, nu, rho, lam: float, steps: int, late: Callable[[], bool],
                offer: Callable[[np.ndarray], float | None] = lambda x: None):
        """Projected subgradient steps from (μ, ν, ρ) (Polyak's, towards 0), at most ``steps``
        or until ``late()`` or the bound is at most 0; each relaxed solution rounded (each
        cluster to the class of its largest fraction) is passed to ``offer``, which may return
        the best score so far: λ then follows it (each step's bound holds at its own λ).
        Returns the least bound seen, its multipliers, the relaxed fractions there (n, r) and
        the least bound on F, min over the steps of λ + max(B, 0) / N*ₘᵢₙ."""
        m = self.m
        best = (np.inf, mu, nu, rho, None)
        step, stall, f_bound = 1.0, 0, np.inf
        for _ in range(steps):
            b, frac = self.bound(mu, nu, rho, lam)
            f_bound = min(f_bound, lam + max(b, 0.0) / self.n_min)
            score = offer(frac[:, :m].argmax(axis=0))
            if score is not None and score > lam:
                lam, best = score, (np.inf, mu, nu, rho, None)  # bounds at a new λ
            if b < best[0] - 1e-12:
                best, stall = (b, mu, nu, rho, frac), 0
            else:
                stall += 1
                if stall >= _PATIENCE:
                    step, stall = step / 2.0, 0
            if b <= 0.0 or late():
                break
            x, y = frac[:, :m], frac[:, m:]
            g_mu = 1.0 - x.sum(axis=0)
            g_nu = (y[:, self.pg] - x[:, self.pk]).T
            g_rho = np.zeros((self.gb.shape[0], self.n))
            np.add.at(g_rho, self.pg, x[:, self.pk].T)
            g_rho -= y.T
            norm = float(g_mu @ g_mu + (g_nu ** 2).sum() + (g_rho ** 2).sum())
            if norm < 1e-12:
                break
            t = step * b / norm
            mu = mu - t * g_mu
            nu = np.maximum(nu - t * g_nu, 0.0)
            rho = np.maximum(rho - t * g_rho, 0.0)
        return (*best, f_bound)


def cover_search(inputs, target: np.ndarray, value: float, late: Callable[[], bool],
                 offer: Callable[[np.ndarray], float | None] = lambda x: None
                 ) -> tuple[float, np.ndarray, Callable[[np.ndarray, float], np.ndarray]]:
    """A proven upper bound on MicroC F over every M-1 mapping (module docstring), from the
    arguments ``inputs`` (``ms, mw, gb, ga, mult, a``) of
    :func:`metrics.measures.typelevel.microc_union.union_branch_and_bound`, the best mapping
    ``target`` and its F ``value`` (λ), with at most :data:`STEPS` subgradient steps or until
    ``late()``; each relaxed solution rounded goes to ``offer`` (which may return the best
    score so far, then λ). Returns the bound (the best score itself when it proves it optimal),
    the multipliers μ of the least bound seen (of "each cluster to one class") and a function
    of μ and λ giving each class's V_c at the ν and ρ found with μ: a bound, class by class,
    on the largest 2 W φ_c(S) - λ S - μ(T) over the sets T of clusters (their unions exact),
    since ν and ρ only lower the cost of a set whose types follow its clusters."""
    cover = CoverBound(*inputs)
    if cover.n_min <= 0:
        return value, np.zeros(cover.m), lambda mu, lam: np.full(cover.n, np.inf)
    mu, nu, rho = cover.start(target, value)
    found = cover.descend(mu, nu, rho, value, STEPS, late, offer)
    return (float(found[-1]), found[1],
            lambda at, lam: cover.values(cover.costs(at, found[2], found[3]), lam)[0])


def cover_bound(inputs, target: np.ndarray, value: float, late: Callable[[], bool],
                offer: Callable[[np.ndarray], float | None] = lambda x: None) -> float:
    """The bound of :func:`cover_search` alone."""
    return cover_search(inputs, target, value, late, offer)[0]
