"""Extended BCubed and Reliability/Sensitivity for overlapping clusterings (docs/measures.md §3).

One kernel, :func:`overlap_scores`, serves campaign evaluation (:func:`extended_bcubed`, many
topics, ``missing="penalize"``) and the one-topic
:func:`~metrics.measures.clustering.overlap_sets.extended_bcubed_from_sets` (Python sets in).

Definitions
-----------
C(e) are the clusters and L(e) the classes of item e; for a pair of items (e, e'), e' = e
included, M = |C(e) ∩ C(e')| shared clusters, A = |L(e) ∩ L(e')| shared classes, and
W = Σ_{c ∈ C(e) ∩ C(e')} 1/|c|, V = Σ_{l ∈ L(e) ∩ L(e')} 1/|l|.

**Extended BCubed** (Amigó, Gonzalo, Artiles, Verdejo 2009, "A comparison of extrinsic
clustering evaluation metrics based on formal constraints", *Information Retrieval* 12(4)):
multiplicity precision min(M, A) / M, multiplicity recall min(M, A) / A,

    P(e) = Σ_{e'} [M > 0] min(M, A) / M  /  Σ_{e'} [M > 0]
    R(e) = Σ_{e'} [A > 0] min(M, A) / A  /  Σ_{e'} [A > 0]

and P, R of a topic are the means of P(e), R(e) over its items.

**Reliability / Sensitivity** (Amigó, Gonzalo, Verdejo 2013, "A general evaluation measure for
document organization tasks", SIGIR; "considering the document in each different cluster as a
separate document"): each (item, cluster) occurrence (e, c) is an element of equal weight,
related to the occurrences (e', c) of the same cluster (e' = e included), each with probability
min(1, A / M):

    R = mean over occurrences (e, c) of (1/|c|) Σ_{e' ∈ c} min(1, A / M)
      = Σ_e Σ_{e'} [M > 0] min(1, A / M) W  /  Σ_e |C(e)|

and S alike over the gold's (item, class) occurrences with min(1, M / A) and V. Without overlap
M, A ∈ {0, 1}: R = BCubed precision and S = BCubed recall.

**Missing items** (docs/measures.md §2, ``penalize``): the aligned run gives each a fresh singleton
cluster,
so its precision and reliability are 1; its recall and sensitivity self-pair credit is removed.
As it shares no cluster with any other item that credit is its whole numerator: recall and
sensitivity 0.

How it avoids the item pairs
----------------------------
While M ≤ 1 and A ≤ 1, [M > 0] min(M, A) / M = M·A, [M > 0] min(1, A / M) W = A·W, and so on;
the sums of these over *all* e' need no pair (N[c, l] = #items in cluster c and class l):

    Σ_{e'} M = Σ_{c ∈ C(e)} |c|            Σ_{e'} M·A = Σ_{c ∈ C(e), l ∈ L(e)} N[c, l]
    Σ_{e'} A = Σ_{l ∈ L(e)} |l|            Σ_{e'} A·W = Σ_{c ∈ C(e), l ∈ L(e)} N[c, l] / |c|
                                            Σ_{e'} M·V = Σ_{c ∈ C(e), l ∈ L(e)} N[c, l] / |l|

Only the pairs with M ≥ 2 or A ≥ 2 need a correction (the exact term minus the M·A-type term
above). The pair (e, e) is corrected directly (M = |C(e)|, A = |L(e)|, W and V over e's own
labels). Two distinct items share C(M, 2) unordered pairs of clusters and C(A, 2) pairs of
classes, so a self-join of the (item, label-pair) rows on the label pair, rows of distinct items
only, finds every such pair C(M, 2) + C(A, 2) times; each meeting weighs 1 / (C(M, 2) + C(A, 2))
so that each ordered pair (e, e') counts once. Items with the same (cluster set, class set) are
merged first (multiplicity m), so that many identical overlapping items do not blow up the join.
Labels belong to one topic (:class:`~metrics.model.campaign.Membership`), so pairs never cross
topics
and the per-topic sums are ``bincount`` by topic.

Cost: linear in the (item, label) rows and the cluster × class expansion, plus the rows of the
label-pair join (Σ over label pairs of g(g - 1), g = #groups holding it, processed in chunks of
bounded memory) times the square of the largest label count of an overlapping item. No Python
loop over items or pairs.
"""

from __future__ import annotations

from dataclasses import dataclass
from functools import lru_cache

import numpy as np

from metrics.measures.clustering.safe import safe_div
from metrics.model.campaign import Membership

__all__ = ["OverlapScores", "extended_bcubed", "overlap_scores"]

