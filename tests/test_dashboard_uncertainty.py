"""The dashboard's rendering of the bootstrap and the aggregation analysis: the report's tables
carry the intervals of the comparison, the figures draw the numbers they are given."""

from __future__ import annotations

import numpy as np
import pandas as pd
import pytest
from score_examples import random_score_table

from dashboard.figures.uncertainty import (
    aggregation_figure,
    chart_systems,
    rank_intervals_figure,
)
from dashboard.render import report_html
from metrics.analyses import compare
from metrics.analyses.aggregation import aggregation_robustness
from metrics.analyses.uncertainty import bootstrap_comparison, with_bootstrap
from metrics.comparison.tie_ranking import ranking_from_comparison

P, R = "bcubed_precision", "bcubed_recall"


def _boot():
    table = random_score_table(8, 20, seed=3)
    res = compare(table, P, R, test="none")
    return table, res, with_bootstrap(res, bootstrap_comparison(table, res, 200, seed=1))


def test_report_tables_show_the_intervals():
    _, res, boot = _boot()
    rob = report_html.robust_pairs_frame(boot.pairs, 0.25, 10)
    assert list(rob.columns[:4]) == ["a", "b", "UIR(a, b)", "UIR 95 %"]
    first = boot.pairs.set_index(["system_a", "system_b"]).loc[(rob["a"][0], rob["b"][0])]
    assert rob["UIR 95 %"][0] == f"[{first['uir_low']:+.2f}, {first['uir_high']:+.2f}]"
    assert "UIR 95 %" not in report_html.robust_pairs_frame(res.pairs, 0.25, 10)
    groups = ranking_from_comparison(res).to_dataframe()
    sets = boot.systems[["system", "rank_ci_low", "rank_ci_high"]]
    tg = report_html.tie_groups_frame(groups, None, sets)
    row = sets.set_index("system").loc[groups["system"].iloc[0]]
    lo, hi = int(row["rank_ci_low"]), int(row["rank_ci_high"])
    assert tg["Rank set (95 %)"].iloc[0] == (f"{lo}" if lo == hi else f"{lo}\u2013{hi}")


def test_figures_draw_the_given_numbers():
    table, res, boot = _boot()
    ci = boot.systems.merge(ranking_from_comparison(res).to_dataframe()[
        ["system", "rank_low", "rank_high"]], on="system")
    fig = rank_intervals_figure(ci, top=None, highlight={ci["system"][0]: "A"})
    bars = fig.data[1]
    order = ci.sort_values(["rank", "system"], kind="stable")
    base = np.asarray(bars.base, dtype=float)
    np.testing.assert_allclose(base, order["rank_ci_low"].to_numpy(dtype=float) - 0.45)
    np.testing.assert_allclose(np.asarray(bars.x, dtype=float) + base,
                               order["rank_ci_high"].to_numpy(dtype=float) + 0.45)
    agg = aggregation_robustness(table, res)
    fig = aggregation_figure(agg.ranks, top=5)
    rules = ("f_alpha", "f_alpha_0", "f_alpha_1", "mean", "borda", "median_rank", "min_metric")
    # the five systems in one grey trace, one line each (a gap between two), in rank order
    assert len(fig.data) == 1
    top5 = agg.ranks.sort_values("rank_f_alpha", kind="stable").head(5)
    y = np.asarray(fig.data[0].y, dtype=float).reshape(5, len(rules) + 1)
    assert np.isnan(y[:, -1]).all()
    np.testing.assert_array_equal(y[:, :-1], top5[[f"rank_{r}" for r in rules]].to_numpy(float))
    assert [t.split(" (")[0] for t in fig.data[0].text[::len(rules) + 1]] == list(top5["system"])
    # A over the others, in its own trace and colour
    a = str(top5["system"].iloc[2])
    fig = aggregation_figure(agg.ranks, top=5, highlight={a: "A"})
    assert [t.name for t in fig.data] == ["other systems", a]
    assert list(fig.data[1].y) == [top5.iloc[2][f"rank_{r}"] for r in rules]
    # the systems the chart shows, the rows of its flips table: the top 5 and A (here the last)
    assert len(agg.ranks) > 5
    last = str(agg.ranks.sort_values("rank_f_alpha", kind="stable")["system"].iloc[-1])
    assert chart_systems(agg.ranks, 5, {last: "A"}) == [*top5["system"], last]
    assert len(chart_systems(agg.ranks, None)) == len(agg.ranks)


def test_data_layer_takes_three_metrics_and_the_bootstrap():
    """A selection with an extra metric: the comparison's UIR is over the three metrics (equal
    to the per-pair reference), F_alpha stays on the pair; the bootstrap of the selection is the
    one of metrics.analyses.uncertainty."""
    pytest.importorskip("streamlit")
    from dashboard.data import live, uncertainty  # noqa: PLC0415 - after importorskip
    from dashboard.data.sources import Source  # noqa: PLC0415 - after importorskip
    from dashboard.state import Selection  # noqa: PLC0415 - after importorskip
    from metrics.comparison.uir import uir  # noqa: PLC0415 - as above

    rng = np.random.default_rng(4)
    base = random_score_table(5, 12, seed=4)
    third = base[base["metric"] == P].assign(metric="x",
                                             value=lambda d: rng.uniform(0, 1, len(d)))
    table = pd.concat([base, third], ignore_index=True)
    sel = Selection(source=Source("toy3", "toy3", "toy3", "toy3"), pair_label="p / r",
                    precision=P, recall=R, alpha=0.5, threshold=0.25, average="macro",
                    testbeds=(), all_testbeds=(), baselines=False, a=table["system"][0],
                    b=table["system"].unique()[1], test="none", correction="none",
                    bootstrap=100, bootstrap_seed=2, extra_metrics=("x",))
    t = live.Table("toy3|uir=x", table, P, R)
    comp = live.comparison(sel, t)
    assert comp.uir_metrics == (P, R, "x")
    rep = live.pair_report(sel, t)
    assert rep.uir == uir(table, sel.a, sel.b, [P, R, "x"]).uir
    boot = uncertainty.bootstrap(sel, t)
    ref = with_bootstrap(comp, bootstrap_comparison(table, comp, 100, 2))
    assert boot.pairs["uir_low"].equals(ref.pairs["uir_low"])
    assert uncertainty.aggregation(sel, t).ranks["system"].tolist() == list(comp.systems[
        "system"])


@pytest.mark.parametrize("systems, whole", [(3, True), (12, True), (40, False)])
def test_rank_axes_tick_whole_ranks(systems, whole):
    """A few systems: both rank axes tick every rank (1, 2, 3; not Plotly's 1.5 and 2.5);
    many: Plotly's own steps (whole there too)."""
    table = random_score_table(systems, 10, seed=5)
    res = compare(table, P, R, test="none")
    boot = with_bootstrap(res, bootstrap_comparison(table, res, 50, seed=1))
    xaxis = rank_intervals_figure(boot.systems, top=None).layout.xaxis
    yaxis = aggregation_figure(aggregation_robustness(table, res).ranks, top=None).layout.yaxis
    for axis in (xaxis, yaxis):
        assert (axis.dtick, axis.tick0) == ((1, 1) if whole else (None, None))
