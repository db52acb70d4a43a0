"""Tables read back against their declared column kinds: the bundle's CSV and Parquet members
(``docs/output-safety.md``, ``docs/rankings.md`` "Bundles").

The inverse of :mod:`metrics.reports.table_output`: every cell is read as text, then each column
is converted to its kind as a whole (numbers by ``pandas.to_numeric``, text by
:func:`~metrics.reports.table_output.restore`, lists split by Arrow). The first cell that does not
fit its kind is refused with its row and column: ``pairs.csv: row 3, column 'uir': 'abc' is not
a number``. A Parquet member is read within the loader's budget and its schema checked against
the same kinds.
"""

from __future__ import annotations

import csv
import io
from collections.abc import Mapping

import numpy as np
import pandas as pd
import pyarrow as pa
import pyarrow.compute as pc

from metrics.errors import UnanimityError
from metrics.reports.table_output import LIST_SEP, restore

__all__ = ["read_csv_table", "read_parquet_table"]

_BOOL = {"True": True, "False": False, "true": True, "false": False}
_NAN_WORDS = ("nan", "-nan", "+nan")


def _refuse_cell(label: str, col: str, row: int, value: object, what: str) -> UnanimityError:
    shown = repr(str(value)[:40] + ("..." if len(str(value)) > 40 else ""))
    return UnanimityError(f"{label}: row {row + 1}, column {col!r}: {shown} is not {what}")


def _first(mask: np.ndarray) -> int | None:
    idx = np.flatnonzero(mask)
    return int(idx[0]) if len(idx) else None


def _numbers(label: str, col: str, text: pd.Series, kind: str) -> pd.Series:
    vals = pd.to_numeric(text.where(text != "", None), errors="coerce")
    empty = (text == "").to_numpy()
    bad = vals.isna().to_numpy() & ~empty & ~text.str.lower().isin(_NAN_WORDS).to_numpy()
    if kind == "int":
        whole = text.str.fullmatch(r"[+-]?[0-9]+").fillna(False).to_numpy(dtype=bool)
        bad = (~whole & ~empty) | bad
    i = _first(bad)
    if i is not None:
        raise _refuse_cell(label, col, i, text.iloc[i],
                           "a whole number" if kind == "int" else "a number")
    if kind == "int":
        if empty.any():
            return vals.astype("Int64")
        try:
            return pd.Series(text.to_numpy(dtype=object).astype(np.int64), index=text.index)
        except OverflowError:
            raise UnanimityError(f"{label}: column {col!r}: a number beyond 64-bit integers"
                                 ) from None
    return vals.astype(float)


def _lists(label: str, col: str, text: pd.Series, kind: str, neutralised: bool) -> list[list]:
    arr = pa.array(text, type=pa.string())
    if neutralised:
        arr = restore(arr)
    parts = pc.split_pattern(arr, LIST_SEP)
    empty = pc.equal(arr, "")
    lengths = pc.if_else(empty, 0, pc.list_value_length(parts)).to_numpy(zero_copy_only=False)
    keep = np.repeat(~empty.to_numpy(zero_copy_only=False), pc.list_value_length(parts)
                     .to_numpy(zero_copy_only=False))
    flat = pc.list_flatten(parts).filter(pa.array(keep))
    offsets = np.concatenate([[0], np.cumsum(lengths)]).astype(np.int32)
    if kind == "list_float":
        flat_text = pd.Series(flat.to_numpy(zero_copy_only=False), dtype=object)
        values = pd.to_numeric(flat_text, errors="coerce")
        bad = values.isna().to_numpy() & ~flat_text.str.lower().isin(_NAN_WORDS).to_numpy()
        j = _first(bad)
        if j is not None:
            row = int(np.searchsorted(offsets, j, side="right") - 1)
            raise _refuse_cell(label, col, row, text.iloc[row], "a ';'-separated list of numbers")
        flat = pa.array(values.to_numpy(dtype=float), type=pa.float64())
    elif neutralised:
        flat = pc.replace_substring(pc.replace_substring(flat, "%3B", LIST_SEP), "%25", "%")
    return pa.ListArray.from_arrays(pa.array(offsets), flat).to_pylist()


