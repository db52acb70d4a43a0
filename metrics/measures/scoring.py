"""A campaign → the per-topic score table ``system, topic, metric, value`` (docs/measures.md §1,
§3), through the metric providers (docs/providers.md).

Every metric is refused or accepted before any work (:func:`metrics.measures.registry.
check_metrics`); the per-system kernels of every family then run in one pass over the systems,
sharing one :class:`~metrics.measures.system_scorer.SystemScorer` per system (the contingency
tables of all its topics are built once, :func:`metrics.model.contingency.build_contingency`,
and every metric is derived from them, vectorised across topics); the providers that score every
system at once (document organisations, IR measures) follow, and composites last. Campaign means
(macro averages) are a separate step, e.g.
``table.groupby(["system", "metric"], sort=False)["value"].mean()``.
"""

from __future__ import annotations

from collections.abc import Sequence

import numpy as np
import pandas as pd

from metrics.comparison.van_rijsbergen import f_alpha
from metrics.errors import UnanimityError
from metrics.io.build import RawClustering, build_campaign
from metrics.measures.provider import (
    MetricSpec,
    Provider,
    combine_composites,
    expand_specs,
    kernel_blocks,
)
from metrics.measures.providers.composite_family import composite_of_labels
from metrics.measures.registry import check_metrics, parse_metrics
from metrics.measures.system_scorer import SystemScorer
from metrics.model.campaign import Campaign
from metrics.model.contingency import build_contingency
from metrics.model.score_table import SCORE_COLUMNS

__all__ = ["evaluate", "score_specs", "as_table", "add_table_composites", "contingency_table",
           "SystemScorer",
           "score_clusterings", "SCORE_COLUMNS"]


def _specs(metrics: str | Sequence[str | MetricSpec]) -> list[MetricSpec]:
    return parse_metrics(metrics if isinstance(metrics, str) else list(metrics))


def score_specs(campaign: Campaign, specs: Sequence[MetricSpec], systems: Sequence[str],
                missing: str = "penalize", on_scorer=None) -> dict[str, np.ndarray]:
    """Every metric of ``specs`` (checked already), through its provider: canonical name ->
    ndarray (n_systems, n_topics).

    The per-system kernels of every family run in one pass over the systems (one shared
    :class:`~metrics.measures.system_scorer.SystemScorer` each,
    :func:`metrics.measures.provider.kernel_blocks`); each other provider scores its metrics for
    every system at once (:meth:`~metrics.measures.provider.Provider.score`); composites are
    combined from their parts last.
    """
    needed = expand_specs(specs)
    base = [s for s in needed if not s.provider.components(s)]
    jobs = [(s, k) for s in base if (k := s.provider.kernel(s, campaign)) is not None]
    blocks = kernel_blocks(campaign, jobs, systems, missing, on_scorer)
    values = {str(s): blocks[:, :, i] for i, (s, _) in enumerate(jobs)}
    groups: dict[int, tuple[Provider, list[MetricSpec]]] = {}
    for s in base:
        if str(s) not in values:
            groups.setdefault(id(s.provider), (s.provider, []))[1].append(s)
    for provider, group in groups.values():
        values.update(provider.score(campaign, group, systems, missing))
    combine_composites(needed, values)
    return values


def as_table(campaign: Campaign, systems: Sequence[str], names: Sequence[str],
             values: dict[str, np.ndarray]) -> pd.DataFrame:
    """The score table ``system, topic, metric, value`` of per-metric arrays (n_systems,
    n_topics): ordered by system, topic, then metric in the order of ``names``."""
    n_t, n_m = campaign.n_topics, len(names)
    blocks = np.empty((len(systems), n_t, n_m))
    for i, n in enumerate(names):
        blocks[:, :, i] = values[n]
    return pd.DataFrame({
        "system": np.repeat(np.asarray(list(systems), dtype=object), n_t * n_m),
        "topic": np.tile(np.repeat(np.asarray(campaign.topics, dtype=object), n_m),
                         len(systems)),
        "metric": np.tile(np.asarray(list(names), dtype=object), len(systems) * n_t),
        "value": blocks.reshape(-1),
    }, columns=list(SCORE_COLUMNS))


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
    check_metrics(campaign, specs)  # before any work: one line naming the metric and kind

    def keep_mappings(scorer, system: str) -> None:
        if mappings_out is not None:
            from metrics.measures.typelevel.type_entries import scorer_mappings  # noqa: PLC0415 - deferred: scipy.sparse, not for IR measures

            rows = scorer_mappings(scorer, system, campaign.topics)
            if rows is not None:
                mappings_out.append(rows)

    values = score_specs(campaign, specs, names, missing, keep_mappings)
    return as_table(campaign, names, [str(s) for s in specs], values)


def add_table_composites(table: pd.DataFrame, names: Sequence[str]) -> pd.DataFrame:
    """A score table with the composites among ``names`` that it lacks, computed from its own
    columns (``F(m1,m2,alpha=…)`` of two of its labels, ``rs_f`` of ``reliability`` and
    ``sensitivity``; :mod:`metrics.measures.providers.composite_family`), topic by topic where a
    system has both parts.

    Raises
    ------
    UnanimityError
        When a part is not in the table, or has a value outside [0, 1].
    """
    have = set(pd.unique(table["metric"]))
    extra = []
    for name in names:
        found = None if name in have else composite_of_labels(name)
        if found is None:
            continue
        (first, second), alpha = found
        absent = [m for m in (first, second) if m not in have]
        if absent:
            raise UnanimityError(f"metric {name!r}: {', '.join(absent)} not in the scores; "
                                 f"available: {', '.join(sorted(map(str, have)))}")
        wide = table[table["metric"].isin([first, second])].pivot_table(
            index=["system", "topic"], columns="metric", values="value", aggfunc="first",
            sort=False).dropna()
        values = wide[[first, second]].to_numpy(dtype=np.float64)
        if values.size and (values.min() < 0 or values.max() > 1):
            raise UnanimityError(f"metric {name!r}: F combines two metrics in [0, 1]; the "
                                 f"scores of {first} or {second} leave [0, 1]")
        extra.append(pd.DataFrame({
            "system": wide.index.get_level_values("system"),
            "topic": wide.index.get_level_values("topic"), "metric": name,
            "value": f_alpha(values[:, 0], values[:, 1], alpha)}, columns=list(SCORE_COLUMNS)))
    return pd.concat([table, *extra], ignore_index=True) if extra else table


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
