"""Benchmarks of the clustering metrics against the libraries users would otherwise pick.

``run()`` returns ``(name, ratio, detail)`` tuples; a ratio > 1 is better than the target:

* ``vs_sklearn_vmeasure_10M``: homogeneity / completeness / V on one topic of 10M items,
  sklearn seconds / our seconds (target ≥ 5).
* ``vs_bcubed_pkg_2000``: extended BCubed P and R on 2,000 overlapping items (10% with two
  clusters, 10% with two classes, 40 labels), ``bcubed`` package seconds / our seconds, both
  from the same dicts / lists of Python sets (target ≥ 1000). Ours is the full
  ``extended_bcubed_from_sets`` call, set conversion included, best of 30 (a ~0.6 ms call is
  at the mercy of scheduler noise on the shared 2-core machine); the package's O(n²) loops
  take ~0.9 s, timed once. The detail also shows the kernel alone (conversion excluded).
* ``replab_all_metrics``: every metric of the registry for the 35 RepLab runs, after loading;
  ratio = 1 s target / measured seconds (target ≥ 1).
* ``extended_bcubed_100k``: extended BCubed (and R&S) on 100,000 items of which 10% have two
  clusters and 10% two classes; ratio = 5 s target / measured seconds.
* ``extended_bcubed_100k_heavy``: the same with 50 labels and 30% of the items with two clusters
  and 30% with two classes (many pairs sharing two labels); ratio = 5 s / measured seconds.
* ``vs_bincount_vmeasure_10M``, ``vs_bincount_bcubed_10M``: homogeneity / completeness / V and
  BCubed P / R from the two label arrays of the first benchmark (10M items, 1000 classes, 30%
  noise: about 950,000 non-empty cells) against one ``np.bincount(labels_a * k + labels_b)`` on
  the same arrays, taking turns, best of 15; ratio = bincount seconds / ours (target >= 0.67: at
  most 1.5x a single bincount pass); the detail adds the median of the 15 rounds' ratios.

``--quick`` (bench/run.py): 1M items instead of 10M (and 300 classes for the bincount figures,
so that the cells stay about a tenth of the items, as at 10M), 500 instead of 2,000 for the bcubed
package, 20,000 instead of 100,000 for extended BCubed.
"""

from __future__ import annotations

import time
from pathlib import Path

import bcubed
import numpy as np
from sklearn.metrics import homogeneity_completeness_v_measure as sk
from timing import best_of, median_ratio, rounds_of_each, sized

from metrics.io import load
from metrics.measures.clustering.bcubed import bcubed_precision_recall
from metrics.measures.clustering.entropy import homogeneity_completeness_v_measure as ours
from metrics.measures.clustering.overlap import extended_bcubed, overlap_scores
from metrics.measures.clustering.overlap_sets import _rows_from_sets, extended_bcubed_from_sets
from metrics.measures.registry import available_metrics
from metrics.measures.scoring import evaluate
from metrics.model.campaign import Membership

ROOT = Path(__file__).resolve().parents[1]



def _noisy_labels(rng, n, k, noise):
    true = rng.integers(0, k, n)
    pred = np.where(rng.random(n) < noise, rng.integers(0, k, n), true)
    return true, pred


def bench_vmeasure(n: int = 10_000_000) -> tuple[str, float, str]:
    n = sized(n, 1_000_000)
    rng = np.random.default_rng(0)
    true, pred = _noisy_labels(rng, n, 1000, 0.3)
    t_ours = best_of(lambda: ours(true, pred), 3)
    t_sk = best_of(lambda: sk(true, pred), 1)
    a, b = ours(true, pred), sk(true, pred)
    assert np.allclose(a, b, atol=1e-9), (a, b)
    return (f"vs_sklearn_vmeasure_{n // 10**6}M", t_sk / t_ours,
            f"{n // 10**6}M items, 1000 classes: ours {t_ours:.3f} s, sklearn {t_sk:.3f} s")


def bench_vs_bincount(n: int = 10_000_000) -> list[tuple[str, float, str]]:
    n, classes = sized(n, 1_000_000), sized(1000, 300)
    rng = np.random.default_rng(0)
    true, pred = _noisy_labels(rng, n, classes, 0.3)
    k = int(pred.max()) + 1
    rounds = rounds_of_each({
        "bincount": lambda: np.bincount(true * k + pred),
        "v": lambda: ours(true, pred),
        "bcubed": lambda: bcubed_precision_recall(true, pred),
    }, repeat=15)
    t = {name: min(v) for name, v in rounds.items()}
    peer = t["bincount"]
    return [(f"vs_bincount_{name}_{n // 10**6}M", peer / t[key],
             f"{label} from label arrays {t[key] * 1e3:.0f} ms = {t[key] / peer:.2f}x one "
             f"np.bincount(labels_a * k + labels_b) ({peer * 1e3:.0f} ms), best of 15; median "
             f"of the 15 rounds' ratios {median_ratio(rounds, key, 'bincount'):.2f}x; "
             "target <= 1.5x")
            for name, key, label in (("vmeasure", "v", "homogeneity/completeness/V"),
                                     ("bcubed", "bcubed", "BCubed P/R"))]


