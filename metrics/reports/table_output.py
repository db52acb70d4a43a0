"""One output policy for every table the product writes (``docs/output-safety.md``).

Every CSV or TSV that ``compare``, ``evaluate``, ``meta-evaluate``, the bundle and the
dashboard's downloads write is made here, by :func:`table_bytes` / :func:`write_table`:

* **Formulas neutralised** (the OWASP "CSV injection" convention): a text cell that begins with
  ``=``, ``+``, ``-``, ``@``, a tab or a carriage return and is not a number gets a single quote
  in front (``'=HYPERLINK(...)``), so that a spreadsheet shows it as text instead of evaluating
  it. A text cell that really begins with a quote gets one more (``'x`` -> ``''x``), so that
  :func:`restore` (drop one leading quote) gives back every name exactly. Numbers written as text
  (``-1``, ``+0.5``, ``-1e5``) are left as they are. Column names and the ``;``-joined list
  cells follow the same rule.
* **Column kinds from dtypes**: :func:`column_kinds` reads each column's dtype (``bool``,
  ``int``, ``float``, ``str``); a column of Python lists is ``list_float`` or ``list_str`` from
  the dtype of its flattened values. No cell is inspected one at a time.
* **Vectorised formatting**: the columns become Arrow arrays and are written by Arrow's CSV
  writer; floats at full precision (the shortest text that reads back to the same double, a
  whole number with its ``.0``: ``0.1``, ``1.0``, ``1e-7``), ``NaN`` as an empty cell, booleans
  as ``True`` / ``False``, lists ``;``-separated (list_str elements with ``%`` written ``%25``
  and ``;`` written ``%3B``; a NaN element ``nan``, a missing name empty). No cell is quoted
  unless one of the table holds a quote, the delimiter or a line break, or the table has one
  column and an empty cell (a blank line to readers); then every text cell is (Arrow quotes by
  column type), an empty one ``""``. The text
  is made and written a batch of rows at a time (:func:`write_csv`), straight to its file.

Parquet (:func:`write_parquet`) holds the same columns typed, names exactly as they are: a
typed file has no formulas to neutralise.
"""

from __future__ import annotations

import csv
import io
import re
from collections.abc import Mapping
from pathlib import Path

import numpy as np
import pandas as pd
import pyarrow as pa
import pyarrow.compute as pc
import pyarrow.csv as pacsv
import pyarrow.parquet as pq

__all__ = ["KINDS", "FORMULA_START", "LIST_SEP", "neutralise", "restore", "unquote_read_back",
           "column_kinds", "arrow_column", "typed_table", "table_bytes", "write_table",
           "write_csv", "write_parquet", "BATCH_ROWS"]

#: Column kinds a table may declare (the bundle's manifest names one per column).
KINDS: tuple[str, ...] = ("str", "int", "float", "bool", "list_float", "list_str")
#: Characters that make a spreadsheet evaluate a cell when it begins with one (OWASP).
FORMULA_START = "=+-@\t\r"
QUOTE = "'"
LIST_SEP = ";"
#: Rows formatted at a time by :func:`write_csv`.
BATCH_ROWS = 16_384
_RISKY = r"^[=+\-@\t\r']"  # a formula character, or the quote that the escaping itself uses
_NUMBER = r"^[+-]?(?:[0-9]+\.?[0-9]*|\.[0-9]+)(?:[eE][+-]?[0-9]+)?$"


def _text(values) -> pa.Array:
    """``values`` (Series, array, list or Arrow array) as an Arrow string array."""
    if isinstance(values, pa.ChunkedArray):
        values = values.combine_chunks()
    if isinstance(values, pa.Array):
        return values if pa.types.is_string(values.type) else pc.cast(values, pa.string())
    return pa.array(values, type=pa.string(), from_pandas=True)


def neutralise(values) -> pa.Array:
    """Text cells with a quote in front where a spreadsheet would evaluate them, vectorised.

    A cell is quoted when it begins with one of :data:`FORMULA_START` and is not a number, or
    when it begins with a quote itself (so that :func:`restore` is exact). Nulls stay null.
    The test runs once per distinct value (names repeat across a pairs table).
    """
    return _neutralised(values)[0]


