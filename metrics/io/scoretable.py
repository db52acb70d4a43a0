"""Score tables: precomputed per-topic scores ``system, topic, metric, value``.

::

    system,topic,metric,value
    best_replab,RL2013D01E001,reliability,0.6483
    best_replab,RL2013D01E001,sensitivity,0.3371

CSV or TSV (the header's separator decides), optionally gzip-compressed, or Parquet. The table is
long: one row per (system, topic, metric); a wide table (one column per metric) is read by
:mod:`metrics.io.wide_scores` (format ``wide``), and this reader, given one, says so. A campaign
loaded from a score table has no clusterings (``gold`` is None): only the comparison analyses (UIR,
significance, rankings) apply to it.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping

import numpy as np
import pandas as pd

from metrics.errors import CampaignFormatError
from metrics.io.build import RawClustering, default_testbed_rule, testbeds_from_rule
from metrics.io.folders import is_data_file
from metrics.io.format_registry import CampaignFormat, FolderRequest, Probe, TestbedRule
from metrics.io.parquet import number_column, read_parquet, text_column
from metrics.io.source import Node, as_node
from metrics.io.text import read_delimited, read_text, strip_extensions
from metrics.model.campaign import Campaign
from metrics.model.score_table import SCORE_COLUMNS
from metrics.model.validation import ClusteringReport, LoadNote, ValidationReport
from metrics.reports.table_output import unquote_read_back

__all__ = [
    "looks_like_scores", "wide_table_problem", "read_score_table",
    "load_score_campaign", "campaign_from_score_table",
]

_KEYS = ["system", "topic", "metric"]


def _header_cells(first_line: str) -> list[str]:
    sep = "\t" if first_line.count("\t") >= first_line.count(",") else ","
    return [c.strip().strip('"').strip().lower() for c in first_line.split(sep)]


def looks_like_scores(first_line: str) -> bool:
    """True when a header line (comma or tab separated) names system, topic, metric and value."""
    return set(SCORE_COLUMNS) <= set(_header_cells(first_line))


def wide_table_problem(first_line: str) -> str | None:
    """The message for a wide score table header (``system, topic, <metric>, ...``), else None."""
    cells = _header_cells(first_line)
    if {"system", "topic"} <= set(cells) and not {"metric", "value"} <= set(cells) \
            and not {"item", "cluster"} & set(cells):
        return _header_problem(cells)
    return None


def _header_problem(columns: list[str]) -> str:
    cols = ", ".join(columns)
    if {"system", "topic"} <= set(columns) and not {"metric", "value"} <= set(columns):
        return (f"header has columns {cols}: a wide score table (one column per metric): load "
                "it as format wide, or give a long table with columns system, topic, metric, "
                "value (one row per system, topic and metric)")
    missing = [c for c in SCORE_COLUMNS if c not in columns]
    extra = [c for c in columns if c not in SCORE_COLUMNS]
    parts = []
    if missing:
        parts.append(f"missing {', '.join(missing)}")
    if extra:
        parts.append(f"unknown {', '.join(extra)}")
    return (f"header has columns {cols} ({'; '.join(parts)}); a score table has exactly the "
            "columns system, topic, metric, value")


def _where(lines: np.ndarray | None, row: int) -> tuple[int | None, str]:
    """Line number for the error, or a row description when the source has no lines (Parquet)."""
    if lines is None:
        return None, f" (row {row + 1})"
    return int(lines[row]), ""


def _parse_values(path: object, values: pd.Series, lines: np.ndarray | None) -> np.ndarray:
    """The values as float64 (an explicit ``nan`` kept: no score); a value that is not a number
    or is infinite is refused with its line (Parquet: its row)."""
    num = _numbers(path, values, lines)
    inf = np.isinf(num)
    if inf.any():
        row = int(np.flatnonzero(inf)[0])
        line, where = _where(lines, row)
        raise CampaignFormatError(path, f"value {values.iat[row]!r} is infinite{where}", line)
    return num


def _numbers(path: object, values: pd.Series, lines: np.ndarray | None) -> np.ndarray:
    if values.dtype.kind in "biuf":
        return values.to_numpy(dtype=np.float64)
    text = values.astype(object).to_numpy()
    num = pd.to_numeric(pd.Series(text, dtype=object), errors="coerce").to_numpy(np.float64)
    explicit_nan = np.zeros(len(text), dtype=bool)
    if np.isnan(num).any():  # "nan" written out, or a Parquet null: no score, kept as NaN
        explicit_nan = np.array(
            [v is None or (isinstance(v, float) and np.isnan(v))
             or (isinstance(v, str) and v.strip().lower() == "nan") for v in text], dtype=bool,
        )
    bad = np.isnan(num) & ~explicit_nan
    if bad.any():
        row = int(np.flatnonzero(bad)[0])
        line, where = _where(lines, row)
        raise CampaignFormatError(path, f"value {text[row]!r} is not a number{where}", line)
    return num


#: metrics of the registry whose every value lies in [0, 1] (all the higher-is-better ones but
#: the adjusted Rand index, which can be negative); a score outside gets a note
UNIT_INTERVAL_METRICS = frozenset({
    "purity", "inverse_purity", "fscore", "bcubed_precision", "bcubed_recall",
    "bcubed_adapted_recall", "reliability", "sensitivity", "homogeneity", "completeness",
    "v_measure", "rand", "jaccard", "fowlkes_mallows", "pair_precision", "pair_recall", "pair_f",
    "accuracy_m1", "accuracy_11",
})


def _note_out_of_range(path, table: pd.DataFrame, lines, notes: list[LoadNote]) -> None:
    """A note for scores of a [0, 1] metric that lie outside [0, 1] (kept as given)."""
    bounded = table["metric"].str.lower().isin(UNIT_INTERVAL_METRICS).to_numpy()
    v = table["value"].to_numpy()
    out = bounded & ((v < 0) | (v > 1))
    if out.any():
        row = int(np.flatnonzero(out)[0])
        line, where = _where(lines, row)
        notes.append(LoadNote(
            str(path), f"{int(out.sum())} score(s) outside [0, 1] for metrics that lie in it, "
            f"e.g. {table['metric'].iat[row]} = {float(v[row])!r}{where}", line))


def read_score_table(path: object) -> pd.DataFrame:
    """Read a long score table: CSV or TSV (optionally gzip) or Parquet.

    Returns
    -------
    DataFrame
        Columns ``system, topic, metric`` (str) and ``value`` (float64; an explicit ``nan`` is
        kept and means "no score"), in file order. Exact duplicate rows are dropped (the first is
        kept); the frame's ``attrs["notes"]`` lists the notes (:class:`LoadNote`) and
        ``attrs["duplicate_rows"]`` counts them per system.

    Raises
    ------
    CampaignFormatError
        Naming the file and line (Parquet: the row): empty file, a header that is not ``system,
        topic, metric, value`` (a wide table is named as such), wrong number of columns, a value
        that is not a number or is infinite, two different values for one (system, topic,
        metric) (both lines named).
    """
    path = as_node(path)
    notes: list[LoadNote] = []
    lines: np.ndarray | None
    if path.name.lower().endswith(".parquet"):
        arrow = read_parquet(path)
        columns = [str(c).strip().lower() for c in arrow.column_names]
        if sorted(columns) != sorted(SCORE_COLUMNS):
            raise CampaignFormatError(path, _header_problem(columns))
        if arrow.num_rows == 0:
            raise CampaignFormatError(path, "file is empty")
        frame = pd.DataFrame({c: text_column(path, arrow, c) for c in _KEYS})
        frame["value"] = number_column(path, arrow, "value")
        lines = None
    else:
        text = read_text(path, notes)
        first = next((ln for ln in text.split("\n") if ln.strip()), "")
        columns = _header_cells(first)
        if sorted(columns) != sorted(SCORE_COLUMNS):
            raise CampaignFormatError(path, _header_problem(columns), 1)
        sep = "\t" if first.count("\t") >= first.count(",") else ","
        frame, lines = read_delimited(path, text, sep, None, SCORE_COLUMNS)
        if len(frame) == 0:
            raise CampaignFormatError(path, "file has a header but no row")
    table = pd.DataFrame({c: frame[c].astype(str).str.strip() for c in _KEYS})
    if lines is not None:  # text: undo the quote of a spreadsheet-safe writer (evaluate --out)
        unquoted = 0
        for c in _KEYS:
            names, n = unquote_read_back(table[c])
            table[c], unquoted = names.to_numpy(zero_copy_only=False), unquoted + n
        if unquoted:
            notes.append(LoadNote(str(path), f"{unquoted} name(s) began with the quote that "
                                  "keeps a spreadsheet from evaluating them ('=..., '@...): read "
                                  "without it (docs/output-safety.md)"))
    table["value"] = _parse_values(path, frame["value"], lines)

    # --- duplicates: exact ones are dropped, conflicting ones are an error -----------------------
    key_dup = table.duplicated(_KEYS, keep=False).to_numpy()
    duplicate_rows: dict[str, int] = {}
    if key_dup.any():
        sub = table[key_dup]
        for _, group in sub.groupby(_KEYS, sort=False):
            vals = group["value"].to_numpy()
            first_val = vals[0]
            differ = ~((vals == first_val) | (np.isnan(vals) & np.isnan(first_val)))
            if differ.any():
                i, j = int(group.index[0]), int(group.index[np.flatnonzero(differ)[0]])
                sys_, top, met = group.iloc[0][_KEYS]
                if lines is not None:
                    li, lj = int(lines[i]), int(lines[j])
                    problem = (f"system {sys_!r}, topic {top!r}, metric {met!r} has two values: "
                               f"{float(vals[0])!r} (line {li}) and "
                               f"{float(table['value'].iat[j])!r} (line {lj})")
                    raise CampaignFormatError(path, problem, lj)
                problem = (f"system {sys_!r}, topic {top!r}, metric {met!r} has two values: "
                           f"{float(vals[0])!r} (row {i + 1}) and {float(table['value'].iat[j])!r} "
                           f"(row {j + 1})")
                raise CampaignFormatError(path, problem)
        exact = table.duplicated(_KEYS, keep="first").to_numpy()
        dup_idx = np.flatnonzero(exact)
        for system, count in table.loc[exact, "system"].value_counts(sort=False).items():
            duplicate_rows[str(system)] = int(count)
        line, where = _where(lines, int(dup_idx[0]))
        notes.append(LoadNote(
            str(path), f"{dup_idx.size} exact duplicate row(s) ignored, the first kept{where}",
            line,
        ))
        table = table.loc[~exact].reset_index(drop=True)
    _note_out_of_range(path, table, lines, notes)
    n_nan = int(np.isnan(table["value"].to_numpy()).sum())
    if n_nan:
        notes.append(LoadNote(str(path), f"{n_nan} value(s) are NaN (no score)"))
    table.attrs["notes"] = notes
    table.attrs["duplicate_rows"] = duplicate_rows
    return table


def load_score_campaign(
    path: object,
    name: str | None = None,
    testbeds: str | Mapping[str, str] | Callable[[str], str] | None = None,
) -> Campaign:
    """A campaign of precomputed scores: ``gold=None``, no runs, ``scores`` = the table.

    Parameters
    ----------
    path : str or Path
        Score table file (see :func:`read_score_table`).
    name : str, optional
        Campaign name; default the file name without extensions.
    testbeds : regex, mapping or callable, optional
        Test-bed rule over topic ids (see :func:`metrics.io.build.testbeds_from_rule`).

    The report has one entry per system: its rows, the topics it has a score for, and the topics
    of the table it has no score for (``missing_topics``, with their names); a system scored on a
    topic for some metrics only gets a note.
    """
    path = as_node(path)
    return campaign_from_score_table(read_score_table(path), path, name=name, testbeds=testbeds)


def campaign_from_score_table(
    table: pd.DataFrame,
    path,
    name: str | None = None,
    testbeds: str | Mapping[str, str] | Callable[[str], str] | None = None,
) -> Campaign:
    """The campaign of a score table read from ``path`` (:func:`load_score_campaign`'s report,
    test beds and notes; ``table.attrs`` may carry the reader's ``notes`` and
    ``duplicate_rows``)."""
    notes: list[LoadNote] = list(table.attrs.get("notes", []))
    dups: dict[str, int] = table.attrs.get("duplicate_rows", {})
    table.attrs = {}
    topics = np.asarray(sorted(pd.unique(table["topic"]).tolist()), dtype=object)
    metrics = sorted(pd.unique(table["metric"]).tolist())
    systems: dict[str, ClusteringReport] = {}
    for system, group in table.groupby("system", sort=False):
        have = set(group["topic"].tolist())
        missing = [str(t) for t in topics if t not in have]
        rep = ClusteringReport(
            name=str(system), sources=[str(path)], rows=int(len(group)), topics=len(have),
            missing_topics=len(missing), missing_topic_names=missing,
            duplicate_rows=dups.get(str(system), 0),
        )
        cells = len(have) * len(metrics)
        if len(group) < cells:
            per_metric = group.groupby("metric")["topic"].nunique()
            short = [m for m in metrics if per_metric.get(m, 0) < len(have)]
            rep.notes.append(LoadNote(
                str(path), f"system {system!r} has {cells - len(group)} missing (topic, metric) "
                f"score(s), e.g. for metric {short[0]!r}",
            ))
        if missing:
            rep.notes.append(LoadNote(
                str(path), f"system {system!r} has no score for {len(missing)} topic(s), "
                f"e.g. {missing[0]!r}",
            ))
        systems[str(system)] = rep
    if testbeds is None:
        testbeds = default_testbed_rule(topics)
    beds = testbeds_from_rule(topics, testbeds, notes, str(path))
    return Campaign(
        name=name or strip_extensions(path),
        topics=topics,
        testbeds=beds,
        item_topic=np.zeros(0, dtype=np.int32),
        item_ids=np.zeros(0, dtype=object),
        gold=None,
        runs={},
        report=ValidationReport(gold=None, systems=systems, notes=notes),
        scores=table,
        source=str(path),
    )


class _Scores(CampaignFormat):
    """A score table: a file, or a folder ``scores.<ext>`` beside no gold (its test beds in
    ``campaign.toml``)."""

    def detect_path(self, probe: Probe) -> bool:
        return probe.is_parquet_file() and looks_like_scores(",".join(probe.columns))

    def detect_line(self, probe: Probe) -> bool:
        return looks_like_scores(probe.first_line)

    def line_problem(self, probe: Probe) -> str | None:
        return wide_table_problem(probe.first_line)

    def claim_folder(self, request: FolderRequest, forced: bool) -> Campaign | None:
        folder = request.folder
        cands = [p for p in folder.iterdir() if p.name.startswith("scores.") and is_data_file(p)]
        has_gold = any(p.name == "gold" or p.name.startswith("gold.") for p in folder.iterdir())
        if has_gold and not forced:
            return None
        if len(cands) > 1:
            raise CampaignFormatError(
                folder, f"several score tables: {', '.join(p.name for p in cands)}; keep one")
        if not cands:
            if forced:
                raise CampaignFormatError(folder, "format = \"scores\" but no scores.<ext> file "
                                          "(a score table system, topic, metric, value)")
            return None
        return load_score_campaign(cands[0], name=request.name, testbeds=request.testbed_rule())

    def read_clustering(self, node: Node, encoding: str | None) -> RawClustering:
        raise CampaignFormatError(node, "a score table is not a clustering "
                                        "(give it as the campaign)")

    def load_folder(self, request: FolderRequest, gold: Node) -> Campaign:
        raise CampaignFormatError(gold, "the gold is a score table; give the file itself")

    def load_file(self, node: Node, name: str | None, testbeds: TestbedRule) -> Campaign:
        return load_score_campaign(node, name=name, testbeds=testbeds)


FORMAT = _Scores()
