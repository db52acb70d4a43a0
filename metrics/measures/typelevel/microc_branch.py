"""Branch and bound for the many-to-one mapping that maximises MicroC when every word type has
one cluster (``docs/type-level.md``).

With one cluster per type the united cluster of class c holds the types of the clusters sent to
c, so S_c = |z_c| = Σ_{k→c} s_k and W_c = |z_c ∩ c| = Σ_{k→c} w_kc are sums of per-cluster
constants (s_k the types of cluster k, w_kc those of them whose gold entry holds c), N* = Σ_k s_k
is constant, and MicroC F = Σ_c g_c(S_c, W_c) / N* with

    g_c(S, W) = 2 W φ_c(S),   φ_c(S) = S / (S + |c|)

(Reichart, Abend and Rappoport 2010, §4.2). The search places the clusters in decreasing size,
depth first, children in decreasing bound. A node has the clusters before depth j placed
(S⁰_c, W⁰_c) and, for each remaining cluster k, the classes it may still take (a mask). For a
class c, U_c = S⁰_c + Σ s_k and W̄_c = W⁰_c + Σ w_kc over the remaining clusters that may take it.

* **Classes ruled out.** Sending k to c, onto the other clusters of c (S ∈ [S⁰_c, U_c],
  W ∈ [W⁰_c, W̄_c]), gains g_c(S + s_k, W + w_kc) - g_c(S, W) = 2 w_kc φ_c(S + s_k)
  + 2 W (φ_c(S + s_k) - φ_c(S)), at most 2 w_kc φ_c(U_c) + 2 W̄_c (φ_c(S⁰_c + s_k) - φ_c(S⁰_c))
  and at least 2 w_kc φ_c(S⁰_c + s_k) + 2 W⁰_c (φ_c(U'_c) - φ_c(U'_c - s_k)) (φ concave; U'_c
  the largest S_c with k on c). When the most k can gain on c is below the least it gains on
  some c*, moving k from c to c* raises the score of any mapping, so no optimum has k on c: c
  leaves k's mask. Repeated until nothing changes (each removal shrinks U and W̄).
* **Bound 1** (tangent): with T the remaining clusters sent to c,
  g_c ≤ 2 W⁰_c [φ_c(S⁰_c) + φ_c'(S⁰_c) s(T)] + 2 w_c(T) φ_c(U_c), a sum over the clusters of
  T, so the best mapping of the rest under it is each cluster's best allowed class on its own.
* **Bound 2** (prices λ_c ≥ 0 of a type sent to c): for S ∈ [S⁰_c, U_c],
  g_c ≤ ψ_c(W) + λ_c S with ψ_c(W) = max_σ 2 W φ_c(σ) - λ_c σ (σ in that range), a maximum of
  linear functions of W, hence convex, hence below its chord over [W⁰_c, W̄_c]: again a sum over
  clusters (λ_c s_k + chord slope · w_kc). Two price vectors are tried: the slopes ∂g_c/∂S of
  the best mapping found, and prices that minimise the bound at the root (coordinate search).
* **Bounds 3 and 4** (Lagrangian: multipliers μ_k of "each cluster to one class"):
  Σ_c g_c ≤ Σ_k μ_k + Σ_c V_c, V_c the best g_c - μ(T) over the sets T of remaining clusters
  that may take c. Bound 3 (:mod:`metrics.measures.typelevel.microc_lagrange`) bounds V_c by a
  knapsack over size intervals; its multipliers, searched at the root, start those of bound 4
  (:mod:`metrics.measures.typelevel.microc_dual`), which finds V_c exactly by a dynamic program
  over (s(T), w_c(T)), its multipliers made by subgradient steps and a column-generation master
  (:mod:`metrics.measures.typelevel.microc_master`) at the root for at most
  :data:`_DUAL_SHARE` of the time, then fixed: the nodes use bounds 1, 2 and 4. Each relaxed
  or master solution, rounded to a mapping, may replace the best one.
* **Identical clusters** (equal s_k and w_k: brown-100 has 56 distinct of 91 on a topic) are
  placed next to each other, each taking no class below its identical predecessor's: one mapping
  of each set that differ by swapping identical clusters (their masks stay identical, so the
  pruning stays exact).

Two phases: :data:`_PLAIN_SHARE` of the time with bounds 1 and 2 alone (the easy cases end
there), then from the root again with bounds 3 and 4 (bound 3's root multipliers at most
:data:`_ROOT_SHARE` of the time), the best mapping kept and the clusters the relaxation splits
or leaves out placed first. The bounds of all n children of a node are computed at once (numpy
over the remaining clusters and classes); a node whose bound is not above the best score by
more than :data:`PRUNE_TOL` is cut. At the time limit the bound returned is the largest of the
open nodes' (the gap).
"""

from __future__ import annotations

