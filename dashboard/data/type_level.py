"""Cached calls of the Type level page (docs/type-level.md): the token- and type-level score
table of a campaign (:func:`metrics.measures.scoring.evaluate`), one run's cluster -> tag mappings
(:func:`metrics.measures.typelevel.type_entries.type_mappings`) and the two rankings compared
(:func:`metrics.analyses.token_type_ranks.rank_comparison`). One cache key per campaign
(:func:`_key`); nothing is computed here."""

from __future__ import annotations

import pandas as pd
import streamlit as st

from dashboard.data import disk_cache, warm
from dashboard.data.sources import mapping_key, typelevel_key
from dashboard.data.typelevel_metrics import MAPPINGS, MEASURES, TOKEN_METRICS, TYPE_METRICS

__all__ = ["TOKEN_METRICS", "TYPE_METRICS", "MEASURES", "MAPPINGS", "scores_for", "mappings",
           "rank_comparison"]



def _key(campaign) -> str:
    """The key a campaign's type-level results are cached under."""
    return f"{campaign.source}|{campaign.name}|{len(campaign.systems)}"


@st.cache_data(show_spinner="Scoring token- and type-level measures ...")
def _scores(_campaign, key: str, missing: str) -> pd.DataFrame:
    # the bundled campaign's table is computed by the warm-up (dashboard/data/warm.py); a
    # campaign folder's is kept on disk between servers (dashboard/data/disk_cache.py)
    pre = warm.take(typelevel_key(_campaign.source, _campaign.name, len(_campaign.systems),
                                  missing))
    if pre is not None:
        return pre
    return disk_cache.scores(_campaign, TOKEN_METRICS + TYPE_METRICS, missing)


def scores_for(campaign, missing: str = "penalize") -> pd.DataFrame:
    """The token- and type-level score table of a campaign."""
    return _scores(campaign, _key(campaign), missing)


@st.cache_data(show_spinner="Computing the mapping ...")
def _mappings(_campaign, key: str, system: str, mapping: str, measure: str,
              missing: str) -> pd.DataFrame:
    from metrics.measures.typelevel.type_entries import type_mappings  # noqa: PLC0415 - deferred: metrics loads after the page's first paint

    # the bundled campaign's mappings the page opens on are computed by the warm-up
    pre = warm.take(mapping_key(_campaign.source, _campaign.name, len(_campaign.systems), system,
                                mapping, measure, missing))
    if pre is not None:
        return pre
    return type_mappings(_campaign, system, mapping=mapping, measure=measure, missing=missing)


def mappings(campaign, system: str, mapping: str, measure: str, missing: str) -> pd.DataFrame:
    """The cluster -> tag mapping of ``system`` on every topic."""
    return _mappings(campaign, _key(campaign), system, mapping, measure, missing)


@st.cache_data(show_spinner=False, max_entries=16)
def _rank_comparison(key: str, _table: pd.DataFrame, measures: tuple[str, ...]):
    from metrics.analyses.token_type_ranks import rank_comparison as _rc  # noqa: PLC0415 - deferred: metrics loads after the page's first paint

    return _rc(_table, list(measures))


def rank_comparison(campaign, table: pd.DataFrame, measures: tuple[str, ...]):
    """The token- vs type-level rankings of ``table`` on ``measures``."""
    return _rank_comparison(f"{_key(campaign)}|{len(table)}", table, tuple(measures))
