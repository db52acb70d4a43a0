"""Type-level clustering measures for one topic: MacroI, MacroC, MicroI, MicroC under 1-1 and M-1.

Reichart, Abend and Rappoport, "Type level clustering evaluation: new measures and a POS
induction case study", CoNLL 2010, §4 (``docs/type-level.md``). Each word type i (l types) has a
gold entry A_i (the gold classes of its tokens, n classes) and an induced entry B_i (the induced
clusters of its tokens, m clusters). For a mapping h from clusters to classes, h(B_i) =
{h(x) : x ∈ B_i} is a **set** (§4.1): two clusters of B_i mapped to one class reach it once.

* IM_i = |A_i ∩ h(B_i)|; |h(B_i)| = the distinct classes reached, plus, under 1-1 only, one for
  each cluster of B_i left unmapped (§4.1: "we define |h(B_i)| to be equal to |B_i| even for
  these unmapped clusters").
* MacroI: R = Σ IM_i / Σ |A_i|, P = Σ IM_i / Σ |h(B_i)|, F = 2PR / (P + R).
* MacroC (§4.2): the clusters mapped to one class are united (K_h); CM_z = |z ∩ h̄(z)| for each
  united cluster z (an unmapped cluster is its own z with CM_z = 0); R = Σ CM_z / Σ_c |c|,
  P = Σ CM_z / N*, N* = Σ_z |z|; equal to MacroI for every mapping (Σ CM_z = Σ IM_i and
  N* = Σ |h(B_i)|), computed here through the clusters as an independent route.
* MicroI: the mean over types of P_i = IM_i / |h(B_i)|, R_i = IM_i / |A_i| and
  F_i = 2 IM_i / (|A_i| + |h(B_i)|).
* MicroC: for each united cluster z with class c, P_z = CM_z / |z|, R_z = CM_z / |c|,
  F_z = 2 CM_z / (|z| + |c|) (all 0 for an unmapped cluster); MicroC P, R, F are their averages
  weighted by |z| / N*.

Each measure uses the mapping that maximises it (the paper's "greedy" mappings, §4); MacroI and
MacroC share one (their F is the same function of the mapping), and P and R are read at the
mapping that maximises the F they belong to:

* **1-1** (each class takes at most one cluster): |h(B_i)| = |B_i| and N* = Σ_k |k| do not depend
  on h, so every measure is a sum of per-(cluster, class) weights and the best mapping is an
  optimal assignment (``scipy.optimize.linear_sum_assignment``): exact.
* **M-1** (every cluster to one class): when every type has at most one cluster, MacroI and MicroI
  are sums over clusters and the majority mapping is optimal (exact). Otherwise, and for MicroC
  always, a search from hill climbing (:mod:`.hill_climbing`) solves it exactly: an integer
  program (:mod:`.exact_many_to_one`), for MicroC the branch and bound of :mod:`.microc_branch`
  (every type in at most one cluster), else first that of :mod:`.microc_union`; at its time
  limit the best mapping found is kept with the bound on how far the optimum can lie above it.
"""

from __future__ import annotations

import math
from dataclasses import dataclass, fields, replace

import numpy as np
from scipy.sparse import csr_matrix

from metrics.measures.typelevel import exact_many_to_one as _exact
from metrics.measures.typelevel.hill_climbing import climb
from metrics.measures.typelevel.mapping_settings import DEFAULT_SECONDS, MAPPINGS, MEASURES
from metrics.measures.typelevel.microc_branch import branch_and_bound
from metrics.measures.typelevel.microc_union import Searched, search_then_program

