"""Wide score tables: leaderboards as they are published, one row per system and task (or topic),
one column per metric (docs/input-safety.md, "Wide score tables"; docs/uncertainty.md has a
worked example).

::

    model,task,nDCG@10,AP,RR
    bm25,trec-dl-2019,0.506,0.377,0.825
    monot5,trec-dl-2019,0.712,0.514,0.948

CSV or TSV (the header's separator decides; optionally gzip-compressed), Parquet, or JSON lines
(``.jsonl`` / ``.ndjson``, one object per line). The system column is the first of ``system,
model, run`` in the header, the topic column the first of ``topic, task, dataset, query``; every
other column is a metric, whose cells are numbers (an empty cell, ``nan`` or a JSON ``null`` is
"no score", kept as NaN). The reader turns the table into the long score table ``system, topic,
metric, value`` (:mod:`metrics.model.score_table`), so every comparison reads it unchanged.

Refused with a one-line :class:`~metrics.errors.CampaignFormatError` naming the file and line: no
system or topic column, no metric column, an empty system or topic, a cell that is not a number
or is infinite, the same (system, topic) on two rows (both lines named).
"""

from __future__ import annotations

import io
from collections.abc import Callable, Mapping, Sequence

import numpy as np
import pandas as pd

from metrics.errors import CampaignFormatError
from metrics.io.format_registry import CampaignFormat, Probe, TestbedRule
from metrics.io.parquet import number_column, read_parquet, text_column
from metrics.io.scoretable import campaign_from_score_table
from metrics.io.source import Node, as_node
from metrics.io.text import read_delimited, read_text
from metrics.model.campaign import Campaign
from metrics.model.validation import LoadNote

__all__ = ["SYSTEM_COLUMNS", "TOPIC_COLUMNS", "JSON_LINES", "looks_like_wide", "is_json_lines",
           "read_wide_scores", "load_wide_campaign", "FORMAT"]

#: Names of the system column, in order of preference.
SYSTEM_COLUMNS: tuple[str, ...] = ("system", "model", "run")
#: Names of the topic (task) column, in order of preference.
TOPIC_COLUMNS: tuple[str, ...] = ("topic", "task", "dataset", "query")
#: File name endings of JSON lines.
JSON_LINES: tuple[str, ...] = (".jsonl", ".ndjson", ".jsonl.gz", ".ndjson.gz")
_NOT_WIDE = {"metric", "value", "item", "cluster"}


def _cells(first_line: str) -> list[str]:
    """Header cells as written (stripped of blanks and quotes)."""
    sep = "\t" if first_line.count("\t") >= first_line.count(",") else ","
    return [c.strip().strip('"').strip() for c in first_line.split(sep)]


def _keys(columns: Sequence[str]) -> tuple[str | None, str | None]:
    """The system and topic columns (as written) of a header, matched without case."""
    by_lower: dict[str, str] = {}
    for c in columns:
        by_lower.setdefault(str(c).strip().lower(), str(c))
    system = next((by_lower[c] for c in SYSTEM_COLUMNS if c in by_lower), None)
    topic = next((by_lower[c] for c in TOPIC_COLUMNS if c in by_lower), None)
    return system, topic


def looks_like_wide(header: str | Sequence[str]) -> bool:
    """True when a header (a first line, or column names) has a system and a topic column, at
    least one other column, and none of a long table's ``metric, value, item, cluster``."""
    cols = _cells(header) if isinstance(header, str) else [str(c).strip() for c in header]
    system, topic = _keys(cols)
    return (system is not None and topic is not None and len(cols) > 2
            and not _NOT_WIDE & {c.lower() for c in cols})


def is_json_lines(node: Node) -> bool:
    """True for a file named ``*.jsonl`` or ``*.ndjson`` (optionally ``.gz``)."""
    return node.name.lower().endswith(JSON_LINES)


def _frame(path: Node, notes: list[LoadNote]) -> tuple[pd.DataFrame, np.ndarray | None, bool]:
    """(frame with the header's column names, line of each row or None, cells are text)."""
    name = path.name.lower()
    if name.endswith(".parquet"):
        arrow = read_parquet(path)
        if arrow.num_rows == 0:
            raise CampaignFormatError(path, "file is empty")
        cols = [str(c).strip() for c in arrow.column_names]
        system, topic = _keys(cols)
        frame = pd.DataFrame({c: (text_column(path, arrow, c.lower()) if c in (system, topic)
                                  else number_column(path, arrow, c.lower()))
                              for c in cols})
        return frame, None, False
    text = read_text(path, notes)
    if not text.strip():
        raise CampaignFormatError(path, "file is empty")
    if is_json_lines(path):
        try:
            frame = pd.read_json(io.StringIO(text), lines=True, dtype=False)
        except ValueError as exc:
            raise CampaignFormatError(path, f"not JSON lines ({exc})") from None
        frame.columns = [str(c).strip() for c in frame.columns]
        starts = np.flatnonzero(pd.Series(text.split("\n")).str.strip().ne("").to_numpy())
        return frame, (starts + 1).astype(np.int64), False
    first = next(ln for ln in text.split("\n") if ln.strip())
    cols = _cells(first)
    system, topic = _keys(cols)
    if system is None or topic is None:
        raise CampaignFormatError(path, _problem(cols), 1)
    sep = "\t" if first.count("\t") >= first.count(",") else ","
    lower = [c.lower() for c in cols]
    if len(set(lower)) != len(lower):
        twice = next(c for c in cols if lower.count(c.lower()) > 1)
        raise CampaignFormatError(path, f"column {twice!r} is in the header twice "
                                  "(column names are compared without case)", 1)
    rest = tuple(c for c in lower if c not in (system.lower(), topic.lower()))
    frame, lines = read_delimited(path, text, sep, None, [system.lower(), topic.lower()], rest)
    frame.columns = cols              # the reader lower-cases; metric names keep their case
    return frame, lines, True