import time
from dataclasses import dataclass

import numpy as np

from metrics.measures.typelevel.microc_lagrange import mapping_value, root_multipliers, size_grid
from metrics.measures.typelevel.microc_master import column_generation
from metrics.measures.typelevel.microc_prices import chords, lower_prices, phi, slopes

__all__ = ["Branched", "branch_and_bound", "mapping_value", "PRUNE_TOL"]

#: A node is cut when its bound exceeds the best score by at most this (score units): the
#: mapping returned is within it of the optimum.
PRUNE_TOL = 1e-9
#: Nodes between two looks at the clock (a node with the Lagrangian bound takes milliseconds).
_CLOCK_EVERY = 4
#: Sweeps of the search for the root's prices (:func:`microc_prices.lower_prices`).
_PRICE_SWEEPS = 4
#: The share of the time limit searched with the cheap bounds alone (the easy cases end
#: there: most topics of brown-17 and svdkm-17, in 0.05-0.14 s of CPU with the root's prices),
#: and the share the root's multipliers of the Lagrangian bound may take after it.
_PLAIN_SHARE = 0.05
_ROOT_SHARE = 0.3
#: The share of the time the exact Lagrangian bound's multipliers may take after that (the
#: search with them ends within a few nodes once the root's bound is the optimum's, and gains
#: little before: on brown-100 the gap left was the root's).
_DUAL_SHARE = 0.6


@dataclass(frozen=True)
class Branched:
    """The result of :func:`branch_and_bound`.

    Attributes
    ----------
    target : ndarray of int64
        The best mapping found (the start's when nothing beats it).
    value : float
        Its MicroC F, Σ_c g_c / N*.
    bound : float
        A proven upper bound on the optimum (``value`` when the search finished).
    proven : bool
        True when the search finished: ``value`` is the optimum within :data:`PRUNE_TOL`.
    nodes : int
        Nodes expanded.
    """

    target: np.ndarray
    value: float
    bound: float
    proven: bool
    nodes: int


class _Timeout(Exception):
    """The time limit passed; ``bound`` collects the bounds of the open nodes."""

    def __init__(self) -> None:
        super().__init__("time limit")
        self.bound = -np.inf