__all__ = ["TypeEntries", "TypeMapping", "TypeScores", "MappingScores", "MEASURES", "MAPPINGS",
           "DEFAULT_SECONDS", "MEASURE_OF_SCORE", "score_mapping", "mapping_scores",
           "best_mapping", "type_scores"]

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
        ``assignment`` (1-1), ``majority`` (M-1, every type in at most one cluster),
        ``integer program`` (M-1, solved to optimality by HiGHS), ``branch and bound``
        (M-1, MicroC when every type has at most one cluster, solved to optimality by
        :mod:`metrics.measures.typelevel.microc_branch`) or ``hill climbing`` (M-1, the
        search stopped at its time limit: the best mapping found).
    exact : bool
        True when the mapping is a proven optimum of the measure: no mapping scores more than
        1e-6 above it (``exact_many_to_one.EXACT_TOL``).
    value : float
        The measure under this mapping (MacroI F, MicroI F or MicroC F).
    gap : float
        A proven bound on how far the optimum can lie above ``value``: 0 when exact, NaN when
        no bound is known (a problem too large for the solver).
    """

    target: np.ndarray
    measure: str
    mapping: str
    method: str
    exact: bool
    value: float
    gap: float = 0.0

    @property
    def exactness(self) -> str:
        """``exact``, or ``hill climbing, gap ≤ g`` (``gap unknown`` without a bound)."""
        if self.exact:
            return "exact"
        if not math.isfinite(self.gap):
            return f"{self.method}, gap unknown"
        return f"{self.method}, gap ≤ {self.gap:.2g}"


@dataclass(frozen=True)
class MappingScores:
    """Every type-level score of one topic under one mapping (``docs/type-level.md``)."""

    macro_precision: float
    macro_recall: float
    macro_f: float
    macroc_f: float
    micro_precision: float
    micro_recall: float
    micro_f: float
    microc_precision: float
    microc_recall: float
    microc_f: float


#: The score each measure's mapping maximises.
_OBJECTIVE = {"macro": "macro_f", "micro": "micro_f", "microc": "microc_f"}
#: The measure whose mapping each score is read at.
MEASURE_OF_SCORE: dict[str, str] = {f.name: f.name.split("_")[0] for f in fields(MappingScores)}
MEASURE_OF_SCORE["macroc_f"] = "macro"


@dataclass(frozen=True)
class TypeScores(MappingScores):
    """All type-level scores of one topic under one kind of mapping, each read at the mapping
    of its measure (:data:`MEASURE_OF_SCORE`); ``mappings`` holds the three
    :class:`TypeMapping` (``macro``, ``micro``, ``microc``)."""

    mappings: dict = None  # type: ignore[assignment]


class _Tables:
    """Per-topic quantities shared by the measures, the assignment and the M-1 searches."""

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
        self.b_t = b.T.tocsr()  # m x l
        self.scored: dict[bytes, MappingScores] = {}
        self.w_macro = np.asarray(self.b_t @ self.a_dense.astype(float))  # m x n shared types
        denom = self.a_size + self.b_size
        self.u_micro = np.divide(1.0, denom, out=np.zeros_like(denom), where=denom > 0)
        self.w_micro = np.asarray(self.b_t @ (self.a_dense * self.u_micro[:, None]))

    def members(self, k: int) -> np.ndarray:
        """Types whose induced entry holds cluster k."""
        p = self.b_csc.indptr
        return self.b_csc.indices[p[k]:p[k + 1]]

    def counts(self, target: np.ndarray) -> np.ndarray:
        """cnt[i, c] = #{k in B_i : h(k) = c}, shape (l, n)."""
        e = self.e
        mapped = target[e.b_cluster]
        ok = mapped >= 0
        flat = e.b_type[ok] * e.n_classes + mapped[ok]
        return np.bincount(flat, minlength=e.n_types * e.n_classes).reshape(
            e.n_types, e.n_classes)

    def scores(self, target: np.ndarray) -> MappingScores:
        """Every score of one mapping, remembered (the measures' mappings often coincide)."""
        key = target.tobytes()
        hit = self.scored.get(key)
        if hit is None:
            hit = self.scored[key] = _score_of(self, target)
        return hit

    def value(self, measure: str, target: np.ndarray) -> float:
        """The score ``measure``'s mapping maximises (MacroI F, MicroI F, MicroC F)."""
        return getattr(self.scores(target), _OBJECTIVE[measure])


def _tables(e: TypeEntries) -> _Tables:
    """The tables of ``e``, built once per entries object."""
    t = e.__dict__.get("_tables")
    if t is None:
        t = _Tables(e)
        object.__setattr__(e, "_tables", t)
    return t


def _ratio(num: np.ndarray | float, den: np.ndarray | float) -> np.ndarray:
    """num / den, 0 where den = 0."""
    num, den = np.asarray(num, dtype=float), np.asarray(den, dtype=float)
    return np.divide(num, den, out=np.zeros(np.broadcast(num, den).shape), where=den > 0)


