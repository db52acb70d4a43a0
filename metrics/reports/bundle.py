"""Comparison bundles: the folder ``unanimity compare --out DIR`` writes, reopened without
recomputing (docs/rankings.md, "Bundles").

A bundle is a folder of tables plus ``manifest.json``::

    {"format": "unanimity-comparison-bundle", "format_version": 1,
     "package_version": "0.1.0", "created": "2026-11-23T10:00:00+00:00",
     "inputs": [{"path": ..., "kind": "file" | "folder", "sha256": ..., "bytes": ..., "files":
     ...}],
     "options": {...the command's options...},
     "files": {"pairs": {"file": "pairs.csv", "kind": "table", "sha256": ..., "rows": ...,
                         "columns": {"system_a": "str", "uir": "float", "crossings": "list_float",
                                     ...}},
               "summary": {"file": "summary.json", "kind": "json", "sha256": ...},
               "report": {"file": "report.tex", "kind": "text", "sha256": ...}, ...}}

Every file the manifest lists carries the SHA-256 of its bytes; :func:`open_bundle` refuses a
bundle whose files do not match (edited or truncated after writing), a bundle of another format
version (older bundles are refused rather than misread: rerun ``compare``) and a folder without a
manifest. Column types are recorded so that system names such as ``007`` stay strings and list
columns (crossing points, improved systems) come back as lists. The fingerprint of an input
folder is the SHA-256 over its files' relative paths and SHA-256s, in sorted order.
"""

from __future__ import annotations

import hashlib
import json
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from datetime import UTC, datetime
from pathlib import Path

import numpy as np
import pandas as pd

from metrics import __version__
from metrics.comparison.tie_ranking import ranking_from_comparison
from metrics.errors import UnanimityError
from metrics.reports.latex import LATEX_TOP
from metrics.reports.pair_report import pair_report

__all__ = ["BUNDLE_FORMAT", "BUNDLE_VERSION", "MANIFEST", "Bundle", "open_bundle",
           "write_bundle", "fingerprint", "is_bundle"]

BUNDLE_FORMAT = "unanimity-comparison-bundle"
#: Version of the bundle layout; bump on any change of file names, columns or their meaning.
#: 2: ``ranking_order.csv`` (every column of the ranking with tie groups) and
#: ``ranking_hasse.csv`` (its Hasse edges), so the dashboard draws the order without recomputing.
BUNDLE_VERSION = 2
MANIFEST = "manifest.json"
_LIST_SEP = ";"


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


def _column_kind(s: pd.Series) -> str:
    if pd.api.types.is_bool_dtype(s):
        return "bool"
    if pd.api.types.is_integer_dtype(s):
        return "int"
    if pd.api.types.is_float_dtype(s):
        return "float"
    vals = [v for v in s if isinstance(v, (list, tuple, np.ndarray))]
    if vals:
        flat = [x for v in vals for x in v]
        return "list_float" if flat and all(isinstance(x, (float, np.floating)) for x in flat) \
            else ("list_float" if not flat else "list_str")
    return "str"


def _to_csv_frame(df: pd.DataFrame, kinds: Mapping[str, str]) -> pd.DataFrame:
    out = df.copy()
    for c, k in kinds.items():
        if k.startswith("list_"):
            out[c] = [_LIST_SEP.join(repr(float(x)) if k == "list_float" else str(x) for x in v)
                      if isinstance(v, (list, tuple, np.ndarray)) else v for v in out[c]]
    return out


def _from_csv(path: Path, kinds: Mapping[str, str]) -> pd.DataFrame:
    text_cols = {c: str for c, k in kinds.items() if k != "float" and k != "int"}
    df = pd.read_csv(path, dtype=text_cols, keep_default_na=False, na_values={
        c: [""] for c in kinds})
    if list(df.columns) != list(kinds):
        raise UnanimityError(f"{path}: columns {list(df.columns)} differ from the manifest's "
                             f"{list(kinds)}")
    for c, k in kinds.items():
        col = df[c]
        if k == "bool":
            df[c] = col.map({"True": True, "False": False}).astype(bool)
        elif k == "int":
            df[c] = col.astype(np.int64) if not col.isna().any() else col
        elif k == "str":
            df[c] = col.astype(object).where(col.notna(), None)
        elif k.startswith("list_"):
            conv = float if k == "list_float" else str
            df[c] = [[] if (v is None or (isinstance(v, float) and np.isnan(v)) or v == "")
                     else [conv(x) for x in str(v).split(_LIST_SEP)] for v in col]
    return df


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


