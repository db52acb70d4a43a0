"""Charts of the whole campaign's ranking: F_alpha curves, rank moves, the formal constraints
(the charts of the UIR analysis over all pairs are in :mod:`dashboard.figures.uir`)."""

from __future__ import annotations

from collections.abc import Mapping

import numpy as np
import pandas as pd
import plotly.graph_objects as go

from dashboard.figures.margins import below_legend_margin, legend_rows
from dashboard.figures.style import (
    COLOR_DOWN,
    COLOR_OTHER,
    COLOR_TIED,
    COLOR_UP,
    MIN_FONT,
    ROLE_DASHES,
    alpha_label,
    f_label,
    layout,
    role_color,
    short,
)

__all__ = [
    "f_curves_figure",
    "background_alphas",
    "rank_moves_figure",
    "constraints_figure",
]


#: how far the grey curves of :func:`f_curves_figure`, drawn as chords between the alphas they
#: keep (:func:`background_alphas`), may stray from F_alpha on the grid: about 2 px of the chart
BACKGROUND_TOL = 0.006


def background_alphas(alphas: np.ndarray, values: np.ndarray, tol: float = BACKGROUND_TOL
                      ) -> np.ndarray:
    """Indices of the alphas the grey curves of :func:`f_curves_figure` are drawn through: a
    few, both ends included, such that every curve drawn as straight chords between them stays
    within ``tol`` of its value at every alpha of the grid.

    F_alpha of a system is smooth in alpha and bends mostly near 0 and 1 (where
    ``1 / (alpha / P + (1 - alpha) / R)`` is steepest), so a few alphas, dense at the ends, draw
    every curve within a pixel or two of its exact values: 150 systems through about ten
    alphas instead of 101 (a figure a fifth the size, drawn sooner on every alpha step). One
    grid for all curves, chosen greedily: from the last alpha kept, the farthest next one whose
    chords (all curves at once, vectorised over the systems) stay within ``tol``.

    Parameters
    ----------
    alphas : array of shape (n,)
        The increasing alpha grid of the curves.
    values : array of shape (systems, n)
        Each system's F_alpha on that grid (NaN where undefined: not checked).
    """
    alphas = np.asarray(alphas, dtype=float)
    values = np.asarray(values, dtype=float)
    n = alphas.size
    keep, i = [0], 0
    while i < n - 1:
        j = i + 1  # the next alpha always keeps the chords exact
        while j + 1 < n:
            seg = slice(i, j + 2)
            t = (alphas[seg] - alphas[i]) / (alphas[j + 1] - alphas[i])
            chord = values[:, [i]] + (values[:, [j + 1]] - values[:, [i]]) * t
            err = np.abs(chord - values[:, seg])
            if np.any(err[~np.isnan(err)] > tol):
                break
            j += 1
        keep.append(j)
        i = j
    return np.asarray(keep, dtype=int)


def f_curves_figure(
    curves: pd.DataFrame,
    precision: str,
    recall: str,
    alpha: float | None = None,
    highlight: Mapping[str, str] | None = None,
    average: str = "macro",
    title: str | None = "F\u03b1 of every system across \u03b1",
) -> go.Figure:
    """Campaign F_alpha curves: every system in grey, highlighted ones in their role colour.

    Parameters
    ----------
    curves : DataFrame
        Index alpha, one column per system (``metrics.comparison.combine.f_curves``).
    highlight : mapping system -> role
        ``"A"`` and ``"B"`` get the pair colours; other roles are black.
    """
    highlight = dict(highlight or {})
    alphas = curves.index.to_numpy(dtype=float)
    fig = go.Figure()
    others = [s for s in curves.columns if s not in highlight]
    if others:
        # One trace for all background systems (fast with hundreds of systems): NaN breaks lines.
        # Through the few alphas that draw every curve within BACKGROUND_TOL: the figure is sent
        # and drawn again on every step of alpha (150 systems: about 1,650 points instead of
        # 15,300; the hover shows the name, and alpha and F at the nearest alpha kept)
        values = curves[others].to_numpy(dtype=float).T
        keep = background_alphas(alphas, values)
        n = keep.size + 1
        ys = np.full((len(others), n), np.nan)
        ys[:, :-1] = values[:, keep]
        xs = np.tile(np.append(alphas[keep], np.nan), len(others))
        names = np.repeat(np.asarray([str(s) for s in others], dtype=object), n)
        fig.add_trace(go.Scatter(
            x=xs, y=ys.ravel(), mode="lines", name=f"other systems ({len(others)})",
            line=dict(color=COLOR_OTHER, width=1), text=names, connectgaps=False,
            hovertemplate="%{text}<br>\u03b1=%{x:.2f}<br>F=%{y:.3f}<extra></extra>",
        ))
    for s, role in highlight.items():
        if s not in curves.columns:
            continue
        fig.add_trace(go.Scatter(
            x=alphas, y=curves[s].to_numpy(), mode="lines", name=f"{role}: {short(s, 34)}",
            line=dict(color=role_color(role), width=3, dash=ROLE_DASHES.get(role, "dot")),
            hovertemplate=f"{s}<br>\u03b1=%{{x:.2f}}<br>F=%{{y:.3f}}<extra>{role}</extra>",
        ))
    if alpha is not None:
        fig.add_vline(x=alpha, line=dict(color="#444", dash="dot", width=1),
                      annotation_text=f"\u03b1 = {alpha:.2f}", annotation_position="top",
                      annotation_font_size=MIN_FONT)
    layout(fig, title, height=480, legend_below=True)
    # the legend below may wrap into rows at a 1024 px screen: the margin holds them
    rows = legend_rows([t.name for t in fig.data])
    fig.update_layout(margin=dict(b=max(110, below_legend_margin(480, 60 if title else 30, -0.2,
                                                                 rows))))
    fig.update_xaxes(title_text=alpha_label(precision, recall, average), range=[0, 1])
    fig.update_yaxes(title_text=f_label(precision, recall, average))
    return fig


