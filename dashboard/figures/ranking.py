"""Pure Plotly builder of the Hasse diagram of the ranking with tie groups
(:mod:`metrics.comparison.tie_ranking`; docs/rankings.md).

No Streamlit and no computation of the order here: the builder draws the table and the edges
:class:`metrics.comparison.tie_ranking.TieRanking` computed. One row of nodes per tie group (group 1
on
top), systems of a group left to right in the table's order (campaign F_alpha), one line per
covering pair (a directly above b with nothing between), systems of a merged UIR cycle marked.
"""

from __future__ import annotations

import numpy as np
import pandas as pd
import plotly.graph_objects as go

from dashboard.figures.style import CHAR_PX, FONT, MIN_FONT, OKABE_ITO, short

__all__ = ["hasse_figure", "label_lines", "REF_PLOT_PX", "LINE_CHARS", "COLLAPSE_AT",
           "MANY_SYSTEMS"]

COLOR_NODE = OKABE_ITO["blue"]
COLOR_CYCLE = OKABE_ITO["purple"]
COLOR_EDGE = "#9A9A9A"
#: Width in px of the plot area the labels are laid out for: the Leaderboard's full-width chart
#: at a 1024 px screen with the sidebar open (wider screens only spread the labels further).
REF_PLOT_PX = 460
#: Characters per label line; names break at ``_ - . /`` or spaces, at most ``MAX_LINES`` lines.
LINE_CHARS = 12
MAX_LINES = 3
#: A tie group of more systems is drawn as one node ("N systems", the names in the table
#: above the diagram and on hover): 40 dots in a row are a grey mesh at 1024 px.
COLLAPSE_AT = 30
#: Beyond this many systems every tie group of more than ``SMALL_GROUP`` systems is one node:
#: 150 systems drawn one by one are a grey mesh of hundreds of edges.
MANY_SYSTEMS = 60
SMALL_GROUP = 3
#: Height of one label line and the gap kept between two labels, in px.
LINE_PX = 15
LABEL_GAP_PX = 6
#: The label of a node alone in its row sits at its right, on one line of at most this many
#: characters (half the reference width); when every row has one node (a chain, as 150 systems
#: in collapsed groups give), the rows are this many px apart instead of the room for labels
#: above and below: a chain of 14 groups fits a slide's height.
SIDE_CHARS = 30
ALONE_PITCH_PX = 48


def label_lines(name: object, width: int = LINE_CHARS, max_lines: int = MAX_LINES) -> list[str]:
    """``name`` broken into lines of at most ``width`` characters, at ``_ - . /`` or spaces where
    possible; a name that needs more than ``max_lines`` lines is middle-ellipsed first
    (:func:`~dashboard.figures.style.short`), keeping its distinguishing end."""
    s = str(name)
    if len(s) > width * max_lines:
        s = short(s, width * max_lines)
    pieces, cur = [], ""
    for ch in s:  # one label, a few dozen characters
        cur += ch
        if ch in "_-./ ":
            pieces.append(cur)
            cur = ""
    if cur:
        pieces.append(cur)
    lines, line = [], ""
    for piece in pieces:
        while len(piece) > width:  # a piece longer than a line is cut
            if line:
                lines.append(line)
                line = ""
            lines.append(piece[:width])
            piece = piece[width:]
        if len(line) + len(piece) > width:
            lines.append(line)
            line = piece
        else:
            line += piece
    if line:
        lines.append(line)
    if len(lines) > max_lines:  # breaks at separators cost room: hard-wrap instead
        lines = [s[i:i + width] for i in range(0, len(s), width)]
    return lines


def _positions(table: pd.DataFrame) -> tuple[np.ndarray, np.ndarray]:
    """x (the group's systems evenly spread over ``[-REF_PLOT_PX / 2, REF_PLOT_PX / 2]``, in the
    table's order, centred) and y (= -group) of every row of ``table``."""
    group = table["group"].to_numpy()
    order = np.arange(len(table))
    x = np.zeros(len(table))
    for g in np.unique(group):  # one iteration per group, not per system
        idx = order[group == g]
        x[idx] = (np.arange(idx.size) - (idx.size - 1) / 2) * (REF_PLOT_PX / idx.size)
    return x, -group.astype(np.float64)


