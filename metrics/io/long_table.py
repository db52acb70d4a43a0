"""Long clustering tables: ``topic, item, cluster[, weight][, system]`` in CSV, TSV or Parquet.

One row per (topic, item, cluster); an item in several clusters has several rows (overlap).
A ``system`` column lets one file hold every run of a campaign; without it the file is one
clustering (the gold, or the run named after the file).

**Partitioned tables**: a folder ``NAME.parquet/`` of part files (docs/dask.md).

Spark, DuckDB, Dask and ``scripts/make_large_campaign.py`` write a large table as a folder of
part files. The in-memory engine reads such a folder when it fits: every part goes through the
loader boundary like a single Parquet file (:func:`read_long`: the file and
its decoded table within the budget, rows named per part), and the decoded size of the whole
table, estimated from the part files' footers before anything is read, is counted with what the
load has read against the campaign's budget (``UNANIMITY_MAX_CAMPAIGN_MB``,
``docs/input-safety.md``). Over it, the load stops before reading with one line that points to
the engine made for this layout: ``unanimity evaluate CAMPAIGN --engine dask``.

Files whose names begin with ``_`` or ``.`` (``_SUCCESS``, ``_metadata``, ``.crc`` checksums)
are bookkeeping and skipped silently; any other file that is not ``*.parquet`` is skipped with a
note; a sub-folder (a Hive-style ``key=value/`` partition) is refused, since its key would be
lost.
"""

from __future__ import annotations

from pathlib import Path

import numpy as np
import pandas as pd
import pyarrow as pa
import pyarrow.parquet as pq
from pandas.api.types import union_categoricals

from metrics.errors import CampaignFormatError
from metrics.io.build import RawClustering, check_weights
from metrics.io.format_registry import CampaignFormat, Probe, encoding_kw
from metrics.io.parquet import decoded_bytes, number_column, read_parquet, text_column
from metrics.io.source import MIB, Node, as_node
from metrics.io.text import read_delimited, read_text
from metrics.model.validation import LoadNote

__all__ = ["read_long", "write_long_parquet", "LONG_COLUMNS", "looks_like_long",
           "is_parquet_folder", "read_long_parts", "dask_hint", "FORMAT"]

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


def is_parquet_folder(node: Node) -> bool:
    """True for a folder named ``*.parquet`` (a partitioned table)."""
    return node.name.lower().endswith(".parquet") and node.is_dir()


def dask_hint(node: Node) -> str:
    """The command that scores this layout with the Dask engine, for messages."""
    root = getattr(node, "root", None)
    return (f"unanimity evaluate {root if root is not None else 'CAMPAIGN'} --engine dask "
            "(docs/dask.md)")


def _parts(node: Node, notes: list[LoadNote]) -> list[Node]:
    parts = []
    for child in node.iterdir():
        if child.name.startswith(("_", ".")):
            continue
        if child.is_dir():
            raise CampaignFormatError(child, "a sub-folder of a partitioned Parquet table (a "
                                      "key=value partition) is not read: give the part files "
                                      "flat in the folder")
        if child.name.lower().endswith(".parquet"):
            parts.append(child)
        else:
            notes.append(LoadNote(str(child), "not a Parquet part file: skipped"))
    if not parts:
        raise CampaignFormatError(node, "a folder named .parquet without part files (*.parquet)")
    return parts


def _footer_estimate(parts: list[Node]) -> int:
    """The decoded size of the parts on disk, from their footers alone (0 for zip members,
    which the budget checks one at a time as they are read)."""
    total = 0
    for part in parts:
        path = getattr(part, "path", None)
        if path is not None and part.is_file():  # is_file(): confined to the campaign folder
            try:
                total += decoded_bytes(pq.read_metadata(path))
            except (pa.ArrowException, OSError, ValueError):
                pass  # unreadable: read_long names the problem
    return total


def _concat(columns: list) -> object:
    if all(isinstance(c, pd.Categorical) for c in columns):
        return union_categoricals(columns)
    return np.concatenate([np.asarray(c, dtype=object) for c in columns])


def read_long_parts(node: Node) -> RawClustering:
    """The long table of a folder of Parquet part files, in part-name order.

    Raises
    ------
    CampaignFormatError
        A part that cannot be read (named, with its row), parts that disagree on the ``system``
        column, a sub-folder, or parts that together exceed the campaign's budget.
    """
    notes: list[LoadNote] = []
    parts = _parts(node, notes)
    meter = node.meter
    limit = meter.budget.campaign_bytes
    estimate = _footer_estimate(parts)
    need = meter.out + estimate
    if need > limit:
        raise CampaignFormatError(
            node, f"partitioned Parquet table over the in-memory budget ({need / MIB:,.1f} MiB "
            f"decoded with what the load has read, limit {limit / MIB:,.1f} MiB, "
            f"UNANIMITY_MAX_CAMPAIGN_MB): score it with the Dask engine: {dask_hint(node)}")
    meter.out += estimate  # the decoded table counts towards the rest of the load
    raws = [read_long(part) for part in parts]  # each file and its table within the budget
    with_system = {raw.system is not None for raw in raws}
    if len(with_system) > 1:
        raise CampaignFormatError(node, "some part files have a system column and others not")
    weights = None
    if any(raw.weight is not None for raw in raws):
        weights = np.concatenate([raw.weight if raw.weight is not None
                                  else np.full(len(raw), np.nan) for raw in raws])
    return RawClustering(
        source=str(node), topic=_concat([r.topic for r in raws]),
        item=_concat([r.item for r in raws]), label=_concat([r.label for r in raws]),
        weight=weights, line=None,
        system=_concat([r.system for r in raws]) if with_system == {True} else None,
        notes=notes + [n for r in raws for n in r.notes])


class _Long(CampaignFormat):
    """A long table: a Parquet file or folder of part files by name, a text file by header."""

    def detect_path(self, probe: Probe) -> bool:
        return is_parquet_folder(probe.node) or probe.is_parquet_file()

    def detect_line(self, probe: Probe) -> bool:
        return looks_like_long(probe.first_line)

    def read_clustering(self, node: Node, encoding: str | None) -> RawClustering:
        if is_parquet_folder(node):
            return read_long_parts(node)
        return read_long(node, **encoding_kw(encoding))


FORMAT = _Long()
