"""The contingency table n_ij = |L_i ∩ C_j| of every topic of a (gold, system) pair, built once.

All topics of a system are held in one sparse table (docs/measures.md §3): one row per non-empty
cell, with
the gold class code, the system cluster code, the count and the topic. Label codes of a
campaign belong to one topic each, so the table is block-diagonal by topic and every per-topic
quantity is a ``np.bincount`` over the cells with the topic as index: no Python loop over
topics.

Overlapping clusterings
-----------------------
With overlap, n_ij = |L_i ∩ C_j| is still well defined: each item contributes one count to
every (class, cluster) pair of L(e) × C(e) (the *(item, class, cluster) expansion*). Then the
table's margins are no longer the class and cluster sizes, so both are kept: ``class_size``
and ``cluster_size`` are |L_i| and |C_j| from the memberships; ``row_sum``/``col_sum`` are the
table's margins. Metrics defined for overlap by docs/measures.md §3 (purity, inverse purity,
clustering F)
use the sizes; the entropy, pair-counting and mapping metrics, which have no definition for
overlapping clusterings, are computed on the expanded table as if it were a partition of the
expanded elements (Reichart et al. 2010 discuss this co-occurrence matrix for polysemous
items). They then equal their usual definition without overlap and stay within their bounds,
but two identical overlapping clusterings do not score perfectly on them (documented choice).
BCubed and Reliability/Sensitivity with overlap do not use this table: see
:mod:`metrics.measures.clustering.overlap`.
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np
import pandas as pd

from metrics.model.campaign import Membership
from metrics.model.key_counts import sorted_counts

__all__ = ["Contingency", "build_contingency", "contingency_from_labels", "factorize"]


@dataclass(frozen=True, eq=False)
class Contingency:
    """Sparse contingency tables of all topics of one (gold, system) pair.

    Attributes
    ----------
    n_topics : int
    cell_class, cell_cluster : ndarray of int64, shape (n_cells,)
        Gold class code and system cluster code of each non-empty cell; cells are sorted by
        class, then cluster. A table of two label arrays
        (:func:`contingency_from_labels`) whose cells are mostly non-empty lists every cell,
        the empty ones with count 0: every sum and maximum over the cells is the same (a zero
        adds nothing), and a kernel that needs the non-empty cells only (a graph of them)
        selects ``cell_count > 0``.
    cell_count : ndarray of float64, shape (n_cells,)
        n_ij.
    cell_topic : ndarray of int64, shape (n_cells,)
    class_size, cluster_size : ndarray of float64, shape (n_classes,), (n_clusters,)
        |L_i| and |C_j| from the memberships (0 for a label without items).
    class_topic, cluster_topic : ndarray of int64
        Topic of each label code.
    row_sum, col_sum : ndarray of float64
        Margins of the table (equal to the sizes without overlap).
    n_items : ndarray of float64, shape (n_topics,)
        Items per topic.
    overlapping : bool
        True when the gold or the system clustering has an item with several labels.
    missing_self_recall : ndarray of float64, shape (n_topics,)
        Under ``missing="penalize"``: per topic, Σ over missing items e of 1/|L(e)| (without
        overlap), the self-pair recall credit that the penalty removes from BCubed recall
        (docs/measures.md §2: missing items get recall 0). Zeros under the other policies.
    """

    n_topics: int
    cell_class: np.ndarray
    cell_cluster: np.ndarray
    cell_count: np.ndarray
    cell_topic: np.ndarray
    class_size: np.ndarray
    cluster_size: np.ndarray
    class_topic: np.ndarray
    cluster_topic: np.ndarray
    row_sum: np.ndarray
    col_sum: np.ndarray
    n_items: np.ndarray
    overlapping: bool
    missing_self_recall: np.ndarray

    # --- per-topic reductions ------------------------------------------------------------------
    def topic_sum(self, cell_values: np.ndarray, scratch: bool = False) -> np.ndarray:
        """Σ over the cells of each topic (in cell order, one topic at a time). With
        ``scratch``, ``cell_values`` is the caller's temporary and may be overwritten."""
        if self.n_topics == 1:
            # the same sequential sum as the bincount, without reading cell_topic
            if not cell_values.size:
                return np.zeros(1)
            return np.cumsum(cell_values, out=cell_values if scratch else None)[-1:].copy()
        return np.bincount(self.cell_topic, weights=cell_values, minlength=self.n_topics)

    def class_sum(self, class_values: np.ndarray) -> np.ndarray:
        """Σ over the gold classes of each topic."""
        return np.bincount(self.class_topic, weights=class_values, minlength=self.n_topics)

    def cluster_sum(self, cluster_values: np.ndarray) -> np.ndarray:
        """Σ over the system clusters of each topic."""
        return np.bincount(self.cluster_topic, weights=cluster_values, minlength=self.n_topics)

    @property
    def n_total(self) -> np.ndarray:
        """Σ_ij n_ij per topic (= n_items without overlap)."""
        if self.n_topics == 1:  # counts are whole numbers: every order of summation is exact
            return np.array([self.cell_count.sum()])
        return self.topic_sum(self.cell_count)

    def _class_runs(self) -> np.ndarray:
        """Index of the first cell of each class present (the cells are sorted by class)."""
        return np.flatnonzero(np.r_[True, self.cell_class[1:] != self.cell_class[:-1]])

    def per_class_sum(self, cell_values: np.ndarray) -> np.ndarray:
        """Σ_j over the cells of every class code (0 for a class without cells): one reduction
        per run of a class's consecutive cells (a ``bincount`` by class would add into the same
        bin cell after cell, each addition waiting for the previous one)."""
        out = np.zeros(self.class_size.size)
        if self.cell_count.size:
            starts = self._class_runs()
            out[self.cell_class[starts]] = np.add.reduceat(cell_values, starts)
        return out

    def per_cluster_sum(self, cell_values: np.ndarray) -> np.ndarray:
        """Σ_i over the cells of every cluster code (0 for a cluster without cells)."""
        return np.bincount(self.cell_cluster, weights=cell_values,
                           minlength=self.cluster_size.size)

    def max_per_class(self) -> np.ndarray:
        """max_j n_ij for every class code (0 for a class without cells)."""
        out = np.zeros(self.class_size.size)
        if self.cell_count.size:
            starts = self._class_runs()
            out[self.cell_class[starts]] = np.maximum.reduceat(self.cell_count, starts)
        return out

    def max_per_cluster(self) -> np.ndarray:
        """max_i n_ij for every cluster code (0 for a cluster without cells)."""
        out = np.zeros(self.cluster_size.size)
        np.maximum.at(out, self.cell_cluster, self.cell_count)
        return out

    def n_classes(self) -> np.ndarray:
        """Number of non-empty classes of the table per topic."""
        return np.bincount(self.class_topic[self.row_sum > 0], minlength=self.n_topics)

    def n_clusters(self) -> np.ndarray:
        """Number of non-empty clusters of the table per topic."""
        return np.bincount(self.cluster_topic[self.col_sum > 0], minlength=self.n_topics)


