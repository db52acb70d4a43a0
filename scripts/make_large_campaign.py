"""Write a large synthetic entity-resolution campaign as partitioned Parquet long tables.

The gold has many small clusters (records of one entity); each system merges a share of
neighbouring gold clusters, splits a share of them in two, leaves some records unassigned
(missing items) and adds some records of its own (extra items), as a record-linkage system
does. Everything is drawn from a seed, one partition at a time, so memory stays bounded by
the partition size whatever the campaign size::

    python scripts/make_large_campaign.py OUT --items 100000000 --clusters 10000000

writes ``OUT/gold.parquet/part-00000.parquet ...`` and ``OUT/runs/<system>.parquet/part-...``
(columns ``topic, item, cluster``), the layout ``unanimity evaluate OUT --engine dask`` reads
(docs/dask.md). Gold cluster sizes are the gaps between random cut points: many singletons
and pairs, a geometric tail, mean items / clusters.
"""

from __future__ import annotations

import argparse
import sys
import time
from pathlib import Path

import numpy as np
import pyarrow as pa
import pyarrow.parquet as pq

__all__ = ["make_gold", "make_run", "write_campaign"]


def make_gold(rng: np.random.Generator, n: int, k: int, item_offset: int, cluster_offset: int,
              n_topics: int) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """``n`` gold items in ``k`` clusters: (local cluster 0..k-1, item id, topic of each cluster).

    Cluster sizes are the gaps between ``k - 1`` random cut points of the ``n`` items; item ids
    are a random permutation of ``item_offset .. item_offset + n - 1``.
    """
    k = max(1, min(k, n))
    local = np.zeros(n, dtype=np.int64)
    if k > 1:
        local[rng.choice(n - 1, size=k - 1, replace=False) + 1] = 1
    local = np.cumsum(local)
    item = item_offset + rng.permutation(n).astype(np.int64)
    topic_k = (cluster_offset + np.arange(k)) % n_topics
    return local, item, topic_k


def make_run(rng: np.random.Generator, local: np.ndarray, item: np.ndarray,
             topic_k: np.ndarray, sys_offset: int, extra_offset: int, n_topics: int,
             merge: float, split: float, missing: float, extra: float) -> dict:
    """A run over one partition's gold (items sorted by ``local`` cluster).

    Gold cluster j joins cluster j - 1 (same topic) with probability ``merge``; a cluster of
    2+ items is cut in two halves with probability ``split``; each item is left out with
    probability ``missing``; ``extra`` new items per gold item are added in clusters of ~3.
    """
    k = topic_k.size
    merged = (rng.random(k) < merge) & np.r_[False, topic_k[1:] == topic_k[:-1]]
    sys_of_cluster = np.cumsum(~merged) - 1
    sizes = np.bincount(local, minlength=k)
    rank = np.arange(local.size) - (np.cumsum(sizes) - sizes)[local]
    second = ((rng.random(k) < split) & (sizes >= 2))[local] & (rank >= sizes[local] // 2)
    cluster = sys_offset + np.where(second, k + local, sys_of_cluster[local])
    keep = rng.random(local.size) >= missing
    n_extra = int(rng.binomial(local.size, extra)) if extra > 0 else 0
    return {
        "topic": np.concatenate((topic_k[local][keep], rng.integers(0, n_topics, n_extra))),
        "item": np.concatenate((item[keep], extra_offset + np.arange(n_extra, dtype=np.int64))),
        "cluster": np.concatenate(
            (cluster[keep], sys_offset + 2 * k + rng.integers(0, n_extra // 3 + 1, n_extra))),
    }


def _table(cols: dict) -> pa.Table:
    topic = pa.array(np.char.add("t", cols["topic"].astype(str)),
                     type=pa.string()).dictionary_encode()
    return pa.table({"topic": topic, "item": pa.array(cols["item"], pa.int64()),
                     "cluster": pa.array(cols["cluster"], pa.int64())})


#: item ids of extra items start here (gold items are numbered 0 .. items - 1)
EXTRA_BASE = 10**15


def write_campaign(out: Path, items: int, clusters: int, systems: int = 1, topics: int = 1,
                   part_items: int = 5_000_000, merge: float = 0.05, split: float = 0.05,
                   missing: float = 0.01, extra: float = 0.005, seed: int = 0,
                   quiet: bool = False) -> None:
    """Write the campaign under ``out`` (see the module docstring); system s merges and
    splits (s + 1) times the given shares."""
    out = Path(out)
    n_parts = max(1, -(-items // part_items))
    (out / "gold.parquet").mkdir(parents=True, exist_ok=True)
    for s in range(systems):
        (out / "runs" / f"sys{s}.parquet").mkdir(parents=True, exist_ok=True)
    t0 = time.perf_counter()
    done_items = done_clusters = 0
    for p in range(n_parts):
        n = min(part_items, items - done_items)
        k = max(1, min(n, (clusters * (done_items + n)) // items - done_clusters))
        local, item, topic_k = make_gold(np.random.default_rng([seed, p]), n, k, done_items,
                                         done_clusters, topics)
        name = f"part-{p:05d}.parquet"
        gold = {"topic": topic_k[local], "item": item, "cluster": done_clusters + local}
        pq.write_table(_table(gold), out / "gold.parquet" / name, compression="zstd")
        for s in range(systems):
            run = make_run(np.random.default_rng([seed, p, s + 1]), local, item, topic_k,
                           2 * done_clusters, EXTRA_BASE + done_items, topics,
                           merge * (1 + s), split * (1 + s), missing, extra)
            pq.write_table(_table(run), out / "runs" / f"sys{s}.parquet" / name,
                           compression="zstd")
        done_items += n
        done_clusters += k
        if not quiet:
            print(f"partition {p + 1}/{n_parts}: {done_items:,} items, {done_clusters:,} "
                  f"clusters, {time.perf_counter() - t0:.0f} s", file=sys.stderr, flush=True)


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("out", type=Path)
    ap.add_argument("--items", type=int, default=1_000_000)
    ap.add_argument("--clusters", type=int, default=100_000)
    ap.add_argument("--systems", type=int, default=1)
    ap.add_argument("--topics", type=int, default=1)
    ap.add_argument("--part-items", type=int, default=5_000_000,
                    help="gold items per Parquet partition")
    ap.add_argument("--merge", type=float, default=0.05, help="share of clusters merged")
    ap.add_argument("--split", type=float, default=0.05, help="share of clusters split")
    ap.add_argument("--missing", type=float, default=0.01, help="share of items left out")
    ap.add_argument("--extra", type=float, default=0.005, help="extra items per gold item")
    ap.add_argument("--seed", type=int, default=0)
    a = ap.parse_args(argv)
    write_campaign(a.out, a.items, a.clusters, a.systems, a.topics, a.part_items, a.merge,
                   a.split, a.missing, a.extra, a.seed)
    return 0


if __name__ == "__main__":
    sys.exit(main())
