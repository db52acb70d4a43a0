"""Branch and bound for the many-to-one mapping that maximises MicroC when word types may sit in
several clusters (``docs/type-level.md``, the ``ctxkm-*`` runs).

MicroC F = Σ_c g_c(S_c, W_c) / N* with g_c(S, W) = 2 W φ_c(S), φ_c(S) = S / (S + |c|),
S_c = |z_c| the types reaching class c, W_c = |z_c ∩ c| and N* = Σ_c S_c (Reichart, Abend and
Rappoport 2010, §4.2). A type with one cluster is counted in its cluster's constants (m_k types,
mw_kc of them with c in their gold entry); a type with several clusters reaches c once however
many of its clusters go to c (h(B_i) is a set, §4.1), so S_c and W_c are sizes of unions and
N* = Σ_i |h(B_i)| depends on the mapping. Identical such types (same clusters, same gold entry)
are merged with their multiplicity.

The search places the clusters in decreasing size, depth first, children in decreasing bound.
A node holds, per class c, the union z⁰_c of the placed clusters sent to c (S⁰_c, W⁰_c, and
which several-cluster types it holds). For a remaining cluster k, s_kc and w_kc count the types
of k not yet in z⁰_c (and those of them in class c): whatever else goes to c, k adds at most
that much (a union is at most the sum of its parts). U_c and W̄_c are the sizes of z⁰_c united
with every remaining cluster (exact unions). With T the remaining clusters sent to c,
S_c - S⁰_c ≤ Σ_T s_kc and W_c - W⁰_c ≤ Σ_T w_kc, so the two bounds of the one-cluster search
(:mod:`metrics.measures.typelevel.microc_branch`) carry over, each a sum over the remaining
clusters of their best class:

* **tangent**: g_c ≤ 2 W⁰_c [φ_c(S⁰_c) + φ_c'(S⁰_c)(S_c - S⁰_c)] + 2 (W_c - W⁰_c) φ_c(U_c);
* **prices** λ_c ≥ 0: g_c ≤ ψ_c(W_c) + λ_c S_c with ψ_c convex, below its chord over
  [W⁰_c, W̄_c] (:func:`metrics.measures.typelevel.microc_prices.chords`); the prices are the
  slopes ∂g_c/∂S of the best mapping, and prices that lower the root's bound.

N* is at least the placed unions plus the types no placed cluster holds (each reaches at least
one class), so F ≤ (bound on Σ_c g_c) / (that N*). A node whose bound is not above the best
score by more than :data:`PRUNE_TOL` is cut; a search that ends is exact. The clock is the
process's CPU time (the machine is shared).
"""

from __future__ import annotations

import time
from typing import NamedTuple

import numpy as np

from metrics.measures.typelevel import exact_many_to_one as _exact
from metrics.measures.typelevel.microc_branch import Branched
from metrics.measures.typelevel.microc_columns import union_columns
from metrics.measures.typelevel.microc_cover import cover_search
from metrics.measures.typelevel.microc_prices import chords, lower_prices, phi

__all__ = ["union_branch_and_bound", "union_value", "union_inputs",
           "search_then_program", "Searched", "PRUNE_TOL", "SEARCH_SHARE", "SEARCH_ALONE",
           "COVER_SHARE", "COLUMNS_SHARE", "PROGRAM_LEAST", "COVER_ALONE",
           "COLUMNS_MAX_CLUSTERS"]

