"""Every chart ready for a slide: the labels of every figure builder (of every module of
``dashboard.figures``) are >= MIN_FONT px, every category is told apart by shape, dash or pattern
as well as colour, and the Hasse diagram's labels never collide at the width they are laid out
for."""

from __future__ import annotations

import colorsys
import importlib
import inspect
import itertools
import pkgutil

import numpy as np
import pandas as pd
import plotly.graph_objects as go
import pytest

from dashboard import figures as F
from dashboard.figures import meta as M
from dashboard.figures import pr_plane as PR
from dashboard.figures import ranking as R
from dashboard.figures import typelevel as TL
from dashboard.figures import uncertainty as U
from dashboard.figures.style import CHAR_PX, MIN_FONT
from metrics.analyses.per_topic import topic_differences

LONG = [f"SVM_terms_jaccard_HAC_{k}%" for k in (0, 10, 20, 30, 100)]


def _curves() -> pd.DataFrame:
    alphas = np.linspace(0, 1, 21)
    return pd.DataFrame({s: 0.3 + 0.1 * k * alphas + 0.05 * (1 - alphas) * (4 - k)
                         for k, s in enumerate(LONG)}, index=alphas)


def _topics(n: int = 12) -> pd.DataFrame:
    rng = np.random.default_rng(3)
    ap, ar = rng.uniform(0.3, 0.9, n), rng.uniform(0.3, 0.9, n)
    bp, br = rng.uniform(0.3, 0.9, n), rng.uniform(0.3, 0.9, n)
    ap[0], ar[0], bp[0], br[0] = 0.5, 0.5, 0.5, 0.5  # one tied topic
    win = np.where((ap >= bp) & (ar >= br), "a", np.where((bp >= ap) & (br >= ar), "b", "biased"))
    win[0] = "tied"
    return pd.DataFrame({"topic": [f"t{i:02d}" for i in range(n)], "a_precision": ap,
                         "a_recall": ar, "b_precision": bp, "b_recall": br,
                         "delta_precision": ap - bp, "delta_recall": ar - br, "winner": win})


def _diffs(n: int = 12) -> pd.DataFrame:
    t = _topics(n)
    pt = pd.DataFrame({"topic": t["topic"], "delta_p": t["delta_precision"],
                       "delta_r": t["delta_recall"], "winner": t["winner"]})
    return topic_differences(pt, ["p", "r"], directions={"p": 1, "r": 1})


def _cross() -> pd.DataFrame:
    th = np.linspace(0, 1, 30)
    return pd.concat([pd.DataFrame({"predictor": p, "threshold": th,
                                    "precision": np.clip(0.5 + k * 0.1 + 0.4 * th, 0, 1),
                                    "recall": 1 - th ** (k + 1)})
                      for k, p in enumerate(("UIR", "parametric UIR", "\u0394F"))])


def _hasse():
    table = pd.DataFrame({"system": LONG + ["best_replab", "t_twitter_LDA"],
                          "rank_low": [1, 1, 3, 3, 3, 6, 7], "rank_high": [2, 2, 5, 5, 5, 6, 7],
                          "group": [1, 1, 2, 2, 2, 3, 4], "block": range(7),
                          "score": np.linspace(0.5, 0.2, 7)})
    edges = pd.DataFrame({"upper": [LONG[0], LONG[1], LONG[2], "best_replab"],
                          "lower": [LONG[2], LONG[3], "best_replab", "t_twitter_LDA"]})
    return table, edges


