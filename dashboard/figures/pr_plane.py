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

__all__ = ["pr_plane_figure", "name_offset", "ISO_LEVELS"]

#: The F_alpha values drawn as iso-curves.
ISO_LEVELS = (0.1, 0.2, 0.3, 0.4, 0.5, 0.6, 0.7, 0.8, 0.9)


#: A label's box in data units (about 26 x 17 px at the plane's 520 px height, some 370 px to
#: the unit: "0.1" at 12 px is 20 px wide); two labels whose boxes meet are moved apart.
LABEL_BOX = (0.07, 0.045)


def label_box(x: float, y: float, position: str) -> tuple[float, float, float, float]:
    """``(x0, x1, y0, y1)`` of a label written at ``(x, y)`` with Plotly's ``position``
    ("top right": above and right of the point; "middle right": right of it)."""
    w, h = LABEL_BOX
    y0 = y if position == "top right" else y - h / 2
    return x, x + w, y0, y0 + h


def _label_spot(placed: list[tuple[float, float, str, str]], r: np.ndarray, p: np.ndarray,
                alpha: float, text: str) -> tuple[float, float, str, str]:
    """Where to write an iso-curve's label: at its end on the top edge (P = 1) or on the right
    edge (R = 1), the one nearer the curves' spread at ``alpha`` first (the top for alpha <= 0.5,
    where the curves meet the top edge far apart), the other when the first meets a label
    already ``placed``. At alpha = 0.5 the curves F = 0.1 and 0.2 end 0.06 apart on the top edge:
    one label goes to the right edge instead of touching the other."""
    i, j = int(np.argmax(p)), int(np.argmax(r))
    top = (float(r[i]), float(p[i]), text, "top right")
    right = (float(r[j]), float(p[j]), text, "middle right")
    ends = [e for e in ((top, right) if alpha <= 0.5 else (right, top))
            if (e is top and e[1] >= 1 - 1e-9) or (e is right and e[0] >= 1 - 1e-9)]
    boxes = [label_box(x, y, pos) for x, y, _, pos in placed]
    for end in ends:
        x0, x1, y0, y1 = label_box(end[0], end[1], end[3])
        if not any(x0 < b[1] and b[0] < x1 and y0 < b[3] and b[2] < y1 for b in boxes):
            return end
    return ends[0] if ends else top


def name_offset(recall: float, precision: float, role: str) -> tuple[int, int]:
    """Pixel offset ``(ax, ay)`` of system A's or B's name from its point (Plotly's annotation
    arrow; y down). The names go right of the point, A's above and B's below, but away from the
    edges where the iso-curves' labels sit: left of a point beyond recall 0.6 (the right edge's
    labels), below a point above precision 0.85 (the top edge's), above one below 0.12."""
    ax = -25 if recall > 0.6 else 25
    if role == "A":
        ay = 22 if precision > 0.85 else -22
    else:
        ay = -22 if precision < 0.12 else 22
    return ax, ay


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
    labels: list[tuple[float, float, str, str]] = []
    gap = np.array([np.nan])
    for level in sorted(ISO_LEVELS, reverse=True):  # the crowded low levels give way
        p, r = iso_f_points(level, alpha)
        xs += [np.asarray(r, dtype=float), gap]
        ys += [np.asarray(p, dtype=float), gap]
        if len(r):
            labels.append(_label_spot(labels, r, p, alpha, f"{level:.1f}"))
    fig.add_trace(go.Scatter(
        x=np.concatenate(xs), y=np.concatenate(ys), mode="lines", connectgaps=False,
        line=dict(color="#BBBBBB", width=1, dash="dot"), hoverinfo="skip",
        name=f"F\u03b1 = const (\u03b1 = {alpha:.2f})"))
    if labels:
        lx, ly, lt, lpos = zip(*labels, strict=True)
        fig.add_trace(go.Scatter(
            x=lx, y=ly, text=lt, mode="text", textposition=list(lpos), cliponaxis=False,
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
            x, y = float(row["recall"].iloc[0]), float(row["precision"].iloc[0])
            ax, ay = name_offset(x, y, who)
            fig.add_annotation(x=x, y=y, text=f"{who}: {short(s, 22)}", showarrow=True,
                               arrowhead=0, ax=ax, ay=ay, xanchor="left" if ax > 0 else "right",
                               font=dict(size=MIN_FONT, color=COLOR_A if who == "A" else COLOR_B))
    layout(fig, f"Systems in the precision-recall plane, iso-F\u03b1 curves at \u03b1 = "
                f"{alpha:.2f}", height=520)
    fig.update_xaxes(title_text=f"mean {recall}", range=[0, 1.08], constrain="domain")
    fig.update_yaxes(title_text=f"mean {precision}", range=[0, 1.05], scaleanchor="x",
                     scaleratio=1)
    return fig
