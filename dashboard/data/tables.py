"""The campaigns and score tables every page reads: cached loading (the warm start's campaign
when it has it), small facts, the metric pairs a campaign offers and its score tables.

Split from :mod:`dashboard.data.live` (the analyses of these tables), which re-exports every
name here for the pages. Campaigns are cached as resources keyed by their *id string* (path +
modification time, or the upload digest), never hashed by content; score tables with
``st.cache_data`` per campaign, baselines switch and metric set, and named by a
:class:`Table`'s key in every cache of the analyses.
"""

from __future__ import annotations

from dataclasses import dataclass

import pandas as pd
import streamlit as st

from dashboard.data import disk_cache, warm
from dashboard.data.sources import (
    Source,
    campaign_key,
    ir_group,
    rows_of,
    scores_key,
    table_key,
    table_pairs,
    table_rows,
)
from dashboard.state import Selection

__all__ = ["BASELINE_NAMES", "campaign", "campaign_info", "metric_pairs", "metric_names",
           "score_table", "Table", "table"]

BASELINE_NAMES = "all"  # every baseline metrics.analyses.baselines offers


# ------------------------------------------------------------------------------------------------
# Campaigns
# ------------------------------------------------------------------------------------------------


@st.cache_resource(show_spinner="Loading the campaign\u2026", max_entries=8)
def _load(cid: str, path: str, runs: tuple[str, ...], beds: str | None = None):
    from metrics.io import load, load_files  # noqa: PLC0415 - deferred: metrics loads after the page's first paint
    from metrics.io.testbeds import testbeds_option  # noqa: PLC0415 - deferred: metrics loads after the page's first paint

    pre = warm.take(campaign_key(Source("", "", path, cid, runs, beds)))
    if pre is not None:
        return pre
    if runs:
        return load_files(path, list(runs), testbeds=testbeds_option(beds))
    return load(path, testbeds=testbeds_option(beds))


@st.cache_resource(show_spinner="Adding baselines\u2026", max_entries=8)
def _with_baselines(cid: str, path: str, runs: tuple[str, ...], beds: str | None = None):
    from metrics.analyses.baselines import add_baselines  # noqa: PLC0415 - deferred: metrics loads after the page's first paint

    return add_baselines(_load(cid, path, runs, beds), BASELINE_NAMES, seed=0)


def campaign(src: Source, baselines: bool = False):
    """The campaign of a source (with baselines added when asked and possible)."""
    c = _load(src.cid, src.path, src.runs, src.testbeds)
    if baselines and c.has_clusterings:
        return _with_baselines(src.cid, src.path, src.runs, src.testbeds)
    return c


@st.cache_data(show_spinner=False, max_entries=16)
def _campaign_info(cid: str, path: str, runs: tuple[str, ...], beds: str | None = None) -> dict:
    c = _load(cid, path, runs, beds)
    beds = c.testbed_counts()
    return {
        "name": c.name,
        "source": c.source,
        "has_clusterings": bool(c.has_clusterings),
        # the campaign's kind: token tagging (word types), document organisation (levels, tail)
        "token_tagging": getattr(c, "item_type", None) is not None,
        "organisation": bool(c.has_clusterings and c.is_organisation),
        "ranking": bool(c.has_clusterings and getattr(c, "tail", False)),
        "systems": list(c.systems),
        "n_topics": int(c.n_topics) if c.topics is not None else 0,
        "testbeds": list(beds),
        "testbed_counts": beds,
        "metrics": sorted(pd.unique(c.scores["metric"]).tolist()) if c.scores is not None else [],
    }


def campaign_info(src: Source) -> dict:
    """Small facts about a campaign (name, systems, test beds, kind), cached by id."""
    return _campaign_info(src.cid, src.path, src.runs, src.testbeds)


def metric_pairs(src: Source) -> dict[str, tuple[str, str]]:
    """Metric pairs the campaign can use: ``metrics.measures.registry.default_metric_pairs`` (the
    pairs
    that fit its task), or for a score-table campaign the standard pairs whose metrics are both
    in the table, else its first two metrics in the table's order."""
    from metrics.measures.registry import default_metric_pairs  # noqa: PLC0415 - deferred: metrics loads after the page's first paint

    if campaign_info(src)["has_clusterings"]:
        return default_metric_pairs(campaign(src))
    return table_pairs(campaign(src).scores)


