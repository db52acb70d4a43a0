"""Rows of organisation outputs -> one :class:`~metrics.model.campaign.Campaign` with levels.

Shared by the ``trec`` and ``organisation`` readers (:mod:`metrics.io.trec`,
:mod:`metrics.io.organisation`). Each output arrives as a DataFrame with columns ``topic, item,
level`` and optionally ``cluster`` (labels of clusters; absent for rankings and filterings),
``weight`` (a TREC grade or score, kept) and ``line`` (source line, for the report).

The gold's topics are the campaign's topics. Items: with a tail (an unlimited collection) every
item listed by the gold or by a run, since an item a run prioritises may be unjudged; without a
tail the gold's items, and a run's other items are extra (counted, ignored). Exact duplicate
rows are counted and skipped; the validation report says how many, with the first line.
"""

from __future__ import annotations

from collections.abc import Mapping

import numpy as np
import pandas as pd

from metrics.errors import CampaignFormatError
from metrics.io.build import default_testbed_rule, testbeds_from_rule
from metrics.measures.organisation._sorted import unique_int
from metrics.model.campaign import Campaign, Membership
from metrics.model.validation import ClusteringReport, LoadNote, ValidationReport

__all__ = ["build_organisation_campaign"]


def _dedupe(frame: pd.DataFrame, who: str, source: str,
            notes: list[LoadNote]) -> tuple[pd.DataFrame, int]:
    keys = ["topic", "item", "level"] + (["cluster"] if "cluster" in frame else [])
    dup = frame.duplicated(keys, keep="first").to_numpy()
    n = int(dup.sum())
    if n:
        first = int(np.flatnonzero(dup)[0])
        line = int(frame["line"].iat[first]) if "line" in frame else None
        notes.append(LoadNote(source, f"{n} duplicate row(s) of {who} skipped (same topic, item, "
                              "level" + (", cluster" if "cluster" in frame else "") + ")", line))
    return frame.loc[~dup], n


def _membership(frame: pd.DataFrame, item_idx: np.ndarray, topic_code: np.ndarray) -> Membership:
    level = frame["level"].to_numpy(np.int64)
    weight = frame["weight"].to_numpy(np.float64) if "weight" in frame else None
    if "cluster" in frame:
        names = frame["cluster"].astype(str).to_numpy(dtype=object)
        key = pd.MultiIndex.from_arrays([topic_code, names])
        codes, uniq = pd.factorize(key)
        label = codes.astype(np.int32)
        label_names = np.asarray([u[1] for u in uniq], dtype=object)
        label_topic = np.asarray([u[0] for u in uniq], dtype=np.int32)
        clustered = True
    else:
        label = np.arange(len(frame), dtype=np.int32)
        label_names = np.full(len(frame), "", dtype=object)  # no clusters: nameless labels
        label_topic = topic_code.astype(np.int32)
        clustered = False
    order = np.lexsort((label, item_idx))
    if not clustered:
        label = np.empty_like(label)
        label[order] = np.arange(len(frame), dtype=np.int32)
        label_topic = label_topic[order]
        label_names = label_names[: len(frame)]
    return Membership(
        item=item_idx[order].astype(np.int64), label=label[order], label_names=label_names,
        label_topic=label_topic, weight=None if weight is None else weight[order],
        level=level[order].astype(np.int32), clustered=clustered,
    )