def _all_figures() -> dict[str, go.Figure]:
    curves = _curves()
    moves = pd.DataFrame({"system": LONG, "rank_1": [1, 2, 3, 4, 5], "rank_2": [2, 1, 3, 5, 4],
                          "f_1": 0.5, "f_2": 0.4})
    u = np.random.default_rng(0).uniform(-1, 1, (5, 5))
    thr = pd.DataFrame({"threshold": np.linspace(0, 1, 11), "pairs": np.linspace(1, 0, 11),
                        "concordant": 0.8, "opposite": 0.1, "beats_all_alpha": 0.6,
                        "f_contradicts": 0.05})
    pairs = pd.DataFrame({"system_a": LONG[:3], "system_b": LONG[1:4], "uir": [0.1, 0.6, 0.3],
                          "delta_f": [0.05, 0.02, 0.01], "weakest": [0.01, 0.02, 0.0]})
    cons = pd.DataFrame({"metric": ["purity", "purity", "bcubed"],
                         "constraint": ["rag_bag", "cluster_homogeneity", "rag_bag"],
                         "agrees": [False, True, True]})
    ct = pd.DataFrame(np.arange(30).reshape(5, 6), index=[f"class {i}" for i in range(5)],
                      columns=[f"c{j}" for j in range(6)])
    ranks = pd.DataFrame({"all": [1, 2, 3], "D1": [2, 1, 3]}, index=LONG[:3])
    table, edges = _hasse()
    tl_ranks = pd.DataFrame({"tok": [1, 2, 3], "typ": [2, 1, 3]}, index=["A", "B", "C"])
    mapping = pd.DataFrame({"cluster": [0, 1, 2], "tag": ["NOUN", "VERB", ""],
                            "cluster_types": [5, 3, 2], "cluster_tokens": [9, 4, 2],
                            "shared_types": [4, 2, 0]})
    board = pd.DataFrame({"system": LONG, "precision": [0.9, 0.7, 0.5, 0.3, 0.2],
                          "recall": [0.2, 0.4, 0.5, 0.7, 0.9], "f": [0.33, 0.5, 0.5, 0.42, 0.33]})
    intervals = pd.DataFrame({"system": LONG, "rank": [1, 2, 3, 4, 5],
                              "rank_ci_low": [1, 1, 2, 3, 4], "rank_ci_high": [2, 3, 4, 5, 5],
                              "rank_low": [1, 1, 3, 3, 5], "rank_high": [2, 2, 4, 4, 5]})
    agg = pd.DataFrame({"system": LONG, "pareto_means": [True, True, False, False, True],
                        **{f"rank_{r}": np.roll(np.arange(1, 6), k)
                           for k, r in enumerate(U.RULE_LABELS)}})
    points = pd.DataFrame({"system": ["s1", "s2"] * 2, "topic": ["t"] * 4,
                           "measure": ["accuracy"] * 2 + ["F"] * 2,
                           "value": [0.1, 0.2, 0.3, 0.4], "rs": [0.5, 0.6, 0.5, 0.6]})
    meta = pd.DataFrame({"metric": list("abcd"), "robustness": [0.3, 0.5, 0.3, 0.9],
                         "per-topic@1": [-0.84, -0.55, -0.83, np.nan]})
    return {
        "f_curves_figure": F.f_curves_figure(curves, "p", "r", 0.5, {LONG[0]: "A", LONG[1]: "B"}),
        "rank_moves_figure": F.rank_moves_figure(moves, 0.5, 0.2, {LONG[0]: "A"}),
        "uir_heatmap_figure": F.uir_heatmap_figure(LONG, u, 0.25, {LONG[0]: "A"}),
        "threshold_curve_figure": F.threshold_curve_figure(thr, 0.25),
        "delta_f_uir_figure": F.delta_f_uir_figure(pairs, 0.25, "p", "r", 0.5, 0.3,
                                                   highlight_pair=(LONG[1], LONG[2])),
        "weakest_metric_figure": F.weakest_metric_figure(pairs, ["p", "r"], 0.4),
        "constraints_figure": F.constraints_figure(cons),
        "pair_curves_figure": F.pair_curves_figure(curves[LONG[:2]], LONG[0], LONG[1], [0.4],
                                                   "p", "r", 0.5),
        "uir_counts_figure": F.uir_counts_figure(5, 1, 4, 2, "a", "b", title="t"),
        "pair_scatter_figure": F.pair_scatter_figure(_topics(), "a", "b", "p", "r", "t03"),
        "pair_differences_figure": F.pair_differences_figure(_diffs(), "a", "b", ["p", "r"],
                                                             "t03"),
        "contingency_figure": F.contingency_figure(ct, "sys", "topic", role="A"),
        "testbed_rank_figure": F.testbed_rank_figure(ranks, ranks * 0.1, {LONG[0]: "A"}),
        "cross_testbed_figure": F.cross_testbed_figure(_cross()),
        "cross_testbed_threshold_figure": F.cross_testbed_threshold_figure(_cross()),
        "hasse_figure": R.hasse_figure(table, edges, title="order"),
        "rank_slope_figure": TL.rank_slope_figure(tl_ranks, "tok", "typ"),
        "spearman_figure": TL.spearman_figure(pd.DataFrame(np.eye(2), index=["x", "y"],
                                                           columns=["x", "y"]), {"y": True}),
        "mapping_figure": TL.mapping_figure(mapping),
        "pr_plane_figure": PR.pr_plane_figure(board, "p", "r", 0.5, {LONG[0]: "A"}),
        "rank_intervals_figure": U.rank_intervals_figure(intervals, highlight={LONG[1]: "B"}),
        "aggregation_figure": U.aggregation_figure(agg, highlight={LONG[0]: "A"}),
        "figure1_figure": M.figure1_figure(points, ["accuracy", "F"]),
        "robustness_strictness_figure": M.robustness_strictness_figure(meta, "per-topic@1"),
    }


