"""The bundle's tables written concurrently (metrics/reports/bundle_tables.py): the same files,
bytes and manifest as written one after the other, the manifest naming every file in the
order the tables were given."""

from __future__ import annotations

import json
from pathlib import Path

import numpy as np
import pandas as pd

from metrics.reports import bundle_tables
from metrics.reports.bundle import write_bundle


def _tables() -> dict[str, pd.DataFrame]:
    rng = np.random.default_rng(0)
    n = 2_000
    names = np.array(["=cmd()", "plain", "-1", "'quoted", "a,b"], dtype=object)
    return {
        "small": pd.DataFrame({"x": [1.0, 2.5], "name": ["a", "+b"]}),
        "pairs": pd.DataFrame({"system_a": names[rng.integers(0, 5, n)],
                               "uir": np.round(rng.uniform(-1, 1, n), 2),
                               "p": rng.uniform(0, 1, n), "n": rng.integers(0, 60, n),
                               "ok": rng.random(n) < 0.5}),
        "tests": pd.DataFrame({"metric": names[rng.integers(0, 5, 3 * n)],
                               "delta": rng.normal(size=3 * n)}),
    }


def _written(out: Path) -> tuple[dict, dict]:
    """The manifest without its time of writing, and every file's bytes (the manifest's
    compared as parsed: two writings can fall in different seconds)."""
    manifest = json.loads((out / "manifest.json").read_text())
    manifest.pop("created")
    files = {p.name: p.read_bytes() for p in sorted(out.iterdir())}
    files["manifest.json"] = json.dumps(manifest, sort_keys=True).encode()
    return manifest, files


def test_concurrent_writing_equals_one_after_the_other(tmp_path, monkeypatch):
    tables = _tables()
    monkeypatch.setattr("metrics.reports.bundle.PARQUET_ROWS", 1_000)  # twins of two tables
    paths = write_bundle(tmp_path / "pool", tables)
    monkeypatch.setattr(bundle_tables, "WRITERS", 1)
    write_bundle(tmp_path / "serial", tables)
    pool, serial = _written(tmp_path / "pool"), _written(tmp_path / "serial")
    assert pool == serial
    manifest = pool[0]
    assert list(manifest["files"]) == ["small", "pairs", "tests"]  # the order given
    assert [manifest["files"][n].get("parquet", {}).get("file") for n in tables] == [
        None, "pairs.parquet", "tests.parquet"]
    named = {e["file"] for e in manifest["files"].values()} | {
        e["parquet"]["file"] for e in manifest["files"].values() if "parquet" in e}
    assert named | {"manifest.json"} == set(pool[1])
    assert [p.name for p in paths] == ["small.csv", "pairs.csv", "pairs.parquet", "tests.csv",
                                       "tests.parquet", "manifest.json"]