def _neutralised(values) -> tuple[pa.Array, pa.Array]:
    """:func:`neutralise`'s cells and their distinct values (what a scan of the cells, such as
    the CSV writer's test for characters that need quoting, has to look at only once)."""
    codes, safe = _neutralised_codes(values)
    return pc.take(safe, codes), safe


def _neutralised_codes(values) -> tuple[pa.Array, pa.Array]:
    """:func:`neutralise` as codes into the distinct values, neutralised: the cells are
    ``take(distinct, codes)``, built a slice at a time by the CSV writer."""
    codes = pc.dictionary_encode(_text(values))
    names = codes.dictionary
    safe = pc.if_else(_risky(names), pc.binary_join_element_wise(QUOTE, names, ""), names)
    return codes.indices, safe


def _risky(names: pa.Array) -> pa.Array:
    """Cells :func:`neutralise` quotes: a formula character or a quote first, not a number."""
    return pc.and_(pc.match_substring_regex(names, _RISKY),
                   pc.invert(pc.match_substring_regex(names, _NUMBER)))


def restore(values) -> pa.Array:
    """The inverse of :func:`neutralise`: one leading quote dropped, vectorised."""
    arr = _text(values)
    return pc.if_else(pc.starts_with(arr, QUOTE), pc.utf8_slice_codeunits(arr, 1), arr)


def unquote_read_back(values) -> tuple[pa.Array, int]:
    """Names of a table read back from text that may have come from this policy: a cell that is
    a quote followed by what :func:`neutralise` would have quoted (``'=x``, ``''x``) loses its
    quote; any other cell (``'abc``, ``-1``) is kept. Returns the names and how many changed.
    For readers of tables without declared kinds (a score table written by ``evaluate``)."""
    arr = _text(values)
    rest = pc.utf8_slice_codeunits(arr, 1)
    written = pc.fill_null(pc.and_(pc.starts_with(arr, QUOTE), _risky(rest)), False)
    return pc.if_else(written, rest, arr), int(pc.sum(written).as_py() or 0)


def _list_kind(s: pd.Series) -> str:
    flat = s.dropna().explode().dropna()
    kind = pd.api.types.infer_dtype(flat, skipna=True)
    return "list_float" if kind in ("empty", "floating", "integer", "mixed-integer-float") \
        else "list_str"


def column_kinds(df: pd.DataFrame) -> dict[str, str]:
    """Each column's kind (:data:`KINDS`) from its dtype.

    An object column whose first non-null cell is a list, tuple or array is a list column (its
    element kind from the dtype of all its elements, flattened: ``list_float`` for numbers or
    no element at all, ``list_str`` otherwise); every other non-numeric column is ``str``.
    """
    kinds = {}
    for c in df.columns:
        s = df[c]
        if pd.api.types.is_bool_dtype(s.dtype):
            kinds[str(c)] = "bool"
        elif pd.api.types.is_integer_dtype(s.dtype):
            kinds[str(c)] = "int"
        elif pd.api.types.is_float_dtype(s.dtype):
            kinds[str(c)] = "float"
        elif s.dtype == object and isinstance(
                s.get(s.first_valid_index()) if s.first_valid_index() is not None else None,
                (list, tuple, np.ndarray)):
            kinds[str(c)] = _list_kind(s)
        else:
            kinds[str(c)] = "str"
    return kinds


def arrow_column(s: pd.Series, kind: str) -> pa.Array:
    """The typed Arrow array of a column of kind ``kind`` (what Parquet stores)."""
    if kind == "float":
        return pa.array(pd.to_numeric(s).to_numpy(dtype=float, na_value=np.nan),
                        type=pa.float64(), from_pandas=True)
    if kind == "int":
        return pa.array(s, type=pa.int64(), from_pandas=True)
    if kind == "bool":
        return pa.array(s, type=pa.bool_(), from_pandas=True)
    if kind == "list_float":
        return pa.array(s, type=pa.list_(pa.float64()), from_pandas=True)
    if kind == "list_str":
        try:
            return pa.array(s, type=pa.list_(pa.string()), from_pandas=True)
        except (pa.ArrowInvalid, pa.ArrowTypeError):  # elements that are not text: as text
            return pa.array(s.map(_str_list, na_action="ignore"), type=pa.list_(pa.string()),
                            from_pandas=True)
    if kind == "str":
        if s.dtype == object:  # None and text (reference systems), or text-like objects
            s = s.where(s.isna(), s.astype(str))
        return pa.array(s, type=pa.string(), from_pandas=True)
    raise ValueError(f"unknown column kind {kind!r}; known: {', '.join(KINDS)}")