def is_bundle(path: str | Path) -> bool:
    """True for a folder with a bundle manifest (of any version)."""
    return (Path(path) / MANIFEST).is_file()


def write_bundle(
    out_dir: str | Path,
    tables: Mapping[str, pd.DataFrame],
    json_files: Mapping[str, object] | None = None,
    texts: Mapping[str, str] | None = None,
    inputs: Sequence[str | Path] = (),
    options: Mapping[str, object] | None = None,
    existing: Sequence[Path] = (),
    frames: Mapping[str, pd.DataFrame] | None = None,
) -> list[Path]:
    """Write tables (``NAME.csv``), JSON (``NAME.json``), texts (``NAME.tex``) and the manifest.

    ``existing`` are files already written into ``out_dir`` (by
    :meth:`metrics.reports.comparison_report.CampaignComparison.write`) to list in the manifest as
    well; the
    column types of an existing ``NAME.csv`` come from ``frames[NAME]`` (text where unknown).
    Returns the paths written, manifest last. Lists in table cells are written ``;``-separated at
    full precision (``repr``).
    """
    out = Path(out_dir)
    out.mkdir(parents=True, exist_ok=True)
    files: dict[str, dict] = {}
    written: list[Path] = []

    def record(name: str, path: Path, kind: str, **extra) -> None:
        files[name] = {"file": path.name, "kind": kind, "sha256": _sha256_file(path), **extra}
        written.append(path)

    for path in map(Path, existing):
        name, suffix = path.stem, path.suffix
        if suffix == ".csv":
            head = pd.read_csv(path, dtype=str, keep_default_na=False)
            frame = (frames or {}).get(name)
            kinds = {str(c): (_column_kind(frame[c]) if frame is not None and c in frame else "str")
                     for c in head.columns}
            record(name, path, "table", rows=len(head), columns=kinds)
        else:
            record(name, path, "json" if suffix == ".json" else "text")

    for name, df in tables.items():
        kinds = {str(c): _column_kind(df[c]) for c in df.columns}
        path = out / f"{name}.csv"
        _to_csv_frame(df, kinds).to_csv(path, index=False)
        record(name, path, "table", rows=len(df), columns=kinds)
    for name, obj in (json_files or {}).items():
        path = out / f"{name}.json"
        path.write_text(json.dumps(obj, indent=2) + "\n", encoding="utf-8")
        record(name, path, "json")
    for name, text in (texts or {}).items():
        path = out / f"{name}.tex"
        path.write_text(text, encoding="utf-8")
        record(name, path, "text")
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


