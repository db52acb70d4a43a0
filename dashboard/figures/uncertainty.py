"""Charts of how sure a ranking is: rank intervals as bars, and the rankings under each
aggregation rule (docs/uncertainty.md). Numbers come from ``metrics.analyses.uncertainty`` and
``metrics.analyses.aggregation``; nothing is computed here."""

from __future__ import annotations

from collections.abc import Mapping

import numpy as np
import pandas as pd
import plotly.graph_objects as go

from dashboard.figures.style import (
    COLOR_A,
    COLOR_B,
    COLOR_OTHER,
    LABEL_FONT,
    OKABE_ITO,
    layout,
    short,
)

__all__ = ["rank_intervals_figure", "aggregation_figure", "chart_systems", "RULE_LABELS"]

#: How each rule of ``metrics.analyses.aggregation.RULES`` is named on the chart.
RULE_LABELS = {"f_alpha": "F\u03b1", "f_alpha_0": "F\u03b1 \u03b1=0",
               "f_alpha_1": "F\u03b1 \u03b1=1", "mean": "mean", "borda": "Borda",
               "median_rank": "median rank", "min_metric": "worst metric"}


def rank_intervals_figure(systems: pd.DataFrame, top: int | None = 40,
                          highlight: Mapping[str, str] | None = None,
                          title: str | None = None) -> go.Figure:
    """Horizontal bars of each system's rank confidence set, with its point rank.

    Parameters
    ----------
    systems : DataFrame
        ``system, rank, rank_ci_low, rank_ci_high`` and optionally ``rank_low, rank_high`` (the
        partial order's interval, drawn as a thin grey bar under the confidence set).
    top : int, optional
        The best ``top`` systems by point rank (and A, B).
    """
    highlight = dict(highlight or {})
    df = systems.sort_values(["rank", "system"], kind="stable")
    if top is not None and len(df) > top:
        keep = (np.arange(len(df)) < top) | df["system"].isin(list(highlight)).to_numpy()
        df = df[keep]
    names = df["system"].astype(str).tolist()
    labels = [short(s, 30) for s in names]
    y = np.arange(len(df))[::-1]
    fig = go.Figure()
    if "rank_low" in df:
        fig.add_trace(go.Bar(
            y=y, x=df["rank_high"] - df["rank_low"] + 0.9, base=df["rank_low"] - 0.45,
            orientation="h", width=0.25, marker_color=COLOR_OTHER, name="partial order's interval",
            hovertemplate="%{customdata}: ranks %{base:.0f}\u2013%{x:.0f}<extra></extra>",
            customdata=names))
    color = [COLOR_A if highlight.get(s) == "A" else COLOR_B if highlight.get(s) == "B"
             else OKABE_ITO["sky"] for s in names]
    fig.add_trace(go.Bar(
        y=y, x=df["rank_ci_high"] - df["rank_ci_low"] + 0.9, base=df["rank_ci_low"] - 0.45,
        orientation="h", width=0.6, marker_color=color, name="rank confidence set",
        customdata=np.column_stack([names, df["rank_ci_low"], df["rank_ci_high"]]),
        hovertemplate="%{customdata[0]}: ranks %{customdata[1]}\u2013%{customdata[2]}"
                      "<extra></extra>"))
    fig.add_trace(go.Scatter(
        y=y, x=df["rank"], mode="markers", name="rank by F\u03b1",
        marker=dict(symbol="line-ns-open", size=14, color="#222", line_width=2),
        customdata=names, hovertemplate="%{customdata}: rank %{x}<extra></extra>"))
    fig.update_yaxes(tickvals=y, ticktext=labels, tickfont=LABEL_FONT, automargin=True)
    fig.update_xaxes(title="rank (1 = best)", rangemode="tozero",
                     **_rank_ticks(df["rank_ci_high"].max()))
    return layout(fig, title, height=max(260, 22 * len(df) + 120), barmode="overlay")