#: A node is cut when its bound exceeds the best score by at most this (F units).
PRUNE_TOL = 1e-9
#: The share of the time limit the search takes on topics the column generation runs on
#: (SEARCH_ALONE on the others); the bounds after it, then the integer program, have the rest
#: when the search does not end.
SEARCH_SHARE = 0.1
SEARCH_ALONE = 0.3
#: The share of the time the Lagrangian bound over unions may take after an open search
#: (:func:`metrics.measures.typelevel.microc_cover.cover_search`), and when the column generation
#: does not run.
COVER_SHARE = 0.2
COVER_ALONE = 0.5
#: The share of the time the column generation over unions may take after it, from its
#: multipliers (:func:`metrics.measures.typelevel.microc_columns.union_columns`); the
#: program has the rest, if at least PROGRAM_LEAST of the time (its model alone takes longer).
COLUMNS_SHARE = 0.7
PROGRAM_LEAST = 0.05
#: The column generation runs on topics of at most this many clusters: beyond, the pricing of
#: the largest class did not end within its share (``ctxkm-100``, 76-92 clusters), and the
#: bound over unions gains more from the time.
COLUMNS_MAX_CLUSTERS = 60
#: Nodes between two looks at the clock.
_CLOCK_EVERY = 8
#: Sweeps of the search for the root's prices (:func:`microc_prices.lower_prices`).
_PRICE_SWEEPS = 3


def _unions(ms, mw, gb, ga, mult, a, target) -> tuple[np.ndarray, np.ndarray]:
    """S_c and W_c of the mapping ``target``: the one-cluster types summed, each several-cluster
    type counted once in every class it reaches."""
    n = a.size
    s = np.bincount(target, weights=ms, minlength=n)
    w = np.bincount(target, weights=mw[np.arange(ms.size), target], minlength=n)
    reach = np.zeros((gb.shape[0], n), dtype=bool)
    gj, gk = np.nonzero(gb)
    reach[gj, target[gk]] = True
    return s + mult @ reach, w + mult @ (reach & ga)


def union_value(ms, mw, gb, ga, mult, a, target) -> float:
    """MicroC F of the mapping ``target`` (cluster -> class) from the aggregated quantities of
    :func:`union_branch_and_bound` (module docstring)."""
    s, w = _unions(ms, mw, gb, ga, mult, a, target)
    total = float(s.sum())
    return float((2.0 * w * phi(s, a)).sum() / total) if total > 0 else 0.0


class Searched(NamedTuple):
    """The result of :func:`search_then_program`: the best mapping of either route, the smaller
    of their proven bounds on F, whether the mapping is proven optimal, and the route that
    proved it (``branch and bound`` or ``integer program``)."""

    target: np.ndarray
    bound: float
    proven: bool
    method: str


class _Timeout(Exception):
    """The time limit passed; ``bound`` collects the bounds of the open nodes."""

    def __init__(self) -> None:
        super().__init__("time limit")
        self.bound = -np.inf


