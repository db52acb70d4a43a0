"""Pure figure builders of the dashboard: traces, axis titles, colours, on small stand-in data.

These tests need no Streamlit runtime and no campaign: the builders only draw numbers.
"""

from __future__ import annotations

import re

import numpy as np
import pandas as pd
import plotly.graph_objects as go
import pytest

from dashboard import figures as F
from dashboard.figures.campaign import BACKGROUND_TOL
from dashboard.figures.pr_plane import ISO_LEVELS, label_box, pr_plane_figure
from dashboard.figures.style import short
from dashboard.render.report_html import build_report
from metrics.comparison.curves import iso_f_points
from metrics.meta.constraints_clustering import CONSTRAINTS

SYSTEMS = ["alpha_sys", "beta_sys", "SVM_allfeatures_HAC_100%", "d"]


@pytest.fixture
def curves() -> pd.DataFrame:
    alphas = np.arange(101) / 100
    data = {
        "alpha_sys": 0.4 + 0.2 * alphas,        # rises with alpha
        "beta_sys": 0.6 - 0.2 * alphas,         # falls: crosses alpha_sys at 0.5
        "SVM_allfeatures_HAC_100%": np.full(101, 0.3),
        "d": np.full(101, 0.1),
    }
    return pd.DataFrame(data, index=pd.Index(alphas, name="alpha"))


def _titles(fig: go.Figure) -> tuple[str, str]:
    return fig.layout.xaxis.title.text or "", fig.layout.yaxis.title.text or ""


def test_short_truncates_long_names():
    assert F.short("abc", 5) == "abc"
    s = F.short("SVM_terms_jaccard_HAC_100%_extra", 12)
    assert len(s) == 12 and "\u2026" in s and s.endswith("extra")


def test_palette_is_okabe_ito_and_pair_colours_distinct():
    assert F.COLOR_A == "#0072B2" and F.COLOR_B == "#D55E00"
    assert len({F.COLOR_A, F.COLOR_B, F.COLOR_TIED, F.COLOR_BIASED}) == 4


def test_f_curves_highlights_pair_and_names_metrics(curves):
    fig = F.f_curves_figure(curves, "bcubed_precision", "bcubed_recall", 0.3,
                            {"alpha_sys": "A", "beta_sys": "B"})
    names = [t.name for t in fig.data]
    assert names[0].startswith("other systems (2)")
    assert any(n.startswith("A: alpha_sys") for n in names)
    assert any(n.startswith("B: beta_sys") for n in names)
    colors = {t.name[:1]: t.line.color for t in fig.data[1:]}
    assert colors == {"A": F.COLOR_A, "B": F.COLOR_B}
    x, y = _titles(fig)
    # both metrics named; the y title stays short enough not to reach the chart's title
    assert "bcubed_precision" in x and "bcubed_recall" in x + y and len(y) <= 34
    # background systems: one trace, broken by NaN between systems, names in hover text
    bg = fig.data[0]
    assert np.isnan(np.asarray(bg.y, dtype=float)).sum() == 2
    assert "SVM_allfeatures_HAC_100%" in set(bg.text)
    # the alpha marker
    assert any(abs(s.x0 - 0.3) < 1e-12 for s in fig.layout.shapes)