def _labels(table: pd.DataFrame, x: np.ndarray,
            rows: np.ndarray | None = None) -> tuple[list[str], list[str], int]:
    """Text and position of each node's label, and the most lines any label uses.

    A node alone in its row is labelled at its right, on one line (:data:`SIDE_CHARS`). In a
    row of several, labels alternate above and below their node, so two labels on one side are
    two slots apart.
    A group whose names would still touch at ``REF_PLOT_PX`` is labelled with each system's row
    number in ``table`` (1-based, the ``#`` of the Leaderboard's tie-group table) and, when even
    those would touch, gets none (names on hover). ``rows``: the row number of each node in the
    Leaderboard's table when ``table`` holds nodes, not systems (default: 0, 1, ...)."""
    names = table["system"].astype(str).tolist()
    rows = np.arange(len(names)) if rows is None else rows
    lines = [label_lines(n) for n in names]
    width = np.array([max(len(line) for line in ls) * CHAR_PX for ls in lines])
    group = table["group"].to_numpy()
    text, pos, most = [""] * len(names), ["top center"] * len(names), 0
    for g in np.unique(group):
        idx = np.flatnonzero(group == g)
        if idx.size == 1:  # alone in its row: one line at the node's right, no height needed
            text[idx[0]] = short(names[idx[0]], SIDE_CHARS)
            pos[idx[0]] = "middle right"
            continue
        two_slots = 2 * REF_PLOT_PX / idx.size  # px between two labels on one side
        w = width[idx]
        if idx.size > 2 and ((w[:-2] + w[2:]) / 2 + LABEL_GAP_PX > two_slots).any():
            # the names would touch: the row numbers, if they fit (else hover only)
            digits = len(str(len(names))) * CHAR_PX
            if digits + LABEL_GAP_PX > two_slots:
                continue
            for k, i in enumerate(idx):
                text[i] = str(rows[i] + 1)
                pos[i] = "top center" if k % 2 == 0 else "bottom center"
            most = max(most, 1)
            continue
        for k, i in enumerate(idx):
            text[i] = "<br>".join(lines[i])
            pos[i] = "top center" if k % 2 == 0 else "bottom center"
            most = max(most, len(lines[i]))
    return text, pos, most


def _nodes(table: pd.DataFrame) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """The diagram's nodes: one per system, one per tie group of more than ``COLLAPSE_AT``
    systems (of more than ``SMALL_GROUP`` beyond ``MANY_SYSTEMS`` systems).

    Returns the node of every row of ``table``, the first row of every node (nodes in the
    table's order) and the systems each node stands for."""
    group = table["group"].to_numpy()
    counts = pd.Series(group).map(pd.Series(group).value_counts()).to_numpy()
    limit = SMALL_GROUP if len(table) > MANY_SYSTEMS else COLLAPSE_AT
    key = np.where(counts > limit, -group, np.arange(len(table)))
    _, first, node = np.unique(key, return_index=True, return_inverse=True)
    order = np.argsort(first, kind="stable")
    rank = np.empty_like(order)
    rank[order] = np.arange(order.size)
    node_of = rank[node.ravel()]
    return node_of, first[order], np.bincount(node_of, minlength=order.size)


