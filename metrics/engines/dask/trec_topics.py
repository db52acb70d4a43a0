"""The Dask engine on a TREC campaign: IR measures computed by groups of topics.

A folder ``qrels.txt[.gz]`` + ``runs/*.run[.gz]`` (``docs/organisation.md`` §2) and IR
measures only (``nDCG@10``, ``AP(rel=2)``, ...; ``docs/dask.md``, "TREC campaigns"):

1. The qrels are read on the client (one small file): its topics, sorted as the in-memory
   loader sorts them, are cut into ``n_parts`` groups of consecutive topics.
2. Split, one task per run file: the file is read by the in-memory engine's reader
   (:func:`~metrics.io.trec_text.read_trec_columns`: the same rules and the same errors, with the
   file and the line) and its rows are cut by topic group. Rows of topics the qrels lack are
   dropped, as the in-memory loader drops them.
3. Score, one task per group: the qrels rows and every run's rows of the group's topics are
   coded as ranked lists (:func:`~metrics.io.trec.code_ranked_lists`) and scored by
   :func:`~metrics.measures.organisation.ir.ir_scores`, the in-memory engine's route. A topic's
   measures read only that topic's rows, and the relative order of its documents is the same in
   a group's dictionary as in the whole campaign's, so every value is the in-memory engine's.
4. The groups' tables are stacked in the in-memory engine's row order (system, topic, metric).

Memory: a worker holds one run file while splitting it and one group's rows while scoring; the
client holds the qrels and the score table.
"""

from __future__ import annotations

import math
from collections.abc import Callable, Sequence

import numpy as np
import pandas as pd
import pyarrow as pa
import pyarrow.compute as pc

from metrics.errors import CampaignFormatError, UnanimityError
from metrics.io.source import as_node
from metrics.io.trec import code_ranked_lists, trec_files, trec_run_name
from metrics.io.trec_text import POOL, TrecColumns, read_trec_columns
from metrics.measures.organisation.ir import ir_scores
from metrics.measures.organisation.ranked_lists import ranking_campaign
from metrics.measures.registry import MetricSpec, is_ir_measure

__all__ = ["evaluate_trec_dask", "split_by_topic_group", "score_topic_group", "TOPICS_PER_PART"]

#: topics per group when ``n_parts`` is not given: 200 topics of 100 runs x 1,000 documents
#: make 8 groups of 2.5 million run rows (about a second of scoring each)
TOPICS_PER_PART = 25


def _read(path: str, kind: str) -> TrecColumns:
    node = as_node(path)
    return read_trec_columns(node.read_bytes(), kind, str(node))


def _take(cols: TrecColumns, rows: np.ndarray, notes: bool) -> TrecColumns:
    """The rows ``rows`` of ``cols`` (with their source lines)."""
    idx = pa.array(rows)
    return TrecColumns(source=cols.source, qid=pc.take(cols.qid, idx, memory_pool=POOL),
                       docid=pc.take(cols.docid, idx, memory_pool=POOL),
                       value=cols.value[rows], lines=cols.line_numbers()[rows],
                       notes=list(cols.notes) if notes else [])


