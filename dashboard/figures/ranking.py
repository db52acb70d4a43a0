"""Pure Plotly builder of the Hasse diagram of the ranking with tie groups
(:mod:`metrics.tie_ranking`; docs/rankings.md).

No Streamlit and no computation of the order here: the builder draws the table and the edges
:class:`metrics.tie_ranking.TieRanking` computed. One row of nodes per tie group (group 1 on
top), systems of a group left to right in the table's order (campaign F_alpha), one line per
covering pair (a directly above b with nothing between), systems of a merged UIR cycle marked.
"""

from __future__ import annotations

import numpy as np
import pandas as pd
import plotly.graph_objects as go

from dashboard.figures import OKABE_ITO, short

__all__ = ["hasse_figure"]

COLOR_NODE = OKABE_ITO["blue"]
COLOR_CYCLE = OKABE_ITO["purple"]
COLOR_EDGE = "#9A9A9A"
#: Groups wider than this get no text labels (hover only), so labels never pile up.
MAX_LABELLED = 8


def _positions(table: pd.DataFrame) -> tuple[np.ndarray, np.ndarray]:
    """x (centred within the group, spaced by 1) and y (= -group) of every row of ``table``."""
    group = table["group"].to_numpy()
    order = np.arange(len(table))
    x = np.zeros(len(table))
    for g in np.unique(group):  # one iteration per group, not per system
        idx = order[group == g]
        x[idx] = np.arange(idx.size) - (idx.size - 1) / 2
    return x, -group.astype(np.float64)


def hasse_figure(table: pd.DataFrame, edges: pd.DataFrame, title: str | None = None,
                 score_label: str = "F") -> go.Figure:
    """Hasse diagram of the order of robust improvements.

    Parameters
    ----------
    table : DataFrame
        :meth:`metrics.tie_ranking.TieRanking.to_dataframe`: ``system, rank_low, rank_high,
        group, block`` and optionally ``score``; rows in display order.
    edges : DataFrame
        :attr:`metrics.tie_ranking.TieRanking.hasse`: ``upper, lower``.
    title : str, optional
    score_label : str
        Name of ``score`` in the hover text.

    Returns
    -------
    go.Figure
        Trace 0: the edges (one line per covering pair, ``None``-separated); trace 1: the
        systems (one marker each, ``customdata`` = system, rank_low, rank_high, group).
    """
    x, y = _positions(table)
    pos = {s: i for i, s in enumerate(table["system"])}
    iu = edges["upper"].map(pos).to_numpy(dtype=np.int64)
    il = edges["lower"].map(pos).to_numpy(dtype=np.int64)
    ex = np.column_stack([x[iu], x[il], np.full(iu.size, np.nan)]).ravel()
    ey = np.column_stack([y[iu], y[il], np.full(iu.size, np.nan)]).ravel()
    fig = go.Figure()
    fig.add_trace(go.Scatter(x=ex, y=ey, mode="lines", name="robust improvement",
                             line=dict(color=COLOR_EDGE, width=1), hoverinfo="skip",
                             connectgaps=False))
    block = table["block"].to_numpy() if "block" in table else np.arange(len(table))
    sizes = pd.Series(block).map(pd.Series(block).value_counts()).to_numpy()
    in_cycle = sizes > 1
    group_size = table.groupby("group")["system"].transform("size").to_numpy()
    labels = [short(s, 16) if n <= MAX_LABELLED else "" for s, n in zip(table["system"], group_size)]
    score = table["score"].to_numpy(dtype=np.float64) if "score" in table else np.full(len(table), np.nan)
    interval = [f"{lo}" if lo == hi else f"{lo}\u2013{hi}"
                for lo, hi in zip(table["rank_low"], table["rank_high"])]
    hover = [f"<b>{s}</b><br>group {g}, rank {iv}" + (f"<br>{score_label} {v:.4f}" if v == v else "")
             + ("<br>in a UIR cycle (tied)" if c else "")
             for s, g, iv, v, c in zip(table["system"], table["group"], interval, score, in_cycle)]
    fig.add_trace(go.Scatter(
        x=x, y=y, mode="markers+text", name="system", text=labels,
        textposition=["top center" if i % 2 == 0 else "bottom center" for i in range(len(x))],
        marker=dict(size=12, color=np.where(in_cycle, COLOR_CYCLE, COLOR_NODE),
                    symbol=np.where(in_cycle, "diamond", "circle"), line=dict(color="white", width=1)),
        customdata=np.column_stack([table["system"], table["rank_low"], table["rank_high"],
                                    table["group"]]),
        hovertext=hover, hoverinfo="text", textfont=dict(size=11)))
    n_groups = int(table["group"].max()) if len(table) else 1
    fig.update_layout(
        title=dict(text=title, x=0, xanchor="left") if title else None,
        height=max(320, 90 * n_groups + 120), showlegend=False,
        margin=dict(l=70, r=30, t=60 if title else 30, b=40),
        xaxis=dict(visible=False, zeroline=False),
        yaxis=dict(title="tie group", tickmode="array", tickvals=-np.arange(1, n_groups + 1),
                   ticktext=[str(g) for g in range(1, n_groups + 1)], zeroline=False,
                   range=[-n_groups - 0.6, -0.4]),
    )
    return fig
