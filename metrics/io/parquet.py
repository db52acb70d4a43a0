"""Parquet through the loader boundary: bytes within the budget, then the table within it too.

A Parquet file is compressed inside (pages, dictionaries, run lengths), so a small file can hold
a huge table. Before a table is built, its size as stored in the footer (uncompressed pages) and
a floor of 16 bytes per cell (what a row costs once in pandas) are checked against the budget,
like the output of a decompression (``docs/input-safety.md#the-budget``).
"""

from __future__ import annotations

import numpy as np
import pandas as pd
import pyarrow as pa
import pyarrow.parquet as pq

from metrics.errors import CampaignFormatError
from metrics.io.source import Node, as_node

__all__ = ["parquet_columns", "read_parquet", "decoded_bytes", "text_column", "number_column"]

_CELL_BYTES = 16


def _open(node: Node) -> tuple[pq.ParquetFile, int]:
    data = node.read_bytes()
    try:
        return pq.ParquetFile(pa.BufferReader(data)), len(data)
    except (pa.ArrowException, OSError, ValueError) as exc:
        raise CampaignFormatError(node, f"cannot read Parquet file ({exc})") from None


def parquet_columns(path: object) -> list[str]:
    """The column names of a Parquet file (path or node), from its footer."""
    node = as_node(path)
    pf, _ = _open(node)
    return [str(n) for n in pf.schema_arrow.names]


def decoded_bytes(meta: pq.FileMetaData) -> int:
    """What a Parquet file's table costs once decoded, from its footer: the larger of its
    uncompressed pages and 16 bytes a cell."""
    pages = sum(meta.row_group(i).total_byte_size for i in range(meta.num_row_groups))
    return max(pages, meta.num_rows * max(meta.num_columns, 1) * _CELL_BYTES)


def read_parquet(path: object) -> pa.Table:
    """The table of a Parquet file (path or node), refused when its decoded size is over budget.

    Raises
    ------
    CampaignFormatError
        Unreadable file, or a table larger than the budget allows.
    """
    node = as_node(path)
    pf, stored = _open(node)
    node.meter.check(str(node), decoded_bytes(pf.metadata), stored)
    try:
        return pf.read()
    except (pa.ArrowException, OSError, ValueError) as exc:
        raise CampaignFormatError(node, f"cannot read Parquet file ({exc})") from None


def text_column(node: Node, table: pa.Table, name: str) -> pd.Categorical | np.ndarray:
    """A column as text, refused when nested (lists, structs), null or blank (row named).

    Numbers and other scalars become their text (``7`` -> ``"7"``), as they would in a CSV; a
    dictionary-encoded column stays categorical (cheap to code later), with only the categories
    its rows use.
    """
    idx = [str(c).strip().lower() for c in table.column_names].index(name)
    col = table.column(idx)
    typ = col.type.value_type if pa.types.is_dictionary(col.type) else col.type
    if pa.types.is_nested(typ) or pa.types.is_binary(typ) or pa.types.is_large_binary(typ):
        raise CampaignFormatError(node, f"column {name} holds {typ} values; expected text or "
                                  "numbers")
    if col.null_count:
        row = int(np.flatnonzero(col.is_null().to_numpy(zero_copy_only=False))[0])
        raise CampaignFormatError(node, f"empty {name} (null) in row {row + 1}")
    series = col.to_pandas()
    if isinstance(series.dtype, pd.CategoricalDtype):
        # only the values the rows hold: a file written from a filtered frame keeps every
        # category of the original (61 topics listed, 28 used), which would count as topics
        cat = series.array.remove_unused_categories()
        cat = cat.rename_categories(cat.categories.astype(str))
        blank_cat = pd.Index(cat.categories).str.strip() == ""
        blank = blank_cat[cat.codes] if blank_cat.any() else np.zeros(0, bool)
        values = cat
    else:
        values = series.astype(str).to_numpy(dtype=object)
        blank = pd.Series(values).str.strip().eq("").to_numpy()
    if blank.any():
        row = int(np.flatnonzero(blank)[0])
        raise CampaignFormatError(node, f"empty {name} in row {row + 1}")
    return values


def number_column(node: Node, table: pa.Table, name: str) -> np.ndarray:
    """A column as float64 (null -> NaN); text that is not a number is refused (row named)."""
    idx = [str(c).strip().lower() for c in table.column_names].index(name)
    series = table.column(idx).to_pandas()
    if series.dtype.kind in "biuf":
        return series.to_numpy(dtype=np.float64)
    text = series.astype(object)
    num = pd.to_numeric(text, errors="coerce").to_numpy(dtype=np.float64)
    given = text.notna().to_numpy() & ~text.astype(str).str.strip().str.lower().isin(
        ["", "nan"]).to_numpy()
    bad = np.isnan(num) & given
    if bad.any():
        row = int(np.flatnonzero(bad)[0])
        raise CampaignFormatError(node, f"{name} {text.iat[row]!r} is not a number "
                                  f"(row {row + 1})")
    return num
