"""Comparison bundles (metrics/reports/bundle.py): written, reopened, every table equal; tampered,
old
and manifest-less folders refused; `unanimity info DIR` recognises a bundle."""

from __future__ import annotations

import json
from pathlib import Path

import numpy as np
import pandas as pd
import pytest

from metrics.analyses import compare
from metrics.cli import main
from metrics.comparison.tie_ranking import ranking_from_comparison
from metrics.errors import UnanimityError
from metrics.reports.bundle import (
    BUNDLE_VERSION,
    MANIFEST,
    READ_VERSIONS,
    fingerprint,
    open_bundle,
    write_bundle,
    write_comparison_bundle,
)

FIXTURE = Path(__file__).resolve().parent / "data" / "replab2013_official_rs.csv.gz"


@pytest.fixture(scope="module")
def table() -> pd.DataFrame:
    t = pd.read_csv(FIXTURE, dtype={"system": str, "topic": str, "metric": str})
    keep = sorted(pd.unique(t["system"]))[:8]
    return t[t["system"].isin(keep)].reset_index(drop=True)


@pytest.fixture(scope="module")
def result(table):
    beds = {t: t[6:9] for t in pd.unique(table["topic"])}
    return compare(table, "reliability", "sensitivity", testbeds=beds)


@pytest.fixture()
def bundle_dir(tmp_path, result) -> Path:
    src = tmp_path / "scores.csv"
    src.write_text("x\n1\n")
    out = tmp_path / "out"
    write_comparison_bundle(result, out, inputs=[src], options={"alpha": 0.5}, latex=True)
    return out


def _same(a: pd.DataFrame, b: pd.DataFrame, list_cols=()) -> None:
    a, b = a.reset_index(drop=True), b.reset_index(drop=True)
    assert list(a.columns) == list(b.columns)
    for c in a.columns:
        if c in list_cols:
            for x, y in zip(a[c], b[c]):
                assert np.allclose(np.asarray(x, float), np.asarray(y, float), rtol=1e-9, atol=0)
        else:
            pd.testing.assert_series_equal(a[c], b[c], check_dtype=False, check_names=False)


def test_round_trip_every_table_equal(bundle_dir, result):
    b = open_bundle(bundle_dir)
    assert set(b.tables) == {"pairs", "systems", "threshold_curve", "tests", "delta_f_vs_uir",
                             "weakest_metric", "cross_testbed", "ranking", "ranking_order",
                             "ranking_hasse"}
    _same(b.tables["pairs"], result.pairs, list_cols=["crossings"])
    assert b.tables["pairs"]["beats_all_alpha"].dtype == bool
    _same(b.tables["systems"], result.systems)
    assert all(isinstance(v, list) for v in b.tables["systems"]["improved_systems"])
    _same(b.tables["threshold_curve"], result.threshold_curve)
    _same(b.tables["tests"], result.tests)
    _same(b.tables["delta_f_vs_uir"], result.delta_f_vs_uir["points"])
    _same(b.tables["weakest_metric"], result.weakest_metric["points"])
    _same(b.tables["cross_testbed"], result.cross_testbed)
    tr = ranking_from_comparison(result)
    _same(b.tables["ranking"], tr.to_csv_frame())
    _same(b.tables["ranking_order"], tr.to_dataframe())
    _same(b.tables["ranking_hasse"], tr.hasse)
    assert b.json["summary"]["n_systems"] == 8
    assert r"\begin{tabular}{rlc}" in b.texts["report"]  # the ranking table is in the report
    m = b.manifest
    assert m["format_version"] == BUNDLE_VERSION and m["options"] == {"alpha": 0.5}
    assert m["inputs"][0]["kind"] == "file" and len(m["inputs"][0]["sha256"]) == 64


def test_string_system_names_and_lists_survive(tmp_path):
    df = pd.DataFrame({"system": ["007", "10"], "x": [0.1, np.nan], "n": [1, 2],
                       "ok": [True, False], "where": [[0.25, 1 / 3], []], "who": [["007"], []]})
    write_bundle(tmp_path, {"t": df})
    got = open_bundle(tmp_path).tables["t"]
    assert got["system"].tolist() == ["007", "10"]
    assert got["where"][0] == [0.25, 1 / 3] and got["where"][1] == []
    assert got["who"].tolist() == [["007"], []]
    assert got["ok"].tolist() == [True, False] and got["n"].dtype == np.int64
    assert np.isnan(got["x"][1])


def test_tampered_table_refused(bundle_dir):
    path = bundle_dir / "pairs.csv"
    text = path.read_text()
    path.write_text(text.replace("0.", "0.9", 1))
    with pytest.raises(UnanimityError, match="pairs.csv: contents changed"):
        open_bundle(bundle_dir)


def test_missing_table_refused(bundle_dir):
    (bundle_dir / "ranking.csv").unlink()
    with pytest.raises(UnanimityError, match="ranking.csv: listed in the manifest but missing"):
        open_bundle(bundle_dir)


def test_older_version_refused(bundle_dir):
    mpath = bundle_dir / MANIFEST
    m = json.loads(mpath.read_text())
    m["format_version"] = min(READ_VERSIONS) - 1
    m["package_version"] = "0.0.9"
    mpath.write_text(json.dumps(m))
    with pytest.raises(UnanimityError, match="an older version.*rerun"):
        open_bundle(bundle_dir)


def test_folder_without_manifest_refused(bundle_dir):
    (bundle_dir / MANIFEST).unlink()
    with pytest.raises(UnanimityError, match="before bundles had a manifest"):
        open_bundle(bundle_dir)


def test_folder_fingerprint_changes_with_any_file(tmp_path):
    (tmp_path / "a").mkdir()
    (tmp_path / "a" / "gold.tsv").write_text("x")
    (tmp_path / "a" / "run.tsv").write_text("y")
    f1 = fingerprint(tmp_path / "a")
    assert f1["files"] == 2 and f1["kind"] == "folder"
    (tmp_path / "a" / "run.tsv").write_text("z")
    assert fingerprint(tmp_path / "a")["sha256"] != f1["sha256"]
    with pytest.raises(UnanimityError, match="not found"):
        fingerprint(tmp_path / "nope")


def test_cli_compare_writes_bundle_and_info_reads_it(tmp_path, table, capsys):
    src = tmp_path / "scores.csv"
    table.to_csv(src, index=False)
    out = tmp_path / "res"
    assert main(["compare", str(src), "--metrics", "reliability,sensitivity",
                 "--out", str(out), "--latex"]) == 0
    b = open_bundle(out)
    assert b.inputs[0]["path"] == str(src) and b.options["metrics"] == "reliability,sensitivity"
    assert "ranking" in b.tables and "report" in b.texts
    capsys.readouterr()
    assert main(["info", str(out)]) == 0
    text = capsys.readouterr().out
    assert "comparison bundle" in text and "ranking.csv" in text
    (out / "systems.csv").write_text("tampered\n")
    assert main(["info", str(out)]) == 2
    assert "contents changed" in capsys.readouterr().err


def test_malformed_manifest_refused(bundle_dir):
    mpath = bundle_dir / MANIFEST
    m = json.loads(mpath.read_text())
    del m["files"]["pairs"]["sha256"]
    mpath.write_text(json.dumps(m))
    with pytest.raises(UnanimityError, match="malformed manifest"):
        open_bundle(bundle_dir)
