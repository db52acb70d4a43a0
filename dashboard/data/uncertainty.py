"""Cached calls for how sure the comparison is: the bootstrap over topics
(:func:`metrics.analyses.uncertainty.bootstrap_comparison`) and the robustness to the aggregation
rule (:func:`metrics.analyses.aggregation.aggregation_robustness`) of the page's one comparison
(:func:`dashboard.data.live.comparison`, keyed like it). Nothing is computed here
(docs/uncertainty.md).
"""

from __future__ import annotations

import pandas as pd
import streamlit as st

from dashboard.data import live
from dashboard.state import Selection

__all__ = ["bootstrap", "aggregation"]


@st.cache_data(show_spinner="Bootstrapping the topics\u2026", max_entries=8)
def _bootstrap(tkey: str, _result, _t: pd.DataFrame, _beds: dict | None, alpha: float,
               threshold: float, test: str, correction: str, average: str, profile: str,
               n: int, seed: int):
    from metrics.analyses.uncertainty import (  # noqa: PLC0415 - deferred: metrics loads after the page's first paint
        bootstrap_comparison,
        with_bootstrap,
    )
    from metrics.comparison.profiles import DEFAULT_CONFIDENCE  # noqa: PLC0415 - as above

    return with_bootstrap(_result, bootstrap_comparison(_t, _result, n, seed,
                                                        DEFAULT_CONFIDENCE, _beds))


def bootstrap(sel: Selection, t: live.Table):
    """:func:`dashboard.data.live.comparison` with the bootstrap intervals of the selection's
    ``bootstrap`` resamples and seed (``pairs``: ``uir_low, uir_high, uir_param_low,
    uir_param_high, delta_f_low, delta_f_high``; ``systems``: ``rank_ci_low, rank_ci_high``), or
    None when the sidebar has the bootstrap off."""
    if not sel.bootstrap:
        return None
    beds = live.campaign(sel.source, sel.baselines).topic_testbeds() \
        if len(t.beds or sel.all_testbeds) >= 2 else None
    return _bootstrap(t.key, live.comparison(sel, t), t.frame, beds, round(sel.alpha, 4),
                      round(sel.threshold, 4), sel.test, sel.correction, sel.average,
                      sel.profile, int(sel.bootstrap), int(sel.bootstrap_seed))


@st.cache_resource(show_spinner="Ranking by every aggregation rule\u2026", max_entries=8)
def _aggregation_core(tkey: str, _result, _t: pd.DataFrame, average: str):
    """The alpha- and threshold-free part (the score cube, the rules on the means, F at 0 and
    1, the Pareto front): once per table, not on every step of the alpha slider."""
    from metrics.analyses.aggregation import aggregation_core  # noqa: PLC0415 - deferred: metrics loads after the page's first paint

    return aggregation_core(_t, _result)


# read only, shared like the comparison it is computed from (dashboard/data/live.py)
@st.cache_resource(show_spinner=False, max_entries=16)
def _aggregation(tkey: str, _result, _t: pd.DataFrame, alpha: float, threshold: float,
                 test: str, correction: str, average: str, profile: str):
    from metrics.analyses.aggregation import aggregation_at  # noqa: PLC0415 - deferred: metrics loads after the page's first paint

    return aggregation_at(_aggregation_core(tkey, _result, _t, average), _result)


def aggregation(sel: Selection, t: live.Table):
    """:func:`metrics.analyses.aggregation.aggregation_robustness` of the comparison (its
    alpha-free core cached per table, :func:`metrics.analyses.aggregation.aggregation_at` per
    alpha and threshold)."""
    return _aggregation(t.key, live.comparison(sel, t), t.frame, round(sel.alpha, 4),
                        round(sel.threshold, 4), sel.test, sel.correction, sel.average,
                        sel.profile)
