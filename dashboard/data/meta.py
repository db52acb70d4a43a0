"""Cached calls for the Meta-evaluation page, the Data page's ranking coverage and the metric
pair's verdict: each one cached call into ``metrics`` (nothing is computed here).

* :func:`ranking_coverage` -- :func:`metrics.analyses.ranking_coverage.ranking_coverage`;
* :func:`pair_agreement` -- :func:`metrics.analyses.metric_pair.pair_agreement` of the table of
  the selected pair (keyed by the table key);
* :func:`ranking_table` -- the R&S paper's Table 8 (:mod:`metrics.meta.ranking_table`);
* :func:`filtering_results` -- Table 7 and Figure 1 of the campaign's filtering view, each run's
  top K accepted (:mod:`metrics.meta.filtering_table`);
* :func:`campaign_meta` -- Robustness and Strictness of the campaign's own metric pairs, each
  against the others (:func:`metrics.meta.meta_evaluation.meta_evaluate`);
* :func:`family_constraints` -- the formal-constraint verdicts of the campaign's family
  (:func:`metrics.meta.constraint_check.check_measures`).
"""

from __future__ import annotations

import pandas as pd
import streamlit as st

from dashboard.data import live
from dashboard.data.sources import Source
from dashboard.state import Selection

__all__ = ["ranking_coverage", "pair_agreement", "pair_words", "words_of", "ranking_table",
           "filtering_results", "campaign_meta", "family_constraints", "FAMILY_MEASURES",
           "family_of"]

#: the measures whose constraints each family's table shows.
FAMILY_MEASURES: dict[str, tuple[str, ...]] = {
    "ranking": ("AP", "nDCG", "P@10", "RR", "ERR", "Q-measure", "RBP(p=0.8,rel=1)",
                "RBP(p=0.95,rel=1)", "R*S"),
    "filtering": ("accuracy", "f_measure", "utility", "lam", "R*S"),
    "clustering": ("purity", "inverse_purity", "F(purity,inverse_purity)", "bcubed_precision",
                   "bcubed_recall", "F(bcubed_precision,bcubed_recall)",
                   "F(bcubed_precision,bcubed_adapted_recall,alpha=0.9)", "R*S"),
}


def _src(cid: str, path: str, runs: tuple[str, ...], beds: str | None) -> Source:
    return Source("", "", path, cid, runs, beds)


def pair_words(sel: Selection):
    """:class:`~metrics.analyses.metric_pair.PairWords` of the selected pair: precision-like /
    recall-like only where the pair is one."""
    return words_of(sel.precision, sel.recall)


def words_of(first: str, second: str):
    """:class:`~metrics.analyses.metric_pair.PairWords` of the pair (``first``, ``second``)."""
    from metrics.analyses.metric_pair import pair_words as _pw  # noqa: PLC0415 - deferred: metrics loads after the page's first paint

    return _pw(first, second)


def family_of(info: dict) -> str | None:
    """The constraint family of a campaign (:func:`dashboard.data.live.campaign_info`): ranking,
    filtering (organisation without a tail), clustering; None for a score table or a token
    tagging campaign."""
    if info["ranking"]:
        return "ranking"
    if info["organisation"]:
        return "filtering"
    if info["has_clusterings"] and not info["token_tagging"]:
        return "clustering"
    return None


@st.cache_data(show_spinner="Counting what the qrels judge\u2026", max_entries=8)
def _coverage(cid: str, path: str, runs: tuple[str, ...], beds: str | None):
    from metrics.analyses.ranking_coverage import ranking_coverage as _rc  # noqa: PLC0415 - deferred: metrics loads after the page's first paint

    return _rc(live.campaign(_src(cid, path, runs, beds)))


def ranking_coverage(src: Source):
    """:class:`~metrics.analyses.ranking_coverage.RankingCoverage` of a ranking campaign."""
    return _coverage(src.cid, src.path, src.runs, src.testbeds)


@st.cache_data(show_spinner=False, max_entries=64)
def _agreement(tkey: str, _t: pd.DataFrame, first: str, second: str):
    from metrics.analyses.metric_pair import pair_agreement as _pa  # noqa: PLC0415 - deferred: metrics loads after the page's first paint

    return _pa(_t, first, second)


def pair_agreement(t: live.Table):
    """:class:`~metrics.analyses.metric_pair.PairAgreement` of the table's two metrics."""
    return _agreement(t.key, t.frame, t.precision, t.recall)


@st.cache_data(show_spinner="Meta-evaluating the ranking measures (the R&S paper's Table 8)\u2026",
               max_entries=4)
def _ranking_table(cid: str, path: str, runs: tuple[str, ...], beds: str | None):
    from metrics.meta.ranking_table import ranking_table as _rt  # noqa: PLC0415 - deferred: metrics loads after the page's first paint

    return _rt(live.campaign(_src(cid, path, runs, beds)))


def ranking_table(src: Source):
    """:class:`~metrics.meta.ranking_table.RankingTable` of a ranking campaign."""
    return _ranking_table(src.cid, src.path, src.runs, src.testbeds)


@st.cache_data(show_spinner="Meta-evaluating the filtering measures (Table 7, Figure 1)\u2026",
               max_entries=8)
def _filtering(cid: str, path: str, runs: tuple[str, ...], beds: str | None, accept_top: int):
    from metrics.meta.filtering_table import (  # noqa: PLC0415 - deferred: metrics loads after the page's first paint
        figure1,
        filtering_table,
        filtering_view,
    )

    view = filtering_view(live.campaign(_src(cid, path, runs, beds)), accept_top=accept_top)
    return filtering_table(view), figure1(view)


def filtering_results(src: Source, accept_top: int):
    """(:class:`~metrics.meta.filtering_table.FilteringTable`,
    :class:`~metrics.meta.filtering_table.Figure1`) of the campaign's filtering view."""
    return _filtering(src.cid, src.path, src.runs, src.testbeds, int(accept_top))


@st.cache_data(show_spinner="Meta-evaluating the campaign's metrics\u2026", max_entries=8)
def _campaign_meta(cid: str, path: str, runs: tuple[str, ...], beds: str | None,
                   names: tuple[str, ...]):
    from metrics.meta.meta_evaluation import meta_evaluate  # noqa: PLC0415 - deferred: metrics loads after the page's first paint

    table = live.score_table(_src(cid, path, runs, beds), False, names)
    return meta_evaluate(table, [], list(names))


def campaign_meta(src: Source, names: tuple[str, ...]):
    """:class:`~metrics.meta.meta_evaluation.MetaEvaluation` of ``names``, each measure against
    the others."""
    return _campaign_meta(src.cid, src.path, src.runs, src.testbeds, tuple(names))


@st.cache_data(show_spinner="Checking the formal constraints\u2026", max_entries=4)
def family_constraints(family: str) -> pd.DataFrame:
    """``metric, family, constraint, holds, better, worse, case`` of :data:`FAMILY_MEASURES`."""
    from metrics.meta.constraint_check import check_measures  # noqa: PLC0415 - deferred: metrics loads after the page's first paint

    return check_measures(list(FAMILY_MEASURES[family])).to_dataframe()