@pytest.fixture(scope="module")
def all_figures() -> dict[str, go.Figure]:
    return _all_figures()


def _builders() -> set[str]:
    """Every public ``*_figure`` function of every module of ``dashboard.figures``."""
    names = set()
    for info in pkgutil.iter_modules(F.__path__):
        mod = importlib.import_module(f"{F.__name__}.{info.name}")
        for name in getattr(mod, "__all__", []):
            if name.endswith("_figure") and inspect.isfunction(getattr(mod, name)):
                names.add(name)
    return names


def test_every_builder_is_walked(all_figures):
    """A new builder without a sample here fails: the font and category checks cover all."""
    assert _builders() <= set(all_figures), sorted(_builders() - set(all_figures))


def _font_sizes(obj, path=""):
    """(path, size) of every font size set anywhere in a figure's JSON, hover labels excepted."""
    if isinstance(obj, dict):
        for k, v in obj.items():
            p = f"{path}.{k}"
            if k == "hoverlabel":
                continue
            if k.endswith("font") and isinstance(v, dict) and "size" in v:
                for s in np.atleast_1d(v["size"]):
                    yield p, s
            if k == "uniformtext" and isinstance(v, dict) and "minsize" in v:
                yield p, v["minsize"]
            yield from _font_sizes(v, p)
    elif isinstance(obj, (list, tuple)):
        for i, v in enumerate(obj):
            yield from _font_sizes(v, f"{path}[{i}]")


def test_font_walker_finds_small_fonts():
    fig = go.Figure(go.Scatter(x=[1], y=[1], textfont=dict(size=9)))
    fig.update_layout(annotations=[dict(text="x", font=dict(size=10))], hoverlabel_font_size=8)
    found = dict(_font_sizes(fig.to_plotly_json()))
    assert sorted(found.values()) == [9, 10]  # the hover label is exempt


def test_every_label_is_at_least_min_font(all_figures):
    assert MIN_FONT >= 12
    for name, fig in all_figures.items():
        js = fig.to_plotly_json()
        small = [(p, s) for p, s in _font_sizes(js) if float(s) < MIN_FONT]
        assert not small, (name, small)
        # the inherited size: the figure's font when set, else Plotly's default of 12
        base = js["layout"].get("font", {}).get("size", 12)
        assert base >= MIN_FONT, name
        # text drawn in heatmap cells has an explicit size (Plotly would shrink it to fit)
        for tr in js["data"]:
            if tr.get("type") == "heatmap" and tr.get("texttemplate"):
                assert tr.get("textfont", {}).get("size", 0) >= MIN_FONT, name


def _encoding(tr) -> tuple:
    """What tells a trace apart besides colour: marker symbol, line dash, bar pattern."""
    mode = getattr(tr, "mode", None) or ""
    sym = tr.marker.symbol if "markers" in mode and tr.marker is not None else None
    dash = (tr.line.dash or "solid") if "lines" in mode and tr.line is not None else None
    pattern = tr.marker.pattern.shape if isinstance(tr, go.Bar) else None
    if isinstance(sym, (list, tuple, np.ndarray)):
        sym = tuple(sym)
    return sym, dash, pattern


CATEGORICAL = ["f_curves_figure", "rank_moves_figure", "threshold_curve_figure",
               "delta_f_uir_figure", "pair_curves_figure", "uir_counts_figure",
               "pair_scatter_figure", "pair_differences_figure", "cross_testbed_figure",
               "cross_testbed_threshold_figure", "rank_slope_figure"]


