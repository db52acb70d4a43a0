"""The Dask engine gives the in-memory engine's score table and validation counts.

One LocalCluster of 2 in-process workers serves the whole module. Checked: RepLab 2013 (the
bundled campaign, written as partitioned Parquet), random campaigns with overlap, missing,
extra and duplicate rows (Hypothesis, compared with the numpy engine on the same files, which
the brute-force tests check against the definitions), a topic split across partitions, a
hand-worked example, the command line and bad input.
"""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

import numpy as np
import pandas as pd
import pyarrow as pa
import pyarrow.parquet as pq
import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

pytest.importorskip("dask.dataframe")
distributed = pytest.importorskip("distributed")

from metrics.cli import main  # noqa: E402
from metrics.engines.dask import evaluate_dask, local_cluster  # noqa: E402
from metrics.engines.dask.layout import load_in_memory  # noqa: E402
from metrics.engines.evaluation import evaluate  # noqa: E402
from metrics.errors import CampaignAlignmentError, CampaignFormatError, UnanimityError  # noqa: E402
from metrics.io import load  # noqa: E402
from metrics.measures.registry import available_metrics  # noqa: E402

ROOT = Path(__file__).resolve().parents[1]
DEMO = ROOT / "demo_data" / "replab2013"
ALL = [m.name for m in available_metrics()] + ["v_measure(beta=2)", "bcubed_adapted_recall(k=4)"]
# dask's Parquet reader still calls reset_index(inplace=True), which pandas 3.1 deprecates
pytestmark = pytest.mark.filterwarnings("ignore:The inplace keyword in DataFrame.reset_index")
REPORT_FIELDS = ("rows", "items", "topics", "missing_items", "extra_items", "extra_topics",
                 "missing_topics", "missing_topic_names", "duplicate_rows", "overlapping_items")


@pytest.fixture(scope="module")
def client(dask_client):
    return dask_client  # tests/conftest.py


def write_parts(frame: pd.DataFrame, folder: Path, n_parts: int, seed: int | None = 0) -> None:
    """Rows (shuffled unless ``seed`` is None) cut into ``n_parts`` files: a topic is spread
    over several parts."""
    folder.mkdir(parents=True)
    order = np.arange(len(frame))
    if seed is not None:
        order = np.random.default_rng(seed).permutation(len(frame))
    for i, rows in enumerate(np.array_split(order, n_parts)):
        pq.write_table(pa.Table.from_pandas(frame.iloc[rows], preserve_index=False),
                       folder / f"part-{i:03d}.parquet")


def same_scores(a: pd.DataFrame, b: pd.DataFrame) -> None:
    assert list(a.columns) == list(b.columns) == ["system", "topic", "metric", "value"]
    assert a[["system", "topic", "metric"]].equals(b[["system", "topic", "metric"]])
    diff = np.abs(a["value"].to_numpy() - b["value"].to_numpy())
    assert diff.max(initial=0.0) <= 1e-12, a[diff > 1e-12].assign(other=b["value"][diff > 1e-12])


def same_report(numpy_report, dask_report) -> None:
    g1, g2 = numpy_report.gold, dask_report.gold
    for f in ("rows", "items", "topics", "duplicate_rows", "overlapping_items"):
        assert getattr(g1, f) == getattr(g2, f), f
    assert list(numpy_report.systems) == list(dask_report.systems)
    for name, r1 in numpy_report.systems.items():
        r2 = dask_report.systems[name]
        for f in REPORT_FIELDS:
            assert getattr(r1, f) == getattr(r2, f), (name, f)


