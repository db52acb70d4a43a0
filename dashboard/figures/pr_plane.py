"""Pure Plotly builder of the precision-recall plane of a campaign: one point per system (its
mean precision and recall) over the iso-F_alpha curves of the chosen alpha (JAIR 2011 Figs 1 and
3, WePS Fig 1): where two systems sit on opposite sides of the diagonal the order of their
F_alpha depends on alpha, the case UIR is for. The curves come from
:func:`metrics.comparison.curves.iso_f_points`."""

from __future__ import annotations

import numpy as np
import pandas as pd
import plotly.graph_objects as go

from dashboard.figures.style import COLOR_A, COLOR_B, MIN_FONT, layout, short
from metrics.comparison.curves import iso_f_points

__all__ = ["pr_plane_figure", "ISO_LEVELS"]

#: The F_alpha values drawn as iso-curves.
ISO_LEVELS = (0.1, 0.2, 0.3, 0.4, 0.5, 0.6, 0.7, 0.8, 0.9)


def pr_plane_figure(board: pd.DataFrame, precision: str, recall: str, alpha: float,
                    highlight: dict[str, str] | None = None) -> go.Figure:
    """Systems in the precision (y) / recall (x) plane with the iso-F_alpha curves at ``alpha``.

    Parameters
    ----------
    board : DataFrame
        Columns ``system, precision, recall`` (the means) and ``f`` (the campaign F_alpha).
    highlight : dict, optional
        system -> "A" / "B": drawn larger in the pair's colours.
    """
    highlight = highlight or {}
    fig = go.Figure()
    # all the iso-curves in one trace (NaN between two), their labels in another: two traces
    # instead of nine and nine annotations, built and drawn in a fraction of the time
    xs: list[np.ndarray] = []
    ys: list[np.ndarray] = []
    labels = []
    gap = np.array([np.nan])
    for level in ISO_LEVELS:
        p, r = iso_f_points(level, alpha)
        xs += [np.asarray(r, dtype=float), gap]
        ys += [np.asarray(p, dtype=float), gap]
        if len(r):
            labels.append((float(r[-1]), float(p[-1]), f"{level:.1f}"))
    fig.add_trace(go.Scatter(
        x=np.concatenate(xs), y=np.concatenate(ys), mode="lines", connectgaps=False,
        line=dict(color="#BBBBBB", width=1, dash="dot"), hoverinfo="skip",
        name=f"F\u03b1 = const (\u03b1 = {alpha:.2f})"))
    if labels:
        lx, ly, lt = zip(*labels, strict=True)
        fig.add_trace(go.Scatter(
            x=lx, y=ly, text=lt, mode="text", textposition="top right", cliponaxis=False,
            textfont=dict(size=MIN_FONT, color="#888"), hoverinfo="skip", showlegend=False))
    role = board["system"].map(lambda s: highlight.get(s, ""))
    colour = np.where(role == "A", COLOR_A, np.where(role == "B", COLOR_B, "#555555"))
    fig.add_trace(go.Scatter(
        x=board["recall"], y=board["precision"], mode="markers", name="systems",
        marker=dict(size=np.where(role != "", 13, 8), color=colour, opacity=0.85,
                    line=dict(color="white", width=1)),
        customdata=np.column_stack([board["system"].astype(str), board["f"]]),
        hovertemplate=("<b>%{customdata[0]}</b><br>P %{y:.3f}, R %{x:.3f}<br>"
                       "F\u03b1 %{customdata[1]:.3f}<extra></extra>")))
    for s, who in highlight.items():
        row = board[board["system"] == s]
        if len(row):
            fig.add_annotation(x=float(row["recall"].iloc[0]), y=float(row["precision"].iloc[0]),
                               text=f"{who}: {short(s, 22)}", showarrow=True, arrowhead=0,
                               ax=25, ay=-22 if who == "A" else 22,
                               font=dict(size=MIN_FONT, color=COLOR_A if who == "A" else COLOR_B))
    layout(fig, f"Systems in the precision-recall plane, iso-F\u03b1 curves at \u03b1 = "
                f"{alpha:.2f}", height=520)
    fig.update_xaxes(title_text=f"mean {recall}", range=[0, 1.08], constrain="domain")
    fig.update_yaxes(title_text=f"mean {precision}", range=[0, 1.05], scaleanchor="x",
                     scaleratio=1)
    return fig
