"""Charts of the UIR analysis over every pair of systems: the UIR matrix, the UIR-threshold
curve, Delta F vs UIR and the weakest metric (Amigo et al., JAIR 2011, Figs 10-12; the WePS-2
UIR paper, Fig. 6).

A large campaign (more than :data:`DENSITY_AT` pairs) draws its pairs as a density: 150
systems make 11,175 pairs, a cloud in which single points hide one another, and as points they
would be drawn by WebGL, slowly in a browser without a graphics card. System A's pairs stay
points on top of the density (those of Delta F vs UIR open the pair on a click).
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence

import numpy as np
import pandas as pd
import plotly.graph_objects as go

from dashboard.figures.margins import (
    axis_margin,
    below_legend_margin,
    colorbar_margin,
    legend_rows,
)
from dashboard.figures.style import (
    COLOR_A,
    COLOR_B,
    DIVERGING,
    LABEL_FONT,
    MIN_FONT,
    OKABE_ITO,
    ROLE_DASHES,
    layout,
    role_color,
    short,
)
from metrics.comparison.profiles import improves_symbol
from metrics.comparison.reference import improves

__all__ = [
    "uir_heatmap_figure",
    "MATRIX_LABELLED",
    "DENSITY_AT",
    "threshold_curve_figure",
    "delta_f_uir_figure",
    "weakest_metric_figure",
]


MATRIX_LABELLED = 60  # systems up to which the UIR matrix keeps every label, dot and gap


def uir_heatmap_figure(systems: Sequence[str], uir: np.ndarray, threshold: float,
                       highlight: Mapping[str, str] | None = None,
                       title: str | None = None, strict: bool = False) -> go.Figure:
    """UIR(row, column) for every ordered pair, systems in the given (rank) order.

    Cells where the row improves the column carry a dot (UIR >= threshold, or > with
    ``strict``, the profile's rule: :func:`metrics.comparison.reference.improves`); every row
    its number and (middle-ellipsed) name, the columns about ten of those numbers, A and B
    marked (row labels in their colour, columns outlined solid / dashed and lettered), up to
    ``MATRIX_LABELLED`` systems; the page shows the top N of a larger campaign (a chooser)
    rather than shrinking 150 labels into stripes.
    """
    systems = [str(s) for s in systems]
    S = len(systems)
    z = np.asarray(uir, dtype=float)
    sign = improves_symbol(strict)
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
        ii, jj = np.nonzero(improves(z, threshold, strict))
        if ii.size:
            fig.add_trace(go.Scatter(
                x=jj, y=ii, mode="markers", marker=dict(size=5 if S <= 40 else 4, color="#111"),
                name=f"UIR {sign} {threshold:.2f}", hoverinfo="skip",
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
    layout(fig, title or f"UIR(row, column), ranked by F\u03b1 \u00b7 dot: UIR {sign} "
                          f"{threshold:.2f}", height=side)
    # margins that hold the row labels and the colour bar: laid out once (margins.py)
    fig.update_layout(margin=dict(l=axis_margin(ticktext, MIN_FONT) if show_ticks else 70,
                                  r=colorbar_margin(["\u22120.5"], 14), t=90, b=70),
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
    # one legend row per series; the left margin holds "100%" and the axis title
    fig.update_layout(legend=dict(orientation="v", y=-0.16),
                      margin=dict(l=axis_margin(["100%"], 13), t=80,
                                  b=max(170, below_legend_margin(560, 80, -0.16, len(fig.data)))))
    fig.update_xaxes(title_text="UIR threshold t", range=[0, 1])
    fig.update_yaxes(title_text="share of pairs", tickformat=".0%", range=[0, 1.02])
    return fig


#: pairs beyond which Delta F vs UIR and the weakest-metric chart draw a density, not points
DENSITY_AT = 3000
#: the density's shades: white (no pair) to near black (the most pairs of a cell)
DENSITY_SCALE = [[0.0, "#FFFFFF"], [0.02, "#E6E6E6"], [1.0, "#1A1A1A"]]
#: the density's cells are about this wide in UIR (a whole number of UIR's steps, 1 / topics)
CELL_UIR = 0.025


def _uir_cells(uir: np.ndarray) -> dict:
    """x cells of a density over UIR: UIR takes the values k / |T| (topics T), so each cell holds
    a whole number of those steps (a cell one step wider than its neighbour would be darker)."""
    vals = np.unique(np.round(uir, 9))
    gaps = np.diff(vals)
    step = float(gaps.min()) if gaps.size else CELL_UIR
    size = max(1, round(CELL_UIR / step)) * step
    return dict(start=float(vals[0]) - step / 2, end=float(vals[-1]) + step / 2, size=size)


def _density(x: np.ndarray, y: np.ndarray, what: str, ytitle: str) -> go.Histogram2d:
    """The pairs as a 2-D histogram (counted by the browser; float32 halves what is sent)."""
    return go.Histogram2d(
        x=x.astype(np.float32), y=y.astype(np.float32), xbins=_uir_cells(x), nbinsy=40,
        colorscale=DENSITY_SCALE, zmin=0, showlegend=True, name=what,
        colorbar=dict(title=dict(text="pairs", side="right"), thickness=12, len=0.6),
        hovertemplate=f"UIR %{{x}}<br>{ytitle} %{{y}}<br>%{{z}} pairs<extra></extra>",
    )


def _density_margin(n_pairs: int) -> int:
    """Right margin in px that holds the density's colour bar: its counts have at most as many
    digits as the number of pairs (Plotly writes 10,000 and more as "10k")."""
    digits = min(len(str(max(n_pairs, 1))), 5)
    return colorbar_margin(["8" * digits], 12)


def _pairs_of(df: pd.DataFrame, system: str | None) -> pd.DataFrame:
    """The rows of ``df`` (one per pair) in which ``system`` is one of the two."""
    if system is None:
        return df.iloc[:0]
    return df[(df["system_a"] == system) | (df["system_b"] == system)]


def _names(sub: pd.DataFrame) -> np.ndarray | None:
    """``customdata = [a, b]`` of each point (a click opens the pair; the hover names it)."""
    return (np.stack([sub["system_a"].astype(str), sub["system_b"].astype(str)], axis=1)
            if len(sub) else None)


def delta_f_uir_figure(pairs: pd.DataFrame, threshold: float, precision: str, recall: str,
                       alpha: float, r: float | None = None,
                       highlight_pair: tuple[str, str] | None = None,
                       title: str | None = None, strict: bool = False,
                       average: str | None = None) -> go.Figure:
    """One point per pair as the rows of ``pairs`` orient it (the comparison's ΔF vs UIR: a the
    system with the higher F_alpha): x = UIR(a, b), y = F_alpha(a) - F_alpha(b).

    Three groups, by the profile's rule (:func:`metrics.comparison.reference.improves`, UIR >= t
    or > t with ``strict``): a improves b (robust, as F says), b improves a (robust, against
    F: UIR <= -t), neither.

    Beyond :data:`DENSITY_AT` pairs, a density of all pairs with the pairs of A
    (``highlight_pair[0]``) as points on it.

    Parameters
    ----------
    pairs : DataFrame
        Columns ``system_a, system_b, uir, delta_f``. Points carry ``customdata = [a, b]`` so that
        a click can open the pair.
    """
    df = pairs
    dense = len(df) > DENSITY_AT
    fig = go.Figure()
    points = df
    if dense:
        fig.add_trace(_density(df["uir"].to_numpy(float), df["delta_f"].to_numpy(float),
                               f"all {len(df):,} pairs, shaded by how many share a cell",
                               "\u0394F"))
        points = _pairs_of(df, highlight_pair[0] if highlight_pair else None)
    sign = improves_symbol(strict)
    ahead, behind = (improves(points["uir"], threshold, strict),
                     improves(-points["uir"], threshold, strict))
    every = (improves(df["uir"], threshold, strict), improves(-df["uir"], threshold, strict))
    for mask, name, n_all, color, symbol in (
            (~ahead & ~behind, "not robust", int((~every[0] & ~every[1]).sum()), "#9A9A9A",
             "circle-open"),
            (ahead, f"UIR {sign} {threshold:.2f}: a improves b (robust)", int(every[0].sum()),
             COLOR_A, "circle"),
            (behind, f"UIR {'<' if strict else chr(0x2264)} \u2212{threshold:.2f}: b improves a "
             "(robust, against F\u03b1)", int(every[1].sum()), COLOR_B, "diamond")):
        sub = points[mask]
        if dense:  # A's pairs over the density; the legend counts all pairs too
            name = (f"{name}: {n_all:,} pair{'' if n_all == 1 else 's'}"
                    + (f", of which A's: {len(sub)}" if highlight_pair else ""))
            color = COLOR_A
        else:
            name = f"{name}: {len(sub)} pair{'' if len(sub) == 1 else 's'}"
        fig.add_trace(go.Scatter(
            x=sub["uir"], y=sub["delta_f"], mode="markers", name=name,
            marker=dict(size=7, color=color, opacity=0.75, symbol=symbol),
            customdata=_names(sub),
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
    for x in (threshold, -threshold):
        fig.add_vline(x=x, line=dict(color="#444", dash="dot", width=1))
    rtxt = f" (Pearson r = {r:.2f})" if r is not None and np.isfinite(r) else ""
    layout(fig, title or f"\u0394F\u03b1 vs UIR{rtxt}", height=560, legend_below=True)
    fig.update_layout(legend=dict(orientation="v", y=-0.16),
                      margin=dict(l=80, r=_density_margin(len(df)) if dense else 30, t=60,
                                  b=max(170, below_legend_margin(560, 60, -0.16,
                                                                 len(fig.data)))),
                      clickmode="event+select")
    fig.update_xaxes(title_text="UIR(a, b)")
    fig.update_yaxes(title_text=f"F\u03b1(a) \u2212 F\u03b1(b), \u03b1 = {alpha:.2f}"
                     + (f", {average}" if average else ""))
    return fig


def weakest_metric_figure(df: pd.DataFrame, metrics: Sequence[str], r: float | None = None,
                          title: str | None = None, system: str | None = None) -> go.Figure:
    """Weakest-metric improvement min_x dx vs UIR over the pairs that improve on every metric.

    Beyond :data:`DENSITY_AT` pairs, a density with the pairs of ``system`` (A) as points.

    Parameters
    ----------
    df : DataFrame
        Columns ``system_a, system_b, uir, weakest``.
    """
    dense = len(df) > DENSITY_AT
    fig = go.Figure()
    points = df
    name = "pairs improving every metric"
    if dense:
        fig.add_trace(_density(df["uir"].to_numpy(float), df["weakest"].to_numpy(float),
                               f"all {len(df):,} {name}, shaded by how many share a cell",
                               "weakest \u0394"))
        points = _pairs_of(df, system)
        name = f"of them, A's pairs: {len(points)}"
    fig.add_trace(go.Scatter(
        x=points["uir"], y=points["weakest"], mode="markers", name=name,
        marker=dict(size=7, color=COLOR_A if dense else OKABE_ITO["green"], opacity=0.75),
        customdata=_names(points),
        hovertemplate=("a: %{customdata[0]}<br>b: %{customdata[1]}<br>UIR=%{x:.3f}"
                       "<br>min \u0394=%{y:.4f}<extra></extra>"),
    ))
    rtxt = f" (Pearson r = {r:.2f})" if r is not None and np.isfinite(r) else ""
    sub = ("weakest \u0394 = min over " + ", ".join(short(m, 22) for m in metrics)
           + " of mean(a) \u2212 mean(b)")
    layout(fig, title or f"Weakest-metric improvement vs UIR{rtxt}<br><span style='font-size:"
                         f"{MIN_FONT + 1}px;color:#555'>{sub}</span>", height=480)
    rows = legend_rows([t.name for t in fig.data])
    fig.update_layout(margin=dict(l=80, r=_density_margin(len(df)) if dense else 30, t=90,
                                  b=below_legend_margin(480, 90, -0.16, rows)), showlegend=True,
                      legend=dict(orientation="h", yanchor="top", y=-0.16, x=0, xanchor="left"))
    # UIR lies in [-1, 1]: the axis never runs past it (autorange does around a single point)
    lo = float(df["uir"].min()) if len(df) else 0.0
    fig.update_xaxes(title_text="UIR(a, b)", range=[max(-1.05, min(lo, 0.0) - 0.05), 1.05])
    fig.update_yaxes(title_text="weakest \u0394 (a \u2212 b)")
    return fig
