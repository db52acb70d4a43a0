"""Coverage of a ranking campaign: what the qrels judge and how deep and how judged each run is.

A ranking campaign (a qrels file and TREC runs, ``docs/organisation.md`` §6) is not a
clustering: its runs rank documents of an unlimited collection, most of them never judged, so
"gold items a run misses" says nothing. What an IR researcher checks instead, computed here
from the campaign as loaded (one pass of sorted-key lookups per run, no loop over documents):

* the qrels: judgments (rows), judged topics, relevant judgments (grade >= ``relevant_grade``)
  and the topics without any relevant document (every measure is 0 or undefined there);
* per run: rows, topics answered, ranking depth (median, smallest and largest number of
  documents per judged topic), the share of its top 10 and of its top 100 that is judged
  (pooling depth: measures at deeper cut-offs count unjudged documents as irrelevant), and
  its unjudged rows;
* the campaign: distinct (topic, document) pairs retrieved by some run and never judged.
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np
import pandas as pd

from metrics.errors import UnanimityError
from metrics.model.campaign import Campaign

__all__ = ["RankingCoverage", "ranking_coverage", "RUN_COLUMNS", "JUDGED_CUTS"]

#: cut-offs of the judged share of each run's top k.
JUDGED_CUTS: tuple[int, ...] = (10, 100)
#: columns of :attr:`RankingCoverage.runs`.
RUN_COLUMNS: tuple[str, ...] = ("system", "rows", "topics", "median_depth", "min_depth",
                                "max_depth", "judged_at_10", "judged_at_100", "unjudged_rows")


@dataclass(frozen=True)
class RankingCoverage:
    """Coverage of a ranking campaign (module docstring).

    Attributes
    ----------
    topics : int
        Topics of the campaign (the qrels' topics).
    judged_topics : int
        Topics with at least one judgment.
    judgments : int
        Judgments (qrels rows, one per topic and document).
    relevant : int
        Judgments with grade >= ``relevant_grade``.
    relevant_grade : int
    topics_without_relevant : list of str
        Topics with no judgment of grade >= ``relevant_grade``.
    unjudged_documents : int
        Distinct (topic, document) pairs some run ranks and the qrels do not judge.
    runs : DataFrame
        One row per run, :data:`RUN_COLUMNS`; a judged share is NaN for a run with no row.
    """

    topics: int
    judged_topics: int
    judgments: int
    relevant: int
    relevant_grade: int
    topics_without_relevant: list[str]
    unjudged_documents: int
    runs: pd.DataFrame


def ranking_coverage(campaign: Campaign, relevant_grade: int = 1) -> RankingCoverage:
    """:class:`RankingCoverage` of a ranking campaign.

    Raises
    ------
    UnanimityError
        When the campaign is not a ranking campaign (no unlimited tail, or no grades).
    """
    if not campaign.has_clusterings or not campaign.tail:
        raise UnanimityError(f"{campaign.name!r} is not a ranking campaign (a qrels file and "
                             "runs)")
    gold = campaign.gold_membership
    if gold.weight is None:
        raise UnanimityError(f"{campaign.name!r}: the qrels keep no relevance grades")
    n_t = campaign.n_topics
    judged_items = np.unique(gold.item)
    gold_topic = campaign.item_topic[gold.item]
    judged_per_topic = np.bincount(gold_topic, minlength=n_t)
    relevant = gold.weight >= relevant_grade
    relevant_per_topic = np.bincount(gold_topic[relevant], minlength=n_t)
    retrieved = np.zeros(campaign.n_items, dtype=bool)
    rows = []
    for system in campaign.runs:
        run = campaign.runs[system]
        retrieved[run.item] = True
        judged = np.isin(run.item, judged_items, assume_unique=False)
        per_topic = np.bincount(campaign.item_topic[run.item], minlength=n_t)
        level = run.level if run.level is not None else np.ones(run.n_rows, dtype=np.int32)
        shares = []
        for k in JUDGED_CUTS:
            top = level <= k
            shares.append(float(judged[top].mean()) if top.any() else np.nan)
        rows.append((system, run.n_rows, int(np.count_nonzero(per_topic)),
                     float(np.median(per_topic)), int(per_topic.min()), int(per_topic.max()),
                     *shares, int(np.count_nonzero(~judged))))
    unjudged = retrieved.copy()
    unjudged[judged_items] = False
    return RankingCoverage(
        topics=n_t, judged_topics=int(np.count_nonzero(judged_per_topic)),
        judgments=int(gold.n_rows), relevant=int(relevant.sum()),
        relevant_grade=int(relevant_grade),
        topics_without_relevant=[str(t) for t in campaign.topics[relevant_per_topic == 0]],
        unjudged_documents=int(unjudged.sum()),
        runs=pd.DataFrame(rows, columns=list(RUN_COLUMNS)))