class _Search:
    """The state of one search (module docstring)."""

    def __init__(self, size, w, a, start, seconds: float) -> None:
        self.size, self.w, self.a = size, w, a
        self.m, self.n = w.shape
        # decreasing size; identical clusters (equal s_k and w_k) next to each other
        self._arrange(np.lexsort((*w.T[::-1], -size)))
        self.target = np.asarray(start, dtype=np.int64).copy()
        self.best = mapping_value(size, w, a, self.target)
        self.tol = PRUNE_TOL * float(size.sum())
        self.path = np.zeros(self.m, dtype=np.int64)
        self.seconds = seconds
        self.deadline = time.monotonic() + seconds
        self.nodes = 0
        self.classes = np.arange(self.n)
        self.prices = [slopes(self.size, self.w, self.a, self.target)]
        self.dual = None  # the exact Lagrangian bound's tables (microc_dual)
        self.grid = size_grid(float(size.sum()))

    def _arrange(self, order: np.ndarray) -> None:
        """Place the clusters in ``order``; ``twins[j]``: how many clusters right after
        position j are identical to it (equal s_k and w_k)."""
        self.order = order
        self.s_ord, self.w_ord = self.size[order], self.w[order]
        same = (np.all(self.w_ord[1:] == self.w_ord[:-1], axis=1)
                & (self.s_ord[1:] == self.s_ord[:-1]))
        self.twins = np.zeros(self.m, dtype=np.int64)
        for j in range(self.m - 2, -1, -1):  # a loop over clusters, once per order
            self.twins[j] = self.twins[j + 1] + 1 if same[j] else 0

    def lagrangian(self, root: np.ndarray, until: float) -> np.ndarray:
        """Switch the Lagrangian bound on, its multipliers searched at the root until ``until``
        (:mod:`metrics.measures.typelevel.microc_lagrange`), and place first the clusters
        its relaxed solution splits or leaves out (then by decreasing size, twins together).
        Returns the root's mask in the new order."""
        mu, _, share, found = root_multipliers(self.s_ord, self.w_ord, self.a, root,
                                               self.target[self.order], self.best, self.grid,
                                               until)
        self._keep(found, mapping_value(self.s_ord, self.w_ord, self.a, found))
        whole = (np.abs(share.sum(axis=0) - 1.0) < 1e-6) & (share.max(axis=0) > 1.0 - 1e-6)
        pos = np.lexsort((*self.w_ord.T[::-1], -self.s_ord, whole))
        self._arrange(self.order[pos])
        root = root[pos]
        self.dual, _, _ = column_generation(
            self.s_ord, self.w_ord, self.a, root, mu[pos], self.target[self.order],
            self._round, time.monotonic() + _DUAL_SHARE * self.seconds)
        return root

    def _round(self, rounded: np.ndarray) -> float:
        """Offer the best mapping with the clusters ``rounded`` places (>= 0) moved; the best
        score after."""
        self._offer(0, rounded)
        return self.best

    def run(self, root: np.ndarray) -> float | None:
        """Search from the root until done (None) or the deadline: then the largest bound of
        the open nodes (the root's own when stopped there)."""
        z = np.zeros(self.n)
        try:
            self.visit(0, z, z, root)
        except _Timeout as stop:
            return stop.bound if stop.bound > -np.inf else float(
                self.children(0, z, z, root).max())
        return None

    def prune_classes(self, j: int, s0, w0, mask: np.ndarray) -> None:
        """Remove from ``mask`` the classes no optimum gives a remaining cluster (module
        docstring), until nothing changes."""
        rs, rw, a = self.s_ord[j:, None], self.w_ord[j:], self.a
        low_own = 2.0 * rw * phi(s0 + rs, a)
        peak = np.sqrt(a * (a + rs))  # where S / ((S + |c|)(S + s_k + |c|)) is largest
        count = int(mask.sum())
        while True:
            u = s0 + (mask * rs).sum(axis=0)
            w_hi = w0 + (mask * rw).sum(axis=0)
            u_k = u + rs * ~mask  # the largest S_c with k on c
            # the most the types already on c gain: 2 W (φ(S + s_k) - φ(S)) with W ≤ min(W̄, S)
            # over S in [S⁰, U]; its largest value is at one of these points
            knee = np.minimum(np.maximum(w_hi, s0), u)
            gain = np.zeros_like(rw)
            for at in (s0, u, knee, np.clip(peak, s0, knee)):
                gain = np.maximum(gain, np.minimum(w_hi, at) * (phi(at + rs, a) - phi(at, a)))
            up = 2.0 * rw * phi(u, a) + 2.0 * gain
            lo = low_own + 2.0 * w0 * (phi(u_k, a) - phi(u_k - rs, a))
            mask &= up >= np.where(mask, lo, -np.inf).max(axis=1, keepdims=True) - self.tol
            now = int(mask.sum())
            if now == count:
                return
            count = now

    def _relaxed(self, v0: np.ndarray, v1: np.ndarray) -> np.ndarray:
        """Per child c: Σ over the remaining clusters of their best value, class c valued by
        v1 (the child's own class), the others by v0."""
        top2 = np.argpartition(-v0, 1, axis=1)[:, :2]
        rows = np.arange(v0.shape[0])
        b1, b2 = v0[rows, top2[:, 0]], v0[rows, top2[:, 1]]
        first, second = np.maximum(b1, b2), np.minimum(b1, b2)
        arg1 = np.where(b2 > b1, top2[:, 1], top2[:, 0])
        others = np.where(arg1[:, None] == self.classes[None, :], second[:, None],
                          first[:, None])
        return np.maximum(others, v1).sum(axis=0)

    def children(self, j: int, s0, w0, mask: np.ndarray, prices=None) -> np.ndarray:
        """The bounds of the n children of a node at depth j (cluster order[j] to each c);
        -inf for a class the cluster may not take."""
        a = self.a
        s, wk = self.s_ord[j], self.w_ord[j]
        rest_s, rest_w, rest = self.s_ord[j + 1:, None], self.w_ord[j + 1:], mask[1:]
        left, w_left = (rest * rest_s).sum(axis=0), (rest * rest_w).sum(axis=0)
        s1, w1 = s0 + s, w0 + wk  # child c's own class
        g0, g1 = 2.0 * w0 * phi(s0, a), 2.0 * w1 * phi(s1, a)
        out = g0.sum() - g0 + g1
        if rest_s.size:
            def cut(v):
                return np.where(rest, v, -np.inf)

            def tangent(sx, wx):
                return rest_s * (2.0 * wx * a / (sx + a) ** 2) + rest_w * 2.0 * phi(sx + left, a)

            out = out + self._relaxed(cut(tangent(s0, w0)), cut(tangent(s1, w1)))
            lams = np.array(self.prices if prices is None else prices)
            const, chord = chords(self.a, lams[:, None, :], np.stack((s0, s1)),
                                        np.stack((w0, w1)), left, w_left)
            for lam, k, ch in zip(lams, const, chord, strict=True):
                priced = rest_s * lam
                second = (k[0].sum() - k[0] + k[1]) + self._relaxed(
                    cut(priced + rest_w * ch[0]), cut(priced + rest_w * ch[1]))
                out = np.minimum(out, second)
            if self.dual is not None and np.any(out[mask[0]] > self.best + self.tol):
                out = np.minimum(out, self.dual.children(j, s0, w0, mask[0]))
        return np.where(mask[0], out, -np.inf)

    def root_prices(self, mask: np.ndarray) -> np.ndarray:
        """Prices that lower the root's bound: a coordinate search over factors of each, from
        the best mapping's slopes (a class without any taking a mean one)."""
        z = np.zeros(self.n)
        return lower_prices(self.prices[0],
                            lambda x: float(self.children(0, z, z, mask, [x]).max()), _PRICE_SWEEPS)

    def _offer(self, j: int, rounded: np.ndarray) -> None:
        """Keep the path to depth j completed by ``rounded`` (else the best's) if better."""
        cand = self.target[self.order]
        cand[:j] = self.path[:j]
        cand[j:] = np.where(rounded >= 0, rounded, cand[j:])
        self._keep(cand, mapping_value(self.s_ord, self.w_ord, self.a, cand))

    def _keep(self, cand: np.ndarray, value: float) -> None:
        """Make ``cand`` (in the search's order; Σ_c g_c = ``value``) the best if better."""
        if value > self.best:
            self.best = value
            self.target[self.order] = cand
            self.prices[0] = slopes(self.size, self.w, self.a, self.target)

    def visit(self, j: int, s0, w0, mask: np.ndarray) -> None:
        """Search the node at depth j."""
        self.nodes += 1
        if self.nodes % _CLOCK_EVERY == 0 and time.monotonic() > self.deadline:
            raise _Timeout
        mask = mask.copy()
        self.prune_classes(j, s0, w0, mask)
        bounds = self.children(j, s0, w0, mask)
        if j == self.m - 1:  # the children are leaves: their bound is their value
            self.path[j] = int(np.argmax(bounds))
            self._keep(self.path.copy(), float(bounds[self.path[j]]))
            return
        cand = np.flatnonzero(bounds > self.best + self.tol)
        cand = cand[np.argsort(-bounds[cand], kind="stable")]
        for i, c in enumerate(cand.tolist()):
            if bounds[c] <= self.best + self.tol:
                continue
            self.path[j] = c
            s1, w1 = s0.copy(), w0.copy()
            s1[c] += self.s_ord[j]
            w1[c] += self.w_ord[j, c]
            rest = mask[1:]
            if self.twins[j]:  # its twins take classes >= c (symmetry breaking)
                rest = rest.copy()
                rest[:self.twins[j], :c] = False
            try:
                self.visit(j + 1, s1, w1, rest)
            except _Timeout as stop:
                stop.bound = max(stop.bound, float(bounds[cand[i:]].max()))
                raise


