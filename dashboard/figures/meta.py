"""Charts of the meta-evaluation: the R&S paper's Figure 1 and Robustness against Strictness.

Pure Plotly builders over what :mod:`metrics.meta` computed (``Figure1.points``, a
meta-evaluation table); nothing is computed here but the layout.
"""

from __future__ import annotations

import math
from collections.abc import Sequence

import numpy as np
import pandas as pd
import plotly.graph_objects as go
from plotly.subplots import make_subplots

from dashboard.figures.style import LABEL_FONT, OKABE_ITO, layout

__all__ = ["figure1_figure", "robustness_strictness_figure"]


def figure1_figure(points: pd.DataFrame, measures: Sequence[str],
                   title: str | None = None) -> go.Figure:
    """R*S (y) against each standard measure (x), one panel per measure, one point per
    (system, topic) output: the paper's Figure 1.

    Parameters
    ----------
    points : DataFrame
        ``system, topic, measure, value, rs`` (:class:`metrics.meta.filtering_table.Figure1`).
    measures : sequence of str
        The panels, in order (two per row).
    """
    rows = math.ceil(len(measures) / 2)
    fig = make_subplots(rows=rows, cols=2, subplot_titles=[f"R*S vs {m}" for m in measures],
                        horizontal_spacing=0.12, vertical_spacing=0.16)
    for i, m in enumerate(measures):
        sub = points[points["measure"] == m]
        fig.add_trace(go.Scattergl(
            x=sub["value"], y=sub["rs"], mode="markers", name=m, showlegend=False,
            marker=dict(size=5, color=OKABE_ITO["blue"], opacity=0.45),
            customdata=sub[["system", "topic"]].astype(str).to_numpy(),
            hovertemplate="%{customdata[0]} on %{customdata[1]}<br>" + m
                          + " %{x:.3f}<br>R*S %{y:.3f}<extra></extra>"),
            row=i // 2 + 1, col=i % 2 + 1)
        fig.update_xaxes(title_text=m, row=i // 2 + 1, col=i % 2 + 1)
        fig.update_yaxes(title_text="R*S", row=i // 2 + 1, col=i % 2 + 1)
    layout(fig, title or "Figure 1: R*S against each standard measure",
           height=330 * rows + 60)
    fig.update_annotations(font=LABEL_FONT)
    return fig


def robustness_strictness_figure(table: pd.DataFrame, strictness: str,
                                 title: str | None = None) -> go.Figure:
    """Each measure as a point: Strictness (x, column ``strictness``) against Robustness (y);
    up and to the right is robust and strict."""
    x = table[strictness].to_numpy(dtype=float)
    finite = x[np.isfinite(x)]
    lo, hi = (float(finite.min()), float(finite.max())) if finite.size else (-1.0, 0.0)
    pad = max(0.02, 0.15 * (hi - lo))
    y = table["robustness"].to_numpy(dtype=float)
    names = table["metric"].astype(str).to_numpy()
    # measures at (nearly) one point share one label, "name +k", and one hover listing them all:
    # with few systems many measures coincide and their labels would be printed over each other
    cell = np.stack([np.round((np.nan_to_num(x, nan=hi) - lo) / (hi - lo + 2 * pad) * 40),
                     np.round(np.nan_to_num(y, nan=0.0) * 40)], axis=1)
    _, group, size = np.unique(cell, axis=0, return_inverse=True, return_counts=True)
    group = group.reshape(-1)
    first = np.zeros(len(x), dtype=bool)
    first[np.unique(group, return_index=True)[1]] = True
    members = {g: ", ".join(names[group == g]) for g in np.unique(group)}
    text = [(n + (f" +{size[g] - 1}" if size[g] > 1 else "")) if f else ""
            for n, g, f in zip(names, group, first, strict=True)]
    hover = [members[g] for g in group]
    # labels alternate above and below the labelled points in the order of x, so that
    # neighbours (close Strictness) never put their labels on the same side
    order = np.argsort(np.where(np.isfinite(x) & first, x, np.inf), kind="stable")
    side = np.empty(len(x), dtype=int)
    side[order] = np.arange(len(x)) % 2
    where = ["top center" if k == 0 else "bottom center" for k in side]
    fig = go.Figure(go.Scatter(
        x=x, y=y, mode="markers+text", text=text, textposition=where, customdata=hover,
        marker=dict(size=10, color=OKABE_ITO["vermillion"]),
        hovertemplate="%{customdata}<br>Strictness %{x:.3f}<br>Robustness %{y:.3f}"
                      "<extra></extra>"))
    fig.update_xaxes(title_text=f"Strictness ({strictness})", range=[lo - pad, hi + pad])
    fig.update_yaxes(title_text="Robustness")
    layout(fig, title or "Robustness against Strictness", height=380)
    fig.update_traces(textfont=LABEL_FONT)
    return fig
