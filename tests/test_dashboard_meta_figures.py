"""The Meta-evaluation page's builders: Figure 1's panels draw the points they are given, the
Robustness-against-Strictness labels of neighbours sit on opposite sides, the HTML tables escape
every name and write booleans as yes / no."""

from __future__ import annotations

import numpy as np
import pandas as pd

from dashboard.figures.meta import figure1_figure, robustness_strictness_figure
from dashboard.render.html_tables import html_table, verdict_table


def test_figure1_panels_are_the_points():
    points = pd.DataFrame({"system": ["s1", "s2"] * 2, "topic": ["t"] * 4,
                           "measure": ["accuracy"] * 2 + ["F"] * 2,
                           "value": [0.1, 0.2, 0.3, 0.4], "rs": [0.5, 0.6, 0.5, 0.6]})
    fig = figure1_figure(points, ["accuracy", "F"])
    assert [list(t.x) for t in fig.data] == [[0.1, 0.2], [0.3, 0.4]]
    assert [list(t.y) for t in fig.data] == [[0.5, 0.6], [0.5, 0.6]]


def test_neighbour_labels_alternate():
    t = pd.DataFrame({"metric": list("abcd"), "robustness": [0.3] * 4,
                      "per-topic@1": [-0.84, -0.55, -0.83, np.nan]})
    pos = robustness_strictness_figure(t, "per-topic@1").data[0].textposition
    assert pos[0] != pos[2]  # a and c are neighbours in Strictness


def test_html_tables_escape_names():
    out = html_table(pd.DataFrame({"metric": ["<b>x</b>"], "holds": [True], "v": [-0.0]}))
    assert "<b>x</b>" not in out and "&lt;b&gt;x&lt;/b&gt;" in out
    assert ">yes<" in out and ">0.000<" in out and "-0.000" not in out
    wide = verdict_table(pd.DataFrame({"metric": ["m", "m"], "constraint": ["c_1", "c_2"],
                                       "holds": [True, False]}))
    assert list(wide.columns) == ["measure", "c 1", "c 2"]


def test_coinciding_measures_share_one_label():
    # with three systems many measures sit at one point: one label "first +k", all in the hover
    t = pd.DataFrame({"metric": ["p", "r", "f", "q"], "robustness": [1.0, 1.0, 1.0, 0.3],
                      "per-topic@1": [-1.0, -1.0, -1.0, -1.0]})
    tr = robustness_strictness_figure(t, "per-topic@1").data[0]
    assert list(tr.text) == ["p +2", "", "", "q"]
    assert list(tr.customdata) == ["p, r, f"] * 3 + ["q"]
