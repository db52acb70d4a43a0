"""The Hasse-diagram builder (dashboard/figures/ranking.py) on a hand-made order with a cycle."""

from __future__ import annotations

import numpy as np
import pandas as pd

from dashboard.figures.ranking import COLOR_CYCLE, COLOR_NODE, REF_PLOT_PX, hasse_figure
from metrics.comparison.tie_ranking import tie_ranking


def _ranking():
    # A -> B -> C -> A (a UIR cycle, one tied block) above D; E above D; F alone
    edges = [("A", "B"), ("B", "C"), ("C", "A"), ("C", "D"), ("E", "D")]
    rows = [(a, b, 0.5, "concordant") for a, b in edges]
    rows += [(b, a, -0.5, "worsening") for a, b in edges]
    pairs = pd.DataFrame(rows, columns=["system_a", "system_b", "uir", "pair_class"])
    return tie_ranking(pairs, list("ABCDEF"), score=[0.6, 0.5, 0.4, 0.3, 0.7, 0.2])


def test_nodes_edges_and_layers():
    r = _ranking()
    table = r.to_dataframe()
    fig = hasse_figure(table, r.hasse, title="order")
    edges, nodes = fig.data
    assert len(nodes.x) == 6
    pos = {s: (x, y) for s, x, y in zip(nodes.customdata[:, 0], nodes.x, nodes.y)}
    # group 1 on top (y = -1): A, B, C, E, F; D in group 2
    assert {s for s, (_, y) in pos.items() if y == -1} == set("ABCEF") and pos["D"][1] == -2
    # covering pairs: A, B, C (the block) and E over D -> 4 segments, None-separated
    ex, ey = np.asarray(edges.x, dtype=float), np.asarray(edges.y, dtype=float)
    assert ex.size == 3 * 4 and np.isnan(ex[2::3]).all()
    segs = {(round(ex[i], 6), ey[i], round(ex[i + 1], 6), ey[i + 1]) for i in range(0, ex.size, 3)}
    want = {(round(pos[u][0], 6), pos[u][1], round(pos[l][0], 6), pos[l][1])
            for u, l in r.hasse.itertuples(index=False)}  # noqa: E741 - u, l: upper, lower
    assert segs == want
    assert all(y0 > y1 for _, y0, _, y1 in segs)  # every edge goes down
    # cycle members marked
    colors = dict(zip(nodes.customdata[:, 0], nodes.marker.color))
    assert colors["A"] == COLOR_CYCLE and colors["D"] == COLOR_NODE and colors["E"] == COLOR_NODE
    assert "in a UIR cycle" in nodes.hovertext[list(nodes.customdata[:, 0]).index("B")]
    assert fig.layout.title.text == "order"


def test_group_order_follows_the_table_and_x_is_centred():
    r = _ranking()
    table = r.to_dataframe()
    nodes = hasse_figure(table, r.hasse).data[1]
    top = [s for s, y in zip(nodes.customdata[:, 0], nodes.y) if y == -1]
    assert top == ["E", "A", "B", "C", "F"]  # by score within the group
    xs = [x for x, y in zip(nodes.x, nodes.y) if y == -1]
    # evenly spread over the reference width, centred: slot = REF_PLOT_PX / 5
    slot = REF_PLOT_PX / 5
    assert np.allclose(xs, [-2 * slot, -slot, 0, slot, 2 * slot])


def test_empty_order_one_row():
    pairs = pd.DataFrame({"system_a": ["a", "b"], "system_b": ["b", "a"], "uir": [0.1, -0.1],
                          "pair_class": ["none", "none"]})
    r = tie_ranking(pairs)
    fig = hasse_figure(r.to_dataframe(), r.hasse)
    assert len(fig.data[0].x) == 0 and set(fig.data[1].y) == {-1}
