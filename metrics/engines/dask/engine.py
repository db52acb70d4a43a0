"""The Dask engine: a campaign of Parquet long tables -> the score table, on a Dask cluster.

1. Read the gold and every run lazily (``dask.dataframe.read_parquet``), as one frame of rows
   ``topic, item, label, system`` (``system = -1`` for the gold).
2. Shuffle it by a hash of (topic, item): every row of an item, gold and runs, lands in one
   partition. This is the join that aligns the runs with the gold.
3. Map: :func:`~metrics.engines.dask.partition.partition_counts` on each partition.
4. Reduce: sum every count table over the partitions with a group-by (split over several
   output partitions for the large ones: cells, cluster sizes, class sizes).
5. Collect the sums (non-empty cells only) and score them with the in-memory engine's kernels
   (:mod:`~metrics.engines.dask.assemble`). See docs/dask.md (layout, options, measured costs).
"""

from __future__ import annotations

import contextlib
import logging
import math
import operator
import os
import sys
import tempfile
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from pathlib import Path

import numpy as np
import pandas as pd

from metrics.engines.dask.assemble import Counts, score_table
from metrics.engines.dask.layout import CampaignLayout, Table, find_layout
from metrics.engines.dask.partition import TABLES, partition_counts, table_dtypes
from metrics.errors import CampaignAlignmentError, CampaignFormatError, UnanimityError
from metrics.measures.provider import refuse_for_dask
from metrics.measures.registry import MetricSpec, parse_metrics
from metrics.model.campaign import MISSING_POLICIES
from metrics.model.validation import ClusteringReport, LoadNote, ValidationReport

__all__ = ["DaskEvaluation", "evaluate_dask", "local_cluster", "PARTITION_ROWS"]

log = logging.getLogger("metrics.engines.dask")

#: rows (gold + runs) per partition after the shuffle: ~100 MB of pandas per partition and
#: a map step of about a second on one core (docs/dask.md, "Partition size")
PARTITION_ROWS = 2_000_000

#: group-by keys of each count table
_KEYS = {
    "gold_topics": ["topic"], "gold_classes": ["topic", "class"],
    "run_topics": ["system", "topic"], "extra_topics": None,
    "clusters": ["system", "topic", "cluster"],
    "cells": ["system", "topic", "class", "cluster", "single"],
    "missing": ["system", "topic", "class"], "signatures": ["system", "topic", "signature"],
}
_LARGE = ("gold_classes", "clusters", "cells", "signatures")


@dataclass
class DaskEvaluation:
    """What :func:`evaluate_dask` returns.

    Attributes
    ----------
    scores : DataFrame
        ``system, topic, metric, value``, as :func:`metrics.measures.scoring.evaluate`.
    report : ValidationReport
        Rows, items, missing and extra items, duplicates, overlap per system.
    counts : Counts
        The summed count tables the scores were computed from.
    partitions : int
        Partitions of the shuffle.
    """

    scores: pd.DataFrame
    report: ValidationReport
    counts: Counts
    partitions: int


def _int_like(dtype) -> bool:
    return pd.api.types.is_integer_dtype(dtype) and not isinstance(dtype, pd.CategoricalDtype)


def _target_dtype(dtypes) -> object:
    """int64 when every table has integer values, else text."""
    return np.dtype(np.int64) if all(_int_like(d) for d in dtypes) else pd.StringDtype()


def _as(values: pd.Series, dtype) -> pd.Series:
    """``values`` as ``dtype``; a categorical column converts its categories only."""
    if isinstance(values.dtype, pd.CategoricalDtype):
        cats = values.cat.categories.astype(dtype)
        return pd.Series(cats.take(values.cat.codes.to_numpy()), index=values.index)
    return values.astype(dtype)