def hasse_figure(table: pd.DataFrame, edges: pd.DataFrame, title: str | None = None,
                 score_label: str = "F") -> go.Figure:
    """Hasse diagram of the order of robust improvements.

    Parameters
    ----------
    table : DataFrame
        :meth:`metrics.comparison.tie_ranking.TieRanking.to_dataframe`: ``system, rank_low,
        rank_high,
        group, block`` and optionally ``score``; rows in display order.
    edges : DataFrame
        :attr:`metrics.comparison.tie_ranking.TieRanking.hasse`: ``upper, lower``.
    title : str, optional
    score_label : str
        Name of ``score`` in the hover text.

    Returns
    -------
    go.Figure
        Trace 0: the edges (one line per covering pair, ``None``-separated); trace 1: the
        systems (one marker each, ``customdata`` = system, rank_low, rank_high, group). A tie
        group of more than :data:`COLLAPSE_AT` systems is one square node labelled "N systems"
        (its ``customdata`` system is that label), its edges those of its systems.
    """
    node_of, first, size = _nodes(table)
    nodes = table.iloc[first].reset_index(drop=True)
    big = size > 1
    nodes.loc[big, "system"] = [f"{n} systems" for n in size[big]]
    x, y = _positions(nodes)
    pos = {s: i for i, s in enumerate(table["system"])}
    iu = node_of[edges["upper"].map(pos).to_numpy(dtype=np.int64)]
    il = node_of[edges["lower"].map(pos).to_numpy(dtype=np.int64)]
    if iu.size:  # the edges of a collapsed group's systems, once per pair of nodes
        iu, il = np.unique(np.column_stack([iu, il]), axis=0).T
    ex = np.column_stack([x[iu], x[il], np.full(iu.size, np.nan)]).ravel()
    ey = np.column_stack([y[iu], y[il], np.full(iu.size, np.nan)]).ravel()
    fig = go.Figure()
    fig.add_trace(go.Scatter(x=ex, y=ey, mode="lines", name="robust improvement",
                             line=dict(color=COLOR_EDGE, width=1), opacity=0.55,
                             hoverinfo="skip", connectgaps=False))
    block = table["block"].to_numpy() if "block" in table else np.arange(len(table))
    sizes = pd.Series(block).map(pd.Series(block).value_counts()).to_numpy()
    in_cycle = (sizes > 1)[first] & ~big
    labels, textpos, most = _labels(nodes, x, first)
    score = (nodes["score"].to_numpy(dtype=np.float64) if "score" in nodes
             else np.full(len(nodes), np.nan))
    lo_of = table.groupby("group")["rank_low"].min()
    hi_of = table.groupby("group")["rank_high"].max()
    interval = [f"{lo}" if lo == hi else f"{lo}\u2013{hi}"
                for lo, hi in zip(nodes["rank_low"], nodes["rank_high"], strict=True)]
    hover = [(f"<b>{s}</b><br>group {g}, rank {iv}"
              + (f"<br>{score_label} {v:.4f}" if v == v else "")
              + ("<br>in a UIR cycle (tied)" if c else ""))
             if n == 1 else
             (f"<b>tie group {g}: {n} systems</b><br>ranks {lo_of[g]}\u2013{hi_of[g]}<br>"
              "every name in the table above")
             for s, g, iv, v, c, n in zip(nodes["system"], nodes["group"], interval, score,
                                          in_cycle, size, strict=True)]
    sym = np.where(big, "square", np.where(in_cycle, "diamond", "circle"))
    table = nodes
    fig.add_trace(go.Scatter(
        x=x, y=y, mode="markers+text", name="system", text=labels, textposition=textpos,
        marker=dict(size=np.where(big, 22, 12), color=np.where(in_cycle, COLOR_CYCLE, COLOR_NODE),
                    symbol=sym,
                    line=dict(color="white", width=1)),
        customdata=np.column_stack([table["system"], table["rank_low"], table["rank_high"],
                                    table["group"]]),
        hovertext=hover, hoverinfo="text", textfont=dict(size=MIN_FONT), cliponaxis=False))
    n_groups = int(table["group"].max()) if len(table) else 1
    # a group's row holds its labels above and below the nodes: room for both
    pitch = max(90, 2 * most * LINE_PX + 40) if most else ALONE_PITCH_PX
    half = REF_PLOT_PX / 2
    fig.update_layout(
        title=dict(text=title, x=0, xanchor="left", pad=dict(l=12), font=dict(size=16))
        if title else None,
        font=FONT, height=max(320, pitch * n_groups + 100), showlegend=False,
        margin=dict(l=70, r=30, t=60 if title else 30, b=40),
        xaxis=dict(visible=False, zeroline=False, range=[-half - 20, half + 20]),
        yaxis=dict(title="tie group", tickmode="array", tickvals=-np.arange(1, n_groups + 1),
                   ticktext=[str(g) for g in range(1, n_groups + 1)], zeroline=False,
                   range=[-n_groups - 0.5, -0.5]),
    )
    return fig