def _overlapping_sets(rng, n, k, share=0.1):
    base = rng.integers(0, k, n)
    gold = [{int(x)} for x in base]
    sys_lab = np.where(rng.random(n) < 0.2, rng.integers(0, k, n), base)
    system = [{int(x)} for x in sys_lab]
    for e in np.flatnonzero(rng.random(n) < share):
        system[e].add(int(rng.integers(0, k)))
    for e in np.flatnonzero(rng.random(n) < share):
        gold[e].add(int(rng.integers(0, k)))
    return gold, system


def bench_bcubed_pkg(n: int = 2000) -> tuple[str, float, str]:
    n = sized(n, 500)
    rng = np.random.default_rng(1)
    gold, system = _overlapping_sets(rng, n, 40)
    ldict = dict(enumerate(gold))
    cdict = dict(enumerate(system))
    t_ours = best_of(lambda: extended_bcubed_from_sets(gold, system), 30)
    rows = (*_rows_from_sets(system), *_rows_from_sets(gold), np.zeros(n, dtype=np.int64), 1)
    t_kernel = best_of(lambda: overlap_scores(*rows), 30)
    t0 = time.perf_counter()
    ref = (bcubed.precision(cdict, ldict), bcubed.recall(cdict, ldict))
    t_pkg = time.perf_counter() - t0
    got = extended_bcubed_from_sets(gold, system)
    assert np.allclose(got, ref, atol=1e-9), (got, ref)
    return (f"vs_bcubed_pkg_{n}", t_pkg / t_ours,
            f"{n:,} overlapping items: ours {t_ours * 1e3:.2f} ms (kernel alone, sets already "
            f"coded: {t_kernel * 1e3:.2f} ms), bcubed package {t_pkg:.2f} s")


def bench_replab() -> tuple[str, float, str]:

    campaign = load(ROOT / "demo_data" / "replab2013")
    names = [m.name for m in available_metrics()]
    seconds = best_of(lambda: evaluate(campaign, names), 3)
    return ("replab_all_metrics", 1.0 / seconds,
            f"{len(names)} metrics x {len(campaign.runs)} runs x {campaign.n_topics} topics "
            f"({sum(m.n_rows for m in campaign.runs.values()):,} assignments): {seconds:.3f} s "
            "(target 1 s)")


def _membership(rng, base, k, share):
    """A one-topic Membership: item e in label base[e], plus a second label for ``share``."""

    n = base.size
    extra = np.flatnonzero(rng.random(n) < share)
    item = np.concatenate((np.arange(n), extra))
    label = np.concatenate((base, rng.integers(0, k, extra.size)))
    key = np.unique(item * k + label)
    return Membership(item=key // k, label=(key % k).astype(np.int32),
                      label_names=np.arange(k).astype(str).astype(object),
                      label_topic=np.zeros(k, dtype=np.int32))


def _overlap_case(seed, n, k, share):
    rng = np.random.default_rng(seed)
    base = rng.integers(0, k, n)
    gold = _membership(rng, base, k, share)
    noisy = np.where(rng.random(n) < 0.2, rng.integers(0, k, n), base)
    return gold, _membership(rng, noisy, k, share), np.zeros(n, dtype=np.int32)


def bench_overlap_100k(n: int = 100_000) -> tuple[str, float, str]:

    n = sized(n, 20_000)
    gold, run, topic = _overlap_case(2, n, 1000, 0.1)
    seconds = best_of(lambda: extended_bcubed(gold, run, topic, 1), 3)
    return (f"extended_bcubed_{n // 1000}k", 5.0 / seconds,
            f"{n:,} items, 10% with two clusters and 10% with two classes, 1000 labels: "
            f"{seconds:.3f} s (target 5 s)")


def bench_overlap_100k_heavy(n: int = 100_000) -> tuple[str, float, str]:

    n = sized(n, 20_000)
    gold, run, topic = _overlap_case(4, n, 50, 0.3)
    seconds = best_of(lambda: extended_bcubed(gold, run, topic, 1), 3)
    return (f"extended_bcubed_{n // 1000}k_heavy", 5.0 / seconds,
            f"{n:,} items, 30% with two clusters and 30% with two classes, 50 labels: "
            f"{seconds:.3f} s (target 5 s)")


def run() -> list[tuple[str, float, str]]:
    """Run every benchmark; (name, ratio, detail) each, ratio ≥ 1 meets the target."""
    # the bincount figures first: scikit-learn's run leaves the process slower for a while
    return [*bench_vs_bincount(), bench_vmeasure(), bench_bcubed_pkg(), bench_replab(),
            bench_overlap_100k(), bench_overlap_100k_heavy()]


if __name__ == "__main__":
    for name, ratio, detail in run():
        print(f"RATIO {name} {ratio:.2f}  # {detail}")
