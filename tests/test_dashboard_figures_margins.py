"""Chart margins computed in Python (``dashboard.figures.margins``): they hold the labels they are
sized for, so that the browser lays a chart out once (docs/dashboard-in-use.md, "Timings"):
the estimate of a label's width is never below the width the fallback font gives it, the
left margin of a labelled chart grows with its longest label, and a legend below the plot
fits in the bottom margin that is solved for it."""

from __future__ import annotations

from pathlib import Path

import numpy as np
import pandas as pd
import pytest

from dashboard.figures import contingency_figure, uir_heatmap_figure
from dashboard.figures import testbeds as TB
from dashboard.figures.margins import (
    LEGEND_ROW_PX,
    axis_margin,
    below_legend_margin,
    colorbar_margin,
    legend_rows,
    text_px,
)
from dashboard.figures.style import MIN_FONT, short

DEJAVU = Path("/usr/share/fonts/truetype/dejavu/DejaVuSans.ttf")
NAMES = ["SVM_terms_jaccard_HAC_100%", "best_replab", "t_twitter_LDA", "MMMWWW%%%@@",
         "iiil.,:;|", "RL2013D01E001", "\u03b1 \u2265 0.25 \u2026", "Fα(P, R), macro"]


def test_text_px_orders_labels_by_their_characters():
    assert text_px([], 12) == 0.0
    assert text_px(["W" * 10], 12) > text_px(["i" * 10], 12) > 0
    assert text_px(["abc" * 4], 12) == pytest.approx(2 * text_px(["abc" * 2], 12))
    assert text_px(["abcdef"], 24) == pytest.approx(2 * text_px(["abcdef"], 12))
    # the widest label counts; tags are not text, and bold is wider
    assert text_px(["ab", "abcdef", "a"], 12) == text_px(["abcdef"], 12)
    assert text_px(["<span style='color:red'>abc</span>"], 12) == text_px(["abc"], 12)
    assert text_px(["<b>abc</b>"], 12) > text_px(["abc"], 12)


@pytest.mark.skipif(not DEJAVU.exists(), reason="DejaVu Sans is not installed")
def test_text_px_is_never_below_the_fallback_font():
    font = pytest.importorskip("PIL.ImageFont").truetype(str(DEJAVU), 120)
    rng = np.random.default_rng(5)
    printable = [chr(c) for c in range(32, 127) if chr(c) != "<"]  # no tags
    labels = NAMES + ["".join(rng.choice(printable, size=int(n)))
                      for n in rng.integers(1, 40, size=200)]
    for label in labels:
        # (within half a pixel: the font is hinted a little differently at each size)
        assert text_px([label], 12) >= font.getlength(label) / 10 - 0.5, label


def test_the_uir_matrix_left_margin_grows_with_the_longest_name():
    def left(names):
        z = np.zeros((len(names), len(names)))
        return uir_heatmap_figure(names, z, 0.25).layout.margin.l

    short_names = [f"s{k}" for k in range(8)]
    long_names = [f"SVM_terms_jaccard_{k}" for k in range(8)]
    assert left(long_names) > left(short_names)
    assert left(long_names) >= text_px([f"8. {long_names[-1]}"], MIN_FONT) + 30
    # names are cut in the middle to 24 characters: a longer name needs no wider margin
    longer = [f"{n}_with_a_much_longer_tail_{k}" for k, n in enumerate(long_names)]
    assert left(longer) == pytest.approx(left([short(n, 24) for n in longer]))
    # A's row label is bold: its margin is wider than the same names without roles
    z = np.zeros((8, 8))
    roles = uir_heatmap_figure(long_names, z, 0.25, highlight={long_names[0]: "A"})
    assert roles.layout.margin.l > left(long_names)


def test_the_uir_matrix_right_margin_holds_its_colour_bar():
    fig = uir_heatmap_figure(["a", "b"], np.zeros((2, 2)), 0.25)
    bar = fig.data[0].colorbar
    # the bar, its tick labels ("-0.5" the widest) and its title turned along it
    assert fig.layout.margin.r >= bar.thickness + text_px(["\u22120.5"], 13) + 13


