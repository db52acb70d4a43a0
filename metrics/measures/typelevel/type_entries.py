"""Type-level measures over a campaign: per-topic word-type entries, kernels, mapping export.

A token tagging campaign (:mod:`metrics.io.conllu`) carries the word type of every item
(``Campaign.item_type``). For each topic the gold entry A_i of a type is the set of gold classes
of its tokens and the induced entry B_i the set of clusters of its tokens (Reichart, Abend and
Rappoport, CoNLL 2010, §5: "the set of all gold (induced) clusters with which it appears");
:mod:`metrics.measures.typelevel.type_scores` scores them (``docs/type-level.md``).
"""

from __future__ import annotations

from collections.abc import Callable

import numpy as np
import pandas as pd

from metrics.errors import UnanimityError
from metrics.measures.typelevel.type_scores import (
    MAPPINGS,
    MEASURES,
    TypeEntries,
    TypeScores,
    best_mapping,
    type_scores,
)
from metrics.model.campaign import Campaign, Membership

__all__ = ["TopicEntries", "topic_entries", "type_level_table", "TYPE_KERNELS",
           "type_mappings", "mapping_table", "require_types", "MAPPING_COLUMNS"]


class TopicEntries:
    """The entries of one topic plus the campaign label codes of its local classes / clusters."""

    def __init__(self, entries: TypeEntries, class_codes: np.ndarray,
                 cluster_codes: np.ndarray, type_codes: np.ndarray) -> None:
        self.entries = entries
        self.class_codes = class_codes
        self.cluster_codes = cluster_codes
        self.type_codes = type_codes


def require_types(item_type: np.ndarray | None, what: str = "type-level metrics") -> np.ndarray:
    """The item types, or a clear error when the campaign has none."""
    if item_type is None:
        raise UnanimityError(
            f"{what} need the word type of every item: load a token tagging campaign "
            "(format conllu, docs/type-level.md)")
    return item_type


def _pairs(m: Membership, item_type: np.ndarray, item_topic: np.ndarray, n_types: int):
    """Unique (topic, type, label) triples of a membership, sorted by topic, type, label."""
    topic = item_topic[m.item].astype(np.int64)
    key = (topic * n_types + item_type[m.item]) * max(m.n_labels, 1) + m.label
    key = np.unique(key)
    label = key % max(m.n_labels, 1)
    tkey = key // max(m.n_labels, 1)
    return tkey // n_types, tkey % n_types, label


def topic_entries(gold: Membership, run: Membership, item_type: np.ndarray,
                  item_topic: np.ndarray, n_topics: int) -> list[TopicEntries]:
    """The :class:`TopicEntries` of every topic (types, classes, clusters coded per topic)."""
    n_types = int(item_type.max(initial=-1)) + 1
    g_top, g_type, g_lab = _pairs(gold, item_type, item_topic, n_types)
    r_top, r_type, r_lab = _pairs(run, item_type, item_topic, n_types)
    g_bounds = np.searchsorted(g_top, np.arange(n_topics + 1))
    r_bounds = np.searchsorted(r_top, np.arange(n_topics + 1))
    out = []
    for t in range(n_topics):  # a loop over topics; each step is vectorised over its pairs
        ga, gb = g_bounds[t], g_bounds[t + 1]
        ra, rb = r_bounds[t], r_bounds[t + 1]
        types, inv = np.unique(np.concatenate((g_type[ga:gb], r_type[ra:rb])),
                               return_inverse=True)
        a_type, b_type = inv[: gb - ga], inv[gb - ga:]
        classes, a_class = np.unique(g_lab[ga:gb], return_inverse=True)
        clusters, b_cluster = np.unique(r_lab[ra:rb], return_inverse=True)
        e = TypeEntries(a_type.astype(np.int64), a_class.astype(np.int64),
                        b_type.astype(np.int64), b_cluster.astype(np.int64),
                        int(types.size), int(classes.size), int(clusters.size))
        out.append(TopicEntries(e, classes, clusters, types))
    return out


def type_level_table(entries: list[TopicEntries], mapping: str) -> list[TypeScores]:
    """Per-topic :class:`TypeScores` under ``mapping``."""
    if mapping not in MAPPINGS:
        raise UnanimityError(f"mapping {mapping!r} is none of {', '.join(MAPPINGS)}")
    return [type_scores(te.entries, mapping) for te in entries]


def _scores(scorer, mapping: str) -> list[TypeScores]:
    """Per-topic scores of a :class:`metrics.measures.scoring.SystemScorer`, computed once per
    mapping."""
    cache = scorer.__dict__.setdefault("_type_level", {})
    if "entries" not in cache:
        item_type = require_types(getattr(scorer, "item_type", None))
        cache["entries"] = topic_entries(scorer.gold, scorer.aligned.membership, item_type,
                                         scorer.item_topic, scorer.n_topics)
    if mapping not in cache:
        cache[mapping] = type_level_table(cache["entries"], mapping)
    return cache[mapping]


