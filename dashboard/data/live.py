"""Cached calls into the ``metrics`` package: one cached call per computation.

Nothing here computes a metric, a test, a verdict or a ranking: every number comes from
``metrics``, and every page's pairwise numbers from one cached comparison
(:func:`comparison`: ``metrics.analyses.comparison_core`` plus the alpha / threshold step) and
its report. This module only selects rows (a test-bed filter, a pair of systems) and reshapes
results for the figures. The campaigns and score tables it analyses come from
:mod:`dashboard.data.tables` (re-exported here: the pages read both through this module).

Caching
-------
Analyses are cached with ``st.cache_data`` keyed on ``tkey`` -- a string naming the campaign id,
the baselines switch, the metric pair and the test-bed filter (:class:`Table`'s key) -- while
the table itself is passed as a leading-underscore argument (not hashed). A slider change
therefore recomputes only what depends on that slider. The campaign comparison is split the
same way: its alpha-free core (the pairwise work) is a cached resource, and only the cheap
alpha / threshold step reruns when those sliders move; the comparison at alpha, its tie ranking
and its aggregation analysis are shared resources too (pages only read them; a pickled copy on
every hit would cost more than the step at 150 systems).
"""

from __future__ import annotations

import pandas as pd
import streamlit as st

from dashboard.data import warm
from dashboard.data.sources import Source, comparison_key, comparison_testbeds
from dashboard.data.tables import (
    Table,
    campaign,
    campaign_info,
    metric_names,
    metric_pairs,
    score_table,
    table,
)
from dashboard.state import Selection

__all__ = [
    "campaign", "campaign_info", "metric_pairs", "metric_names", "score_table", "Table", "table",
    "default_pair", "ranking", "curves", "pair_topics", "pair_topic_frame", "comparison",
    "pair_report", "tie_ranking", "contingency", "rank_moves",
    "testbed_rankings", "cross_testbed", "leaderboard", "PREDICTOR_LABELS",
]

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