#: items per block of the range scan (a block of int64 stays in the L2 cache)
_BLOCK = 1 << 17


def _int_range(labels: np.ndarray) -> tuple[int, int] | None:
    """(min, max) of non-empty integer labels whose range is small enough to offset directly
    (at most max(4 n, 2^16) values), None otherwise. Block by block, so that the array is read
    from memory once for both its minimum and its maximum."""
    if not (labels.size and np.issubdtype(labels.dtype, np.integer)):
        return None
    lows, highs = [], []
    for start in range(0, labels.size, _BLOCK):
        block = labels[start:start + _BLOCK]
        lows.append(block.min())
        highs.append(block.max())
    lo, hi = int(min(lows)), int(max(highs))
    return (lo, hi) if hi - lo <= max(4 * labels.size, 1 << 16) else None


def factorize(labels: np.ndarray) -> tuple[np.ndarray, int]:
    """Integer codes 0..k-1 for a label array, without sorting when it can.

    Small-range integer labels are offset directly (O(n); codes in label order); other labels
    go through a hash table (``pandas.factorize``, O(n); codes in order of first appearance).
    """
    labels = np.asarray(labels)
    if labels.ndim != 1:
        raise ValueError(f"labels must be 1-D, got shape {labels.shape}")
    rng = _int_range(labels)
    if rng is not None:
        lo, hi = rng
        codes = (labels - lo).astype(np.int64, copy=False)
        used = np.bincount(codes, minlength=hi - lo + 1) > 0
        if used.all():
            return codes, hi - lo + 1
        remap = np.cumsum(used) - 1
        return remap[codes], int(used.sum())

    codes, uniques = pd.factorize(labels, sort=False)
    return codes.astype(np.int64, copy=False), int(len(uniques))