_DENSE_CELLS = 1 << 16   # N[c, l] as a dense bincount up to this many cells (or 16 per row)
_CHUNK = 1 << 21         # join rows × label slots processed at once
_GROUP_MIN = 1024        # merge identical overlapping items only beyond this many of them


@dataclass(frozen=True)
class OverlapScores:
    """Per-topic extended BCubed and occurrence-level R&S, arrays of shape (n_topics,)."""

    bcubed_precision: np.ndarray
    bcubed_recall: np.ndarray
    reliability: np.ndarray
    sensitivity: np.ndarray


# --- helpers ---------------------------------------------------------------------------------
def _cell_counts(cell: np.ndarray, space: int) -> np.ndarray:
    """How many rows hold each row's key (keys in [0, space))."""
    if space <= max(_DENSE_CELLS, 16 * cell.size):
        return np.bincount(cell, minlength=space)[cell]
    _, inv, cnt = np.unique(cell, return_inverse=True, return_counts=True)
    return cnt[inv.reshape(-1)]


def _signature_groups(pad: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """Group id of every column by equal sorted column (cluster and class codes are disjoint,
    so this is equal (cluster set, class set)), and the first column of each group, groups
    numbered in the order of their first column."""
    mat = np.sort(pad, axis=0)
    order = np.lexsort(mat[::-1])
    srt = mat[:, order]
    new = np.concatenate(([True], np.any(srt[:, 1:] != srt[:, :-1], axis=0)))
    grp_sorted = np.cumsum(new) - 1
    first = order[new]                   # lexsort is stable: the smallest column of its group
    renum = np.empty(first.size, dtype=np.int64)
    renum[np.argsort(first, kind="stable")] = np.arange(first.size)
    grp = np.empty(pad.shape[1], dtype=np.int64)
    grp[order] = renum[grp_sorted]
    return grp, np.sort(first)


@lru_cache(maxsize=64)
def _slot_pairs(kc: int, kl: int) -> tuple[np.ndarray, np.ndarray]:
    """Slot pairs (a < b) of two cluster slots in [0, kc) or two class slots in [kc, kc + kl)."""
    (ca, cb), (la, lb) = np.triu_indices(kc, 1), np.triu_indices(kl, 1)
    return np.concatenate((ca, la + kc)), np.concatenate((cb, lb + kc))


def _pair_terms(m, a, w, v):
    """Exact minus pair-free term of each correction, shape (6, len(m)): (P numerator,
    P denominator, R numerator, R denominator, reliability, sensitivity), for pairs sharing
    m clusters (Σ 1/|c| = w) and a classes (Σ 1/|l| = v)."""
    low, ma = np.minimum(m, a), m * a
    p, r = low / np.maximum(m, 1), low / np.maximum(a, 1)   # [M > 0] min(M, A) / M, and R's
    return np.stack((p - ma, (m > 0) - m, r - ma, (a > 0) - a, (p - a) * w, (r - m) * v))


def _shared(x, hit, kc, inv):
    """M, A, W, V (shape (4, R)) from the label slots ``x`` (K, R) of one owner per column and
    ``hit`` (K, R), which of them the other owner holds too: cluster slots are rows [0, kc)."""
    k_rows = x.shape[0]
    return np.add.reduceat(np.concatenate((hit, hit * inv[x])),
                           [0, kc, k_rows, k_rows + kc], axis=0)


def _join_corrections(pad, kc, mult, inv):
    """Per owner (column of ``pad``), Σ over the pairs sharing ≥ 2 clusters or ≥ 2 classes of
    :func:`_pair_terms`, each pair weighted by the multiplicity of its other owner.

    ``pad`` holds each owner's cluster codes in rows [0, kc) and class codes (offset by n_c)
    in the rows below, padded with ``inv.size - 1``; ``inv`` is 1/|label|, 0 at the padding.
    ``mult`` (or ``None``: all 1) is how many identical items each owner stands for."""
    pad_code = inv.size - 1
    k_rows, n_own = pad.shape
    # the pair (e, e) directly: M = |C(e)|, A = |L(e)|, W and V over e's own labels; an owner
    # standing for mult identical items meets mult of them (itself included) so
    out = _pair_terms(*_shared(pad, pad < pad_code, kc, inv))
    if mult is not None:
        out *= mult
    # (owner, key) of every unordered pair of its clusters or of its classes
    a, b = _slot_pairs(kc, k_rows - kc)
    x, y = pad[a], pad[b]
    valid = y < pad_code              # slots fill from the top: b filled implies a filled
    owner = np.nonzero(valid)[1]
    x, y = x[valid], y[valid]
    key = np.minimum(x, y) * np.int64(pad_code) + np.maximum(x, y)
    order = np.argsort(key, kind="stable")
    key, owner = key[order], owner[order]
    start = np.flatnonzero(np.concatenate(([key.size > 0], key[1:] != key[:-1])))
    size = np.diff(np.append(start, key.size))
    # each row meets the other rows of its block (distinct owners: an owner holds a key once)
    rep = np.repeat(size - 1, size)
    n_join = int(size @ size) - key.size
    if n_join == 0:
        return out
    row_start = np.repeat(start, size)
    budget = max(_CHUNK // (k_rows * k_rows), 1)   # rows × K² compared slots at once
    if n_join <= budget:
        cuts = (0, key.size)
    else:
        before = np.cumsum(rep) - rep
        cuts = np.concatenate(([0], np.flatnonzero(np.diff(before // budget)) + 1, [key.size]))
    # a loop over chunks of the join, not pairs
    for lo, hi in zip(cuts[:-1], cuts[1:], strict=True):
        r = rep[lo:hi]
        left = np.repeat(np.arange(lo, hi), r)
        if left.size == 0:
            continue
        t = np.arange(left.size) - np.repeat(np.cumsum(r) - r, r)   # 0 .. block size - 2
        first = row_start[left]
        right = first + t + (t >= left - first)                       # skipping left itself
        g, h = owner[left], owner[right]
        xg = pad[:, g]
        hit = (xg[:, None, :] == pad[:, h][None]).any(axis=1) & (xg < pad_code)
        m, a_, w, v = _shared(xg, hit, kc, inv)
        # the join meets each pair C(M, 2) + C(A, 2) times
        wt = 2.0 / (m * (m - 1) + a_ * (a_ - 1))
        if mult is not None:
            wt *= mult[h]
        slot = np.arange(6)[:, None] * np.int64(n_own) + g
        out += np.bincount(slot.ravel(), weights=(_pair_terms(m, a_, w, v) * wt).ravel(),
                           minlength=6 * n_own).reshape(6, n_own)
    return out


# --- the kernel ------------------------------------------------------------------------------
def overlap_scores(c_item, c_lab, n_c, l_item, l_lab, n_l, item_topic, n_topics,
                   zero_recall=None) -> OverlapScores:
    """Extended BCubed P/R and occurrence-level Reliability/Sensitivity per topic.

    Parameters
    ----------
    c_item, c_lab : ndarray of int, shape (n_cluster_rows,)
        The system's (item, cluster) rows, sorted by item, no duplicate row; every item has a
        cluster. Cluster codes in ``[0, n_c)``, each belonging to one topic.
    n_c : int
    l_item, l_lab : ndarray of int, shape (n_class_rows,)
        The gold's (item, class) rows, likewise, class codes in ``[0, n_l)``.
    n_l : int
    item_topic : ndarray of int, shape (n_items,)
    n_topics : int
    zero_recall : ndarray of bool, shape (n_items,), optional
        Items whose recall and sensitivity self-pair credit is removed (missing items under
        ``penalize``, which must sit alone in a singleton cluster): they score 0.

    Returns
    -------
    OverlapScores
        1 for a topic without items (or occurrences).

    Notes
    -----
    With Σ over all e' (e' = e included) and Σ' over the pairs with M ≥ 2 or A ≥ 2 only:

        P(e) = (Σ M·A + Σ' ([M > 0] min(M, A)/M - M·A)) / (Σ M + Σ' ([M > 0] - M))
        R(e) = (Σ M·A + Σ' ([A > 0] min(M, A)/A - M·A)) / (Σ A + Σ' ([A > 0] - A))
        R-numerator(e) = Σ A·W + Σ' ([M > 0] min(1, A/M) - A) W,   R = Σ_e R-num / Σ_e |C(e)|
        S-numerator(e) = Σ M·V + Σ' ([A > 0] min(1, M/A) - M) V,   S = Σ_e S-num / Σ_e |L(e)|

    The Σ come from label sizes and the cluster × class table N, the Σ' from a self-join of the
    label-pair rows (module docstring; Amigó et al. 2009, Amigó, Gonzalo, Verdejo 2013).
    """
    n = int(item_topic.size)
    c_item, c_lab = np.asarray(c_item, np.int64), np.asarray(c_lab, np.int64)
    l_item, l_lab = np.asarray(l_item, np.int64), np.asarray(l_lab, np.int64)
    # clusters and classes in one code space (classes offset by n_c, n_c + n_l the padding);
    # "side" rows: cluster rows of item e at e, class rows at n + e (sorted by side)
    code = np.concatenate((c_lab, l_lab + n_c))
    side = np.concatenate((c_item, l_item + n))
    size = np.bincount(code, minlength=n_c + n_l + 1).astype(np.float64)
    inv = np.divide(1.0, size, out=np.zeros(size.size), where=size > 0)
    k = np.bincount(side, minlength=2 * n)                             # |C(e)|, |L(e)|
    kc, kl = k[:n], k[n:]

    # Σ over all e', no pair: label sizes and N[c, l] on the C(e) × L(e) expansion
    sums = np.empty((6, n))
    sums[1:4:2] = np.bincount(side, weights=size[code], minlength=2 * n).reshape(2, n)  # Σ M, A
    l_start = np.cumsum(kl) - kl
    rep = kl[c_item]                                    # each cluster row × the item's classes
    x_row = np.repeat(np.arange(c_item.size), rep)
    x_item, x_c = c_item[x_row], c_lab[x_row]
    x_l = l_lab[np.arange(x_row.size) + np.repeat(l_start[c_item] - np.cumsum(rep) + rep, rep)]
    nxt = _cell_counts(x_c * np.int64(n_l) + x_l, n_c * n_l).astype(np.float64)
    sums[0] = np.bincount(x_item, weights=nxt, minlength=n)                    # Σ M·A
    sums[2] = sums[0]
    sums[4] = np.bincount(x_item, weights=nxt * inv[x_c], minlength=n)         # Σ A·W
    sums[5] = np.bincount(x_item, weights=nxt * inv[n_c + x_l], minlength=n)   # Σ M·V

    # Σ' over pairs sharing ≥ 2 clusters or ≥ 2 classes: only items with 2+ of either
    cx = np.flatnonzero((kc >= 2) | (kl >= 2))
    if cx.size:
        kc_max, kl_max = max(int(kc.max()), 1), max(int(kl.max()), 1)
        local = np.full(n, -1, dtype=np.int64)
        local[cx] = np.arange(cx.size)
        own = local[np.concatenate((c_item, l_item))]
        rows = np.flatnonzero(own >= 0)          # the rows of those items, sorted by side
        s = side[rows]
        # slot of a row: its rank among its item's clusters, or kc_max + rank among classes
        slot = rows - (np.cumsum(k) - k)[s]
        slot[rows >= c_item.size] += kc_max
        pad = np.full((kc_max + kl_max, cx.size), n_c + n_l, dtype=np.int64)
        pad.reshape(-1)[slot * cx.size + own[rows]] = code[rows]
        if cx.size > _GROUP_MIN:   # a speed-up only: the join then meets each signature once
            grp, first = _signature_groups(pad)
            mult = np.bincount(grp, minlength=first.size).astype(np.float64)
            sums[:, cx] += _join_corrections(pad[:, first], kc_max, mult, inv)[:, grp]
        else:
            sums[:, cx] += _join_corrections(pad, kc_max, None, inv)

    if zero_recall is not None:
        sums[2, zero_recall] = 0.0
        sums[5, zero_recall] = 0.0

    # per topic: Σ P(e), Σ R(e), Σ R-num, Σ S-num; #items, #cluster and #class occurrences
    sums[0] /= sums[1]
    sums[2] /= sums[3]
    sums[1], sums[3] = kc, kl
    if n_topics == 1:
        tot = sums.sum(axis=1, keepdims=True)
    else:
        slot = np.arange(6)[:, None] * np.int64(n_topics) + item_topic
        tot = np.bincount(slot.ravel(), weights=sums.ravel(), minlength=6 * n_topics)
        tot = tot.reshape(6, n_topics)
    num = tot[[0, 2, 4, 5]]
    den = np.empty((4, n_topics))
    den[:2] = np.bincount(item_topic, minlength=n_topics)
    den[2:] = tot[[1, 3]]
    out = np.clip(safe_div(num, den, 1.0), 0.0, 1.0)
    return OverlapScores(bcubed_precision=out[0], bcubed_recall=out[1], reliability=out[2],
                         sensitivity=out[3])


def extended_bcubed(
    gold: Membership,
    run: Membership,
    item_topic: np.ndarray,
    n_topics: int,
    missing: np.ndarray | None = None,
    penalize: bool = False,
) -> OverlapScores:
    """Extended BCubed P/R and Reliability/Sensitivity per topic (overlap allowed).

    Parameters
    ----------
    gold, run : Membership
        Gold and aligned run; every item has at least one label in both (missing items a
        singleton cluster of their own).
    item_topic : ndarray of int, shape (n_items,)
    n_topics : int
    missing : ndarray of bool, shape (n_items,), optional
        Items the system did not assign.
    penalize : bool
        Apply ``missing="penalize"``: missing items get recall and sensitivity 0.

    Returns
    -------
    OverlapScores

    See Also
    --------
    overlap_scores : the kernel, with the formulas.
    """
    zero = missing if (penalize and missing is not None and np.any(missing)) else None
    return overlap_scores(run.item, run.label, run.n_labels, gold.item, gold.label,
                          gold.n_labels, item_topic, n_topics, zero)