def test_f_curves_background_few_alphas_within_the_curve():
    """The grey curves go through a few alphas, both ends included (a fifth of the grid here);
    drawn as chords between them they stay within 0.006 of F_alpha (about 2 px of the chart) at
    every alpha of the grid and between (the exact formula on a ten times finer grid), even
    where one metric is nine times the other, the steepest bend of a campaign's curves."""
    alphas = np.arange(101) / 100
    pr = {"steep": (0.9, 0.1), "flat": (0.5, 0.45), "other": (0.2, 0.7)}

    def f(a, p, r):
        return 1.0 / (a / p + (1 - a) / r)

    data = {s: f(alphas, p, r) for s, (p, r) in pr.items()}
    data["A_sys"] = np.full(101, 0.5)
    curves = pd.DataFrame(data, index=pd.Index(alphas, name="alpha"))
    bg = F.f_curves_figure(curves, "p", "r", 0.5, {"A_sys": "A"}).data[0]
    x, y = np.asarray(bg.x, dtype=float), np.asarray(bg.y, dtype=float)
    per = len(x) // 3
    assert per <= 21 and np.isnan(x[per - 1])  # at most 20 alphas and the break
    assert x[0] == 0.0 and x[per - 2] == 1.0
    fine = np.arange(1001) / 1000
    for i, name in enumerate(pr):
        xs, ys = x[i * per:(i + 1) * per - 1], y[i * per:(i + 1) * per - 1]
        np.testing.assert_array_equal(xs, x[:per - 1])  # one grid for every curve
        assert set(bg.text[i * per:(i + 1) * per - 1]) == {name}
        np.testing.assert_allclose(ys, f(xs, *pr[name]))  # the vertices lie on the curve
        assert np.abs(np.interp(alphas, xs, ys) - data[name]).max() <= BACKGROUND_TOL
        assert np.abs(np.interp(fine, xs, ys) - f(fine, *pr[name])).max() < 0.0065


def test_background_alphas_straight_lines_ends_only_and_each_chord_maximal():
    """Straight curves need only both ends (hand-worked); on bent curves, checked one chord at a
    time from the definition: every chord stays within the tolerance at the grid's alphas, and
    the next alpha past its end would not (the choice is greedy, not padded); NaN (an undefined
    F) is not checked."""
    alphas = np.arange(101) / 100
    lines = np.vstack([0.2 + 0.3 * alphas, 0.7 - 0.1 * alphas])
    np.testing.assert_array_equal(F.background_alphas(alphas, lines), [0, 100])
    rng = np.random.default_rng(3)
    p, r = rng.uniform(0.05, 1.0, (2, 40, 1))
    values = 1.0 / (alphas / p + (1 - alphas) / r)
    values[0, 10:20] = np.nan
    keep = F.background_alphas(alphas, values, tol=0.006)
    assert keep[0] == 0 and keep[-1] == 100 and np.all(np.diff(keep) > 0)

    def worst(i, j):
        seg = np.arange(i, j + 1)
        chord = [np.interp(alphas[seg], alphas[[i, j]], v[[i, j]]) for v in values]
        return np.nanmax(np.abs(np.asarray(chord) - values[:, seg]))

    for i, j in zip(keep[:-1], keep[1:], strict=True):
        assert worst(i, j) <= 0.006
        if j < 100:
            assert worst(i, j + 1) > 0.006


def test_rank_moves_groups_lines_and_keeps_top(curves):
    moves = pd.DataFrame({
        "system": [f"s{i}" for i in range(50)],
        "rank_1": np.arange(1, 51),
        "rank_2": np.r_[np.arange(2, 51), 1],
        "f_1": 0.5, "f_2": 0.4,
    })
    fig = F.rank_moves_figure(moves, 0.5, 0.2, {"s0": "A"}, top=10)
    names = {t.name for t in fig.data if t.mode != "text"}
    assert {"moves down", "A: s0"} <= names
    # exactly the top 10 at the first alpha (s0, the A system, is among them)
    labels = [t for t in fig.data if t.mode == "text"][0].text
    assert len(labels) == 10
    assert fig.layout.yaxis.autorange is False and fig.layout.yaxis.range[0] > fig.layout.yaxis.range[1]


def test_pair_curves_marks_crossings_and_bands(curves):
    fig = F.pair_curves_figure(curves, "alpha_sys", "beta_sys", [0.5], "purity",
                               "inverse_purity", alpha=0.5)
    assert "0.500" in fig.layout.title.text
    crossing = [t for t in fig.data if t.name == "crossing"]
    assert len(crossing) == 1 and crossing[0].x[0] == pytest.approx(0.5)
    bands = [s for s in fig.layout.shapes if s.type == "rect"]
    assert len(bands) == 2  # B ahead below 0.5, A ahead above
    texts = {a.text for a in fig.layout.annotations}
    assert {"A ahead", "B ahead"} <= texts
    x, y = _titles(fig)
    assert "purity" in x and "inverse_purity" in x + y and len(y) <= 34


def test_pair_curves_without_crossing_says_so(curves):
    fig = F.pair_curves_figure(curves, "alpha_sys", "d", [], "p", "r")
    assert "no crossing" in fig.layout.title.text


