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
from collections.abc import Callable, Mapping
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path

import pandas as pd

from metrics.reports.bundle_manifest import PARQUET_ROWS
from metrics.reports.table_output import column_kinds, typed_table, write_csv, write_parquet

__all__ = ["WRITERS", "put_file", "stream_file", "write_table_files", "write_tables"]

#: Threads writing a bundle's tables at most (one per core below that).
WRITERS = 4


def put_file(out: Path, name: str, data: bytes) -> tuple[dict, Path]:
    """Write ``data`` to ``out/name``: its manifest entry (file name and SHA-256 of the bytes
    written) and its path."""
    path = out / name
    path.write_bytes(data)
    return {"file": name, "sha256": hashlib.sha256(data).hexdigest()}, path


class _HashedFile:
    """A binary file that hashes (SHA-256) what is written to it, as it is written."""

    def __init__(self, path: Path) -> None:
        self._fh = open(path, "wb")  # noqa: SIM115 - closed by stream_file (its finally)
        self.sha256 = hashlib.sha256()
        self.closed = False

    def write(self, data) -> int:
        self.sha256.update(data)
        return self._fh.write(data)

    def flush(self) -> None:
        self._fh.flush()

    def close(self) -> None:
        self._fh.close()
        self.closed = True


def stream_file(out: Path, name: str, write: Callable[[_HashedFile], None]) -> tuple[dict, Path]:
    """:func:`put_file` of what ``write(sink)`` writes to ``sink``, streamed to ``out/name``
    and hashed as it goes (no copy of the whole file in memory)."""
    path = out / name
    sink = _HashedFile(path)
    try:
        write(sink)
    finally:
        sink.close()
    return {"file": name, "sha256": sink.sha256.hexdigest()}, path


def write_table_files(out: Path, name: str, df: pd.DataFrame,
                      parquet_rows: int = PARQUET_ROWS) -> tuple[dict, list[Path]]:
    """``NAME.csv`` (and ``NAME.parquet`` from ``parquet_rows`` rows) of one table, from one
    Arrow conversion, each streamed to its file: its manifest entry and the paths written."""
    kinds = column_kinds(df)
    typed = typed_table(df, kinds)
    csv, path = stream_file(out, f"{name}.csv", lambda sink: write_csv(typed, kinds, sink))
    entry, paths = {**csv, "kind": "table", "rows": len(df), "columns": kinds}, [path]
    if len(df) >= parquet_rows:
        entry["parquet"], path = stream_file(out, f"{name}.parquet",
                                             lambda sink: write_parquet(typed, kinds, sink))
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
