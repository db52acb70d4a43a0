"""Charts of the test beds: rankings per bed and the cross-test-bed prediction curves."""

from __future__ import annotations

from collections.abc import Mapping

import numpy as np
import pandas as pd
import plotly.graph_objects as go

from dashboard.figures.margins import axis_margin, colorbar_margin
from dashboard.figures.style import (
    COLOR_DELTA_F,
    COLOR_PARAM_UIR,
    COLOR_UIR,
    LABEL_FONT,
    SEQUENTIAL,
    layout,
    role_color,
    short,
)

__all__ = [
    "testbed_rank_figure",
    "cross_testbed_figure",
    "cross_testbed_threshold_figure",
    "PREDICTOR_STYLE",
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
        texttemplate="%{text}" if S <= 60 else None, textfont=LABEL_FONT,
        customdata=custom,
        hovertemplate="%{customdata[0]}<br>test bed %{x}: rank %{z}<br>F=%{customdata[1]:.3f}"
                      "<extra></extra>",
        colorbar=dict(title=dict(text="rank"), thickness=14), xgap=2, ygap=1 if S <= 60 else 0,
    ))
    highlight = dict(highlight or {})
    ticktext = [f"<b style='color:{role_color(highlight[s])}'>{highlight[s]}: {short(s, 24)}</b>"
                if s in highlight else short(s, 26) for s in systems]
    layout(fig, title or "Rank on each test bed (1 = best)", height=max(420, 21 * S + 150)
            if S <= 60 else 700)
    # margins that hold the row labels and the colour bar (its title on top): laid out once
    left = axis_margin(ticktext, LABEL_FONT["size"], title=False) if S <= 60 else 70
    fig.update_layout(margin=dict(l=left, r=colorbar_margin([str(S)], 14), t=100, b=30))
    fig.update_xaxes(title_text=None, side="top", showgrid=False)
    fig.update_yaxes(tickvals=list(range(S)) if S <= 60 else None,
                     ticktext=ticktext if S <= 60 else None, showticklabels=S <= 60,
                     autorange="reversed", showgrid=False, title_text=None,
                     tickfont=LABEL_FONT)
    return fig


#: Colour, marker and dash of each cross-test-bed predictor: three distant hues, each with its
#: own marker, so the curves are told apart without colour.
PREDICTOR_STYLE = {
    "UIR": (COLOR_UIR, "circle", "solid"),
    "parametric UIR": (COLOR_PARAM_UIR, "square", "dash"),
    "\u0394F": (COLOR_DELTA_F, "diamond", "dot"),
}
_OTHER_STYLE = ("#333333", "x", "dashdot")


def _marker_every(n: int, target: int = 12) -> int:
    """Draw a marker on every k-th point so that about ``target`` markers show per curve."""
    return max(1, n // target)


def cross_testbed_figure(curves: pd.DataFrame, title: str | None = None) -> go.Figure:
    """Precision vs recall of the UIR, parametric-UIR and Delta-F predictors of the pairs that
    hold on every test bed (JAIR 2011 §7, Figs. 11-13), one curve per predictor.

    Parameters
    ----------
    curves : DataFrame
        Columns ``predictor`` (``UIR``, ``parametric UIR`` or ``ΔF``), ``threshold``,
        ``precision``, ``recall`` (and optionally ``n_predicted``).
    """
    fig = go.Figure()
    for pred, sub in curves.groupby("predictor", sort=False):
        color, symbol, dash = PREDICTOR_STYLE.get(str(pred), _OTHER_STYLE)
        sub = sub.sort_values("threshold")
        k = _marker_every(len(sub))
        fig.add_trace(go.Scatter(
            x=sub["recall"], y=sub["precision"], mode="lines+markers", name=f"{pred}",
            line=dict(color=color, width=2.5, dash=dash),
            marker=dict(size=8, symbol=symbol, color=color, maxdisplayed=max(1, len(sub) // k)),
            legendgroup=str(pred), customdata=sub["threshold"],
            hovertemplate=f"{pred} \u2265 %{{customdata:.3f}}<br>precision=%{{y:.2f}}"
                          f"<br>recall=%{{x:.2f}}<extra></extra>",
        ))
    layout(fig, title or "Predicting pairs that hold on every test bed", height=460,
           legend_below=True)
    fig.update_layout(margin=dict(l=70, r=30, t=70, b=110), legend=dict(y=-0.18))
    fig.update_xaxes(title_text="recall of the pairs that hold on every bed", range=[0, 1.02])
    fig.update_yaxes(title_text="precision", range=[0, 1.02])
    return fig


def cross_testbed_threshold_figure(curves: pd.DataFrame, title: str | None = None) -> go.Figure:
    """Precision (solid) and recall (dotted, open markers) of each cross-test-bed predictor
    against its threshold; the legend names both line styles.

    Parameters
    ----------
    curves : DataFrame
        As for :func:`cross_testbed_figure`.
    """
    fig = go.Figure()
    for pred, sub in curves.groupby("predictor", sort=False):
        color, symbol, _ = PREDICTOR_STYLE.get(str(pred), _OTHER_STYLE)
        sub = sub.sort_values("threshold")
        n_marks = max(1, len(sub) // _marker_every(len(sub)))
        for what, dash, sym in (("precision", "solid", symbol),
                                ("recall", "dot", f"{symbol}-open")):
            fig.add_trace(go.Scatter(
                x=sub["threshold"], y=sub[what], mode="lines+markers", name=f"{pred} {what}",
                line=dict(color=color, width=2.4 if what == "precision" else 2.0, dash=dash),
                marker=dict(size=8, symbol=sym, color=color, maxdisplayed=n_marks),
                legendgroup=str(pred),
                hovertemplate=f"{pred} \u2265 %{{x:.3f}}<br>{what}=%{{y:.2f}}<extra></extra>",
            ))
    layout(fig, title or "Precision and recall of each predictor against its threshold",
           height=460, legend_below=True)
    fig.update_layout(margin=dict(l=70, r=30, t=70, b=130), legend=dict(y=-0.18))
    fig.update_xaxes(title_text="threshold t (UIR \u2265 t, or \u0394F \u2265 t)")
    fig.update_yaxes(title_text="precision (solid) / recall (dotted)", range=[0, 1.02])
    return fig


# ------------------------------------------------------------------------------------------------
# Metrics
# ------------------------------------------------------------------------------------------------