@pytest.mark.parametrize("name", CATEGORICAL)
def test_categories_differ_by_shape_or_dash(all_figures, name):
    fig = all_figures[name]
    shown = [t for t in fig.data if t.showlegend is not False and t.name]
    if name in ("uir_counts_figure", "rank_slope_figure"):  # labels in the chart, no legend
        shown = list(fig.data)
    if name == "rank_slope_figure":  # one trace per run: its move (up/down/same) is the class
        kinds = {}
        for t in fig.data:
            kinds.setdefault(t.line.color, set()).add((t.line.dash, t.marker.symbol))
        assert all(len(v) == 1 for v in kinds.values())
        assert len({next(iter(v)) for v in kinds.values()}) == len(kinds)
        return
    if name == "f_curves_figure":  # background systems are one grey trace; A and B differ
        shown = [t for t in shown if t.name.startswith(("A:", "B:"))]
        assert len(shown) == 2
    enc = [_encoding(t) for t in shown]
    assert len(shown) >= 2, name
    for (ta, ea), (tb, eb) in itertools.combinations(zip(shown, enc), 2):
        assert ea != eb, (name, ta.name, tb.name, ea)


def test_uir_and_parametric_uir_are_distant_colours():
    """Not two blues: the hue of the UIR and parametric-UIR curves differ by > 90 degrees."""

    def hue(h):
        r, g, b = (int(h[i:i + 2], 16) / 255 for i in (1, 3, 5))
        return colorsys.rgb_to_hsv(r, g, b)[0] * 360

    s = F.PREDICTOR_STYLE
    d = abs(hue(s["UIR"][0]) - hue(s["parametric UIR"][0]))
    assert min(d, 360 - d) > 90
    assert len({v[1] for v in s.values()}) == len(s)  # and a marker each


def test_threshold_label_sits_above_the_plot_on_a_background():
    thr = pd.DataFrame({"threshold": np.linspace(0, 1, 11), "pairs": np.linspace(1, 0, 11)})
    fig = F.threshold_curve_figure(thr, 0.25)
    (ann,) = [a for a in fig.layout.annotations if "0.25" in a.text]
    assert ann.yref == "paper" and ann.y >= 1.0 and ann.yanchor == "bottom"  # no curve up there
    assert ann.bgcolor == "white" and ann.x == 0.25


def test_weakest_metric_axis_title_is_short_and_names_the_metrics_in_the_title():
    pairs = pd.DataFrame({"system_a": ["a"], "system_b": ["b"], "uir": [0.5], "weakest": [0.1]})
    fig = F.weakest_metric_figure(pairs, ["bcubed_precision", "bcubed_recall"], 0.4)
    assert len(fig.layout.yaxis.title.text) <= 24
    assert "bcubed_precision" in fig.layout.title.text and "r = 0.40" in fig.layout.title.text
    assert fig.layout.margin.t >= 90  # room for the two-line title above the plot


def test_cross_testbed_threshold_chart_has_a_legend_for_both_line_styles():
    fig = F.cross_testbed_threshold_figure(_cross())
    names = [t.name for t in fig.data if t.showlegend is not False]
    assert "UIR precision" in names and "UIR recall" in names
    dashes = {t.name: t.line.dash for t in fig.data}
    assert dashes["UIR precision"] != dashes["UIR recall"]


# ------------------------------------------------------------------------------------------------
# The per-topic difference view
# ------------------------------------------------------------------------------------------------


def test_difference_view_blocks_counts_and_click_data():
    d = _diffs(30)
    fig = F.pair_differences_figure(d, "sysA", "sysB", ["p", "r"])
    markers = [t for t in fig.data if t.mode == "markers"]
    # two metric rows x the classes present; every topic once per row
    assert sum(len(t.x) for t in markers) == 2 * len(d)
    for t in markers:
        assert {str(c[0]) for c in t.customdata} <= set(d["topic"])
    # a topic's marker sits at its position and its oriented difference, per row
    row1 = {str(c[0]): (x, y) for t in markers if t.yaxis in ("y", None)
            for c, x, y in zip(t.customdata, t.x, t.y)}
    for r in d.itertuples(index=False):
        assert row1[r.topic] == pytest.approx((r.position, r.oriented_p))
    # counts named above the blocks, blocks in the order A, tied, mixed, B
    counts = d["winner"].value_counts()
    texts = [a.text for a in fig.layout.annotations]
    for w, n in counts.items():
        assert any(t.endswith(f": {n}") or t == str(n) for t in texts), (w, n, texts)
    seen = [t.legendgroup for t in markers if t.showlegend]
    assert seen == [w for w in ("a", "tied", "biased", "b") if w in counts.index]


