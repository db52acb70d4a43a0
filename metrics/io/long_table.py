"""Long clustering tables: ``topic, item, cluster[, weight][, system]`` in CSV, TSV or Parquet.

One row per (topic, item, cluster); an item in several clusters has several rows (overlap).
A ``system`` column lets one file hold every run of a campaign; without it the file is one
clustering (the gold, or the run named after the file).
"""

from __future__ import annotations

from pathlib import Path

import numpy as np
import pandas as pd
import pyarrow as pa
import pyarrow.parquet as pq

from metrics.errors import CampaignFormatError
from metrics.io.build import RawClustering, check_weights
from metrics.io.parquet import number_column, read_parquet, text_column
from metrics.io.source import Node, as_node
from metrics.io.text import read_delimited, read_text
from metrics.model.validation import LoadNote

__all__ = ["read_long", "write_long_parquet", "LONG_COLUMNS", "looks_like_long"]

LONG_COLUMNS = ["topic", "item", "cluster"]
OPTIONAL = ("weight", "system")


def looks_like_long(first_line: str) -> bool:
    """True when a header line names at least ``topic, item, cluster``."""
    for sep in ("\t", ","):
        cells = {c.strip().strip('"').lower() for c in first_line.split(sep)}
        if set(LONG_COLUMNS) <= cells:
            return True
    return False


def _weights(path: Node, values: np.ndarray, lines: np.ndarray) -> np.ndarray:
    text = pd.Series(values, dtype=object)
    blank = text.str.strip().eq("").to_numpy()
    num = pd.to_numeric(text.where(~blank), errors="coerce").to_numpy(dtype=np.float64)
    bad = np.isnan(num) & ~blank
    if bad.any():
        row = int(np.flatnonzero(bad)[0])
        raise CampaignFormatError(path, f"weight {values[row]!r} is not a number", int(lines[row]))
    check_weights(path, num, lines)
    return num


def _check_system(path: Node, system, lines: np.ndarray | None) -> None:
    blank = pd.Series(np.asarray(system, dtype=object)).astype(str).str.strip().eq("").to_numpy()
    if blank.any():
        row = int(np.flatnonzero(blank)[0])
        if lines is None:
            raise CampaignFormatError(path, f"empty system in row {row + 1}")
        raise CampaignFormatError(path, "empty system", int(lines[row]))


def read_long(path: object, encoding: str = "utf-8") -> RawClustering:
    """Read a long clustering table (``.csv``, ``.tsv``, ``.txt``, optionally ``.gz``, or
    ``.parquet``).

    ``path`` is a path or a :class:`~metrics.io.source.Node` (a member of a zip).

    Raises
    ------
    CampaignFormatError
        Naming the file and line (Parquet: the row): empty file, missing columns, wrong number
        of columns, an empty topic, item, cluster or system, a weight that is not a finite
        non-negative number, truncated gzip, unreadable Parquet, a list column.
    """
    node = as_node(path)
    notes: list[LoadNote] = []
    if node.name.lower().endswith(".parquet"):
        table = read_parquet(node)
        columns = [str(c).strip().lower() for c in table.column_names]
        missing = [c for c in LONG_COLUMNS if c not in columns]
        if missing:
            raise CampaignFormatError(node, f"missing column(s) {', '.join(missing)}")
        unknown = [c for c in columns if c not in LONG_COLUMNS and c not in OPTIONAL]
        if unknown or len(set(columns)) < len(columns):
            raise CampaignFormatError(node, f"columns {', '.join(columns)}; expected "
                                      f"{', '.join(LONG_COLUMNS + [f'[{c}]' for c in OPTIONAL])}")
        if table.num_rows == 0:
            raise CampaignFormatError(node, "file is empty")
        weight = None
        if "weight" in columns:
            weight = number_column(node, table, "weight")
            check_weights(node, weight, None)
        system = text_column(node, table, "system") if "system" in columns else None
        return RawClustering(
            source=str(node), topic=text_column(node, table, "topic"),
            item=text_column(node, table, "item"), label=text_column(node, table, "cluster"),
            weight=weight, line=None, system=system, notes=notes,
        )
    text = read_text(node, notes, encoding=encoding)
    first = next((ln for ln in text.split("\n") if ln.strip()), "")  # the header
    sep = "\t" if first.count("\t") >= first.count(",") else ","
    frame, lines = read_delimited(node, text, sep, None, LONG_COLUMNS, OPTIONAL)
    weight = _weights(node, frame["weight"].to_numpy(), lines) if "weight" in frame else None
    system = frame["system"].to_numpy() if "system" in frame else None
    if system is not None:
        _check_system(node, system, lines)
    return RawClustering(
        source=str(node), topic=frame["topic"].to_numpy(), item=frame["item"].to_numpy(),
        label=frame["cluster"].to_numpy(), weight=weight, line=lines,
        system=system, notes=notes,
    )


def write_long_parquet(frame: pd.DataFrame, path: Path) -> None:
    """Write a long table compactly: dictionary-encoded strings, zstd, sorted rows."""
    table = pa.Table.from_pandas(frame, preserve_index=False)
    pq.write_table(table, path, compression="zstd", compression_level=19, use_dictionary=True)
