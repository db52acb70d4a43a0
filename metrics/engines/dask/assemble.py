"""From the summed count tables to the score table: the reduce step of the Dask engine.

The tables of :mod:`metrics.engines.dask.partition`, summed over the partitions, hold the
non-empty contingency cells of every (system, topic), the class and cluster sizes, the missing
items and the signatures of the items with several labels. Here they become one
:class:`~metrics.model.contingency.Contingency` per system (the missing items given singleton
clusters
of their own, as :meth:`metrics.model.campaign.Campaign.aligned` does) and, for an overlapping
system,
the (item, label) rows of the extended BCubed kernel rebuilt from the signatures. Every number
is then computed by the in-memory engine's own kernels (each metric's kernel, declared by its
provider, :mod:`metrics.measures.provider`), and composites from their parts: one source of
every number.
"""

from __future__ import annotations

from dataclasses import dataclass
from functools import cached_property

import numpy as np
import pandas as pd

from metrics.engines.dask.partition import LABEL_SEP, SIDE_SEP
from metrics.measures.clustering.overlap import OverlapScores, overlap_scores
from metrics.measures.provider import MetricSpec, combine_composites, expand_specs
from metrics.measures.scoring import SCORE_COLUMNS, SystemScorer
from metrics.model.contingency import Contingency

__all__ = ["Counts", "SystemCounts", "system_counts", "score_table"]


@dataclass
class Counts:
    """The summed count tables of a campaign (columns as in :mod:`~.partition`)."""

    topics: np.ndarray          # topic names, sorted; codes are positions
    gold_topics: pd.DataFrame
    gold_classes: pd.DataFrame  # sorted by topic, class: the class code is the row
    run_topics: pd.DataFrame
    extra_topics: pd.DataFrame
    clusters: pd.DataFrame
    cells: pd.DataFrame
    missing: pd.DataFrame
    signatures: pd.DataFrame

    @cached_property
    def items_per_topic(self) -> np.ndarray:
        g = self.gold_topics
        return np.bincount(g["topic"], weights=g["items"], minlength=self.topics.size)

    @cached_property
    def gold_overlapping(self) -> bool:
        return bool(self.gold_topics["multi"].sum() > 0)

    @cached_property
    def class_lookup(self) -> pd.MultiIndex:
        return pd.MultiIndex.from_arrays([self.gold_classes["topic"].to_numpy(),
                                          self.gold_classes["class"].to_numpy()])

    def of(self, table: str, system: int) -> pd.DataFrame:
        frame = getattr(self, table)
        return frame[frame["system"].to_numpy() == system]


@dataclass
class SystemCounts:
    """One system's contingency and, with overlap, the inputs of the extended BCubed kernel."""

    table: Contingency
    overlap_args: tuple | None


def _codes(lookup: pd.MultiIndex, topic, label) -> np.ndarray:
    """Row of each (topic, label) in ``lookup``; signature labels (text) are converted to the
    lookup's label type first."""
    label = np.asarray(label)
    kind = lookup.levels[1].dtype
    if pd.api.types.is_integer_dtype(kind) and label.dtype.kind not in "iu":
        label = label.astype(np.int64)
    idx = lookup.get_indexer(pd.MultiIndex.from_arrays([np.asarray(topic), label]))
    if (idx < 0).any():
        raise AssertionError("a label of the counts is not in the size tables")
    return idx


def _parse_signatures(sig: pd.DataFrame) -> tuple[pd.DataFrame, pd.DataFrame]:
    """(group, label) rows of the cluster sets and of the class sets; group = row of ``sig``."""
    parts = sig["signature"].astype(str).str.partition(SIDE_SEP)
    out = []
    for col in (0, 2):
        s = parts[col].str.split(LABEL_SEP).explode()
        s = s[s.astype(str) != ""]
        out.append(pd.DataFrame({"group": s.index.to_numpy(np.int64),
                                 "label": s.astype(str).to_numpy(object)}))
    return out[0], out[1]


def _expand(group: np.ndarray, code: np.ndarray, mult: np.ndarray, start: np.ndarray):
    """(item, code) rows of groups of identical items: group g stands for items
    start[g] .. start[g] + mult[g] - 1; rows sorted by item then code."""
    rep = mult[group]
    first = np.repeat(np.cumsum(rep) - rep, rep)
    item = np.repeat(start[group], rep) + (np.arange(first.size) - first)
    code = np.repeat(code, rep)
    order = np.lexsort((code, item))
    return item[order], code[order]