def _topic_codes(values: pd.Series, topics: pd.Index) -> np.ndarray:
    if isinstance(values.dtype, pd.CategoricalDtype):
        table = topics.get_indexer(values.cat.categories.astype(str))
        return table[values.cat.codes.to_numpy()].astype(np.int32)
    return topics.get_indexer(values.astype(str)).astype(np.int32)


def _normalise(part: pd.DataFrame, source: str, system: int, systems: pd.Index | None,
               item_dtype, label_dtype, n_parts: int, topics: pd.Index,
               keep: np.ndarray | None = None) -> pd.DataFrame:
    """Rows of one input partition as ``topic, item, label, system, _p``: ``topic`` the code of
    the topic in ``topics`` (the gold's, sorted, then the others), ``_p`` the target partition
    of the shuffle, from a hash of topic and item; only the systems ``keep`` (codes) when
    given."""
    for col in ("topic", "item", "cluster") + (("system",) if systems is not None else ()):
        n_null = int(part[col].isna().sum())
        if n_null:
            raise UnanimityError(f"{source}: {n_null} row(s) with an empty {col}")
    out = pd.DataFrame({
        "topic": _topic_codes(part["topic"], topics),
        "item": _as(part["item"], item_dtype),
        "label": _as(part["cluster"], label_dtype),
    })
    if systems is None:
        out["system"] = np.int16(system)
    else:
        out["system"] = systems.get_indexer(_as(part["system"], str)).astype(np.int16) + system
    if keep is not None:
        out = out[np.isin(out["system"].to_numpy(), keep)]
    h = pd.util.hash_pandas_object(out[["topic", "item"]], index=False).to_numpy()
    out["_p"] = (h % np.uint64(n_parts)).astype(np.int64)
    return out


def _map(part: pd.DataFrame, n_topics: int, systems: np.ndarray) -> dict[str, pd.DataFrame]:
    gold_rows = part["system"].to_numpy() < 0
    gold = part.loc[gold_rows, ["topic", "item", "label"]].rename(columns={"label": "class"})
    run = part.loc[~gold_rows, ["topic", "item", "label", "system"]].rename(
        columns={"label": "cluster"})
    return partition_counts(gold, run, n_topics, systems)


