"""Type level: token-level vs type-level rankings of the same runs, and one run's mapping.

A self-contained view: importing it runs nothing. A page calls :func:`render` with a loaded
campaign (and, if it has one, the score table of that campaign); every number comes from
:mod:`metrics` through :mod:`dashboard.data.type_level`, the figures from
:mod:`dashboard.figures.typelevel`. See ``docs/type-level.md``.
"""

from __future__ import annotations

import pandas as pd
import streamlit as st

from dashboard import ui
from dashboard.data.type_level import (
    MAPPINGS,
    MEASURES,
    TOKEN_METRICS,
    TYPE_METRICS,
    mappings,
    rank_comparison,
    scores_for,
)
from dashboard.figures import short
from dashboard.figures import typelevel as figs
from dashboard.render.downloads import mapping_csv

__all__ = ["render"]

_MEASURES, _MAPPINGS = MEASURES, MAPPINGS


def render(campaign, scores: pd.DataFrame | None = None, missing: str = "penalize",
           key: str = "tl", run: str | None = None) -> None:
    """Draw the type-level view of ``campaign`` (a token tagging campaign).

    Parameters
    ----------
    campaign : metrics.model.campaign.Campaign
    scores : DataFrame, optional
        Its score table; the token- and type-level measures missing from it are computed.
    missing : str
        Missing-item policy for the scores and mappings.
    key : str
        Prefix of the widget keys.
    run : str, optional
        The run the mapping section opens on (the page passes system A).
    """
    st.title("Type level", anchor=False)
    st.caption("Token-level measures score the corpus tagging; type-level measures (Reichart, "
               "Abend & Rappoport 2010) score the lexicon an induction system builds: which gold "
               "tags each word type gets. The two can rank the same runs differently.")
    if getattr(campaign, "item_type", None) is None:
        st.info("This campaign has no word types: the type-level view needs a token tagging "
                "campaign (format `conllu`, see docs/type-level.md).")
        return
    wanted = list(TOKEN_METRICS + TYPE_METRICS)
    if scores is None or not set(wanted) <= set(scores["metric"]):
        table = scores_for(campaign, missing)
    else:
        table = scores[scores["metric"].isin(wanted)]
    comp = rank_comparison(campaign, table, tuple(wanted))
    c1, c2 = st.columns(2)
    tok = c1.selectbox("Token-level measure", TOKEN_METRICS, key=f"{key}_tok")
    typ = c2.selectbox("Type-level measure", TYPE_METRICS, key=f"{key}_typ")
    ui.plot(figs.rank_slope_figure(comp.ranks, tok, typ), key=f"{key}_slope",
            filename="token_vs_type_ranks")
    rho = comp.spearman.loc[tok, typ]
    st.caption(f"Spearman correlation of the two rankings: {rho:.2f}" if pd.notna(rho)
               else "The rankings cannot be correlated (a measure is constant).")
    with st.expander("All measures: campaign means and ranks (the paper's Table 1)"):
        # one row per measure and one column per run: the runs of a tagging campaign are few,
        # the measures many; means or ranks, so that the table fits a 1024 px slide
        shown = st.segmented_control("Show", ["means", "ranks"], default="means",
                                     key=f"{key}_table1") or "means"
        grid = (comp.means if shown == "means" else comp.ranks.astype(int)).T
        grid.index = [f"{figs.measure_label(m, 26)}{' *' if comp.type_level.get(m) else ''}"
                      for m in grid.index]
        width = max(48, min(90, 470 // max(1, grid.shape[1])))
        st.dataframe(grid, width="stretch", height=ui.table_height(len(grid), 620),
                     column_config={"_index": st.column_config.TextColumn("measure", width=170),
                                    **{str(c): st.column_config.NumberColumn(
                                        short(c, 12), format="%.3f" if shown == "means"
                                        else "%d", width=width, help=str(c))
                                       for c in grid.columns}})
        st.caption("\\* type level; M-1: the many-to-one mapping. Ranks: 1 = the best run "
                   "under the measure.")
        ui.plot(figs.spearman_figure(comp.spearman, comp.type_level), key=f"{key}_rho",
                filename="spearman_token_type")

    st.subheader("The mapping of one run", anchor=False)
    # two selects per row: whole names at 1024 px
    c1, c2 = st.columns(2)
    runs = list(campaign.systems)
    system = c1.selectbox("Run", runs, index=runs.index(run) if run in runs else 0,
                          key=f"{key}_sys")
    topic = c2.selectbox("Topic", [str(t) for t in campaign.topics], key=f"{key}_topic")
    c3, c4 = st.columns(2)
    mapping = _MAPPINGS[c3.selectbox("Mapping", list(_MAPPINGS), key=f"{key}_map")]
    measure = _MEASURES[c4.selectbox("Maximising", list(_MEASURES), key=f"{key}_measure")]
    maps = mappings(campaign, system, mapping, measure, missing)
    one = maps[maps["topic"].astype(str) == topic]
    suffix = "" if mapping == "one_to_one" else f"(mapping={mapping})"
    mine = table[(table["system"] == system) & (table["topic"].astype(str) == topic)]
    vals = dict(zip(mine["metric"], mine["value"], strict=True))
    cards = st.columns(3)
    for col, (label, name) in zip(cards, (("MacroI P", "type_macro_precision"),
                                          ("MacroI R", "type_macro_recall"),
                                          ("MacroI F", "type_macro_f")), strict=True):
        v = vals.get(f"{name}{suffix}")
        col.metric(f"{label} ({'1-1' if not suffix else 'M-1'})",
                   "\u2013" if v is None or v != v else f"{v:.3f}",
                   help=f"{name}{suffix} of {system} on {topic} (docs/type-level.md)")
    if len(one):
        method = one["method"].iloc[0]
        exact = ("a proven optimum" if bool(one["exact"].iloc[0]) else
                 f"the best mapping found ({one['exactness'].iloc[0]}: the optimum lies at most "
                 "that far above its score)")
        st.caption(f"Found by {method}: {exact}.")
    ui.plot(figs.mapping_figure(one, title=f"{system} on {topic}: clusters mapped to "
                                           "each gold tag"),
            key=f"{key}_mapfig", filename="mapping")
    st.dataframe(
        one[["cluster", "tag", "cluster_types", "cluster_tokens", "shared_types"]]
        .assign(tag=one["tag"].replace("", "(unmapped)"))
        .sort_values(["tag", "cluster_types"], ascending=[True, False]),
        hide_index=True, width="stretch", height=ui.table_height(len(one), 360),
        key=f"{key}_maptable",
        column_config={"cluster": st.column_config.TextColumn("Cluster", width=90),
                       "tag": st.column_config.TextColumn("Gold tag", width=110),
                       "cluster_types": st.column_config.NumberColumn("Word types", width=95),
                       "cluster_tokens": st.column_config.NumberColumn("Tokens", width=85),
                       "shared_types": st.column_config.NumberColumn(
                           "Types with the tag", width=140,
                           help="word types of the cluster whose gold tag is this one")})
    st.download_button("Mapping as CSV (every topic)", mapping_csv(maps),
                       file_name=f"mapping_{system}_{measure}_{mapping}.csv", mime="text/csv",
                       key=f"{key}_dl", on_click="ignore")