def test_uir_counts_stack_sums_to_topics():
    fig = F.uir_counts_figure(10, 2, 43, 6, "a", "b")
    assert [t.x[0] for t in fig.data] == [10, 2, 43, 6]
    assert [t.marker.color for t in fig.data] == [F.COLOR_A, F.COLOR_TIED, F.COLOR_BIASED,
                                                   F.COLOR_B]
    assert fig.layout.xaxis.range[1] == 61


@pytest.fixture
def topics() -> pd.DataFrame:
    return pd.DataFrame({
        "topic": ["t1", "t2", "t3", "t4"],
        "a_precision": [0.9, 0.5, 0.6, 0.7], "a_recall": [0.8, 0.4, 0.6, 0.3],
        "b_precision": [0.7, 0.6, 0.6, 0.5], "b_recall": [0.6, 0.5, 0.6, 0.5],
        "winner": ["a", "b", "tied", "biased"],
    })


def test_pair_scatter_links_topics_and_colours_by_winner(topics):
    fig = F.pair_scatter_figure(topics, "sysA", "sysB", "bcubed_precision", "bcubed_recall",
                                selected_topic="t2")
    lines = [t for t in fig.data if t.mode == "lines"]
    assert {t.line.color for t in lines} == set(F.WINNER_COLORS.values())
    markers = [t for t in fig.data if t.mode == "markers" and t.customdata is not None]
    assert len(markers) == 2
    assert list(markers[0].customdata[:, 0]) == ["t1", "t2", "t3", "t4"]
    assert "selected: t2" in [t.name for t in fig.data]
    x, y = _titles(fig)
    assert x.startswith("bcubed_recall") and y.startswith("bcubed_precision")


def test_contingency_folds_small_classes_and_clusters():
    rng = np.random.default_rng(0)
    table = pd.DataFrame(rng.integers(0, 5, size=(30, 40)),
                         index=[f"class{i}" for i in range(30)],
                         columns=[f"cl{j}" for j in range(40)])
    fig = F.contingency_figure(table, "sys", "topic", max_rows=10, max_cols=12, role="A")
    z = np.asarray(fig.data[0].z)
    assert z.shape == (10, 12)
    assert z.sum() == table.to_numpy().sum()  # folding keeps every item
    assert "(21 other classes)" in fig.layout.yaxis.ticktext[-1]
    assert "30 gold classes" in fig.layout.title.text


def test_uir_heatmap_ticks_roles_and_threshold_dots():
    u = np.array([[0, 0.5, 0.1], [-0.5, 0, 0.3], [-0.1, -0.3, 0]])
    fig = F.uir_heatmap_figure(["x", "y", "z"], u, 0.25, {"x": "A"})
    assert fig.data[0].zmin == -1 and fig.data[0].zmax == 1
    dots = fig.data[1]
    assert sorted(zip(dots.y, dots.x)) == [(0, 1), (1, 2)]
    assert "[A] x" in fig.layout.yaxis.ticktext[0]
    assert fig.layout.yaxis.tickfont.size >= 12
    assert fig.layout.xaxis.title.text.startswith("system b")


def test_uir_heatmap_scales_to_400_systems():
    S = 400
    u = np.zeros((S, S))
    fig = F.uir_heatmap_figure([f"s{i}" for i in range(S)], u, 0.25)
    assert fig.layout.xaxis.showticklabels is False
    assert len(fig.data) == 1 and fig.data[0].customdata is None


