"""Charts of one pair of systems: F_alpha curves with crossings, topics by unanimous winner, the
per-topic scatter, contingency tables."""

from __future__ import annotations

import math
from collections.abc import Sequence

import numpy as np
import pandas as pd
import plotly.graph_objects as go

from dashboard.figures.margins import axis_margin, below_legend_margin, legend_rows, text_px
from dashboard.figures.style import (
    COLOR_A,
    COLOR_B,
    LABEL_FONT,
    MIN_FONT,
    SEQUENTIAL,
    WINNER_COLORS,
    WINNER_DASHES,
    WINNER_PATTERNS,
    WINNER_SYMBOLS,
    alpha_label,
    f_label,
    layout,
    role_color,
    short,
)

__all__ = [
    "pair_curves_figure",
    "uir_counts_figure",
    "pair_scatter_figure",
    "contingency_figure",
    "pair_differences_figure",
    "SCATTER_MAX_TOPICS",
]


def pair_curves_figure(
    curves: pd.DataFrame,
    a: str,
    b: str,
    crossings: Sequence[float],
    precision: str,
    recall: str,
    alpha: float | None = None,
    average: str = "macro",
    title: str | None = None,
) -> go.Figure:
    """F_alpha curves of a pair, with the alpha bands where each leads and the crossings marked.

    Parameters
    ----------
    curves : DataFrame
        Index alpha, columns including ``a`` and ``b``.
    crossings : sequence of float
        Alphas where the order flips (``metrics.comparison.combine.crossings``).
    """
    alphas = curves.index.to_numpy(dtype=float)
    ya, yb = curves[a].to_numpy(dtype=float), curves[b].to_numpy(dtype=float)
    fig = go.Figure()
    bounds = [0.0, *sorted(float(c) for c in crossings), 1.0]
    for lo, hi in zip(bounds[:-1], bounds[1:], strict=True):
        mid = 0.5 * (lo + hi)
        k = int(np.argmin(np.abs(alphas - mid)))
        if np.isnan(ya[k]) or np.isnan(yb[k]) or ya[k] == yb[k]:
            continue
        leader = "A" if ya[k] > yb[k] else "B"
        fig.add_vrect(x0=lo, x1=hi, fillcolor=role_color(leader), opacity=0.08, line_width=0,
                      layer="below")
        fig.add_annotation(x=mid, y=1.0, yref="paper", yanchor="bottom", showarrow=False,
                           text=f"{leader} ahead",
                           font=dict(size=MIN_FONT, color=role_color(leader)))
    fig.add_trace(go.Scatter(x=alphas, y=ya, mode="lines", name=f"A: {short(a, 34)}",
                             line=dict(color=COLOR_A, width=3),
                             hovertemplate=f"{a}<br>\u03b1=%{{x:.2f}}<br>F=%{{y:.4f}}<extra>A</extra>"))
    fig.add_trace(go.Scatter(x=alphas, y=yb, mode="lines", name=f"B: {short(b, 34)}",
                             line=dict(color=COLOR_B, width=3, dash="dash"),
                             hovertemplate=f"{b}<br>\u03b1=%{{x:.2f}}<br>F=%{{y:.4f}}<extra>B</extra>"))
    for c in crossings:
        k = int(np.argmin(np.abs(alphas - c)))
        fig.add_vline(x=float(c), line=dict(color="#333", dash="dash", width=1.2))
        fig.add_trace(go.Scatter(
            x=[float(c)], y=[float(np.interp(c, alphas, ya))], mode="markers",
            marker=dict(symbol="x", size=11, color="#222"), name="crossing",
            legendgroup="crossing", showlegend=c == crossings[0],
            hovertemplate=f"order flips at \u03b1 = {c:.3f}<extra></extra>",
        ))
        del k
    if alpha is not None:
        fig.add_vline(x=alpha, line=dict(color="#444", dash="dot", width=1))
    if crossings:
        sub = "order flips at \u03b1 = " + ", ".join(f"{c:.3f}" for c in crossings)
    else:
        sub = "no crossing: the same system leads for every \u03b1"
    layout(fig, title or f"F\u03b1 across \u03b1 \u2014 {sub}", height=460, legend_below=True)
    fig.update_layout(margin=dict(l=70, r=30, t=80, b=110))
    fig.update_xaxes(title_text=alpha_label(precision, recall, average), range=[0, 1])
    fig.update_yaxes(title_text=f_label(precision, recall, average))
    return fig


