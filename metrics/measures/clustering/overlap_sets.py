"""Extended BCubed of one topic given as Python sets (each item's classes and clusters): the
rows the overlap kernel reads, made without a Python loop over labels where the labels are
integers (:func:`~metrics.measures.clustering.overlap.overlap_scores`, docs/measures.md §3)."""

from __future__ import annotations

from array import array
from itertools import chain

import numpy as np
import pandas as pd

from metrics.measures.clustering.overlap import overlap_scores

__all__ = ["extended_bcubed_from_sets"]


def _flatten(sets):
    """Per-item label counts and the flat label list; ``None`` if an item is not a collection."""
    try:
        try:  # bytes are the cheapest container of small counts
            lens = np.frombuffer(bytearray(map(len, sets)), dtype=np.uint8)
        except ValueError:  # an item with 256 labels or more
            lens = np.fromiter(map(len, sets), dtype=np.int64, count=len(sets))
    except TypeError:
        return None
    return lens, list(chain.from_iterable(sets))


def _rows_from_sets(sets) -> tuple[np.ndarray, np.ndarray, int]:
    """(item, label code) rows sorted by item then code, without duplicates, and #codes.

    ``sets[e]`` is an iterable of hashable labels or a single label (``str`` or ``int``).
    Labels are equal only if Python-equal and of the same kind (1 is not "1", 1.5 is not 1).
    """

    flat_lens, flat = _flatten(sets), None
    if flat_lens is not None:
        try:  # a C long long array takes ints (bools, numpy ints) only: no str, float, tuple
            flat = np.frombuffer(array("q", flat_lens[1]), dtype=np.int64)
        except (TypeError, OverflowError):
            pass
    if flat is None:
        # labels other than ints of int64 range, or single labels instead of collections
        sets = [[x] if isinstance(x, (str, int, np.integer)) else x for x in sets]
        flat_lens = _flatten(sets)
        flat = np.fromiter(flat_lens[1], dtype=object, count=len(flat_lens[1]))
    lens = flat_lens[0]
    if lens.size and lens.min() == 0:
        raise ValueError(f"item {int(np.argmin(lens))} has no label")
    if flat.dtype.kind == "i" and flat.size and flat.min() >= 0 and flat.max() < 4 * flat.size:
        codes, n_codes = flat, int(flat.max()) + 1
    else:
        codes, names = pd.factorize(flat)
        n_codes = len(names)
    item = np.repeat(np.arange(lens.size, dtype=np.int64), lens)
    if lens.size and lens.max() > 1:   # a list may repeat a label; sort each item's labels
        key = np.sort(item * n_codes + codes)
        new = key[1:] != key[:-1]
        if not new.all():
            key = key[np.concatenate(([True], new))]
        item, codes = np.divmod(key, n_codes)
    return item, codes, n_codes


def extended_bcubed_from_sets(gold_sets, system_sets) -> tuple[float, float]:
    """Extended BCubed P and R of one topic given, per item, its classes and its clusters.

    Parameters
    ----------
    gold_sets, system_sets : sequence of iterables of hashable labels, length n_items
        ``gold_sets[e]`` the classes of item e, ``system_sets[e]`` its clusters (non-empty).

    Returns
    -------
    (P, R) : tuple of float
        (1, 1) for no items. Computed by :func:`overlap_scores`.
    """
    if len(gold_sets) != len(system_sets):
        raise ValueError(f"{len(gold_sets)} gold items but {len(system_sets)} system items")
    l_item, l_lab, n_l = _rows_from_sets(gold_sets)
    c_item, c_lab, n_c = _rows_from_sets(system_sets)
    out = overlap_scores(c_item, c_lab, n_c, l_item, l_lab, n_l,
                         np.zeros(len(gold_sets), dtype=np.int64), 1)
    return float(out.bcubed_precision[0]), float(out.bcubed_recall[0])
