"""Type-level measures over a campaign: per-topic word-type entries, kernels, mapping export.

A token tagging campaign (:mod:`metrics.io.conllu`) carries the word type of every item
(``Campaign.item_type``). For each topic the gold entry A_i of a type is the set of gold classes
of its tokens and the induced entry B_i the set of clusters of its tokens (Reichart, Abend and
Rappoport, CoNLL 2010, §5: "the set of all gold (induced) clusters with which it appears");
:mod:`metrics.measures.typelevel.type_scores` scores them (``docs/type-level.md``).
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import fields

import numpy as np
import pandas as pd

from metrics.errors import UnanimityError
from metrics.measures.typelevel.mapping_pool import best_mappings
from metrics.measures.typelevel.type_scores import (
    DEFAULT_SECONDS,
    MAPPINGS,
    MEASURE_OF_SCORE,
    MEASURES,
    MappingScores,
    TypeEntries,
    TypeMapping,
    TypeScores,
    mapping_scores,
    type_scores,
)
from metrics.model.campaign import Campaign, Membership

__all__ = ["TopicEntries", "topic_entries", "type_level_table", "TYPE_KERNELS",
           "type_mappings", "mapping_table", "scorer_mappings", "exactness_summary",
           "require_types", "MAPPING_COLUMNS"]


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


def type_level_table(entries: list[TopicEntries], mapping: str,
                     time_limit: float | None = None) -> list[TypeScores]:
    """Per-topic :class:`TypeScores` under ``mapping``."""
    if mapping not in MAPPINGS:
        raise UnanimityError(f"mapping {mapping!r} is none of {', '.join(MAPPINGS)}")
    return [type_scores(te.entries, mapping, time_limit) for te in entries]


def _entries(scorer) -> list[TopicEntries]:
    """The topic entries of a :class:`metrics.measures.scoring.SystemScorer`, built once."""
    cache = scorer.family_cache.setdefault("type level", {})
    if "entries" not in cache:
        item_type = require_types(getattr(scorer, "item_type", None))
        cache["entries"] = topic_entries(scorer.gold, scorer.aligned.membership, item_type,
                                         scorer.item_topic, scorer.n_topics)
    return cache["entries"]


def _mappings(scorer, measure: str, mapping: str, seconds: float | None) -> list[TypeMapping]:
    """The best mapping of ``measure`` on every topic of a scorer, computed once per setting
    (only the measure asked for: an M-1 search can take its whole time limit; the topics in
    parallel processes when ``seconds`` is above the default, :mod:`.mapping_pool`)."""
    entries = _entries(scorer)
    maps = scorer.family_cache["type level"].setdefault("maps", {})
    key = (measure, mapping, DEFAULT_SECONDS[measure] if seconds is None else float(seconds))
    if key not in maps:
        if mapping not in MAPPINGS:
            raise UnanimityError(f"mapping {mapping!r} is none of {', '.join(MAPPINGS)}")
        maps[key] = best_mappings([te.entries for te in entries], measure, mapping, seconds)
    return maps[key]


def _kernel(field: str) -> Callable[..., np.ndarray]:
    measure = MEASURE_OF_SCORE[field]

    def kernel(scorer, mapping: str = "one_to_one", seconds: float | None = None) -> np.ndarray:
        maps = _mappings(scorer, measure, mapping, seconds)
        return np.array([getattr(mapping_scores(te.entries, mp.target), field)
                         for te, mp in zip(_entries(scorer), maps, strict=True)], dtype=float)
    return kernel


#: metric name -> kernel(scorer, mapping=..., seconds=...) -> ndarray (n_topics,), for
#: metrics.measures.scoring: ``type_`` + each score of :class:`MappingScores`
TYPE_KERNELS: dict[str, Callable[..., np.ndarray]] = {
    f"type_{f.name}": _kernel(f.name) for f in fields(MappingScores)}

MAPPING_COLUMNS = ["system", "topic", "measure", "mapping", "cluster", "tag", "cluster_types",
                   "cluster_tokens", "shared_types", "method", "exact", "gap", "exactness"]


def _mapping_rows(gold: Membership, run: Membership, entries: list[TopicEntries],
                  maps: list[TypeMapping], topics, system: str) -> pd.DataFrame:
    """One row per cluster and topic of a mapping (:data:`MAPPING_COLUMNS`)."""
    tokens = np.bincount(run.label, minlength=run.n_labels)
    frames = []
    for t, (te, best) in enumerate(zip(entries, maps, strict=True)):
        e = te.entries
        sizes = np.bincount(e.b_cluster, minlength=e.n_clusters)
        w = (e.b_matrix().T @ e.a_matrix()).toarray()
        tgt = best.target
        shared = np.where(tgt >= 0, w[np.arange(e.n_clusters), np.maximum(tgt, 0)], 0)
        tag = np.where(tgt >= 0, gold.label_names[te.class_codes[np.maximum(tgt, 0)]], "")
        frames.append(pd.DataFrame({
            "system": system, "topic": topics[t], "measure": best.measure,
            "mapping": best.mapping,
            "cluster": run.label_names[te.cluster_codes].astype(str),
            "tag": tag.astype(str), "cluster_types": sizes.astype(np.int64),
            "cluster_tokens": tokens[te.cluster_codes].astype(np.int64),
            "shared_types": shared.astype(np.int64), "method": best.method,
            "exact": best.exact, "gap": float(best.gap), "exactness": best.exactness,
        }, columns=MAPPING_COLUMNS))
    return (pd.concat(frames, ignore_index=True) if frames
            else pd.DataFrame(columns=MAPPING_COLUMNS))


def type_mappings(campaign: Campaign, system: str, mapping: str = "one_to_one",
                  measure: str = "macro", missing: str = "penalize",
                  seconds: float | None = None) -> pd.DataFrame:
    """The cluster -> tag mapping that maximises a type-level measure, per topic.

    Parameters
    ----------
    campaign : Campaign
        A token tagging campaign (with ``item_type``).
    system : str
        One of its systems.
    mapping : {"one_to_one", "many_to_one"}
    measure : {"macro", "micro", "microc"}
        MacroI (its P, R and F and MacroC share one mapping), MicroI or MicroC.
    seconds : float, optional
        Time limit of the exact M-1 search per topic (default: the measure's,
        :data:`metrics.measures.typelevel.type_scores.DEFAULT_SECONDS`); above it, the
        topics are searched in parallel processes
        (:func:`metrics.measures.typelevel.mapping_pool.best_mappings`).

    Returns
    -------
    DataFrame with columns ``system, topic, measure, mapping, cluster, tag`` (empty string for a
    cluster a 1-1 mapping leaves unmapped), ``cluster_types`` (word types in the cluster),
    ``cluster_tokens``, ``shared_types`` (types in both the cluster and the tag's class),
    ``method``, ``exact``, ``gap`` and ``exactness`` (``exact`` or ``hill climbing, gap ≤ g``;
    see :class:`metrics.measures.typelevel.type_scores.TypeMapping`); one row per cluster.
    """
    if measure not in MEASURES:
        raise UnanimityError(f"measure {measure!r} is none of {', '.join(MEASURES)}")
    if mapping not in MAPPINGS:
        raise UnanimityError(f"mapping {mapping!r} is none of {', '.join(MAPPINGS)}")
    item_type = require_types(campaign.item_type, "type-level mappings")
    run = campaign.aligned(system, missing).membership
    entries = topic_entries(campaign.gold_membership, run, item_type, campaign.item_topic,
                            campaign.n_topics)
    maps = best_mappings([te.entries for te in entries], measure, mapping, seconds)
    return _mapping_rows(campaign.gold_membership, run, entries, maps, campaign.topics, system)


def scorer_mappings(scorer, system: str, topics) -> pd.DataFrame | None:
    """The mappings a scorer's type-level kernels used (:data:`MAPPING_COLUMNS`), or None when
    it computed none: what :func:`metrics.measures.scoring.evaluate` appends to its
    ``mappings_out`` (the exactness of every score, the export)."""
    cache = scorer.family_cache.get("type level", {})
    if not cache.get("maps"):
        return None
    return pd.concat([_mapping_rows(scorer.gold, scorer.aligned.membership, cache["entries"],
                                    maps, topics, system)
                      for maps in cache["maps"].values()], ignore_index=True)


def _wanted(specs) -> list[tuple[str, str, float | None]]:
    """(measure, mapping, seconds) behind the type-level metrics among ``specs``."""
    wanted: list[tuple[str, str, float | None]] = []
    for spec in specs:
        field = spec.name.removeprefix("type_")
        if spec.name.startswith("type_") and field in MEASURE_OF_SCORE:
            key = (MEASURE_OF_SCORE[field], spec.params.get("mapping", "one_to_one"),
                   spec.params.get("seconds"))
            if key not in wanted:
                wanted.append(key)
    return wanted


def mapping_table(campaign: Campaign, specs, systems=None,
                  missing: str = "penalize") -> pd.DataFrame:
    """The mappings behind the type-level metrics among ``specs`` (MetricSpec objects), for every
    system (or those given): one :func:`type_mappings` block per (measure, mapping) pair, MacroI
    under both mappings when ``specs`` holds no type-level metric."""
    wanted = _wanted(specs) or [("macro", "one_to_one", None), ("macro", "many_to_one", None)]
    names = list(campaign.runs) if systems is None else list(systems)
    frames = [type_mappings(campaign, s, mapping=mp, measure=me, missing=missing, seconds=sec)
              for s in names for me, mp, sec in wanted]
    return pd.concat(frames, ignore_index=True) if frames else pd.DataFrame(
        columns=MAPPING_COLUMNS)


def exactness_summary(mappings: pd.DataFrame) -> list[str]:
    """One line per (measure, mapping) of a mapping table whose scores are not all exact:
    how many (system, topic) mappings are exact and the largest gap of the others."""
    if mappings is None or mappings.empty:
        return []
    per = mappings.drop_duplicates(["system", "topic", "measure", "mapping"])
    lines = []
    for (measure, mapping), block in per.groupby(["measure", "mapping"], sort=False):
        if block["exact"].all():
            continue
        rest = block[~block["exact"].astype(bool)]
        gaps = rest["gap"].astype(float)
        unknown = int(gaps.isna().sum())
        bound = (f"gap ≤ {gaps.max():.2g}" if unknown == 0 else "gap unknown" if
                 unknown == len(gaps) else f"gap ≤ {gaps.max():.2g}, {unknown} without a bound")
        lines.append(f"{_LABEL[measure]} ({mapping}): {len(block) - len(rest)} of {len(block)} "
                     f"(system, topic) mappings exact, {len(rest)} by hill climbing ({bound}); "
                     "a longer search: seconds=... (docs/type-level.md)")
    return lines


_LABEL = {"macro": "MacroI/MacroC", "micro": "MicroI", "microc": "MicroC"}
