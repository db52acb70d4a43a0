"""A comparison bundle sent as a zip (the dashboard's upload): unpacked within the loader's
budget, then opened and verified by :func:`metrics.reports.bundle.open_bundle` (docs/rankings.md,
"Bundles").

Only what the manifest lists is taken out of the archive: ``manifest.json`` at the top of the zip
or of its one top folder, checked against the manifest's schema before anything is written
(:mod:`metrics.reports.bundle_manifest`, the same checks as the folder route), then each listed
file by its plain name (no folder part, no ``..``), read through
:class:`metrics.io.archive.ZipArchive` (decompression budget, member limits, a member listed
twice refused, corrupt data refused, ``docs/input-safety.md``). Nothing else in the zip is
written anywhere; the unpacked folder is then opened by
:func:`metrics.reports.bundle.open_bundle`, as a folder given on the command line is.
"""

from __future__ import annotations

import io
from pathlib import Path

from metrics import __version__
from metrics.errors import UnanimityError
from metrics.io.archive import ZipArchive
from metrics.io.source import Meter
from metrics.reports.bundle import BUNDLE_FORMAT, MANIFEST, Bundle, open_bundle
from metrics.reports.bundle_manifest import (
    MAX_MANIFEST_BYTES,
    check_manifest,
    check_version,
    load_json,
)

__all__ = ["bundle_zip_manifest", "unpack_bundle_zip"]


def _manifest_node(archive: ZipArchive):
    """The node of ``manifest.json`` at the top of the zip or of its single top folder."""
    root = archive.root()
    node = root.child(MANIFEST)
    if node is not None and node.is_file():
        return node, root
    tops = root.iterdir()
    if len(tops) == 1 and tops[0].is_dir():
        node = tops[0].child(MANIFEST)
        if node is not None and node.is_file():
            return node, tops[0]
    return None, root


def _read_manifest(node, label: str) -> tuple[bytes, object]:
    """The manifest's bytes and its parsed JSON (size, encoding and depth checked; any JSON
    value: the callers check the shape)."""
    raw = node.read_bytes()
    return raw, load_json(raw, f"{label}: {MANIFEST}", MAX_MANIFEST_BYTES)


def bundle_zip_manifest(data: bytes, label: str) -> dict | None:
    """The bundle manifest of a zip, or None when the zip holds no comparison bundle.

    Raises
    ------
    UnanimityError
        A corrupt zip, or a ``manifest.json`` that is not JSON.
    """
    archive = ZipArchive(io.BytesIO(data), label, Meter())
    try:
        node, _ = _manifest_node(archive)
        if node is None:
            return None
        _, manifest = _read_manifest(node, label)
        if not isinstance(manifest, dict) or manifest.get("format") != BUNDLE_FORMAT:
            return None
        return manifest
    finally:
        archive.close()


def unpack_bundle_zip(data: bytes, dest: str | Path, label: str) -> Bundle:
    """Write the files a zipped bundle's manifest lists into ``dest`` and open the bundle.

    Parameters
    ----------
    data : bytes
        The zip.
    dest : path
        An empty folder to write into (created).
    label : str
        How errors name the zip (the user's file name).

    Raises
    ------
    UnanimityError
        Not a bundle, a manifest that breaks its schema, a listed file missing, in the zip twice
        or not a plain name, over the budget, or any refusal of
        :func:`metrics.reports.bundle.open_bundle` (changed contents, a bad cell).
    """
    out = Path(dest)
    archive = ZipArchive(io.BytesIO(data), label, Meter())
    try:
        node, top = _manifest_node(archive)
        if node is None:
            raise UnanimityError(f"{label}: no {MANIFEST} at the top of the zip: not a "
                                 "comparison bundle (`unanimity compare ... --out DIR` writes one)")
        raw, manifest = _read_manifest(node, label)
        mlabel = f"{label}: {MANIFEST}"
        check_version(manifest, mlabel, label, __version__)
        manifest = check_manifest(manifest, mlabel)
        out.mkdir(parents=True, exist_ok=True)
        for entry in manifest["files"].values():
            twin = entry.get("parquet")
            for name in [entry["file"], *([twin["file"]] if twin else [])]:
                member = top.child(name)
                if member is None or not member.is_file():
                    raise UnanimityError(f"{label}: {name} is listed in the manifest but "
                                         "missing from the zip")
                (out / name).write_bytes(member.read_bytes())
        (out / MANIFEST).write_bytes(raw)
    finally:
        archive.close()
    return open_bundle(out, label=label)
