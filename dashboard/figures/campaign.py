"""Charts of the whole campaign: F_alpha curves, rank moves, the UIR matrix, the UIR-threshold
curve, Delta F vs UIR, the weakest metric, the formal constraints."""

from __future__ import annotations

from collections.abc import Mapping, Sequence

import numpy as np
import pandas as pd
import plotly.graph_objects as go

from dashboard.figures.style import (
    OKABE_ITO,
    COLOR_A,
    COLOR_B,
    COLOR_TIED,
    COLOR_OTHER,
    COLOR_UP,
    COLOR_DOWN,
    DIVERGING,
    short,
    layout,
    f_label,
    alpha_label,
    role_color,
)

__all__ = [
    "f_curves_figure",
    "rank_moves_figure",
    "uir_heatmap_figure",
    "threshold_curve_figure",
    "delta_f_uir_figure",
    "weakest_metric_figure",
    "constraints_figure",
]


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
        Index alpha, one column per system (``metrics.combine.f_curves``).
    highlight : mapping system -> role
        ``"A"`` and ``"B"`` get the pair colours; other roles are black.
    """
    highlight = dict(highlight or {})
    alphas = curves.index.to_numpy(dtype=float)
    fig = go.Figure()
    others = [s for s in curves.columns if s not in highlight]
    if others:
        # One trace for all background systems (fast with hundreds of systems): NaN breaks lines.
        n = alphas.size + 1
        ys = np.full((len(others), n), np.nan)
        ys[:, :-1] = curves[others].to_numpy(dtype=float).T
        xs = np.tile(np.append(alphas, np.nan), len(others))
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
            line=dict(color=role_color(role), width=3),
            hovertemplate=f"{s}<br>\u03b1=%{{x:.2f}}<br>F=%{{y:.3f}}<extra>{role}</extra>",
        ))
    if alpha is not None:
        fig.add_vline(x=alpha, line=dict(color="#444", dash="dot", width=1),
                      annotation_text=f"\u03b1 = {alpha:.2f}", annotation_position="top")
    layout(fig, title, height=480, legend_below=True)
    fig.update_xaxes(title_text=alpha_label(precision), range=[0, 1])
    fig.update_yaxes(title_text=f_label(precision, recall, average))
    return fig


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
        Keep the systems in the top ``top`` at either alpha (the chart stays readable with
        hundreds of systems).
    """
    highlight = dict(highlight or {})
    df = moves.copy()
    if top is not None and len(df) > top:
        keep = (df["rank_1"] <= top) | (df["rank_2"] <= top) | df["system"].isin(list(highlight))
        df = df[keep]
    n = len(df)
    max_rank = int(max(df["rank_1"].max(), df["rank_2"].max())) if n else 1
    fig = go.Figure()
    groups: dict[str, dict] = {}
    order = ["moves up", "moves down", "same rank"]
    f1 = df["f_1"].to_numpy(dtype=float) if "f_1" in df else np.full(n, np.nan)
    f2 = df["f_2"].to_numpy(dtype=float) if "f_2" in df else np.full(n, np.nan)
    for k, row in enumerate(df.itertuples(index=False)):
        s = str(row.system)
        r1, r2 = int(row.rank_1), int(row.rank_2)
        role = highlight.get(s)
        if role:
            name, color, width = f"{role}: {short(s, 30)}", role_color(role), 3.5
        elif r2 < r1:
            name, color, width = "moves up", COLOR_UP, 1.6
        elif r2 > r1:
            name, color, width = "moves down", COLOR_DOWN, 1.6
        else:
            name, color, width = "same rank", COLOR_TIED, 1.2
        g = groups.setdefault(name, {"x": [], "y": [], "text": [], "color": color, "width": width})
        hover = (f"{s}<br>\u03b1={alpha1:.2f}: rank {r1} (F={f1[k]:.3f})"
                 f"<br>\u03b1={alpha2:.2f}: rank {r2} (F={f2[k]:.3f})")
        g["x"] += [0, 1, None]
        g["y"] += [r1, r2, None]
        g["text"] += [hover, hover, ""]
    names = [g for g in order if g in groups] + [g for g in groups if g not in order]
    for name in names:
        g = groups[name]
        fig.add_trace(go.Scatter(
            x=np.asarray(g["x"], dtype=float), y=np.asarray(g["y"], dtype=float),
            mode="lines+markers", name=name, line=dict(color=g["color"], width=g["width"]),
            marker=dict(size=6, color=g["color"]), text=np.asarray(g["text"], dtype=object),
            hovertemplate="%{text}<extra></extra>",
        ))
    left = df.sort_values("rank_1")
    right = df.sort_values("rank_2")
    fig.add_trace(go.Scatter(
        x=[0] * n, y=left["rank_1"], mode="text", text=[f"{short(s)} {r}" for s, r in
                                                           zip(left["system"], left["rank_1"])],
        textposition="middle left", textfont=dict(size=11), showlegend=False, hoverinfo="skip",
    ))
    fig.add_trace(go.Scatter(
        x=[1] * n, y=right["rank_2"], mode="text", text=[f"{r} {short(s)}" for s, r in
                                                            zip(right["system"], right["rank_2"])],
        textposition="middle right", textfont=dict(size=11), showlegend=False, hoverinfo="skip",
    ))
    height = max(380, 19 * n + 150)
    layout(fig, title or f"How ranks move from \u03b1 = {alpha1:.2f} to \u03b1 = {alpha2:.2f}",
            height=height, legend_below=True)
    fig.update_layout(margin=dict(l=10, r=10, t=80, b=40),
                      legend=dict(y=-0.01, yanchor="top"))
    fig.update_xaxes(range=[-1.05, 2.05], tickvals=[0, 1],
                     ticktext=[f"rank at \u03b1 = {alpha1:.2f}", f"rank at \u03b1 = {alpha2:.2f}"],
                     side="top", showgrid=False, zeroline=False, title_text=None)
    fig.update_yaxes(autorange="reversed", range=None, showticklabels=False, showgrid=False,
                     zeroline=False, title_text=None)
    fig.update_yaxes(range=[max_rank + 0.8, 0.2], autorange=False)
    return fig


