"""What ``unanimity info`` says about a campaign, as one record for the text and the JSON.

Every fact the text prints is a key of :func:`campaign_info`, so ``info --json`` says all that
``info`` says: the campaign's name and source, its topics, test beds, systems and items, per
system what the loader found (missing and extra items, missing topics, duplicate rows,
overlapping items) and every note of the validation report.

On a campaign with a tail (a ranking over an unlimited collection such as TREC,
docs/organisation.md §1) the campaign's items are every document the gold judges or a run
retrieves; ``judgments`` and ``judged_items`` say how many the gold itself holds.
"""

from __future__ import annotations

import numpy as np

__all__ = ["campaign_info", "items_line"]


def campaign_info(campaign) -> dict:
    """The record ``unanimity info`` prints (text) or dumps (``--json``).

    Keys: ``name, source, kind`` (``clusterings``, ``organisation`` or ``score table``),
    ``topics, systems, gold_items, testbeds, per_system`` (:meth:`Campaign.summary`, each
    system also with ``duplicate_rows, overlapping_items``), ``notes`` (text of every load
    note), and with a tail ``judgments`` (gold rows) and ``judged_items``.
    """
    out = {"name": campaign.name, "source": str(campaign.source)}
    if not campaign.has_clusterings:
        out["kind"] = "score table"
    else:
        out["kind"] = "organisation" if campaign.is_organisation else "clusterings"
    out.update(campaign.summary())
    for name, row in out["per_system"].items():
        rep = campaign.report.systems.get(name)
        row["duplicate_rows"] = rep.duplicate_rows if rep else 0
        row["overlapping_items"] = rep.overlapping_items if rep else 0
    if campaign.has_clusterings and campaign.tail:
        out["judgments"] = int(campaign.gold.item.size)
        out["judged_items"] = int(np.unique(campaign.gold.item).size)
    out["notes"] = [str(n) for n in campaign.report.all_notes()]
    return out


def items_line(info: dict) -> str:
    """The ``gold items`` value of the text: the count, and on a campaign with a tail, what the
    count holds next to the gold's own judgments."""
    line = f"{info['gold_items']}"
    if "judgments" in info:
        unjudged = info["gold_items"] - info["judged_items"]
        line += (f"  (every judged or retrieved document: {info['judgments']:,} judgment(s) in "
                 f"the gold, {unjudged:,} document(s) retrieved by a run and not judged)")
    return line