def test_threshold_and_delta_f_figures():
    curve = pd.DataFrame({"threshold": np.linspace(0, 1, 11), "pairs": np.linspace(1, 0, 11),
                          "concordant": 0.8})
    fig = F.threshold_curve_figure(curve, 0.25, {"pairs": "pairs", "concordant": "conc"})
    assert [t.name for t in fig.data] == ["pairs", "conc"]
    assert fig.layout.yaxis.tickformat == ".0%"
    pairs = pd.DataFrame({"system_a": ["a", "b"], "system_b": ["b", "c"], "uir": [0.1, 0.6],
                          "delta_f": [0.05, 0.02]})
    fig = F.delta_f_uir_figure(pairs, 0.25, "p", "r", 0.5, r=0.42, highlight_pair=("b", "c"))
    assert "r = 0.42" in fig.layout.title.text
    assert [list(t.customdata[0]) for t in fig.data[:2]] == [["a", "b"], ["b", "c"]]
    assert fig.data[-1].name == "selected pair A, B"
    # the ΔF axis names the averaging over topics when it is given
    assert fig.layout.yaxis.title.text == "F\u03b1(a) \u2212 F\u03b1(b), \u03b1 = 0.50"
    micro = F.delta_f_uir_figure(pairs, 0.25, "p", "r", 0.5, average="micro")
    assert micro.layout.yaxis.title.text.endswith("\u03b1 = 0.50, micro")
    # under the strict profile (jair2011) a UIR of exactly 0.25 is not robust
    edge = pairs.assign(uir=[0.25, -0.25])
    for strict, counts in ((False, (0, 1, 1)), (True, (2, 0, 0))):
        fig = F.delta_f_uir_figure(edge, 0.25, "p", "r", 0.5, strict=strict)
        assert tuple(len(t.x) for t in fig.data[:3]) == counts
        assert ("UIR > 0.25" if strict else "UIR \u2265 0.25") in fig.data[1].name


def test_testbed_cross_and_constraints_figures():
    ranks = pd.DataFrame({"all": [1, 2], "D1": [2, 1]}, index=["x", "y"])
    fig = F.testbed_rank_figure(ranks, ranks * 0.1, {"x": "A"})
    assert list(fig.data[0].x) == ["all", "D1"]
    cross = pd.DataFrame({"predictor": ["UIR", "UIR", "\u0394F", "\u0394F"],
                          "threshold": [0, 0.5, 0, 0.5], "precision": [0.5, 0.9, 0.5, 0.6],
                          "recall": [1, 0.4, 1, 0.5]})
    fig = F.cross_testbed_figure(cross)
    assert {t.legendgroup for t in fig.data} == {"UIR", "\u0394F"}
    cons = pd.DataFrame({"metric": ["purity", "purity", "bcubed"],
                         "constraint": ["rag bag", "homogeneity", "rag bag"],
                         "agrees": [False, True, True]})
    fig = F.constraints_figure(cons)
    assert set(np.asarray(fig.data[0].text).ravel()) >= {"\u2713", "\u2717"}
    # column labels of the real constraint table break into short lines, so none overlap
    real = pd.DataFrame({"metric": "purity", "constraint": list(CONSTRAINTS), "agrees": True})
    labels = list(F.constraints_figure(real).data[0].x)
    assert len(labels) == len(CONSTRAINTS)
    assert all(len(line) <= 12 for label in labels for line in label.split("<br>")), labels


def test_html_report_is_self_contained(topics):
    fig = F.pair_scatter_figure(topics, "sysA", "sysB", "p", "r")
    html = build_report("Report", "sub", {"alpha": 0.5},
                        [("Scatter", "note", fig), ("Table", "", topics),
                         ("Again", "", F.uir_counts_figure(1, 1, 1, 1, "a", "b"))])
    assert html.startswith("<!DOCTYPE html>")
    assert "<script src=\"http" not in html and not re.search(r"<script[^>]+src=", html)
    assert html.count("Plotly.newPlot") == 2
    assert "<table" in html and "t3" in html


def test_rank_moves_150_systems_top_30_on_even_slots():
    """150 systems, top 30: exactly 30 rows (+ A and B outside it), one label per slot."""
    rng = np.random.default_rng(1)
    S = 150
    r2 = rng.permutation(S) + 1
    moves = pd.DataFrame({"system": [f"SVM_terms_jaccard_HAC_{i}%" for i in range(S)],
                          "rank_1": np.arange(1, S + 1), "rank_2": r2, "f_1": 0.5, "f_2": 0.4})
    fig = F.rank_moves_figure(moves, 0.5, 0.2, {"SVM_terms_jaccard_HAC_100%": "A",
                                                 "SVM_terms_jaccard_HAC_3%": "B"}, top=30)
    left, right = [t for t in fig.data if t.mode == "text"]
    assert len(left.text) == len(right.text) == 31   # top 30 + A at rank 101
    for side in (left, right):
        y = np.asarray(side.y, dtype=float)
        assert sorted(y) == list(range(1, 32))       # evenly spaced, no two labels share a row
        assert side.textfont.size >= 12
    # the right side is ordered by the rank at the second alpha, labelled with the true rank
    ranks = [int(t.split()[0]) for t in right.text]
    assert ranks == sorted(ranks)
    assert any("[A]" in t and "101" in t for t in left.text)
    # up / down / same differ by dash as well as colour (colour-blind safe)
    dashes = {t.name: t.line.dash for t in fig.data if t.mode != "text"}
    assert dashes["moves up"] != dashes["moves down"]


