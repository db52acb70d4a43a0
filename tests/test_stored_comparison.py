"""A reopened bundle gives what the live comparison gives (metrics/reports/stored_comparison.py):
the same ranking with tie groups, correlations and aggregation tables, and the same LaTeX report
written by the one writer (metrics/reports/comparison_latex.py), under both profiles."""

from __future__ import annotations

from pathlib import Path

import numpy as np
import pandas as pd
import pytest

from metrics.analyses import compare
from metrics.analyses.aggregation import aggregation_robustness
from metrics.reports.bundle import open_bundle, write_comparison_bundle

FIXTURE = Path(__file__).resolve().parent / "data" / "replab2013_official_rs.csv.gz"


@pytest.fixture(scope="module")
def table() -> pd.DataFrame:
    t = pd.read_csv(FIXTURE, dtype={"system": str, "topic": str, "metric": str})
    keep = sorted(pd.unique(t["system"]))[::2][:14]
    return t[t["system"].isin(keep)].reset_index(drop=True)


@pytest.mark.parametrize("profile", ["default", "jair2011"])
def test_bundle_renders_as_the_live_comparison(table, tmp_path, profile):
    res = compare(table, "reliability", "sensitivity", profile=profile)
    agg = aggregation_robustness(table, res)
    write_comparison_bundle(res, tmp_path / "b", latex=True, extra_tables=agg.tables(),
                            ranking_columns=agg.ranks[["system", "pareto_means",
                                                       "pareto_topics"]])
    b = open_bundle(tmp_path / "b")
    live = res.ranking()
    stored = b.ranking()
    pd.testing.assert_frame_equal(stored.to_dataframe(), live.to_dataframe(),
                                  check_dtype=False)
    pd.testing.assert_frame_equal(stored.hasse.reset_index(drop=True),
                                  live.hasse.reset_index(drop=True), check_dtype=False)
    assert (stored.rule, stored.threshold, stored.strict) == \
        (live.rule, live.threshold, live.strict)
    assert sorted(map(sorted, stored.cycles)) == sorted(map(sorted, live.cycles))
    # the LaTeX report: one writer, the same text (the bundle's report.tex included)
    for top in (None, 5):
        assert b.to_latex(top=top) == res.to_latex(top=top)
    assert b.texts["report"] == res.to_latex()
    for name in ("delta_f_vs_uir", "weakest_metric"):
        assert np.isclose(getattr(b, name).pearson_r, getattr(res, name).pearson_r,
                          equal_nan=True)
        assert np.isclose(getattr(b, name).pvalue, getattr(res, name).pvalue, equal_nan=True)
        assert getattr(b, name).n == getattr(res, name).n
    pd.testing.assert_frame_equal(b.threshold_curve, res.threshold_curve, check_dtype=False)
    stored_agg = b.aggregation()
    assert stored_agg is not None
    for mine, theirs in zip(stored_agg.tables().values(), agg.tables().values(), strict=True):
        pd.testing.assert_frame_equal(mine, theirs, check_dtype=False)
    a, z = res.systems["system"].iloc[0], res.systems["system"].iloc[-1]
    assert b.pair(a, z) == res.pair(a, z)


def test_bundle_without_aggregation_says_none(table, tmp_path):
    res = compare(table, "reliability", "sensitivity")
    write_comparison_bundle(res, tmp_path / "b")
    assert open_bundle(tmp_path / "b").aggregation() is None
