"""Dask engine: items per second against the in-memory engine and scikit-learn's route.

The default run stays short: sizes come from environment variables.

* ``UNANIMITY_BENCH_DASK_ITEMS`` (default 2,000,000): gold items of the synthetic campaign
  (scripts/make_large_campaign.py, one topic, one system, mean cluster size 10) scored by the
  Dask engine on a 2-worker LocalCluster and by the numpy engine after an in-memory load.
  Ratio: Dask items/s over numpy items/s (load + evaluate both; < 1 expected on one machine:
  the Dask engine is for what does not fit).
* ``UNANIMITY_BENCH_DASK_SKLEARN_ITEMS`` (default 1,000,000; the issue's figure is 10M): the
  same campaign's BCubed P/R by scikit-learn's ``contingency_matrix`` route (sparse table in
  memory, then the BCubed sums) against the Dask engine's items/s.

``--quick`` (bench/run.py): skipped (starting a local cluster alone takes seconds); run
``python bench/run.py dask`` with the variables above for a smaller figure.

Run alone as ``python bench/bench_dask.py --items 100000000 --memory-limit 8GB`` for the large
case: it writes the campaign (unless ``--path`` holds one), runs the Dask engine on a
LocalCluster with that total memory limit and prints the timings of the phases, the per-task
costs and the scheduler's per-task overhead (docs/dask.md, "Performance").
"""

from __future__ import annotations

import argparse
import os
import sys
import tempfile
import time
from pathlib import Path

import numpy as np

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))
sys.path.insert(0, str(ROOT / "scripts"))

METRICS = ["bcubed_precision", "bcubed_recall"]