class _Search:
    """The state of one search (module docstring); clusters in the search's order."""

    def __init__(self, ms, mw, gb, ga, mult, a, start, seconds, clock) -> None:
        self.a, self.mult = a, mult
        self.m, self.n = mw.shape
        self.order = np.argsort(-(ms + mult @ gb), kind="stable")
        self.ms, self.mw = ms[self.order], mw[self.order]
        self.gb = gb[:, self.order]
        self.ga = ga.astype(float)
        self.gbm = self.gb * mult[:, None]  # (groups, clusters) weighted by multiplicity
        self.ms_after = np.concatenate((np.cumsum(self.ms[::-1])[::-1][1:], [0.0]))
        # reach_after[:, j]: the groups some cluster after position j holds (by multiplicity)
        held = np.flip(np.cumsum(np.flip(self.gb, axis=1), axis=1), axis=1)  # clusters j..
        held = np.concatenate((held[:, 1:], np.zeros((gb.shape[0], 1))), axis=1)
        self.reach_after = (held > 0) * mult[:, None]
        self.raw = (ms, mw, gb, ga, mult, a)
        self.target = np.asarray(start, dtype=np.int64).copy()
        self.best = union_value(*self.raw, self.target)
        self.path = np.zeros(self.m, dtype=np.int64)
        self.clock = clock
        self.deadline = clock() + seconds
        self.nodes = 0
        self.classes = np.arange(self.n)
        self.prices = [self.slopes()]

    def slopes(self) -> np.ndarray:
        """∂g_c/∂S = 2 W_c |c| / (S_c + |c|)² at the best mapping."""
        s, w = _unions(*self.raw, self.target)
        return 2.0 * w * self.a / (s + self.a) ** 2

    def _relaxed(self, v0: np.ndarray, v1: np.ndarray) -> np.ndarray:
        """Per child c: Σ over the remaining clusters of their best value, class c valued by
        v1 (the child's own class), the others by v0."""
        if self.n == 1:
            return v1.sum(axis=0)
        top2 = np.argpartition(-v0, 1, axis=1)[:, :2]
        rows = np.arange(v0.shape[0])
        b1, b2 = v0[rows, top2[:, 0]], v0[rows, top2[:, 1]]
        first, second = np.maximum(b1, b2), np.minimum(b1, b2)
        arg1 = np.where(b2 > b1, top2[:, 1], top2[:, 0])
        others = np.where(arg1[:, None] == self.classes[None, :], second[:, None],
                          first[:, None])
        return np.maximum(others, v1).sum(axis=0)

    def children(self, j: int, s0, w0, z: np.ndarray, prices=None) -> np.ndarray:
        """The bounds on F of the n children of a node at depth j (cluster j to each class);
        ``z`` (groups, classes): the several-cluster types the placed unions hold."""
        a, ga = self.a, self.ga
        gj = self.gb[:, j]
        free0 = ~z
        free1 = ~(z | gj[:, None])  # column c: the child that sends j to c
        gjm = self.mult * gj
        s_j = self.ms[j] + gjm @ free0
        w_j = self.mw[j] + gjm @ (ga * free0)
        s1, w1 = s0 + s_j, w0 + w_j
        g0, g1 = 2.0 * w0 * phi(s0, a), 2.0 * w1 * phi(s1, a)
        out = g0.sum() - g0 + g1
        reach = self.reach_after[:, j]
        uncovered = float(self.mult @ ~(z.any(axis=1) | gj))
        n_low = s0.sum() + s_j + self.ms_after[j] + uncovered
        if j + 1 < self.m:
            gr = self.gbm[:, j + 1:].T
            rest_s, rest_w = self.ms[j + 1:, None], self.mw[j + 1:]
            sp, wp = rest_s + gr @ free0, rest_w + gr @ (ga * free0)
            sc, wc = rest_s + gr @ free1, rest_w + gr @ (ga * free1)
            left0 = self.ms_after[j] + reach @ free0
            left1 = self.ms_after[j] + reach @ free1
            wl0 = self.mw[j + 1:].sum(axis=0) + reach @ (ga * free0)
            wl1 = self.mw[j + 1:].sum(axis=0) + reach @ (ga * free1)
            u0, u1 = s0 + left0, s1 + left1
            out = out + self._relaxed(sp * (2.0 * w0 * a / (s0 + a) ** 2) + wp * 2.0 * phi(u0, a),
                                      sc * (2.0 * w1 * a / (s1 + a) ** 2) + wc * 2.0 * phi(u1, a))
            lams = np.array(self.prices if prices is None else prices)
            const, chord = chords(a, lams[:, None, :], np.stack((s0, s1)), np.stack((w0, w1)),
                                  np.stack((left0, left1)), np.stack((wl0, wl1)))
            for lam, k, ch in zip(lams, const, chord, strict=True):
                second = (k[0].sum() - k[0] + k[1]) + self._relaxed(sp * lam + wp * ch[0],
                                                                    sc * lam + wc * ch[1])
                out = np.minimum(out, second)
        return out / n_low

    def root_prices(self) -> np.ndarray:
        """Prices that lower the root's bound: a coordinate search over factors of each, from
        the best mapping's slopes (a class without any taking a mean one)."""
        z0, zg = np.zeros(self.n), np.zeros((self.gb.shape[0], self.n), dtype=bool)
        return lower_prices(self.prices[0],
                            lambda x: float(self.children(0, z0, z0, zg, [x]).max()),
                            _PRICE_SWEEPS, lambda: self.clock() > self.deadline)

    def visit(self, j: int, s0, w0, z: np.ndarray) -> None:
        """Search the node at depth j (clusters before j placed: ``path``)."""
        self.nodes += 1
        if self.nodes % _CLOCK_EVERY == 0 and self.clock() > self.deadline:
            raise _Timeout
        bounds = self.children(j, s0, w0, z)
        if j == self.m - 1:  # the children are leaves: their bound is their value
            c = int(np.argmax(bounds))
            if bounds[c] > self.best:
                self.path[j] = c
                self.best = float(bounds[c])
                self.target[self.order] = self.path
                self.prices[0] = self.slopes()
            return
        cand = np.flatnonzero(bounds > self.best + PRUNE_TOL)
        cand = cand[np.argsort(-bounds[cand], kind="stable")]
        gj = self.gb[:, j]
        for i, c in enumerate(cand.tolist()):
            if bounds[c] <= self.best + PRUNE_TOL:
                continue
            self.path[j] = c
            free = ~z[:, c]
            s1, w1, z1 = s0.copy(), w0.copy(), z.copy()
            new = self.mult * (gj & free)
            s1[c] += self.ms[j] + new.sum()
            w1[c] += self.mw[j, c] + new @ self.ga[:, c]
            z1[:, c] |= gj
            try:
                self.visit(j + 1, s1, w1, z1)
            except _Timeout as stop:
                stop.bound = max(stop.bound, float(bounds[cand[i:]].max()))
                raise


