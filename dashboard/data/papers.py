"""Cached calls for the Papers' tables page: :func:`metrics.analyses.paper_tables.paper_tables` of
the
page's one comparison (:func:`dashboard.data.live.comparison`, cached under the same table key) and
the random baselines over k. Nothing is computed here: every number comes from ``metrics``."""

from __future__ import annotations

import pandas as pd
import streamlit as st

from dashboard.data import live
from dashboard.data.sources import Source
from dashboard.state import Selection

__all__ = ["paper_tables", "random_baselines"]


@st.cache_data(show_spinner="Computing the papers' tables\u2026", max_entries=16)
def _paper_tables(tkey: str, _result, _t: pd.DataFrame, alpha: float, threshold: float,
                  test: str, correction: str, average: str, profile: str):
    from metrics.analyses.paper_tables import paper_tables as _pt  # noqa: PLC0415 - deferred: metrics loads after the page's first paint

    return _pt(_result, _t)


def paper_tables(sel: Selection, t: live.Table):
    """``metrics.analyses.paper_tables.paper_tables`` of :func:`dashboard.data.live.comparison` (its
    pairs and
    table), under the selection's profile (read from the comparison); no random
    baselines. Keyed like the comparison: table key, alpha, threshold, test settings."""
    return _paper_tables(t.key, live.comparison(sel, t), t.frame, round(sel.alpha, 4),
                         round(sel.threshold, 4), sel.test, sel.correction, sel.average,
                         sel.profile)


@st.cache_data(show_spinner="Scoring random baselines for k = 2..20\u2026", max_entries=8)
def _random_baselines(cid: str, path: str, runs: tuple[str, ...], p: str, r: str,
                      n_runs: int) -> pd.DataFrame:
    from metrics.analyses.paper_tables import random_baselines_by_k  # noqa: PLC0415 - deferred: metrics loads after the page's first paint

    return random_baselines_by_k(live.campaign(Source("", "", path, cid, runs)), p, r,
                                 runs=n_runs)


def random_baselines(sel: Selection, n_runs: int) -> pd.DataFrame:
    """``metrics.analyses.paper_tables.random_baselines_by_k`` of the campaign on the selected
    metric pair
    (Moreno & Dias 2015 Table 2: k = 2..20, ``n_runs`` seeds each, F at alpha 0.9)."""
    src = sel.source
    return _random_baselines(src.cid, src.path, src.runs, sel.precision, sel.recall, int(n_runs))
