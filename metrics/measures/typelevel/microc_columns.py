"""Column generation over unions: a bound of MicroC under M-1 that keeps each word type tied to
its clusters within a class (``docs/type-level.md``, the ``ctxkm-*`` runs).

With the quantities of :mod:`metrics.measures.typelevel.microc_union` (one-cluster types summed
per cluster, several-cluster types merged and kept as sets) a set T of clusters sent to class c
reaches S_c(T) types, W_c(T) of them in c, each several-cluster type counted once however many
of its clusters T holds (h(B_i) is a set; Reichart, Abend and Rappoport 2010, §4.1-4.2). With λ
the best score, F ≤ λ for every mapping exactly when Σ_c h_c(T_c) ≤ 0 for every mapping,
h_c(T) = 2 W_c(T) φ_c(S_c(T)) - λ S_c(T) (Dinkelbach's form, as in
:mod:`metrics.measures.typelevel.microc_cover`). Only "each cluster goes to one class" is
dualised (multipliers μ_k):

    Σ_c h_c(T_c) ≤ Σ_k μ_k + Σ_c V_c(μ),   V_c(μ) = max over sets T of h_c(T) - μ(T),

the unions kept exact inside V_c. Its least value over μ is the linear program "give each class
a convex combination of columns (sets of clusters valued h_c(T)), every cluster covered once",
solved as in :mod:`metrics.measures.typelevel.microc_master`: its dual, the cutting-plane model,
by HiGHS within a box around the best multipliers (one model kept across the steps), each
answer priced first by a cheap climb (one cluster added or removed while h_c(T) - μ(T) rises),
then exactly.

**Pricing** V_c(μ) is a branch and bound over the clusters that may pay (:meth:`UnionColumns.gain`
leaves out those whose μ_k is at least the most they can add to h_c), the clusters whose choice
weighs most placed first (the absolute value of what each adds alone, 2 w - μ_k - λ s, plus λ
times its several-cluster types). A node holds the union of
the clusters taken (S⁰, W⁰); a remaining cluster adds at most s_k types and w_k of class c (its
types not yet held) and at least its share of each type not yet held (the type's count divided
by the remaining clusters holding it, the only ones that can bring it, so that the shares of a
type never exceed it). For λ' ≥ 0,
2 W φ_c(S) ≤ ψ(W) + λ' S with ψ(W) = max over S in the node's range of 2 W φ_c(S) - λ' S, convex
and rising in W: below its chord, and h_c - μ(T) becomes a sum over the clusters, the least
over a few λ' bounding the node (five, 5% apart, around the parent node's best: the least is
sharply placed and moves little from a node to its children). A second bound takes the added W
(at most Σ w_k) one range at a time, the chord over that range and an LP knapsack within it. At
its deadline the search returns the largest bound of the nodes left open: any multipliers give a
valid bound.
"""

from __future__ import annotations

from collections.abc import Callable

import numpy as np

from metrics.measures.typelevel.microc_master import _Model

__all__ = ["UnionColumns", "union_columns"]

#: The prices λ' of the node bound, as multiples of λ (of _LAM_LEAST when λ is below it): the
#: bound is the least over them; each node tries its parent's best price times _STEPS (the
#: search's root _ROOT), so the prices follow the sharply placed least (docs/type-level.md).
_STEPS = 0.95 ** np.arange(-2.0, 3.0)
_ROOT, _LAM_LEAST = 0.35, 0.1
_PRICE_RANGE = (0.02, 5.0)
#: Nodes between two looks at the clock in a pricing search, and the nodes at most of one
#: (past them the nodes left open give their bounds: a looser value of the same bound).
_CLOCK_EVERY = 64
NODES = 10**9
#: Moves of the cheap climb, and its rounds before an exact pricing.
_CLIMB = 30
_CHEAP = 5
#: The box's first half-width, its growth after a serious step and shrinking after a null one;
#: a step is serious when the bound falls by _SERIOUS of the model's predicted fall.
_RADIUS, _GROW, _SHRINK, _SERIOUS = 1.0, 2.0, 0.5, 0.1
_PRICES_OUT = 1e-7


def _psi(w, lp, a: float, lo: float, hi):
    """max over σ in [lo, hi] of 2 w σ / (σ + a) - λ' σ (broadcast over w, λ' and hi)."""
    sig = np.clip(np.sqrt(np.maximum(2.0 * w * a / lp, 0.0)) - a, lo, hi)
    return 2.0 * w * sig / np.maximum(sig + a, 1e-300) - lp * sig