def union_branch_and_bound(ms: np.ndarray, mw: np.ndarray, gb: np.ndarray, ga: np.ndarray,
                           mult: np.ndarray, a: np.ndarray, start: np.ndarray, seconds: float,
                           clock=None) -> Branched:
    """The M-1 mapping of maximal MicroC F when types may sit in several clusters (module
    docstring).

    Parameters
    ----------
    ms : ndarray of float, shape (m,)
        The types of each cluster that sit in no other cluster.
    mw : ndarray of float, shape (m, n)
        Those of them whose gold entry holds class c.
    gb : ndarray of bool, shape (g, m)
        The clusters of each merged several-cluster type (two or more each).
    ga : ndarray of bool, shape (g, n)
        Its gold entry.
    mult : ndarray of float, shape (g,)
        How many types it stands for.
    a : ndarray of float, shape (n,)
        |c|, the types of each class (all > 0); n ≥ 1.
    start : ndarray of int64, shape (m,)
        A mapping to beat (hill climbing's).
    seconds : float
        Time limit on ``clock`` (a function of no argument, default ``time.monotonic``); at
        the limit the best mapping and the open nodes' bound are returned.

    Returns
    -------
    Branched
    """
    ms, mw, mult, a = (np.asarray(x, dtype=float) for x in (ms, mw, mult, a))
    gb, ga = np.asarray(gb, dtype=bool), np.asarray(ga, dtype=bool)
    search = _Search(ms, mw, gb, ga, mult, a, start, seconds, clock or time.monotonic)
    if search.m == 0:
        return Branched(search.target, search.best, search.best, True, 0)
    search.prices.append(search.root_prices())
    z0 = np.zeros(search.n)
    zg = np.zeros((gb.shape[0], search.n), dtype=bool)
    try:
        search.visit(0, z0, z0, zg)
    except _Timeout as stop:
        bound = stop.bound if stop.bound > -np.inf else float(
            search.children(0, z0, z0, zg).max())
        return Branched(search.target, search.best, max(bound, search.best), False,
                             search.nodes)
    return Branched(search.target, search.best, search.best, True, search.nodes)