#: Characters of a system name beside the rank chart's slots (with its rank and role tag): the
#: labels of both sides fit a full-width chart at a 1024 px screen.
NAME_CHARS = 20


def rank_moves_figure(
    moves: pd.DataFrame,
    alpha1: float,
    alpha2: float,
    highlight: Mapping[str, str] | None = None,
    top: int | None = 40,
    title: str | None = None,
) -> go.Figure:
    """Slope chart of how ranks move between two alphas.

    Parameters
    ----------
    moves : DataFrame
        Columns ``system, rank_1, rank_2`` (ranks at alpha1 and alpha2, 1 = best) and optionally
        ``f_1, f_2``.
    top : int, optional
        Keep the ``top`` best systems at alpha1 (plus A and B): exactly that many rows. Each side
        lists the kept systems in their order at its alpha on evenly spaced slots, labelled with
        the true rank, so labels never overlap whatever the number of systems.
    """
    highlight = dict(highlight or {})
    df = moves.sort_values(["rank_1", "rank_2"], kind="stable")
    if top is not None and len(df) > top:
        keep = (np.arange(len(df)) < top) | df["system"].isin(list(highlight)).to_numpy()
        df = df[keep]
    n = len(df)
    r1 = df["rank_1"].to_numpy(dtype=int)
    r2 = df["rank_2"].to_numpy(dtype=int)
    names = df["system"].astype(str).to_numpy()
    slot1 = np.arange(1, n + 1)  # df is in rank_1 order
    order2 = np.lexsort((r1, r2))
    slot2 = np.empty(n, dtype=int)
    slot2[order2] = np.arange(1, n + 1)
    f1 = df["f_1"].to_numpy(dtype=float) if "f_1" in df else np.full(n, np.nan)
    f2 = df["f_2"].to_numpy(dtype=float) if "f_2" in df else np.full(n, np.nan)
    role = np.array([highlight.get(x, "") for x in names], dtype=object)
    kind = np.where(r2 < r1, "moves up", np.where(r2 > r1, "moves down", "same rank"))
    hover = np.array([f"{x}<br>\u03b1={alpha1:.2f}: rank {a} (F={p:.3f})"
                      f"<br>\u03b1={alpha2:.2f}: rank {b} (F={q:.3f})"
                      for x, a, b, p, q in zip(names, r1, r2, f1, f2, strict=True)], dtype=object)
    style = {"moves up": (COLOR_UP, "solid", 1.8, "triangle-up"),
             "moves down": (COLOR_DOWN, "dash", 1.8, "triangle-down"),
             "same rank": (COLOR_TIED, "dot", 1.4, "circle")}
    fig = go.Figure()

    def _lines(idx: np.ndarray, name: str, color: str, dash: str, width: float, symbol: str):
        m = idx.size
        x = np.tile([0.0, 1.0, np.nan], m)
        y = np.column_stack([slot1[idx], slot2[idx], np.full(m, np.nan)]).ravel()
        text = np.column_stack([hover[idx], hover[idx], np.full(m, "", dtype=object)]).ravel()
        fig.add_trace(go.Scatter(
            x=x, y=y, mode="lines+markers", name=name,
            line=dict(color=color, width=width, dash=dash),
            marker=dict(size=8, color=color, symbol=symbol), text=text,
            hovertemplate="%{text}<extra></extra>"))

    plain = role == ""
    for name, (color, dash, width, symbol) in style.items():
        idx = np.flatnonzero(plain & (kind == name))
        if idx.size:
            _lines(idx, name, color, dash, width, symbol)
    for k in np.flatnonzero(~plain):
        _lines(np.array([k]), f"{role[k]}: {short(names[k], 30)}", role_color(role[k]), "solid",
               3.5, "square" if role[k] == "A" else "diamond")
    tag = np.array([f"[{r}] " if r else "" for r in role], dtype=object)
    fig.add_trace(go.Scatter(
        x=np.zeros(n), y=slot1, mode="text",
        text=[f"{t}{short(x, NAME_CHARS - len(t))}  {a}\u2002\u2002"
              for t, x, a in zip(tag, names, r1, strict=True)],
        textposition="middle left", textfont=dict(size=12), showlegend=False, hoverinfo="skip"))
    fig.add_trace(go.Scatter(
        x=np.ones(n)[order2], y=slot2[order2], mode="text",
        text=[f"\u2002\u2002{b}  {t}{short(x, NAME_CHARS - len(t))}"
              for t, x, b in zip(tag[order2], names[order2], r2[order2], strict=True)],
        textposition="middle right", textfont=dict(size=12), showlegend=False, hoverinfo="skip"))
    height = max(380, 22 * n + 160)
    shown = f"top {n}" if top is not None and len(moves) > n else f"all {n}"
    layout(fig, title or f"Ranks at \u03b1 = {alpha1:.2f} and {alpha2:.2f} ({shown} of "
                         f"{len(moves)})",
           height=height, legend_below=True)
    rows = legend_rows([t.name for t in fig.data if t.showlegend is not False])
    fig.update_layout(margin=dict(l=10, r=10, t=80,
                                  b=max(40, below_legend_margin(height, 80, -0.01, rows))),
                      legend=dict(y=-0.01, yanchor="top"))
    fig.update_xaxes(range=[-1.45, 2.45], tickvals=[0, 1],
                     ticktext=[f"rank at \u03b1 = {alpha1:.2f}", f"rank at \u03b1 = {alpha2:.2f}"],
                     side="top", showgrid=False, zeroline=False, title_text=None,
                     tickfont=dict(size=MIN_FONT + 1), tickangle=0)
    fig.update_yaxes(showticklabels=False, showgrid=False, zeroline=False, title_text=None,
                     range=[n + 0.8, 0.2], autorange=False)
    return fig