def branch_and_bound(size: np.ndarray, w: np.ndarray, a: np.ndarray, start: np.ndarray,
                     seconds: float) -> Branched:
    """The M-1 mapping of maximal MicroC F when every type has one cluster (module docstring).

    Parameters
    ----------
    size : ndarray of float, shape (m,)
        s_k, the word types of each cluster (all > 0).
    w : ndarray of float, shape (m, n)
        w_kc, the types of cluster k whose gold entry holds class c (w_kc ≤ s_k).
    a : ndarray of float, shape (n,)
        |c|, the types of each class (all > 0); n ≥ 2.
    start : ndarray of int64, shape (m,)
        A mapping to beat (hill climbing's).
    seconds : float
        Time limit; at the limit the best mapping and the open nodes' bound are returned.
        With 0 (or less) no search: the root's bound at the start's prices.

    Returns
    -------
    Branched
    """
    size, w, a = (np.asarray(x, dtype=float) for x in (size, w, a))
    search = _Search(size, w, a, start, seconds)
    n_star = float(size.sum())
    if search.m == 0:
        return Branched(search.target, 0.0, 0.0, True, 0)
    root = np.ones((search.m, search.n), dtype=bool)
    search.prune_classes(0, np.zeros(search.n), np.zeros(search.n), root)
    z = np.zeros(search.n)
    if seconds <= 0:  # the root's bound alone, at the best mapping's prices
        quick = max(float(search.children(0, z, z, root).max()), search.best)
        return Branched(search.target, search.best / n_star, quick / n_star,
                        quick <= search.best + search.tol, 0)
    end = search.deadline
    search.prices.append(search.root_prices(root))
    search.deadline = end - (1.0 - _PLAIN_SHARE) * seconds  # the first phase's share
    bound = search.run(root)
    if bound is not None:  # not finished: again with the Lagrangian bound, the best kept
        search.deadline = end
        root = search.lagrangian(root, time.monotonic() + _ROOT_SHARE * seconds)
        again = search.run(root)
        bound = None if again is None else min(bound, again)
    if bound is None:
        return Branched(search.target, search.best / n_star, search.best / n_star, True,
                        search.nodes)
    return Branched(search.target, search.best / n_star, max(bound, search.best) / n_star,
                    False, search.nodes)
