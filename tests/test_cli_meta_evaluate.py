"""``unanimity meta-evaluate``: end to end on the bundled RepLab campaign and on score tables."""

from __future__ import annotations

from pathlib import Path

import numpy as np
import pandas as pd
import pytest
from test_meta_evaluation import HAND, _table

from metrics.cli import main
from metrics.io import load
from metrics.measures.scoring import evaluate
from metrics.meta.meta_evaluation import meta_evaluate

ROOT = Path(__file__).resolve().parents[1]
DEMO = ROOT / "demo_data" / "replab2013"
SAMPLE = ROOT / "tests" / "data" / "scores" / "replab_sample.csv"


def test_replab_clustering_measures(tmp_path, capsys):
    metrics = "reliability,sensitivity,v_measure(beta=2)"
    rc = main(["meta-evaluate", str(DEMO), "--metrics", metrics,
               "--reference", "purity,inverse_purity", "--out", str(tmp_path)])
    assert rc == 0
    out = pd.read_csv(tmp_path / "meta_evaluation.csv")
    assert list(out.columns) == ["metric", "robustness", "strictness"]
    assert list(out["metric"]) == ["reliability", "sensitivity", "v_measure(beta=2)", "purity",
                                   "inverse_purity"]
    # the same numbers as the library on the score table evaluate() gives
    table = evaluate(load(DEMO), metrics + ",purity,inverse_purity")
    ref = meta_evaluate(table, ["reliability", "sensitivity", "v_measure(beta=2)"],
                        ["purity", "inverse_purity"]).to_dataframe()
    assert np.array_equal(out["robustness"].to_numpy(), ref["robustness"].to_numpy())
    assert np.array_equal(out["strictness"].to_numpy(), ref["strictness"].to_numpy())
    assert out["strictness"].between(-1, 0).all() and out["robustness"].between(-1, 1).all()
    topics = pd.read_csv(tmp_path / "meta_evaluation_topics.csv")
    assert len(topics) == 5 * 61 and (topics["systems"] == 35).all()
    ranks = pd.read_csv(tmp_path / "meta_evaluation_ranks.csv")
    assert len(ranks) == 5 * 61 * 35 and ranks["scaled_rank"].between(0, 1).all()
    assert "35 systems, 61 topics" in capsys.readouterr().out


def test_score_table_campaign_by_hand(tmp_path):
    # the hand-worked table of tests/test_meta_evaluation.py, written as a score-table file
    path = tmp_path / "scores.csv"
    _table(HAND).to_csv(path, index=False)
    rc = main(["meta-evaluate", str(path), "--metrics", "m", "--reference", "r1,r2",
               "--lower-is-better", "r2", "--out", str(tmp_path / "o")])
    assert rc == 0
    out = pd.read_csv(tmp_path / "o" / "meta_evaluation.csv").set_index("metric")
    assert out.loc["m", "strictness"] == pytest.approx(-2 / 3)
    assert out.loc["m", "robustness"] == pytest.approx(-1 / 3)
    assert out.loc["r2", "robustness"] == pytest.approx(-0.2)


def test_bundled_score_table(tmp_path):
    rc = main(["meta-evaluate", str(SAMPLE), "--metrics", "f_0.5", "--reference",
               "reliability,sensitivity", "--out", str(tmp_path)])
    assert rc == 0
    out = pd.read_csv(tmp_path / "meta_evaluation.csv")
    assert list(out["metric"]) == ["f_0.5", "reliability", "sensitivity"]


@pytest.mark.parametrize("argv, message", [
    ([str(DEMO), "--metrics", "nope", "--reference", "purity"], "unknown metric 'nope'"),
    ([str(SAMPLE), "--metrics", "purity", "--reference", "reliability"], "not in the scores"),
    ([str(SAMPLE), "--metrics", "f_0.5,f_0.5", "--reference", "reliability"], "repeats"),
    ([str(SAMPLE), "--metrics", "f_0.5", "--reference", "reliability", "--systems", "x"],
     "not in the score table"),
    (["/nonexistent/campaign", "--metrics", "purity", "--reference", "purity"], "nonexistent"),
])
def test_bad_input_exits_2_with_one_line(argv, message, tmp_path, capsys):
    rc = main(["meta-evaluate", *argv, "--out", str(tmp_path)])
    assert rc == 2
    err = capsys.readouterr().err.strip()
    assert err.startswith("unanimity meta-evaluate: error:") and message in err
    assert len(err.splitlines()) == 1
