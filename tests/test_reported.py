"""check-reported (metrics/reports/reported_checks.py, metrics/commands/check_reported.py) on
hand-made tables:
consistent rows, a row consistent only at another alpha, impossible rows, percentages, the
ranking by alpha and under unanimity, bad input."""

from __future__ import annotations

import json

import numpy as np
import pandas as pd
import pytest

from metrics.cli import main
from metrics.comparison.combine import f_alpha
from metrics.errors import UnanimityError
from metrics.reports.reported_checks import check_reported, read_reported

# A: F_0.5(0.60, 0.40) = 2 * 0.24 / 1.0 = 0.48 exactly                      -> consistent
# B: F_0.5(0.80, 0.40) = 0.5333 but 0.67 reported; F_0.8 = 1 / (1 + 0.5) = 0.6667 -> other alpha
# C: F_0.5(0.30, 0.90) = 0.54 / 1.2 = 0.45                                    -> consistent
# D: F = 0.70 above max(P, R) = 0.60                                          -> impossible
TABLE = "system,precision,recall,f\nA,0.60,0.40,0.48\nB,0.80,0.40,0.67\nC,0.30,0.90,0.45\nD,0.50,0.60,0.70\n"


@pytest.fixture()
def table_file(tmp_path):
    path = tmp_path / "reported.csv"
    path.write_text(TABLE)
    return path


def _check(path, alpha=0.5):
    return check_reported(read_reported(path), alpha).rows.set_index("system")


def test_statuses_by_hand(table_file):
    rows = _check(table_file)
    assert rows["status"].to_dict() == {"A": "consistent", "B": "other_alpha", "C": "consistent",
                                        "D": "impossible"}
    assert rows.loc["D", "side"] == "above_max" and not isinstance(rows.loc["A", "side"], str)
    assert rows.loc["A", "f_at_alpha"] == pytest.approx(0.48)
    # B as written: 1/0.67 = 0.5/0.8... -> alpha = (1/0.67 - 1/0.4) / (1/0.8 - 1/0.4) = 0.80597
    assert rows.loc["B", "alpha_implied"] == pytest.approx((1 / 0.67 - 2.5) / (1.25 - 2.5))
    assert rows.loc["B", "alpha_low"] < 0.806 < rows.loc["B", "alpha_high"]
    assert rows.loc["B", "alpha_high"] < 0.9 and rows.loc["B", "alpha_low"] > 0.7
    assert np.isnan(rows.loc["D", "alpha_low"]) and np.isnan(rows.loc["D", "alpha_high"])
    # A is consistent at alpha = 0.5 only near it (P != R): the interval holds 0.5, not 0.3 / 0.7
    assert rows.loc["A", "alpha_low"] < 0.5 < rows.loc["A", "alpha_high"]
    assert 0.3 < rows.loc["A", "alpha_low"] and rows.loc["A", "alpha_high"] < 0.7


def test_alpha_interval_against_a_grid(table_file):
    """Brute force: on a fine alpha grid, some (P, R, F) inside the rounding boxes fits iff the
    alpha lies in [alpha_low, alpha_high]."""
    rows = _check(table_file)
    grid = np.linspace(0, 1, 20001)
    box = np.linspace(-0.005, 0.005, 11)
    for s, r in rows.iterrows():
        P = r.precision + box[:, None, None]
        R = r.recall + box[None, :, None]
        F = f_alpha(P, R, grid[None, None, :])
        fits = (F.min(axis=(0, 1)) <= r.f + 0.005) & (F.max(axis=(0, 1)) >= r.f - 0.005)
        inside = (grid >= r.alpha_low) & (grid <= r.alpha_high)
        edge = np.minimum(np.abs(grid - r.alpha_low), np.abs(grid - r.alpha_high)) < 1e-4
        assert np.array_equal(fits[~edge], inside[~edge]), s


def test_other_alpha_is_consistent_when_stated(table_file):
    rows = _check(table_file, alpha=0.8)
    assert rows.loc["B", "status"] == "consistent"
    assert rows.loc["A", "status"] == "other_alpha"


def test_rankings_by_alpha_and_unanimity(table_file):
    rows = _check(table_file)
    # reported F: D .70 > B .67 > A .48 > C .45
    assert rows["rank_reported"].to_dict() == {"D": 1, "B": 2, "A": 3, "C": 4}
    # alpha = 0 ranks by R: C .9 > D .6 > A = B .4; alpha = 1 by P: B .8 > A .6 > D .5 > C .3
    assert rows.loc["C", ["rank_best_alpha", "rank_worst_alpha"]].tolist() == [1, 4]
    assert rows.loc["B", ["rank_best_alpha", "rank_worst_alpha"]].tolist() == [1, 3]
    # unanimity: B dominates A (P .8 > .6, R equal); D dominates A? P .5 < .6: no; no other pair
    assert rows.loc["B", ["rank_low_unanimity", "rank_high_unanimity"]].tolist() == [1, 3]
    assert rows.loc["A", ["rank_low_unanimity", "rank_high_unanimity"]].tolist() == [2, 4]
    assert rows.loc["C", ["rank_low_unanimity", "rank_high_unanimity"]].tolist() == [1, 4]


