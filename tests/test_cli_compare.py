"""``unanimity compare``: the files it writes and its errors."""

from __future__ import annotations

import importlib.util
from pathlib import Path

import numpy as np
import pandas as pd
import pytest
from compare_cli import run_compare
from score_examples import JAIR

from metrics.cli import build_parser, main
from metrics.errors import UnanimityError

HERE = Path(__file__).resolve().parent
FIXTURE = HERE / "data" / "replab2013_official_rs.csv.gz"
DEMO = HERE.parent / "demo_data" / "replab2013"

PAIR_COLUMNS = ["system_a", "system_b", "uir", "n_a_better", "n_b_better", "n_tied", "uir_param",
                "delta_f", "beats_all_alpha", "crossings", "pair_class"]



def test_compare_replab_score_table(tmp_path, capsys):
    out = tmp_path / "out"
    code = run_compare([str(FIXTURE), "--metrics", "reliability,sensitivity", "--out", str(out),
                        "--latex", "--testbeds", r"RL2013(D\d\d)"])
    assert code == 0
    assert "35 systems, 1190 ordered pairs" in capsys.readouterr().out
    pairs = pd.read_csv(out / "pairs.csv")
    assert len(pairs) == 1190
    for c in PAIR_COLUMNS + ["p_reliability", "p_sensitivity"]:
        assert c in pairs.columns
    row = pairs.set_index(["system_a", "system_b"]).loc[("SVM_terms_jaccard_HAC_10%", "terms_jaccard_HAC_10%")]
    assert (row.n_a_better, row.n_b_better, row.n_tied) == (52, 0, 3)
    assert row.uir == pytest.approx(52 / 61)
    # crossings are written ';'-separated
    some = pairs["crossings"].dropna().iloc[0]
    assert all(0 < float(x) < 1 for x in str(some).split(";"))
    systems = pd.read_csv(out / "systems.csv")
    assert list(systems.columns[:3]) == ["system", "f_alpha", "precision"]
    for c in ["system", "f_alpha", "rank", "reference_system", "reference_uir", "improved_systems"]:
        assert c in systems.columns
    lda = systems.set_index("system").loc["t_twitter_LDA"]
    assert lda.reference_system == "SVM_allfeatures_HAC_60%"
    curve = pd.read_csv(out / "threshold_curve.csv")
    assert np.allclose(curve["threshold"], np.arange(101) / 100)
    for c in ["pairs", "concordant", "opposite", "beats_all_alpha", "f_contradicts"]:
        assert c in curve.columns
    # systems, robust pairs and (issue 13) the ranking with tie groups
    assert (out / "report.tex").read_text().count(r"\toprule") == 3
    beds = pd.read_csv(out / "cross_testbed.csv")
    assert set(beds["reference_bed"]) == {"D01", "D02", "D03", "D04"}


def test_compare_plain_csv_hand_example(tmp_path):
    path = tmp_path / "scores.csv"
    JAIR.to_csv(path, index=False)
    out = tmp_path / "o"
    assert run_compare([str(path), "--metrics", "precision,recall", "--out", str(out),
                        "--tests", "none", "--alpha", "0.3"]) == 0
    pairs = pd.read_csv(out / "pairs.csv").set_index(["system_a", "system_b"])
    ab = pairs.loc[("a", "b")]
    assert ab.uir == pytest.approx(0.2)
    assert (ab.n_a_better, ab.n_b_better, ab.n_tied) == (4, 2, 2)
    assert pd.isna(ab.p_precision) and pd.isna(ab.pair_class)
    assert pairs.loc[("b", "a"), "uir"] == pytest.approx(-0.2)
    assert not (out / "tests.csv").exists()


@pytest.mark.parametrize("test", ["t", "sign", "randomization"])
def test_compare_other_tests(tmp_path, test):
    out = tmp_path / test
    assert run_compare([str(FIXTURE), "--metrics", "reliability,sensitivity", "--out", str(out),
                        "--tests", test, "--correction", "bh", "--seed", "3"]) == 0
    tests = pd.read_csv(out / "tests.csv")
    assert len(tests) == 1190 * 2 and tests["pvalue_corrected"].between(0, 1).all()


