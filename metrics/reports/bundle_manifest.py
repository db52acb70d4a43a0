"""The bundle's ``manifest.json``: its format, read within limits and checked against a schema
before anything it says is used (``docs/rankings.md`` "Bundles", ``docs/output-safety.md``).

A bundle is a file people mail to each other, so its manifest is untrusted input: JSON nested
deeper than :data:`MAX_JSON_DEPTH` is refused by a vectorised pre-scan of its brackets before it
is parsed (no recursion error), and every key the reader uses is checked for its type and range
(a SHA-256 is 64 hex digits, a row count a whole number >= 0, a column kind one of
:data:`metrics.reports.table_output.KINDS`, a file a plain name of the bundle folder no longer
than a file system allows). Each refusal is one :class:`~metrics.errors.UnanimityError` line
naming the file and the key.
"""

from __future__ import annotations

import json
import re
from pathlib import Path

import numpy as np

from metrics.errors import UnanimityError
from metrics.reports.table_output import KINDS

__all__ = ["BUNDLE_FORMAT", "BUNDLE_VERSION", "READ_VERSIONS", "MANIFEST", "MAX_JSON_DEPTH",
           "MAX_MANIFEST_BYTES", "MAX_JSON_BYTES", "PARQUET_ROWS", "check_manifest",
           "check_version", "is_bundle", "json_depth", "load_json", "plain_name"]

BUNDLE_FORMAT = "unanimity-comparison-bundle"
#: Version of the bundle layout; bump on any change of file names, columns or their meaning.
#: 2: ``ranking_order.csv`` (every column of the ranking with tie groups) and
#: ``ranking_hasse.csv`` (its Hasse edges), so the dashboard draws the order without recomputing.
#: 3: text cells neutralised against spreadsheet formulas (``docs/output-safety.md``), and a
#: Parquet twin (``"parquet": {"file", "sha256"}``) of every table of :data:`PARQUET_ROWS` rows
#: or more.
#: 4: ``compare --bootstrap``'s interval columns (``pairs.csv``: ``uir_low, uir_high,
#: uir_param_low, uir_param_high, delta_f_low, delta_f_high``; ``ranking.csv``: ``rank_ci_low,
#: rank_ci_high``) and the aggregation tables (docs/uncertainty.md).
BUNDLE_VERSION = 4
#: Versions :func:`metrics.reports.bundle.open_bundle` reads (2: no neutralised cells, no Parquet;
#: 2 and 3: no intervals, no aggregation tables).
READ_VERSIONS = (2, 3, 4)
MANIFEST = "manifest.json"
#: Tables of this many rows or more get a Parquet twin beside their CSV.
PARQUET_ROWS = 100_000
#: Deepest nesting of arrays and objects read in the manifest or a JSON member.
MAX_JSON_DEPTH = 32
MAX_MANIFEST_BYTES = 4 * 1024 * 1024
#: Largest JSON file of a bundle read (``summary.json``, ``paper_tables.json`` hold kilobytes).
MAX_JSON_BYTES = 16 * 1024 * 1024
#: Longest file name (bytes of UTF-8) most file systems allow.
MAX_NAME_BYTES = 255
_MAX_FILES = 1000
_MAX_COLUMNS = 10_000
_MAX_INPUTS = 10_000
_SHA256 = re.compile(r"[0-9a-f]{64}")
_MISSING = object()


def is_bundle(path: str | Path) -> bool:
    """True for a folder with a bundle manifest (of any version)."""
    try:
        return (Path(path) / MANIFEST).is_file()
    except OSError:  # a name too long for the file system: not a bundle (the caller says why)
        return False


def json_depth(data: bytes) -> int:
    """Deepest nesting of ``[`` / ``{`` in JSON text, outside strings, in a few numpy passes.

    Escaped backslashes are removed first, then escaped quotes, so that every quote left opens
    or closes a string; brackets between an opening and a closing quote are not counted.
    """
    clean = data.replace(b"\\\\", b"").replace(b'\\"', b"")
    b = np.frombuffer(clean, dtype=np.uint8)
    if not len(b):
        return 0
    in_string = np.bitwise_xor.accumulate((b == ord('"')).view(np.uint8)).view(bool)
    step = ((b == ord("[")) | (b == ord("{"))).view(np.int8) \
        - ((b == ord("]")) | (b == ord("}"))).view(np.int8)
    step[in_string] = 0
    return int(np.cumsum(step, dtype=np.int32).max())


def load_json(data: bytes, label: str, max_bytes: int | None = None) -> object:
    """Parse JSON bytes after checking size, encoding and nesting.

    Raises
    ------
    UnanimityError
        Over ``max_bytes``, not UTF-8, nested deeper than :data:`MAX_JSON_DEPTH`, or not JSON.
    """
    if max_bytes is not None and len(data) > max_bytes:
        raise UnanimityError(f"{label}: {len(data)} bytes; at most {max_bytes} are read")
    try:
        text = data.decode("utf-8")
    except UnicodeDecodeError as exc:
        raise UnanimityError(f"{label}: not UTF-8 text (byte {exc.start})") from None
    depth = json_depth(data)
    if depth > MAX_JSON_DEPTH:
        raise UnanimityError(f"{label}: JSON nested {depth} levels deep; at most "
                             f"{MAX_JSON_DEPTH} are read")
    try:
        return json.loads(text)
    except (json.JSONDecodeError, RecursionError) as exc:
        raise UnanimityError(f"{label}: not JSON ({exc})") from None


def plain_name(name: object) -> bool:
    """A file name inside the bundle folder: no folder part, not hidden, not ``..``, no NUL."""
    return (isinstance(name, str) and bool(name) and "/" not in name and "\\" not in name
            and not name.startswith(".") and "\0" not in name)