def _str_list(v) -> list[str]:
    return [str(x) for x in v]


def _float_text(arr: pa.Array) -> pa.Array:
    """Doubles as the shortest text that reads back to the same double, a whole number keeping
    its ``.0`` (as Python's ``repr`` writes it), NaN as null (an empty cell). Each distinct
    double (bit for bit: ``-0.0`` is not ``0.0``) is formatted once: the columns of a pairs table
    repeat their values (a system's F in every pair it is in, a p-value in both orders)."""
    v = np.ascontiguousarray(arr.to_numpy(zero_copy_only=False), dtype=np.float64)
    codes = pc.dictionary_encode(pa.array(v.view(np.int64)))
    distinct = codes.dictionary.to_numpy(zero_copy_only=False).view(np.float64)
    return pc.take(_distinct_float_text(pa.array(distinct, from_pandas=True)), codes.indices)


def _distinct_float_text(arr: pa.Array) -> pa.Array:
    """:func:`_float_text` of each cell. Only the cells holding a whole finite number are looked
    at again (for one written without ``.`` or exponent: ``1``, not ``1e+20``)."""
    text = pc.cast(arr, pa.string())
    v = arr.to_numpy(zero_copy_only=False)
    with np.errstate(invalid="ignore"):
        whole = np.flatnonzero(np.isfinite(v) & (v == np.trunc(v)))
    if not whole.size:
        return text
    cand = pc.take(text, pa.array(whole))
    bare = pc.and_(pc.equal(pc.find_substring(cand, "."), -1),
                   pc.equal(pc.find_substring(cand, "e"), -1)).to_numpy(zero_copy_only=False)
    if not bare.any():
        return text
    mask = np.zeros(len(text), dtype=bool)
    mask[whole[bare]] = True
    return pc.replace_with_mask(text, pa.array(mask), pc.binary_join_element_wise(
        pc.filter(cand, pa.array(bare)), ".0", ""))


def _csv_column(arr: pa.Array, kind: str) -> tuple[pa.Array, pa.Array | None]:
    """The text of one CSV column (numbers formatted, lists joined, text neutralised) and, for
    text, its distinct values (to test once each for characters that need quoting; numbers and
    booleans never hold one: None)."""
    if kind == "float":
        return _float_text(arr), None
    if kind == "bool":
        return pc.if_else(arr, "True", "False"), None
    if kind == "str":
        return _neutralised(arr)
    if kind in ("list_float", "list_str"):
        flat = pc.list_flatten(arr)
        # a missing element must not empty its whole list (a join with a null is null): NaN
        # is written "nan", which reads back as NaN; a missing name is written as an empty one
        if kind == "list_float":
            flat = pc.fill_null(_float_text(flat), "nan")
        else:
            flat = pc.fill_null(pc.replace_substring(pc.replace_substring(flat, "%", "%25"),
                                                     LIST_SEP, "%3B"), "")
        offsets = arr.offsets  # of a slice: into the whole values, which flat starts at
        if len(arr) and offsets[0].as_py():
            offsets = pc.subtract(offsets, offsets[0])
        joined = pc.binary_join(pa.ListArray.from_arrays(offsets, flat), LIST_SEP)
        joined = pc.if_else(arr.is_null(), pa.scalar(None, pa.string()), joined)
        text, distinct = _neutralised(joined)  # "-0.5;0.25" is not a number either
        return text, distinct if kind == "list_str" else None
    return arr, None  # int


def typed_table(df: pd.DataFrame, kinds: Mapping[str, str]) -> pa.Table:
    """``df`` as an Arrow table, each column typed by its kind, names as they are."""
    return pa.Table.from_arrays([arrow_column(df[c], kinds[str(c)]) for c in df.columns],
                                names=[str(c) for c in df.columns])