def local_cluster(memory_limit: str | int | None = None, n_workers: int | None = None,
                  processes: bool = True, local_directory: str | None = None):
    """A ``distributed.LocalCluster`` sized to the machine: one single-threaded worker per core,
    ``memory_limit`` (total, e.g. ``"8GB"``) split between them, spilling to ``local_directory``
    (default: Dask's) beyond it; its log shows errors only (WARNINGs: noise on a good run)."""
    from dask.utils import parse_bytes  # noqa: PLC0415 - deferred: dask is an optional extra
    from distributed import LocalCluster  # noqa: PLC0415 - deferred: dask is an optional extra

    n = n_workers or max(1, os.cpu_count() or 1)
    per_worker: str | int = "auto"
    if memory_limit is not None:
        try:
            total = (parse_bytes(memory_limit) if isinstance(memory_limit, str)
                     else int(memory_limit))
        except (ValueError, TypeError):
            raise UnanimityError(f"memory limit {memory_limit!r} is not a size like 8GB") from None
        per_worker = max(total // n, 1)
    return LocalCluster(n_workers=n, threads_per_worker=1, processes=processes,
                        memory_limit=per_worker, dashboard_address=":0", silence_logs=logging.ERROR,
                        local_directory=local_directory)


@contextlib.contextmanager
def dask_client(client, scheduler: str | None, memory_limit, say: Callable[[str], None]):
    """``client``, else a client of ``scheduler``, else of a :func:`local_cluster`."""
    from distributed import Client  # noqa: PLC0415 - deferred: dask is an optional extra

    if client is not None:
        yield client
        return
    if scheduler:
        try:
            cl = Client(scheduler, timeout="20s")
        except (OSError, TimeoutError) as exc:
            raise UnanimityError(f"cannot reach the Dask scheduler {scheduler}: {exc}") from None
        with cl:
            say(f"Dask scheduler {scheduler}; dashboard: {cl.dashboard_link}")
            yield cl
        return
    with tempfile.TemporaryDirectory(prefix="unanimity-dask-") as spill, \
            local_cluster(memory_limit, local_directory=spill) as cluster, Client(cluster) as cl:
        mem = sum(w["memory_limit"] for w in cl.scheduler_info()["workers"].values())
        say(f"Dask LocalCluster: {len(cluster.workers)} workers, memory limit "
            f"{mem / 2**30:.1f} GiB in all; dashboard: {cl.dashboard_link}")
        yield cl


def _read(table: Table):
    import dask.dataframe as dd  # noqa: PLC0415 - deferred: dask is an optional extra

    cols = ["topic", "item", "cluster"] + (["system"] if table.has_system else [])
    try:
        frame = dd.read_parquet(str(table.path), columns=[table.columns[c] for c in cols])
    except (OSError, ValueError) as exc:
        raise CampaignFormatError(table.path, f"cannot read Parquet ({exc})") from None
    return frame.rename(columns={table.columns[c]: c for c in cols})


def _distinct(values: pd.Series) -> pd.Series:
    return pd.Series(pd.unique(_as(values, str)))


def _first_seen(column):
    """A lazy column of the distinct values of ``column`` per partition, in order of first
    appearance (computed, its ``pd.unique`` is the order of first appearance overall)."""
    return column.map_partitions(_distinct, meta=(column.name, "str"))


def compute_all(client, collections: list, progress: bool) -> list:
    """``collections`` computed on ``client`` (Dask's progress bar on stderr if ``progress``)."""
    futures = client.compute(collections)
    if progress:
        from distributed import progress as progress_bar  # noqa: PLC0415 - deferred: dask is an optional extra

        with contextlib.redirect_stdout(sys.stderr):
            progress_bar(futures)
        print(file=sys.stderr)
    return client.gather(futures)


def _report(layout: CampaignLayout, counts: Counts, names: list[str], sources: list[str],
            codes: list[int], all_topics: np.ndarray) -> ValidationReport:
    g = counts.gold_topics
    dups = int(g["raw_rows"].sum() - g["rows"].sum())
    gold = ClusteringReport(
        name="gold", sources=[str(layout.gold.path)], rows=int(g["raw_rows"].sum()),
        items=int(g["items"].sum()), topics=int(counts.topics.size), duplicate_rows=dups,
        overlapping_items=int(g["multi"].sum()),
        notes=[LoadNote(str(layout.gold.path), f"{dups} exact duplicate row(s) of the gold "
                        "ignored")] if dups else [],
    )
    n_gold_items = int(g["items"].sum())
    systems = {}
    for i, (si, name) in enumerate(zip(codes, names, strict=False)):
        rt = counts.of("run_topics", si)
        known = rt[rt["topic"].to_numpy() >= 0]
        covered = np.bincount(known["topic"], weights=known["covered"],
                              minlength=counts.topics.size)
        extra_topics = sorted(all_topics[counts.of("extra_topics", si)["topic"].to_numpy()])
        dups = int(rt["raw_rows"].sum() - rt["rows"].sum())
        notes = []
        if dups:
            notes.append(LoadNote(sources[i], f"{dups} exact duplicate row(s) of {name} ignored"))
        if extra_topics:
            notes.append(LoadNote(sources[i], f"{len(extra_topics)} topic(s) not in the gold "
                                  f"ignored, e.g. {extra_topics[0]!r}"))
        n_cov = int(covered.sum())
        if n_cov == 0:
            raise CampaignFormatError(sources[i], f"system {name!r} has no (topic, item) in "
                                      "common with the gold")
        missing_topics = [str(t) for t in counts.topics[covered == 0]]
        systems[name] = ClusteringReport(
            name=name, sources=[sources[i]], rows=int(rt["raw_rows"].sum()),
            items=n_cov + int(rt["extra"].sum()),
            topics=int((known.groupby("topic")["rows"].sum() > 0).sum()) + len(extra_topics),
            missing_items=n_gold_items - n_cov, extra_items=int(rt["extra"].sum()),
            extra_topics=extra_topics, missing_topics=len(missing_topics),
            missing_topic_names=missing_topics, duplicate_rows=dups,
            overlapping_items=int(rt["overlapping"].sum()), notes=notes,
        )
    return ValidationReport(gold=gold, systems=systems, notes=list(layout.notes))


def evaluate_dask(
    path: str | Path,
    metrics: str | Sequence[str | MetricSpec],
    missing: str = "penalize",
    systems: Sequence[str] | None = None,
    scheduler: str | None = None,
    memory_limit: str | int | None = None,
    client=None,
    partition_rows: int = PARTITION_ROWS,
    progress: bool = False,
    say: Callable[[str], None] | None = None,
) -> DaskEvaluation:
    """Score a campaign of Parquet long tables on Dask (docs/dask.md).

    Parameters
    ----------
    path : str or Path
        Campaign folder: ``gold.parquet`` and ``runs/*.parquet`` or ``runs.parquet`` (files or
        folders of part files), columns ``topic, item, cluster[, system]``.
    metrics, missing, systems
        As in :func:`metrics.measures.scoring.evaluate`.
    scheduler : str, optional
        Address of a running Dask scheduler (``tcp://host:8786``); its workers need this
        package installed. Without it, a :func:`local_cluster` is started and closed.
    memory_limit : str or int, optional
        Total memory of the local cluster (``"8GB"``); beyond it workers spill to disk.
    client : distributed.Client, optional
        Use this client (a test's cluster) instead of starting one.
    partition_rows : int
        Target rows (gold + runs) per partition of the shuffle.
    progress : bool
        Show Dask's progress bar on standard error.
    say : callable, optional
        Where to write the one-line log (the dashboard link); default the module logger.

    Returns
    -------
    DaskEvaluation
        The score table equals the in-memory engine's (same rows and order for a campaign in
        one folder of runs; systems of a ``system`` column in order of first appearance).
    """
    import dask  # noqa: PLC0415 - deferred: dask is an optional extra
    import dask.dataframe as dd  # noqa: PLC0415 - deferred: dask is an optional extra

    specs = parse_metrics(metrics if isinstance(metrics, str) else list(metrics))
    refuse_for_dask(specs)
    if missing not in MISSING_POLICIES:
        raise UnanimityError(f"unknown missing policy {missing!r}; expected one of "
                             f"{', '.join(MISSING_POLICIES)}")
    say = say or log.info
    layout = find_layout(path)
    frames = [_read(t) for t in (layout.gold, *layout.runs)]
    item_dtype = _target_dtype([f["item"].dtype for f in frames])
    gold_label = _target_dtype([frames[0]["cluster"].dtype])
    run_label = _target_dtype([f["cluster"].dtype for f in frames[1:]])
    label_dtype = gold_label if gold_label == run_label else pd.StringDtype()
    total_rows = layout.gold.rows + sum(t.rows for t in layout.runs)
    n_parts = max(1, math.ceil(total_rows / max(int(partition_rows), 1)))

    with dask_client(client, scheduler, memory_limit, say) as cl:
        seen = [_first_seen(f["topic"]) for f in frames] + [
            _first_seen(f["system"])
            for t, f in zip(layout.runs, frames[1:], strict=False) if t.has_system]
        seen = compute_all(cl, seen, False)
        topics = sorted(set(seen[0].astype(str)))
        others = set().union(*(set(x.astype(str)) for x in seen[1:len(frames)])) - set(topics)
        all_topics = np.asarray(topics + sorted(others), dtype=object)
        topic_index = pd.Index(all_topics)
        run_systems, sources, parts, k = list[str](), list[str](), [], len(frames)
        for t, f in zip(layout.runs, frames[1:], strict=False):
            names = ([str(s) for s in pd.unique(seen[k].astype(str))] if t.has_system
                     else [str(t.system)])
            k += t.has_system
            base = len(run_systems)
            clash = sorted(set(names) & set(run_systems))
            if clash:
                raise CampaignFormatError(t.path, f"system {clash[0]!r} is given twice")
            run_systems += names
            sources += [f"{t.path} (system {n})" if t.has_system else str(t.path)
                        for n in names]
            parts.append((f, str(t.path), base, pd.Index(names) if t.has_system else None))
        chosen = list(run_systems) if systems is None else list(systems)
        unknown = [s for s in chosen if s not in run_systems]
        if unknown:
            raise UnanimityError(f"unknown system(s) {', '.join(map(repr, unknown))}; known: "
                                 f"{', '.join(run_systems)}")
        index = [run_systems.index(s) for s in chosen]
        keep = np.asarray(index, dtype=np.int16)
        parts = [f.map_partitions(_normalise, src, base, names, item_dtype, label_dtype,
                                  n_parts, topic_index, keep,
                                  meta=_meta(item_dtype, label_dtype))
                 for f, src, base, names in parts
                 if np.isin(np.arange(base, base + (len(names) if names is not None else 1)),
                            keep).any()]
        gold = frames[0].map_partitions(_normalise, str(layout.gold.path), -1, None,
                                        item_dtype, label_dtype, n_parts, topic_index,
                                        meta=_meta(item_dtype, label_dtype))
        # a few partitions: the in-graph shuffle; more: Dask's default (peer-to-peer, on disk)
        method = "tasks" if n_parts <= 16 else None
        rows = dd.concat([gold, *parts]).shuffle(on="_p", npartitions=n_parts,
                                                 shuffle_method=method)
        pieces = [dask.delayed(_map)(d, len(topics), keep) for d in rows.to_delayed()]
        dtypes = table_dtypes(label_dtype, label_dtype)
        lazies = []
        for name in TABLES:
            meta = pd.DataFrame({c: pd.Series([], dtype=d) for c, d in dtypes[name].items()})
            frame = dd.from_delayed([dask.delayed(operator.getitem)(p, name) for p in pieces],
                                    meta=meta, verify_meta=False)
            keys = _KEYS[name]
            if keys is None:
                lazies.append(frame.drop_duplicates())
                continue
            split = max(1, n_parts // 4) if name in _LARGE else 1
            lazies.append(frame.groupby(keys, sort=False).sum(split_out=split).reset_index())
        say(f"Dask engine: {total_rows:,} rows in {n_parts} partition(s)")
        results = compute_all(cl, lazies, progress)

    tables = dict(zip(TABLES, results, strict=False))
    tables["gold_classes"] = tables["gold_classes"].sort_values(
        ["topic", "class"], kind="stable").reset_index(drop=True)
    counts = Counts(topics=np.asarray(topics, dtype=object), **tables)
    report = _report(layout, counts, chosen, [sources[i] for i in index], index, all_topics)
    if missing == "error":
        for s in chosen:
            n = report.systems[s].missing_items
            if n:
                raise CampaignAlignmentError(
                    f"system {s!r} misses {n} gold item(s) and missing='error'")
    scores = score_table(counts, chosen, specs, missing == "penalize", index)
    return DaskEvaluation(scores=scores, report=report, counts=counts, partitions=n_parts)


def _meta(item_dtype, label_dtype) -> pd.DataFrame:
    return pd.DataFrame({
        "topic": pd.Series([], dtype=np.int32), "item": pd.Series([], dtype=item_dtype),
        "label": pd.Series([], dtype=label_dtype), "system": pd.Series([], dtype=np.int16),
        "_p": pd.Series([], dtype=np.int64)})
