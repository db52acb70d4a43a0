"""Partitioned Parquet campaigns (``gold.parquet/`` folders of part files, docs/dask.md) read by
the in-memory engine within the loader's budget, or refused in one line that points to
``--engine dask``.

Checked against :func:`metrics.engines.dask.layout.load_in_memory` (pyarrow's own dataset reader)
and against the same rows written as one Parquet file per table.
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

from metrics.cli import main
from metrics.engines.dask.layout import load_in_memory
from metrics.errors import CampaignFormatError
from metrics.io import load
from metrics.measures.scoring import evaluate

ROOT = Path(__file__).resolve().parents[1]
SCRIPT = ROOT / "scripts" / "make_large_campaign.py"
METRICS = ["bcubed_precision", "bcubed_recall", "purity"]


def _frame(rng: np.random.Generator, n: int, topics: int, system: str | None = None) -> pd.DataFrame:
    out = pd.DataFrame({"topic": [f"T{t}" for t in rng.integers(0, topics, n)],
                        "item": [f"i{i}" for i in rng.permutation(n)],
                        "cluster": rng.integers(0, 40, n).astype(str)})
    if system is not None:
        out["system"] = system
    return out


def _write_parts(frame: pd.DataFrame, folder: Path, parts: int) -> None:
    folder.mkdir(parents=True)
    for k, chunk in enumerate(np.array_split(np.arange(len(frame)), parts)):
        pq.write_table(pa.Table.from_pandas(frame.iloc[chunk], preserve_index=False),
                       folder / f"part-{k:05d}.parquet")


@pytest.fixture()
def parted(tmp_path):
    """The same campaign twice: as folders of part files, and as single Parquet files."""
    rng = np.random.default_rng(3)
    gold = _frame(rng, 900, 4)
    runs = {"alpha": gold.sample(frac=0.97, random_state=1).assign(
                cluster=lambda f: rng.integers(0, 25, len(f)).astype(str)),
            "beta": _frame(rng, 900, 4)}
    runs["beta"]["item"] = gold["item"].to_numpy()
    runs["beta"]["topic"] = gold["topic"].to_numpy()
    a, b = tmp_path / "parts", tmp_path / "single"
    _write_parts(gold, a / "gold.parquet", 3)
    (b / "runs").mkdir(parents=True)
    pq.write_table(pa.Table.from_pandas(gold, preserve_index=False), b / "gold.parquet")
    for name, frame in runs.items():
        _write_parts(frame, a / "runs" / f"{name}.parquet", 4)
        pq.write_table(pa.Table.from_pandas(frame, preserve_index=False),
                       b / "runs" / f"{name}.parquet")
    (a / "gold.parquet" / "_SUCCESS").write_text("")
    return a, b


def test_part_folders_load_as_the_single_files_and_as_pyarrow_reads_them(parted):
    a, b = parted
    got, single, arrow = load(a), load(b), load_in_memory(a)
    assert got.summary() == single.summary() == arrow.summary()
    assert got.systems == ["alpha", "beta"]
    want = evaluate(single, METRICS)
    pd.testing.assert_frame_equal(evaluate(got, METRICS), want)
    pd.testing.assert_frame_equal(evaluate(arrow, METRICS), want)


def test_a_runs_table_with_a_system_column_in_parts(tmp_path):
    rng = np.random.default_rng(8)
    gold = _frame(rng, 300, 2)
    both = pd.concat([gold.assign(system="s1"),
                      gold.assign(system="s2", cluster=rng.integers(0, 9, 300).astype(str))])
    _write_parts(gold, tmp_path / "c" / "gold.parquet", 2)
    _write_parts(both, tmp_path / "c" / "runs.parquet", 3)
    c = load(tmp_path / "c")
    assert c.systems == ["s1", "s2"]
    assert c.summary() == load_in_memory(tmp_path / "c").summary()


def test_over_the_budget_points_to_the_dask_engine(parted, monkeypatch, capsys):
    a, _ = parted
    monkeypatch.setenv("UNANIMITY_MAX_CAMPAIGN_MB", "0.04")  # 42 kB: three parts of the gold
    with pytest.raises(CampaignFormatError, match=r"in-memory budget.*--engine dask"):
        load(a)
    assert main(["info", str(a)]) == 2
    err = capsys.readouterr().err.strip()
    assert len(err.splitlines()) == 1
    assert f"unanimity evaluate {a} --engine dask" in err and "UNANIMITY_MAX_CAMPAIGN_MB" in err


def test_a_bad_part_is_named_with_its_row(parted):
    a, _ = parted
    bad = pd.DataFrame({"topic": ["T1", "T1"], "item": ["x", "y"], "cluster": ["1", None]})
    pq.write_table(pa.Table.from_pandas(bad, preserve_index=False),
                   a / "runs" / "alpha.parquet" / "part-00009.parquet")
    with pytest.raises(CampaignFormatError) as exc:
        load(a)
    assert str(exc.value) == f"{a / 'runs' / 'alpha.parquet' / 'part-00009.parquet'}: " \
                             "empty cluster (null) in row 2"


def test_sub_folders_are_refused_and_strays_noted(parted):
    a, _ = parted
    (a / "runs" / "beta.parquet" / "notes.txt").write_text("hello")
    c = load(a)
    assert any("notes.txt: not a Parquet part file: skipped" in str(n)
               for n in c.report.all_notes())
    (a / "gold.parquet" / "topic=T1").mkdir()
    with pytest.raises(CampaignFormatError, match=r"topic=T1: a sub-folder of a partitioned"):
        load(a)


def test_the_issue_command_info_on_make_large_campaign(tmp_path, capsys):
    out = tmp_path / "L"
    subprocess.run([sys.executable, str(SCRIPT), "--items", "6000", "--systems", "2",
                    "--topics", "4", "--part-items", "2500", str(out)],
                   check=True, capture_output=True)
    assert main(["info", str(out)]) == 0
    text = capsys.readouterr().out
    assert "topics      4" in text and "systems     2" in text and "gold items  6000" in text
    assert load(out).summary() == load_in_memory(out).summary()


def test_unused_categories_are_not_topics(tmp_path):
    """A campaign written from a filtered pandas frame keeps every category of the original in
    its dictionary-encoded columns (RepLab's 61 topics listed, 20 used): only the values the rows
    hold count, so the topics, the missing topics and every UIR denominator are the same as for
    the same rows written as text."""
    demo = ROOT / "demo_data" / "replab2013"
    gold, runs = (pd.read_parquet(demo / f"{n}.parquet") for n in ("gold", "runs"))
    keep = gold["topic"].cat.categories[:20]
    runs = runs[runs["system"].isin(runs["system"].cat.categories[:4])]
    for name, as_text in (("categorical", False), ("text", True)):
        folder = tmp_path / name
        folder.mkdir()
        for n, frame in (("gold", gold), ("runs", runs)):
            part = frame[frame["topic"].isin(keep)]
            assert isinstance(part["topic"].dtype, pd.CategoricalDtype)
            (part.astype(str) if as_text else part).to_parquet(folder / f"{n}.parquet",
                                                               index=False)
    cat, text = load(tmp_path / "categorical"), load(tmp_path / "text")
    assert len(pq.read_table(tmp_path / "categorical" / "gold.parquet")
               .column("topic").to_pandas().cat.categories) == 61  # the file lists all 61
    assert cat.n_topics == text.n_topics == 20
    pd.testing.assert_frame_equal(evaluate(cat, METRICS), evaluate(text, METRICS))