def _campaign(items: int, where: Path) -> Path:
    from make_large_campaign import write_campaign  # noqa: PLC0415

    out = where / f"er_{items}"
    if not (out / "gold.parquet").exists():
        write_campaign(out, items, max(1, items // 10), part_items=min(items, 5_000_000),
                       quiet=True)
    return out


def _sklearn_route(path: Path) -> tuple[float, float]:
    """BCubed P/R via sklearn's sparse contingency matrix; an item the run lacks gets a
    cluster of its own (the singleton policy)."""
    import pandas as pd  # noqa: PLC0415
    from sklearn.metrics.cluster import contingency_matrix  # noqa: PLC0415

    gold = pd.read_parquet(path / "gold.parquet", columns=["item", "cluster"])
    run = pd.read_parquet(path / "runs" / "sys0.parquet", columns=["item", "cluster"])
    m = gold.merge(run, on="item", how="left", suffixes=("_g", "_s"))
    miss = m["cluster_s"].isna().to_numpy()
    pred = m["cluster_s"].to_numpy(dtype=np.float64, copy=True)
    pred[miss] = -1 - np.arange(int(miss.sum()))
    c = contingency_matrix(m["cluster_g"].to_numpy(), pred, sparse=True).tocoo()
    sq = c.data.astype(np.float64) ** 2
    col = np.asarray(c.sum(axis=0)).ravel()[c.col]
    row = np.asarray(c.sum(axis=1)).ravel()[c.row]
    n = len(m)
    return float((sq / col).sum() / n), float((sq / row).sum() / n)


def run():
    from distributed import Client, LocalCluster  # noqa: PLC0415
    from timing import quick  # noqa: PLC0415

    from metrics.engines.dask import evaluate_dask  # noqa: PLC0415
    from metrics.engines.dask.layout import load_in_memory  # noqa: PLC0415
    from metrics.measures.scoring import evaluate  # noqa: PLC0415

    if quick():
        return
    items = int(os.environ.get("UNANIMITY_BENCH_DASK_ITEMS", 2_000_000))
    sk_items = int(os.environ.get("UNANIMITY_BENCH_DASK_SKLEARN_ITEMS", 1_000_000))
    with tempfile.TemporaryDirectory(prefix="unanimity-bench-") as tmp:
        path = _campaign(items, Path(tmp))
        with LocalCluster(n_workers=2, threads_per_worker=1, processes=True,
                          dashboard_address=":0") as cluster, Client(cluster) as client:
            t0 = time.perf_counter()
            res = evaluate_dask(path, METRICS, client=client)
            t_dask = time.perf_counter() - t0
            sk_path = _campaign(sk_items, Path(tmp))
            t0 = time.perf_counter()
            res_sk = evaluate_dask(sk_path, METRICS, missing="singleton", client=client)
            t_dask_sk = time.perf_counter() - t0
        t0 = time.perf_counter()
        ref = evaluate(load_in_memory(path), METRICS)
        t_np = time.perf_counter() - t0
        assert np.allclose(ref["value"], res.scores["value"], rtol=0, atol=1e-12)
        t0 = time.perf_counter()
        p, r = _sklearn_route(sk_path)
        t_sk = time.perf_counter() - t0
        assert np.allclose([p, r], res_sk.scores["value"], rtol=0, atol=1e-12)
    yield (f"dask_vs_numpy_{items / 10**6:g}M", t_np / t_dask,
           f"dask {items / t_dask:,.0f} items/s ({t_dask:.1f} s) vs numpy load+evaluate "
           f"{items / t_np:,.0f} items/s ({t_np:.1f} s), 2 local workers")
    yield (f"dask_vs_sklearn_contingency_{sk_items / 10**6:g}M", t_sk / t_dask_sk,
           f"dask {sk_items / t_dask_sk:,.0f} items/s ({t_dask_sk:.1f} s) vs "
           f"sklearn contingency_matrix route {sk_items / t_sk:,.0f} items/s ({t_sk:.1f} s)")


def _large(argv: list[str]) -> int:
    from distributed import Client  # noqa: PLC0415

    from metrics.engines.dask import evaluate_dask, local_cluster  # noqa: PLC0415

    ap = argparse.ArgumentParser(description="the large Dask engine case")
    ap.add_argument("--items", type=int, default=100_000_000)
    ap.add_argument("--path", type=Path, default=Path(tempfile.gettempdir()) / "unanimity-large")
    ap.add_argument("--memory-limit", default="8GB")
    ap.add_argument("--partition-rows", type=int, default=1_000_000)
    a = ap.parse_args(argv)
    t0 = time.perf_counter()
    path = _campaign(a.items, a.path)
    print(f"campaign ready in {time.perf_counter() - t0:.0f} s: {path}", flush=True)
    with tempfile.TemporaryDirectory(prefix="unanimity-dask-") as spill, \
            local_cluster(a.memory_limit, local_directory=spill) as cluster, \
            Client(cluster) as client:
        # scheduler overhead: round trips of empty tasks
        t0 = time.perf_counter()
        client.gather(client.map(lambda i: i, range(2000), pure=False))
        per_task = (time.perf_counter() - t0) / 2000
        print(f"scheduler: {per_task * 1e3:.2f} ms per empty task (2,000 tasks)", flush=True)
        from distributed import get_task_stream  # noqa: PLC0415

        with get_task_stream(client) as ts:
            t0 = time.perf_counter()
            res = evaluate_dask(path, METRICS, client=client, partition_rows=a.partition_rows,
                                say=lambda m: print(m, flush=True))
            wall = time.perf_counter() - t0
        spent: dict[str, list[float]] = {}
        for task in ts.data:
            for ss in task["startstops"]:
                if ss["action"] == "compute":
                    prefix = str(task["key"][0] if isinstance(task["key"], tuple)
                                 else task["key"]).rsplit("-", 1)[0]
                    spent.setdefault(prefix, []).append(ss["stop"] - ss["start"])
    print(f"evaluated {a.items:,} items in {wall:.0f} s ({a.items / wall:,.0f} items/s), "
          f"{res.partitions} partitions", flush=True)
    for prefix, d in sorted(spent.items(), key=lambda kv: -sum(kv[1]))[:12]:
        print(f"  {prefix:50s} {len(d):6d} tasks  {sum(d):8.1f} s  "
              f"{np.median(d):.3f} s median", flush=True)
    print(res.scores.to_string(), flush=True)
    return 0


if __name__ == "__main__":
    sys.exit(_large(sys.argv[1:]))