# ------------------------------------------------------------------------------------------------
# Test beds
# ------------------------------------------------------------------------------------------------


def constraints_figure(df: pd.DataFrame, title: str | None = None) -> go.Figure:
    """Metric x formal constraint grid: ✓ where the metric agrees with the constraint.

    Parameters
    ----------
    df : DataFrame
        Columns ``metric, constraint, agrees`` (several rows per cell are aggregated: a cell
        agrees when every case agrees).
    """
    grid = df.groupby(["metric", "constraint"], sort=False)["agrees"].all().unstack("constraint")
    metrics = [str(m) for m in grid.index]
    # "cluster_homogeneity" -> "cluster<br>homogeneity": two short lines that never overlap
    cons = [str(c).replace("_vs_", " vs<br>").replace("_", "<br>", 1).replace("_", " ")
            for c in grid.columns]
    z = grid.to_numpy(dtype=float)
    text = np.where(np.isnan(z), "", np.where(z > 0.5, "\u2713", "\u2717"))
    fig = go.Figure(go.Heatmap(
        z=z, x=cons, y=metrics, zmin=0, zmax=1, showscale=False, xgap=2, ygap=2,
        colorscale=[[0, "#F3D9B1"], [1, "#BFE3D6"]], text=text, texttemplate="%{text}",
        textfont=dict(size=16),
        hovertemplate="%{y}<br>%{x}: %{text}<extra></extra>",
    ))
    layout(fig, title or "Formal constraints each metric satisfies",
           height=max(320, 26 * len(metrics) + 160))
    # column labels upright (two short lines turned 90 degrees): five columns of a narrow plot
    # (1024 px screen, long metric names on the left) are ~40 px wide
    fig.update_layout(margin=dict(l=200, r=30, t=170, b=30))
    fig.update_xaxes(side="top", title_text=None, showgrid=False, tickangle=-90)
    fig.update_yaxes(autorange="reversed", showgrid=False, title_text=None)
    return fig
