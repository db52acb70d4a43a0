"""What ``unanimity info DIR`` prints of a comparison bundle (docs/rankings.md, "Bundles"): its
inputs, options and files, once :func:`metrics.reports.bundle.open_bundle` has checked it."""

from __future__ import annotations

import json
from pathlib import Path

from metrics.reports.bundle import open_bundle

__all__ = ["bundle_info"]


def bundle_info(path: str | Path, as_json: bool = False, shown_as: str | None = None) -> int:
    """Print what a bundle holds (``unanimity info DIR``), after checking it with
    :func:`open_bundle`; ``shown_as`` names it (a zip unpacked into ``path``). Returns the exit
    code."""
    b = open_bundle(path)
    m = b.manifest
    if as_json:
        print(json.dumps(m, indent=2))
        return 0
    print(f"comparison bundle  {shown_as or b.path}  (format version {m['format_version']}, "
          f"written by unanimity {m.get('package_version', '?')} at {m.get('created', '?')})")
    for inp in b.inputs:
        print(f"input       {inp['path']}  ({inp['kind']}, {inp['files']} file(s), "
              f"sha256 {inp['sha256'][:16]}...)")
    opts = {k: v for k, v in b.options.items() if v is not None and v is not False and v != []}
    print("options     " + ", ".join(f"{k}={v}" for k, v in opts.items()))
    print("files (fingerprints verified):")
    for entry in m["files"].values():
        rows = f"{entry['rows']} rows" if entry["kind"] == "table" else entry["kind"]
        twin = f" (and {entry['parquet']['file']})" if entry.get("parquet") else ""
        print(f"  {entry['file']:<28} {rows}{twin}")
    return 0
