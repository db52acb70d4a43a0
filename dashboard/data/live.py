"""Cached calls into the ``metrics`` package: one cached call per computation.

(Size: about 410 lines, one cached call per computation; the dashboard's restructure into
views, data and figures splits it.)

Nothing here computes a metric, a test, a verdict or a ranking: every number comes from
``metrics``, and every page's pairwise numbers from one cached comparison
(:func:`comparison`: ``metrics.analyses.comparison_core`` plus the alpha / threshold step) and
its report. This module only loads, selects rows (a test-bed filter, a pair of systems) and
reshapes results for the figures.

Caching
-------
Campaigns are cached as resources keyed by their *id string* (path + modification time, or the
upload digest), never hashed by content. Score tables and analyses are cached with
``st.cache_data`` keyed on ``tkey`` -- a string naming the campaign id, the baselines switch, the
metric pair and the test-bed filter -- while the table itself is passed as a leading-underscore
argument (not hashed). A slider change therefore recomputes only what depends on that slider.
The campaign comparison is split the same way: its alpha-free core (the pairwise work) is a
cached resource, and only the cheap alpha / threshold step reruns when those sliders move; the
comparison at alpha, its tie ranking and its aggregation analysis are shared resources too (pages
only read them; a pickled copy on every hit would cost more than the step at 150 systems).
"""

from __future__ import annotations

from dataclasses import dataclass

import pandas as pd
import streamlit as st

from dashboard.data import disk_cache, warm
from dashboard.data.sources import (
    Source,
    campaign_key,
    comparison_key,
    comparison_testbeds,
    ir_group,
    rows_of,
    scores_key,
    table_key,
    table_pairs,
    table_rows,
)
from dashboard.state import Selection

__all__ = [
    "campaign", "campaign_info", "metric_pairs", "metric_names", "score_table", "Table", "table",
    "default_pair", "ranking", "curves", "pair_topics", "pair_topic_frame", "comparison",
    "pair_report", "tie_ranking", "contingency", "rank_moves",
    "testbed_rankings", "cross_testbed", "leaderboard", "PREDICTOR_LABELS",
]

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


# ------------------------------------------------------------------------------------------------
# Analyses (each one cached call into metrics)
# ------------------------------------------------------------------------------------------------


@st.cache_data(show_spinner=False, max_entries=256)
def _ranking(tkey: str, _t: pd.DataFrame, p: str, r: str, alpha: float, average: str):
    from metrics.analyses import ranking as _rank  # noqa: PLC0415 - deferred: metrics loads after the page's first paint

    return _rank(_t, p, r, alpha=alpha, average=average)


def ranking(t: Table, alpha: float, average: str) -> pd.DataFrame:
    """``metrics.analyses.ranking`` of the table at alpha."""
    return _ranking(t.key, t.frame, t.precision, t.recall, round(float(alpha), 4), average)


@st.cache_data(show_spinner=False, max_entries=64)
def _curves(tkey: str, _t: pd.DataFrame, p: str, r: str, average: str) -> pd.DataFrame:
    from metrics.comparison.combine import f_curves  # noqa: PLC0415 - deferred: metrics loads after the page's first paint

    return f_curves(_t, p, r, average=average)


def curves(t: Table, average: str) -> pd.DataFrame:
    """F_alpha curves of every system (index alpha 0..1, one column per system)."""
    return _curves(t.key, t.frame, t.precision, t.recall, average)


@st.cache_data(show_spinner=False, max_entries=512)
def _pair_topics(tkey: str, _t: pd.DataFrame, a: str, b: str, p: str, r: str) -> pd.DataFrame:
    from metrics.analyses import pair_topics as _pt  # noqa: PLC0415 - deferred: metrics loads after the page's first paint

    return _pt(_t, a, b, [p, r])


def pair_topics(t: Table, a: str, b: str) -> pd.DataFrame:
    """``metrics.analyses.per_topic``: per-topic values of both systems, deltas, winner."""
    return _pair_topics(t.key, t.frame, a, b, t.precision, t.recall)


