"""The papers' tables on a page: what :func:`metrics.analyses.paper_tables.paper_tables` computed
(for a campaign, cached in :mod:`dashboard.data.papers`) or a bundle stored, rendered as they
are by the Papers page (``views/papers.py``)."""

from __future__ import annotations

import math

import pandas as pd
import streamlit as st

from dashboard import ui
from metrics.reports.numbers import format_p

__all__ = ["render", "render_baselines", "SET_LABELS"]

#: Row labels of JAIR Tables 5-6 (the ``set`` column of
# :func:`metrics.analyses.paper_tables.jair_table5`).
SET_LABELS = {"all_alpha": "F increases for every \u03b1", "other": "not for every \u03b1",
              "concordant": "concordant (significant, every metric)",
              "opposite": "opposite (significant, metrics disagree)",
              "none": "no significant difference", "worsening": "concordant worsening"}
_JAIR_COLUMNS = {"set": "pairs", "n_pairs": "# pairs", "mean_uir": "mean UIR",
                 "mean_abs_delta_f": "mean |\u0394F|", "mean_rel_delta_f": "mean relative \u0394F"}


def _r(v) -> str:
    return "n/a" if v is None or (isinstance(v, float) and math.isnan(v)) else f"{v:+.2f}"


def _weps_label(col: str) -> str:
    """``f_a_0.5`` -> ``F(a) α=0.5``, ``delta_0.2`` -> ``Δ α=0.2``, ``p_0.5`` -> ``p α=0.5``."""
    head, _, a = col.rpartition("_")
    name = {"f_a": "F(a)", "f_b": "F(b)", "delta": "\u0394", "p": "p"}.get(head, head)
    return f"{name} \u03b1={a}"


def _jair(df: pd.DataFrame) -> pd.DataFrame:
    return df.assign(set=df["set"].map(lambda s: SET_LABELS.get(s, s))).rename(
        columns=_JAIR_COLUMNS)