def system_counts(counts: Counts, system: int, penalize: bool) -> SystemCounts:
    """The contingency table of one system (and its overlap inputs when it overlaps)."""
    n_t = counts.topics.size
    classes = counts.gold_classes
    class_size = classes["n"].to_numpy(np.float64)
    class_topic = classes["topic"].to_numpy(np.int64)
    clus = counts.of("clusters", system).sort_values(["topic", "cluster"], kind="stable")
    clus = clus.reset_index(drop=True)
    cluster_lookup = pd.MultiIndex.from_arrays([clus["topic"].to_numpy(),
                                                clus["cluster"].to_numpy()])
    cells = counts.of("cells", system)
    miss = counts.of("missing", system)
    sig = counts.of("signatures", system).reset_index(drop=True)
    rt = counts.of("run_topics", system)
    overlapping = counts.gold_overlapping or bool(rt["overlapping"].sum() > 0)

    # signatures: cluster and class rows per group; a group without cluster is missing items
    if len(sig):
        sig_c, sig_l = _parse_signatures(sig)
        sig_topic = sig["topic"].to_numpy(np.int64)
        sc_code = _codes(cluster_lookup, sig_topic[sig_c["group"]], sig_c["label"])
        sl_code = _codes(counts.class_lookup, sig_topic[sig_l["group"]], sig_l["label"])
        sig_mult = sig["n"].to_numpy(np.int64)
        sig_missing = np.bincount(sig_c["group"], minlength=len(sig)) == 0
    else:
        sig_c = sig_l = pd.DataFrame({"group": np.zeros(0, np.int64)})
        sc_code = sl_code = sig_topic = sig_mult = np.zeros(0, np.int64)
        sig_missing = np.zeros(0, bool)

    # missing items get fresh singleton clusters: first those with one class, then the others
    m_class = _codes(counts.class_lookup, miss["topic"], miss["class"])
    m_n = miss["n"].to_numpy(np.int64)
    lone_class = np.repeat(m_class, m_n)
    mg = np.flatnonzero(sig_missing)                      # signature groups of missing items
    mg_items = np.repeat(mg, sig_mult[mg])               # one entry per missing item
    n_k = len(clus)
    fresh_lone = n_k + np.arange(lone_class.size)
    fresh_multi = n_k + lone_class.size + np.arange(mg_items.size)
    n_clusters = n_k + lone_class.size + mg_items.size
    cluster_size = np.concatenate((clus["n"].to_numpy(np.float64), np.ones(n_clusters - n_k)))
    cluster_topic = np.concatenate((clus["topic"].to_numpy(np.int64), class_topic[lone_class],
                                    sig_topic[mg_items])).astype(np.int64)

    # cells: the counted ones, then (class, fresh cluster, 1) for every missing item's class
    cls = _codes(counts.class_lookup, cells["topic"], cells["class"])
    clu = _codes(cluster_lookup, cells["topic"], cells["cluster"])
    cnt = cells["n"].to_numpy(np.float64)
    is_ml = np.isin(sig_l["group"].to_numpy(), mg)
    ml_group, ml_class = sig_l["group"].to_numpy()[is_ml], sl_code[is_ml]
    # each missing multi-class item (entry of mg_items) meets every class of its group
    per_group_start = np.zeros(len(sig) + 1, np.int64)
    if mg.size:
        per_group_start[mg + 1] = sig_mult[mg]
    per_group_start = np.cumsum(per_group_start)
    reps = sig_mult[ml_group]
    ml_item = np.repeat(per_group_start[ml_group], reps) + (
        np.arange(reps.sum()) - np.repeat(np.cumsum(reps) - reps, reps))
    ml_cls = np.repeat(ml_class, reps)
    all_cls = np.concatenate((cls, lone_class, ml_cls)).astype(np.int64)
    all_clu = np.concatenate((clu, fresh_lone, fresh_multi[ml_item])).astype(np.int64)
    all_cnt = np.concatenate((cnt, np.ones(lone_class.size + ml_cls.size)))
    key, inv = np.unique(all_cls * np.int64(n_clusters) + all_clu, return_inverse=True)
    all_cnt = np.bincount(inv.reshape(-1), weights=all_cnt)
    all_cls, all_clu = key // n_clusters, key % n_clusters

    n_items = counts.items_per_topic
    msr: np.ndarray = np.zeros(n_t)
    if penalize and (lone_class.size or mg_items.size):
        # Σ over the missing items' classes of 1 / (|L_i| |L(e)|)
        k_of_group = np.bincount(sig_l["group"].to_numpy(), minlength=len(sig))
        w = np.concatenate((1.0 / class_size[lone_class],
                            1.0 / (class_size[ml_cls] * k_of_group[ml_group].repeat(reps))))
        t = np.concatenate((class_topic[lone_class], class_topic[ml_cls]))
        msr = np.bincount(t, weights=w, minlength=n_t)
    if overlapping:
        row_sum = np.bincount(all_cls, weights=all_cnt, minlength=class_size.size)
        col_sum = np.bincount(all_clu, weights=all_cnt, minlength=n_clusters)
    else:
        row_sum, col_sum = class_size, cluster_size
    table = Contingency(
        n_topics=n_t, cell_class=all_cls, cell_cluster=all_clu, cell_count=all_cnt,
        cell_topic=class_topic[all_cls], class_size=class_size, cluster_size=cluster_size,
        class_topic=class_topic, cluster_topic=cluster_topic, row_sum=row_sum, col_sum=col_sum,
        n_items=n_items, overlapping=overlapping, missing_self_recall=msr,
    )
    overlap_args = None
    if overlapping:
        single = cells[cells["single"].to_numpy(bool)]
        one_cls = _codes(counts.class_lookup, single["topic"], single["class"])
        one_clu = _codes(cluster_lookup, single["topic"], single["cluster"])
        covered = np.flatnonzero(~sig_missing)
        # groups: single cells, lone missing items, covered signatures, missing signatures
        n1, n2, n3 = len(single), lone_class.size, covered.size
        mult = np.concatenate((single["n"].to_numpy(np.int64), np.ones(n2, np.int64),
                               sig_mult[covered], np.ones(mg_items.size, np.int64)))
        start = np.cumsum(mult) - mult
        sig_group = np.full(len(sig), -1, np.int64)
        sig_group[covered] = n1 + n2 + np.arange(n3)
        ci, cl = (np.concatenate(parts) for parts in zip(
            (np.arange(n1), one_clu), (n1 + np.arange(n2), fresh_lone),
            (sig_group[sig_c["group"].to_numpy()], sc_code),
            (n1 + n2 + n3 + np.arange(mg_items.size), fresh_multi), strict=False))
        # a missing multi-class item's classes: those of its signature group
        ml_entry = n1 + n2 + n3 + ml_item
        cov_l = ~is_ml
        li, ll = (np.concatenate(parts) for parts in zip(
            (np.arange(n1), one_cls), (n1 + np.arange(n2), lone_class),
            (sig_group[sig_l["group"].to_numpy()[cov_l]], sl_code[cov_l]), strict=False))
        c_item, c_lab = _expand(ci, cl, mult, start)
        l_item, l_lab = _expand(li, ll, mult, start)
        l_item = np.concatenate((l_item, start[ml_entry]))
        l_lab = np.concatenate((l_lab, ml_cls))
        order = np.lexsort((l_lab, l_item))
        topic_of_group = np.concatenate((class_topic[one_cls], class_topic[lone_class],
                                         sig_topic[covered], sig_topic[mg_items]))
        item_topic = np.repeat(topic_of_group, mult)
        zero = None
        if penalize and (n2 or mg_items.size):
            zero = np.repeat(np.r_[np.zeros(n1, bool), np.ones(n2, bool), np.zeros(n3, bool),
                                   np.ones(mg_items.size, bool)], mult)
        overlap_args = (c_item, c_lab, n_clusters, l_item[order], l_lab[order],
                        class_size.size, item_topic, n_t, zero)
    return SystemCounts(table, overlap_args)


