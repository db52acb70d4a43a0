"""Token vs type rankings (metrics.analyses.token_type_ranks), the type-level figure builders, and
the
view rendered headlessly on the bundled campaign."""

from __future__ import annotations

import os
from pathlib import Path

import numpy as np
import pandas as pd
import plotly.graph_objects as go
import pytest
from streamlit.testing.v1 import AppTest

from dashboard.figures import typelevel as figs
from metrics.analyses.token_type_ranks import rank_comparison

ROOT = Path(__file__).resolve().parents[1]


def _scores():
    # three systems, two topics; nvi is lower-is-better
    rows = []
    vals = {"A": (0.9, 0.2, 0.5), "B": (0.5, 0.6, 0.9), "C": (0.7, 0.4, 0.1)}
    for s, (acc, typ, nvi) in vals.items():
        for t, d in (("t1", 0.05), ("t2", -0.05)):
            rows += [(s, t, "accuracy_m1", acc + d), (s, t, "type_macro_f", typ + d),
                     (s, t, "nvi", nvi + d)]
    return pd.DataFrame(rows, columns=["system", "topic", "metric", "value"])


def test_rank_comparison_by_hand():
    comp = rank_comparison(_scores())
    assert comp.means.loc["A", "accuracy_m1"] == pytest.approx(0.9)
    assert comp.ranks["accuracy_m1"].tolist() == [1, 3, 2]
    assert comp.ranks["type_macro_f"].tolist() == [3, 1, 2]
    assert comp.ranks["nvi"].tolist() == [2, 3, 1]  # lower is better
    # accuracy ranks 1,3,2 vs type ranks 3,1,2: d = (-2, 2, 0) -> rho = 1 - 6*8/(3*8) = -1
    assert comp.spearman.loc["accuracy_m1", "type_macro_f"] == pytest.approx(-1.0)
    assert comp.type_level == {"accuracy_m1": False, "type_macro_f": True, "nvi": False}
    wide = comp.to_dataframe()
    assert list(wide.columns[:2]) == ["accuracy_m1", "accuracy_m1 rank"]


def test_rank_comparison_spearman_is_scipys_of_every_pair():
    """The vectorised correlation matrix equals ``scipy.stats.spearmanr`` of each pair of
    rankings (ties, a constant measure and a missing mean give NaN as scipy's rule)."""
    from scipy.stats import spearmanr  # noqa: PLC0415 - the independent route

    rng = np.random.default_rng(3)
    rows = []
    for s in range(9):
        for t in ("t1", "t2"):
            for m, v in (("accuracy_m1", rng.random()), ("v_measure", round(rng.random(), 1)),
                         ("nvi", rng.random()), ("type_macro_f", 0.5),
                         ("type_micro_f", np.nan if s == 4 else rng.random())):
                rows.append((f"s{s}", t, m, v))
    comp = rank_comparison(pd.DataFrame(rows, columns=["system", "topic", "metric", "value"]))
    names = list(comp.ranks.columns)
    for a in names:
        for b in names:
            x, y = comp.ranks[a].to_numpy(), comp.ranks[b].to_numpy()
            constant = np.ptp(x) == 0 or np.ptp(y) == 0 or np.isnan(x).any() or np.isnan(y).any()
            want = np.nan if constant else spearmanr(x, y).statistic
            got = comp.spearman.loc[a, b]
            assert (np.isnan(got) and np.isnan(want)) or got == pytest.approx(want, abs=1e-12), \
                (a, b)
    assert comp.spearman.notna().sum().sum() == 9  # the three varying measures


def test_rank_comparison_unknown_metric():
    with pytest.raises(ValueError, match="v_measure"):
        rank_comparison(_scores(), ["v_measure"])


def test_rank_slope_figure():
    comp = rank_comparison(_scores())
    fig = figs.rank_slope_figure(comp.ranks, "accuracy_m1", "type_macro_f")
    assert isinstance(fig, go.Figure) and len(fig.data) == 3
    a = next(t for t in fig.data if t.name == "A")
    assert list(a.y) == [1, 3] and a.line.color == figs._MOVE_STYLE["down"][0]  # A falls under the type measure
    assert a.line.dash == "dash"  # told apart without colour
    b = next(t for t in fig.data if t.name == "B")
    assert b.line.color == figs._MOVE_STYLE["up"][0]
    assert fig.layout.yaxis.autorange == "reversed"


def test_spearman_figure():
    comp = rank_comparison(_scores())
    fig = figs.spearman_figure(comp.spearman, comp.type_level)
    # rows named (type level marked *), columns numbered like the rows, every pair in the hover
    assert list(fig.data[0].y) == ["1. accuracy_m1", "2. type_macro_f *", "3. nvi"]
    assert list(fig.data[0].x) == ["1", "2", "3"]
    assert fig.data[0].customdata[0][1] == "accuracy_m1 vs type_macro_f"
    assert np.asarray(fig.data[0].z)[0, 1] == pytest.approx(-1.0)


def test_mapping_figure():
    df = pd.DataFrame({"cluster": ["1", "2", "3", "4"], "tag": ["NOUN", "NOUN", "VERB", ""],
                       "cluster_types": [10, 5, 4, 2], "cluster_tokens": [30, 6, 9, 2],
                       "shared_types": [8, 5, 1, 0]})
    fig = figs.mapping_figure(df)
    bar = fig.data[0]
    assert fig.layout.barmode == "stack"
    assert list(fig.layout.xaxis.categoryarray) == ["NOUN", "VERB", figs.UNMAPPED]
    got = dict(zip(zip(bar.x, (c[0] for c in bar.customdata)), bar.y))
    assert got[("NOUN", "1")] == 10 and got[(figs.UNMAPPED, "4")] == 2
    shares = dict(zip((c[0] for c in bar.customdata), bar.marker.color))
    assert shares["1"] == pytest.approx(0.8) and shares["3"] == pytest.approx(0.25)
    tokens = figs.mapping_figure(df, value="cluster_tokens")
    assert sorted(tokens.data[0].y) == [2, 6, 9, 30]


def test_view_renders_headlessly():

    def app():
        import sys  # noqa: PLC0415 - AppTest runs this function as a script
        from pathlib import Path  # noqa: PLC0415 - AppTest runs this function as a script

        root = Path.cwd()
        sys.path.insert(0, str(root))
        from dashboard.views.type_level import render  # noqa: PLC0415 - AppTest runs this function as a script
        from metrics.io import load  # noqa: PLC0415 - AppTest runs this function as a script

        render(load(root / "demo_data" / "ud-ewt"))

    cwd = os.getcwd()
    os.chdir(ROOT)
    try:
        at = AppTest.from_function(app, default_timeout=120).run()
    finally:
        os.chdir(cwd)
    assert not at.exception, at.exception
    assert len(at.get("plotly_chart")) >= 2
    assert any("Spearman" in c.value for c in at.caption)