def test_short_keeps_the_distinguishing_end():
    a, b = short("SVM_terms_jaccard_HAC_10%", 20), short("SVM_terms_jaccard_HAC_100%", 20)
    assert a != b and len(a) <= 20 and len(b) <= 20 and "\u2026" in b
    assert b.endswith("100%") and a.endswith("10%")
    assert short("short", 20) == "short"


def test_many_pairs_are_a_density_with_system_a_as_points():
    # 80 systems: 3,160 pairs, more than DENSITY_AT: all of them shaded (no WebGL), A's as points
    rng = np.random.default_rng(3)
    names = [f"s{i}" for i in range(80)]
    ii, jj = np.triu_indices(80, 1)
    pairs = pd.DataFrame({"system_a": np.asarray(names)[ii], "system_b": np.asarray(names)[jj],
                          "uir": rng.integers(-10, 41, ii.size) / 40,
                          "delta_f": rng.random(ii.size)})
    assert len(pairs) > F.DENSITY_AT
    fig = F.delta_f_uir_figure(pairs, 0.25, "p", "r", 0.5, highlight_pair=("s3", "s7"))
    assert [t.type for t in fig.data] == ["histogram2d"] + ["scatter"] * 4
    assert len(fig.data[0].x) == len(pairs) and "3,160 pairs" in fig.data[0].name
    # the cells hold whole steps of 1/40 (UIR's values on 40 topics), edges between two values
    bins = fig.data[0].xbins
    assert bins.size == pytest.approx(1 / 40) and bins.start == pytest.approx(-0.25 - 1 / 80)
    with_a = pairs[(pairs["system_a"] == "s3") | (pairs["system_b"] == "s3")]
    low, high, back = fig.data[1], fig.data[2], fig.data[3]
    assert len(low.x) + len(high.x) + len(back.x) == len(with_a) == 79
    assert all("s3" in c for c in [*low.customdata, *high.customdata, *back.customdata])
    # robust either way: a (the higher F) improves b at UIR >= 0.25, b improves a at <= -0.25
    n_ahead, n_back = int((pairs["uir"] >= 0.25).sum()), int((pairs["uir"] <= -0.25).sum())
    assert n_back > 0
    assert f"{n_ahead:,} pairs, of which A's: {len(high.x)}" in high.name
    assert "b improves a" in back.name
    assert f"{n_back:,} pairs, of which A's: {len(back.x)}" in back.name
    assert (f"{len(pairs) - n_ahead - n_back:,} pairs, of which A's: {len(low.x)}"
            in low.name)
    assert fig.data[-1].name == "selected pair A, B"
    weak = F.weakest_metric_figure(pairs.rename(columns={"delta_f": "weakest"}), ["p", "r"],
                                   system="s3")
    assert [t.type for t in weak.data] == ["histogram2d", "scatter"]
    assert len(weak.data[1].x) == 79 and weak.data[1].name == "of them, A's pairs: 79"
    # a few pairs stay points, each one clickable
    small = F.delta_f_uir_figure(pairs.head(100), 0.25, "p", "r", 0.5)
    assert {t.type for t in small.data} == {"scatter"}
    assert sum(len(t.x) for t in small.data) == 100


