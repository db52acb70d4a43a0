"""Mapping accuracies (docs/measures.md §3): many-to-one and one-to-one.

* ``accuracy_m1`` = (1/n) Σ_j max_i n_ij: each cluster mapped to its majority class (several
  clusters may map to one class). Equal to purity without overlap.
* ``accuracy_11`` = (1/n) max over one-to-one maps σ (clusters → classes, each class used at
  most once) of Σ_j n_σ(j)j, solved per topic by ``scipy.optimize.linear_sum_assignment`` on
  the dense table restricted to the topic (a loop over topics; the tables are small). Unmatched
  clusters or classes count 0.

With overlap both are computed on the (item, class, cluster) expansion (n = Σ_ij n_ij).
"""

from __future__ import annotations

import numpy as np

from metrics.measures.clustering.safe import safe_div
from metrics.model.contingency import Contingency, contingency_from_labels

__all__ = ["accuracy_m1", "accuracy_11", "mapping_scores"]


def _per_n(num: np.ndarray, n: np.ndarray) -> np.ndarray:
    return np.minimum(safe_div(num, n, 1.0), 1.0)


def accuracy_m1(table: Contingency) -> np.ndarray:
    """Many-to-one accuracy per topic."""
    return _per_n(table.cluster_sum(table.max_per_cluster()), table.n_total)


def _best_matching(cls: np.ndarray, clu: np.ndarray, cnt: np.ndarray) -> float:
    """Maximum total count of a one-to-one matching of some cells (dense solve)."""
    from scipy.optimize import linear_sum_assignment  # noqa: PLC0415 - deferred: start-up of IR runs

    ui, ri = np.unique(cls, return_inverse=True)
    uj, rj = np.unique(clu, return_inverse=True)
    if ui.size == 1 or uj.size == 1:
        return float(cnt.max())  # one class or one cluster: the best single cell
    dense = np.zeros((ui.size, uj.size))
    dense[ri, rj] = cnt
    if dense.shape[0] > dense.shape[1]:
        dense = dense.T
    rows, cols = linear_sum_assignment(dense, maximize=True)
    return float(dense[rows, cols].sum())


def _prune_leaves(a: np.ndarray, b: np.ndarray, cnt: np.ndarray) -> np.ndarray:
    """Mask of the cells to keep: of the cells whose ``b`` node has degree 1 (a leaf hanging
    from node ``a``), only the largest per ``a`` can be in an optimal matching."""
    deg = np.bincount(b)
    leaf = deg[b] == 1
    keep = ~leaf
    idx = np.flatnonzero(leaf)
    if idx.size:
        order = idx[np.lexsort((-cnt[idx], a[idx]))]
        first = np.r_[True, a[order][1:] != a[order][:-1]]
        keep[order[first]] = True
    return keep


def accuracy_11(table: Contingency) -> np.ndarray:
    """One-to-one accuracy per topic (optimal assignment).

    The maximum-weight matching decomposes over the connected components of the bipartite
    graph of non-empty cells (topics are separate components already). Before solving, of the
    clusters attached to a single class only the largest can matter (such a cluster can only
    be matched to that class, which takes one cluster), and likewise for classes attached to a
    single cluster. Components with one class or one cluster are then solved by their largest
    cell, the others by ``linear_sum_assignment`` on their dense table. All of it is exact.
    """
    from scipy.sparse import coo_matrix  # noqa: PLC0415 - deferred: start-up of IR runs
    from scipy.sparse.csgraph import connected_components  # noqa: PLC0415 - as above

    cls, clu, cnt, top = (table.cell_class, table.cell_cluster, table.cell_count,
                          table.cell_topic)
    if not cnt.all():  # a table of label arrays may list its empty cells
        cls, clu, cnt, top = cls[cnt > 0], clu[cnt > 0], cnt[cnt > 0], top[cnt > 0]
    if cnt.size == 0:
        return np.ones(table.n_topics)
    for a_is_class in (True, False):
        keep = _prune_leaves(cls, clu, cnt) if a_is_class else _prune_leaves(clu, cls, cnt)
        cls, clu, cnt, top = cls[keep], clu[keep], cnt[keep], top[keep]
    ui, ri = np.unique(cls, return_inverse=True)
    uj, rj = np.unique(clu, return_inverse=True)
    nr, nc = ui.size, uj.size
    graph = coo_matrix((np.ones(cnt.size), (ri, nr + rj)), shape=(nr + nc, nr + nc))
    n_comp, comp = connected_components(graph, directed=False)
    cell_comp = comp[ri]
    rows_per = np.bincount(comp[:nr], minlength=n_comp)
    cols_per = np.bincount(comp[nr:], minlength=n_comp)
    simple = (rows_per <= 1) | (cols_per <= 1)
    value = np.zeros(n_comp)
    np.maximum.at(value, cell_comp, cnt)  # right for simple components
    hard = np.flatnonzero(~simple)
    if hard.size:
        order = np.argsort(cell_comp, kind="stable")
        sc = cell_comp[order]
        lo = np.searchsorted(sc, hard, side="left")
        hi = np.searchsorted(sc, hard, side="right")
        for comp_id, a, b in zip(hard, lo, hi, strict=True):
            sel = order[a:b]
            value[comp_id] = _best_matching(ri[sel], rj[sel], cnt[sel])
    comp_topic = np.zeros(n_comp, dtype=np.int64)
    comp_topic[cell_comp] = top
    best = np.bincount(comp_topic, weights=value, minlength=table.n_topics)
    return _per_n(best, table.n_total)


def mapping_scores(labels_true, labels_pred) -> dict[str, float]:
    """Many-to-one and one-to-one accuracy of two label arrays (one topic, no overlap)."""
    table = contingency_from_labels(labels_true, labels_pred)
    return {"accuracy_m1": float(accuracy_m1(table)[0]),
            "accuracy_11": float(accuracy_11(table)[0])}