def test_the_test_bed_and_contingency_margins_grow_with_their_labels():
    def ranks(names):
        return pd.DataFrame(np.arange(len(names) * 2).reshape(-1, 2) % len(names) + 1,
                            index=names, columns=["D01", "D02"])

    short_fig = TB.testbed_rank_figure(ranks(["a", "b", "c"]))
    long_fig = TB.testbed_rank_figure(ranks(["SVM_terms_jaccard_HAC_1", "b", "c"]))
    assert long_fig.layout.margin.l > short_fig.layout.margin.l
    assert long_fig.layout.margin.l >= text_px(["SVM_terms_jaccard_HAC_1"], 12)
    table = pd.DataFrame([[3, 1], [0, 2]], index=["a class with a long name here", "b"],
                         columns=["c1", "c2"])
    fig = contingency_figure(table, "sys", "topic")
    assert fig.layout.margin.l >= text_px([short("a class with a long name here", 24)], 12)


def test_axis_and_colorbar_margins_add_the_title():
    assert axis_margin(["abc"], 12, title=True) > axis_margin(["abc"], 12, title=False)
    assert axis_margin(["abcdef"], 12) > axis_margin(["abc"], 12)
    assert colorbar_margin(["100"], 14) > colorbar_margin(["100"], 14, title=False)
    assert colorbar_margin(["10000"], 14) > colorbar_margin(["100"], 14)


def test_legend_rows_wrap_as_a_grid():
    assert legend_rows([]) == 1
    assert legend_rows(["a", "b", "c"], width=600) == 1
    wide = ["x" * 30] * 5  # about 250 px each at 13 px: two columns in 600 px, three rows
    each = text_px(wide[:1], 13)
    assert 2 * each < 600 < 3 * each
    assert legend_rows(wide, width=600) == 3
    assert legend_rows(wide, width=10) == 5


@pytest.mark.parametrize("height,top,y,rows", [(480, 60, -0.2, 1), (480, 60, -0.2, 3),
                                                (660, 90, -0.12, 2), (620, 60, -0.14, 3),
                                                (1000, 80, -0.01, 3)])
def test_below_legend_margin_holds_the_legend(height, top, y, rows):
    b = below_legend_margin(height, top, y, rows)
    plot = height - top - b
    # the legend hangs -y of the plot area below it, and its rows fit above the chart's edge
    assert -y * plot + rows * LEGEND_ROW_PX <= b
    assert below_legend_margin(height, top, y, rows + 1) > b


def test_the_type_level_charts_hold_their_names_and_colour_bars():
    from dashboard.figures.typelevel import mapping_figure, spearman_figure  # noqa: PLC0415

    def spearman(names):
        n = len(names)
        return spearman_figure(pd.DataFrame(np.eye(n), index=names, columns=names),
                               {names[0]: True})

    short_fig, long_fig = spearman(["v", "f1"]), spearman(["bcubed_precision", "f1"])
    assert long_fig.layout.margin.l > short_fig.layout.margin.l
    assert long_fig.layout.margin.l >= text_px(["1. bcubed_precision *"], 13)
    assert long_fig.layout.margin.r >= 30 + text_px(["\u22120.5"], 13)

    def mapping(tags):
        return mapping_figure(pd.DataFrame({
            "cluster": list(range(len(tags))), "tag": tags, "cluster_types": [3] * len(tags),
            "cluster_tokens": [5] * len(tags), "shared_types": [2] * len(tags)}))

    # tick labels turned by 60 degrees: a longer tag needs a deeper bottom margin
    assert (mapping(["NOUN", "a_much_longer_gold_tag_name"]).layout.margin.b
            > mapping(["NOUN", "VERB"]).layout.margin.b)
    # the colour bar's two-line title turned along it
    assert mapping(["NOUN"]).layout.margin.r >= 30 + text_px(["0.8"], 13) + 2 * 13
