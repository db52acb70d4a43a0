"""Wide score tables (metrics/io/wide_scores.py): the same leaderboard in CSV, TSV, Parquet and
JSON lines reads into the same long score table; errors name file, line and problem; the bundled
RepLab 2013 leaderboard equals the official scores; three-metric UIR on it equals a per-pair
reference."""

from __future__ import annotations

import json
from pathlib import Path

import numpy as np
import pandas as pd
import pytest

from metrics.analyses import compare
from metrics.comparison.uir import uir
from metrics.errors import CampaignFormatError
from metrics.io.load import detect_format, load
from metrics.io.wide_scores import looks_like_wide, read_wide_scores

HERE = Path(__file__).resolve().parent
LEADERBOARD = HERE.parent / "demo_data" / "leaderboards" / "replab2013_official.csv"
OFFICIAL_RS = HERE / "data" / "replab2013_official_rs.csv.gz"

ROWS = [("bm25", "dl19", 0.5, 0.25, 0.75), ("monoT5", "dl19", 0.75, None, 1.0),
        ("bm25", "dl20", 0.375, 0.125, 0.5)]
EXPECTED = pd.DataFrame(
    [(s, t, m, np.nan if v is None else v) for s, t, *vals in ROWS
     for m, v in zip(["nDCG@10", "AP", "RR"], vals, strict=True)],
    columns=["system", "topic", "metric", "value"])


def _write(tmp_path: Path, kind: str) -> Path:
    frame = pd.DataFrame(ROWS, columns=["model", "task", "nDCG@10", "AP", "RR"])
    if kind == "csv":
        path = tmp_path / "board.csv"
        frame.to_csv(path, index=False)
    elif kind == "tsv":
        path = tmp_path / "board.tsv"
        frame.to_csv(path, index=False, sep="\t")
    elif kind == "parquet":
        path = tmp_path / "board.parquet"
        frame.to_parquet(path, index=False)
    else:
        path = tmp_path / "board.jsonl"
        path.write_text("\n".join(json.dumps(r) for r in frame.to_dict("records")) + "\n")
    return path


@pytest.mark.parametrize("kind", ["csv", "tsv", "parquet", "jsonl"])
def test_every_encoding_reads_the_same_long_table(tmp_path, kind):
    path = _write(tmp_path, kind)
    assert detect_format(path) == "wide"
    table = read_wide_scores(path)
    pd.testing.assert_frame_equal(table.reset_index(drop=True), EXPECTED, check_dtype=False)
    assert any("1 empty metric cell" in n.problem for n in table.attrs["notes"])
    campaign = load(path)
    assert campaign.gold is None and sorted(campaign.topics) == ["dl19", "dl20"]
    assert set(campaign.scores["metric"]) == {"nDCG@10", "AP", "RR"}


def test_detection():
    assert looks_like_wide("system,topic,P,R") and looks_like_wide("Model\tTask\tacc")
    assert not looks_like_wide("system,topic,metric,value")
    assert not looks_like_wide("topic,item,cluster,system")
    assert not looks_like_wide("system,topic")


@pytest.mark.parametrize("text, problem, line", [
    ("system,topic,P\na,t1,0.5\nb,t1,high\n", "metric 'P': 'high' is not a number", 3),
    ("system,topic,P\na,t1,0.5\nb,t1,0.2\na,t1,0.4\n", "system 'a', topic 't1' is on two rows "
     "(lines 2 and 4)", 4),
    ("system,topic,P\na,t1,inf\n", "metric 'P': infinite value", 2),
    ("system,topic,P,p\na,t1,1,2\n", "column 'P' is in the header twice", 1),
    ("system,topic,P\na,,0.5\n", "missing value for topic", 2),
])
def test_errors_name_the_line_and_problem(tmp_path, text, problem, line):
    path = tmp_path / "bad.csv"
    path.write_text(text)
    with pytest.raises(CampaignFormatError) as err:
        read_wide_scores(path)
    assert problem in err.value.problem and err.value.line == line
    assert "bad.csv" in str(err.value) and "\n" not in str(err.value)


def test_no_metric_or_no_row(tmp_path):
    path = tmp_path / "b.csv"
    path.write_text("system,topic,P\n")
    with pytest.raises(CampaignFormatError, match="no row"):
        read_wide_scores(path)
    path.write_text("model,dataset\nx,y\n")
    with pytest.raises(CampaignFormatError, match="one column per metric"):
        read_wide_scores(path)


def test_bundled_leaderboard_equals_the_official_scores():
    wide = read_wide_scores(LEADERBOARD)
    assert wide["system"].nunique() == 35 and wide["topic"].nunique() == 61
    official = pd.read_csv(OFFICIAL_RS)
    key = ["system", "topic"]
    for ours, theirs in (("Reliability", "reliability"), ("Sensitivity", "sensitivity")):
        a = wide[wide["metric"] == ours].set_index(key)["value"].sort_index()
        b = official[official["metric"] == theirs].set_index(key)["value"].sort_index()
        np.testing.assert_allclose(a.to_numpy(), b.to_numpy(), rtol=0, atol=1e-12)
        assert a.index.equals(b.index)


def test_three_metric_uir_on_the_leaderboard_equals_a_per_pair_reference():
    table = load(LEADERBOARD).scores
    metrics = ["Reliability", "Sensitivity", "F"]
    res = compare(table, "Reliability", "Sensitivity", metrics=metrics, test="none",
                  parametric=False)
    systems = list(res.systems["system"])
    rng = np.random.default_rng(0)
    for i, j in rng.choice(len(systems), size=(25, 2)):
        if i == j:
            continue
        ref = uir(table, systems[i], systems[j], metrics).uir
        assert res.uir.uir[i, j] == pytest.approx(ref, abs=1e-12)
