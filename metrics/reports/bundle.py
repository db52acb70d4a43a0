"""Comparison bundles: the folder ``unanimity compare --out DIR`` writes, reopened without
recomputing (docs/rankings.md, "Bundles").

A bundle is a folder of tables plus ``manifest.json``::

    {"format": "unanimity-comparison-bundle", "format_version": 4,
     "package_version": "0.1.0", "created": "2026-11-23T10:00:00+00:00",
     "inputs": [{"path": ..., "kind": "file" | "folder", "sha256": ..., "bytes": ..., "files":
     ...}],
     "options": {...the command's options...},
     "files": {"pairs": {"file": "pairs.csv", "kind": "table", "sha256": ..., "rows": ...,
                         "columns": {"system_a": "str", "uir": "float", "crossings": "list_float",
                                     ...},
                         "parquet": {"file": "pairs.parquet", "sha256": ...}},
               "summary": {"file": "summary.json", "kind": "json", "sha256": ...},
               "report": {"file": "report.tex", "kind": "text", "sha256": ...}, ...}}

Tables are written through the output policy (:mod:`metrics.reports.table_output`: spreadsheet
formulas neutralised, column kinds from dtypes, vectorised formatting); a table of
:data:`~metrics.reports.bundle_manifest.PARQUET_ROWS` rows or more also gets a Parquet twin,
which :func:`open_bundle` reads instead of the CSV. Every file the manifest lists carries the
SHA-256 of its bytes. :func:`open_bundle` trusts nothing before checking it: the manifest against
its schema (:mod:`metrics.reports.bundle_manifest`), each file as a regular file inside the folder
(:mod:`metrics.reports.bundle_members`: no symbolic link followed), its SHA-256, and each table
against its declared column kinds (:mod:`metrics.reports.table_input`); any other version than
:data:`~metrics.reports.bundle_manifest.READ_VERSIONS` is refused (rerun ``compare``). The
fingerprint of an input folder is the SHA-256 over its files' relative paths and SHA-256s, in
sorted order.

What ``unanimity info DIR`` prints of a bundle is :func:`metrics.reports.bundle_info.bundle_info`.
"""

from __future__ import annotations

import hashlib
import json
import os
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from datetime import UTC, datetime
from pathlib import Path

import numpy as np
import pandas as pd

from metrics import __version__
from metrics.analyses.aggregation import AggregationRobustness
from metrics.analyses.common import Correlation
from metrics.comparison.profiles import profile_of
from metrics.comparison.tie_ranking import ranking_from_comparison
from metrics.errors import UnanimityError
from metrics.io.source import Budget, Meter
from metrics.reports.bundle_manifest import (
    BUNDLE_FORMAT,
    BUNDLE_VERSION,
    MANIFEST,
    MAX_JSON_BYTES,
    MAX_MANIFEST_BYTES,
    PARQUET_ROWS,
    READ_VERSIONS,
    check_manifest,
    check_version,
    is_bundle,
    load_json,
)
from metrics.reports.bundle_members import MemberNode, read_member
from metrics.reports.bundle_tables import put_file, write_tables
from metrics.reports.comparison_latex import comparison_latex
from metrics.reports.latex import LATEX_TOP
from metrics.reports.pair_report import pair_report
from metrics.reports.stored_comparison import (
    StoredRanking,
    stored_aggregation,
    stored_correlation,
    stored_ranking,
)
from metrics.reports.table_input import read_csv_table, read_parquet_table

__all__ = ["BUNDLE_FORMAT", "BUNDLE_VERSION", "READ_VERSIONS", "MANIFEST", "Bundle",
           "open_bundle", "write_bundle", "fingerprint", "is_bundle"]


def _sha256_file(path: Path) -> str:
    h = hashlib.sha256()
    with open(path, "rb") as fh:
        for chunk in iter(lambda: fh.read(1 << 20), b""):
            h.update(chunk)
    return h.hexdigest()