class _ClassSearch:
    """The branch and bound of V_c(μ) for one class (module docstring)."""

    def __init__(self, cols: UnionColumns, c: int, mu: np.ndarray, late) -> None:
        self.cand = np.flatnonzero(mu < cols.gain[:, c])
        held = cols.gb[:, self.cand]
        keep = held.any(axis=1)
        self.gb = held[keep].astype(float)
        self.mult = cols.mult[keep]
        self.multw = self.mult * cols.ga[keep, c]
        self.ms, self.mw, self.mu = cols.ms[self.cand], cols.mw[self.cand, c], mu[self.cand]
        self.a, self.lam, self.late = float(cols.a[c]), cols.lam, late
        self.best, self.open, self.nodes, self.stopped = 0.0, -np.inf, 0, False
        self.best_set = np.zeros(self.cand.size, dtype=bool)

    def h(self, big_s: float, big_w: float) -> float:
        return (2.0 * big_w * big_s / (big_s + self.a) if big_s > 0 else 0.0) - self.lam * big_s

    def bound(self, held, s0: float, w0: float, mu0: float, rest: np.ndarray,
              centre: float) -> tuple[float, float]:
        """The least of the two bounds (module docstring) on every completion of the node, over
        the prices ``centre`` times :data:`_STEPS` (multiples of λ), and the price that gave it
        (that of the range giving the bound)."""
        mults = np.clip(centre * _STEPS, *_PRICE_RANGE)
        free = ~held
        g = self.gb[:, rest]
        s_hi = self.ms[rest] + (self.mult * free) @ g
        w_hi = self.mw[rest] + (self.multw * free) @ g
        # a type not held can only come from the remaining clusters: its count shared among them
        s_lo = self.ms[rest] + (self.mult * free / np.maximum(g.sum(axis=1), 1.0)) @ g
        lps = (max(self.lam, _LAM_LEAST) * mults)[:, None]  # any λ' > 0 gives a bound
        coef = lps - self.lam
        w_all, s_max = float(w_hi.sum()), s0 + float(s_hi.sum())
        ends = 2.0 ** np.arange(int(np.log2(max(w_all, 1.0))) + 1)
        lo = np.concatenate(([0.0], ends[ends <= w_all]))
        hi = np.append(lo[1:] - 1.0, w_all)
        lo, hi = np.concatenate(([0.0], lo)), np.concatenate(([w_all], hi))  # first: one range
        p_lo = _psi(w0 + lo, lps, self.a, s0, s_max)
        slope = (_psi(w0 + hi, lps, self.a, s0, s_max) - p_lo) / np.maximum(hi - lo, 1e-12)
        size = np.where(coef > 0, s_hi, s_lo)  # (L, r)
        p = slope[..., None] * w_hi + (coef * size - self.mu[rest])[:, None, :]  # (L, I, r)
        nil = w_hi <= 0
        loose = np.where(nil, np.maximum(p, 0.0), 0.0).sum(axis=-1)
        order = np.argsort(-np.where(nil, -np.inf, p / np.where(nil, 1.0, w_hi)), axis=-1)
        ps = np.take_along_axis(np.where(nil, 0.0, p), order, -1)
        ws = np.where(nil, 0.0, w_hi)[order]
        fill = np.clip(np.where(ps > 0, ws, 0.0).sum(axis=-1), lo, hi)
        before = np.cumsum(ws, axis=-1) - ws
        frac = np.clip((fill[..., None] - before) / np.where(ws > 0, ws, 1.0), 0.0, 1.0)
        knap = np.where(ws.sum(axis=-1) >= lo, (frac * ps).sum(axis=-1) + loose, -np.inf)
        each = p_lo - slope * lo + coef * s0 - mu0 + knap  # (L, I): range 0 the whole one
        least = each[:, 1:].min(axis=0)
        r = int(np.argmax(least))
        if each[:, 0].min() < least[r]:
            return float(each[:, 0].min()), float(mults[np.argmin(each[:, 0])])
        return float(least[r]), float(mults[np.argmin(each[:, 1 + r])])

    def run(self, start: np.ndarray) -> float:
        """V_c(μ) (a bound on it if the clock ran out), the best set in ``best_set``."""
        if self.cand.size == 0:
            return 0.0
        s0, w0 = self._state(start)
        v = self.h(s0, w0) - float(self.mu @ start)
        if v > self.best:
            self.best, self.best_set = v, start.astype(bool)
        score = 2.0 * (self.mw + self.multw @ self.gb) - self.mu - self.lam * self.ms
        # the clusters whose choice weighs most first: |score| plus λ times their
        # several-cluster types (deciding them tightens the shares of the rest)
        weight = np.abs(score) + self.lam * (self.mult @ self.gb)
        self.order = np.argsort(-weight, kind="stable")
        self.taken = np.zeros(self.cand.size, dtype=bool)
        self._visit(0, np.zeros(self.gb.shape[0], dtype=bool), 0.0, 0.0, 0.0, _ROOT)
        return max(self.best, self.open)

    def _state(self, t: np.ndarray) -> tuple[float, float]:
        held = (self.gb @ t) > 0
        return (float(self.ms @ t + self.mult @ held), float(self.mw @ t + self.multw @ held))

    def _visit(self, j: int, held, s0: float, w0: float, mu0: float, centre: float) -> None:
        self.nodes += 1
        v = self.h(s0, w0) - mu0
        if v > self.best + 1e-12:
            self.best, self.best_set = v, self.taken.copy()
        if j == self.order.size:
            return
        b, centre = self.bound(held, s0, w0, mu0, self.order[j:], centre)
        if b <= self.best + 1e-9:
            return
        if self.stopped or self.nodes > NODES or (
                (self.nodes - 1) % _CLOCK_EVERY == 0 and self.late()):
            self.stopped = True  # every node left open from now on gives its bound
            self.open = max(self.open, b)
            return
        k = int(self.order[j])
        col = self.gb[:, k] > 0
        new = col & ~held
        self.taken[k] = True
        self._visit(j + 1, held | col, s0 + self.ms[k] + self.mult @ new,
                    w0 + self.mw[k] + self.multw @ new, mu0 + self.mu[k], centre)
        self.taken[k] = False
        self._visit(j + 1, held, s0, w0, mu0, centre)