class CountsScorer(SystemScorer):
    """The in-memory engine's scorer, fed with a contingency table built from counts."""

    def __init__(self, counts: SystemCounts) -> None:  # noqa: D107 - no gold/run to hold
        self.__dict__["table"] = counts.table
        self.__dict__["overlapping"] = counts.table.overlapping
        self._args = counts.overlap_args

    @cached_property
    def _overlap(self) -> OverlapScores:
        assert self._args is not None, "no overlap in these counts"
        return overlap_scores(*self._args)


def score_table(counts: Counts, system_names: list[str], specs: list[MetricSpec],
                penalize: bool, codes: list[int]) -> pd.DataFrame:
    """The score table ``system, topic, metric, value`` (in-memory engine's layout) of the
    systems ``system_names``, whose codes in ``counts`` are ``codes``."""
    n_t, n_m = counts.topics.size, len(specs)
    needed = expand_specs(specs)
    base = [s for s in needed if not s.provider.components(s)]
    got = {str(s): np.empty((len(system_names), n_t)) for s in base}
    for si, code in enumerate(codes):       # a loop over systems and metrics only
        scorer = CountsScorer(system_counts(counts, code, penalize))
        for spec in base:
            kernel = spec.info.kernel  # the providers the engine accepts have kernels
            assert kernel is not None, f"{spec} has no kernel"
            got[str(spec)][si] = kernel(scorer, **spec.params)
    combine_composites(needed, got)
    values = np.empty((len(system_names), n_t, n_m))
    for mi, spec in enumerate(specs):
        values[:, :, mi] = got[str(spec)]
    return pd.DataFrame({
        "system": np.repeat(np.asarray(system_names, dtype=object), n_t * n_m),
        "topic": np.tile(np.repeat(counts.topics.astype(object), n_m), len(system_names)),
        "metric": np.tile(np.asarray([str(s) for s in specs], dtype=object),
                          len(system_names) * n_t),
        "value": values.reshape(-1),
    }, columns=SCORE_COLUMNS)