def metric_names(src: Source) -> list[str]:
    """Metrics a custom pair can use: every metric whose provider computes it on the campaign's
    kind (:func:`metrics.measures.registry.metrics_for`) and the default pairs' names (IR measures
    on rankings), or those of the score table."""
    from metrics.measures.registry import metrics_for  # noqa: PLC0415 - deferred: metrics loads after the page's first paint

    info = campaign_info(src)
    if not info["has_clusterings"]:
        return list(info["metrics"])
    names = [m.name for m in metrics_for(campaign(src))]
    for p, r in metric_pairs(src).values():
        names += [m for m in (p, r) if m not in names]
    return names


# ------------------------------------------------------------------------------------------------
# Score tables
# ------------------------------------------------------------------------------------------------


@st.cache_data(show_spinner="Scoring every system on every topic\u2026", max_entries=32)
def _evaluate(cid: str, path: str, runs: tuple[str, ...], baselines: bool,
              metric_names: tuple[str, ...], beds: str | None = None,
              kept: bool = False) -> pd.DataFrame:
    """``evaluate`` of the campaign (the warm start's result when it has it); with ``kept``
    (and no baselines) through :mod:`dashboard.data.disk_cache`, kept between servers."""
    from metrics.measures.scoring import evaluate  # noqa: PLC0415 - deferred: metrics loads after the page's first paint

    src = Source("", "", path, cid, runs, beds)
    pre = warm.take(scores_key(src, baselines, metric_names))
    if pre is not None:
        return pre
    if kept and not baselines:
        return disk_cache.scores(campaign(src), metric_names, "penalize")
    return evaluate(campaign(src, baselines), list(metric_names), missing="penalize")


def score_table(src: Source, baselines: bool, metric_names: tuple[str, ...]) -> pd.DataFrame:
    """Score table ``system, topic, metric, value`` of the given metrics (computed once per
    campaign, baselines switch and metric set; a score-table campaign's own table otherwise)."""
    c = campaign(src, baselines)
    if not c.has_clusterings:
        return table_rows(c.scores, metric_names)
    names = tuple(metric_names)
    group = ir_group(metric_pairs(src), names) if getattr(c, "tail", False) else None
    if group is None:
        return _evaluate(src.cid, src.path, src.runs, bool(baselines), names, src.testbeds)
    return rows_of(_evaluate(src.cid, src.path, src.runs, bool(baselines), group,
                             src.testbeds, True), names)


@dataclass(frozen=True)
class Table:
    """A score table with the key that names it in every cache."""

    key: str
    frame: pd.DataFrame
    precision: str
    recall: str
    beds: tuple[str, ...] = ()  # the test beds it is restricted to; () = all topics


@st.cache_data(show_spinner=False, max_entries=64)
def _filtered(tkey: str, _table: pd.DataFrame, _beds_of: dict | None,
              beds: tuple[str, ...]) -> pd.DataFrame:
    if not beds or _beds_of is None:
        return _table
    keep = [t for t, b in _beds_of.items() if b in set(beds)]
    return _table[_table["topic"].isin(keep)].reset_index(drop=True)


def table(sel: Selection, beds: tuple[str, ...] | None = None, all_beds: bool = False) -> Table:
    """The score table of the selected metric pair (and the extra metrics of UIR), restricted to
    the selected test beds.

    Parameters
    ----------
    beds : tuple of str, optional
        Restrict to these test beds instead of the sidebar's.
    all_beds : bool
        Ignore the test-bed filter.
    """
    src = sel.source
    full = score_table(src, sel.baselines, sel.uir_metrics)
    chosen = () if all_beds else (sel.bed_filter if beds is None else tuple(sorted(beds)))
    key = table_key(src, sel.baselines, sel.precision, sel.recall, chosen) + (
        "|uir=" + ",".join(sel.extra_metrics) if sel.extra_metrics else "")
    if not chosen:
        return Table(key, full, sel.precision, sel.recall)
    c = campaign(src, sel.baselines)
    return Table(key, _filtered(key, full, c.topic_testbeds(), chosen), sel.precision, sel.recall,
                 chosen)