def write_csv(typed: pa.Table, kinds: Mapping[str, str], sink, delimiter: str = ",") -> None:
    """Write the CSV text of ``typed`` (header and body) to ``sink`` (an Arrow output stream or
    a binary file object), :data:`BATCH_ROWS` rows at a time.

    The text columns are encoded once for the whole table (their distinct values decide whether
    the table needs quotes); the numbers, booleans and lists are formatted a batch at a time, so
    that the text in memory is a few megabytes whatever the size of the table.
    """
    names = typed.column_names
    columns = [typed.column(i).combine_chunks() for i in range(len(names))]
    header = neutralise(names)
    whole: dict[int, tuple[pa.Array, pa.Array | None]] = {}  # codes into distinct text, or text
    distinct = [header]
    for i, name in enumerate(names):
        if kinds[name] == "str":
            codes, safe = _neutralised_codes(columns[i])
            whole[i] = (codes, safe)
            distinct.append(safe)
        elif kinds[name] == "list_str":
            text, safe = _csv_column(columns[i], "list_str")
            whole[i] = (text, None)
            distinct.append(safe)
    special = "[\"\r\n" + re.escape(delimiter) + "]"  # numbers and booleans never hold one
    quote = any(pc.any(pc.match_substring_regex(col, special)).as_py() for col in distinct)
    # one column: an empty cell would be a blank line, which CSV readers skip (pandas does);
    # it is written as a quoted empty text, ""
    blank = len(names) == 1 and _has_blank(columns[0], whole.get(0))
    quote = quote or blank
    head = io.StringIO()  # the header by hand: Arrow quotes it whatever the quoting style
    csv.writer(head, delimiter=delimiter, lineterminator="\n",
               quoting=csv.QUOTE_ALL if quote else csv.QUOTE_MINIMAL).writerow(header.to_pylist())
    sink.write(head.getvalue().encode("utf-8"))
    if not names:
        return
    options = pacsv.WriteOptions(include_header=False, delimiter=delimiter,
                                 quoting_style="needed" if quote else "none")
    writer = None
    for r0 in range(0, typed.num_rows, BATCH_ROWS):
        batch = []
        for i, name in enumerate(names):
            if i in whole:
                cells, safe = whole[i]
                part = cells.slice(r0, BATCH_ROWS)
                batch.append(pc.take(safe, part) if safe is not None else part)
            else:
                batch.append(_csv_column(columns[i].slice(r0, BATCH_ROWS), kinds[name])[0])
        if blank:
            batch = [pc.fill_null(pc.cast(batch[0], pa.string()), "")]
        table = pa.Table.from_arrays(batch, names=header.to_pylist())
        if writer is None:
            writer = pacsv.CSVWriter(sink, table.schema, write_options=options)
        writer.write_table(table)
    if writer is not None:
        writer.close()


def _has_blank(column: pa.Array, encoded: tuple[pa.Array, pa.Array | None] | None) -> bool:
    """Whether a column's CSV text has an empty cell: a null, or an empty text or list."""
    if column.null_count:
        return True
    if encoded is None:  # numbers and booleans: only a null is empty
        return False
    cells, safe = encoded
    text = pc.take(safe, cells) if safe is not None else cells
    return bool(pc.any(pc.equal(pc.utf8_length(text), 0)).as_py())


def table_bytes(df: pd.DataFrame, kinds: Mapping[str, str] | None = None,
                delimiter: str = ",") -> bytes:
    """The CSV (``delimiter=","``) or TSV (``"\\t"``) text of ``df`` under the output policy,
    UTF-8, header first, text quoted (and quotes doubled)."""
    kinds = dict(kinds or column_kinds(df))
    sink = pa.BufferOutputStream()
    write_csv(typed_table(df, kinds), kinds, sink, delimiter)
    return sink.getvalue().to_pybytes()


def write_table(df: pd.DataFrame, path: str | Path, kinds: Mapping[str, str] | None = None,
                delimiter: str = ",") -> bytes:
    """Write :func:`table_bytes` to ``path``; returns the bytes written (to fingerprint them)."""
    data = table_bytes(df, kinds, delimiter)
    Path(path).write_bytes(data)
    return data


def write_parquet(typed: pa.Table, kinds: Mapping[str, str], sink) -> None:
    """Write the Parquet twin of a table to ``sink``: each column typed by its kind, names
    exactly as they are (a typed file has no formulas to neutralise)."""
    # dictionary pages for the text columns only (names repeat; numbers rarely do: a dictionary
    # attempt on each float column costs more than it saves)
    pq.write_table(typed, sink, use_dictionary=[
        n for n in typed.column_names if kinds[n] in ("str", "list_str")])
