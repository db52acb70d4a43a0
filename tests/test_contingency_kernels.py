"""The sort-free counting kernels: distinct keys by bincount (metrics.model.key_counts), the
contingency table of two label arrays in one bincount pass (metrics.model.contingency), and the Dask
partition's de-duplication, each against a brute-force route written from the definition."""

from __future__ import annotations

from collections import Counter

import numpy as np
import pytest

from metrics.engines.dask.partition import _dedupe
from metrics.measures.clustering.bcubed import bcubed_precision_recall
from metrics.measures.clustering.entropy import homogeneity_completeness_v_measure
from metrics.model.contingency import contingency_from_labels, factorize
from metrics.model.key_counts import sorted_codes, sorted_counts


def _keys(rng, kind: int) -> np.ndarray:
    n = int(rng.integers(0, 400))
    if kind == 0:
        return rng.integers(0, 50, n)                      # dense range
    if kind == 1:
        return rng.integers(-30, 30, n)                    # negative values
    if kind == 2:
        return rng.integers(0, 10 ** 12, n) // 10 ** 9     # wide range, repeated values
    if kind == 3:
        return rng.integers(0, 40, n).astype(np.int32)
    return rng.integers(-(2 ** 62), 2 ** 62, n)            # nothing in common


@pytest.mark.parametrize("kind", range(5))
def test_sorted_counts_and_codes_are_np_unique(kind):
    rng = np.random.default_rng(kind)
    for _ in range(20):
        key = _keys(rng, kind)
        values, counts = sorted_counts(key)
        ref = Counter(key.tolist())
        assert values.tolist() == sorted(ref) and counts.tolist() == [ref[v] for v in sorted(ref)]
        for got, exp in zip((values, counts), np.unique(key, return_counts=True)):
            assert np.array_equal(got, exp) and got.dtype == exp.dtype
        values, codes = sorted_codes(key)
        assert np.array_equal(values[codes], key)
        for got, exp in zip((values, codes), np.unique(key, return_inverse=True)):
            assert np.array_equal(got, exp.reshape(-1)) and got.dtype == exp.dtype


def _label_pairs(rng, kind: int):
    n = int(rng.integers(1, 2000))
    k = int(rng.integers(1, 40))
    a = rng.integers(0, k, n)
    b = np.where(rng.random(n) < 0.3, rng.integers(0, k, n), a)
    return [
        (a, b),
        (a + 1000, b - 500),                               # offsets, negative clusters
        (a.astype(np.int32), b.astype(np.uint16)),
        (a * 997, b * 3),                                  # labels with holes
        (a.astype(np.uint64), (b + 2 ** 40).astype(np.int64)),
        (a * 10 ** 15, b),                                 # range too wide for a table
        (np.array([f"c{x}" for x in a], dtype=object), b),
        (np.sort(a), b),
    ][kind]


@pytest.mark.parametrize("kind", range(8))
def test_contingency_from_labels_against_counting_pairs(kind):
    rng = np.random.default_rng(100 + kind)
    for _ in range(6):
        lt, lp = _label_pairs(rng, kind)
        t = contingency_from_labels(lt, lp)
        g, n_g = factorize(lt)
        s, n_s = factorize(lp)
        # brute force: count the (class code, cluster code) pairs item by item
        cells = Counter(zip(g.tolist(), s.tolist()))
        keys = sorted(cells)
        listed = list(zip(t.cell_class.tolist(), t.cell_cluster.tolist()))
        if (t.cell_count == 0).any():  # a mostly full table lists every cell, in order
            assert listed == [(i, j) for i in range(n_g) for j in range(n_s)]
            assert 2 * len(keys) >= n_g * n_s
        nonempty = t.cell_count > 0
        assert [c for c, keep in zip(listed, nonempty) if keep] == keys
        assert t.cell_count[nonempty].tolist() == [float(cells[k]) for k in keys]
        assert t.cell_class.dtype == t.cell_cluster.dtype == np.int64
        assert t.class_size.tolist() == np.bincount(g, minlength=n_g).astype(float).tolist()
        assert t.cluster_size.tolist() == np.bincount(s, minlength=n_s).astype(float).tolist()
        assert t.n_total[0] == lt.size and t.n_items[0] == lt.size


def test_label_kernels_on_permuted_labels():
    # renaming labels (offsets, strings) changes no score
    rng = np.random.default_rng(7)
    a = rng.integers(0, 30, 5000)
    b = np.where(rng.random(5000) < 0.4, rng.integers(0, 30, 5000), a)
    base = [*homogeneity_completeness_v_measure(a, b), *bcubed_precision_recall(a, b)]
    for lt, lp in [(a - 7, b + 10 ** 6), (a.astype(str), b.astype(np.uint8)), (a * 10 ** 14, b)]:
        got = [*homogeneity_completeness_v_measure(lt, lp), *bcubed_precision_recall(lt, lp)]
        assert got == pytest.approx(base, abs=1e-12)


def test_dedupe_against_sorted_set():
    rng = np.random.default_rng(3)
    for trial in range(200):
        n = int(rng.integers(0, 150))
        owner = rng.permutation(n) if trial % 2 else rng.integers(0, max(n // 2, 1), n)
        if trial % 4 == 1 and n > 4:
            owner[:2] = owner[2]                           # a few owners with several rows
        label = rng.integers(0, 9, n)
        o, lab = _dedupe(owner, label, 9)
        assert list(zip(o.tolist(), lab.tolist())) == sorted(set(zip(owner.tolist(), label.tolist())))
        assert o.dtype == lab.dtype == np.int64
