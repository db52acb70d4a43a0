"""Charts of one pair of systems: F_alpha curves with crossings, topics by unanimous winner, the
per-topic scatter, contingency tables."""

from __future__ import annotations

from collections.abc import Sequence

import numpy as np
import pandas as pd
import plotly.graph_objects as go

from dashboard.figures.style import (
    COLOR_A,
    COLOR_B,
    COLOR_TIED,
    COLOR_BIASED,
    WINNER_COLORS,
    SEQUENTIAL,
    short,
    layout,
    f_label,
    alpha_label,
    role_color,
)

__all__ = [
    "pair_curves_figure",
    "uir_counts_figure",
    "pair_scatter_figure",
    "contingency_figure",
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
        Alphas where the order flips (``metrics.combine.crossings``).
    """
    alphas = curves.index.to_numpy(dtype=float)
    ya, yb = curves[a].to_numpy(dtype=float), curves[b].to_numpy(dtype=float)
    fig = go.Figure()
    bounds = [0.0, *sorted(float(c) for c in crossings), 1.0]
    for lo, hi in zip(bounds[:-1], bounds[1:]):
        mid = 0.5 * (lo + hi)
        k = int(np.argmin(np.abs(alphas - mid)))
        if np.isnan(ya[k]) or np.isnan(yb[k]) or ya[k] == yb[k]:
            continue
        leader = "A" if ya[k] > yb[k] else "B"
        fig.add_vrect(x0=lo, x1=hi, fillcolor=role_color(leader), opacity=0.08, line_width=0,
                      layer="below")
        fig.add_annotation(x=mid, y=1.0, yref="paper", yanchor="bottom", showarrow=False,
                           text=f"{leader} ahead", font=dict(size=11, color=role_color(leader)))
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
    fig.update_xaxes(title_text=alpha_label(precision), range=[0, 1])
    fig.update_yaxes(title_text=f_label(precision, recall, average))
    return fig


def uir_counts_figure(n_a_better: int, n_tied: int, n_biased: int, n_b_better: int,
                      a: str, b: str, title: str | None = None) -> go.Figure:
    """One stacked bar: topics where A >=forall B, tied, metric-biased, B >=forall A."""
    parts = [
        ("A \u2265\u2200 B", n_a_better, COLOR_A, f"{a} improves {b} on every metric"),
        ("tied", n_tied, COLOR_TIED, "equal on every metric"),
        ("metric-biased", n_biased, COLOR_BIASED, "the metrics disagree"),
        ("B \u2265\u2200 A", n_b_better, COLOR_B, f"{b} improves {a} on every metric"),
    ]
    total = max(1, sum(p[1] for p in parts))
    fig = go.Figure()
    for label, n, color, what in parts:
        fig.add_trace(go.Bar(
            y=["topics"], x=[n], orientation="h", name=f"{label}: {n}", marker_color=color,
            text=[f"{label} {n}" if n / total > 0.08 else str(n) if n else ""],
            textposition="inside", insidetextanchor="middle",
            hovertemplate=f"{label}: {n} topics<br>{what}<extra></extra>",
        ))
    layout(fig, title, height=170)
    fig.update_layout(barmode="stack", margin=dict(l=10, r=10, t=40 if title else 10, b=30),
                      showlegend=False, uniformtext=dict(minsize=10, mode="hide"))
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
) -> go.Figure:
    """Per-topic precision-like vs recall-like metric of a pair, each topic's two points linked.

    Parameters
    ----------
    topics : DataFrame
        One row per topic: ``topic, a_precision, a_recall, b_precision, b_recall, winner``
        (winner in ``a, b, tied, biased``), as :func:`dashboard.data.pair_topic_frame` shapes the
        output of ``metrics.analyses.pair_topics``.
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
                      dash="dot" if w == "biased" else "solid"),
            hoverinfo="skip", legendgroup=w,
        ))
    for role, who, sym, color in (("A", "a", "circle", COLOR_A), ("B", "b", "diamond", COLOR_B)):
        name = a if role == "A" else b
        fig.add_trace(go.Scatter(
            x=topics[f"{who}_recall"], y=topics[f"{who}_precision"], mode="markers",
            name=f"{role}: {short(name, 30)}",
            marker=dict(symbol=sym, size=9, color=color, line=dict(color="white", width=1)),
            customdata=np.stack([topics["topic"].astype(str), topics["winner"].astype(str)], axis=1),
            hovertemplate=(f"topic %{{customdata[0]}}<br>{name}<br>{precision}=%{{y:.3f}}"
                           f"<br>{recall}=%{{x:.3f}}<br>winner: %{{customdata[1]}}<extra>{role}</extra>"),
        ))
    if selected_topic is not None and (topics["topic"].astype(str) == str(selected_topic)).any():
        r = topics[topics["topic"].astype(str) == str(selected_topic)].iloc[0]
        fig.add_trace(go.Scatter(
            x=[r["a_recall"], r["b_recall"]], y=[r["a_precision"], r["b_precision"]],
            mode="markers", name=f"selected: {short(selected_topic, 24)}",
            marker=dict(size=18, color="rgba(0,0,0,0)", line=dict(color="#000", width=2)),
            hoverinfo="skip",
        ))
    layout(fig, title or "Per topic: which system wins on both metrics?", height=540)
    fig.update_layout(legend=dict(orientation="v", y=1, yanchor="top", x=1.02, xanchor="left"),
                      margin=dict(l=70, r=10, t=60, b=60), clickmode="event+select",
                      dragmode="zoom")

    def _range(cols):
        v = topics[cols].to_numpy(dtype=float)
        v = v[np.isfinite(v)]
        if v.size == 0:
            return [-0.02, 1.02]
        lo, hi = float(v.min()), float(v.max())
        pad = max(0.03, 0.06 * (hi - lo))
        return [max(-0.02, lo - pad), min(1.02, hi + pad)]

    fig.update_xaxes(title_text=f"{recall} (recall-like)", range=_range(["a_recall", "b_recall"]))
    fig.update_yaxes(title_text=f"{precision} (precision-like)",
                     range=_range(["a_precision", "b_precision"]))
    return fig


