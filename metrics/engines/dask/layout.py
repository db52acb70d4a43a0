"""Where the Parquet long tables of a campaign are, and what they hold (no Dask needed).

A campaign for the Dask engine is a folder with ``gold.parquet`` and either ``runs/`` (one
``<system>.parquet`` per system, or tables with a ``system`` column) or ``runs.parquet`` with a
``system`` column, found by the in-memory loader's own layout code (:mod:`metrics.io.folders`)
and format detection (:mod:`metrics.io.format_registry`). Each ``.parquet`` may be one file
or a folder of part files (a partitioned dataset, as Spark, DuckDB or Dask write them).
Columns ``topic, item, cluster[, system]`` (any letter case; ``weight`` is allowed and not
used).
"""

from __future__ import annotations

from dataclasses import dataclass, field
from pathlib import Path

import pyarrow as pa
import pyarrow.dataset as ds

from metrics.errors import CampaignFormatError
from metrics.io.build import RawClustering, build_campaign, split_by_system
from metrics.io.folders import find_gold, find_runs
from metrics.io.load import detect_format
from metrics.io.source import FsNode, Node, as_node
from metrics.model.validation import LoadNote

__all__ = ["Table", "CampaignLayout", "find_layout", "load_in_memory", "LONG_COLUMNS"]

LONG_COLUMNS = ("topic", "item", "cluster")
NO_GOLD_PARQUET = ("no gold.parquet (a file or a folder of part files): the Dask engine reads "
                   "Parquet long tables")


@dataclass(frozen=True)
class Table:
    """One Parquet long table (file or folder of parts).

    Attributes
    ----------
    path : Path
    columns : dict of str to str
        Lower-case column name -> the name in the file.
    rows : int
        Rows, from the Parquet metadata.
    system : str or None
        The system it holds, for a run table without a ``system`` column.
    """

    path: Path
    columns: dict
    rows: int
    system: str | None

    @property
    def has_system(self) -> bool:
        return "system" in self.columns


@dataclass(frozen=True)
class CampaignLayout:
    """The gold table and the run tables of a campaign folder, and what was skipped finding
    them (files of ``runs/`` with an unknown extension)."""

    root: Path
    gold: Table
    runs: tuple[Table, ...]
    notes: tuple[LoadNote, ...] = field(default=())


def _stem(path: Path) -> str:
    name = path.name
    return name[: -len(".parquet")] if name.lower().endswith(".parquet") else name


def read_table_info(path: Path, system: str | None = None) -> Table:
    """Schema and row count of a Parquet file or folder of part files."""
    try:
        dataset = ds.dataset(path, format="parquet")
        names = list(dataset.schema.names)
        rows = int(dataset.count_rows())
    except (pa.ArrowInvalid, OSError, ValueError) as exc:
        raise CampaignFormatError(path, f"cannot read Parquet ({exc})") from None
    columns = {str(n).lower(): n for n in names}
    missing = [c for c in LONG_COLUMNS if c not in columns]
    if missing:
        raise CampaignFormatError(path, f"missing column(s) {', '.join(missing)}; expected "
                                  "topic, item, cluster[, system]")
    if rows == 0:
        raise CampaignFormatError(path, "file is empty")
    return Table(path=path, columns=columns, rows=rows,
                 system=None if "system" in columns else system)


def _parquet_table(node: Node, role: str) -> Path:
    """The path of a Parquet long table the in-memory loader's detection names ``long``."""
    fmt = detect_format(node) if node.name.lower().endswith(".parquet") else None
    if fmt != "long" or not isinstance(node, FsNode):
        what = f"a {fmt} table" if fmt else "not Parquet"
        raise CampaignFormatError(node, f"the {role} is {what}: the Dask engine reads Parquet "
                                  "long tables (topic, item, cluster[, system])")
    return node.path


def find_layout(root: str | Path) -> CampaignLayout:
    """The gold and run tables of a campaign folder, found as the in-memory loader finds them
    (:func:`metrics.io.folders.find_gold`, :func:`~metrics.io.folders.find_runs`,
    :func:`metrics.io.load.detect_format`), every one a Parquet long table.

    Raises
    ------
    CampaignFormatError
        When the folder is not such a campaign, a table lacks a column or is empty, or the
        gold has a ``system`` column.
    """
    root = Path(root)
    if not root.is_dir():
        raise CampaignFormatError(root, "the Dask engine reads a campaign folder of Parquet "
                                  "long tables (gold.parquet and runs/ or runs.parquet)")
    folder = as_node(root)
    gold_path = _parquet_table(find_gold(folder, NO_GOLD_PARQUET), "gold")
    gold = read_table_info(gold_path)
    if gold.has_system:
        raise CampaignFormatError(gold_path, "the gold has a system column; remove it")
    notes: list[LoadNote] = []
    paths = [_parquet_table(n, "run") for n in find_runs(folder, notes)]
    if not paths:
        raise CampaignFormatError(root, "no runs: expected runs/<system>.parquet or "
                                  "runs.parquet with a system column")
    runs = tuple(read_table_info(p, system=_stem(p)) for p in paths)
    return CampaignLayout(root=root, gold=gold, runs=runs, notes=tuple(notes))


def load_in_memory(root: str | Path):
    """The same campaign loaded whole into memory, for the in-memory engine.

    Reads every table of :func:`find_layout` with pyarrow (part folders included) and builds
    the campaign with :func:`metrics.io.build.build_campaign`, so that both engines can be run
    on one layout when it fits in memory (tests, benchmarks).
    """

    layout = find_layout(root)

    def raw(table: Table) -> RawClustering:
        frame = ds.dataset(table.path, format="parquet").to_table().to_pandas()
        frame.columns = [str(c).lower() for c in frame.columns]

        def col(name):
            s = frame[name]
            if hasattr(s, "cat"):
                return s.array.rename_categories(s.cat.categories.astype(str))
            return s.astype(str).to_numpy(dtype=object)

        return RawClustering(source=str(table.path), topic=col("topic"), item=col("item"),
                             label=col("cluster"),
                             system=col("system") if table.has_system else None)

    runs: dict[str, RawClustering] = {}
    for table in layout.runs:
        r = raw(table)
        runs.update(split_by_system(r) if r.system is not None else {str(table.system): r})
    return build_campaign(raw(layout.gold), runs, name=layout.root.name,
                          source=str(layout.root))
