"""Type-level clustering measures for one topic: MacroI, MicroI, MicroC under 1-1 and M-1 maps.

Reichart, Abend and Rappoport, "Type level clustering evaluation: new measures and a POS
induction case study", CoNLL 2010, §4 (``docs/type-level.md``). Each word type i (l types) has a
gold entry A_i (the gold classes of its tokens, n classes) and an induced entry B_i (the induced
clusters of its tokens, m clusters). For a mapping h from clusters to classes:

* IM_i = |A_i ∩ h(B_i)|, the number of gold classes of i that the mapping reaches (two clusters
  of B_i mapped to one class reach it once); |h(B_i)| = |B_i| (a multiset: every cluster of
  B_i counts, mapped to a shared class or, under 1-1, not mapped at all).
* MacroI: R = Σ IM_i / Σ |A_i|, P = Σ IM_i / Σ |B_i|, F = 2PR / (P + R) (= MacroC, §4.2).
* MicroI = (1/l) Σ_i F_i, F_i = 2 IM_i / (|A_i| + |B_i|).
* MicroC: the clusters mapped to one class are united (K_h, set union over types); each united
  cluster z with class c has F_z = 2 |z ∩ c| / (|z| + |c|); MicroC = Σ_z (|z| / N*) F_z with
  N* = Σ_z |z|. Under 1-1 an unmapped cluster is its own z with F_z = 0 (its size counts in N*).

Each measure uses the mapping that maximises it (the paper's "greedy" mappings):

* **1-1** (each class takes at most one cluster): with |h(B_i)| = |B_i| every measure is a sum
  of per-(cluster, class) weights — W_kc = #{i: k ∈ B_i, c ∈ A_i} for MacroI, the same weighted
  by 1 / (|A_i| + |B_i|) for MicroI, |k| / N* · 2 W_kc / (|k| + |c|) for MicroC — so the best
  1-1 mapping is an optimal assignment (``scipy.optimize.linear_sum_assignment``): exact.
* **M-1** (any cluster to any class): MacroI and MicroI count a class once per type, so they are
  not sums over clusters and MicroC unites clusters. We start from the majority mapping (each
  cluster to the class maximising its own weight) and climb: move the single cluster whose move
  raises the measure, until no move does; the best mapping seen is kept. When every type has
  one cluster, MacroI and MicroI are sums over clusters and the majority start is optimal
  (reported as exact); otherwise the result is a local optimum (reported as such).
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np
from scipy.optimize import linear_sum_assignment
from scipy.sparse import csr_matrix

__all__ = ["TypeEntries", "TypeMapping", "TypeScores", "MEASURES", "MAPPINGS",
           "score_mapping", "best_mapping", "type_scores"]

MEASURES: tuple[str, ...] = ("macro", "micro", "microc")
MAPPINGS: tuple[str, ...] = ("one_to_one", "many_to_one")
_EPS = 1e-12


@dataclass(frozen=True, eq=False)
class TypeEntries:
    """The gold and induced entries of the l word types of one topic.

    Attributes
    ----------
    a_type, a_class : ndarray of int64
        The (type, class) pairs: class ``a_class[r]`` ∈ A_{a_type[r]}; unique pairs.
    b_type, b_cluster : ndarray of int64
        The (type, cluster) pairs: cluster ``b_cluster[r]`` ∈ B_{b_type[r]}; unique pairs.
    n_types, n_classes, n_clusters : int
        l, n, m; types, classes and clusters are coded 0..l-1, 0..n-1, 0..m-1.
    """

    a_type: np.ndarray
    a_class: np.ndarray
    b_type: np.ndarray
    b_cluster: np.ndarray
    n_types: int
    n_classes: int
    n_clusters: int

    @classmethod
    def from_sets(cls, gold: list, induced: list) -> TypeEntries:
        """Entries from per-type iterables of class and cluster codes (for small examples)."""
        a = [(i, int(c)) for i, s in enumerate(gold) for c in sorted(set(s))]
        b = [(i, int(k)) for i, s in enumerate(induced) for k in sorted(set(s))]
        empty = (np.zeros(0, int),) * 2
        at, ac = (np.array(x, dtype=np.int64) for x in zip(*a, strict=True)) if a else empty
        bt, bk = (np.array(x, dtype=np.int64) for x in zip(*b, strict=True)) if b else empty
        return cls(at, ac, bt, bk, len(gold), int(ac.max(initial=-1)) + 1,
                   int(bk.max(initial=-1)) + 1)

    def a_matrix(self) -> csr_matrix:
        """l x n incidence of the gold entries."""
        return csr_matrix((np.ones(self.a_type.size), (self.a_type, self.a_class)),
                          shape=(self.n_types, self.n_classes))

    def b_matrix(self) -> csr_matrix:
        """l x m incidence of the induced entries."""
        return csr_matrix((np.ones(self.b_type.size), (self.b_type, self.b_cluster)),
                          shape=(self.n_types, self.n_clusters))


@dataclass(frozen=True, eq=False)
class TypeMapping:
    """A mapping from clusters to classes and how it was found.

    Attributes
    ----------
    target : ndarray of int64, shape (m,)
        Class of each cluster; -1 for a cluster a 1-1 mapping leaves unmapped.
    measure, mapping : str
        The measure it maximises (``macro``, ``micro``, ``microc``) and the kind of mapping.
    method : str
        ``assignment`` (linear_sum_assignment), ``majority`` or ``hill climbing``.
    exact : bool
        True when the mapping is a proven optimum of the measure.
    value : float
        The measure under this mapping (MacroI F, MicroI or MicroC).
    """

    target: np.ndarray
    measure: str
    mapping: str
    method: str
    exact: bool
    value: float


@dataclass(frozen=True)
class TypeScores:
    """All type-level scores of one topic under one kind of mapping (each measure its own map)."""

    macro_precision: float
    macro_recall: float
    macro_f: float
    micro_f: float
    microc_f: float
    mappings: dict


class _Tables:
    """Dense per-topic quantities shared by the three measures."""

    def __init__(self, e: TypeEntries) -> None:
        self.e = e
        b = e.b_matrix()
        self.a_dense = np.zeros((e.n_types, e.n_classes), dtype=bool)  # l x n
        self.a_dense[e.a_type, e.a_class] = True
        self.a_size = np.bincount(e.a_type, minlength=e.n_types).astype(float)
        self.b_size = np.bincount(e.b_type, minlength=e.n_types).astype(float)
        self.class_size = np.bincount(e.a_class, minlength=e.n_classes).astype(float)
        self.cluster_size = np.bincount(e.b_cluster, minlength=e.n_clusters).astype(float)
        self.b_csc = b.tocsc()
        self.scored: dict[bytes, tuple] = {}
        self.b_t = b.T.tocsr()  # m x l
        self.w_macro = self.b_t @ self.a_dense.astype(float)  # m x n: types shared by k and c
        denom = self.a_size + self.b_size
        self.u_micro = np.divide(1.0, denom, out=np.zeros_like(denom, dtype=float),
                                 where=denom > 0)
        self.w_micro = self.b_t @ (self.a_dense * self.u_micro[:, None])
        n_star = self.cluster_size.sum()
        pair = self.cluster_size[:, None] + self.class_size[None, :]
        f = np.divide(2.0 * self.w_macro, pair, out=np.zeros_like(self.w_macro, dtype=float),
                      where=pair > 0)
        self.w_microc = f * (self.cluster_size[:, None] / n_star if n_star else 0.0)

    def members(self, k: int) -> np.ndarray:
        """Types whose induced entry holds cluster k."""
        p = self.b_csc.indptr
        return self.b_csc.indices[p[k]:p[k + 1]]


def _tables(e: TypeEntries) -> _Tables:
    """The dense tables of ``e``, built once per entries object."""
    t = e.__dict__.get("_tables")
    if t is None:
        t = _Tables(e)
        object.__setattr__(e, "_tables", t)
    return t


def _counts(t: _Tables, target: np.ndarray) -> np.ndarray:
    """cnt[i, c] = #{k in B_i : h(k) = c}, shape (l, n)."""
    e = t.e
    mapped = target[e.b_cluster]
    ok = mapped >= 0
    flat = e.b_type[ok] * e.n_classes + mapped[ok]
    return np.bincount(flat, minlength=e.n_types * e.n_classes).reshape(e.n_types, e.n_classes)


