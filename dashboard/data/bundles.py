"""Comparison bundles as dashboard sources: the folder ``unanimity compare --out DIR`` writes,
reopened by :func:`metrics.reports.bundle.open_bundle` (fingerprints verified) and shown without
recomputing anything (docs/rankings.md, "Bundles").

Three ways in: ``unanimity dashboard DIR`` (the command-line bundle), a folder path typed on the
Data page (listed for every session of this server, like the command-line one: it is a path on
the server) and a zip uploaded on the Data page (stored through
:mod:`dashboard.data.uploads`, so per session, size-limited and deleted with the session;
unpacked by :func:`metrics.reports.bundle_zip.unpack_bundle_zip`, which takes out only the files
the manifest lists).
The URL names the bundle shown (``?bundle=KEY``).
"""

from __future__ import annotations

import hashlib
from dataclasses import dataclass
from pathlib import Path

import streamlit as st
from streamlit.runtime.scriptrunner import get_script_run_ctx

from dashboard.data import uploads
from dashboard.data.sources import cli_path, mtime_id
from metrics.errors import UnanimityError
from metrics.reports.bundle import Bundle, is_bundle, open_bundle

__all__ = ["BundleSource", "CLI_BUNDLE_KEY", "cli_bundle", "bundle_sources", "register_path",
           "register_zip", "open_source", "is_bundle_zip"]

CLI_BUNDLE_KEY = "cli-bundle"


@dataclass(frozen=True)
class BundleSource:
    """Where a bundle comes from: ``key`` (in the URL), ``label``, ``path`` (its folder), ``cid``
    (path and modification time, or the upload digest: the cache id)."""

    key: str
    label: str
    path: str
    cid: str


def cli_bundle() -> BundleSource | None:
    """The bundle given on the command line (``unanimity dashboard DIR``), if DIR is one."""
    p = cli_path()
    if p is None or not p.is_dir() or not is_bundle(p):
        return None
    return BundleSource(CLI_BUNDLE_KEY, f"{p.name} (bundle)", str(p), mtime_id(p))


@st.cache_resource(show_spinner=False)
def _by_path() -> dict[str, BundleSource]:
    """Bundles opened by folder path (server paths: shared by the sessions of this server)."""
    return {}


@st.cache_resource(show_spinner=False, scope="session")
def _by_upload() -> dict[str, BundleSource]:
    """Bundles uploaded as a zip in this browser session."""
    return {}


def bundle_sources() -> dict[str, BundleSource]:
    """Every bundle this session can show, by key: the command-line one, paths, uploads."""
    out: dict[str, BundleSource] = {}
    cli = cli_bundle()
    if cli is not None:
        out[cli.key] = cli
    out.update(_by_path())
    if get_script_run_ctx(suppress_warning=True) is not None:
        out.update(_by_upload())
    return out


@st.cache_resource(show_spinner="Opening the bundle\u2026", max_entries=8)
def _open(cid: str, path: str) -> Bundle:
    return open_bundle(path)


def open_source(src: BundleSource) -> Bundle:
    """The bundle of ``src``, opened once per modification (``cid``); a bundle edited on disk
    gets a new ``cid`` and is checked again.

    Raises
    ------
    UnanimityError
        :func:`metrics.reports.bundle.open_bundle`'s refusals (changed files, another format
        version).
    """
    cid = mtime_id(Path(src.path)) if not src.cid.startswith("upload:") else src.cid
    return _open(cid, src.path)


def register_path(text: str) -> BundleSource:
    """Open the bundle folder ``text`` (checked now) and list it."""
    p = Path(str(text).strip()).expanduser()
    if not str(text).strip():
        raise UnanimityError("type the path of a bundle folder")
    try:
        if not p.is_dir():
            raise UnanimityError(f"{p}: no such folder")
        p = p.resolve()
    except OSError as exc:  # a name too long for the file system
        raise UnanimityError(f"{p}: {exc.strerror or exc}") from None
    open_bundle(p)  # refuses a tampered or old bundle before it is listed
    key = "bd-" + hashlib.sha256(str(p).encode("utf-8", "surrogatepass")).hexdigest()[:12]
    src = BundleSource(key, f"{p.name} (bundle)", str(p), mtime_id(p))
    _by_path()[key] = src
    return src


def is_bundle_zip(name: str, data: bytes) -> bool:
    """Whether an uploaded file is a zip holding a comparison bundle's manifest."""
    from metrics.reports.bundle_zip import bundle_zip_manifest  # noqa: PLC0415 - deferred: metrics loads after the page's first paint

    if not data.startswith(b"PK"):
        return False
    try:
        return bundle_zip_manifest(data, name) is not None
    except UnanimityError:
        return False


def register_zip(name: str, data: bytes) -> BundleSource:
    """Store an uploaded bundle zip in this session's upload space and open it."""
    from metrics.reports.bundle_zip import unpack_bundle_zip  # noqa: PLC0415 - deferred: metrics loads after the page's first paint

    up = uploads.session_space().save([(name, data)])
    folder = up.folder / "bundle"
    try:
        with uploads.as_user_sees():
            if not (folder / "manifest.json").is_file():
                unpack_bundle_zip(data, folder, uploads.safe_name(name))
            else:
                open_bundle(folder)
    except Exception:
        uploads.session_space().discard(up.key)  # nothing of a refused bundle is kept
        raise
    key = "bz-" + up.key.removeprefix("up-")
    src = BundleSource(key, f"{uploads.safe_name(name)} (bundle upload {key[3:9]})", str(folder),
                       f"upload:{up.key}")
    _by_upload()[key] = src
    return src
