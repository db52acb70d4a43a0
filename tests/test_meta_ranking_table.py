"""The R&S paper's Table 8 (metrics/meta/ranking_table.py, ``meta-evaluate --table 8``) on a
small TREC campaign written here (qrels + three runs) and on TREC DL 2019."""

from __future__ import annotations

import gzip
import itertools
from pathlib import Path

import numpy as np
import pandas as pd
import pytest
import pytrec_eval
from scipy.stats import spearmanr

from metrics.cli import main
from metrics.errors import UnanimityError
from metrics.io import load
from metrics.meta.meta_evaluation import meta_evaluate
from metrics.meta.ranking_table import (
    IR_MEASURES,
    _scores,
    paper_order,
    ranking_table,
    run_depths,
)
from tests.trec_toy import write_trec

ROOT = Path(__file__).resolve().parents[1]
SHARED_DL = ROOT.parent / "shared" / "campaigns" / "trec-dl-2019"

@pytest.fixture()
def folder(tmp_path):
    return write_trec(tmp_path)


def test_ir_scores_by_hand(folder):
    campaign = load(folder)
    assert run_depths(campaign).to_dict() == {"bad": 4, "good": 4, "mid": 4}
    table = _scores(campaign, ["bad", "good", "mid"], [])
    got = table.set_index(["system", "topic", "metric"])["value"]
    assert got[("good", "q1", "P@10")] == pytest.approx(2 / 10)
    assert got[("mid", "q1", "MAP")] == pytest.approx((1 / 2) / 2)
    assert got[("good", "q3", "MAP")] == pytest.approx((1 + 1 + 3 / 4) / 3)
    assert got[("mid", "q2", "MRR")] == pytest.approx(1 / 2)
    assert got[("bad", "q2", "MRR")] == 0.0
    assert got[("good", "q3", "RBP(0.8)")] == pytest.approx(0.2 * (1 + 0.8 + 0.8 ** 3))


def test_table_and_files(folder, tmp_path, capsys):
    out = tmp_path / "out"
    assert main(["meta-evaluate", str(folder), "--table", "8", "--min-depth", "0",
                 "--out", str(out)]) == 0
    written = pd.read_csv(out / "table8.csv")
    assert list(written["metric"]) == ["R*S(n=30)", "R*S(n=800)", *IR_MEASURES]
    assert list(written.columns) == ["metric", "robustness", "per-topic@1", "all-outputs@1",
                                     "per-topic@10", "all-outputs@10", "paper_strictness"]
    ir = written[written["metric"].isin(IR_MEASURES)]
    # every IR measure orders good > mid > bad on every topic
    assert ir["robustness"].to_numpy() == pytest.approx([1.0] * 6)
    assert ir["per-topic@1"].to_numpy() == pytest.approx([0.0] * 6)
    campaign = load(folder)
    scores = _scores(campaign, ["bad", "good", "mid"], [(30, 0.8), (800, 0.8)])
    for k in (1, 10):  # the library's meta-evaluation, column for column
        want = meta_evaluate(scores, ["R*S(n=30)", "R*S(n=800)"], list(IR_MEASURES),
                             strictness_top=k).to_dataframe()
        assert written[f"all-outputs@{k}"].to_numpy() == pytest.approx(
            want["strictness_all_outputs"].to_numpy(), nan_ok=True)
        assert written[f"per-topic@{k}"].to_numpy() == pytest.approx(
            want["strictness_per_topic"].to_numpy(), nan_ok=True)
    assert written["paper_strictness"].tolist()[:3] == [-0.58, pytest.approx(np.nan, nan_ok=True),
                                                        -0.74]
    printed = capsys.readouterr().out
    assert "3 of 3 systems (median depth >= 0), 3 topics" in printed


def test_paper_order():
    rows = {"R*S(n=30)": (-0.5, -0.9), "MRR": (-0.6, -0.6), "MAP": (-0.7, -0.7),
            "P@10": (-0.8, -0.8), "nDCG@10": (-0.1, -0.1)}
    out = pd.DataFrame([(m, *v) for m, v in rows.items()],
                       columns=["metric", "per-topic@1", "all-outputs@1"])
    assert paper_order(out) == {"per-topic@1": True, "all-outputs@1": False}


@pytest.mark.parametrize("extra, message", [
    (["--tops", "0"], "--tops takes whole numbers >= 1"),
    (["--tops", "x"], "--tops takes whole numbers"),
    (["--min-depth", "5"], "only 0 systems"),
    (["--metrics", "AP"], "--table and --figure choose their own measures"),
])
def test_bad_options(folder, extra, message, capsys):
    assert main(["meta-evaluate", str(folder), "--table", "8", *extra]) == 2
    err = capsys.readouterr().err
    assert message in err and len(err.strip().splitlines()) == 1


def test_not_a_ranking_campaign():
    with pytest.raises(UnanimityError, match="needs a ranking campaign"):
        ranking_table(load(ROOT / "demo_data" / "replab2013"))


def _trec(path: Path) -> dict:
    out: dict = {}
    with gzip.open(path, "rt") as f:
        for line in f:
            parts = line.split()
            if len(parts) == 4:
                out.setdefault(parts[0], {})[parts[2]] = int(parts[3])
            else:
                out.setdefault(parts[0], {})[parts[2]] = float(parts[4])
    return out


@pytest.mark.skipif(not SHARED_DL.exists(), reason=f"TREC DL 2019 not found at {SHARED_DL}")
def test_trec_dl_table8(capsys):
    """``--table 8`` on TREC DL 2019: the printed table is the library's; the runs kept and the
    MAP row are recomputed here from the files (pytrec_eval, scipy's Spearman over every pair
    of topics)."""
    assert main(["meta-evaluate", str(SHARED_DL), "--table", "8"]) == 0
    printed = capsys.readouterr().out.splitlines()
    result = ranking_table(load(SHARED_DL))
    assert printed == result.lines("trec-dl-2019")
    assert printed[0] == "trec-dl-2019: 33 of 37 systems (median depth >= 900), 43 topics"
    qrels = _trec(SHARED_DL / "qrels.txt.gz")
    depth, maps = {}, {}
    for path in sorted((SHARED_DL / "runs").glob("*.run*")):
        run = _trec(path)
        name = path.name.split(".run")[0]
        depth[name] = float(np.median([len(run.get(q, {})) for q in qrels]))
        if depth[name] >= 900:
            ev = pytrec_eval.RelevanceEvaluator(qrels, {"map"}, relevance_level=2).evaluate(run)
            maps[name] = [ev.get(q, {"map": 0.0})["map"] for q in sorted(qrels)]
    assert result.depth.to_dict() == depth
    assert sorted(maps) == result.systems
    values = np.array([maps[s] for s in result.systems])  # systems x topics
    rhos = [spearmanr(values[:, i], values[:, j])[0]
            for i, j in itertools.combinations(range(values.shape[1]), 2)]
    row = result.table.set_index("metric").loc["MAP"]
    assert row["robustness"] == pytest.approx(np.nanmean(rhos), abs=1e-12)
