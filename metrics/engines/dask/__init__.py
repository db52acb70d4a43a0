"""The Dask engine: evaluate campaigns larger than memory, from a laptop to a cluster.

``evaluate_dask(path, metrics, ...)`` reads a campaign of Parquet long tables, aligns the runs
with the gold by a distributed shuffle (join) on (topic, item), sums the contingency counts by
group-bys and scores them with the in-memory engine's kernels: the same score table as
:func:`metrics.measures.scoring.evaluate`. Needs the optional ``dask`` extra (``pip install
.[dask]``);
nothing here is imported by ``import metrics``. See docs/dask.md.
"""

from metrics.engines.dask.engine import PARTITION_ROWS, DaskEvaluation, evaluate_dask, local_cluster

__all__ = ["DaskEvaluation", "evaluate_dask", "local_cluster", "PARTITION_ROWS"]
