"""Composite measures as metrics (docs/providers.md, Composites): ``F(m1, m2, alpha=…)`` and
``rs_f``, in ``evaluate``, ``compare`` and ``meta-evaluate``, on campaigns and score tables.

Every value is checked against the harmonic mean computed here by hand from the parts, and
the IR composite against ``ir_measures`` run directly on the files.
"""

from __future__ import annotations

from pathlib import Path

import ir_measures
import numpy as np
import pandas as pd
import pytest

from metrics.cli import main
from metrics.errors import UnanimityError
from metrics.io import load
from metrics.measures.registry import parse_metric
from metrics.measures.scoring import add_table_composites, evaluate, score_clusterings

ROOT = Path(__file__).resolve().parents[1]
REPLAB = ROOT / "demo_data" / "replab2013"
SMALL = ROOT / "tests" / "data" / "trec_small"
SCORES = ROOT / "tests" / "data" / "scores" / "replab_sample.csv"
SHARED_DL = ROOT.parent / "shared" / "campaigns" / "trec-dl-2019"


def _by_hand(p: np.ndarray, r: np.ndarray, alpha: float = 0.5) -> np.ndarray:
    """1 / (alpha / p + (1 - alpha) / r), 0 where p or r is 0, element by element."""
    return np.array([0.0 if a == 0 or b == 0 else 1.0 / (alpha / a + (1 - alpha) / b)
                     for a, b in zip(p, r, strict=True)])


def test_hand_worked_topic():
    # one class of three items, three singleton clusters: BCubed P = R&S R = 1, recall 1/3
    got = score_clusterings(["a", "a", "a"], ["x", "y", "z"],
                            "F(bcubed_precision,bcubed_recall),rs_f,"
                            "F(reliability,sensitivity,alpha=0.3)")
    assert got["F(bcubed_precision,bcubed_recall)"] == pytest.approx(0.5)  # 2·1·⅓ / (4/3)
    assert got["rs_f"] == pytest.approx(0.5)
    assert got["F(reliability,sensitivity,alpha=0.3)"] == pytest.approx(1 / 2.4)  # 1/(.3+2.1)


def test_evaluate_f_of_reliability_and_sensitivity_is_their_harmonic_mean():
    camp = load(REPLAB)
    systems = camp.systems[:4]
    table = evaluate(camp, "reliability,sensitivity,F(reliability,sensitivity),rs_f",
                     systems=systems)
    wide = table.pivot_table(index=["system", "topic"], columns="metric", values="value")
    expected = _by_hand(wide["reliability"].to_numpy(), wide["sensitivity"].to_numpy())
    assert np.abs(wide["F(reliability,sensitivity)"].to_numpy() - expected).max() <= 1e-12
    assert np.array_equal(wide["rs_f"].to_numpy(), wide["F(reliability,sensitivity)"].to_numpy())
    # asked alone, the parts are computed and left out of the table
    alone = evaluate(camp, "rs_f", systems=systems)
    assert set(alone["metric"]) == {"rs_f"}
    assert np.array_equal(alone["value"].to_numpy(), table[table["metric"] == "rs_f"]["value"])


def test_f_on_trec_equals_ir_measures_by_hand():
    camp = load(SMALL)
    table = evaluate(camp, "F(nDCG@10,AP(rel=2),alpha=0.3)", systems=["ranked"])
    qrels = list(ir_measures.read_trec_qrels(str(SMALL / "qrels.txt")))
    run = list(ir_measures.read_trec_run(str(SMALL / "runs" / "ranked.run")))
    direct = {(m.query_id, str(m.measure)): m.value for m in ir_measures.iter_calc(
        [ir_measures.parse_measure("nDCG@10"), ir_measures.parse_measure("AP(rel=2)")],
        qrels, run)}
    for topic, value in zip(table["topic"], table["value"], strict=True):
        nd, ap = direct.get((topic, "nDCG@10"), 0.0), direct.get((topic, "AP(rel=2)"), 0.0)
        assert value == pytest.approx(_by_hand(np.array([nd]), np.array([ap]), 0.3)[0],
                                      abs=1e-12)


def test_f_on_trec_dl_2019():
    if not SHARED_DL.exists():
        pytest.skip(f"TREC DL 2019 not found at {SHARED_DL}")
    camp = load(SHARED_DL)
    systems = camp.systems[:2]
    table = evaluate(camp, "nDCG@10,AP(rel=2),F(nDCG@10,AP(rel=2))", systems=systems)
    wide = table.pivot_table(index=["system", "topic"], columns="metric", values="value")
    expected = _by_hand(wide["nDCG@10"].to_numpy(), wide["AP(rel=2)"].to_numpy())
    assert np.abs(wide["F(nDCG@10,AP(rel=2))"].to_numpy() - expected).max() <= 1e-12