def _kernel(field: str) -> Callable[..., np.ndarray]:
    def kernel(scorer, mapping: str = "one_to_one") -> np.ndarray:
        return np.array([getattr(s, field) for s in _scores(scorer, mapping)], dtype=float)
    return kernel


#: metric name -> kernel(scorer, mapping=...) -> ndarray (n_topics,), for metrics.measures.scoring
TYPE_KERNELS: dict[str, Callable[..., np.ndarray]] = {
    "type_macro_precision": _kernel("macro_precision"),
    "type_macro_recall": _kernel("macro_recall"),
    "type_macro_f": _kernel("macro_f"),
    "type_micro_f": _kernel("micro_f"),
    "type_microc_f": _kernel("microc_f"),
}

MAPPING_COLUMNS = ["system", "topic", "measure", "mapping", "cluster", "tag", "cluster_types",
                   "cluster_tokens", "shared_types", "method", "exact"]


def type_mappings(campaign: Campaign, system: str, mapping: str = "one_to_one",
                  measure: str = "macro", missing: str = "penalize") -> pd.DataFrame:
    """The cluster -> tag mapping that maximises a type-level measure, per topic.

    Parameters
    ----------
    campaign : Campaign
        A token tagging campaign (with ``item_type``).
    system : str
        One of its systems.
    mapping : {"one_to_one", "many_to_one"}
    measure : {"macro", "micro", "microc"}
        MacroI (its P, R and F share one mapping), MicroI or MicroC.

    Returns
    -------
    DataFrame with columns ``system, topic, measure, mapping, cluster, tag`` (empty string for a
    cluster a 1-1 mapping leaves unmapped), ``cluster_types`` (word types in the cluster),
    ``cluster_tokens``, ``shared_types`` (types in both the cluster and the tag's class),
    ``method`` and ``exact`` (see :mod:`metrics.measures.typelevel.type_scores`); one row per
    cluster.
    """

    if measure not in MEASURES:
        raise UnanimityError(f"measure {measure!r} is none of {', '.join(MEASURES)}")
    if mapping not in MAPPINGS:
        raise UnanimityError(f"mapping {mapping!r} is none of {', '.join(MAPPINGS)}")
    item_type = require_types(campaign.item_type, "type-level mappings")
    aligned = campaign.aligned(system, missing)
    run = aligned.membership
    entries = topic_entries(campaign.gold_membership, run, item_type, campaign.item_topic,
                            campaign.n_topics)
    tokens = np.bincount(run.label, minlength=run.n_labels)
    frames = []
    for t, te in enumerate(entries):
        best = best_mapping(te.entries, measure, mapping)
        e = te.entries
        sizes = np.bincount(e.b_cluster, minlength=e.n_clusters)
        w = (e.b_matrix().T @ e.a_matrix()).toarray()
        tgt = best.target
        shared = np.where(tgt >= 0, w[np.arange(e.n_clusters), np.maximum(tgt, 0)], 0)
        names = campaign.gold_membership.label_names
        tag = np.where(tgt >= 0, names[te.class_codes[np.maximum(tgt, 0)]], "")
        frames.append(pd.DataFrame({
            "system": system, "topic": campaign.topics[t], "measure": measure,
            "mapping": mapping,
            "cluster": run.label_names[te.cluster_codes].astype(str),
            "tag": tag.astype(str), "cluster_types": sizes.astype(np.int64),
            "cluster_tokens": tokens[te.cluster_codes].astype(np.int64),
            "shared_types": shared.astype(np.int64), "method": best.method,
            "exact": best.exact,
        }, columns=MAPPING_COLUMNS))
    return pd.concat(frames, ignore_index=True)


#: type-level metric name -> the measure whose mapping it uses
_MEASURE_OF = {"type_macro_precision": "macro", "type_macro_recall": "macro",
               "type_macro_f": "macro", "type_micro_f": "micro", "type_microc_f": "microc"}


def mapping_table(campaign: Campaign, specs, systems=None,
                  missing: str = "penalize") -> pd.DataFrame:
    """The mappings behind the type-level metrics among ``specs`` (MetricSpec objects), for every
    system (or those given): one :func:`type_mappings` block per (measure, mapping) pair, MacroI
    under both mappings when ``specs`` holds no type-level metric."""
    wanted: list[tuple[str, str]] = []
    for spec in specs:
        if spec.name in _MEASURE_OF:
            key = (_MEASURE_OF[spec.name], spec.params.get("mapping", "one_to_one"))
            if key not in wanted:
                wanted.append(key)
    if not wanted:
        wanted = [("macro", "one_to_one"), ("macro", "many_to_one")]
    names = list(campaign.runs) if systems is None else list(systems)
    frames = [type_mappings(campaign, s, mapping=mp, measure=me, missing=missing)
              for s in names for me, mp in wanted]
    return pd.concat(frames, ignore_index=True) if frames else pd.DataFrame(
        columns=MAPPING_COLUMNS)