def _problem(cols: Sequence[str]) -> str:
    return (f"header has columns {', '.join(cols)}: a wide score table needs a system column "
            f"({' / '.join(SYSTEM_COLUMNS)}), a topic column ({' / '.join(TOPIC_COLUMNS)}) and "
            "one column per metric")


def _where(lines: np.ndarray | None, row: int) -> tuple[int | None, str]:
    if lines is None:
        return None, f" (row {row + 1})"
    return int(lines[row]), ""


def read_wide_scores(path: object) -> pd.DataFrame:
    """Read a wide score table into the long score table ``system, topic, metric, value``.

    Rows are system-major in file order, metrics in column order; the frame's
    ``attrs["notes"]`` lists the reader's notes (:class:`~metrics.model.validation.LoadNote`).

    Raises
    ------
    CampaignFormatError
        See the module docstring.
    """
    node = as_node(path)
    notes: list[LoadNote] = []
    frame, lines, text_cells = _frame(node, notes)
    cols = list(frame.columns)
    system, topic = _keys(cols)
    if system is None or topic is None:
        raise CampaignFormatError(node, _problem(cols))
    metrics = [c for c in cols if c not in (system, topic)]
    if not metrics:
        raise CampaignFormatError(node, _problem(cols), 1 if lines is not None else None)
    if len(frame) == 0:
        raise CampaignFormatError(node, "file has a header but no row")
    keys = {}
    for c in (system, topic):
        col = frame[c]
        empty = (col.isna() | col.astype(str).str.strip().eq("")).to_numpy()
        if empty.any():
            line, where = _where(lines, int(np.flatnonzero(empty)[0]))
            raise CampaignFormatError(node, f"empty {c}{where}", line)
        keys[c] = col.astype(str).str.strip().to_numpy(dtype=object)
    values = np.empty((len(frame), len(metrics)))
    for k, m in enumerate(metrics):
        raw = frame[m]
        if text_cells or raw.dtype == object:
            txt = raw.astype(str).str.strip()
            blank = (raw.isna() | txt.eq("") | txt.str.lower().isin(["nan", "none", "null"]))
            num = pd.to_numeric(txt.where(~blank), errors="coerce").to_numpy(dtype=np.float64)
            bad = np.isnan(num) & ~blank.to_numpy()
            if bad.any():
                row = int(np.flatnonzero(bad)[0])
                line, where = _where(lines, row)
                raise CampaignFormatError(
                    node, f"metric {m!r}: {txt.iat[row]!r} is not a number{where}", line)
        else:
            num = pd.to_numeric(raw, errors="coerce").to_numpy(dtype=np.float64)
        if np.isinf(num).any():
            line, where = _where(lines, int(np.flatnonzero(np.isinf(num))[0]))
            raise CampaignFormatError(node, f"metric {m!r}: infinite value{where}", line)
        values[:, k] = num
    pair = pd.Series(keys[system]) + "\x00" + pd.Series(keys[topic])
    dup = pair.duplicated(keep=False).to_numpy()
    if dup.any():
        rows = np.flatnonzero(pair == pair[np.flatnonzero(dup)[0]])[:2]
        first, second = (_where(lines, int(r)) for r in rows)
        at = (f"lines {first[0]} and {second[0]}" if lines is not None
              else f"rows {rows[0] + 1} and {rows[1] + 1}")
        raise CampaignFormatError(
            node, f"system {keys[system][rows[0]]!r}, {topic} {keys[topic][rows[0]]!r} is on two "
            f"rows ({at})", second[0])
    n, M = values.shape
    table = pd.DataFrame({
        "system": np.repeat(keys[system], M), "topic": np.repeat(keys[topic], M),
        "metric": np.tile(np.asarray(metrics, dtype=object), n), "value": values.ravel(),
    })
    n_nan = int(np.isnan(values).sum())
    if n_nan:
        notes.append(LoadNote(str(node), f"{n_nan} empty metric cell(s): no score"))
    table.attrs["notes"] = notes
    return table


def load_wide_campaign(
    path: object,
    name: str | None = None,
    testbeds: str | Mapping[str, str] | Callable[[str], str] | None = None,
) -> Campaign:
    """A campaign of precomputed scores from a wide score table (:func:`read_wide_scores`),
    reported like a long score table (:func:`metrics.io.scoretable.campaign_from_score_table`)."""
    node = as_node(path)
    return campaign_from_score_table(read_wide_scores(node), node, name=name, testbeds=testbeds)


class _Wide(CampaignFormat):
    """A wide score table: JSON lines or Parquet by name and columns, CSV/TSV by header."""

    def detect_path(self, probe: Probe) -> bool:
        if probe.is_parquet_file():
            return looks_like_wide(probe.columns)
        return not probe.is_dir and is_json_lines(probe.node)

    def detect_line(self, probe: Probe) -> bool:
        return looks_like_wide(probe.first_line)

    def load_file(self, node: Node, name: str | None, testbeds: TestbedRule) -> Campaign:
        return load_wide_campaign(node, name=name, testbeds=testbeds)


FORMAT = _Wide()