def _score_of(t: _Tables, target: np.ndarray) -> MappingScores:
    """Every score of one mapping, straight from the definitions (module docstring)."""
    e = t.e
    if e.n_types == 0:
        return MappingScores(*([1.0] * len(fields(MappingScores))))
    cnt = t.counts(target)
    present = cnt > 0  # c ∈ h(B_i)
    hit = present & t.a_dense
    unmapped_pairs = target[e.b_cluster] < 0
    unmapped = np.bincount(e.b_type[unmapped_pairs], minlength=e.n_types)
    im = hit.sum(axis=1).astype(float)
    h_size = present.sum(axis=1) + unmapped  # |h(B_i)|
    total_a, total_h = t.a_size.sum(), float(h_size.sum())
    r = im.sum() / total_a if total_a else 1.0
    p = im.sum() / total_h if total_h else 1.0
    f = 2 * p * r / (p + r) if p + r > 0 else 0.0
    mi_p = float(np.mean(_ratio(im, h_size)))
    mi_r = float(np.mean(_ratio(im, t.a_size)))
    mi_f = float(np.mean(_ratio(2.0 * im, t.a_size + h_size)))
    # cluster route: united clusters z (one per class reached) and the unmapped clusters
    union = present.sum(axis=0).astype(float)  # |z| per class
    cm = hit.sum(axis=0).astype(float)  # CM_z = |z ∩ c|
    z_sizes = np.concatenate((union, t.cluster_size[target < 0]))
    z_cm = np.concatenate((cm, np.zeros(int((target < 0).sum()))))
    z_class = np.concatenate((t.class_size, np.zeros(int((target < 0).sum()))))
    n_star = z_sizes.sum()
    if n_star:
        mc_r = cm.sum() / total_a if total_a else 1.0
        mc_p = cm.sum() / n_star
        macroc = 2 * mc_p * mc_r / (mc_p + mc_r) if mc_p + mc_r > 0 else 0.0
        w = z_sizes / n_star
        parts = ((z_cm, z_sizes), (z_cm, z_class), (2 * z_cm, z_sizes + z_class))  # P, R, F
        micro_c = [float(np.sum(w * _ratio(num, den))) for num, den in parts]
    else:
        macroc, micro_c = 1.0, [1.0, 1.0, 1.0]
    return MappingScores(float(p), float(r), float(f), float(macroc), mi_p, mi_r, mi_f,
                         *micro_c)


def mapping_scores(entries: TypeEntries, target: np.ndarray) -> MappingScores:
    """Every type-level score of ``entries`` under a given mapping (cluster -> class, -1 for an
    unmapped cluster)."""
    return _tables(entries).scores(np.asarray(target, dtype=np.int64))


def score_mapping(entries: TypeEntries, target: np.ndarray) -> dict[str, float]:
    """:func:`mapping_scores` as a dict (``macro_precision`` ... ``microc_f``)."""
    return dict(mapping_scores(entries, target).__dict__)


def _weights(t: _Tables, measure: str) -> np.ndarray:
    """Per-(cluster, class) weights whose sum over a 1-1 (or, types with one cluster, an M-1)
    mapping is the measure up to a constant: shared types for MacroI, types weighted by
    1 / (|A_i| + |B_i|) for MicroI, (|k| / N*) 2 W_kc / (|k| + |c|) for MicroC."""
    if measure == "macro":
        return t.w_macro
    if measure == "micro":
        return t.w_micro
    n_star = t.cluster_size.sum()
    pair = t.cluster_size[:, None] + t.class_size[None, :]
    f = _ratio(2.0 * t.w_macro, pair)
    return f * (t.cluster_size[:, None] / n_star if n_star else 0.0)


def _one_to_one(t: _Tables, measure: str) -> TypeMapping:
    # imported here: scipy.optimize takes a noticeable share of the package's start-up time
    from scipy.optimize import linear_sum_assignment  # noqa: PLC0415

    w = _weights(t, measure)
    target = np.full(t.e.n_clusters, -1, dtype=np.int64)
    if w.size:
        rows, cols = linear_sum_assignment(w, maximize=True)
        target[rows] = cols
    return TypeMapping(target, measure, "one_to_one", "assignment", True,
                       t.value(measure, target))


def majority_decides(e: TypeEntries, measure: str) -> bool:
    """Whether the M-1 mapping of ``measure`` is the majority mapping, with no search: one class
    or no cluster, or MacroI and MicroI when no type has two clusters (a sum over clusters)."""
    one_each = np.bincount(e.b_type, minlength=e.n_types).max(initial=0) <= 1
    return e.n_classes <= 1 or e.n_clusters == 0 or (measure != "microc" and bool(one_each))