class UnionColumns:
    """The sets of clusters of one topic valued with their exact unions, their pricing and a
    cheap climb (module docstring).

    Parameters
    ----------
    ms, mw, gb, ga, mult, a : ndarray
        As :func:`metrics.measures.typelevel.microc_union.union_branch_and_bound`.
    lam : float
        λ, the best score (F units).
    """

    def __init__(self, ms, mw, gb, ga, mult, a, lam: float) -> None:
        self.ms, self.mw, self.mult, self.a = ms, mw, mult, a
        self.gb, self.ga = np.asarray(gb, dtype=bool), np.asarray(ga, dtype=bool)
        self.m, self.n = mw.shape
        self.gbf = self.gb.astype(float)
        self.multw = mult[:, None] * self.ga  # (g, n)
        self.n_min = float(ms.sum() + mult.sum())
        self.at_lam(lam)

    def at_lam(self, lam: float) -> None:
        """Set λ (a better score found: Dinkelbach's step) and the clusters that may pay."""
        ms, mw, a = self.ms, self.mw, self.a
        self.lam = float(lam)
        s_full = ms + self.mult @ self.gbf
        w_full = mw + self.gbf.T @ self.multw
        # the most cluster k adds to h_c: 2 w (its class-c types) plus at most 2 S (φ(S + s) -
        # φ(S)) (W ≤ S), less λ times its one-cluster types (always new); for λ ≥ 1/2 also
        # 2 Δw - (λ - 1/2) Δs, since 2 W φ'(S) ≤ 1/2 (W ≤ min(S, |c|))
        at = np.sqrt(a * (a + s_full[:, None]))
        rise = 2.0 * at * s_full[:, None] * a / ((at + a) * (at + s_full[:, None] + a))
        self.gain = 2.0 * w_full + rise - self.lam * ms[:, None]
        if self.lam >= 0.5:
            other = 2.0 * w_full - (self.lam - 0.5) * (w_full + ms[:, None] - mw)
            self.gain = np.minimum(self.gain, other)

    def sizes(self, c: int, t: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
        """S_c and W_c of the sets ``t`` (0/1, shape (p, m)) of class c."""
        held = (t @ self.gbf.T) > 0
        return t @ self.ms + held @ self.mult, t @ self.mw[:, c] + held @ self.multw[:, c]

    def value(self, c: int, t: np.ndarray) -> np.ndarray:
        """h_c of the sets ``t`` (0/1, shape (p, m))."""
        big_s, big_w = self.sizes(c, t)
        return 2.0 * big_w * big_s / np.maximum(big_s + self.a[c], 1e-300) - self.lam * big_s

    def climb(self, c: int, t: np.ndarray, mu: np.ndarray,
              allowed: np.ndarray | None = None) -> tuple[np.ndarray, float]:
        """From the set ``t``, the best single cluster added or removed while h_c - μ(T) rises
        (every move's change at once), at most :data:`_CLIMB` moves; only clusters
        ``allowed`` (all by default) are added."""
        t = t.astype(bool).copy()
        a, mc, wc = self.a[c], self.mw[:, c], self.multw[:, c]
        for _ in range(_CLIMB):  # a loop over moves, each for every cluster at once
            count = self.gbf @ t
            big_s = float(self.ms @ t + self.mult @ (count > 0))
            big_w = float(mc @ t + wc @ (count > 0))
            new, alone = self.gbf * (count == 0)[:, None], self.gbf * (count == 1)[:, None]
            ds = np.where(t, -(self.ms + self.mult @ alone), self.ms + self.mult @ new)
            dw = np.where(t, -(mc + wc @ alone), mc + wc @ new)
            s2, w2 = big_s + ds, big_w + dw
            here = (2.0 * big_w * big_s / (big_s + a) if big_s else 0.0) - self.lam * big_s
            there = 2.0 * w2 * s2 / np.maximum(s2 + a, 1e-300) - self.lam * s2
            gain = there - here - np.where(t, -mu, mu)
            if allowed is not None:
                gain = np.where(t | allowed, gain, -np.inf)
            k = int(np.argmax(gain))
            if gain[k] <= 1e-9:
                break
            t[k] = not t[k]
        t = t.astype(float)
        return t, float(self.value(c, t[None, :])[0] - mu @ t)

    def price(self, c: int, mu: np.ndarray, late: Callable[[], bool],
              given: np.ndarray | None = None) -> tuple[float, np.ndarray]:
        """V_c(μ) by branch and bound (a bound on it when ``late()`` stops the search) and the
        best set found (0/1, shape (m,)), from the better of the climbs from the empty set and
        from the set ``given`` (e.g. the master's best column of class c at μ)."""
        search = _ClassSearch(self, c, mu, late)
        allowed = np.zeros(self.m, dtype=bool)
        allowed[search.cand] = True
        start, v = self.climb(c, np.zeros(self.m), mu, allowed)
        if given is not None:  # the better of the two climbs starts the search
            other, v2 = self.climb(c, given * allowed, mu, allowed)
            start = other if v2 > v else start
        v = search.run(start[search.cand])
        t = np.zeros(self.m)
        t[search.cand[search.best_set]] = 1.0
        return v, t

    def bound(self, mu: np.ndarray, late: Callable[[], bool],
              cap: Callable[[np.ndarray], np.ndarray] | None = None,
              given: np.ndarray | None = None) -> tuple[float, np.ndarray]:
        """Σ μ + Σ_c V_c(μ) (a bound on Σ_c h_c(T_c) over every mapping) and each class's best
        set, shape (n, m); ``cap(μ)``, other bounds on each V_c(μ), replaces those above it
        (the pricing of a class stopped at its deadline may leave a looser one); ``given``
        (n, m): a set of each class to start its pricing from."""
        sets = np.zeros((self.n, self.m))
        values = np.zeros(self.n)
        for c in range(self.n):  # a loop over classes, each one search
            values[c], sets[c] = self.price(c, mu, late, None if given is None else given[c])
        if cap is not None:
            values = np.minimum(values, cap(mu))
        return float(mu.sum() + values.sum()), sets


def union_columns(inputs, target: np.ndarray, mu: np.ndarray, lam: float,
                  late: Callable[[], bool],
                  offer: Callable[[np.ndarray], float | None] = lambda x: None,
                  cap: Callable[[np.ndarray, float], np.ndarray] | None = None) -> float:
    """A proven upper bound on MicroC F over every M-1 mapping (module docstring): the least
    λ + max(Σ μ + Σ_c V_c(μ), 0) / N*ₘᵢₙ found by column generation from the multipliers ``mu``
    (e.g. those of :mod:`metrics.measures.typelevel.microc_cover`), with λ the score ``lam`` of
    the mapping ``target`` (``inputs`` as
    :func:`metrics.measures.typelevel.microc_union.union_inputs`),
    until ``late()``; each master solution rounded (each cluster to its class of largest share)
    goes to ``offer``, which may return the best score so far: λ then rises to it (the columns'
    values and the model's rows follow; each evaluation's bound holds at its own λ, since
    Σ_c h_c = (F - λ) N* for any λ); ``cap(μ, λ)``, other bounds on each V_c (those of
    :func:`metrics.measures.typelevel.microc_cover.cover_search`), replaces the larger ones.
    Each class's exact pricing starts from its best column at μ."""
    ms, mw, gb, ga, mult, a = inputs
    cols = UnionColumns(ms, mw, gb, ga, mult, a, lam)
    m, n = cols.m, cols.n
    if cols.n_min <= 0 or m == 0:
        return lam
    model = _Model(m, n)
    seen: set[tuple[int, bytes]] = set()
    sets: list[np.ndarray] = []
    cls: list[int] = []

    def add(c: int, t: np.ndarray) -> None:
        key = (c, np.packbits(t.astype(bool)).tobytes())
        if key not in seen:
            seen.add(key)
            sets.append(t)
            cls.append(c)
            model.add(t[None, :], np.array([c]), cols.value(c, t[None, :]))

    f_bound = np.inf

    def values(of: np.ndarray, t: np.ndarray) -> np.ndarray:
        """h_c(T) at the present λ of the columns ``t`` (0/1, shape (k, m)) of classes ``of``."""
        out = np.zeros(of.size)
        for c in np.unique(of).tolist():  # a loop over classes, each over its columns
            out[of == c] = cols.value(c, t[of == c])
        return out

    def evaluate(at: np.ndarray) -> float:
        """Σ μ + Σ_c V_c(μ) at ``at`` and the present λ (each class's pricing from its best
        column there); its sets become columns and its bound on F is kept."""
        nonlocal f_bound
        of, t = np.array(cls), np.array(sets)
        gain = values(of, t) - t @ at
        given = np.zeros((n, m))
        for c in range(n):  # a loop over classes
            mine = np.flatnonzero(of == c)
            if mine.size:
                given[c] = t[mine[np.argmax(gain[mine])]]
        capped = None if cap is None else (lambda x: cap(x, cols.lam))
        value, found = cols.bound(at, late, capped, given)
        for c in range(n):
            add(c, found[c])
        f_bound = min(f_bound, cols.lam + max(value, 0.0) / cols.n_min)
        return value

    for c in range(n):
        add(c, (target == c).astype(float))
        add(c, np.zeros(m))
    best = evaluate(mu)
    center, radius, cheap = mu, _RADIUS, 0
    while best > 0 and f_bound > cols.lam and not late():
        low, at, pi, weight = model.solve(center, radius)
        drop = best - low
        if not (1e-9 < drop < np.inf):  # the centre minimises the model, or HiGHS failed
            break
        used = np.flatnonzero(weight > 1e-9)
        share = np.zeros((n, m))
        np.add.at(share, np.array(cls)[used], np.array(sets)[used] * weight[used, None])
        score = offer(share.argmax(axis=0))
        if score is not None and score > cols.lam + 1e-12:  # Dinkelbach's step: a new λ
            cols.at_lam(score)  # the centre's bound still holds (V_c falls as λ rises)
            model.lower(values(np.array(cls), np.array(sets)))
            cheap = 0
            continue
        if cheap < _CHEAP:
            more = 0
            starts = [(cls[i], sets[i]) for i in used.tolist()]
            for c, t in starts + [(c, np.zeros(m)) for c in range(n)]:  # a loop over columns
                t2, v = cols.climb(c, t, at)
                if v - pi[c] > _PRICES_OUT and (c, np.packbits(t2.astype(bool)).tobytes()) \
                        not in seen:
                    add(c, t2)
                    more += 1
            if more:
                cheap += 1
                continue
        cheap = 0
        value = evaluate(at)
        if value <= best - _SERIOUS * drop:
            best, center, radius = value, at, radius * _GROW
        else:
            radius *= _SHRINK
    return float(f_bound)