def fingerprint(path: str | Path) -> dict:
    """``{"path", "kind", "sha256", "bytes", "files"}`` of an input file or folder (``path``
    absolute, so that the campaign can be opened again from anywhere)."""
    p = Path(path).resolve()
    if p.is_file():
        return {"path": str(p), "kind": "file", "sha256": _sha256_file(p),
                "bytes": p.stat().st_size, "files": 1}
    if p.is_dir():
        files = sorted(f for f in p.rglob("*") if f.is_file())
        h = hashlib.sha256()
        for f in files:
            h.update(f.relative_to(p).as_posix().encode("utf-8") + b"\0")
            h.update(_sha256_file(f).encode("ascii") + b"\n")
        return {"path": str(p), "kind": "folder", "sha256": h.hexdigest(),
                "bytes": int(sum(f.stat().st_size for f in files)), "files": len(files)}
    raise UnanimityError(f"{p}: input to fingerprint not found")


@dataclass(frozen=True)
class Bundle:
    """A reopened comparison bundle.

    Attributes
    ----------
    path : Path
    manifest : dict
    tables : dict of str -> DataFrame
        Every table, by name (``pairs``, ``systems``, ``ranking``, ...).
    json : dict of str -> object
        Every JSON file (``summary``).
    texts : dict of str -> str
        Every text file (``report`` = the LaTeX report, when written).
    """

    path: Path
    manifest: dict
    tables: dict
    json: dict
    texts: dict

    @property
    def options(self) -> dict:
        return dict(self.manifest.get("options", {}))

    @property
    def inputs(self) -> list[dict]:
        return list(self.manifest.get("inputs", []))

    # The attributes :func:`metrics.reports.pair_report.pair_report` reads, so that a stored pair
    # is worded by the same code as a computed one (the stored verdict columns, nothing redone).
    @property
    def parameters(self) -> dict:
        """The comparison's parameters (``summary.json``)."""
        return dict(self.json.get("summary", {}).get("parameters", {}))

    @property
    def pairs(self) -> pd.DataFrame:
        return self.tables["pairs"]

    @property
    def systems(self) -> pd.DataFrame:
        return self.tables["systems"]

    @property
    def tests(self) -> pd.DataFrame | None:
        return self.tables.get("tests")

    @property
    def uir_metrics(self) -> tuple[str, ...]:
        return tuple(self.parameters.get("metrics", ()))

    def pair(self, a: str, b: str):
        """The stored row of the ordered pair (a, b) as a
        :class:`metrics.reports.pair_report.PairReport`."""

        return pair_report(self, a, b)

    # The rest of what a live CampaignComparison gives (metrics/reports/stored_comparison.py):
    # pages and reports render a bundle with the code that renders a live comparison.
    @property
    def threshold_curve(self) -> pd.DataFrame:
        return self.tables["threshold_curve"]

    @property
    def delta_f_vs_uir(self) -> Correlation:
        summary = self.json.get("summary", {})
        return stored_correlation(self.tables["delta_f_vs_uir"],
                                  summary.get("delta_f_vs_uir_pearson_r"),
                                  summary.get("delta_f_vs_uir_pvalue"))

    @property
    def weakest_metric(self) -> Correlation:
        summary = self.json.get("summary", {})
        return stored_correlation(self.tables["weakest_metric"],
                                  summary.get("weakest_metric_pearson_r"),
                                  summary.get("weakest_metric_pvalue"))

    @property
    def cross_testbed(self) -> pd.DataFrame | None:
        return self.tables.get("cross_testbed")

    def ranking(self) -> StoredRanking:
        """The stored ranking with tie groups (``ranking_order.csv``, ``ranking_hasse.csv``)."""
        p = self.parameters
        return stored_ranking(self.tables, self.pairs, float(p["threshold"]),
                              profile_of(p).strict_improved)

    def aggregation(self) -> AggregationRobustness | None:
        """The stored rankings under every aggregation rule (None when not written)."""
        return stored_aggregation(self.tables)

    def to_latex(self, max_pairs: int | None = 40, level: float = 0.05,
                 top: int | None = LATEX_TOP, ranking: bool = True,
                 files: tuple[str, str] = ("systems.csv", "ranking.csv")) -> str:
        """:func:`metrics.reports.comparison_latex.comparison_latex` of the stored tables."""
        return comparison_latex(self, max_pairs, level, top, ranking, files)


