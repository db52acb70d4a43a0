"""A campaign → the per-topic score table ``system, topic, metric, value`` (docs/measures.md §1,
§3).

For each system, the run is aligned with the gold under the missing-item policy (docs/measures.md
§2), the
contingency tables of all its topics are built once
(:func:`metrics.model.contingency.build_contingency`)
and every requested metric is derived from them, vectorised across topics. Overlapping
clusterings send BCubed and Reliability/Sensitivity through
:mod:`metrics.measures.clustering.overlap`.
Campaign means (macro averages) are a separate step, e.g.
``table.groupby(["system", "metric"], sort=False)["value"].mean()``.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from functools import cached_property

import numpy as np
import pandas as pd

from metrics.errors import UnanimityError
from metrics.io.build import RawClustering, build_campaign
from metrics.measures.clustering import bcubed as _bcubed
from metrics.measures.clustering import entropy as _entropy
from metrics.measures.clustering import mapping as _mapping
from metrics.measures.clustering import pairs as _pairs
from metrics.measures.clustering import purity as _purity
from metrics.measures.clustering.overlap import extended_bcubed
from metrics.measures.organisation.blocks import organisation_blocks
from metrics.measures.registry import MetricSpec, available_metrics, parse_metrics
from metrics.model.campaign import AlignedRun, Campaign, Membership
from metrics.model.contingency import Contingency, build_contingency
from metrics.model.score_table import SCORE_COLUMNS

__all__ = ["evaluate", "contingency_table", "SystemScorer", "score_clusterings",
           "SCORE_COLUMNS"]



class SystemScorer:
    """Lazily computed, cached per-topic quantities of one aligned system.

    Every metric kernel reads what it needs from here, so that metrics of one family share one
    computation (the contingency table, the entropies, the pair counts, BCubed).
    """

    def __init__(self, gold: Membership, aligned: AlignedRun, item_topic: np.ndarray,
                 n_topics: int, item_type: np.ndarray | None = None) -> None:
        self.gold = gold
        self.item_type = item_type  # word type per item, for the type-level kernels
        self.aligned = aligned
        self.item_topic = item_topic
        self.n_topics = n_topics
        self.penalize = aligned.policy == "penalize"

    @cached_property
    def table(self) -> Contingency:
        return build_contingency(self.gold, self.aligned.membership, self.item_topic,
                                 self.n_topics, self.aligned.missing, self.penalize)

    @cached_property
    def overlapping(self) -> bool:
        return self.gold.is_overlapping or self.aligned.membership.is_overlapping

    @cached_property
    def entropies(self) -> _entropy.Entropies:
        return _entropy.entropies(self.table)

    @cached_property
    def pairs(self) -> _pairs.PairCounts:
        return _pairs.pair_counts(self.table)

    @cached_property
    def _overlap(self):
        return extended_bcubed(self.gold, self.aligned.membership, self.item_topic,
                               self.n_topics, self.aligned.missing, self.penalize)

    @cached_property
    def bcubed(self) -> tuple[np.ndarray, np.ndarray]:
        if self.overlapping:
            o = self._overlap
            return o.bcubed_precision, o.bcubed_recall
        return _bcubed.bcubed(self.table)

    @cached_property
    def purity(self) -> np.ndarray:
        return _purity.purity(self.table)

    @cached_property
    def inverse_purity(self) -> np.ndarray:
        return _purity.inverse_purity(self.table)

    @cached_property
    def fscore(self) -> np.ndarray:
        return _purity.fscore(self.table)

    @cached_property
    def accuracy_m1(self) -> np.ndarray:
        return _mapping.accuracy_m1(self.table)

    @cached_property
    def accuracy_11(self) -> np.ndarray:
        return _mapping.accuracy_11(self.table)

    def adapted_recall(self, k: int) -> np.ndarray:
        return _bcubed.adapted_recall(self.bcubed[1], k)

    @cached_property
    def reliability_sensitivity(self) -> tuple[np.ndarray, np.ndarray]:
        if self.overlapping:
            o = self._overlap
            return o.reliability, o.sensitivity
        return self.bcubed


#: name -> kernel(scorer, **params) -> ndarray (n_topics,): the registry's kernels, by name
KERNELS: dict[str, Callable[..., np.ndarray]] = {
    m.name: m.kernel for m in available_metrics(type_level=True) if m.kernel is not None}


def _specs(metrics: str | Sequence[str | MetricSpec]) -> list[MetricSpec]:
    return parse_metrics(metrics if isinstance(metrics, str) else list(metrics))


def evaluate(
    campaign: Campaign,
    metrics: str | Sequence[str | MetricSpec],
    missing: str = "penalize",
    systems: Sequence[str] | None = None,
    mappings_out: list | None = None,
) -> pd.DataFrame:
    """Score every system of a campaign on every topic, in memory (the front door's
    :func:`metrics.evaluate` also runs the Dask engine, docs/dask.md).

    Parameters
    ----------
    campaign : Campaign
        A campaign with clusterings (not a score table).
    metrics : str or sequence of str / MetricSpec
        ``"bcubed_precision,v_measure(beta=2)"`` or a list of names or specs.
    missing : {"penalize", "singleton", "error"}
        Missing-item policy (docs/measures.md §2).
    systems : sequence of str, optional
        A subset of the campaign's systems (default: all, in campaign order).
    mappings_out : list, optional
        When given, the cluster -> tag mappings behind the type-level metrics are appended to
        it, one DataFrame per system
        (:func:`metrics.measures.typelevel.type_entries.scorer_mappings`: the mapping, its
        method and whether its score is exact, docs/type-level.md).

    Returns
    -------
    DataFrame with columns exactly ``system, topic, metric, value``: one row per system, topic
    and metric, ordered by system (campaign order, or the order of ``systems``), topic (sorted),
    then metric (in the order requested); ``metric`` is the canonical string
    (``v_measure(beta=2)``), ``value`` a float64.
    """
    specs = _specs(metrics)
    if not campaign.has_clusterings:
        raise UnanimityError(
            f"campaign {campaign.name!r} holds precomputed scores only: nothing to evaluate"
        )
    names = list(campaign.runs) if systems is None else list(systems)
    unknown = [s for s in names if s not in campaign.runs]
    if unknown:
        raise UnanimityError(
            f"unknown system(s) {', '.join(map(repr, unknown))}; known: {', '.join(campaign.runs)}"
        )
    n_t, n_m = campaign.n_topics, len(specs)
    blocks = np.empty((len(names), n_t, n_m))
    # document organisations and IR measures: every system at once (metrics.measures.organisation)
    done = organisation_blocks(campaign, names, specs, missing, blocks)
    for si, system in enumerate(names):
        if len(done) == n_m:
            break
        aligned = campaign.aligned(system, missing)
        scorer = SystemScorer(campaign.gold_membership, aligned, campaign.item_topic, n_t,
                              item_type=campaign.item_type)
        for mi, spec in enumerate(specs):
            if mi not in done:
                kernel = spec.info.kernel
                if kernel is None:  # a metric no family computed on this campaign
                    raise UnanimityError(f"{spec} cannot be computed on campaign {campaign.name!r}")
                blocks[si, :, mi] = kernel(scorer, **spec.params)
        if mappings_out is not None:
            from metrics.measures.typelevel.type_entries import scorer_mappings  # noqa: PLC0415 - deferred: scipy.sparse, not for IR measures

            rows = scorer_mappings(scorer, system, campaign.topics)
            if rows is not None:
                mappings_out.append(rows)
    per_system = n_t * n_m
    return pd.DataFrame({
        "system": np.repeat(np.asarray(names, dtype=object), per_system),
        "topic": np.tile(np.repeat(np.asarray(campaign.topics, dtype=object), n_m), len(names)),
        "metric": np.tile(np.asarray([str(s) for s in specs], dtype=object), len(names) * n_t),
        "value": blocks.reshape(-1),
    }, columns=list(SCORE_COLUMNS))


def contingency_table(
    campaign: Campaign, system: str, topic: str, missing: str = "penalize"
) -> pd.DataFrame:
    """The contingency table of one system on one topic, for a drill-down view.

    Returns
    -------
    DataFrame of int counts n_ij: index = gold class names (sorted), columns = system cluster
    names (sorted); a missing item appears as its own cluster ``(missing <item>)``. With
    overlap an item counts once in every (class, cluster) pair of L(e) × C(e).
    """
    if not campaign.has_clusterings:
        raise UnanimityError(f"campaign {campaign.name!r} holds precomputed scores only")
    where = np.flatnonzero(np.asarray(campaign.topics) == topic)
    if where.size == 0:
        raise UnanimityError(f"unknown topic {topic!r}")
    t = int(where[0])
    aligned = campaign.aligned(system, missing)
    table = build_contingency(campaign.gold_membership, aligned.membership, campaign.item_topic,
                              campaign.n_topics)
    sel = table.cell_topic == t
    rows = campaign.gold_membership.label_names[table.cell_class[sel]].astype(str)
    cols = aligned.membership.label_names[table.cell_cluster[sel]].astype(str)
    frame = pd.DataFrame({"class": rows, "cluster": cols,
                          "n": table.cell_count[sel].astype(np.int64)})
    out = frame.pivot_table(index="class", columns="cluster", values="n", aggfunc="sum",
                            fill_value=0)
    out = out.sort_index(axis=0).sort_index(axis=1)
    out.index.name, out.columns.name = "class", "cluster"
    return out.astype(np.int64)


def score_clusterings(
    gold: Sequence,
    system: Sequence,
    metrics: str | Sequence[str | MetricSpec],
    missing: str = "penalize",
) -> dict[str, float]:
    """Score one topic given per-item labels: a convenience for toy examples and tests.

    Parameters
    ----------
    gold : sequence, length n_items
        ``gold[e]`` is the class of item e, or an iterable of classes (overlap).
    system : sequence, length n_items
        ``system[e]`` is the cluster of item e, an iterable of clusters, or ``None`` for an item
        the system did not assign (handled by ``missing``).
    metrics, missing
        As in :func:`evaluate`.

    Returns
    -------
    dict canonical metric string -> value.
    """

    if len(gold) != len(system):
        raise ValueError(f"gold has {len(gold)} items, system {len(system)}")

    def raw(labels, source):
        topic, item, label = [], [], []
        for e, labs in enumerate(labels):
            if labs is None:
                continue
            labs = [labs] if isinstance(labs, (str, int, np.integer)) else list(labs)
            for lab in labs:
                topic.append("t")
                item.append(f"{e:09d}")
                label.append(str(lab))
        return RawClustering(source=source, topic=np.asarray(topic, dtype=object),
                             item=np.asarray(item, dtype=object),
                             label=np.asarray(label, dtype=object))

    camp = build_campaign(raw(gold, "gold"), {"system": raw(system, "system")}, name="toy")
    table = evaluate(camp, metrics, missing=missing)
    return dict(zip(table["metric"], table["value"].astype(float), strict=True))