def test_difference_view_scales_to_1000_topics():
    """Vectorised: a fixed number of traces (stems + markers per class and metric row), not one
    per topic, and smaller markers with many topics."""
    d = _diffs(1000)
    fig = F.pair_differences_figure(d, "a", "b", ["p", "r"])
    assert len(fig.data) <= 2 * 2 * 4
    assert all(t.marker.size <= 5 for t in fig.data if t.mode == "markers")


# ------------------------------------------------------------------------------------------------
# The Hasse diagram's labels
# ------------------------------------------------------------------------------------------------


def _label_boxes(fig: go.Figure) -> list[tuple[float, float, float, float, str]]:
    """Pixel boxes (x0, x1, y_row, side) of every node label at R.REF_PLOT_PX, from the figure."""
    nodes = fig.data[1]
    lo, hi = fig.layout.xaxis.range
    boxes = []
    for x, y, text, pos in zip(nodes.x, nodes.y, nodes.text, nodes.textposition):
        if not text:
            continue
        cx = (x - lo) / (hi - lo) * (R.REF_PLOT_PX + 40)  # the range pads 20 px a side
        w = max(len(line) for line in text.split("<br>")) * CHAR_PX
        boxes.append((cx - w / 2, cx + w / 2, y, pos))
    return boxes


def _assert_no_overlap(fig):
    boxes = _label_boxes(fig)
    for a, b in itertools.combinations(boxes, 2):
        if a[2] == b[2] and a[3] == b[3]:  # same group row, same side of the nodes
            assert a[1] <= b[0] or b[1] <= a[0], (a, b)
    return boxes


def test_hasse_labels_wrap_and_never_overlap_in_a_row():
    table, edges = _hasse()
    fig = R.hasse_figure(table, edges)
    boxes = _assert_no_overlap(fig)
    assert len(boxes) == len(table)  # small groups: every system labelled
    assert all(max(len(x) for x in R.label_lines(s)) <= R.LINE_CHARS for s in table["system"])
    assert fig.data[1].textfont.size >= MIN_FONT


def test_hasse_wide_group_numbered_and_replab_like_groups_labelled():
    # 26 long names in group 1 cannot be labelled at the reference width: their row numbers
    # (the # of the Leaderboard's tie-group table) instead; 8 names in group 3 (RepLab 2013's
    # last group) are labelled without a collision
    names = [f"SVM_allfeatures_HAC_{k}%" for k in range(26)] + \
            [f"terms_jaccard_HAC_{k}%" for k in range(8)]
    group = [1] * 26 + [2] * 8
    table = pd.DataFrame({"system": names, "rank_low": 1, "rank_high": 1, "group": group,
                          "block": range(34)})
    fig = R.hasse_figure(table, pd.DataFrame({"upper": [], "lower": []}))
    text = list(fig.data[1].text)
    assert text[:26] == [str(k) for k in range(1, 27)]
    assert [t.replace("<br>", "") for t in text[26:]] == names[26:]
    _assert_no_overlap(fig)
    assert "SVM_allfeatures_HAC_3%" in fig.data[1].hovertext[3]


def test_hasse_group_of_150_is_one_labelled_node():
    # 150 systems in one group: 3 px per system at the reference width; one node "150 systems"
    names = [f"run_{k}" for k in range(150)]
    table = pd.DataFrame({"system": names, "rank_low": 1, "rank_high": 150, "group": 1,
                          "block": range(150)})
    fig = R.hasse_figure(table, pd.DataFrame({"upper": [], "lower": []}))
    assert len(fig.data[1].x) == 1
    assert fig.data[1].text[0].replace("<br>", "") == "150 systems"
    assert "tie group 1: 150 systems" in fig.data[1].hovertext[0]


