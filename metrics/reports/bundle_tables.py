"""The tables of a comparison bundle (:mod:`metrics.reports.bundle`): ``NAME.csv`` through the
output policy (:mod:`metrics.reports.table_output`) and, from
:data:`~metrics.reports.bundle_manifest.PARQUET_ROWS` rows, its Parquet twin ``NAME.parquet``,
each with its manifest entry (file, SHA-256 of the bytes written, row count, column kinds).

The tables are written concurrently on a pool of threads, one per core (at most
:data:`WRITERS`), the largest first: Arrow's CSV and Parquet writers, its compute functions and
the hashing release the interpreter, so on two cores the pairs table and the tests table are
written side by side.
"""

from __future__ import annotations

import hashlib
import os
from collections.abc import Mapping
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path

import pandas as pd

from metrics.reports.bundle_manifest import PARQUET_ROWS
from metrics.reports.table_output import column_kinds, table_files

__all__ = ["WRITERS", "put_file", "write_table_files", "write_tables"]

#: Threads writing a bundle's tables at most (one per core below that).
WRITERS = 4


def put_file(out: Path, name: str, data: bytes) -> tuple[dict, Path]:
    """Write ``data`` to ``out/name``: its manifest entry (file name and SHA-256 of the bytes
    written) and its path."""
    path = out / name
    path.write_bytes(data)
    return {"file": name, "sha256": hashlib.sha256(data).hexdigest()}, path


def write_table_files(out: Path, name: str, df: pd.DataFrame,
                      parquet_rows: int = PARQUET_ROWS) -> tuple[dict, list[Path]]:
    """``NAME.csv`` (and ``NAME.parquet`` from ``parquet_rows`` rows) of one table: its
    manifest entry and the paths written."""
    kinds = column_kinds(df)
    text, twin = table_files(df, kinds, parquet=len(df) >= parquet_rows)
    csv, path = put_file(out, f"{name}.csv", text)
    entry, paths = {**csv, "kind": "table", "rows": len(df), "columns": kinds}, [path]
    if twin is not None:
        entry["parquet"], path = put_file(out, f"{name}.parquet", twin)
        paths.append(path)
    return entry, paths


def write_tables(out: Path, tables: Mapping[str, pd.DataFrame],
                 parquet_rows: int = PARQUET_ROWS) -> dict[str, tuple]:
    """:func:`write_table_files` of every table, on a pool of one thread per core (at most
    :data:`WRITERS`), the largest tables first."""
    order = sorted(tables, key=lambda n: -tables[n].size)
    workers = max(1, min(WRITERS, os.cpu_count() or 1, len(order)))
    if workers == 1:
        return {name: write_table_files(out, name, tables[name], parquet_rows)
                for name in order}
    with ThreadPoolExecutor(max_workers=workers) as pool:
        jobs = {name: pool.submit(write_table_files, out, name, tables[name], parquet_rows)
                for name in order}
        return {name: job.result() for name, job in jobs.items()}