def _score(t: _Tables, target: np.ndarray) -> tuple[float, float, float, float, float]:
    """MacroI P, R, F, MicroI and MicroC of one mapping (straight from the definitions);
    remembered per mapping (the best mappings of the measures often coincide)."""
    key = target.tobytes()
    hit = t.scored.get(key)
    if hit is None:
        hit = t.scored[key] = _score_of(t, target)
    return hit


def _score_of(t: _Tables, target: np.ndarray) -> tuple[float, float, float, float, float]:
    e = t.e
    if e.n_types == 0:
        return 1.0, 1.0, 1.0, 1.0, 1.0
    cnt = _counts(t, target)
    hit = (cnt > 0) & t.a_dense
    im = hit.sum(axis=1)
    total_a, total_b = t.a_size.sum(), t.b_size.sum()
    r = im.sum() / total_a if total_a else 1.0
    p = im.sum() / total_b if total_b else 1.0
    f = 2 * p * r / (p + r) if p + r > 0 else 0.0
    micro = float(np.mean(2.0 * im * t.u_micro))
    union = (cnt > 0).sum(axis=0)  # |z| per class, over the clusters mapped to it
    inter = hit.sum(axis=0)
    unmapped = t.cluster_size[target < 0].sum()
    n_star = union.sum() + unmapped
    pair = union + t.class_size
    fz = np.divide(2.0 * inter, pair, out=np.zeros(pair.size), where=pair > 0)
    microc = float((union * fz).sum() / n_star) if n_star else 1.0
    return float(p), float(r), float(f), micro, microc