def pair_topic_frame(t: Table, a: str, b: str) -> pd.DataFrame:
    """:func:`pair_topics` renamed for :func:`dashboard.figures.pair_scatter_figure`:
    ``topic, a_precision, a_recall, b_precision, b_recall, delta_precision, delta_recall,
    winner`` (topics with a missing score are dropped)."""
    pt = pair_topics(t, a, b)
    p, r = t.precision, t.recall
    out = pd.DataFrame({
        "topic": pt["topic"].astype(str),
        "a_precision": pt[f"{p}_a"], "a_recall": pt[f"{r}_a"],
        "b_precision": pt[f"{p}_b"], "b_recall": pt[f"{r}_b"],
        "delta_precision": pt[f"delta_{p}"], "delta_recall": pt[f"delta_{r}"],
        "winner": pt["winner"].astype(str),
    })
    return out[out["winner"] != "missing"].reset_index(drop=True)


@st.cache_resource(show_spinner="Comparing every pair of systems\u2026", max_entries=8)
def _comparison_core(tkey: str, _t: pd.DataFrame, p: str, r: str, test: str, correction: str,
                     average: str, _testbeds: dict | None, profile: str):
    """The alpha- and threshold-free part of ``compare`` (UIR, tests, crossings...): the slow
    part, computed once per table and test settings. A shared resource (not copied on a hit):
    it is only read, by :func:`_comparison`."""
    from metrics.analyses import comparison_core  # noqa: PLC0415 - deferred: metrics loads after the page's first paint

    pre = warm.take(comparison_key(tkey, test, correction, average, profile))
    if pre is not None:
        return pre
    more = [m for m in pd.unique(_t["metric"]) if m not in (p, r)]  # the sidebar's extra metrics
    return comparison_core(_t, p, r, test=test, correction=correction, average=average,
                           testbeds=_testbeds, profile=profile, metrics=[p, r, *more])


# a shared resource like the core (not pickled on every hit: at 150 systems a copy of the report
# costs a tenth of a second, and a page reads it three times); pages only read it
@st.cache_resource(show_spinner=False, max_entries=32)
def _comparison(tkey: str, _t: pd.DataFrame, p: str, r: str, alpha: float, threshold: float,
                test: str, correction: str, average: str, _testbeds: dict | None, profile: str):
    from metrics.analyses import comparison_at  # noqa: PLC0415 - deferred: metrics loads after the page's first paint

    core = _comparison_core(tkey, _t, p, r, test, correction, average, _testbeds, profile)
    return comparison_at(core, alpha, threshold)


def comparison(sel: Selection, t: Table):
    """``metrics.analyses.compare`` of the selection on table ``t`` (the campaign report every
    page reads), with the selection's test, correction and profile (the profile's rule decides
    the improved and reference systems, the pairs' verdicts and the tie ranking).

    Two cache levels: the alpha-free core (:func:`_comparison_core`) and the cheap alpha /
    threshold step on top of it, so moving the alpha or threshold slider does not redo the
    pairwise work."""
    beds = _testbeds_of(sel, t)
    return _comparison(t.key, t.frame, t.precision, t.recall, round(sel.alpha, 4),
                       round(sel.threshold, 4), sel.test, sel.correction, sel.average, beds,
                       sel.profile)


@st.cache_resource(show_spinner=False, max_entries=32)  # read only, as _comparison
def _tie_ranking(tkey: str, _t: pd.DataFrame, p: str, r: str, alpha: float, threshold: float,
                 test: str, correction: str, average: str, _testbeds: dict | None, profile: str):
    from metrics.comparison.tie_ranking import ranking_from_comparison  # noqa: PLC0415 - deferred: metrics loads after the page's first paint

    return ranking_from_comparison(_comparison(tkey, _t, p, r, alpha, threshold, test,
                                               correction, average, _testbeds, profile))


def tie_ranking(sel: Selection, t: Table):
    """``metrics.comparison.tie_ranking.ranking_from_comparison`` of :func:`comparison` (cached with
    it,
    under the same key): the partial order of robust improvements, tie groups, rank intervals
    and the Hasse edges."""
    beds = _testbeds_of(sel, t)
    return _tie_ranking(t.key, t.frame, t.precision, t.recall, round(sel.alpha, 4),
                        round(sel.threshold, 4), sel.test, sel.correction, sel.average, beds,
                        sel.profile)


