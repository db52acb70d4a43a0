"""Charts of the whole campaign: F_alpha curves, rank moves, the UIR matrix, the UIR-threshold
curve, Delta F vs UIR, the weakest metric, the formal constraints.

(Size: about 420 lines, one builder per campaign chart; the dashboard's restructure splits
it.)
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence

import numpy as np
import pandas as pd
import plotly.graph_objects as go

from dashboard.figures.style import (
    COLOR_A,
    COLOR_B,
    COLOR_DOWN,
    COLOR_OTHER,
    COLOR_TIED,
    COLOR_UP,
    DIVERGING,
    LABEL_FONT,
    MIN_FONT,
    OKABE_ITO,
    ROLE_DASHES,
    alpha_label,
    f_label,
    layout,
    role_color,
    short,
)

__all__ = [
    "f_curves_figure",
    "rank_moves_figure",
    "uir_heatmap_figure",
    "MATRIX_LABELLED",
    "threshold_curve_figure",
    "delta_f_uir_figure",
    "weakest_metric_figure",
    "constraints_figure",
]


#: the background curves of :func:`f_curves_figure` take every second alpha of the grid (0.02
#: apart on the default grid; and the last): their chords stay within 0.006 of F_alpha (about
#: 2 px of the chart) even where one metric is nine times the other
BACKGROUND_STEP = 2


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
        # Every BACKGROUND_STEP-th alpha (and the last): the page's first chart is drawn sooner
        # (150 systems: 7,800 points instead of 15,300)
        keep = np.unique(np.append(np.arange(0, alphas.size, BACKGROUND_STEP), alphas.size - 1))
        n = keep.size + 1
        ys = np.full((len(others), n), np.nan)
        ys[:, :-1] = curves[others].to_numpy(dtype=float)[keep].T
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
    fig.update_layout(margin=dict(l=10, r=10, t=80, b=40),
                      legend=dict(y=-0.01, yanchor="top"))
    fig.update_xaxes(range=[-1.45, 2.45], tickvals=[0, 1],
                     ticktext=[f"rank at \u03b1 = {alpha1:.2f}", f"rank at \u03b1 = {alpha2:.2f}"],
                     side="top", showgrid=False, zeroline=False, title_text=None,
                     tickfont=dict(size=MIN_FONT + 1), tickangle=0)
    fig.update_yaxes(showticklabels=False, showgrid=False, zeroline=False, title_text=None,
                     range=[n + 0.8, 0.2], autorange=False)
    return fig


# ------------------------------------------------------------------------------------------------
# Compare two systems
# ------------------------------------------------------------------------------------------------


MATRIX_LABELLED = 60  # systems up to which the UIR matrix keeps every label, dot and gap


def uir_heatmap_figure(systems: Sequence[str], uir: np.ndarray, threshold: float,
                       highlight: Mapping[str, str] | None = None,
                       title: str | None = None) -> go.Figure:
    """UIR(row, column) for every ordered pair, systems in the given (rank) order.

    Cells with UIR >= threshold carry a dot; every row its number and (middle-ellipsed) name,
    the columns about ten of those numbers, A and B marked (row labels in their colour,
    columns outlined solid / dashed and lettered), up to ``MATRIX_LABELLED`` systems; the page
    shows the top N of a larger campaign (a chooser) rather than shrinking 150 labels into
    stripes.
    """
    systems = [str(s) for s in systems]
    S = len(systems)
    z = np.asarray(uir, dtype=float)
    show_ticks = S <= MATRIX_LABELLED
    fig = go.Figure(go.Heatmap(
        z=z, x=list(range(S)), y=list(range(S)), zmin=-1, zmax=1, zmid=0, colorscale=DIVERGING,
        customdata=np.array([[f"{r}", f"{c}"] for r in systems for c in systems],
                            dtype=object).reshape(S, S, 2) if S <= 120 else None,
        hovertemplate=("UIR(%{customdata[0]}, %{customdata[1]}) = %{z:.3f}<extra></extra>"
                       if S <= 120 else "UIR(row %{y}, column %{x}) = %{z:.3f}<extra></extra>"),
        colorbar=dict(title=dict(text="UIR", side="right"), thickness=14, len=0.8),
        xgap=1 if show_ticks else 0, ygap=1 if show_ticks else 0,
    ))
    if show_ticks:
        ii, jj = np.nonzero(z >= threshold)
        if ii.size:
            fig.add_trace(go.Scatter(
                x=jj, y=ii, mode="markers", marker=dict(size=5 if S <= 40 else 4, color="#111"),
                name=f"UIR \u2265 {threshold:.2f}", hoverinfo="skip",
            ))
    highlight = dict(highlight or {})
    ticktext = []
    for k, s in enumerate(systems):
        role = highlight.get(s)
        label = f"{k + 1}. " + (f"[{role}] " if role else "") + short(s, 24)
        ticktext.append(f"<b style='color:{role_color(role)}'>{label}</b>" if role else label)
    # columns carry the rows' numbers, about ten of them, so that they fit however narrow the
    # matrix; A's and B's columns are outlined (solid / dashed) and lettered above
    step = max(1, int(np.ceil(S / 10)))
    for s, role in highlight.items():
        if s not in systems or role not in ROLE_DASHES:
            continue
        j = systems.index(s)
        fig.add_shape(type="rect", x0=j - 0.5, x1=j + 0.5, y0=-0.5, y1=S - 0.5, xref="x",
                      yref="y", line=dict(color=role_color(role), width=2,
                                          dash=ROLE_DASHES[role]), fillcolor="rgba(0,0,0,0)")
        fig.add_annotation(x=j, y=1.0 if role == "A" else 1.035, xref="x", yref="paper",
                           yanchor="bottom", showarrow=False, text=f"<b>{role}</b>",
                           font=dict(size=MIN_FONT, color=role_color(role)))
    side = max(520, min(1100, 18 * S + 300))
    layout(fig, title or f"UIR(row, column), ranked by F\u03b1 \u00b7 dot: UIR \u2265 "
                          f"{threshold:.2f}", height=side)
    fig.update_layout(margin=dict(l=200 if show_ticks else 70, r=30, t=90, b=70),
                      legend=dict(y=1.06))
    fig.update_xaxes(title_text="system b (column, numbered as the rows)",
                     tickvals=list(range(0, S, step)) if show_ticks else None,
                     ticktext=[str(j + 1) for j in range(0, S, step)] if show_ticks else None,
                     tickangle=0, tickfont=LABEL_FONT, showticklabels=show_ticks,
                     showgrid=False, zeroline=False)
    fig.update_yaxes(title_text="system a (row)", tickvals=list(range(S)) if show_ticks else None,
                     ticktext=ticktext if show_ticks else None, autorange="reversed",
                     tickfont=LABEL_FONT, showticklabels=show_ticks, showgrid=False,
                     zeroline=False)
    return fig


def threshold_curve_figure(curve: pd.DataFrame, threshold: float,
                           series: Mapping[str, str] | None = None,
                           title: str | None = None) -> go.Figure:
    """The UIR-threshold study (JAIR 2011 Fig. 10, WePS paper Fig. 6).

    Parameters
    ----------
    curve : DataFrame
        Column ``threshold`` plus one column per share, all in [0, 1].
    series : mapping column -> legend label, optional
        Which columns to draw, in order (default: every other column).
    """
    if series is None:
        series = {c: c.replace("_", " ") for c in curve.columns if c != "threshold"}
    # every series has its own dash (and colour): told apart without colour
    styles = [("#000000", "solid"), (OKABE_ITO["green"], "longdash"),
              (OKABE_ITO["vermillion"], "dash"), (OKABE_ITO["blue"], "dot"),
              (OKABE_ITO["orange"], "dashdot"), (OKABE_ITO["purple"], "longdashdot"),
              (OKABE_ITO["sky"], "5px,2px,1px,2px")]
    fig = go.Figure()
    for (col, label), (color, dash) in zip(series.items(), styles, strict=False):
        if col not in curve.columns:
            continue
        fig.add_trace(go.Scatter(
            x=curve["threshold"], y=curve[col], mode="lines", name=label,
            line=dict(color=color, dash=dash, width=3 if color == "#000000" else 2.2),
            hovertemplate=f"{label}<br>UIR \u2265 %{{x:.2f}}: %{{y:.1%}}<extra></extra>",
        ))
    fig.add_vline(x=threshold, line=dict(color="#444", dash="dot", width=1))
    # the label sits above the plot area (no curve there), on a white background
    fig.add_annotation(x=threshold, y=1.0, xref="x", yref="paper", yanchor="bottom",
                       showarrow=False, text=f"t = {threshold:.2f}", bgcolor="white",
                       font=dict(size=MIN_FONT, color="#444"))
    layout(fig, title or "What a UIR threshold accepts", height=560, legend_below=True)
    fig.update_layout(legend=dict(orientation="v", y=-0.16), margin=dict(t=80, b=170))
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
    for mask, name, color, symbol in (
            (~robust, f"UIR < {threshold:.2f}", "#9A9A9A", "circle-open"),
            (robust, f"UIR \u2265 {threshold:.2f} (robust)", COLOR_A, "circle")):
        sub = df[mask]
        fig.add_trace(Scatter(
            x=sub["uir"], y=sub["delta_f"], mode="markers",
            name=f"{name}: {len(sub)} pair{'' if len(sub) == 1 else 's'}",
            marker=dict(size=5 if big else 7, color=color, opacity=0.75, symbol=symbol),
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
    sub = ("weakest \u0394 = min over " + ", ".join(short(m, 22) for m in metrics)
           + " of mean(a) \u2212 mean(b)")
    layout(fig, title or f"Weakest-metric improvement vs UIR{rtxt}<br><span style='font-size:"
                         f"{MIN_FONT + 1}px;color:#555'>{sub}</span>", height=480)
    fig.update_layout(margin=dict(l=80, r=30, t=90, b=60), showlegend=True,
                      legend=dict(orientation="h", yanchor="top", y=-0.16, x=0, xanchor="left"))
    # UIR lies in [-1, 1]: the axis never runs past it (autorange does around a single point)
    lo = float(df["uir"].min()) if len(df) else 0.0
    fig.update_xaxes(title_text="UIR(a, b)", range=[max(-1.05, min(lo, 0.0) - 0.05), 1.05])
    fig.update_yaxes(title_text="weakest \u0394 (a \u2212 b)")
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