def _cells(gcode: np.ndarray, scode: np.ndarray, n_g: int, n_s: int):
    """Non-empty cells (class, cluster, count) of paired codes, sorted by class then cluster."""
    if gcode.size == 0:
        e = np.zeros(0, dtype=np.int64)
        return e, e, np.zeros(0)
    key, cnt = sorted_counts(gcode * np.int64(n_s) + scode)
    return key // n_s, key % n_s, cnt.astype(np.float64)


def _dense_counts(lt: np.ndarray, lp: np.ndarray) -> np.ndarray | None:
    """The (class range x cluster range) table of counts of two small-range integer label
    arrays, from one ``np.bincount`` over the key lt * span + lp; rows and columns are the
    label values lo..hi, in order. The cluster range is read first; the class range comes with
    the keys, block by block. None when the labels are not such integers or the table would
    exceed max(n, 2^20) cells (then :func:`factorize` and :func:`_cells` do the work)."""
    if not (lt.size and np.issubdtype(lt.dtype, np.integer)):
        return None
    rs = _int_range(lp)
    if rs is None or rs[1] - rs[0] + 1 > max(lt.size, 1 << 20):
        return None
    span_s = rs[1] - rs[0] + 1
    key = np.empty(lt.size, dtype=np.int64)
    lows, highs = [], []
    for start in range(0, lt.size, _BLOCK):
        block, out = lt[start:start + _BLOCK], key[start:start + _BLOCK]
        lows.append(block.min())
        highs.append(block.max())
        np.multiply(block, span_s, out=out, casting="unsafe")
        np.add(out, lp[start:start + _BLOCK], out=out, casting="unsafe")
    lo_g, hi_g = int(min(lows)), int(max(highs))
    span_g = hi_g - lo_g + 1
    size = span_g * span_s
    if (span_g - 1 > max(4 * lt.size, 1 << 16) or size > max(lt.size, 1 << 20)
            or max(abs(lo_g), abs(hi_g)) * span_s + max(abs(rs[0]), abs(rs[1])) >= 1 << 62):
        return None                     # (the last: the keys may have overflowed)
    off = lo_g * span_s + rs[0]         # the key of (lo_g, lo_s)
    if not 0 <= off <= size:            # negative labels, or a far offset: shift the keys
        key -= off
        off = 0
    return np.bincount(key, minlength=off + size)[off:].reshape(span_g, span_s)


def contingency_from_labels(labels_true, labels_pred) -> Contingency:
    """The contingency table of one topic given two label arrays (non-overlapping clusterings).

    Small-range integer labels (the common case) take one ``np.bincount`` pass over the items;
    other labels one hash factorisation per array first. The class and cluster sizes are the
    table's margins (counted once, over the cells, not again over the items).

    Parameters
    ----------
    labels_true, labels_pred : array-like of shape (n_items,)
        Gold class and system cluster of each item (any hashable labels).
    """
    lt = np.asarray(labels_true)
    lp = np.asarray(labels_pred)
    if lt.ndim != 1 or lp.ndim != 1:
        raise ValueError("labels_true and labels_pred must be 1-D")
    if lt.shape != lp.shape:
        raise ValueError(
            f"labels_true and labels_pred must have the same length, got {lt.size} and {lp.size}"
        )
    counts = _dense_counts(lt, lp)
    if counts is not None:
        # codes: the labels present, in label order (as :func:`factorize` gives them)
        row, col = counts.sum(axis=1), counts.sum(axis=0)
        used_g, used_s = row > 0, col > 0
        if not used_g.all():
            counts, row = counts[used_g], row[used_g]
        if not used_s.all():
            counts, col = counts[:, used_s], col[used_s]
        n_g, n_s = counts.shape
        full = counts > 0
        if 2 * np.count_nonzero(full) >= full.size:
            # mostly non-empty: every cell, by class then cluster, the empty ones with count 0
            # (cheaper than picking the others out; see the class docstring)
            cls = np.repeat(np.arange(n_g), n_s)
            clu = np.tile(np.arange(n_s), n_g)
            cnt = counts.ravel().astype(np.float64)
        else:                              # the non-empty cells, by class then cluster
            cls = np.repeat(np.arange(n_g), full.sum(axis=1))
            clu = np.broadcast_to(np.arange(n_s), counts.shape)[full]
            cnt = counts[full].astype(np.float64)
        class_size, cluster_size = row.astype(np.float64), col.astype(np.float64)
    else:
        g, n_g = factorize(lt)
        s, n_s = factorize(lp)
        cls, clu, cnt = _cells(g, s, n_g, n_s)
        class_size = np.bincount(cls, weights=cnt, minlength=n_g)
        cluster_size = np.bincount(clu, weights=cnt, minlength=n_s)
    zero = np.zeros(1)
    return Contingency(
        n_topics=1, cell_class=cls, cell_cluster=clu, cell_count=cnt,
        cell_topic=np.zeros(cls.size, dtype=np.int64), class_size=class_size,
        cluster_size=cluster_size, class_topic=np.zeros(n_g, dtype=np.int64),
        cluster_topic=np.zeros(n_s, dtype=np.int64), row_sum=class_size, col_sum=cluster_size,
        n_items=np.array([float(lt.size)]), overlapping=False, missing_self_recall=zero,
    )