def uir_counts_figure(n_a_better: int, n_tied: int, n_biased: int, n_b_better: int,
                      a: str, b: str, title: str | None = None) -> go.Figure:
    """One stacked bar: topics where A >=forall B, tied, metric-biased, B >=forall A."""
    parts = [
        ("A \u2265\u2200 B", n_a_better, "a", f"{a} improves {b} on every metric"),
        ("tied", n_tied, "tied", "equal on every metric"),
        ("metric-biased", n_biased, "biased", "the metrics disagree"),
        ("B \u2265\u2200 A", n_b_better, "b", f"{b} improves {a} on every metric"),
    ]
    total = max(1, sum(p[1] for p in parts))
    fig = go.Figure()
    for label, n, w, what in parts:
        fig.add_trace(go.Bar(
            y=["topics"], x=[n], orientation="h", name=f"{label}: {n}",
            marker=dict(color=WINNER_COLORS[w],
                        pattern=dict(shape=WINNER_PATTERNS[w], fgcolor="white", fgopacity=0.4,
                                     size=8)),
            text=[f"{label} {n}" if n / total > 0.08 else str(n) if n else ""],
            textposition="inside", insidetextanchor="middle",
            hovertemplate=f"{label}: {n} topics<br>{what}<extra></extra>",
        ))
    layout(fig, title, height=170)
    # the bottom margin holds the tick labels and the axis title
    edge = math.ceil(text_px([total], 13) / 2) + 12  # half the end tick labels, "0" and total
    fig.update_layout(barmode="stack", margin=dict(l=edge, r=edge, t=40 if title else 10, b=56),
                      showlegend=False, uniformtext=dict(minsize=MIN_FONT, mode="hide"))
    fig.update_xaxes(title_text="number of topics", range=[0, total])
    fig.update_yaxes(showticklabels=False)
    return fig