def write_bundle(
    out_dir: str | Path,
    tables: Mapping[str, pd.DataFrame],
    json_files: Mapping[str, object] | None = None,
    texts: Mapping[str, str] | None = None,
    inputs: Sequence[str | Path] = (),
    options: Mapping[str, object] | None = None,
) -> list[Path]:
    """Write tables (``NAME.csv``, and ``NAME.parquet`` from
    :data:`~metrics.reports.bundle_manifest.PARQUET_ROWS` rows), JSON (``NAME.json``), texts
    (``NAME.tex``) and the manifest.

    Each table's column kinds come from its dtypes
    (
    :func:`metrics.reports.table_output.column_kinds`), its row count from the frame and its
    SHA-256 from the bytes written: nothing is read back. The tables are written concurrently,
    one per core, largest first (Arrow's CSV and Parquet writers and the hashing release the
    interpreter); the manifest lists them in the order given. Returns the paths written, manifest
    last.
    """
    out = Path(out_dir)
    out.mkdir(parents=True, exist_ok=True)
    files: dict[str, dict] = {}
    written: list[Path] = []

    def put(name: str, data: bytes) -> dict:
        entry, path = put_file(out, name, data)
        written.append(path)
        return entry

    done = write_tables(out, tables, PARQUET_ROWS)
    for name in tables:
        entry, paths = done[name]
        files[name] = entry
        written.extend(paths)
    for name, obj in (json_files or {}).items():
        data = (json.dumps(obj, indent=2) + "\n").encode("utf-8")
        files[name] = {**put(f"{name}.json", data), "kind": "json"}
    for name, tex in (texts or {}).items():
        files[name] = {**put(f"{name}.tex", tex.encode("utf-8")), "kind": "text"}
    manifest = {
        "format": BUNDLE_FORMAT,
        "format_version": BUNDLE_VERSION,
        "package_version": __version__,
        "created": datetime.now(UTC).isoformat(timespec="seconds"),
        "inputs": [fingerprint(p) for p in inputs],
        "options": dict(options or {}),
        "files": files,
    }
    path = out / MANIFEST
    path.write_text(json.dumps(manifest, indent=2, default=str) + "\n", encoding="utf-8")
    written.append(path)
    return written


def open_bundle(path: str | Path, label: str | None = None) -> Bundle:
    """Reopen a bundle written by :func:`write_bundle` without recomputing anything, after
    checking everything it holds.

    Parameters
    ----------
    path : path
        The bundle folder.
    label : str, optional
        How errors name the bundle (``results.zip`` for an unpacked upload: ``results.zip:
        pairs.csv``); default: the folder's path.

    Raises
    ------
    UnanimityError
        One line naming the file and what is wrong: no manifest (not a bundle, or written before
        bundles had one), another format or format version, a manifest that breaks its schema
        (a key missing or of the wrong type, an unknown column kind, nesting too deep), a listed
        file missing, a symbolic link or not a regular file, a file whose SHA-256 differs from
        the manifest's, a JSON file that is not JSON, a text that is not UTF-8, or a table that
        is not CSV or whose first bad cell (row and column named) does not fit its column's kind.
    """
    root = Path(path)

    def shown(name: str) -> str:
        return f"{label}: {name}" if label else str(root / name)

    if not os.path.lexists(root / MANIFEST):
        hint = (" (a comparison folder written before bundles had a manifest: rerun "
                "`unanimity compare ... --out DIR`)" if (root / "pairs.csv").is_file() else "")
        raise UnanimityError(f"{label or root}: not a comparison bundle, no {MANIFEST}{hint}")
    budget = Budget.from_env()
    meter = Meter(budget)
    mlabel = shown(MANIFEST)
    manifest = load_json(read_member(root, MANIFEST, mlabel, budget), mlabel, MAX_MANIFEST_BYTES)
    version = check_version(manifest, mlabel, label or str(root), __version__)
    manifest = check_manifest(manifest, mlabel)

    def verified(entry: dict) -> bytes:
        flabel = shown(entry["file"])
        data = read_member(root, entry["file"], flabel, budget)
        meter.check(flabel, len(data), len(data), final=True)
        digest = hashlib.sha256(data).hexdigest()
        if digest != entry["sha256"]:
            raise UnanimityError(
                f"{flabel}: contents changed after the bundle was written (SHA-256 "
                f"{digest[:12]}... instead of {entry['sha256'][:12]}...); refusing a tampered "
                "bundle")
        return data

    tables, jsons, texts = {}, {}, {}
    for name, entry in manifest["files"].items():
        data, flabel = verified(entry), shown(entry["file"])
        if entry["kind"] == "table":
            twin = entry.get("parquet")
            if twin is not None:
                plabel = shown(twin["file"])
                df = read_parquet_table(MemberNode(verified(twin), plabel, meter),
                                        entry["columns"], plabel)
            else:
                df = read_csv_table(data, entry["columns"], flabel, neutralised=version >= 3)
            if len(df) != entry["rows"]:
                raise UnanimityError(f"{flabel}: {len(df)} rows, the manifest says "
                                     f"{entry['rows']}")
            tables[name] = df
        elif entry["kind"] == "json":
            jsons[name] = load_json(data, flabel, MAX_JSON_BYTES)
        else:
            try:
                texts[name] = data.decode("utf-8")
            except UnicodeDecodeError as exc:
                raise UnanimityError(f"{flabel}: not UTF-8 text (byte {exc.start})") from None
    return Bundle(root, manifest, tables, jsons, texts)