def _testbeds_of(sel: Selection, t: Table) -> dict | None:
    """The topic -> test bed map the comparison takes; None with fewer than two test beds in
    the table (the cross-test-bed prediction needs two)."""
    n = len(t.beds or sel.all_testbeds)
    return comparison_testbeds(campaign(sel.source, sel.baselines).topic_testbeds()
                               if n >= 2 else None, n)


def pair_report(sel: Selection, t: Table):
    """The report's row of the selected pair (A, B): ``metrics.reports.pair_report.PairReport``."""
    return comparison(sel, t).pair(sel.a, sel.b)


@st.cache_data(show_spinner=False, max_entries=64)
def _rank_moves(tkey: str, _t: pd.DataFrame, p: str, r: str, a1: float, a2: float, average: str):
    from metrics.analyses import rank_moves as _rm  # noqa: PLC0415 - deferred: metrics loads after the page's first paint

    return _rm(_t, p, r, a1, a2, average=average)


def rank_moves(t: Table, alpha1: float, alpha2: float, average: str) -> pd.DataFrame:
    return _rank_moves(t.key, t.frame, t.precision, t.recall, round(alpha1, 4), round(alpha2, 4),
                       average)


PREDICTOR_LABELS = {"uir": "UIR", "uir_param": "parametric UIR", "delta_f": "\u0394F"}


def cross_testbed(sel: Selection) -> pd.DataFrame | None:
    """The cross-test-bed prediction of the comparison on all topics (None without beds)."""
    return comparison(sel, table(sel, all_beds=True)).cross_testbed


@st.cache_data(show_spinner=False, max_entries=64)
def _testbed_rankings(tkey: str, _t: pd.DataFrame, p: str, r: str, _beds: dict, alpha: float,
                      average: str):
    from metrics.analyses import testbed_rankings as _tr  # noqa: PLC0415 - deferred: metrics loads after the page's first paint

    return _tr(_t, p, r, _beds, alpha=alpha, average=average)


def testbed_rankings(sel: Selection):
    """``metrics.analyses.testbed_rankings`` on all topics: ``.ranks`` and ``.f``, index system
    (overall rank order), columns ``all`` then each test bed."""
    full = table(sel, all_beds=True)
    beds = campaign(sel.source, sel.baselines).topic_testbeds() or {}
    return _testbed_rankings(full.key, full.frame, full.precision, full.recall, beds,
                             round(sel.alpha, 4), sel.average)


@st.cache_data(show_spinner=False, max_entries=256)
def _contingency(cid: str, path: str, runs: tuple[str, ...], baselines: bool, system: str,
                 topic: str, beds: str | None = None) -> pd.DataFrame:
    from metrics.measures.scoring import contingency_table  # noqa: PLC0415 - deferred: metrics loads after the page's first paint

    src = Source("", "", path, cid, runs, beds)
    return contingency_table(campaign(src, baselines), system, topic, missing="penalize")


def contingency(sel: Selection, system: str, topic: str) -> pd.DataFrame:
    """Gold classes x system clusters counts of one system on one topic."""
    src = sel.source
    return _contingency(src.cid, src.path, src.runs, sel.baselines, system, topic, src.testbeds)


# ------------------------------------------------------------------------------------------------
# Shapes for the pages
# ------------------------------------------------------------------------------------------------


def default_pair(sel: Selection) -> tuple[list[str], str, str]:
    """Systems in rank order at alpha = 0.5 and the default pair (the two best)."""
    t = table(sel)
    rk = ranking(t, 0.5, "macro").sort_values("rank")
    systems = rk["system"].astype(str).tolist()
    extra = [s for s in campaign(sel.source, sel.baselines).systems if s not in systems]
    systems += extra
    a = systems[0]
    b = systems[1] if len(systems) > 1 else systems[0]
    return systems, a, b


def leaderboard(sel: Selection, t: Table) -> pd.DataFrame:
    """The report's systems table (ranking at alpha with reference systems and improved
    systems under the selection's profile, computed by the comparison), sorted by rank, with
    ``f`` the campaign F_alpha."""
    systems = comparison(sel, t).systems.rename(columns={"f_alpha": "f"})
    return systems.sort_values("rank", kind="stable").reset_index(drop=True)
