"""Cached calls of the Type level page (docs/type-level.md): the token- and type-level score
table of a campaign (:func:`metrics.measures.scoring.evaluate`), one run's cluster -> tag mappings
(:func:`metrics.measures.typelevel.type_entries.type_mappings`) and the two rankings compared
(:func:`metrics.analyses.token_type_ranks.rank_comparison`). One cache key per campaign
(:func:`_key`); nothing is computed here."""

from __future__ import annotations

import pandas as pd
import streamlit as st

__all__ = ["TOKEN_METRICS", "TYPE_METRICS", "scores_for", "mappings", "rank_comparison"]

TOKEN_METRICS: tuple[str, ...] = ("accuracy_m1", "accuracy_11", "v_measure", "nvi",
                                  "h_c_given_k", "h_k_given_c")
TYPE_METRICS: tuple[str, ...] = tuple(
    f"{m}{s}" for s in ("", "(mapping=many_to_one)")
    for m in ("type_macro_f", "type_micro_f", "type_microc_f", "type_macro_precision",
              "type_macro_recall"))


def _key(campaign) -> str:
    """The key a campaign's type-level results are cached under."""
    return f"{campaign.source}|{campaign.name}|{len(campaign.systems)}"


@st.cache_data(show_spinner="Scoring token- and type-level measures ...")
def _scores(_campaign, key: str, missing: str) -> pd.DataFrame:
    from metrics.measures.scoring import evaluate  # noqa: PLC0415 - deferred: metrics loads after the page's first paint

    return evaluate(_campaign, list(TOKEN_METRICS + TYPE_METRICS), missing=missing)


def scores_for(campaign, missing: str = "penalize") -> pd.DataFrame:
    """The token- and type-level score table of a campaign."""
    return _scores(campaign, _key(campaign), missing)


@st.cache_data(show_spinner="Computing the mapping ...")
def _mappings(_campaign, key: str, system: str, mapping: str, measure: str,
              missing: str) -> pd.DataFrame:
    from metrics.measures.typelevel.type_entries import type_mappings  # noqa: PLC0415 - deferred: metrics loads after the page's first paint

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
