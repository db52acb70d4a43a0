"""What a campaign is: the kinds of output Unanimity evaluates (docs/providers.md).

The kind is read from what the loaders already recorded on the
:class:`~metrics.model.campaign.Campaign`, nothing is guessed from file names:

==========================  ===================================================================
kind                        the campaign
==========================  ===================================================================
``clustering``              flat clusterings: every item in exactly one class and one cluster
``overlapping clustering``  clusterings where the gold or a run puts an item in several clusters
``ranking``                 priority levels without clusters, more than two levels or a tail
                            (TREC qrels and runs, ``docs/organisation.md`` §1)
``filtering``               two levels without clusters and no tail: accepted (level 1) or
                            rejected (Amigó, Gonzalo, Verdejo, SIGIR 2013, §2.2)
``organisation mixture``    priority levels of clusters (a clustering and a ranking at once)
``token tagging``           clusterings of tokens that carry their word types (``conllu``,
                            ``docs/type-level.md``)
``score table``             precomputed scores ``system, topic, metric, value`` only
==========================  ===================================================================

Each metric provider (:mod:`metrics.measures.provider`) declares the kinds it supports, and a
metric is refused before any work on a campaign of another kind.
"""

from __future__ import annotations

import weakref
from enum import StrEnum

__all__ = ["CampaignKind", "campaign_kind", "describe_campaign", "CLUSTERING_KINDS",
           "ORGANISATION_KINDS", "ALL_KINDS"]


class CampaignKind(StrEnum):
    """The kind of a campaign's outputs (the module docstring says which is which)."""

    CLUSTERING = "clustering"
    OVERLAPPING_CLUSTERING = "overlapping clustering"
    RANKING = "ranking"
    FILTERING = "filtering"
    ORGANISATION_MIXTURE = "organisation mixture"
    TOKEN_TAGGING = "token tagging"
    SCORE_TABLE = "score table"


#: the kinds whose outputs state clusters (the clustering metrics read them)
CLUSTERING_KINDS = frozenset({CampaignKind.CLUSTERING, CampaignKind.OVERLAPPING_CLUSTERING,
                              CampaignKind.TOKEN_TAGGING, CampaignKind.ORGANISATION_MIXTURE})
#: the kinds whose outputs carry priority levels (document organisations)
ORGANISATION_KINDS = frozenset({CampaignKind.RANKING, CampaignKind.FILTERING,
                                CampaignKind.ORGANISATION_MIXTURE})
#: every kind with a gold (everything but a score table)
ALL_KINDS = CLUSTERING_KINDS | ORGANISATION_KINDS

_CACHE: weakref.WeakKeyDictionary = weakref.WeakKeyDictionary()


def _max_level(m) -> int:
    return 1 if m.level is None or m.level.size == 0 else int(m.level.max())


def _kind(campaign) -> CampaignKind:
    if not campaign.has_clusterings:
        return CampaignKind.SCORE_TABLE
    if campaign.item_type is not None:
        return CampaignKind.TOKEN_TAGGING
    if campaign.is_organisation:
        if getattr(campaign.runs, "ranked", None) is not None:  # TREC ranked lists
            return CampaignKind.RANKING
        outputs = [campaign.gold, *campaign.runs.values()]
        if any(m.clustered for m in outputs):
            return CampaignKind.ORGANISATION_MIXTURE
        if not campaign.tail and max(_max_level(m) for m in outputs) <= 2:
            return CampaignKind.FILTERING
        return CampaignKind.RANKING
    if campaign.gold.is_overlapping or any(r.is_overlapping for r in campaign.runs.values()):
        return CampaignKind.OVERLAPPING_CLUSTERING
    return CampaignKind.CLUSTERING


def campaign_kind(campaign) -> CampaignKind:
    """The :class:`CampaignKind` of a :class:`~metrics.model.campaign.Campaign` (computed once per
    campaign object; a campaign is not changed after loading, ``with_runs`` makes a new one)."""
    try:
        return _CACHE[campaign]
    except (KeyError, TypeError):
        pass
    kind = _kind(campaign)
    try:
        _CACHE[campaign] = kind
    except TypeError:  # an object that takes no weak reference: not cached
        pass
    return kind


_WORDS = {
    CampaignKind.CLUSTERING: "a clustering campaign",
    CampaignKind.OVERLAPPING_CLUSTERING: "an overlapping clustering campaign",
    CampaignKind.FILTERING: "a filtering campaign (two levels, accepted or rejected, no tail)",
    CampaignKind.TOKEN_TAGGING: "a token tagging campaign (clusterings of tokens)",
    CampaignKind.SCORE_TABLE: "a score table (precomputed scores)",
}


def describe_campaign(campaign) -> str:
    """The campaign's kind in words, for the messages that refuse a metric."""
    kind = campaign_kind(campaign)
    if kind is CampaignKind.RANKING:
        if getattr(campaign.runs, "ranked", None) is not None:
            return "a ranking campaign (TREC qrels and runs, an unlimited collection)"
        return ("a ranking campaign (priority levels, "
                + ("an unlimited collection)" if campaign.tail else "no tail)"))
    if kind is CampaignKind.ORGANISATION_MIXTURE:
        return ("a document organisation (priority levels of clusters, "
                + ("a tail)" if campaign.tail else "no tail)"))
    return _WORDS[kind]