# --- RepLab 2013 ------------------------------------------------------------------------------
def test_replab_partitioned_equals_numpy_engine(tmp_path, client):
    gold = pd.read_parquet(DEMO / "gold.parquet")
    runs = pd.read_parquet(DEMO / "runs.parquet")
    write_parts(gold, tmp_path / "gold.parquet", 3)
    # in file order, so that the systems keep their order of first appearance; the cuts fall
    # inside topics
    write_parts(runs, tmp_path / "runs.parquet", 4, seed=None)
    camp = load(DEMO)
    res = evaluate_dask(tmp_path, ALL, client=client, partition_rows=700_000)
    assert res.partitions >= 3
    same_scores(evaluate(camp, ALL), res.scores)
    same_report(camp.report, res.report)


# --- random campaigns -------------------------------------------------------------------------
def random_campaign(seed: int, n_topics: int) -> tuple[pd.DataFrame, pd.DataFrame]:
    """gold and two runs as long tables: overlap, missing, extra and duplicate rows."""
    rng = np.random.default_rng(seed)
    rows = []
    for t in range(n_topics):
        n = int(rng.integers(1, 25))
        k = int(rng.integers(1, 6))
        for e in range(n):
            for c in rng.choice(k, size=min(k, 1 + (rng.random() < 0.2)), replace=False):
                rows.append((f"t{t}", f"e{t}_{e}", f"L{c}"))
    gold = pd.DataFrame(rows, columns=["topic", "item", "cluster"])
    runs = []
    for s in range(2):
        rr = []
        for i, ((t, e), _) in enumerate(gold.groupby(["topic", "item"])):
            if i and rng.random() < 0.15:
                continue   # missing
            for c in rng.choice(5, size=1 + (rng.random() < 0.2 * s), replace=False):
                rr.append((t, e, f"C{c}"))
        rr += [(f"t{int(rng.integers(0, n_topics + 1))}", f"x{i}", "C9")
               for i in range(int(rng.integers(0, 4)))]            # extra (maybe a new topic)
        run = pd.DataFrame(rr, columns=["topic", "item", "cluster"])
        if len(run) > 2 and rng.random() < 0.5:
            run = pd.concat([run, run.iloc[:2]], ignore_index=True)  # duplicate rows
        run.insert(0, "system", f"s{s}")
        runs.append(run)
    return gold, pd.concat(runs, ignore_index=True)


@settings(max_examples=5, deadline=None, suppress_health_check=[HealthCheck.too_slow,
                                                                HealthCheck.function_scoped_fixture])