def score_mapping(entries: TypeEntries, target: np.ndarray) -> dict[str, float]:
    """The type-level scores of ``entries`` under a given mapping (cluster -> class, -1 unmapped).

    Returns
    -------
    dict with ``macro_precision``, ``macro_recall``, ``macro_f``, ``micro_f``, ``microc_f``.
    """
    p, r, f, mi, mc = _score(_Tables(entries), np.asarray(target, dtype=np.int64))
    return {"macro_precision": p, "macro_recall": r, "macro_f": f, "micro_f": mi, "microc_f": mc}


def _value(t: _Tables, measure: str, target: np.ndarray) -> float:
    p, r, f, mi, mc = _score(t, target)
    return {"macro": f, "micro": mi, "microc": mc}[measure]


def _weights(t: _Tables, measure: str) -> np.ndarray:
    return {"macro": t.w_macro, "micro": t.w_micro, "microc": t.w_microc}[measure]


def _one_to_one(t: _Tables, measure: str) -> TypeMapping:
    w = _weights(t, measure)
    target = np.full(t.e.n_clusters, -1, dtype=np.int64)
    if w.size:
        rows, cols = linear_sum_assignment(w, maximize=True)
        target[rows] = cols
    return TypeMapping(target, measure, "one_to_one", "assignment", True,
                       _value(t, measure, target))


def _move_deltas_item(t: _Tables, u: np.ndarray | None, target: np.ndarray,
                      cnt: np.ndarray) -> np.ndarray:
    """Change of Σ_i u_i IM_i when cluster k alone moves to class c, shape (m, n).

    Moving k from h(k) to c loses u_i for each type of k whose only cluster on h(k) is k and
    h(k) ∈ A_i, and gains u_i for each type of k with c ∈ A_i and no cluster on c yet.
    """
    e = t.e
    hit = (t.a_dense & (cnt == 0)).astype(float)
    gain = t.b_t @ (hit if u is None else hit * u[:, None])
    cur = target[e.b_cluster]
    lose = t.a_dense[e.b_type, cur] & (cnt[e.b_type, cur] == 1)
    w = lose * (1.0 if u is None else u[e.b_type])
    loss = np.bincount(e.b_cluster, weights=w, minlength=e.n_clusters)
    delta = np.asarray(gain, dtype=float) - loss[:, None]
    delta[np.arange(e.n_clusters), target] = 0.0
    return delta