def _show(value: object) -> str:
    text = repr(value)
    return text if len(text) <= 60 else text[:57] + "..."


def _fail(label: str, key: str, want: str, value: object = _MISSING) -> UnanimityError:
    found = "it is missing" if value is _MISSING else f"found {_show(value)}"
    return UnanimityError(f"{label}: malformed manifest: {key} must be {want}; {found}")


def _get(obj: dict, key: str, where: str, label: str, check, want: str):
    value = obj.get(key, _MISSING)
    if value is _MISSING or not check(value):
        raise _fail(label, f"{where}{key}", want, value)
    return value


def _is_count(v: object) -> bool:
    return isinstance(v, int) and not isinstance(v, bool) and v >= 0


def _is_sha(v: object) -> bool:
    return isinstance(v, str) and _SHA256.fullmatch(v) is not None


def _file_name(obj: dict, where: str, label: str) -> str:
    name = _get(obj, "file", where, label, plain_name,
                "a plain file name of the bundle folder (no folder part, not hidden)")
    if len(name.encode("utf-8", "surrogatepass")) > MAX_NAME_BYTES:
        raise UnanimityError(f"{label}: {where}file is {len(name.encode('utf-8', 'replace'))} "
                             f"bytes long; file systems allow {MAX_NAME_BYTES}")
    return name


def check_version(manifest: object, label: str, root: str, package_version: str) -> int:
    """The format version of a manifest of this format, refused unless in :data:`READ_VERSIONS`."""
    if not isinstance(manifest, dict) or manifest.get("format") != BUNDLE_FORMAT:
        raise UnanimityError(f"{label}: not a {BUNDLE_FORMAT} manifest")
    version = manifest.get("format_version")
    writer = manifest.get("package_version", "?")
    writer = writer if isinstance(writer, str) and len(writer) <= 40 else _show(writer)
    if isinstance(version, bool) or version not in READ_VERSIONS:
        age = ("an older" if isinstance(version, int) and not isinstance(version, bool)
               and version < min(READ_VERSIONS) else "another")
        raise UnanimityError(
            f"{root}: bundle format version {_show(version)} (written by unanimity "
            f"{writer}) is {age} version; this unanimity "
            f"({package_version}) reads format versions "
            f"{', '.join(map(str, READ_VERSIONS))}: rerun `unanimity compare ... --out DIR` "
            "to rebuild it")
    return version


def check_manifest(manifest: object, label: str) -> dict:
    """Refuse a manifest (already past :func:`check_version`) whose keys the reader would
    misuse; returns it unchanged.

    Raises
    ------
    UnanimityError
        The first key of the wrong type or range, named by its path (``files.pairs.sha256``).
    """
    if not isinstance(manifest, dict):
        raise UnanimityError(f"{label}: not a {BUNDLE_FORMAT} manifest")
    _get(manifest, "package_version", "", label, lambda v: isinstance(v, str), "text")
    _get(manifest, "created", "", label, lambda v: isinstance(v, str), "text")
    _get(manifest, "options", "", label, lambda v: isinstance(v, dict), "an object")
    inputs = _get(manifest, "inputs", "", label,
                  lambda v: isinstance(v, list) and len(v) <= _MAX_INPUTS,
                  f"a list of at most {_MAX_INPUTS} inputs")
    for i, inp in enumerate(inputs):
        where = f"inputs[{i}]."
        if not isinstance(inp, dict):
            raise _fail(label, f"inputs[{i}]", "an object", inp)
        _get(inp, "path", where, label, lambda v: isinstance(v, str), "text")
        _get(inp, "kind", where, label, lambda v: v in ("file", "folder"), "'file' or 'folder'")
        _get(inp, "sha256", where, label, _is_sha, "64 hex digits")
        _get(inp, "bytes", where, label, _is_count, "a whole number >= 0")
        _get(inp, "files", where, label, _is_count, "a whole number >= 0")
    files = _get(manifest, "files", "", label,
                 lambda v: isinstance(v, dict) and len(v) <= _MAX_FILES,
                 f"an object of at most {_MAX_FILES} files")
    seen = {MANIFEST}
    for name, entry in files.items():
        where = f"files.{name}."
        if not isinstance(entry, dict):
            raise _fail(label, f"files.{name}", "an object", entry)
        names = [_file_name(entry, where, label)]
        kind = _get(entry, "kind", where, label, lambda v: v in ("table", "json", "text"),
                    "'table', 'json' or 'text'")
        _get(entry, "sha256", where, label, _is_sha, "64 hex digits")
        if kind == "table":
            _get(entry, "rows", where, label, _is_count, "a whole number >= 0")
            columns = _get(entry, "columns", where, label,
                           lambda v: isinstance(v, dict) and 0 < len(v) <= _MAX_COLUMNS,
                           f"an object of 1 to {_MAX_COLUMNS} column kinds")
            for col, ck in columns.items():
                if ck not in KINDS:
                    raise _fail(label, f"{where}columns.{col}", f"one of {', '.join(KINDS)}", ck)
            twin = entry.get("parquet")
            if twin is not None:
                if not isinstance(twin, dict):
                    raise _fail(label, f"{where}parquet", "an object", twin)
                names.append(_file_name(twin, f"{where}parquet.", label))
                _get(twin, "sha256", f"{where}parquet.", label, _is_sha, "64 hex digits")
        for n in names:
            if n in seen:
                raise UnanimityError(f"{label}: {where}file {_show(n)} is listed twice")
            seen.add(n)
    return manifest