def pair_scatter_figure(
    topics: pd.DataFrame,
    a: str,
    b: str,
    precision: str,
    recall: str,
    selected_topic: str | None = None,
    title: str | None = None,
    roles: tuple[str, str] = ("first metric", "second metric"),
) -> go.Figure:
    """Per-topic first vs second metric of a pair, each topic's two points linked.

    Parameters
    ----------
    topics : DataFrame
        One row per topic: ``topic, a_precision, a_recall, b_precision, b_recall, winner``
        (winner in ``a, b, tied, biased``), as :func:`dashboard.data.live.pair_topic_frame` shapes
        the output of ``metrics.analyses.per_topic``.
    roles : (str, str)
        The words of the two metrics on the axes (``metrics.analyses.metric_pair.pair_words``:
        precision-like / recall-like only for such a pair).
    """
    fig = go.Figure()
    names = {"a": f"A \u2265\u2200 B ({short(a, 20)})", "b": f"B \u2265\u2200 A ({short(b, 20)})",
             "tied": "tied", "biased": "metric-biased"}
    for w in ("a", "b", "biased", "tied"):
        sub = topics[topics["winner"] == w]
        if sub.empty:
            continue
        xs, ys = [], []
        for r in sub.itertuples(index=False):
            xs += [r.a_recall, r.b_recall, None]
            ys += [r.a_precision, r.b_precision, None]
        fig.add_trace(go.Scatter(
            x=xs, y=ys, mode="lines", name=f"{names[w]}: {len(sub)}",
            line=dict(color=WINNER_COLORS[w], width=2.2 if w in ("a", "b") else 1.4,
                      dash=WINNER_DASHES[w]),
            hoverinfo="skip", legendgroup=w,
        ))
    for role, who, sym, color in (("A", "a", "circle", COLOR_A), ("B", "b", "diamond", COLOR_B)):
        name = a if role == "A" else b
        fig.add_trace(go.Scatter(
            x=topics[f"{who}_recall"], y=topics[f"{who}_precision"], mode="markers",
            name=f"{role}: {short(name, 30)}",
            marker=dict(symbol=sym, size=9, color=color, line=dict(color="white", width=1)),
            customdata=np.stack([topics["topic"].astype(str), topics["winner"].astype(str)],
                                axis=1),
            hovertemplate=(f"topic %{{customdata[0]}}<br>{name}<br>{precision}=%{{y:.3f}}"
                           f"<br>{recall}=%{{x:.3f}}<br>winner: %{{customdata[1]}}"
                           f"<extra>{role}</extra>"),
        ))
    if selected_topic is not None and (topics["topic"].astype(str) == str(selected_topic)).any():
        r = topics[topics["topic"].astype(str) == str(selected_topic)].iloc[0]
        fig.add_trace(go.Scatter(
            x=[r["a_recall"], r["b_recall"]], y=[r["a_precision"], r["b_precision"]],
            mode="markers", name=f"selected: {short(selected_topic, 24)}",
            marker=dict(size=18, color="rgba(0,0,0,0)", line=dict(color="#000", width=2)),
            hoverinfo="skip",
        ))
    # the legend below the plot: the plane keeps the whole width at 1024 px
    layout(fig, title or "Per topic: which system wins on both metrics?", height=620,
           legend_below=True)
    rows = legend_rows([t.name for t in fig.data if t.showlegend is not False])
    fig.update_layout(legend=dict(y=-0.14),
                      margin=dict(l=70, r=20, t=60,
                                  b=max(150, below_legend_margin(620, 60, -0.14, rows))),
                      clickmode="event+select", dragmode="zoom")

    def _range(cols):
        v = topics[cols].to_numpy(dtype=float)
        v = v[np.isfinite(v)]
        if v.size == 0:
            return [-0.02, 1.02]
        lo, hi = float(v.min()), float(v.max())
        pad = max(0.03, 0.06 * (hi - lo))
        return [max(-0.02, lo - pad), min(1.02, hi + pad)]

    fig.update_xaxes(title_text=f"{recall} ({roles[1]})", range=_range(["a_recall", "b_recall"]))
    fig.update_yaxes(title_text=f"{precision} ({roles[0]})",
                     range=_range(["a_precision", "b_precision"]))
    return fig