def contingency_figure(table: pd.DataFrame, system: str, topic: str, max_rows: int = 20,
                       max_cols: int = 24, role: str | None = None) -> go.Figure:
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
    ylab = [short(x, 30) for x in t.index.astype(str)]
    xlab = [short(x, 18) for x in t.columns.astype(str)]
    fig = go.Figure(go.Heatmap(
        z=z, x=list(range(len(xlab))), y=list(range(len(ylab))), text=text,
        texttemplate="%{text}", textfont=dict(size=10), colorscale=SEQUENTIAL, showscale=False,
        zmin=0, zmax=zmax,
        customdata=np.array([[f"{r} \u00d7 {c}" for c in t.columns.astype(str)]
                             for r in t.index.astype(str)]),
        hovertemplate="class \u00d7 cluster: %{customdata}<br>items: %{z}<extra></extra>",
    ))
    head = f"{role}: " if role else ""
    layout(fig, f"{head}{system} on {topic} "
                 f"({n_rows} gold classes \u00d7 {n_cols} clusters)",
            height=max(320, 22 * len(ylab) + 190))
    fig.update_layout(margin=dict(l=210, r=20, t=60, b=130))
    fig.update_xaxes(title_text="system clusters", tickvals=list(range(len(xlab))),
                     ticktext=xlab, tickangle=-45, tickfont=dict(size=10), showgrid=False)
    fig.update_yaxes(title_text="gold classes", tickvals=list(range(len(ylab))), ticktext=ylab,
                     autorange="reversed", tickfont=dict(size=10), showgrid=False)
    if role:
        fig.update_layout(title_font_color=role_color(role))
    return fig


# ------------------------------------------------------------------------------------------------
# UIR analysis
# ------------------------------------------------------------------------------------------------