@given(st.integers(0, 2**32 - 1), st.integers(1, 3), st.sampled_from(["penalize", "singleton"]))
def test_random_campaigns_equal_numpy_engine(tmp_path_factory, client, seed, n_topics, missing):
    gold, runs = random_campaign(seed, n_topics)
    path = tmp_path_factory.mktemp("camp")
    write_parts(gold, path / "gold.parquet", 2, seed)
    write_parts(runs, path / "runs.parquet", 3, seed + 1)
    camp = load_in_memory(path)
    rows = max(1, (len(gold) + len(runs)) // 4)   # about four partitions
    res = evaluate_dask(path, ALL, missing=missing, client=client, partition_rows=rows)
    assert res.partitions > 1
    same_scores(evaluate(camp, ALL, missing=missing), res.scores)
    same_report(camp.report, res.report)


def test_topic_split_across_partitions_equals_single_file(tmp_path, client):
    rng = np.random.default_rng(7)
    n = 3000
    gold = pd.DataFrame({"topic": rng.choice(["a", "b"], n), "item": np.arange(n),
                         "cluster": rng.integers(0, 40, n)})
    run = gold.assign(cluster=np.where(rng.random(n) < 0.3, rng.integers(0, 60, n),
                                       gold["cluster"]))
    run = run[rng.random(n) > 0.05]
    single, parts = tmp_path / "single", tmp_path / "parts"
    (single / "runs").mkdir(parents=True)
    pq.write_table(pa.Table.from_pandas(gold, preserve_index=False), single / "gold.parquet")
    pq.write_table(pa.Table.from_pandas(run, preserve_index=False),
                   single / "runs" / "sys.parquet")
    write_parts(gold, parts / "gold.parquet", 7)
    write_parts(run, parts / "runs" / "sys.parquet", 5)
    one = evaluate_dask(single, ALL, client=client)
    many = evaluate_dask(parts, ALL, client=client, partition_rows=500)
    assert one.partitions == 1 and many.partitions > 5
    same_scores(one.scores, many.scores)
    same_scores(evaluate(load_in_memory(single), ALL), one.scores)


# --- hand-worked ------------------------------------------------------------------------------
def test_hand_worked_bcubed_with_missing_and_extra(tmp_path, client):
    # gold {1,2,3} {4,5}; run {1,2} {3,4} and item 5 missing, item 9 extra.
    # BCubed P = (1 + 1 + 1/2 + 1/2 + 1) / 5 = 0.8 (5 alone: its own singleton)
    # R (penalize) = (2/3 + 2/3 + 1/3 + 1/2 + 0) / 5 = 13/30
    (tmp_path / "runs").mkdir()
    pd.DataFrame({"topic": "t", "item": [1, 2, 3, 4, 5], "cluster": [0, 0, 0, 1, 1]}).to_parquet(
        tmp_path / "gold.parquet")
    pd.DataFrame({"topic": "t", "item": [1, 2, 3, 4, 9], "cluster": [7, 7, 8, 8, 8]}).to_parquet(
        tmp_path / "runs" / "r.parquet")
    res = evaluate_dask(tmp_path, "bcubed_precision,bcubed_recall,purity", client=client)
    assert res.scores["value"].tolist() == pytest.approx([0.8, 13 / 30, 0.8], abs=1e-15)
    rep = res.report.systems["r"]
    assert (rep.missing_items, rep.extra_items, rep.items) == (1, 1, 5)
    with pytest.raises(CampaignAlignmentError, match="misses 1 gold item"):
        evaluate_dask(tmp_path, "purity", missing="error", client=client)


def test_a_skipped_file_is_reported_as_the_in_memory_engine_reports_it(tmp_path, client):
    """A file of ``runs/`` that is no campaign file is skipped with the same note by both
    engines, not silently."""
    (tmp_path / "runs").mkdir()
    pd.DataFrame({"topic": "t", "item": [1, 2], "cluster": [0, 1]}).to_parquet(
        tmp_path / "gold.parquet")
    pd.DataFrame({"topic": "t", "item": [1, 2], "cluster": [5, 5]}).to_parquet(
        tmp_path / "runs" / "r.parquet")
    (tmp_path / "runs" / "README.notes").write_text("how the runs were made\n")
    res = evaluate_dask(tmp_path, "purity", client=client)
    in_memory = load(tmp_path).report
    said = [(n.path, n.problem) for n in res.report.notes]
    assert said == [(n.path, n.problem) for n in in_memory.notes
                    if n.path.endswith("README.notes")]
    assert said == [(str(tmp_path / "runs" / "README.notes"),
                     "not a campaign file (unknown extension): skipped")]


# --- the API dispatch and the command line ------------------------------------------------------
def test_evaluate_engine_option_and_cli(tmp_path, client, capsys):
    (tmp_path / "runs").mkdir()
    pd.DataFrame({"topic": "t", "item": [1, 2, 3], "cluster": [0, 0, 1]}).to_parquet(
        tmp_path / "gold.parquet")
    pd.DataFrame({"topic": "t", "item": [1, 2, 3], "cluster": [5, 6, 6]}).to_parquet(
        tmp_path / "runs" / "r.parquet")
    api = evaluate(str(tmp_path), "purity,inverse_purity", engine="dask", client=client)
    assert api["value"].tolist() == pytest.approx([2 / 3, 2 / 3])
    out = tmp_path / "scores.csv"
    rc = main(["evaluate", str(tmp_path), "--engine", "dask", "--scheduler",
               client.scheduler.address, "--metrics", "purity,inverse_purity",
               "--out", str(out)])
    assert rc == 0
    assert pd.read_csv(out)["value"].tolist() == pytest.approx([2 / 3, 2 / 3])
    assert "dashboard" in capsys.readouterr().err
    assert main(["evaluate", str(tmp_path), "--engine", "dask", "--baselines", "all-in-one"]) == 2
    with pytest.raises(UnanimityError, match="give its path"):
        evaluate(load_in_memory(tmp_path), "purity", engine="dask")


# --- bad input --------------------------------------------------------------------------------
def test_bad_input(tmp_path, client):
    with pytest.raises(CampaignFormatError, match="no gold.parquet"):
        evaluate_dask(tmp_path, "purity", client=client)
    (tmp_path / "runs").mkdir()
    pd.DataFrame({"topic": ["t"], "item": [1], "label": [0]}).to_parquet(tmp_path / "gold.parquet")
    with pytest.raises(CampaignFormatError, match=r"gold.parquet: missing column\(s\) cluster"):
        evaluate_dask(tmp_path, "purity", client=client)
    pd.DataFrame({"topic": ["t"], "item": [1], "cluster": [0]}).to_parquet(
        tmp_path / "gold.parquet")
    with pytest.raises(CampaignFormatError, match="no runs"):
        evaluate_dask(tmp_path, "purity", client=client)
    pd.DataFrame({"topic": ["u"], "item": [1], "cluster": [0]}).to_parquet(
        tmp_path / "runs" / "r.parquet")
    with pytest.raises(CampaignFormatError, match="no .topic, item. in common"):
        evaluate_dask(tmp_path, "purity", client=client)
    pd.DataFrame({"topic": ["t", None], "item": [1, 2], "cluster": [0, 1]}).to_parquet(
        tmp_path / "runs" / "r.parquet")
    with pytest.raises(UnanimityError, match=r"r.parquet: 1 row\(s\) with an empty topic"):
        evaluate_dask(tmp_path, "purity", client=client)
    with pytest.raises(UnanimityError, match="unknown system"):
        evaluate_dask(tmp_path, "purity", systems=["nope"], client=client)
    with pytest.raises(UnanimityError, match="not a size"):
        local_cluster("lots")


def test_package_imports_without_dask():

    code = ("import sys; import metrics, metrics.measures.scoring, metrics.cli, metrics.commands.evaluate; "
            "assert not [m for m in sys.modules if m.split('.')[0] in ('dask', 'distributed')]")
    subprocess.run([sys.executable, "-c", code], check=True, cwd=ROOT,
                   env={"PYTHONPATH": str(ROOT), "PATH": "/usr/bin:/bin"})


def test_measures_of_other_tasks_are_refused_by_name(tmp_path):

    with pytest.raises(UnanimityError, match=r"nDCG@10.*--engine numpy"):
        evaluate_dask(tmp_path, ["bcubed_precision", "nDCG@10"])


def test_a_run_that_succeeds_prints_no_warning(tmp_path):
    """The local cluster's own WARNING lines (a shuffle deactivated at its end) are noise on a
    run that succeeds: standard error holds our log and the progress bar only."""
    camp = tmp_path / "L"
    subprocess.run([sys.executable, str(ROOT / "scripts" / "make_large_campaign.py"), "--items",
                    "5000", "--systems", "2", "--topics", "4", "--part-items", "2000", str(camp)],
                   check=True, capture_output=True)
    got = subprocess.run([sys.executable, "-m", "metrics", "evaluate", str(camp), "--engine",
                          "dask", "--memory-limit", "2GB", "--out", str(tmp_path / "s.csv")],
                         capture_output=True, text=True, cwd=ROOT)
    assert got.returncode == 0, got.stderr
    assert "Dask LocalCluster: " in got.stderr
    assert "WARNING" not in got.stderr and "Traceback" not in got.stderr, got.stderr
    assert len(pd.read_csv(tmp_path / "s.csv")) == 2 * 4 * 2