def test_percentages_and_alpha_column(tmp_path):
    path = tmp_path / "paper.tsv"
    # F_0.5 (alpha weights precision here) of P = 87.5, R = 80.0 is 83.58; 85.9 fits F_{alpha ~
    # 0.76}
    path.write_text("model\tP\tR\tF1\talpha\nx\t87.5\t80.0\t83.6\t0.5\ny\t87.5\t80.0\t85.9\t0.5\n")
    res = check_reported(read_reported(path))
    rows = res.rows.set_index("system")
    assert res.percent
    assert rows.loc["x", "status"] == "consistent" and rows.loc["y", "status"] == "other_alpha"
    assert rows.loc["y", "alpha_implied"] == pytest.approx(
        (1 / 0.859 - 1 / 0.8) / (1 / 0.875 - 1 / 0.8))


def test_score_table_with_system_level_rows(tmp_path):
    path = tmp_path / "scores.csv"
    path.write_text("system,topic,metric,value\nA,all,bp,0.60\nA,all,br,0.40\nA,all,f,0.48\n"
                    "A,t1,bp,0.1\nB,average,bp,0.50\nB,average,br,0.60\nB,average,f,0.70\n")
    rows = check_reported(read_reported(path, ("bp", "br", "f"))).rows.set_index("system")
    assert rows["status"].to_dict() == {"A": "consistent", "B": "impossible"}


@pytest.mark.parametrize("text, message", [
    ("system,precision,recall\nA,0.1,0.2\n", "no F column"),
    ("system,precision,recall,f\nA,0.1,x,0.2\n", "line 2.*recall 'x' is not a number"),
    ("system,precision,recall,f\nA,0.1,0.2,0.1\nA,0.2,0.2,0.2\n", "line 3.*appears twice"),
    ("system,precision,recall,f\nA,10,200,50\n", "line 2.*recall 200 is above 100"),
])
def test_bad_input(tmp_path, text, message):
    path = tmp_path / "bad.csv"
    path.write_text(text)
    with pytest.raises(UnanimityError, match=message):
        check_reported(read_reported(path))


def test_cli(table_file, capsys, tmp_path):
    assert main(["check-reported", str(table_file), "--alpha", "0.5"]) == 0
    out = capsys.readouterr().out
    assert "impossible: F above max" in out and "2 of 4 rows consistent" in out
    assert "changes with alpha" in out
    assert main(["check-reported", str(table_file), "--json"]) == 0
    data = json.loads(capsys.readouterr().out)
    assert [r["status"] for r in data["rows"]] == ["consistent", "other_alpha", "consistent",
                                                   "impossible"]
    assert main(["check-reported", str(tmp_path / "missing.csv")]) == 2
    assert "file not found" in capsys.readouterr().err


def test_beta_convention(tmp_path):
    # F_beta=0.5 (precision-weighted) of P = 0.8, R = 0.4: (1 + 0.25) * 0.32 / (0.25 * 0.8 + 0.4)
    # = 0.4 / 0.6 = 0.6667 = F_alpha at alpha = 1 / (1 + 0.25) = 0.8
    path = tmp_path / "paper.csv"
    path.write_text("system,precision,recall,F0.5\nB,0.80,0.40,0.667\n")

    assert alpha_of_beta(0.5) == pytest.approx(0.8) and alpha_of_beta(1) == 0.5
    assert check_reported(read_reported(path), alpha_of_beta(0.5)).rows["status"].tolist() == ["consistent"]
    capsys_free = main(["check-reported", str(path), "--beta", "0.5", "--json"])
    assert capsys_free == 0
    with pytest.raises(UnanimityError, match="beta"):
        alpha_of_beta(-1)


from hypothesis import given, settings  # noqa: E402
from hypothesis import strategies as st  # noqa: E402

from metrics.reports.reported_checks import (  # noqa: E402
    _alpha_ranks,
    alpha_of_beta,
)


@settings(max_examples=80, deadline=None)
@given(st.floats(0.01, 1), st.floats(0.01, 1), st.floats(0, 1), st.integers(1, 4))
def test_rounded_true_values_are_always_consistent(p, r, alpha, d):
    """Rounding true P, R and F_alpha(P, R) to d decimals never makes a row inconsistent at its
    alpha, and that alpha lies in the reported interval of alphas that fit."""
    f = f_alpha(p, r, alpha)
    vals = [f"{v:.{d}f}" for v in (p, r, f)]
    if float(vals[0]) == 0 or float(vals[1]) == 0:
        return
    table = pd.DataFrame([["s", *vals]], columns=["system", "precision", "recall", "f"])
    row = check_reported(table, alpha).rows.iloc[0]
    assert row.status == "consistent"
    assert row.alpha_low - 1e-12 <= alpha <= row.alpha_high + 1e-12


@settings(max_examples=60, deadline=None)
@given(st.lists(st.tuples(st.floats(0.05, 1), st.floats(0.05, 1)), min_size=2, max_size=6))
def test_alpha_rank_range_contains_every_grid_rank(pr):
    p = np.array([x for x, _ in pr])
    r = np.array([y for _, y in pr])
    best, worst = _alpha_ranks(p, r)
    grid = np.linspace(0, 1, 2001)
    F = f_alpha(p[:, None], r[:, None], grid[None, :])
    ranks = 1 + (F[None, :, :] > F[:, None, :]).sum(axis=1)
    assert (ranks.min(axis=1) >= best).all() and (ranks.max(axis=1) <= worst).all()
    # at the ends the grid and the exact route agree
    for a_idx in (0, -1):
        assert ((ranks[:, a_idx] >= best) & (ranks[:, a_idx] <= worst)).all()