def _column(label: str, col: str, text: pd.Series, kind: str, neutralised: bool):
    if kind in ("float", "int"):
        return _numbers(label, col, text, kind)
    if kind == "bool":
        vals = text.map(_BOOL)
        bad = vals.isna().to_numpy() & (text != "").to_numpy()
        i = _first(bad)
        if i is not None:
            raise _refuse_cell(label, col, i, text.iloc[i], "True or False")
        return vals.astype(bool) if not (text == "").any() else vals.astype("boolean")
    if kind == "str":
        if neutralised:
            text = pd.Series(restore(pa.array(text, type=pa.string())).to_pandas(),
                             index=text.index)
        return text.astype(object).where(text != "", None)
    return _lists(label, col, text, kind, neutralised)


def read_csv_table(data: bytes, kinds: Mapping[str, str], label: str,
                   neutralised: bool = True) -> pd.DataFrame:
    """A table written by :func:`metrics.reports.table_output.table_bytes`, each column converted
    to its declared kind; ``neutralised=False`` for tables written before the output policy
    (bundle format version 2: text cells as they are, lists without ``%`` escapes).

    Raises
    ------
    UnanimityError
        Text that is not UTF-8 CSV (an unclosed quote, a row with too many fields), columns other
        than ``kinds``' (in order), or a cell that does not fit its column's kind (row and column
        named).
    """
    try:
        data.decode("utf-8")
    except UnicodeDecodeError as exc:
        raise UnanimityError(f"{label}: not UTF-8 text (byte {exc.start})") from None
    try:
        raw = pd.read_csv(io.BytesIO(data), dtype=str, keep_default_na=False, na_filter=False,
                          encoding="utf-8", skip_blank_lines=False)
    except (pd.errors.ParserError, pd.errors.EmptyDataError, ValueError, csv.Error) as exc:
        first = str(exc).strip().splitlines()[0] if str(exc).strip() else type(exc).__name__
        raise UnanimityError(f"{label}: cannot read as CSV ({first})") from None
    names = [str(c) for c in raw.columns]
    if neutralised:
        names = restore(pa.array(names, type=pa.string())).to_pylist()
    if names != list(kinds):
        raise UnanimityError(f"{label}: columns {_short(names)} differ from the manifest's "
                             f"{_short(list(kinds))}")
    raw.columns = names
    return pd.DataFrame({c: _column(label, c, raw[c], k, neutralised) for c, k in kinds.items()},
                        index=raw.index)


def _short(names: list) -> str:
    text = repr(names)
    return text if len(text) <= 200 else text[:200] + "...]"


_ARROW_KIND = {
    "float": lambda t: pa.types.is_floating(t) or pa.types.is_null(t),
    "int": pa.types.is_integer,
    "bool": lambda t: pa.types.is_boolean(t) or pa.types.is_null(t),
    "str": lambda t: pa.types.is_string(t) or pa.types.is_large_string(t) or pa.types.is_null(t),
    "list_float": lambda t: pa.types.is_list(t) and (pa.types.is_floating(t.value_type)
                                                     or pa.types.is_null(t.value_type)),
    "list_str": lambda t: pa.types.is_list(t) and (pa.types.is_string(t.value_type)
                                                   or pa.types.is_null(t.value_type)),
}


def read_parquet_table(node, kinds: Mapping[str, str], label: str) -> pd.DataFrame:
    """The Parquet twin of a table (``node``: a :class:`metrics.io.source.Node` of its bytes,
    read within the budget by :func:`metrics.io.parquet.read_parquet`), its schema checked
    against ``kinds``."""
    from metrics.io.parquet import read_parquet  # noqa: PLC0415 - Parquet only when present

    table = read_parquet(node)
    if table.column_names != list(kinds):
        raise UnanimityError(f"{label}: columns {_short(table.column_names)} differ from the "
                             f"manifest's {_short(list(kinds))}")
    out = {}
    for name, kind in kinds.items():
        column = table.column(name)
        if not _ARROW_KIND[kind](column.type):
            raise UnanimityError(f"{label}: column {name!r} holds {column.type}, the manifest "
                                 f"says {kind}")
        if kind.startswith("list_"):
            out[name] = [v if v is not None else [] for v in column.to_pylist()]
        elif kind == "str":
            out[name] = column.to_pandas().astype(object).where(column.is_valid().to_numpy(
                zero_copy_only=False), None)
        elif kind == "int" and column.null_count:
            out[name] = column.to_pandas(integer_object_nulls=False).astype("Int64")
        else:
            out[name] = column.to_pandas()
    return pd.DataFrame(out)