# ------------------------------------------------------------------------------------------------
# Compare two systems
# ------------------------------------------------------------------------------------------------


def uir_heatmap_figure(systems: Sequence[str], uir: np.ndarray, threshold: float,
                       highlight: Mapping[str, str] | None = None,
                       title: str | None = None) -> go.Figure:
    """UIR(row, column) for every ordered pair, systems in the given (rank) order.

    Cells with UIR >= threshold carry a dot when there are few enough systems to see them.
    """
    systems = [str(s) for s in systems]
    S = len(systems)
    z = np.asarray(uir, dtype=float)
    show_ticks = S <= 60
    fig = go.Figure(go.Heatmap(
        z=z, x=list(range(S)), y=list(range(S)), zmin=-1, zmax=1, zmid=0, colorscale=DIVERGING,
        customdata=np.array([[f"{r}", f"{c}"] for r in systems for c in systems],
                            dtype=object).reshape(S, S, 2) if S <= 120 else None,
        hovertemplate=("UIR(%{customdata[0]}, %{customdata[1]}) = %{z:.3f}<extra></extra>"
                       if S <= 120 else "UIR(row %{y}, column %{x}) = %{z:.3f}<extra></extra>"),
        colorbar=dict(title=dict(text="UIR", side="right"), thickness=14, len=0.8),
        xgap=1 if S <= 60 else 0, ygap=1 if S <= 60 else 0,
    ))
    if S <= 60:
        ii, jj = np.nonzero(z >= threshold)
        if ii.size:
            fig.add_trace(go.Scatter(
                x=jj, y=ii, mode="markers", marker=dict(size=4, color="#111"),
                name=f"UIR \u2265 {threshold:.2f}", hoverinfo="skip",
            ))
    highlight = dict(highlight or {})
    ticktext = []
    for s in systems:
        role = highlight.get(s)
        label = short(s, 24)
        ticktext.append(f"<b style='color:{role_color(role)}'>{role}: {label}</b>" if role else label)
    side = max(520, min(900, 16 * S + 260))
    layout(fig, title or f"UIR(row, column) for every pair, systems ranked by F\u03b1 "
                          f"(dots: UIR \u2265 {threshold:.2f})", height=side)
    fig.update_layout(margin=dict(l=200 if show_ticks else 70, r=30, t=70, b=180 if show_ticks else 60),
                      legend=dict(y=1.0))
    fig.update_xaxes(title_text="system b (column)", tickvals=list(range(S)) if show_ticks else None,
                     ticktext=ticktext if show_ticks else None, tickangle=-60,
                     tickfont=dict(size=10), showticklabels=show_ticks, showgrid=False,
                     zeroline=False)
    fig.update_yaxes(title_text="system a (row)", tickvals=list(range(S)) if show_ticks else None,
                     ticktext=ticktext if show_ticks else None, autorange="reversed",
                     tickfont=dict(size=10), showticklabels=show_ticks, showgrid=False,
                     zeroline=False)
    return fig