def _move_deltas_microc(t: _Tables, target: np.ndarray, cnt: np.ndarray) -> np.ndarray:
    """Change of MicroC (M-1, united clusters) when cluster k alone moves to class c, (m, n)."""
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
    cur = target[e.b_cluster]
    leave = cnt[e.b_type, cur] == 1
    du_cur = np.bincount(e.b_cluster, weights=leave, minlength=e.n_clusters)
    di_cur = np.bincount(e.b_cluster, weights=leave & t.a_dense[e.b_type, cur],
                         minlength=e.n_clusters)
    cur_new = term(union[target] - du_cur, inter[target] - di_cur, size[target])
    cand = term(union[None, :] + du, inter[None, :] + di, size[None, :])
    new_total = (total - terms[target] + cur_new)[:, None] - terms[None, :] + cand
    new_star = (n_star - du_cur)[:, None] + du
    new = np.divide(new_total, new_star, out=np.zeros_like(new_total), where=new_star > 0)
    delta = new - old
    delta[np.arange(e.n_clusters), target] = 0.0
    return delta


def _many_to_one(t: _Tables, measure: str, max_moves: int = 10_000) -> TypeMapping:
    e = t.e
    w = _weights(t, measure if measure != "microc" else "macro")
    target = (np.argmax(w, axis=1) if e.n_classes else np.full(e.n_clusters, -1)).astype(np.int64)
    separable = measure != "microc" and bool(np.all(t.b_size <= 1))
    if separable or e.n_classes == 0 or e.n_clusters == 0:
        return TypeMapping(target, measure, "many_to_one", "majority", True,
                           _value(t, measure, target))
    cnt = _counts(t, target)
    value = _value(t, measure, target)
    u = None if measure == "macro" else t.u_micro
    for _ in range(max_moves):
        delta = (_move_deltas_microc(t, target, cnt) if measure == "microc"
                 else _move_deltas_item(t, u, target, cnt))
        best_c = np.argmax(delta, axis=1)
        best_d = delta[np.arange(e.n_clusters), best_c]
        movers = np.flatnonzero(best_d > _EPS)
        if movers.size == 0:
            break  # a local optimum: no single-cluster move raises the measure
        if movers.size > 1:  # try every improving cluster's best move at once; keep if better
            trial = target.copy()
            trial[movers] = best_c[movers]
            trial_value = _value(t, measure, trial)
            if trial_value > value + _EPS:
                target, value, cnt = trial, trial_value, _counts(t, trial)
                continue
        k = int(np.argmax(best_d))  # else the single best move (exact gain, so it improves)
        rows = t.members(k)
        cnt[rows, target[k]] -= 1
        cnt[rows, best_c[k]] += 1
        target[k] = best_c[k]
        value += best_d[k]
    value = _value(t, measure, target)  # exact, free of the rounding of the summed gains
    return TypeMapping(target, measure, "many_to_one", "hill climbing", False, value)


def best_mapping(entries: TypeEntries, measure: str, mapping: str) -> TypeMapping:
    """The mapping that maximises ``measure`` (``macro``, ``micro``, ``microc``) under ``mapping``.

    See the module docstring for the method; ``TypeMapping.exact`` says whether it is a proven
    optimum.
    """
    if measure not in MEASURES or mapping not in MAPPINGS:
        raise ValueError(f"measure must be one of {MEASURES}, mapping one of {MAPPINGS}")
    t = _tables(entries)
    return _one_to_one(t, measure) if mapping == "one_to_one" else _many_to_one(t, measure)


def type_scores(entries: TypeEntries, mapping: str) -> TypeScores:
    """MacroI P/R/F, MicroI and MicroC of one topic, each under its best ``mapping``."""
    if mapping not in MAPPINGS:
        raise ValueError(f"mapping must be one of {MAPPINGS}, got {mapping!r}")
    t = _tables(entries)
    solve = _one_to_one if mapping == "one_to_one" else _many_to_one
    maps = {m: solve(t, m) for m in MEASURES}
    p, r, f, _, _ = _score(t, maps["macro"].target)
    return TypeScores(p, r, f, maps["micro"].value, maps["microc"].value, maps)