def build_organisation_campaign(gold: pd.DataFrame, runs: Mapping[str, pd.DataFrame], *,
                                tail: bool, name: str, source: str, gold_source: str,
                                run_sources: Mapping[str, str], notes: list[LoadNote] | None = None,
                                testbed_rule=None, runs_deduplicated: bool = False) -> Campaign:
    """Code the rows of the gold and the runs into a campaign (see the module docstring).

    ``runs_deduplicated``: the reader already skipped (and reported) duplicate run rows.
    """
    notes = list(notes or [])
    if len(gold) == 0:
        raise CampaignFormatError(gold_source, "the gold has no item")
    gold_notes: list[LoadNote] = []
    gold, g_dups = _dedupe(gold, "the gold", gold_source, gold_notes)
    topics = np.asarray(sorted(pd.unique(gold["topic"].astype(str))), dtype=object)
    topic_index = pd.Index(topics)

    cleaned: dict[str, pd.DataFrame] = {}
    reports: dict[str, ClusteringReport] = {}
    for system, frame in runs.items():
        r_notes: list[LoadNote] = []
        src = run_sources.get(system, system)
        frame, dups = ((frame, int(frame.attrs.get("duplicate_rows", 0))) if runs_deduplicated
                       else _dedupe(frame, system, src, r_notes))
        known = topic_index.get_indexer(frame["topic"].astype(str)) >= 0
        extra_topics = sorted(set(frame["topic"].astype(str)[~known]))
        if extra_topics:
            r_notes.append(LoadNote(src, f"{len(extra_topics)} topic(s) not in the gold ignored "
                                    f"({int((~known).sum())} rows), e.g. {extra_topics[0]!r}"))
        cleaned[system] = frame.loc[known]
        reports[system] = ClusteringReport(name=system, sources=[src], rows=len(frame) + dups,
                                           duplicate_rows=dups, extra_topics=extra_topics,
                                           notes=r_notes)

    # items: (topic, item) keys, sorted by topic then item id; one factorisation of every row
    frames = [gold] + list(cleaned.values())
    sizes = [len(f) for f in frames]
    t_codes, t_uniq = pd.factorize(np.concatenate(
        [f["topic"].to_numpy(dtype=object) for f in frames]))
    t_all = topic_index.get_indexer(pd.Index(np.asarray(t_uniq, dtype=object).astype(str)))[t_codes]
    i_codes, i_uniq = pd.factorize(np.concatenate(
        [f["item"].to_numpy(dtype=object) for f in frames]))
    rank = np.empty(len(i_uniq), dtype=np.int64)
    rank[np.argsort(np.asarray(i_uniq, dtype=str), kind="stable")] = np.arange(len(i_uniq))
    n_vocab = max(len(i_uniq), 1)
    key_all = t_all.astype(np.int64) * n_vocab + rank[i_codes]
    bounds = np.cumsum([0] + sizes)
    listed = key_all[: sizes[0]] if not tail else key_all
    item_keys = unique_int(listed)
    item_topic = (item_keys // n_vocab).astype(np.int32)
    sorted_ids = np.asarray(i_uniq, dtype=object)[np.argsort(np.asarray(i_uniq, dtype=str),
                                                             kind="stable")]
    item_ids = sorted_ids[item_keys % n_vocab]

    def index_at(k: int) -> np.ndarray:
        key = key_all[bounds[k]:bounds[k + 1]]
        pos = np.minimum(np.searchsorted(item_keys, key), item_keys.size - 1)
        return np.where(item_keys[pos] == key, pos, -1)

    g_idx = index_at(0)
    gold_m = _membership(gold, g_idx, item_topic[g_idx])
    gold_rep = ClusteringReport(
        name="gold", sources=[gold_source], rows=len(gold) + g_dups,
        items=int(unique_int(g_idx).size), topics=int(topics.size), duplicate_rows=g_dups,
        overlapping_items=gold_m.overlapping_items(), notes=gold_notes)

    memberships: dict[str, Membership] = {}
    gold_items = np.zeros(item_ids.size, dtype=bool)
    gold_items[g_idx] = True
    for k, (system, frame) in enumerate(cleaned.items(), start=1):
        rep = reports[system]
        idx = index_at(k)
        matched = idx >= 0
        extra = int(frame.loc[~matched, ["topic", "item"]].drop_duplicates().shape[0])
        if extra:
            rep.notes.append(LoadNote(rep.sources[0], f"{extra} item(s) not in the gold ignored "
                                      "(the collection has no tail)"))
        frame, idx = frame.loc[matched], idx[matched]
        if len(frame) == 0 and len(runs[system]) > 0:
            raise CampaignFormatError(rep.sources[0],
                                      f"system {system!r} has no topic in common with the gold")
        m = _membership(frame, idx, item_topic[idx])
        covered = np.zeros(item_ids.size, dtype=bool)
        covered[idx] = True
        answered = np.zeros(topics.size, dtype=bool)
        answered[item_topic[idx]] = True
        rep.items = int(covered.sum()) + extra
        rep.topics = int(answered.sum()) + len(rep.extra_topics)
        rep.extra_items = extra
        rep.missing_items = 0 if tail else int((gold_items & ~covered).sum())
        rep.missing_topic_names = [str(t) for t in topics[~answered]]
        rep.missing_topics = len(rep.missing_topic_names)
        rep.overlapping_items = m.overlapping_items()
        memberships[system] = m

    # metrics.io imports this module's readers: import its helpers here, not at the top

    if testbed_rule is None:
        testbed_rule = default_testbed_rule(topics)
    testbeds = testbeds_from_rule(topics, testbed_rule, notes, source or gold_source)
    return Campaign(
        name=name, topics=topics, testbeds=testbeds, item_topic=item_topic, item_ids=item_ids,
        gold=gold_m, runs=memberships,
        report=ValidationReport(gold=gold_rep, systems=reports, notes=notes), source=source,
        tail=tail,
    )