def contingency_figure(table: pd.DataFrame, system: str, topic: str, max_rows: int = 20,
                       max_cols: int = 16, role: str | None = None) -> go.Figure:
    """Heatmap of a contingency table (gold classes x system clusters), largest first.

    Classes and clusters beyond ``max_rows`` / ``max_cols`` are summed into one "other" row /
    column so that the figure stays legible; the title says how many were folded.
    """
    t = table.copy()
    t = t.loc[t.sum(axis=1).sort_values(ascending=False).index,
              t.sum(axis=0).sort_values(ascending=False).index]
    n_rows, n_cols = t.shape
    if n_rows > max_rows:
        other = t.iloc[max_rows - 1:].sum(axis=0).to_frame().T
        other.index = [f"({n_rows - max_rows + 1} other classes)"]
        t = pd.concat([t.iloc[: max_rows - 1], other])
    if n_cols > max_cols:
        other = t.iloc[:, max_cols - 1:].sum(axis=1).to_frame()
        other.columns = [f"({n_cols - max_cols + 1} other clusters)"]
        t = pd.concat([t.iloc[:, : max_cols - 1], other], axis=1)
    z = t.to_numpy(dtype=float)
    text = np.where(z > 0, z.astype(int).astype(str), "")
    real = z[: min(max_rows - 1, z.shape[0]), : min(max_cols - 1, z.shape[1])] \
        if (n_rows > max_rows or n_cols > max_cols) else z
    zmax = float(real.max()) if real.size and real.max() > 0 else None
    ylab = [short(x, 24) for x in t.index.astype(str)]
    xlab = [short(x, 16) for x in t.columns.astype(str)]
    fig = go.Figure(go.Heatmap(
        z=z, x=list(range(len(xlab))), y=list(range(len(ylab))), text=text,
        texttemplate="%{text}", textfont=LABEL_FONT, colorscale=SEQUENTIAL, showscale=False,
        zmin=0, zmax=zmax,
        customdata=np.array([[f"{r} \u00d7 {c}" for c in t.columns.astype(str)]
                             for r in t.index.astype(str)]),
        hovertemplate="class \u00d7 cluster: %{customdata}<br>items: %{z}<extra></extra>",
    ))
    head = f"{role}: " if role else ""
    # two short lines: the whole title fits at 1024 px
    layout(fig, f"{head}{short(system, 34)} on {short(topic, 24)}<br><span style='font-size:"
                f"{MIN_FONT + 1}px;color:#555'>{n_rows} gold classes \u00d7 {n_cols} clusters"
                "</span>", height=max(340, 24 * len(ylab) + 210))
    fig.update_layout(margin=dict(l=max(190, axis_margin(ylab, MIN_FONT)), r=20, t=80, b=140))
    fig.update_xaxes(title_text="system clusters", tickvals=list(range(len(xlab))),
                     ticktext=xlab, tickangle=-45, tickfont=LABEL_FONT, showgrid=False)
    fig.update_yaxes(title_text="gold classes", tickvals=list(range(len(ylab))), ticktext=ylab,
                     autorange="reversed", tickfont=LABEL_FONT, showgrid=False)
    if role:
        fig.update_layout(title_font_color=role_color(role))
    return fig


# ------------------------------------------------------------------------------------------------
# UIR analysis
# ------------------------------------------------------------------------------------------------


#: Topics above which the Compare page opens on the per-topic difference view rather than the
#: scatter (a scatter of 2 x 200 linked points is a hairball; the toggle keeps both). RepLab
#: 2013's 61 topics still read well as a scatter, the view of the papers.
SCATTER_MAX_TOPICS = 80

_WINNER_NAMES = {"a": "A \u2265\u2200 B", "b": "B \u2265\u2200 A", "tied": "tied",
                 "biased": "mixed (metric-biased)"}