def render(tables: dict, summary: dict, parameters: dict, all_pairs: pd.DataFrame | None,
           key: str) -> None:
    """Draw JAIR Tables 5-6, WePS Table 2, the ten-pairs weakest-metric analysis next to the
    all-pairs one, the improved systems and, when present, the random baselines."""
    fmt = {c: st.column_config.NumberColumn(format="%.3f")
           for c in ("mean UIR", "mean |\u0394F|", "mean relative \u0394F")}
    alpha = float(parameters.get("alpha", 0.5))
    st.markdown("**JAIR 2011 Table 5** \u2014 pairs where F\u03b1 increases, by whether it "
                "increases for every \u03b1")
    st.dataframe(_jair(tables["jair_table5"]), hide_index=True, width="stretch",
                 placeholder="\u2013", key=f"{key}_t5", column_config=fmt)
    st.markdown("**JAIR 2011 Table 6** \u2014 the same pairs by significance class")
    st.dataframe(_jair(tables["jair_table6"]), hide_index=True, width="stretch",
                 placeholder="\u2013", key=f"{key}_t6", column_config=fmt)
    st.caption(f"Each unordered pair once, oriented so that F\u03b1 (\u03b1 = {alpha:.2f}) "
               "increases; UIR of that orientation. Classes from the "
               f"{parameters.get('test')} test with {parameters.get('correction')} correction "
               "(docs/rankings.md, \u201cThe papers' tables\u201d).")

    st.subheader("WePS Table 2: significance at two \u03b1", anchor=False)
    weps = tables["weps_table2"]
    counts = summary.get("weps_table2", {})
    alphas = [c.removeprefix("p_") for c in weps.columns if c.startswith("p_")]
    cols = st.columns(2 + len(alphas))
    cols[0].metric("Pairs", f"{counts.get('n_pairs', len(weps)):,}")
    for col, a in zip(cols[1:], alphas, strict=False):
        col.metric(f"Significant at \u03b1 = {a}", f"{counts.get(f'significant_{a}', 0):,}")
    cols[-1].metric("Reverse between the two", f"{counts.get('reversed', 0):,}",
                    help="Significant at both \u03b1 with opposite signs")
    only = st.toggle("Only the pairs that reverse", value=True, key=f"{key}_weps_only")
    shown = weps[weps["reverses"].astype(bool)] if only else weps
    # a, b, and the difference and p at each alpha: what fits the page at 1024 px (the F of
    # each system at each alpha is in the bundle's weps_table2.csv)
    keep = ["system_a", "system_b",
            *[c for c in weps.columns if c.startswith(("delta_", "p_"))], "reverses"]
    if shown.empty:
        st.markdown("No pair " + ("reverses: none is significant one way at one \u03b1 and "
                                  "the other way at the other." if only else "to show."))
    else:
        _weps_table(shown, keep, key)
    st.caption(f"Wilcoxon on per-topic F\u03b1, two-sided, {counts.get('correction', 'none')} "
               f"correction, level {counts.get('level', 0.05)}.")

    st.subheader("Weakest-metric improvement: ten pairs and all pairs", anchor=False)
    top = tables["weakest_metric_top"]
    s_top = summary.get("weakest_metric_top", {})
    s_all = summary.get("weakest_metric_all_pairs", {})
    c1, c2 = st.columns(2)
    c1.metric("Pearson r, the ten pairs with the largest improvement", _r(s_top.get("pearson_r")),
              delta=f"n = {s_top.get('n', len(top))}", delta_color="off", delta_arrow="off")
    c2.metric("Pearson r, all pairs that improve every metric", _r(s_all.get("pearson_r")),
              delta=f"n = {s_all.get('n', 0 if all_pairs is None else len(all_pairs))}",
              delta_color="off", delta_arrow="off")
    st.dataframe(top, hide_index=True, width="stretch", placeholder="\u2013",
                 key=f"{key}_top",
                 column_config={
                     "system_a": st.column_config.TextColumn("a", width=180),
                     "system_b": st.column_config.TextColumn("b", width=180),
                     "weakest_metric": st.column_config.TextColumn("weakest metric", width=150),
                     "weakest_delta": st.column_config.NumberColumn(
                         "its mean \u0394", format="%.3f", width=85,
                         help="the smallest of the pair's mean per-metric improvements"),
                     "uir": st.column_config.NumberColumn("UIR", format="%.3f", width=60)})
    st.caption("JAIR 2011 Fig. 7 takes the ten pairs with the largest improvement; the UIR "
               "analysis page shows every pair.")

    imp = tables.get("improved_systems")
    if imp is not None:
        st.subheader(f"Improved systems ({summary.get('improved_rule', '')})", anchor=False)
        st.dataframe(imp.assign(improved_systems=imp["improved_systems"].map(
            lambda v: ", ".join(v) if isinstance(v, list) else "")),
            hide_index=True, width="stretch", placeholder="\u2013",
            height=ui.table_height(len(imp), 360),
            key=f"{key}_imp",
            column_config={"system": st.column_config.TextColumn("System", width=200),
                           "improved_systems": st.column_config.TextColumn("Improved systems",
                                                                           width=380),
                           "n_improved": st.column_config.NumberColumn("# improved",
                                                                       width=85)})
    if "random_baselines" in tables:
        render_baselines(tables["random_baselines"], key, heading=True)


def render_baselines(df: pd.DataFrame, key: str, heading: bool = False) -> None:
    """Moreno & Dias (2015) Table 2: random baselines per k and their mean over k."""
    if heading:
        st.subheader("Random baselines over k (Moreno & Dias 2015, Table 2)", anchor=False)
    st.dataframe(df, hide_index=True, width="stretch", placeholder="\u2013",
                 height=ui.table_height(len(df), 420),
                 key=f"{key}_rb",
                 column_config={c: st.column_config.NumberColumn(format="%.3f")
                                for c in ("f_mean", "f_sd", "precision", "recall")})
    st.caption("UniformRand (random) and UltraShapedRand (ultra-shaped) with k clusters per "
               "topic, several seeds each; the last rows average over k.")


def _weps_table(shown: pd.DataFrame, keep: list[str], key: str) -> None:
    """WePS Table 2's rows ``shown``: a, b, and the difference and p at each alpha."""
    st.dataframe(shown[keep].assign(**{c: shown[c].map(format_p)
                                       for c in keep if c.startswith("p_")}),
                 hide_index=True, width="stretch", placeholder="\u2013",
                 height=ui.table_height(len(shown), 360),
                 key=f"{key}_weps",
                 column_config={"system_a": st.column_config.TextColumn("a", width=170),
                                "system_b": st.column_config.TextColumn("b", width=170),
                                "reverses": st.column_config.CheckboxColumn("reverses",
                                                                            width=70),
                                **{c: st.column_config.NumberColumn(_weps_label(c), width=75,
                                                                    format="%+.3f")
                                   for c in keep if c.startswith("delta_")},
                                **{c: st.column_config.TextColumn(_weps_label(c), width=75)
                                   for c in keep if c.startswith("p_")}})