def test_compare_errors(tmp_path):
    with pytest.raises(UnanimityError, match="nope"):
        run_compare([str(FIXTURE), "--metrics", "reliability,nope", "--out", str(tmp_path / "x")])
    with pytest.raises(UnanimityError, match="two"):
        run_compare([str(FIXTURE), "--metrics", "reliability", "--out", str(tmp_path / "x")])
    bad = tmp_path / "bad.csv"
    bad.write_text("system,topic,metric,value\na,t1,p,0.5\na,t1,p,0.6\n")
    with pytest.raises(UnanimityError, match=r"line 3: .* has two values: 0.5 \(line 2\)"):
        run_compare([str(bad), "--metrics", "p,r", "--out", str(tmp_path / "y")])
    bad.write_text("system,topic,metric,value\na,t1,p,high\n")
    with pytest.raises(UnanimityError, match="line 2: value 'high' is not a number"):
        run_compare([str(bad), "--metrics", "p,r", "--out", str(tmp_path / "y")])


def test_compare_through_the_campaign_loader(tmp_path):
    """A tab-separated score table goes through metrics.io.load (not the direct CSV read)."""
    table = pd.read_csv(FIXTURE)
    path = tmp_path / "scores.tsv"
    table.to_csv(path, sep="\t", index=False)
    out = tmp_path / "o"
    assert run_compare([str(path), "--metrics", "reliability,sensitivity", "--out", str(out),
                        "--tests", "none"]) == 0
    direct = tmp_path / "d"
    run_compare([str(FIXTURE), "--metrics", "reliability,sensitivity", "--out", str(direct), "--tests", "none"])
    a = pd.read_csv(out / "pairs.csv")
    b = pd.read_csv(direct / "pairs.csv")
    pd.testing.assert_frame_equal(a[PAIR_COLUMNS[:7]], b[PAIR_COLUMNS[:7]])


def test_cli_dispatcher_exit_code(tmp_path, capsys):
    try:

        main_parser_ok = True

        build_parser()
    except (ImportError, ModuleNotFoundError):
        main_parser_ok = False
    if not main_parser_ok:
        pytest.skip("the unanimity dispatcher cannot load every sub-command yet")
    assert main(["compare", str(FIXTURE), "--metrics", "reliability,nope", "--out", str(tmp_path)]) == 2
    err = capsys.readouterr().err.strip()
    assert err.count("\n") == 0 and "nope" in err


@pytest.mark.skipif(importlib.util.find_spec("metrics.measures.scoring") is None, reason="evaluator not available")
def test_compare_campaign_with_clusterings(tmp_path):
    """RepLab 2013 runs scored with BCubed precision / recall, end to end."""
    if not DEMO.exists():
        pytest.skip("bundled RepLab campaign not found")
    out = tmp_path / "o"
    assert run_compare([str(DEMO), "--metrics", "bcubed_precision,bcubed_recall", "--out", str(out)]) == 0
    systems = pd.read_csv(out / "systems.csv").set_index("system")
    assert len(systems) == 35
    # BCubed P / R with missing items penalised are the official Reliability / Sensitivity
    official = pd.read_csv(FIXTURE).groupby(["system", "metric"])["value"].mean().unstack()
    assert systems.loc["best_replab", "precision"] == pytest.approx(official.loc["best_replab", "reliability"], abs=1e-9)
    assert systems.loc["best_replab", "recall"] == pytest.approx(official.loc["best_replab", "sensitivity"], abs=1e-9)
    assert (out / "cross_testbed.csv").exists()


def test_compare_metric_names_in_any_spelling(tmp_path):
    # parameters written differently from evaluate's canonical names are the same metric
    out = tmp_path / "o"
    argv = [str(HERE / "data" / "replab"), "--metrics",
            "bcubed_precision,v_measure(beta=2.0)", "--tests", "none", "--out", str(out)]
    assert run_compare(argv) == 0
    assert "p_v_measure(beta=2)" in pd.read_csv(out / "pairs.csv").columns


def test_compare_topics_outside_the_testbed_rule_make_no_bed(tmp_path, demo_path):
    out = tmp_path / "o"
    assert run_compare([str(demo_path), "--metrics", "bcubed_precision,bcubed_recall",
                        "--testbeds", r"^RL\d{4}(D0[12])E", "--tests", "none",
                        "--out", str(out)]) == 0
    beds = set(pd.read_csv(out / "cross_testbed.csv")["reference_bed"])
    assert beds == {"D01", "D02"}