@pytest.mark.parametrize("name, says", [
    ("F(vi,purity)", "vi lies in [0, inf] and lower is better"),
    ("F(adjusted_rand,purity)", "adjusted_rand lies in [-1, 1]"),
    ("F(purity)", "F takes two metrics"),
    ("F(purity,inverse_purity,alpha=2)", "alpha must lie in [0, 1]"),
    ("F(purity,inverse_purity,alpha=x)", "is not a number"),
    ("F(purity,purity)", "two different metrics"),
    ("F(nope,purity)", "unknown metric 'nope'"),
])
def test_bad_composites_are_one_line(name, says):
    with pytest.raises(UnanimityError) as err:
        parse_metric(name)
    assert says in str(err.value) and "\n" not in str(err.value)


def test_a_composite_is_refused_where_a_part_is():
    with pytest.raises(UnanimityError, match="metric 'purity' cannot be computed") as err:
        evaluate(load(SMALL), "F(purity,nDCG@10)")
    assert "(kind: ranking)" in str(err.value)


def test_canonical_names():
    assert str(parse_metric("F( purity , inverse_purity )")) == "F(purity,inverse_purity)"
    assert str(parse_metric("F(v_measure(beta=2.0),purity,alpha=0.25)")) == \
        "F(v_measure(beta=2),purity,alpha=0.25)"
    assert str(parse_metric("rs_f(n=10)")) == "rs_f(n=10)"
    assert parse_metric("rs_f").direction == 1


def test_compare_and_meta_evaluate_take_composites(tmp_path, capsys):
    assert main(["compare", str(REPLAB), "--metrics", "rs_f,F(purity,inverse_purity)",
                 "--no-parametric",
                 "--out", str(tmp_path / "c")]) == 0
    assert "rs_f" in (tmp_path / "c" / "summary.json").read_text()
    assert main(["meta-evaluate", str(REPLAB), "--metrics", "rs_f,F(purity,inverse_purity)",
                 "--reference", "reliability,sensitivity", "--out", str(tmp_path / "m")]) == 0
    meta = pd.read_csv(tmp_path / "m" / "meta_evaluation.csv")
    assert {"rs_f", "F(purity,inverse_purity)"} <= set(meta.iloc[:, 0].astype(str))


def test_composites_of_a_score_tables_own_columns(tmp_path):
    scores = pd.read_csv(SCORES)
    assert main(["meta-evaluate", str(SCORES), "--metrics", "rs_f,F(reliability,sensitivity,"
                 "alpha=0.2)", "--reference", "reliability,sensitivity",
                 "--out", str(tmp_path / "m")]) == 0
    assert main(["compare", str(SCORES), "--metrics", "reliability,sensitivity,rs_f",
                 "--out", str(tmp_path / "c")]) == 0
    out = add_table_composites(scores, ["rs_f", "reliability"])
    wide = out.pivot_table(index=["system", "topic"], columns="metric", values="value")
    expected = _by_hand(wide["reliability"].to_numpy(), wide["sensitivity"].to_numpy())
    assert np.abs(wide["rs_f"].to_numpy() - expected).max() <= 1e-12
    with pytest.raises(UnanimityError, match="purity not in the scores"):
        add_table_composites(scores, ["F(purity,reliability)"])


def test_the_dask_engine_combines_composites_of_its_parts(tmp_path):
    distributed = pytest.importorskip("distributed")
    from metrics.engines.dask import evaluate_dask  # noqa: PLC0415 - after importorskip

    # gold {1,2,3} {4,5}; run {1,2} {3,4}, 5 missing: BCubed P = 0.8, R = 13/30 (penalize)
    (tmp_path / "runs").mkdir()
    pd.DataFrame({"topic": "t", "item": [1, 2, 3, 4, 5], "cluster": [0, 0, 0, 1, 1]}).to_parquet(
        tmp_path / "gold.parquet")
    pd.DataFrame({"topic": "t", "item": [1, 2, 3, 4], "cluster": [7, 7, 8, 8]}).to_parquet(
        tmp_path / "runs" / "r.parquet")
    with distributed.LocalCluster(n_workers=1, threads_per_worker=1, processes=False,
                                  dashboard_address=":0") as cluster, \
            distributed.Client(cluster) as client:
        res = evaluate_dask(tmp_path, "F(bcubed_precision,bcubed_recall),rs_f", client=client)
    p, r = 0.8, 13 / 30
    assert res.scores["metric"].tolist() == ["F(bcubed_precision,bcubed_recall)", "rs_f"]
    assert res.scores["value"].tolist() == pytest.approx([2 * p * r / (p + r)] * 2, abs=1e-15)
    with pytest.raises(UnanimityError, match="cannot compute reliability_priority"):
        evaluate_dask(tmp_path, "F(reliability_priority,purity)")
