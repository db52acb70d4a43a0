"""Plotly figure builders of the type-level view: pure ``(data, options) -> go.Figure``.

* :func:`rank_slope_figure`: each system's rank under a token-level and a type-level measure,
  joined by a line (crossing lines = the two levels disagree; Reichart, Abend, Rappoport 2010).
* :func:`spearman_figure`: the Spearman correlation of the rankings under every pair of measures.
* :func:`mapping_figure`: one run's cluster -> tag mapping, a stacked bar per gold tag with one
  segment per cluster mapped to it (and the clusters a 1-1 mapping leaves unmapped).
"""

from __future__ import annotations

from typing import cast

import numpy as np
import pandas as pd
import plotly.graph_objects as go

from dashboard.figures.margins import axis_margin, colorbar_margin, tilted_margin
from dashboard.figures.style import COLOR_DOWN, COLOR_TIED, COLOR_UP, FONT, MIN_FONT, short

#: the charts' body text size in px (tick labels), for their margins
_BODY_PX = cast(float, FONT["size"])

__all__ = ["rank_slope_figure", "spearman_figure", "mapping_figure", "measure_label", "UNMAPPED"]

UNMAPPED = "(unmapped)"
#: A run that climbs, falls or keeps its rank at the type level: colour, dash and marker, as in
#: the Leaderboard's rank chart (told apart without colour).
_MOVE_STYLE = {"up": (COLOR_UP, "solid", "triangle-up"),
               "down": (COLOR_DOWN, "dash", "triangle-down"),
               "same": (COLOR_TIED, "dot", "circle")}


def rank_slope_figure(ranks: pd.DataFrame, token_metric: str, type_metric: str,
                      title: str | None = None) -> go.Figure:
    """Slope chart of ranks: left = ``token_metric``, right = ``type_metric``.

    Parameters
    ----------
    ranks : DataFrame
        index = system, columns include both metrics; rank 1 = best.
    """
    fig = go.Figure()
    n = len(ranks)
    for system, row in ranks.iterrows():  # one trace per system (a handful of runs)
        left, right = float(row[token_metric]), float(row[type_metric])
        color, dash, symbol = _MOVE_STYLE["up" if right < left else "down" if right > left
                                          else "same"]
        fig.add_trace(go.Scatter(
            x=[0, 1], y=[left, right], mode="lines+markers+text", name=str(system),
            text=[f"{system} ", f" {system}"], textposition=["middle left", "middle right"],
            textfont={"size": MIN_FONT},
            line={"color": color, "width": 2, "dash": dash}, marker={"size": 9, "symbol": symbol},
            hovertemplate=f"{system}<br>%{{x}}: rank %{{y}}<extra></extra>",
        ))
    fig.update_layout(
        title=title or "Rank of each run: token level vs type level",
        showlegend=False, height=max(320, 36 * n + 120), margin={"l": 140, "r": 140, "t": 60},
        template="plotly_white", font=FONT,
    )
    fig.update_xaxes(tickvals=[0, 1], ticktext=[f"{token_metric}<br>(token level)",
                                                f"{type_metric}<br>(type level)"],
                     range=[-0.9, 1.9])  # room for the run names beside the rank ticks
    fig.update_yaxes(autorange="reversed", title="rank (1 = best)", dtick=1)
    return fig


def measure_label(name: str, n: int = 30) -> str:
    """A measure's name for a label: the many-to-one mapping written M-1, cut to ``n``."""
    return short(str(name).replace("(mapping=many_to_one)", " (M-1)"), n)


