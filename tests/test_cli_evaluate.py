"""``unanimity evaluate``: CSV score table, baselines, errors."""

from __future__ import annotations

from pathlib import Path

import numpy as np
import pandas as pd
import pytest

from metrics.cli import main
from metrics.io import load
from metrics.measures.scoring import evaluate

ROOT = Path(__file__).resolve().parents[1]
DEMO = ROOT / "demo_data" / "replab2013"
REPLAB_FILES = ROOT / "tests" / "data" / "replab"


def test_writes_the_score_table(tmp_path):
    out = tmp_path / "scores.csv"
    rc = main(["evaluate", str(DEMO), "--metrics", "bcubed_precision,v_measure(beta=2)",
               "--systems", "best_replab", "--out", str(out)])
    assert rc == 0
    t = pd.read_csv(out)
    assert list(t.columns) == ["system", "topic", "metric", "value"]
    assert len(t) == 61 * 2
    ref = evaluate(load(DEMO), "bcubed_precision,v_measure(beta=2)", systems=["best_replab"])
    assert np.array_equal(t["value"].to_numpy(), ref["value"].to_numpy())  # full precision
    assert list(t["metric"].unique()) == ["bcubed_precision", "v_measure(beta=2)"]


def test_baselines_and_stdout(capsys):
    rc = main(["evaluate", str(DEMO), "--metrics", "purity", "--baselines",
               "all-in-one,one-in-one", "--systems", "all-in-one,one-in-one", "--out", "-"])
    assert rc == 0
    lines = capsys.readouterr().out.strip().splitlines()
    assert lines[0] == "system,topic,metric,value"
    assert len(lines) == 1 + 2 * 61
    assert lines[-1].startswith("one-in-one,") and lines[-1].endswith(",1.0")


def test_gold_and_run_files(tmp_path):
    gold = next(p for p in REPLAB_FILES.rglob("gold*") if p.is_file())
    runs = sorted(p for p in (gold.parent / "runs").iterdir() if p.is_file())
    out = tmp_path / "s.csv"
    rc = main(["evaluate", "--gold", str(gold), "--run", str(runs[0]), "--metrics",
               "reliability,sensitivity", "--missing", "singleton", "--out", str(out)])
    assert rc == 0
    t = pd.read_csv(out)
    assert set(t["metric"]) == {"reliability", "sensitivity"}
    assert t["value"].between(0, 1).all()


@pytest.mark.parametrize("argv, message", [
    (["--metrics", "nope"], "unknown metric 'nope'"),
    (["--baselines", "nope"], "unknown baseline"),
    (["--systems", "nope"], "unknown system"),
])
def test_errors_print_one_line_and_exit_2(argv, message, capsys):
    rc = main(["evaluate", str(DEMO), *argv])
    assert rc == 2
    err = capsys.readouterr().err.strip()
    assert message in err and len(err.splitlines()) == 1


def test_list_metrics(capsys):
    assert main(["evaluate", "--list-metrics"]) == 0
    assert "bcubed_adapted_recall" in capsys.readouterr().out
