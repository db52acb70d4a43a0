"""Charts of the test beds: rankings per bed and the cross-test-bed prediction curves."""

from __future__ import annotations

from collections.abc import Mapping

import numpy as np
import pandas as pd
import plotly.graph_objects as go
from plotly.subplots import make_subplots

from dashboard.figures.style import (
    OKABE_ITO,
    COLOR_A,
    SEQUENTIAL,
    short,
    layout,
    role_color,
)

__all__ = [
    "testbed_rank_figure",
    "cross_testbed_figure",
]


def testbed_rank_figure(ranks: pd.DataFrame, scores: pd.DataFrame | None = None,
                        highlight: Mapping[str, str] | None = None,
                        title: str | None = None) -> go.Figure:
    """Rank of each system (rows, in overall order) on each test bed (columns).

    Parameters
    ----------
    ranks : DataFrame
        Index system, one column per test bed (``all`` first if present), integer ranks.
    scores : DataFrame, optional
        Same shape: the F values shown on hover.
    """
    systems = [str(s) for s in ranks.index]
    beds = [str(c) for c in ranks.columns]
    z = ranks.to_numpy(dtype=float)
    S = len(systems)
    f = scores.reindex(index=ranks.index, columns=ranks.columns).to_numpy(dtype=float) \
        if scores is not None else np.full_like(z, np.nan)
    custom = np.dstack([np.array([[s] * len(beds) for s in systems], dtype=object), f])
    fig = go.Figure(go.Heatmap(
        z=z, x=beds, y=list(range(S)), colorscale=SEQUENTIAL, reversescale=True,
        text=np.where(np.isnan(z), "", np.nan_to_num(z).astype(int).astype(str)),
        texttemplate="%{text}" if S <= 60 else None, textfont=dict(size=10),
        customdata=custom,
        hovertemplate="%{customdata[0]}<br>test bed %{x}: rank %{z}<br>F=%{customdata[1]:.3f}"
                      "<extra></extra>",
        colorbar=dict(title=dict(text="rank"), thickness=14), xgap=2, ygap=1 if S <= 60 else 0,
    ))
    highlight = dict(highlight or {})
    ticktext = [f"<b style='color:{role_color(highlight[s])}'>{highlight[s]}: {short(s, 24)}</b>"
                if s in highlight else short(s, 26) for s in systems]
    layout(fig, title or "Rank on each test bed (1 = best)", height=max(420, 18 * S + 150)
            if S <= 60 else 700)
    fig.update_layout(margin=dict(l=210, r=30, t=100, b=30))
    fig.update_xaxes(title_text=None, side="top", showgrid=False)
    fig.update_yaxes(tickvals=list(range(S)) if S <= 60 else None,
                     ticktext=ticktext if S <= 60 else None, showticklabels=S <= 60,
                     autorange="reversed", showgrid=False, title_text=None,
                     tickfont=dict(size=10))
    return fig


def cross_testbed_figure(curves: pd.DataFrame, title: str | None = None) -> go.Figure:
    """Precision and recall of the UIR and Delta-F predictors of cross-test-bed robust pairs.

    Parameters
    ----------
    curves : DataFrame
        Columns ``predictor`` (``UIR`` or ``ΔF``), ``threshold``, ``precision``, ``recall``
        (and optionally ``n_predicted``).
    """
    fig = make_subplots(rows=1, cols=2, subplot_titles=(
        "precision vs recall of each predictor", "precision and recall vs threshold"),
        horizontal_spacing=0.12)
    colors = {"UIR": COLOR_A, "parametric UIR": OKABE_ITO["sky"], "\u0394F": OKABE_ITO["orange"]}
    for pred, sub in curves.groupby("predictor", sort=False):
        color = colors.get(str(pred), "#333")
        sub = sub.sort_values("threshold")
        fig.add_trace(go.Scatter(
            x=sub["recall"], y=sub["precision"], mode="lines+markers", name=f"{pred}",
            line=dict(color=color, width=2.5), marker=dict(size=5), legendgroup=str(pred),
            customdata=sub["threshold"],
            hovertemplate=f"{pred} \u2265 %{{customdata:.3f}}<br>precision=%{{y:.2f}}"
                          f"<br>recall=%{{x:.2f}}<extra></extra>",
        ), row=1, col=1)
        x = sub["threshold"]
        fig.add_trace(go.Scatter(
            x=x, y=sub["precision"], mode="lines", name=f"{pred} precision",
            line=dict(color=color, width=2.2), legendgroup=str(pred), showlegend=False,
            hovertemplate=f"{pred} \u2265 %{{x:.3f}}<br>precision=%{{y:.2f}}<extra></extra>",
        ), row=1, col=2)
        fig.add_trace(go.Scatter(
            x=x, y=sub["recall"], mode="lines", name=f"{pred} recall",
            line=dict(color=color, width=2.2, dash="dash"), legendgroup=str(pred),
            showlegend=False,
            hovertemplate=f"{pred} \u2265 %{{x:.3f}}<br>recall=%{{y:.2f}}<extra></extra>",
        ), row=1, col=2)
    layout(fig, title or "Predicting pairs that hold on every test bed", height=500,
            legend_below=True)
    fig.update_layout(margin=dict(l=70, r=30, t=90, b=120), legend=dict(y=-0.18))
    fig.update_xaxes(title_text="recall of the robust pairs", range=[0, 1.02], row=1, col=1)
    fig.update_yaxes(title_text="precision", range=[0, 1.02], row=1, col=1)
    fig.update_xaxes(title_text="threshold (solid: precision, dashed: recall)", row=1, col=2)
    fig.update_yaxes(title_text="precision / recall", range=[0, 1.02], row=1, col=2)
    return fig


# ------------------------------------------------------------------------------------------------
# Metrics
# ------------------------------------------------------------------------------------------------