def test_hasse_of_many_systems_draws_groups():
    # 100 systems (> MANY_SYSTEMS) in groups of 20, 2 and 78: the groups of more than three
    # systems are one node each, the group of two stays two systems
    group = [1] * 20 + [2] * 2 + [3] * 78
    names = [f"s{k}" for k in range(100)]
    table = pd.DataFrame({"system": names, "rank_low": 1, "rank_high": 3, "group": group,
                          "block": range(100)})
    fig = R.hasse_figure(table, pd.DataFrame({"upper": [], "lower": []}))
    text = [t.replace("<br>", "") for t in fig.data[1].text]
    assert text == ["20 systems", "s20", "s21", "78 systems"]


def test_hasse_chain_of_groups_fits_a_slide():
    # 150 systems in 14 groups of more than three: a chain of 14 nodes, each labelled on one
    # line at its right, rows close together (the labels above and below made it 1,900 px)
    sizes = [4, 9, 12, 10, 17, 16, 20, 16, 15, 9, 10, 7, 4, 1]
    group = np.repeat(np.arange(1, 15), sizes)
    names = [f"SVM_terms_jaccard_HAC_{k}%" for k in range(group.size)]
    table = pd.DataFrame({"system": names, "rank_low": 1, "rank_high": 150, "group": group,
                          "block": range(group.size)})
    fig = R.hasse_figure(table, pd.DataFrame({"upper": names[:-1], "lower": names[1:]}))
    assert list(fig.data[1].text) == [f"{n} systems" for n in sizes[:-1]] + [names[-1]]
    assert set(fig.data[1].textposition) == {"middle right"}
    assert fig.layout.height <= 800
    # a row of several keeps its labels above and below, and the room for them
    two = table.assign(group=np.r_[np.ones(2, int), np.arange(2, group.size) + 0])
    fig = R.hasse_figure(two.head(3), pd.DataFrame({"upper": [], "lower": []}))
    assert list(fig.data[1].textposition)[:2] == ["top center", "bottom center"]
    assert fig.layout.height >= 90 * 2


def test_hasse_collapsed_group_keeps_one_edge_per_pair_of_nodes():
    # group 1: 2 systems, each above every one of the 40 of group 2; those all above the one
    # system of group 3: nodes 2 + 1 + 1, edges 2 (group 1 -> the group node) + 1
    big = R.COLLAPSE_AT + 10
    names = ["a", "b"] + [f"m{k}" for k in range(big)] + ["z"]
    group = [1, 1] + [2] * big + [3]
    table = pd.DataFrame({"system": names, "rank_low": 1, "rank_high": 3, "group": group,
                          "block": range(len(names))})
    mid = names[2:-1]
    edges = pd.DataFrame({"upper": ["a"] * big + ["b"] * big + mid,
                          "lower": mid + mid + ["z"] * big})
    fig = R.hasse_figure(table, edges)
    assert len(fig.data[1].x) == 4
    assert fig.data[1].text[2].replace("<br>", "") == f"{big} systems"
    assert np.isnan(np.asarray(fig.data[0].x, dtype=float)).sum() == 3  # one gap per edge


def test_label_lines_keep_the_distinguishing_end():
    assert R.label_lines("SVM_terms_jaccard_HAC_100%")[-1].endswith("100%")
    long = "x" * 80 + "_HAC_10%"
    lines = R.label_lines(long)
    assert len(lines) <= R.MAX_LINES and "".join(lines).endswith("10%")


def test_titles_keep_a_left_margin_in_the_exported_image():
    # the toolbar's PNG starts at the figure's left edge: the title is padded away from it
    fig = F.layout(go.Figure(), "A title")
    assert fig.layout.title.xanchor == "left" and fig.layout.title.pad.l >= 10


def test_weakest_metric_axis_stays_in_the_uir_range():
    # one pair at UIR = 1 (2 systems, 3 topics): autorange ran to 2, UIR never passes 1
    one = pd.DataFrame({"system_a": ["x"], "system_b": ["y"], "uir": [1.0], "weakest": [0.1]})
    lo, hi = F.weakest_metric_figure(one, ["p", "r"]).layout.xaxis.range
    assert -1.05 <= lo <= 0 and hi == 1.05