def _many_to_one(t: _Tables, measure: str, time_limit: float) -> TypeMapping:
    e = t.e
    w = _weights(t, "macro" if measure == "microc" else measure)
    target = (np.argmax(w, axis=1) if e.n_classes else np.full(e.n_clusters, -1)).astype(np.int64)
    if majority_decides(e, measure):
        return TypeMapping(target, measure, "many_to_one", "majority", True,
                           t.value(measure, target))
    start = climb(t, measure, target)
    if measure == "microc" and (time_limit > 0 or bool(np.all(t.b_size <= 1))):
        return _microc_branch(t, start, time_limit)
    solved = _exact.solve(t, measure, start, time_limit)
    return _polished(t, measure, solved.target, solved.bound, "integer program", solved.proven)


def _polished(t: _Tables, measure: str, found: np.ndarray, bound: float, method: str,
              proven: bool) -> TypeMapping:
    """The search's best mapping, exact (``method``) when ``proven`` or within 1e-6 of the
    search's ``bound`` (which holds for every mapping) once polished by hill climbing; else
    ``hill climbing`` with the gap left."""
    best = found if proven else climb(t, measure, found)
    value = t.value(measure, best)
    if proven or bound - value <= _exact.EXACT_TOL:
        return TypeMapping(best, measure, "many_to_one", method, True, value, 0.0)
    gap = max(bound - value, 0.0) if math.isfinite(bound) else math.nan
    return TypeMapping(best, measure, "many_to_one", "hill climbing", False, value, gap)


def _microc_branch(t: _Tables, start: np.ndarray, time_limit: float) -> TypeMapping:
    """MicroC under M-1 by a dedicated search (one cluster per type: :mod:`.microc_branch`;
    else :mod:`.microc_union`, the integer program after it if needed), then :func:`_polished`."""
    if np.all(t.b_size <= 1):
        one = branch_and_bound(t.cluster_size, t.w_macro, t.class_size, start, time_limit)
        found = Searched(one.target, one.bound, one.proven, "branch and bound")
    else:
        found = search_then_program(t, start, time_limit)
    return _polished(t, "microc", found.target, found.bound, found.method, found.proven)


def best_mapping(entries: TypeEntries, measure: str, mapping: str,
                 time_limit: float | None = None) -> TypeMapping:
    """The mapping that maximises ``measure`` (``macro``, ``micro``, ``microc``) under ``mapping``.

    Parameters
    ----------
    entries : TypeEntries
    measure : {"macro", "micro", "microc"}
        MacroI F (= MacroC F), MicroI F or MicroC F.
    mapping : {"one_to_one", "many_to_one"}
    time_limit : float, optional
        Seconds the exact M-1 search may take (default :data:`DEFAULT_SECONDS`); past it
        the best mapping found is returned with ``exact=False`` and its ``gap``. With 0 the
        bound is a quick one (MicroC: the branch and bound's root bound when every type has
        one cluster, else an LP relaxation's).
    """
    if measure not in MEASURES or mapping not in MAPPINGS:
        raise ValueError(f"measure must be one of {MEASURES}, mapping one of {MAPPINGS}")
    if mapping == "one_to_one":
        return _one_to_one(_tables(entries), measure)
    seconds = DEFAULT_SECONDS[measure] if time_limit is None else float(time_limit)
    held = np.unique(entries.a_class)
    if 0 < held.size < entries.n_classes:
        # classes no gold entry holds left out (docs/type-level.md, "A class no gold entry holds")
        kept = replace(entries, a_class=np.searchsorted(held, entries.a_class),
                       n_classes=int(held.size))
        found = _many_to_one(_tables(kept), measure, seconds)
        return replace(found, target=held[found.target])
    return _many_to_one(_tables(entries), measure, seconds)


def type_scores(entries: TypeEntries, mapping: str,
                time_limit: float | None = None) -> TypeScores:
    """Every type-level score of one topic, each read at the best ``mapping`` of its measure."""
    if mapping not in MAPPINGS:
        raise ValueError(f"mapping must be one of {MAPPINGS}, got {mapping!r}")
    maps = {m: best_mapping(entries, m, mapping, time_limit) for m in MEASURES}
    t = _tables(entries)
    values = {name: getattr(t.scores(maps[measure].target), name)
              for name, measure in MEASURE_OF_SCORE.items()}
    return TypeScores(**values, mappings=maps)
