"""Reliability and Sensitivity of document organisations, without the pairs.

Amigó, Gonzalo, Verdejo, "A general evaluation measure for document organization tasks",
SIGIR 2013, §3; the definitions, in the project's words, are in ``docs/organisation.md``.

An output (a run X or the gold G) puts *occurrences* (item, cluster) of a topic's items on
priority levels 1, 2, ... (1 = highest), optionally followed by an unlimited tail. Relations:

* priority: o ≻ o' when o lies on a higher level than o', or o is prioritised and o' is in
  the tail;
* relatedness: o ∼ o' when both lie in the same cluster (o' = o included, as in BCubed).

For a relation r(d, d') of X between items d and d', P(r ∈ G) = min(1, |r in G| / |r in X|),
|r in A| being the number of occurrence pairs of d and d' that state r in A (a tail item counts
as one occurrence below every level). Then, with the weights w of
:mod:`metrics.measures.organisation.weights` (the tail of X is one element of weight w_T):

    R(o) = Σ_{o' related to o in X} w(o') P(r(o, o') ∈ G) / Σ_{o' related to o in X} w(o')
    R    = Σ_e w(e) R(e) / Σ_e w(e)      over the elements e of X that have a relation

and S is the same with X and G swapped. "priority", "relatedness" and both together differ only
in which relations count. An output that states no relation of a kind scores 0 on it.

How it avoids the pairs
-----------------------
For items with one occurrence on each side (every item of a flat clustering, a ranking, a
filtering), P is 1 or 0 and the priority numerator of o is a two-dimensional dominance sum:
the weight of the occurrences o' with ℓ_X(o') > ℓ_X(o) and ℓ_G(o') > ℓ_G(o), plus those below on
both. It is computed with one sort and prefix sums per distinct level of the side with fewer
levels (the gold of a TREC campaign: 4), vectorised over every (run, topic) at once; the
relatedness numerator is a count per (cluster, class) cell. Only pairs involving an item with
several occurrences (overlap) are enumerated, topic by topic.
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np

from metrics.measures.organisation._sorted import unique_int
from metrics.measures.organisation.weights import DEFAULT_N, DEFAULT_W, level_weights

__all__ = ["Side", "RSScores", "reliability_sensitivity", "directional"]

KINDS = ("priority", "relatedness", "both")


@dataclass(frozen=True)
class Side:
    """The prioritised occurrences of one output, over many (run, topic) groups.

    Attributes
    ----------
    topic : ndarray of int64, shape (n_occ,)
        Group (topic) of each occurrence.
    item : ndarray of int64, shape (n_occ,)
        Item index; an item belongs to one group.
    level : ndarray of int64, shape (n_occ,)
        Priority level, >= 1.
    cluster : ndarray of int64, shape (n_occ,)
        Cluster code, unique per (group, level, cluster); -1 for an output without clusters.
    override : ndarray of float64, shape (n_occ,), or None
        A fixed per-occurrence score (missing items under ``penalize``), NaN where none.
    """

    topic: np.ndarray
    item: np.ndarray
    level: np.ndarray
    cluster: np.ndarray
    override: np.ndarray | None = None


@dataclass(frozen=True)
class RSScores:
    """Per-topic Reliability and Sensitivity for the three kinds of relation.

    Attributes
    ----------
    reliability, sensitivity : dict of str to ndarray, shape (n_groups,)
        Keyed ``"priority"``, ``"relatedness"``, ``"both"``.
    """

    reliability: dict
    sensitivity: dict


def _dense(x: np.ndarray) -> np.ndarray:
    return unique_int(x, return_inverse=True)[1].astype(np.int64)


def _dominance(t: np.ndarray, a: np.ndarray, b: np.ndarray, w: np.ndarray
               ) -> tuple[np.ndarray, np.ndarray]:
    """For every point q: Σ w_p over points p of its group with a_p > a_q and b_p > b_q, and
    the same with a_p < a_q and b_p < b_q. One pass per distinct value of the coordinate with
    fewer values (the sum is symmetric in a and b)."""
    gt = np.zeros(t.size)
    lt = np.zeros(t.size)
    if t.size == 0:
        return gt, lt
    a, b = _dense(a), _dense(b)
    if a.max() < b.max():
        a, b = b, a
    width = int(a.max()) + 2
    key = t * width + a
    start = t * width
    for v in range(int(b.max()) + 1):
        sel = b == v
        if not sel.any():
            continue
        order = np.argsort(key[sel], kind="stable")
        kp = key[sel][order]
        cw = np.concatenate(([0.0], np.cumsum(w[sel][order])))
        above = b < v
        if above.any():
            gt[above] += (cw[np.searchsorted(kp, start[above] + width, "left")]
                          - cw[np.searchsorted(kp, key[above], "right")])
        below = b > v
        if below.any():
            lt[below] += (cw[np.searchsorted(kp, key[below], "left")]
                          - cw[np.searchsorted(kp, start[below], "left")])
    return gt, lt


def _pair_table(side: Side, rows: np.ndarray, is_multi: np.ndarray, n_items: int):
    """Ordered item pairs (d, d') of ``rows`` with a multi-occurrence item among them: the
    number of occurrence pairs with ℓ(d) < ℓ(d') and the number of shared clusters."""
    m = rows[is_multi[side.item[rows]]]
    s = rows[~is_multi[side.item[rows]]]
    p = np.concatenate((np.repeat(m, rows.size), np.repeat(s, m.size)))
    q = np.concatenate((np.tile(rows, m.size), np.tile(m, s.size)))
    keys = side.item[p] * n_items + side.item[q]
    lt = (side.level[p] < side.level[q]).astype(np.float64)
    sh = ((side.cluster[p] == side.cluster[q]) & (side.cluster[p] >= 0)).astype(np.float64)
    uk, inv = unique_int(keys, return_inverse=True)
    return p, q, keys, uk, np.bincount(inv, lt, uk.size), np.bincount(inv, sh, uk.size)


def _lookup(uk: np.ndarray, values: np.ndarray, keys: np.ndarray) -> np.ndarray:
    if uk.size == 0:
        return np.zeros(keys.size)
    pos = np.minimum(np.searchsorted(uk, keys), uk.size - 1)
    return np.where(uk[pos] == keys, values[pos], 0.0)


def directional(own: Side, other: Side, n_items: int, n_groups: int, tail: bool,
                n: float = DEFAULT_N, w: float = DEFAULT_W) -> dict:
    """Precision of ``own``'s relations with respect to ``other``, per group and kind.

    ``directional(X, G)`` is Reliability, ``directional(G, X)`` Sensitivity (weights of the
    first argument). Returns a dict kind -> ndarray (n_groups,).
    """
    wts = level_weights(own.topic, own.level, n_groups, tail, n, w)
    wo, w_tail = wts.occurrence, wts.tail
    occ_own = np.bincount(own.item, minlength=n_items)
    occ_oth = np.bincount(other.item, minlength=n_items)
    is_multi = (occ_own > 1) | (occ_oth > 1)
    inf = int(max(own.level.max(initial=0), other.level.max(initial=0))) + 1
    oth_level = np.full(n_items, inf, dtype=np.int64)
    oth_level[other.item] = other.level
    oth_cluster = np.full(n_items, -1, dtype=np.int64)
    oth_cluster[other.item] = other.cluster

    n_occ = own.item.size
    num_p = np.zeros(n_occ)
    num_r = np.zeros(n_occ)
    single = ~is_multi[own.item]

    # priority, items with one occurrence on each side: dominance sums
    idx = np.flatnonzero(single)
    gt, lt = _dominance(own.topic[idx], own.level[idx], oth_level[own.item[idx]], wo[idx])
    num_p[idx] += gt + lt
    # priority with the tail: o ≻ t holds in the other output as often as d is prioritised there
    p_tail = np.minimum(1.0, occ_oth[own.item] / np.maximum(occ_own[own.item], 1))
    if tail:
        num_p += w_tail[own.topic] * p_tail
    group_total = np.bincount(own.topic, wo, n_groups) + w_tail
    den_p = group_total[own.topic] - wts.level_total
    den_p[den_p < 1e-12] = 0.0

    # relatedness, single items: same cluster here and same cluster there
    clustered = own.cluster >= 0
    den_r = np.zeros(n_occ)
    if clustered.any():
        size = np.bincount(own.cluster[clustered])
        den_r[clustered] = wo[clustered] * size[own.cluster[clustered]]
        sel = np.flatnonzero(single & clustered & (oth_cluster[own.item] >= 0))
        if sel.size:
            cell = own.cluster[sel] * (int(oth_cluster.max()) + 1) + oth_cluster[own.item[sel]]
            _, inv, cnt = unique_int(cell, return_inverse=True, return_counts=True)
            num_r[sel] += wo[sel] * cnt[inv]

    # pairs involving an item with several occurrences (overlap): enumerated per group
    multi_groups = unique_int(own.topic[~single])
    if multi_groups.size:
        o_order = np.argsort(own.topic, kind="stable")
        o_bounds = np.searchsorted(own.topic[o_order], np.arange(n_groups + 1))
        t_order = np.argsort(other.topic, kind="stable")
        t_bounds = np.searchsorted(other.topic[t_order], np.arange(n_groups + 1))
        for g in multi_groups:
            rows = o_order[o_bounds[g]:o_bounds[g + 1]]
            p, q, keys, uk_a, lt_a, sh_a = _pair_table(own, rows, is_multi, n_items)
            orows = t_order[t_bounds[g]:t_bounds[g + 1]]
            _, _, _, uk_b, lt_b, sh_b = _pair_table(other, orows, is_multi, n_items)
            d, d2 = own.item[p], own.item[q]
            rev = d2 * n_items + d

            def in_other(k, first, second, uk_b=uk_b, lt_b=lt_b):
                # |first ≻ second| in the other output; an item it does not list is in its tail
                v = _lookup(uk_b, lt_b, k)
                if tail:
                    v = np.where((occ_oth[second] == 0) & (occ_oth[first] > 0),
                                 occ_oth[first], v)
                return v

            lp, lq = own.level[p], own.level[q]
            fwd = lp < lq
            bwd = lp > lq
            prob = np.zeros(p.size)
            prob[fwd] = np.minimum(1.0, in_other(keys[fwd], d[fwd], d2[fwd])
                                   / _lookup(uk_a, lt_a, keys[fwd]))
            prob[bwd] = np.minimum(1.0, in_other(rev[bwd], d2[bwd], d[bwd])
                                   / _lookup(uk_a, lt_a, rev[bwd]))
            num_p += np.bincount(p, wo[q] * prob, n_occ)
            same = (own.cluster[p] == own.cluster[q]) & (own.cluster[p] >= 0)
            rel = np.minimum(1.0, _lookup(uk_b, sh_b, keys[same]) / _lookup(uk_a, sh_a, keys[same]))
            num_r += np.bincount(p[same], wo[q[same]] * rel, n_occ)

    # the tail as an element: related to every prioritised occurrence
    tail_num = np.bincount(own.topic, wo * p_tail, n_groups) if tail else np.zeros(n_groups)
    tail_den = np.bincount(own.topic, wo, n_groups) if tail else np.zeros(n_groups)
    tail_has = tail_den > 1e-300
    tail_val = np.divide(tail_num, tail_den, out=np.zeros(n_groups), where=tail_has)

    fixed = None if own.override is None else ~np.isnan(own.override)
    out = {}
    for kind, num, den, with_tail in (("priority", num_p, den_p, True),
                                      ("relatedness", num_r, den_r, False),
                                      ("both", num_p + num_r, den_p + den_r, True)):
        has = den > 0
        ratio = np.divide(num, den, out=np.zeros(n_occ), where=has)
        if fixed is not None and own.override is not None:  # a fixed score replaces the
            # computed one where relations exist
            ratio = np.where(fixed & has, own.override, ratio)
        total = np.bincount(own.topic[has], wo[has] * ratio[has], n_groups)
        norm = np.bincount(own.topic[has], wo[has], n_groups)
        if with_tail and tail:
            total = total + np.where(tail_has, w_tail * tail_val, 0.0)
            norm = norm + np.where(tail_has, w_tail, 0.0)
        out[kind] = np.divide(total, norm, out=np.zeros(n_groups), where=norm > 0)
    return out


def reliability_sensitivity(run: Side, gold: Side, n_items: int, n_groups: int, tail: bool,
                            n: float = DEFAULT_N, w: float = DEFAULT_W) -> RSScores:
    """Reliability (run against gold) and Sensitivity (gold against run), per group."""
    return RSScores(directional(run, gold, n_items, n_groups, tail, n, w),
                    directional(gold, run, n_items, n_groups, tail, n, w))
