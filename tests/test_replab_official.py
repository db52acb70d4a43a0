"""The official RepLab 2013 scores: Reliability = BCubed precision, Sensitivity = BCubed recall.

For all 35 runs × 61 entities, ``reliability``/``sensitivity`` (and ``bcubed_precision``/
``bcubed_recall``) under ``missing="penalize"`` equal the official scorer's numbers within
1e-9, and the official average F is the mean over entities of each entity's F. Reads the shared
campaign when present, the bundled copy and the fixture otherwise.
"""

from __future__ import annotations

import os
from pathlib import Path

import numpy as np
import pandas as pd
import pytest

from metrics.io import load
from metrics.measures.scoring import evaluate

ROOT = Path(__file__).resolve().parents[1]
SHARED = ROOT.parent / "shared" / "campaigns" / "replab2013"  # the shared folder next to the repository
FIXTURE = ROOT / "tests" / "data" / "replab2013_official.csv.gz"

pytestmark = pytest.mark.slow


def _official() -> pd.DataFrame:
    folder = SHARED / "official_scores"
    if folder.is_dir():
        frames = []
        for f in sorted(folder.glob("*.tsv")):
            d = pd.read_csv(f, sep="\t")
            d.columns = ["system", "entity", "reliability", "sensitivity", "f"]
            d["system"] = d["system"].map(os.path.basename)
            frames.append(d)
        return pd.concat(frames, ignore_index=True)
    return pd.read_csv(FIXTURE)


@pytest.fixture(scope="module")
def official() -> pd.DataFrame:
    return _official()


@pytest.fixture(scope="module")
def scores() -> pd.DataFrame:
    campaign = load(SHARED if SHARED.is_dir() else ROOT / "demo_data" / "replab2013")
    table = evaluate(campaign, "reliability,sensitivity,bcubed_precision,bcubed_recall",
                     missing="penalize")
    return table.pivot_table(index=["system", "topic"], columns="metric", values="value")


def test_every_run_and_entity_is_covered(official, scores):
    per_entity = official[official["entity"] != "average"]
    assert per_entity["system"].nunique() == 35
    assert len(per_entity) == 35 * 61
    keys = set(zip(per_entity["system"], per_entity["entity"]))
    assert keys == set(scores.index)


def test_reliability_sensitivity_equal_official(official, scores):
    per_entity = official[official["entity"] != "average"].set_index(["system", "entity"])
    ours = scores.loc[per_entity.index]
    diff = max(
        np.abs(ours["reliability"].to_numpy() - per_entity["reliability"].to_numpy()).max(),
        np.abs(ours["sensitivity"].to_numpy() - per_entity["sensitivity"].to_numpy()).max(),
    )
    assert diff < 1e-9, diff
    # without overlap R&S are BCubed precision and recall
    assert np.array_equal(ours["reliability"].to_numpy(), ours["bcubed_precision"].to_numpy())
    assert np.array_equal(ours["sensitivity"].to_numpy(), ours["bcubed_recall"].to_numpy())


def test_mean_per_entity_f_equals_official_average(official, scores):
    per_entity = official[official["entity"] != "average"]
    average = official[official["entity"] == "average"].set_index("system")
    r, s = scores["reliability"], scores["sensitivity"]
    f = pd.Series(np.where((r > 0) & (s > 0), 2 * r * s / (r + s), 0.0), index=scores.index)
    mean_f = f.groupby(level="system").mean()
    assert np.abs(mean_f.loc[average.index].to_numpy() - average["f"].to_numpy()).max() < 1e-9
    # and each entity's official F is F_0.5 of its official R and S
    rr, ss = per_entity["reliability"], per_entity["sensitivity"]
    f_off = np.where((rr > 0) & (ss > 0), 2 * rr * ss / (rr + ss), 0.0)
    assert np.abs(f_off - per_entity["f"].to_numpy()).max() < 1e-9
    # the official average R and S are the means too
    for col in ("reliability", "sensitivity"):
        mean = scores[col].groupby(level="system").mean()
        assert np.abs(mean.loc[average.index].to_numpy() - average[col].to_numpy()).max() < 1e-9