def split_by_topic_group(cols: TrecColumns, topic_ids: Sequence[str], per_part: int,
                         n_parts: int) -> list[TrecColumns]:
    """The rows of one file cut into ``n_parts`` groups: group g holds the topics
    ``topic_ids[g * per_part:(g + 1) * per_part]`` (rows of other topics dropped; the file's
    notes go with group 0)."""
    code = pc.fill_null(pc.index_in(cols.qid, value_set=pa.array(topic_ids, pa.string()),
                                    memory_pool=POOL), -1).to_numpy()
    group = np.where(code >= 0, code // per_part, n_parts)
    order = np.argsort(group, kind="stable")
    bounds = np.searchsorted(group[order], np.arange(n_parts + 1))
    return [_take(cols, order[bounds[g]:bounds[g + 1]], g == 0) for g in range(n_parts)]


def _split_run(path: str, topic_ids: list[str], per_part: int, n_parts: int
               ) -> list[TrecColumns]:
    cols = _read(path, "run")
    parts = split_by_topic_group(cols, topic_ids, per_part, n_parts)
    if cols.n_rows and not sum(p.n_rows for p in parts):
        raise CampaignFormatError(cols.source, f"system {trec_run_name(path)!r} has no topic in "
                                  "common with the gold")
    return parts


def score_topic_group(qrels: TrecColumns, runs: Sequence[tuple[str, TrecColumns]],
                      names: Sequence[str]) -> pd.DataFrame:
    """The score table (system, topic, metric, value) of the IR measures ``names`` on the
    topics of ``qrels``, from the rows of those topics (the in-memory engine's route)."""
    campaign = ranking_campaign(code_ranked_lists(qrels, iter(runs)), name="", source="",
                                notes=[], testbeds=None)
    systems = [name for name, _ in runs]
    values = ir_scores(campaign, systems, names)
    n_s, n_t, n_m = len(systems), campaign.n_topics, len(names)
    block = np.stack([values[n] for n in names], axis=-1)  # (system, topic, metric)
    return pd.DataFrame({
        "system": np.repeat(np.asarray(systems, dtype=object), n_t * n_m),
        "topic": np.tile(np.repeat(np.asarray(campaign.topics, dtype=object), n_m), n_s),
        "metric": np.tile(np.asarray(names, dtype=object), n_s * n_t),
        "value": block.ravel(),
    })


def _score(qrels: TrecColumns, names: list[str], systems: list[str], *parts: TrecColumns
           ) -> pd.DataFrame:
    return score_topic_group(qrels, list(zip(systems, parts, strict=True)), names)


def evaluate_trec_dask(path: str, specs: Sequence[MetricSpec], client,
                       systems: Sequence[str] | None = None, n_parts: int | None = None,
                       compute: Callable[[object, list], list] | None = None) -> pd.DataFrame:
    """The score table of the IR measures ``specs`` on the TREC campaign folder ``path``,
    computed on ``client`` (a ``distributed.Client``) by groups of topics (module docstring).

    Parameters
    ----------
    n_parts : int, optional
        Topic groups (default: one per :data:`TOPICS_PER_PART` topics, at least one per worker).
    compute : callable, optional
        ``compute(client, delayed_objects) -> results`` (default ``client.compute`` then
        ``client.gather``).

    Returns
    -------
    DataFrame with columns system, topic, metric, value, in the in-memory engine's row order.
    """
    import dask  # noqa: PLC0415 - deferred: dask is an optional extra

    other = [str(s) for s in specs if not is_ir_measure(s)]
    if other:
        raise UnanimityError(f"on a TREC campaign the Dask engine computes IR measures only; "
                             f"{', '.join(other)} need the numpy engine (--engine numpy)")
    qrels_path, run_paths = trec_files(path)
    named = {trec_run_name(p): str(p) for p in run_paths}
    if systems is not None:
        unknown = [s for s in systems if s not in named]
        if unknown:
            raise UnanimityError(f"unknown system(s) {', '.join(unknown)}; known: "
                                 f"{', '.join(named)}")
        named = {s: named[s] for s in systems}  # in the order given, as the numpy engine
    qrels = _read(str(qrels_path), "qrels")
    topic_ids = sorted(pc.unique(qrels.qid).to_pylist(), key=lambda t: t.encode())
    n_workers = max(1, len(client.scheduler_info().get("workers", {})))
    n_parts = n_parts or max(n_workers, math.ceil(len(topic_ids) / TOPICS_PER_PART))
    n_parts = max(1, min(int(n_parts), len(topic_ids)))
    per_part = math.ceil(len(topic_ids) / n_parts)
    n_parts = math.ceil(len(topic_ids) / per_part)
    qrels_parts = split_by_topic_group(qrels, topic_ids, per_part, n_parts)
    split = dask.delayed(_split_run, nout=n_parts)
    pieces = [split(p, topic_ids, per_part, n_parts) for p in named.values()]
    names = [str(s) for s in specs]
    tasks = [dask.delayed(_score)(qrels_parts[g], names, list(named), *[r[g] for r in pieces])
             for g in range(n_parts)]
    if compute is None:
        tables = client.gather(client.compute(tasks))
    else:
        tables = compute(client, tasks)
    table = pd.concat(tables, ignore_index=True)
    # the in-memory engine's order: systems as listed, topics sorted, metrics as asked
    order = np.lexsort((pd.Categorical(table["metric"], names).codes,
                        pd.Categorical(table["topic"], topic_ids).codes,
                        pd.Categorical(table["system"], list(named)).codes))
    return table.iloc[order].reset_index(drop=True)