def _expand(gold: Membership, run: Membership, n_items: int):
    """(class, cluster) of every element of L(e) × C(e), over all items."""
    ng = np.bincount(gold.item, minlength=n_items)
    ns = np.bincount(run.item, minlength=n_items)
    if ng.max(initial=0) <= 1 and ns.max(initial=0) <= 1:
        # one label each: the rows of both are aligned by item (every item has exactly one)
        return gold.label.astype(np.int64), run.label.astype(np.int64)
    s_start = np.concatenate(([0], np.cumsum(ns)))[:-1]
    rep = ns[gold.item]  # each gold row repeated once per system label of its item
    g_rows = np.repeat(np.arange(gold.item.size), rep)
    block_start = np.concatenate(([0], np.cumsum(rep)))[:-1]
    within = np.arange(g_rows.size) - np.repeat(block_start, rep)
    s_rows = s_start[gold.item[g_rows]] + within
    return gold.label[g_rows].astype(np.int64), run.label[s_rows].astype(np.int64)


def build_contingency(
    gold: Membership,
    run: Membership,
    item_topic: np.ndarray,
    n_topics: int,
    missing: np.ndarray | None = None,
    penalize: bool = False,
) -> Contingency:
    """The contingency tables of every topic of one aligned system.

    Parameters
    ----------
    gold, run : Membership
        The gold and the aligned run (every gold item has at least one label in both).
    item_topic : ndarray of int, shape (n_items,)
    n_topics : int
    missing : ndarray of bool, shape (n_items,), optional
        Items the system did not assign (:attr:`AlignedRun.missing`).
    penalize : bool
        Whether the ``penalize`` policy applies to the missing items (BCubed recall 0).
    """
    n_items = int(item_topic.size)
    g, s = _expand(gold, run, n_items)
    n_g, n_s = gold.n_labels, run.n_labels
    cls, clu, cnt = _cells(g, s, n_g, n_s)
    class_topic = gold.label_topic.astype(np.int64)
    cluster_topic = run.label_topic.astype(np.int64)
    # the margins over the cells (few), not over the items again
    row_sum = np.bincount(cls, weights=cnt, minlength=n_g)
    col_sum = np.bincount(clu, weights=cnt, minlength=n_s)
    overlapping = bool(g.size != n_items)
    class_size: np.ndarray
    cluster_size: np.ndarray
    if overlapping:  # the sizes count each item once, the margins once per expanded pair
        class_size = np.bincount(gold.label, minlength=n_g).astype(np.float64)
        cluster_size = np.bincount(run.label, minlength=n_s).astype(np.float64)
    else:
        class_size, cluster_size = row_sum, col_sum
    n_per_topic = np.bincount(item_topic, minlength=n_topics).astype(np.float64)
    msr: np.ndarray = np.zeros(n_topics)
    if penalize and missing is not None and missing.any():
        # without overlap each missing item e has one class L(e); its self pair is the only
        # recall credit it gets (its cluster is a singleton), worth 1/|L(e)|.
        miss_rows = missing[gold.item]
        n_labels_of_item = np.bincount(gold.item, minlength=n_items)
        w = 1.0 / (class_size[gold.label[miss_rows]] * n_labels_of_item[gold.item[miss_rows]])
        msr = np.bincount(item_topic[gold.item[miss_rows]], weights=w, minlength=n_topics)
    return Contingency(
        n_topics=n_topics, cell_class=cls, cell_cluster=clu, cell_count=cnt,
        cell_topic=class_topic[cls], class_size=class_size, cluster_size=cluster_size,
        class_topic=class_topic, cluster_topic=cluster_topic, row_sum=row_sum, col_sum=col_sum,
        n_items=n_per_topic, overlapping=overlapping, missing_self_recall=msr,
    )