def threshold_curve_figure(curve: pd.DataFrame, threshold: float,
                           series: Mapping[str, str] | None = None,
                           title: str | None = None) -> go.Figure:
    """The UIR-threshold study (JAIR 2011 Fig. 6, WePS paper Fig. 6).

    Parameters
    ----------
    curve : DataFrame
        Column ``threshold`` plus one column per share, all in [0, 1].
    series : mapping column -> legend label, optional
        Which columns to draw, in order (default: every other column).
    """
    if series is None:
        series = {c: c.replace("_", " ") for c in curve.columns if c != "threshold"}
    styles = [("#000000", "solid"), (OKABE_ITO["green"], "solid"), (OKABE_ITO["vermillion"], "dash"),
              (OKABE_ITO["blue"], "dot"), (OKABE_ITO["orange"], "dashdot"),
              (OKABE_ITO["purple"], "longdash"), (OKABE_ITO["sky"], "solid")]
    fig = go.Figure()
    for (col, label), (color, dash) in zip(series.items(), styles):
        if col not in curve.columns:
            continue
        fig.add_trace(go.Scatter(
            x=curve["threshold"], y=curve[col], mode="lines", name=label,
            line=dict(color=color, dash=dash, width=3 if color == "#000000" else 2.2),
            hovertemplate=f"{label}<br>UIR \u2265 %{{x:.2f}}: %{{y:.1%}}<extra></extra>",
        ))
    fig.add_vline(x=threshold, line=dict(color="#444", dash="dot", width=1),
                  annotation_text=f"threshold {threshold:.2f}", annotation_position="top right")
    layout(fig, title or "What a UIR threshold accepts", height=560, legend_below=True)
    fig.update_layout(legend=dict(orientation="v", y=-0.16), margin=dict(b=170))
    fig.update_xaxes(title_text="UIR threshold t", range=[0, 1])
    fig.update_yaxes(title_text="share of pairs", tickformat=".0%", range=[0, 1.02])
    return fig