def union_inputs(t) -> tuple[np.ndarray, np.ndarray, np.ndarray, np.ndarray, np.ndarray,
                             np.ndarray]:
    """The arguments ``ms, mw, gb, ga, mult, a`` of :func:`union_branch_and_bound` from the
    per-topic tables ``t`` of :mod:`metrics.measures.typelevel.type_scores`."""
    e, a = t.e, t.a_dense
    m, n = e.n_clusters, e.n_classes
    b_size = np.bincount(e.b_type, minlength=e.n_types)
    mono = b_size[e.b_type] == 1
    mk, mt = e.b_cluster[mono], e.b_type[mono]
    ms = np.bincount(mk, minlength=m).astype(float)
    mw = np.zeros((m, n))
    np.add.at(mw, mk, a[mt].astype(float))
    poly = np.flatnonzero(b_size >= 2)
    pos = np.full(e.n_types, -1)
    pos[poly] = np.arange(poly.size)
    sel = pos[e.b_type] >= 0
    rows_b = np.zeros((poly.size, m), dtype=bool)
    rows_b[pos[e.b_type[sel]], e.b_cluster[sel]] = True
    sig = np.concatenate((rows_b, a[poly]), axis=1)
    uniq, mult = np.unique(sig, axis=0, return_counts=True)  # identical types merged
    return ms, mw, uniq[:, :m], uniq[:, m:], mult.astype(float), t.class_size.astype(float)


def search_then_program(t, start: np.ndarray, seconds: float) -> Searched:
    """MicroC's M-1 mapping when types may sit in several clusters: the search for
    :data:`SEARCH_SHARE` of ``seconds`` (:data:`SEARCH_ALONE` on topics of more than
    :data:`COLUMNS_MAX_CLUSTERS` clusters); if it did not end, the Lagrangian bound over unions
    (:mod:`metrics.measures.typelevel.microc_cover`, a type counted once per class) for
    :data:`COVER_SHARE`, its rounded solutions offered as mappings (it proves the best one
    optimal when the bound reaches its score); if still open, the column generation over
    unions (:mod:`metrics.measures.typelevel.microc_columns`, each type tied to its clusters
    within a class) from its multipliers for :data:`COLUMNS_SHARE`, its master solutions
    offered too (on topics of at most :data:`COLUMNS_MAX_CLUSTERS` clusters; on the others the
    bound over unions has :data:`COVER_ALONE`); if still open, the integer program of
    :mod:`metrics.measures.typelevel.exact_many_to_one` from the best mapping for the rest
    (when at least :data:`PROGRAM_LEAST` of ``seconds`` is left).

    Returns
    -------
    Searched
    """
    end = time.monotonic() + seconds
    inputs = union_inputs(t)
    target, value, bound = start, t.value("microc", start), np.inf
    # a class without types (never in a campaign's topics, whose codes are those present)
    # leaves φ undefined at 0: the program alone then
    columns = inputs[1].shape[0] <= COLUMNS_MAX_CLUSTERS
    if np.all(inputs[-1] > 0):
        found = union_branch_and_bound(*inputs, start,
                                       (SEARCH_SHARE if columns else SEARCH_ALONE) * seconds)
        if found.proven:
            return Searched(found.target, found.value, True, "branch and bound")
        target, value = found.target, found.value

        def offer(cand: np.ndarray) -> float:
            nonlocal target, value
            score = union_value(*inputs, cand)
            if score > value:
                target, value = cand.copy(), score
            return value

        stop = time.monotonic() + (COVER_SHARE if columns else COVER_ALONE) * seconds
        cover, mu, cap = cover_search(inputs, found.target, found.value,
                                      lambda: time.monotonic() > stop, offer)
        bound = min(found.bound, cover)
        if value >= bound - _exact.EXACT_TOL:
            return Searched(target, value, True, "branch and bound")
        if columns:
            stop = time.monotonic() + COLUMNS_SHARE * seconds
            bound = min(bound, union_columns(inputs, target, mu, value,
                                             lambda: time.monotonic() > stop, offer, cap))
            if value >= bound - _exact.EXACT_TOL:
                return Searched(target, value, True, "branch and bound")
        if end - time.monotonic() < PROGRAM_LEAST * seconds:
            return Searched(target, bound, False, "branch and bound")
    solved = _exact.solve(t, "microc", target, max(end - time.monotonic(), 0.01))
    if np.isfinite(solved.bound):
        bound = min(bound, solved.bound)
    if t.value("microc", solved.target) >= value:
        target, value = solved.target, t.value("microc", solved.target)
    proven = solved.proven or value >= bound - _exact.EXACT_TOL
    return Searched(target, bound if np.isfinite(bound) else np.nan, proven, "integer program")