def spearman_figure(spearman: pd.DataFrame, type_level: dict,
                    title: str | None = None) -> go.Figure:
    """Heatmap of rank correlations; type-level measures are marked with ``*``."""
    names = [str(m) for m in spearman.columns]
    # rows named in full (cut at 30 characters), columns numbered like the rows: long names on
    # both axes leave no room for the cells; the values are written in the cells only while
    # they fit (up to 10 measures), the hover has them all
    rows = [f"{i}. {measure_label(m)}{' *' if type_level.get(m) else ''}"
            for i, m in enumerate(names, 1)]
    cols = [str(i) for i in range(1, len(names) + 1)]
    z = spearman.to_numpy(dtype=float)
    text = np.where(np.isnan(z), "", np.vectorize(lambda v: f"{v:.2f}")(np.nan_to_num(z)))
    full = np.array([[f"{a} vs {b}" for b in names] for a in names])
    fig = go.Figure(go.Heatmap(
        z=z, x=cols, y=rows, zmin=-1, zmax=1, colorscale="RdBu", text=text, customdata=full,
        texttemplate="%{text}" if len(names) <= 10 else None, textfont={"size": MIN_FONT},
        hovertemplate="%{customdata}: %{z:.2f}<extra></extra>",
        colorbar={"title": {"text": "Spearman", "side": "right"}},
    ))
    # margins that hold the row names and the colour bar: the chart is laid out once
    # (dashboard/figures/margins.py)
    fig.update_layout(title=title or "Rank correlation between measures (* = type level)",
                      height=max(360, 30 * len(rows) + 160), template="plotly_white",
                      font=FONT, margin={"l": axis_margin(rows, _BODY_PX, title=False),
                                         "r": colorbar_margin(["\u22120.5"], 30), "t": 100,
                                         "b": 80})
    fig.update_xaxes(title_text="measure (numbered as the rows)", tickangle=0)
    fig.update_yaxes(autorange="reversed")
    return fig


def mapping_figure(mapping: pd.DataFrame, title: str | None = None,
                   value: str = "cluster_types") -> go.Figure:
    """Stacked bars: for each gold tag, the clusters mapped to it, sized by ``value``.

    Parameters
    ----------
    mapping : DataFrame
        Rows of :func:`metrics.measures.typelevel.type_entries.type_mappings` for one system and
        topic
        (columns ``cluster, tag, cluster_types, cluster_tokens, shared_types``).
    value : {"cluster_types", "cluster_tokens"}
        Segment size.
    """
    df = mapping.copy()
    df["tag"] = df["tag"].replace("", UNMAPPED)
    totals = df.groupby("tag")[value].sum().sort_values(ascending=False)
    order = [t for t in totals.index if t != UNMAPPED] + (
        [UNMAPPED] if UNMAPPED in totals.index else [])
    share = np.divide(df["shared_types"].to_numpy(float), df["cluster_types"].to_numpy(float),
                      out=np.zeros(len(df)), where=df["cluster_types"].to_numpy() > 0)
    df["share"] = share
    df = df.sort_values(["tag", value], ascending=[True, False])
    fig = go.Figure(go.Bar(
        x=df["tag"], y=df[value], customdata=np.c_[df["cluster"].astype(str),
                                                   df["cluster_types"], df["cluster_tokens"],
                                                   df["shared_types"], np.round(df["share"], 3)],
        marker={"color": df["share"], "colorscale": "Viridis", "cmin": 0, "cmax": 1,
                "colorbar": {"title": {"text": "share of the cluster's<br>types with the tag",
                                       "side": "right"}},
                "line": {"color": "white", "width": 1}},
        hovertemplate=("tag %{x}<br>cluster %{customdata[0]}<br>types %{customdata[1]}, "
                       "tokens %{customdata[2]}<br>types with the tag %{customdata[3]} "
                       "(%{customdata[4]})<extra></extra>"),
    ))
    fig.update_layout(barmode="stack", template="plotly_white", height=460, font=FONT,
                      title=title or "Clusters mapped to each gold tag",
                      yaxis_title=value.replace("_", " "),
                      margin={"l": 80, "r": colorbar_margin(["0.8"], 30, title=2), "t": 100,
                              "b": max(80, tilted_margin(order, _BODY_PX))})
    # every gold tag labelled (plotly thins category labels that would collide: turned instead)
    fig.update_xaxes(categoryorder="array", categoryarray=order, title="gold tag",
                     tickmode="array", tickvals=order, ticktext=order, tickangle=-60)
    return fig
