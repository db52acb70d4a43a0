"""The hook of :func:`metrics.measures.scoring.evaluate` for organisations and IR measures.

:func:`organisation_blocks` fills, for every system at once, the metrics this package computes:

* ``ir_measures`` names (``nDCG@10``, ``AP(rel=2)``, ...) on any campaign with a gold;
* the six Reliability / Sensitivity names on a document-organisation campaign (levels or a
  tail), and the four priority / relatedness ones on any campaign. On a flat clustering
  ``reliability`` and ``sensitivity`` stay with the clustering kernels (the same numbers: the
  weights are then all equal, ``docs/organisation.md`` §5).
"""

from __future__ import annotations

from collections.abc import Sequence

import numpy as np

from metrics.errors import UnanimityError
from metrics.measures.organisation.ir import ir_scores
from metrics.measures.organisation.ir_support import ir_measure_problem
from metrics.measures.organisation.ranked_lists import RankedMemberships
from metrics.measures.organisation.scores import RS_METRICS, organisation_rs
from metrics.measures.registry import MetricSpec, is_ir_measure
from metrics.model.campaign import Campaign

__all__ = ["organisation_blocks", "campaign_kind"]


def campaign_kind(campaign: Campaign) -> str:
    """What a campaign is, in words (for the messages that refuse a metric)."""
    if not campaign.has_clusterings:
        return "a score table (precomputed scores)"
    if isinstance(campaign.runs, RankedMemberships):
        return "a ranking campaign (TREC qrels and runs, an unlimited collection)"
    if campaign.tail:
        return "a document organisation over an unlimited collection (priority levels, a tail)"
    if campaign.is_organisation:
        return "a document organisation (priority levels of clusters, no tail)"
    if campaign.item_type is not None:
        return "a token tagging campaign (clusterings of tokens)"
    return "a clustering campaign"


def _check_ir(campaign: Campaign, specs: Sequence[MetricSpec]) -> None:
    """One line for the first IR measure no installed provider computes, before any work."""
    for spec in specs:
        if is_ir_measure(spec):
            problem = ir_measure_problem(str(spec))
            if problem:
                raise UnanimityError(
                    f"metric {spec.name!r} cannot be computed on campaign {campaign.name!r}, "
                    f"{campaign_kind(campaign)}: {problem}")


def organisation_blocks(campaign: Campaign, systems: Sequence[str], specs: Sequence[MetricSpec],
                        missing: str, blocks: np.ndarray) -> set[int]:
    """Write the scores this package owns into ``blocks[system, topic, metric]``.

    Returns the set of metric positions it filled.
    """
    done: set[int] = set()
    _check_ir(campaign, specs)
    if campaign.tail:
        other = [str(s) for s in specs if not is_ir_measure(s) and s.name not in RS_METRICS]
        if other:
            raise UnanimityError(
                f"campaign {campaign.name!r} is {campaign_kind(campaign)}: clustering metrics "
                f"({', '.join(other)}) do not apply; use reliability, sensitivity (and their "
                "_priority / _relatedness parts) or IR measures such as nDCG@10, AP(rel=2)")
    ir = [i for i, s in enumerate(specs) if is_ir_measure(s)]
    if ir:
        values = ir_scores(campaign, systems, [str(specs[i]) for i in ir])
        for i in ir:
            blocks[:, :, i] = values[str(specs[i])]
            done.add(i)
    rs = [i for i, s in enumerate(specs) if s.name in RS_METRICS
          and (campaign.is_organisation or s.name not in ("reliability", "sensitivity"))]
    if rs:
        values = organisation_rs(campaign, systems, [specs[i] for i in rs], missing)
        for i in rs:
            blocks[:, :, i] = values[str(specs[i])]
            done.add(i)
    return done
