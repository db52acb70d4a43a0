"""Campaign -> per-topic Reliability / Sensitivity for every run at once.

Builds the two :class:`~metrics.measures.organisation.reliability.Side` objects of a campaign, every
run
stacked as its own groups (group = run × topic, item = run × item), so that one call of
:func:`~metrics.measures.organisation.reliability.reliability_sensitivity` scores all runs and
topics.

Missing items (a campaign without a tail only; with a tail an unlisted item is in the tail):
the aligned run puts each on the run's last level of that topic (level 1 where it lists
nothing), as a cluster of its own; under ``penalize`` its occurrence scores Reliability 1 and its
gold occurrences Sensitivity 0 (as in BCubed, ``docs/organisation.md`` §5), under
``singleton`` it is scored like any other occurrence, ``error`` raises.
"""

from __future__ import annotations

from collections.abc import Sequence

import numpy as np

from metrics.errors import CampaignAlignmentError
from metrics.measures.organisation._sorted import unique_int
from metrics.measures.organisation.reliability import Side, reliability_sensitivity
from metrics.measures.organisation.weights import DEFAULT_N, DEFAULT_W
from metrics.model.campaign import Campaign, Membership

__all__ = ["RS_METRICS", "organisation_rs", "membership_levels"]

#: metric name -> (which measure, which relations)
RS_METRICS: dict[str, tuple[str, str]] = {
    "reliability": ("reliability", "both"),
    "sensitivity": ("sensitivity", "both"),
    "reliability_priority": ("reliability", "priority"),
    "sensitivity_priority": ("sensitivity", "priority"),
    "reliability_relatedness": ("reliability", "relatedness"),
    "sensitivity_relatedness": ("sensitivity", "relatedness"),
}


def membership_levels(m: Membership) -> np.ndarray:
    """The level of every row (1 for a flat clustering)."""
    return np.ones(m.n_rows, dtype=np.int64) if m.level is None else m.level.astype(np.int64)


def _cluster_codes(m: Membership, level: np.ndarray, block: np.ndarray) -> np.ndarray:
    if not m.clustered:
        return np.full(level.size, -1, dtype=np.int64)
    key = (block * (m.n_labels + 1) + m.label.astype(np.int64)) * (int(level.max(initial=0)) + 1)
    return key + level


def campaign_sides(campaign: Campaign, systems: Sequence[str], missing: str = "penalize"
                   ) -> tuple[Side, Side, int, int]:
    """The run side and the gold side of ``systems``, stacked (see the module docstring)."""
    n_items, n_topics = campaign.n_items, campaign.n_topics
    gold = campaign.gold_membership
    g_level = membership_levels(gold)
    keep = g_level >= 1  # level 0: listed in the tail (a judgment of grade 0)
    g_item = gold.item[keep].astype(np.int64)
    g_level = g_level[keep]
    g_topic = campaign.item_topic[g_item].astype(np.int64)
    g_cluster_raw = _cluster_codes(gold, membership_levels(gold),
                                   np.zeros(gold.n_rows, np.int64))[keep]

    parts: dict[str, list] = {k: [] for k in
                              ("t", "i", "l", "c", "o", "gt", "gi", "gl", "gc", "go")}
    for r, name in enumerate(systems):
        run = campaign.runs[name]
        level = membership_levels(run)
        item = run.item.astype(np.int64)
        cluster = _cluster_codes(run, level, np.full(run.n_rows, 2 * r + 1, np.int64))
        override = np.full(item.size, np.nan)
        g_override = np.full(g_item.size, np.nan)
        if not campaign.tail:
            absent = np.ones(n_items, dtype=bool)
            absent[item] = False
            absent_gold = absent[g_item]
            if absent_gold.any():
                if missing == "error":
                    raise CampaignAlignmentError(
                        f"system {name!r} misses {int(unique_int(g_item[absent_gold]).size)} "
                        "gold item(s) and missing='error'")
                miss = unique_int(g_item[absent_gold])
                last = np.ones(n_topics, dtype=np.int64)
                np.maximum.at(last, campaign.item_topic[item], level)
                m_level = last[campaign.item_topic[miss]]
                base = (int(cluster.max(initial=0)) + 1) if run.clustered else -1
                m_cluster = (base + np.arange(miss.size) if run.clustered
                             else np.full(miss.size, -1, np.int64))
                item = np.concatenate((item, miss))
                level = np.concatenate((level, m_level))
                cluster = np.concatenate((cluster, m_cluster))
                if missing == "penalize":
                    override = np.concatenate((override, np.ones(miss.size)))
                    g_override[absent_gold] = 0.0
                else:
                    override = np.concatenate((override, np.full(miss.size, np.nan)))
        parts["t"].append(r * n_topics + campaign.item_topic[item].astype(np.int64))
        parts["i"].append(r * n_items + item)
        parts["l"].append(level)
        parts["c"].append(cluster)
        parts["o"].append(override)
        parts["gt"].append(r * n_topics + g_topic)
        parts["gi"].append(r * n_items + g_item)
        parts["gl"].append(g_level)
        parts["gc"].append(g_cluster_raw)
        parts["go"].append(g_override)

    def cat(k):
        return np.concatenate(parts[k]) if parts[k] else np.zeros(0, np.int64)

    def dense_clusters(codes, groups):
        out = np.full(codes.size, -1, dtype=np.int64)
        has = codes >= 0
        if has.any():
            key = np.stack((groups[has], codes[has]), axis=1)
            flat = key[:, 0] * (int(key[:, 1].max()) + 1) + key[:, 1]
            out[has] = unique_int(flat, return_inverse=True)[1]
        return out

    run_t, gold_t = cat("t"), cat("gt")
    run_side = Side(run_t, cat("i"), cat("l"), dense_clusters(cat("c"), run_t), cat("o"))
    gold_side = Side(gold_t, cat("gi"), cat("gl"), dense_clusters(cat("gc"), gold_t), cat("go"))
    return run_side, gold_side, n_items * len(systems), n_topics * len(systems)


def organisation_rs(campaign: Campaign, systems: Sequence[str], specs: Sequence,
                    missing: str = "penalize") -> dict[str, np.ndarray]:
    """Scores of the Reliability / Sensitivity ``specs`` for ``systems``.

    Returns
    -------
    dict canonical metric string -> ndarray (n_systems, n_topics).
    """
    run_side, gold_side, n_items, n_groups = campaign_sides(campaign, systems, missing)
    out: dict[str, np.ndarray] = {}
    cache: dict[tuple, object] = {}
    for spec in specs:
        key = (float(spec.params.get("n", DEFAULT_N)), float(spec.params.get("w", DEFAULT_W)))
        if key not in cache:
            cache[key] = reliability_sensitivity(run_side, gold_side, n_items, n_groups,
                                                 campaign.tail, *key)
        res = cache[key]
        which, kind = RS_METRICS[spec.name]
        values = getattr(res, which)[kind]
        out[str(spec)] = values.reshape(len(systems), campaign.n_topics)
    return out