def open_bundle(path: str | Path) -> Bundle:
    """Reopen a bundle written by :func:`write_bundle` without recomputing anything.

    Raises
    ------
    UnanimityError
        No manifest (not a bundle, or written before bundles had one), another format or format
        version, a listed file missing, or a file whose SHA-256 differs from the manifest's.
    """
    root = Path(path)
    mpath = root / MANIFEST
    if not mpath.is_file():
        hint = (" (a comparison folder written before bundles had a manifest: rerun "
                "`unanimity compare ... --out DIR`)" if (root / "pairs.csv").is_file() else "")
        raise UnanimityError(f"{root}: not a comparison bundle, no {MANIFEST}{hint}")
    try:
        manifest = json.loads(mpath.read_text(encoding="utf-8"))
    except (json.JSONDecodeError, UnicodeDecodeError) as exc:
        raise UnanimityError(f"{mpath}: unreadable manifest: {exc}") from None
    if not isinstance(manifest, dict) or manifest.get("format") != BUNDLE_FORMAT:
        raise UnanimityError(f"{mpath}: not a {BUNDLE_FORMAT} manifest")
    version = manifest.get("format_version")
    if version != BUNDLE_VERSION:
        age = "an older" if isinstance(version, int) and version < BUNDLE_VERSION else "another"
        raise UnanimityError(
            f"{root}: bundle format version {version} (written by unanimity "
            f"{manifest.get('package_version', '?')}) is {age} version; this unanimity "
            f"({__version__}) reads format version {BUNDLE_VERSION} only: rerun "
            f"`unanimity compare ... --out DIR` to rebuild it")
    files = manifest.get("files")
    if not isinstance(files, dict) or not all(
            isinstance(e, dict) and {"file", "kind", "sha256"} <= set(e)
            and (e["kind"] != "table" or isinstance(e.get("columns"), dict))
            for e in files.values()):
        raise UnanimityError(f"{mpath}: malformed manifest (files need file, kind, sha256 and, "
                             "for tables, columns)")
    tables, jsons, texts = {}, {}, {}
    for name, entry in files.items():
        if not _plain_name(entry["file"]):
            raise UnanimityError(f"{mpath}: file {entry['file']!r} is not a plain file name of "
                                 "the bundle folder")
        fpath = root / entry["file"]
        if not fpath.is_file():
            raise UnanimityError(f"{fpath}: listed in the manifest but missing")
        digest = _sha256_file(fpath)
        if digest != entry["sha256"]:
            raise UnanimityError(
                f"{fpath}: contents changed after the bundle was written (SHA-256 {digest[:12]}... "
                f"instead of {entry['sha256'][:12]}...); refusing a tampered bundle")
        if entry["kind"] == "table":
            df = _from_csv(fpath, entry["columns"])
            if len(df) != entry.get("rows", len(df)):
                raise UnanimityError(f"{fpath}: {len(df)} rows, the manifest says {entry['rows']}")
            tables[name] = df
        elif entry["kind"] == "json":
            jsons[name] = json.loads(fpath.read_text(encoding="utf-8"))
        else:
            texts[name] = fpath.read_text(encoding="utf-8")
    return Bundle(root, manifest, tables, jsons, texts)


def _plain_name(name: object) -> bool:
    """A file name inside the bundle folder: no folder part, not hidden, not ``..``."""
    return (isinstance(name, str) and bool(name) and "/" not in name and "\\" not in name
            and not name.startswith(".") and "\0" not in name)


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

    written = result.write(out_dir, latex=False)
    ranking = ranking_from_comparison(result)
    frames = {"pairs": result.pairs, "systems": result.systems,
              "threshold_curve": result.threshold_curve, "tests": result.tests,
              "delta_f_vs_uir": result.delta_f_vs_uir["points"],
              "weakest_metric": result.weakest_metric["points"],
              "cross_testbed": result.cross_testbed}
    frames = {k: v for k, v in frames.items() if v is not None}
    tables = {"ranking": ranking.to_csv_frame(), "ranking_order": ranking.to_dataframe(),
              "ranking_hasse": ranking.hasse, **dict(extra_tables or {})}
    texts = None
    if latex:
        texts = {"report": "\n".join([result.to_latex(top=latex_top), *extra_latex])}
    return write_bundle(out_dir, tables, json_files=_jsonable(dict(extra_json or {})), texts=texts,
                        inputs=inputs, options=options, existing=written, frames=frames)


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


def bundle_info(path: str | Path, as_json: bool = False) -> int:
    """Print what a bundle holds (``unanimity info DIR``), after checking it with
    :func:`open_bundle`. Returns the exit code."""
    b = open_bundle(path)
    m = b.manifest
    if as_json:
        print(json.dumps(m, indent=2))
        return 0
    print(f"comparison bundle  {b.path}  (format version {m['format_version']}, written by "
          f"unanimity {m.get('package_version', '?')} at {m.get('created', '?')})")
    for inp in b.inputs:
        print(f"input       {inp['path']}  ({inp['kind']}, {inp['files']} file(s), "
              f"sha256 {inp['sha256'][:16]}...)")
    opts = {k: v for k, v in b.options.items() if v is not None and v is not False and v != []}
    print("options     " + ", ".join(f"{k}={v}" for k, v in opts.items()))
    print("files (fingerprints verified):")
    for entry in m["files"].values():
        rows = f"{entry['rows']} rows" if entry["kind"] == "table" else entry["kind"]
        print(f"  {entry['file']:<28} {rows}")
    return 0