@pytest.mark.parametrize("alpha", [0.0, 0.2, 0.4, 0.5, 0.6, 0.8, 0.9, 1.0])
def test_pr_plane_iso_labels_one_per_curve_and_apart(alpha):
    # at alpha = 0.5 the curves F = 0.1 and 0.2 end 0.06 apart on the top edge: their labels
    # touched ("0.10.2"); every label sits at an end of its curve, on the top or right edge
    board = pd.DataFrame({"system": ["s"], "precision": [0.5], "recall": [0.5], "f": [0.5]})
    fig = pr_plane_figure(board, "P", "R", alpha)
    t = next(tr for tr in fig.data if tr.mode == "text")
    assert sorted(t.text) == [f"{lv:.1f}" for lv in ISO_LEVELS]
    pos = t.textposition if isinstance(t.textposition, tuple) else [t.textposition] * len(t.x)
    boxes = [label_box(x, y, ps) for x, y, ps in zip(t.x, t.y, pos, strict=True)]
    for i, a in enumerate(boxes):
        for b in boxes[:i]:
            assert not (a[0] < b[1] and b[0] < a[1] and a[2] < b[3] and b[2] < a[3]), (a, b)
    for x, y, txt in zip(t.x, t.y, t.text, strict=True):
        p, r = iso_f_points(float(txt), alpha)
        ends = {(round(r[k], 6), round(p[k], 6)) for k in (0, -1)}
        assert (round(x, 6), round(y, 6)) in ends and max(x, y) == pytest.approx(1.0)


@pytest.mark.parametrize("alpha", [0.2, 0.5, 0.8])
def test_pr_plane_names_of_a_and_b_keep_off_the_iso_labels(alpha):
    # the three-run RepLab campaign: B at recall 0.84, precision 0.17 wrote its name over the
    # right edge's "0.2"; A near the top edge would write over the top edge's labels. Each name
    # is a box of about 7 px a character beside its point (pixels at the plane's scale)
    board = pd.DataFrame({"system": ["SVM_allfeatures_HAC_50%", "terms_jaccard_HAC_90%",
                                     "SVM_allfeatures_HAC_0%"],
                          "precision": [0.644, 0.168, 0.95], "recall": [0.341, 0.844, 0.30],
                          "f": [0.4, 0.3, 0.2]})
    for hl in ({board["system"][0]: "A", board["system"][1]: "B"}, {board["system"][2]: "A"}):
        fig = pr_plane_figure(board, "P", "R", alpha, hl)
        t = next(tr for tr in fig.data if tr.mode == "text")
        pos = t.textposition if isinstance(t.textposition, tuple) else [t.textposition] * len(t.x)
        labels = [label_box(x, y, ps) for x, y, ps in zip(t.x, t.y, pos, strict=True)]
        unit = 370  # px to one unit of either axis (520 px high, equal scales)
        for ann in fig.layout.annotations:
            width = len(ann.text) * 7 / unit
            x0 = ann.x + ann.ax / unit - (width if ann.xanchor == "right" else 0)
            yc = ann.y - ann.ay / unit
            box = (x0, x0 + width, yc - 8 / unit, yc + 8 / unit)
            for b in labels:
                assert not (box[0] < b[1] and b[0] < box[1] and box[2] < b[3] and b[2] < box[3]), \
                    (ann.text, box, b)


def test_heatmap_dots_follow_the_profile_rule():
    """A UIR of exactly the threshold carries a dot under the default rule (UIR >= t) and none
    under the strict one (jair2011: UIR > t), as the profile counts improvements; the legend
    and title say which."""
    from metrics.comparison.reference import improves  # noqa: PLC0415

    u = np.array([[0.0, 0.25, 0.5], [-0.25, 0.0, 0.1], [-0.5, -0.1, 0.0]])
    for strict in (False, True):
        fig = F.uir_heatmap_figure(["a", "b", "c"], u, 0.25, strict=strict)
        dots = [t for t in fig.data if t.type == "scatter"]
        cells = {(int(y), int(x)) for y, x in zip(dots[0].y, dots[0].x, strict=True)}
        assert cells == {tuple(map(int, c)) for c in np.argwhere(improves(u, 0.25, strict))}
        assert cells == ({(0, 2)} if strict else {(0, 1), (0, 2)})
        sign = ">" if strict else "\u2265"
        assert dots[0].name == f"UIR {sign} 0.25"
        assert f"dot: UIR {sign} 0.25" in fig.layout.title.text