def pair_differences_figure(
    diffs: pd.DataFrame,
    a: str,
    b: str,
    metrics: Sequence[str],
    selected_topic: str | None = None,
    title: str | None = None,
) -> go.Figure:
    """Per-topic differences of a pair, one row of lollipops per metric, for many topics.

    Parameters
    ----------
    diffs : DataFrame
        :func:`metrics.analyses.per_topic.topic_differences`: ``topic, winner, position`` and
        ``oriented_<metric>`` (> 0: A better on that metric), in display order (A's unanimous
        wins, tied, mixed, B's unanimous wins; each block from A's largest mean gain down).
    metrics : sequence of str
        One subplot row per metric, in this order.

    Returns
    -------
    go.Figure
        Per row and winner class: a stem trace (lines from 0 to the difference) and a marker
        trace (``customdata[0]`` = topic, for a click); the class is told by colour and by
        symbol (:data:`~dashboard.figures.style.WINNER_SYMBOLS`). The blocks are separated by
        dotted lines and named with their count above the first row.
    """
    from plotly.subplots import make_subplots  # noqa: PLC0415 - deferred: heavy, only for this figure

    # the winner classes in display order (owned by metrics; imported here, not at module
    # import, so that opening the dashboard does not wait for the analyses package)
    from metrics.analyses.per_topic import WINNER_ORDER  # noqa: PLC0415 - deferred: heavy, only for this figure

    metrics = [str(m) for m in metrics]
    k = max(1, len(metrics))
    fig = make_subplots(rows=k, cols=1, shared_xaxes=True, vertical_spacing=0.06)
    pos = diffs["position"].to_numpy(dtype=float)
    n = len(diffs)
    winner = diffs["winner"].astype(str).to_numpy()
    topic = diffs["topic"].astype(str).to_numpy()
    names = dict(_WINNER_NAMES, a=f"A \u2265\u2200 B ({short(a, 22)})",
                 b=f"B \u2265\u2200 A ({short(b, 22)})")
    big = n > 400
    for row, m in enumerate(metrics, start=1):
        y = diffs[f"oriented_{m}"].to_numpy(dtype=float)
        for w in WINNER_ORDER:
            idx = np.flatnonzero(winner == w)
            if idx.size == 0:
                continue
            stems_x = np.column_stack([pos[idx], pos[idx], np.full(idx.size, np.nan)]).ravel()
            stems_y = np.column_stack([np.zeros(idx.size), y[idx],
                                       np.full(idx.size, np.nan)]).ravel()
            fig.add_trace(go.Scatter(
                x=stems_x, y=stems_y, mode="lines", line=dict(color=WINNER_COLORS[w], width=1),
                hoverinfo="skip", showlegend=False, legendgroup=w, name=f"{names[w]} stems",
            ), row=row, col=1)
            fig.add_trace(go.Scatter(
                x=pos[idx], y=y[idx], mode="markers", legendgroup=w, showlegend=row == 1,
                name=f"{names[w]}: {idx.size}",
                marker=dict(symbol=WINNER_SYMBOLS[w], size=5 if big else 8,
                            color=WINNER_COLORS[w],
                            line=dict(width=1, color=WINNER_COLORS[w]) if w == "biased"
                            else dict(width=0.5, color="white")),
                customdata=np.column_stack([topic[idx], np.full(idx.size, w)]),
                hovertemplate=(f"topic %{{customdata[0]}}<br>\u0394 {m} (A \u2212 B, oriented) = "
                               f"%{{y:+.4f}}<extra>{names[w]}</extra>"),
            ), row=row, col=1)
        fig.add_hline(y=0, line=dict(color="#555", width=1), row=row, col=1)
        fig.update_yaxes(title_text=f"\u0394 {short(m, 22)}", zeroline=False, row=row, col=1)
    # block separators and counts (above the first row, clear of the markers)
    counts = {w: int((winner == w).sum()) for w in WINNER_ORDER}
    start = 0
    for w in WINNER_ORDER:
        c = counts[w]
        if c == 0:
            continue
        if start > 0:
            fig.add_vline(x=start - 0.5, line=dict(color="#777", dash="dot", width=1))
        fig.add_annotation(
            x=start + (c - 1) / 2, y=1.0, xref="x", yref="paper", yanchor="bottom",
            showarrow=False, text=f"{_WINNER_NAMES[w].split(' (')[0]}: {c}" if c / max(n, 1) > 0.08
            else str(c), font=dict(size=MIN_FONT, color=WINNER_COLORS[w]))
        start += c
    if selected_topic is not None and (topic == str(selected_topic)).any():
        i = int(np.flatnonzero(topic == str(selected_topic))[0])
        fig.add_vline(x=pos[i], line=dict(color="#000", width=1.5))
    height = 200 + 230 * k
    rows = legend_rows([t.name for t in fig.data if t.showlegend])
    layout(fig, title or f"Per topic: A \u2212 B on each metric ({n} topics; > 0: A better)",
           height=height, legend_below=True)
    fig.update_layout(margin=dict(l=80, r=20, t=90,
                                  b=max(110, below_legend_margin(height, 90, -0.12, rows))),
                      legend=dict(y=-0.12),
                      clickmode="event+select", dragmode="zoom", hovermode="closest")
    fig.update_xaxes(showticklabels=False, showgrid=False, range=[-1, max(n, 1)])
    fig.update_xaxes(title_text="topics by unanimous winner, then mean \u0394", row=k, col=1)
    return fig
