"""Distinct integer keys, sorted, with their counts or with the code of every item.

Both functions return exactly what ``np.unique(key, return_counts=True)`` and
``np.unique(key, return_inverse=True)`` return. When the key range is small (at most
max(4 n, 2^20) values) they do it in O(n) with one ``np.bincount`` over the range instead of
sorting the n items; otherwise they call ``np.unique`` (a hash table plus a sort of the
distinct keys, measured, is slower than numpy's sort). Used for the contingency cells
(:mod:`metrics.model.contingency`) and the Dask engine's per-partition counts.
"""

from __future__ import annotations

import numpy as np

__all__ = ["sorted_counts", "sorted_codes"]


def _dense(key: np.ndarray) -> tuple[int, int] | None:
    """(lo, span) of a non-empty key array whose range is small enough for a bincount."""
    if key.size == 0:
        return None
    lo, hi = int(key.min()), int(key.max())
    return (lo, hi - lo + 1) if hi - lo < max(4 * key.size, 1 << 20) else None


def sorted_counts(key: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """The distinct values of integer ``key`` (sorted) and how often each occurs."""
    key = np.asarray(key)
    dense = _dense(key)
    if dense is None:
        return np.unique(key, return_counts=True)
    counts = np.bincount(key - dense[0], minlength=dense[1])
    nz = np.flatnonzero(counts)
    return (nz + dense[0]).astype(key.dtype, copy=False), counts[nz]


def sorted_codes(key: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """The distinct values of integer ``key`` (sorted) and, per item, the position of its value
    among them."""
    key = np.asarray(key)
    dense = _dense(key)
    if dense is None:
        values, codes = np.unique(key, return_inverse=True)
        return values, codes.reshape(-1)
    present = np.bincount(key - dense[0], minlength=dense[1]) > 0
    rank = np.cumsum(present) - 1
    return (np.flatnonzero(present) + dense[0]).astype(key.dtype, copy=False), rank[key - dense[0]]