def write_comparison_bundle(
    result,
    out_dir: str | Path,
    inputs: Sequence[str | Path] = (),
    options: Mapping[str, object] | None = None,
    latex: bool = False,
    extra_tables: Mapping[str, pd.DataFrame] | None = None,
    extra_latex: Sequence[str] = (),
    extra_json: Mapping[str, object] | None = None,
    latex_top: int | None = LATEX_TOP,
    ranking_columns: pd.DataFrame | None = None,
) -> list[Path]:
    """The bundle of a :class:`metrics.reports.comparison_report.CampaignComparison`: every file of
    its
    :meth:`~metrics.reports.comparison_report.CampaignComparison.write`, ``ranking.csv`` (ranking
    with tie groups,
    :mod:`metrics.comparison.tie_ranking`), ``ranking_order.csv`` (the same with ``n_above, n_below,
    block,
    score``), ``ranking_hasse.csv`` (``upper, lower``: the Hasse edges), ``extra_tables`` (the
    papers' tables), with ``latex=True``
    ``report.tex`` (:meth:`~metrics.reports.comparison_report.CampaignComparison.to_latex` with its
    systems and
    ranking tables cut to ``latex_top`` rows, then ``extra_latex``), and the manifest.
    """

    ranking = ranking_from_comparison(result)
    ranking_csv = ranking.to_csv_frame()
    if "rank_ci_low" in result.systems.columns:  # the bootstrap's rank confidence sets
        ci = result.systems.set_index("system").loc[ranking_csv["system"]]
        at = ranking_csv.columns.get_loc("rank_high") + 1
        ranking_csv.insert(at, "rank_ci_low", ci["rank_ci_low"].to_numpy())
        ranking_csv.insert(at + 1, "rank_ci_high", ci["rank_ci_high"].to_numpy())
    if ranking_columns is not None:
        more = ranking_columns.set_index("system").loc[ranking_csv["system"]]
        for col in more.columns:
            ranking_csv[col] = more[col].to_numpy()
    tables = {**result.csv_tables(), "ranking": ranking_csv,
              "ranking_order": ranking.to_dataframe(), "ranking_hasse": ranking.hasse,
              **dict(extra_tables or {})}
    texts = None
    if latex:
        texts = {"report": "\n".join([result.to_latex(top=latex_top), *extra_latex])}
    json_files = {"summary": result.summary(), **_jsonable(dict(extra_json or {}))}
    return write_bundle(out_dir, tables, json_files=json_files, texts=texts, inputs=inputs,
                        options=options)


def _jsonable(obj):
    """NaN -> None and numpy scalars -> Python numbers, recursively."""
    if isinstance(obj, dict):
        return {str(k): _jsonable(v) for k, v in obj.items()}
    if isinstance(obj, (list, tuple)):
        return [_jsonable(v) for v in obj]
    if isinstance(obj, (np.floating, float)):
        return None if np.isnan(obj) else float(obj)
    if isinstance(obj, np.integer):
        return int(obj)
    return obj