def chart_systems(ranks: pd.DataFrame, top: int | None = 25,
                  highlight: Mapping[str, str] | None = None) -> list[str]:
    """The systems :func:`aggregation_figure` draws: the best ``top`` by the first rule of
    :data:`RULE_LABELS` in ``ranks`` (every system with ``top=None``) and those of
    ``highlight``."""
    rules = [r for r in RULE_LABELS if f"rank_{r}" in ranks]
    df = ranks.sort_values(f"rank_{rules[0]}", kind="stable")
    if top is not None and len(df) > top:
        keep = (np.arange(len(df)) < top) | df["system"].isin(list(highlight or {})).to_numpy()
        df = df[keep]
    return df["system"].astype(str).tolist()


def _rank_ticks(worst: float) -> dict:
    """Axis settings that tick a rank axis at whole ranks only: up to rank 12 every rank
    (Plotly would tick a 3-system axis at 1.5 and 2.5), beyond it Plotly's own steps, which are
    whole there."""
    return dict(tick0=1, dtick=1) if worst <= 12 else {}


def aggregation_figure(ranks: pd.DataFrame, top: int | None = 25,
                       highlight: Mapping[str, str] | None = None,
                       title: str | None = None) -> go.Figure:
    """One line per system across the aggregation rules (x), its rank under each (y, 1 on top);
    Pareto-optimal systems (on the means) drawn with a diamond.

    Parameters
    ----------
    ranks : DataFrame
        ``aggregation.csv``: ``system``, ``rank_<rule>`` for the rules of :data:`RULE_LABELS`,
        ``pareto_means``.
    top : int, optional
        The best ``top`` systems by the first rule (and A, B).
    """
    highlight = dict(highlight or {})
    rules = [r for r in RULE_LABELS if f"rank_{r}" in ranks]
    df = ranks[ranks["system"].astype(str).isin(chart_systems(ranks, top, highlight))].sort_values(
        f"rank_{rules[0]}", kind="stable")
    x = [RULE_LABELS[r] for r in rules]
    names = df["system"].astype(str).to_numpy()
    ranks_ = df[[f"rank_{r}" for r in rules]].to_numpy(dtype=float)
    pareto = (df["pareto_means"].fillna(False).to_numpy(dtype=bool) if "pareto_means" in df
              else np.zeros(len(df), dtype=bool))
    hover = [f"{s}{' (Pareto-optimal)' if p else ''}" for s, p in zip(names, pareto, strict=True)]
    fig = go.Figure()
    # the other systems in one grey trace (NaN between two systems' lines), A and B on top
    plain = np.flatnonzero([s not in highlight for s in names])
    if plain.size:
        n, k = plain.size, len(rules)
        ys = np.column_stack([ranks_[plain], np.full(n, np.nan)]).ravel()
        gap = np.full((n, 1), None, dtype=object)
        fig.add_trace(go.Scatter(
            x=np.tile([*x, None], n), y=ys, mode="lines+markers", name="other systems",
            showlegend=False, line=dict(color=COLOR_OTHER, width=1.5),
            marker=dict(symbol=np.repeat(np.where(pareto[plain], "diamond", "circle"), k + 1),
                        size=np.repeat(np.where(pareto[plain], 8, 5), k + 1)),
            text=np.hstack([np.repeat(np.asarray(hover, dtype=object)[plain, None], k, axis=1),
                            gap]).ravel(),
            hovertemplate="%{text}<br>%{x}: rank %{y}<extra></extra>"))
    for i in np.flatnonzero([s in highlight for s in names]):
        role = highlight[names[i]]
        fig.add_trace(go.Scatter(
            x=x, y=ranks_[i], mode="lines+markers", name=short(names[i], 24),
            line=dict(color=COLOR_A if role == "A" else COLOR_B if role == "B" else COLOR_OTHER,
                      width=3),
            marker=dict(symbol="diamond" if pareto[i] else "circle", size=8 if pareto[i] else 5),
            hovertemplate=f"{hover[i]}<br>%{{x}}: rank %{{y}}<extra></extra>"))
    fig.update_yaxes(autorange="reversed", title="rank (1 = best)",
                     **_rank_ticks(np.nanmax(ranks_) if ranks_.size else 1))
    fig.update_xaxes(title="aggregation rule")
    return layout(fig, title, height=460, legend_below=True)