def delta_f_uir_figure(pairs: pd.DataFrame, threshold: float, precision: str, recall: str,
                       alpha: float, r: float | None = None,
                       highlight_pair: tuple[str, str] | None = None,
                       title: str | None = None) -> go.Figure:
    """One point per ordered pair with UIR >= 0: x = UIR(a, b), y = F_alpha(a) - F_alpha(b).

    Parameters
    ----------
    pairs : DataFrame
        Columns ``system_a, system_b, uir, delta_f``. Points carry ``customdata = [a, b]`` so that
        a click can open the pair.
    """
    df = pairs
    robust = df["uir"] >= threshold
    big = len(df) > 3000
    Scatter = go.Scattergl if big else go.Scatter
    fig = go.Figure()
    for mask, name, color in ((~robust, f"UIR < {threshold:.2f}", "#9A9A9A"),
                              (robust, f"UIR \u2265 {threshold:.2f} (robust)", COLOR_A)):
        sub = df[mask]
        fig.add_trace(Scatter(
            x=sub["uir"], y=sub["delta_f"], mode="markers", name=f"{name}: {len(sub)} pairs",
            marker=dict(size=5 if big else 7, color=color, opacity=0.75),
            customdata=np.stack([sub["system_a"].astype(str), sub["system_b"].astype(str)],
                                axis=1) if len(sub) else None,
            hovertemplate=("a: %{customdata[0]}<br>b: %{customdata[1]}<br>UIR(a,b)=%{x:.3f}"
                           "<br>\u0394F=%{y:.4f}<extra>click to compare</extra>"),
        ))
    if highlight_pair is not None:
        m = (df["system_a"] == highlight_pair[0]) & (df["system_b"] == highlight_pair[1])
        if m.any():
            row = df[m].iloc[0]
            fig.add_trace(go.Scatter(
                x=[row["uir"]], y=[row["delta_f"]], mode="markers", name="selected pair A, B",
                marker=dict(size=15, color="rgba(0,0,0,0)", line=dict(color=COLOR_B, width=2.5)),
                hoverinfo="skip",
            ))
    fig.add_hline(y=0, line=dict(color="#666", width=1))
    fig.add_vline(x=threshold, line=dict(color="#444", dash="dot", width=1))
    rtxt = f" (Pearson r = {r:.2f})" if r is not None and np.isfinite(r) else ""
    layout(fig, title or f"\u0394F\u03b1 vs UIR{rtxt}", height=560, legend_below=True)
    fig.update_layout(legend=dict(orientation="v", y=-0.16), margin=dict(l=80, r=30, t=60, b=170),
                      clickmode="event+select")
    fig.update_xaxes(title_text="UIR(a, b)")
    fig.update_yaxes(title_text=f"F\u03b1(a) \u2212 F\u03b1(b), \u03b1 = {alpha:.2f}")
    return fig


def weakest_metric_figure(df: pd.DataFrame, metrics: Sequence[str], r: float | None = None,
                          title: str | None = None) -> go.Figure:
    """Weakest-metric improvement min_x dx vs UIR over the pairs that improve on every metric.

    Parameters
    ----------
    df : DataFrame
        Columns ``system_a, system_b, uir, weakest``.
    """
    big = len(df) > 3000
    Scatter = go.Scattergl if big else go.Scatter
    fig = go.Figure(Scatter(
        x=df["uir"], y=df["weakest"], mode="markers",
        marker=dict(size=5 if big else 7, color=OKABE_ITO["green"], opacity=0.75),
        customdata=np.stack([df["system_a"].astype(str), df["system_b"].astype(str)], axis=1)
        if len(df) else None,
        hovertemplate=("a: %{customdata[0]}<br>b: %{customdata[1]}<br>UIR=%{x:.3f}"
                       "<br>min \u0394=%{y:.4f}<extra></extra>"),
        name="pairs improving every metric",
    ))
    rtxt = f" (Pearson r = {r:.2f})" if r is not None and np.isfinite(r) else ""
    layout(fig, title or f"Weakest-metric improvement vs UIR{rtxt}", height=460)
    fig.update_xaxes(title_text="UIR(a, b)")
    fig.update_yaxes(title_text="min over {" + ", ".join(metrics) + "} of \u0394 (a \u2212 b)")
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
    layout(fig, title or "Formal constraints each metric satisfies", height=max(320, 26 * len(metrics) + 160))
    fig.update_layout(margin=dict(l=200, r=30, t=110, b=30))
    fig.update_xaxes(side="top", title_text=None, showgrid=False, tickangle=0)
    fig.update_yaxes(autorange="reversed", showgrid=False, title_text=None)
    return fig
