"""Ranked lists (a TREC qrels and its runs) coded as integers, and the campaign they make.

A :class:`RankedCampaign` holds every output as integer arrays over two small dictionaries, the
topics and the document ids (sorted in byte order, as trec_eval's ``strcmp``): no Python object
per row. :func:`ranking_campaign` turns it into the organisation
:class:`~metrics.model.campaign.Campaign` every analysis reads (``docs/organisation.md`` §1-2): one
level per document for a run, one level per relevance grade for the qrels, an unlimited tail.
The campaign's items are the (topic, document) pairs the qrels or a run lists, sorted by topic
then document id, exactly as :func:`metrics.io.organisation_build.build_organisation_campaign`
orders them.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field

import numpy as np

from metrics.errors import CampaignFormatError
from metrics.model.campaign import Campaign, Membership
from metrics.model.validation import ClusteringReport, LoadNote, ValidationReport

__all__ = ["RankedList", "RankedCampaign", "RankedMemberships", "ranking_campaign"]


@dataclass(frozen=True, eq=False)
class RankedList:
    """One output, coded: the qrels (one row per judgment) or a run (in trec_eval's order).

    Attributes
    ----------
    topic : ndarray of int32, shape (n,)
        Index into :attr:`RankedCampaign.topics`; rows of topics the qrels lack are dropped.
        Rows are sorted by (topic, document), one row per document of a topic.
    doc : ndarray of int32, shape (n,)
        Index into :attr:`RankedCampaign.doc_ids` (sorted ids, so codes follow ``strcmp``).
    level : ndarray of int32, shape (n,)
        A run: 1, 2, ... within each topic. The qrels: ``G + 1 - grade`` for a grade >= 1 (G
        the highest grade), 0 (the tail) for a grade <= 0.
    weight : ndarray of float64, shape (n,)
        The run's score or the judgment's grade, as read.
    report : ClusteringReport
        Rows read, duplicates skipped, topics the qrels lack, notes.
    """

    topic: np.ndarray
    doc: np.ndarray
    level: np.ndarray
    weight: np.ndarray
    report: ClusteringReport = field(default_factory=lambda: ClusteringReport(name=""))

    @property
    def n_rows(self) -> int:
        return int(self.topic.size)


@dataclass(frozen=True, eq=False)
class RankedCampaign:
    """The qrels and runs of a ranking campaign, coded over sorted topic and document ids."""

    topics: np.ndarray
    doc_ids: np.ndarray
    gold: RankedList
    runs: dict[str, RankedList]


def _membership(lst: RankedList, item: np.ndarray) -> Membership:
    """One label per row (no clusters); the rows are in item order already."""
    n = item.size
    return Membership(
        item=item, label=np.arange(n, dtype=np.int32), label_names=np.full(n, "", dtype=object),
        label_topic=lst.topic, weight=lst.weight, level=lst.level, clustered=False)


class RankedMemberships(Mapping):
    """The runs of a ranking campaign as :class:`~metrics.model.campaign.Membership` records, each
    made on first use from its ranked list (an IR evaluation reads :attr:`ranked` and never
    makes them). A read-only mapping: system -> Membership, in load order."""

    def __init__(self, ranked: RankedCampaign, item_keys: np.ndarray) -> None:
        self.ranked = ranked
        self._item_keys = item_keys
        self._made: dict[str, Membership] = {}

    def __getitem__(self, system: str) -> Membership:
        made = self._made.get(system)
        if made is None:
            lst = self.ranked.runs[system]  # KeyError for an unknown system, as a dict
            key = lst.topic.astype(np.int64) * max(self.ranked.doc_ids.size, 1) + lst.doc
            made = self._made[system] = _membership(lst, np.searchsorted(self._item_keys, key))
        return made

    def __contains__(self, system: object) -> bool:
        return system in self.ranked.runs  # without making the membership

    def __iter__(self):
        return iter(self.ranked.runs)

    def __len__(self) -> int:
        return len(self.ranked.runs)


def ranking_campaign(ranked: RankedCampaign, *, name: str, source: str,
                     notes: list[LoadNote], testbeds: np.ndarray | None) -> Campaign:
    """The organisation campaign of ranked lists (``tail = True``; see the module docstring).

    The runs' memberships are made on first use (:class:`RankedMemberships`).

    Raises
    ------
    CampaignFormatError
        When a run that has rows shares no topic with the qrels.
    """
    n_docs = max(int(ranked.doc_ids.size), 1)
    lists = [ranked.gold, *ranked.runs.values()]
    # the (topic, document) keys of every row, written into one array and sorted in place:
    # no per-list copy, no index array (the peak of loading a campaign)
    keys = np.empty(sum(lst.n_rows for lst in lists), dtype=np.int64)
    start = 0
    for lst in lists:
        part = keys[start:start + lst.n_rows]
        np.multiply(lst.topic, n_docs, out=part, casting="unsafe")
        part += lst.doc
        start += lst.n_rows
    keys.sort()
    item_keys = keys[np.r_[True, keys[1:] != keys[:-1]]]
    del keys
    item_topic = (item_keys // n_docs).astype(np.int32)
    item_ids = ranked.doc_ids[item_keys % n_docs]
    n_topics = int(ranked.topics.size)

    gold_keys = ranked.gold.topic.astype(np.int64) * n_docs + ranked.gold.doc
    gold = _membership(ranked.gold, np.searchsorted(item_keys, gold_keys))
    g_rep = ranked.gold.report
    g_rep.items, g_rep.topics = ranked.gold.n_rows, n_topics  # one row per item
    reports: dict[str, ClusteringReport] = {}
    for system, lst in ranked.runs.items():
        rep = lst.report
        if lst.n_rows == 0 and rep.rows > rep.duplicate_rows:
            raise CampaignFormatError(rep.sources[0],
                                      f"system {system!r} has no topic in common with the gold")
        answered = np.zeros(n_topics, dtype=bool)
        answered[lst.topic] = True
        rep.items = lst.n_rows
        rep.topics = int(answered.sum()) + len(rep.extra_topics)
        rep.missing_topic_names = [str(t) for t in ranked.topics[~answered]]
        rep.missing_topics = len(rep.missing_topic_names)
        reports[system] = rep
    return Campaign(
        name=name, topics=ranked.topics, testbeds=testbeds, item_topic=item_topic,
        item_ids=item_ids, gold=gold,
        runs=RankedMemberships(ranked, item_keys),  # type: ignore[arg-type]
        report=ValidationReport(gold=g_rep, systems=reports, notes=notes), source=source,
        tail=True)
