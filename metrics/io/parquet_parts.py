"""Partitioned Parquet long tables: a folder ``NAME.parquet/`` of part files (docs/dask.md).

Spark, DuckDB, Dask and ``scripts/make_large_campaign.py`` write a large table as a folder of
part files. The in-memory engine reads such a folder when it fits: every part goes through the
loader boundary like a single Parquet file (:func:`metrics.io.long_table.read_long`: the file and
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

import numpy as np
import pandas as pd
import pyarrow as pa
import pyarrow.parquet as pq
from pandas.api.types import union_categoricals

from metrics.errors import CampaignFormatError
from metrics.io.build import RawClustering
from metrics.io.long_table import read_long
from metrics.io.parquet import decoded_bytes
from metrics.io.source import MIB, Node
from metrics.model.validation import LoadNote

__all__ = ["is_parquet_folder", "read_long_parts", "dask_hint"]


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
