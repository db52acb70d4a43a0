"""Hill climbing over many-to-one mappings of a type-level measure (``docs/type-level.md``).

The local search that starts the exact solver (:mod:`.exact_many_to_one`) and, when the solver
stops at its time limit, polishes its best mapping. At each step it computes, for every cluster
k and class c at once, the exact change of the measure if k alone moved to c, under the set
reading of h(B_i) (Reichart, Abend and Rappoport 2010, §4.1): moving k from c0 to c, a type i
of k leaves c0 when k was its only cluster there (|h(B_i)| - 1, IM_i - [c0 ∈ A_i]) and enters c
when none of its clusters was there (|h(B_i)| + 1, IM_i + [c ∈ A_i]). It first tries every
improving cluster's best move together and keeps them if the measure rises, else makes the
single best move; it stops when no single move improves (a local optimum).

``t`` is the per-topic tables object of :mod:`metrics.measures.typelevel.type_scores` (entries
``e``, ``a_dense``, ``a_size``, ``class_size``, ``b_t``, ``members``, ``counts`` and ``value``).
"""

from __future__ import annotations

import numpy as np
from scipy.sparse import csr_matrix

__all__ = ["climb", "move_deltas"]

_EPS = 1e-12


def _moves(t, target: np.ndarray, cnt: np.ndarray):
    """Per (type, cluster) pair: type, cluster, whether the type leaves the cluster's class."""
    e = t.e
    cur = target[e.b_cluster]
    leave = cnt[e.b_type, cur] == 1
    return e.b_type, e.b_cluster, cur, leave


def _deltas_macro(t, target: np.ndarray, cnt: np.ndarray) -> np.ndarray:
    """Change of MacroI F = 2 Σ IM / (Σ |A| + Σ |h(B)|), shape (m, n)."""
    e = t.e
    present = cnt > 0
    enter = ~present
    im = float((present & t.a_dense).sum())
    hs = float(present.sum())
    pt, pk, cur, leave = _moves(t, target, cnt)
    gain_im = np.asarray(t.b_t @ (enter & t.a_dense).astype(float))
    gain_h = np.asarray(t.b_t @ enter.astype(float))
    loss_im = np.bincount(pk, weights=leave & t.a_dense[pt, cur], minlength=e.n_clusters)
    loss_h = np.bincount(pk, weights=leave, minlength=e.n_clusters)
    total_a = t.a_size.sum()
    old = 2 * im / (total_a + hs) if total_a + hs else 0.0
    num = 2 * (im + gain_im - loss_im[:, None])
    den = total_a + hs + gain_h - loss_h[:, None]
    return np.divide(num, den, out=np.zeros_like(num), where=den > 0) - old


def _deltas_micro(t, target: np.ndarray, cnt: np.ndarray) -> np.ndarray:
    """Change of MicroI Σ_i F_i / l, F_i = 2 IM_i / (|A_i| + |h(B_i)|), shape (m, n)."""
    e = t.e
    present = cnt > 0
    im = (present & t.a_dense).sum(axis=1).astype(float)
    hs = present.sum(axis=1).astype(float)
    den0 = t.a_size + hs
    f_old = np.divide(2 * im, den0, out=np.zeros_like(im), where=den0 > 0)
    pt, pk, cur, leave = _moves(t, target, cnt)
    enter = ~present[pt]  # (pairs, n)
    d_im = (enter & t.a_dense[pt]) - (leave & t.a_dense[pt, cur])[:, None].astype(float)
    d_h = enter - leave[:, None].astype(float)
    num = 2 * (im[pt, None] + d_im)
    den = den0[pt, None] + d_h
    change = np.divide(num, den, out=np.zeros_like(num), where=den > 0) - f_old[pt, None]
    by_cluster = csr_matrix((np.ones(pk.size), (pk, np.arange(pk.size))),
                            shape=(e.n_clusters, pk.size))
    return np.asarray(by_cluster @ change) / max(e.n_types, 1)


def _deltas_microc(t, target: np.ndarray, cnt: np.ndarray) -> np.ndarray:
    """Change of MicroC (united clusters, Σ_z 2 |z| CM_z / (|z| + |c|) / N*), shape (m, n)."""
    e = t.e
    size = t.class_size.astype(float)
    present = cnt > 0
    union = present.sum(axis=0).astype(float)
    inter = (present & t.a_dense).sum(axis=0).astype(float)

    def term(uu, ii, ss):
        pair = uu + ss
        return np.divide(2.0 * uu * ii, pair, out=np.zeros_like(pair), where=pair > 0)

    terms = term(union, inter, size)
    total, n_star = terms.sum(), union.sum()
    old = total / n_star if n_star else 0.0
    enter = ~present
    du = np.asarray(t.b_t @ enter.astype(float))  # types of k not yet on class c
    di = np.asarray(t.b_t @ (enter & t.a_dense).astype(float))
    _, pk, cur, leave = _moves(t, target, cnt)
    du_cur = np.bincount(pk, weights=leave, minlength=e.n_clusters)
    di_cur = np.bincount(pk, weights=leave & t.a_dense[e.b_type, cur], minlength=e.n_clusters)
    cur_new = term(union[target] - du_cur, inter[target] - di_cur, size[target])
    cand = term(union[None, :] + du, inter[None, :] + di, size[None, :])
    new_total = (total - terms[target] + cur_new)[:, None] - terms[None, :] + cand
    new_star = (n_star - du_cur)[:, None] + du
    return np.divide(new_total, new_star, out=np.zeros_like(new_total),
                     where=new_star > 0) - old


_DELTAS = {"macro": _deltas_macro, "micro": _deltas_micro, "microc": _deltas_microc}


def move_deltas(t, measure: str, target: np.ndarray, cnt: np.ndarray | None = None) -> np.ndarray:
    """Exact change of ``measure`` when cluster k alone moves to class c, shape (m, n); 0 on
    each cluster's current class."""
    cnt = t.counts(target) if cnt is None else cnt
    delta = _DELTAS[measure](t, target, cnt)
    delta[np.arange(t.e.n_clusters), target] = 0.0
    return delta


def climb(t, measure: str, target: np.ndarray, max_moves: int = 10_000) -> np.ndarray:
    """A local optimum of ``measure`` (``macro``, ``micro``, ``microc``) over M-1 mappings,
    reached from ``target`` by single-cluster moves that raise the measure."""
    e = t.e
    target = np.asarray(target, dtype=np.int64).copy()
    if e.n_clusters == 0 or e.n_classes <= 1:
        return target
    cnt = t.counts(target)
    value = t.value(measure, target)
    rows = np.arange(e.n_clusters)
    for _ in range(max_moves):
        delta = move_deltas(t, measure, target, cnt)
        best_c = np.argmax(delta, axis=1)
        best_d = delta[rows, best_c]
        movers = np.flatnonzero(best_d > _EPS)
        if movers.size == 0:
            break  # a local optimum: no single-cluster move raises the measure
        if movers.size > 1:  # every improving cluster's best move at once; kept if better
            trial = target.copy()
            trial[movers] = best_c[movers]
            trial_value = t.value(measure, trial)
            if trial_value > value + _EPS:
                target, value, cnt = trial, trial_value, t.counts(trial)
                continue
        k = int(np.argmax(best_d))  # else the single best move (exact gain, so it improves)
        members = t.members(k)
        cnt[members, target[k]] -= 1
        cnt[members, best_c[k]] += 1
        target[k] = best_c[k]
        value = t.value(measure, target)
    return target
