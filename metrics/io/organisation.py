"""Document organisations as long tables: ``topic, item, level[, cluster]`` (CSV, TSV, Parquet).

One row per occurrence: the item lies on priority ``level`` (a whole number >= 1, 1 = highest),
in ``cluster`` when the output has clusters (leave the column out for a ranking or a filtering;
an item on several rows is an overlapping output). A filtering is two levels (1 = positive).

Layout: a folder with ``gold.<ext>`` and ``runs/<system>.<ext>``, and ``campaign.toml`` with
``format = "organisation"`` (optional: detected from the header) and ``tail = true`` when the
collection is unlimited (items a file does not list are then in its tail) or ``tail = false``
(default: the gold's items are the collection; a run's other items are ignored and counted).
See ``docs/organisation.md`` §2.
"""

from __future__ import annotations

import numpy as np
import pandas as pd

from metrics.errors import CampaignFormatError
from metrics.io.format_registry import CampaignFormat, FilesRequest, FolderRequest, Probe
from metrics.io.organisation_build import build_organisation_campaign
from metrics.io.parquet import number_column, read_parquet, text_column
from metrics.io.source import Node, as_node
from metrics.io.text import read_delimited, read_text, strip_extensions
from metrics.model.campaign import Campaign
from metrics.model.validation import LoadNote

__all__ = ["ORGANISATION_COLUMNS", "looks_like_organisation", "read_organisation",
           "load_organisation_folder", "load_organisation_files", "FORMAT"]

ORGANISATION_COLUMNS = ["topic", "item", "level"]
_OPTIONAL = ("cluster",)


def looks_like_organisation(first_line: str) -> bool:
    """True when a header line names ``topic, item, level``."""
    for sep in ("\t", ","):
        cells = {c.strip().strip('"').lower() for c in first_line.split(sep)}
        if set(ORGANISATION_COLUMNS) <= cells:
            return True
    return False


def _levels(path: object, values: np.ndarray, lines: np.ndarray | None) -> np.ndarray:
    num = pd.to_numeric(pd.Series(values, dtype=object).astype(str).str.strip(),
                        errors="coerce").to_numpy(np.float64)
    bad = ~(np.isfinite(num) & (num >= 1) & (num == np.floor(num)))
    if bad.any():
        row = int(np.flatnonzero(bad)[0])
        raise CampaignFormatError(
            path, f"level {values[row]!r} is not a whole number >= 1 (1 = highest priority)",
            None if lines is None else int(lines[row]))
    return num.astype(np.int64)


def read_organisation(path: object, encoding: str = "utf-8") -> pd.DataFrame:
    """One organisation file -> ``topic, item, level[, cluster], line`` (strings, ints).

    Raises
    ------
    CampaignFormatError
        Naming the file and line: missing or unknown columns, wrong number of fields, a level
        that is not a whole number >= 1, an unreadable file.
    """
    path = as_node(path)
    if path.name.lower().endswith(".parquet"):
        table = read_parquet(path)
        names = [str(c).strip().lower() for c in table.column_names]
        frame = {c: (number_column(path, table, c) if c == "level" else
                     np.asarray(text_column(path, table, c), dtype=object)) for c in names}
        frame = pd.DataFrame(frame)
        missing = [c for c in ORGANISATION_COLUMNS if c not in frame.columns]
        unknown = [c for c in frame.columns if c not in ORGANISATION_COLUMNS + list(_OPTIONAL)]
        if missing or unknown:
            raise CampaignFormatError(path, f"columns {', '.join(frame.columns)}; expected "
                                      "topic, item, level[, cluster]")
        if len(frame) == 0:
            raise CampaignFormatError(path, "file is empty")
        lines = None
    else:
        notes: list[LoadNote] = []
        text = read_text(path, notes, encoding=encoding)
        first = next((ln for ln in text.split("\n") if ln.strip()), "")
        sep = "\t" if first.count("\t") >= first.count(",") else ","
        frame, lines = read_delimited(path, text, sep, None, ORGANISATION_COLUMNS, _OPTIONAL)
    out = pd.DataFrame({
        "topic": frame["topic"].astype(str).to_numpy(dtype=object),
        "item": frame["item"].astype(str).to_numpy(dtype=object),
        "level": _levels(path, frame["level"].to_numpy(dtype=object), lines),
    })
    if "cluster" in frame:
        out["cluster"] = frame["cluster"].astype(str).to_numpy(dtype=object)
    out["line"] = (np.arange(2, len(out) + 2, dtype=np.int64) if lines is None
                   else np.asarray(lines, dtype=np.int64))
    return out


def _campaign(gold_path: object, run_paths: list, tail: bool, name: str, source: str,
              notes: list[LoadNote], testbed_rule=None, encoding: str = "utf-8") -> Campaign:
    gold = read_organisation(gold_path, encoding)
    runs, sources = {}, {}
    for p in run_paths:
        sys_name = strip_extensions(p)
        if sys_name in runs:
            raise CampaignFormatError(p, f"system {sys_name!r} is given twice")
        runs[sys_name] = read_organisation(p, encoding)
        sources[sys_name] = str(p)
    if not runs:
        raise CampaignFormatError(source, "no runs: expected runs/<system>.<ext>")
    return build_organisation_campaign(gold, runs, tail=tail, name=name, source=source,
                                       gold_source=str(gold_path), run_sources=sources,
                                       notes=notes, testbed_rule=testbed_rule)


def load_organisation_folder(folder: object, gold_path: object, run_paths: list, tail: bool,
                             name: str, notes: list[LoadNote], testbed_rule=None,
                             encoding: str = "utf-8") -> Campaign:
    """A campaign folder whose gold and runs were found by :mod:`metrics.io.load`."""
    return _campaign(gold_path, run_paths, tail, name, str(folder), notes, testbed_rule, encoding)


def load_organisation_files(gold: object, runs: list, tail: bool = False,
                            name: str | None = None, testbed_rule=None) -> Campaign:
    """Loose files (paths or nodes): a gold organisation and runs (each named after its file)."""
    gold = as_node(gold)
    return _campaign(gold, [as_node(r) for r in runs], tail, name or "campaign",
                     str(gold), [], testbed_rule)


class _Organisation(CampaignFormat):
    """Priority levels ``topic, item, level[, cluster]``, recognised by their header."""

    config_types = {"tail": bool}

    def detect_line(self, probe: Probe) -> bool:
        return looks_like_organisation(probe.first_line)

    def load_folder(self, request: FolderRequest, gold: Node) -> Campaign:
        return load_organisation_folder(
            request.folder, gold, request.runs(), request.config.get("tail", False), request.name,
            request.notes, request.testbed_rule(), request.encoding or "utf-8")

    def load_files(self, request: FilesRequest) -> Campaign:
        return load_organisation_files(request.gold, request.runs, name=request.name,
                                       testbed_rule=request.testbed_rule)


FORMAT = _Organisation()
