"""Cached per-topic calls of the Compare page: the effect sizes of a pair
(:func:`metrics.comparison.effect_size.pair_effects`) and its per-topic differences
(:func:`metrics.analyses.topic_differences`), keyed by the table key of
:mod:`dashboard.data.live` like every other call. Nothing is computed here."""

from __future__ import annotations

import pandas as pd
import streamlit as st

from dashboard.data import live

__all__ = ["effects", "differences"]


@st.cache_data(show_spinner=False, max_entries=256)
def _effects(tkey: str, _t: pd.DataFrame, a: str, b: str, metrics: tuple[str, ...]):
    from metrics.comparison.effect_size import pair_effects  # noqa: PLC0415 - deferred: metrics loads after the page's first paint

    return pair_effects(_t, a, b, list(metrics))


def effects(t: live.Table, a: str, b: str, metrics: tuple[str, ...]):
    """The t interval and Cohen's d_z of each metric's mean difference A - B
    (:func:`metrics.comparison.effect_size.pair_effects`)."""
    return _effects(t.key, t.frame, a, b, tuple(metrics))


@st.cache_data(show_spinner=False, max_entries=256)
def _differences(tkey: str, _topics: pd.DataFrame, a: str, b: str, metrics: tuple[str, ...]):
    from metrics.analyses import topic_differences  # noqa: PLC0415 - deferred: metrics loads after the page's first paint

    return topic_differences(_topics, list(metrics))


def differences(t: live.Table, a: str, b: str, metrics: tuple[str, ...]) -> pd.DataFrame:
    """Each metric's A - B per topic with the topic's unanimous winner
    (:func:`metrics.analyses.topic_differences` of :func:`dashboard.data.live.pair_topics`)."""
    return _differences(t.key, live.pair_topics(t, a, b), a, b, tuple(metrics))
