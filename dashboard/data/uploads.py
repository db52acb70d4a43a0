"""Uploaded campaign files: per session, content-addressed, size-limited, cleaned up.

Each browser session gets its own folder (a random name under one private root, mode 0700);
inside it, an upload is stored under the hash of its bytes (and file names), so uploading the
same files twice reuses one copy and two different uploads never share a folder. File names are
made safe (no folder parts, no ``..``, never empty) and two files of one upload cannot have the
same name. Uploads over the size limits are refused before anything is written. A session's
folder is deleted when the session ends; folders left behind (a server killed mid-session) are
deleted once older than the age limit. Limits and their environment variables are described in
``docs/input-safety.md#uploads``.
"""

from __future__ import annotations

import contextlib
import hashlib
import os
import re
import shutil
import tempfile
import time
from dataclasses import dataclass, field, replace
from pathlib import Path
from typing import Any

import streamlit as st

from metrics.errors import UnanimityError
from metrics.io.source import MIB, env_positive

__all__ = ["UploadLimits", "StoredUpload", "UploadSpace", "safe_name", "upload_key", "sweep",
           "upload_root", "session_space", "user_text", "as_user_sees"]

_UNSAFE = re.compile(r"[\x00-\x1f\x7f/\\:]")
_ENV = {"UNANIMITY_MAX_UPLOAD_MB": "upload_bytes",
        "UNANIMITY_MAX_SESSION_UPLOADS_MB": "session_bytes",
        "UNANIMITY_UPLOAD_MAX_AGE_HOURS": "max_age_s"}


@dataclass(frozen=True)
class UploadLimits:
    """Limits of the upload store.

    Attributes
    ----------
    upload_bytes : int
        Bytes of one upload, all its files together (default 200 MiB, Streamlit's own limit).
    session_bytes : int
        Bytes one session may keep stored (default 1 GiB).
    files : int
        Files in one upload (default 1000).
    max_age_s : float
        Seconds after which an untouched session folder is deleted (default 12 hours).
    """

    upload_bytes: int = 200 * MIB
    session_bytes: int = 1024 * MIB
    files: int = 1000
    max_age_s: float = 12 * 3600.0

    @classmethod
    def from_env(cls) -> UploadLimits:
        """Defaults, overridden by ``UNANIMITY_MAX_UPLOAD_MB``, ``UNANIMITY_MAX_SESSION_UPLOADS_MB``
        and ``UNANIMITY_UPLOAD_MAX_AGE_HOURS``."""
        changes: dict[str, Any] = {}
        for var, name in _ENV.items():
            value = env_positive(var)
            if value is not None:
                changes[name] = value * 3600.0 if name == "max_age_s" else int(value * MIB)
        return replace(cls(), **changes)


@dataclass(frozen=True)
class StoredUpload:
    """One stored upload: ``key`` (``up-`` + 16 hex digits of its hash), its files and gold."""

    key: str
    folder: Path
    paths: tuple[Path, ...]
    gold: Path | None = None
    runs: tuple[Path, ...] = field(default=())
    size: int = 0


def safe_name(name: object, index: int = 0) -> str:
    """The file name to store an upload under: no folder part, no control characters.

    ``runs/a.csv`` and ``C:\\x\\a.csv`` give ``a.csv``; a name that is empty, ``.`` or ``..``
    (or only such parts) gives ``upload-<index>``; leading dots are dropped (a hidden file is
    skipped by the loader).
    """
    text = str(name or "")
    base = re.split(r"[/\\]", text)[-1]
    base = _UNSAFE.sub("_", base).strip().lstrip(".").strip()
    if not base:
        return f"upload-{index}"
    return base[:200]


def upload_key(files: list[tuple[str, bytes]], gold: str | None = None) -> str:
    """The content address of an upload: a hash of each (safe name, hash of bytes) and the gold."""
    digest = hashlib.sha256()
    for i, (name, content) in enumerate(files):
        digest.update(safe_name(name, i).encode("utf-8", "surrogatepass") + b"\0")
        digest.update(hashlib.sha256(content).digest())
    digest.update(b"gold=" + (gold or "").encode("utf-8", "surrogatepass"))
    return "up-" + digest.hexdigest()[:16]


def _folder_bytes(folder: Path) -> int:
    return sum(p.stat().st_size for p in folder.rglob("*") if p.is_file())


class UploadSpace:
    """The uploads of one session, in a folder of its own under ``root``."""

    def __init__(self, root: Path, limits: UploadLimits | None = None) -> None:
        self.limits = limits or UploadLimits.from_env()
        self.root = Path(root)
        self.root.mkdir(mode=0o700, parents=True, exist_ok=True)
        self.folder = Path(tempfile.mkdtemp(prefix="session-", dir=self.root))

    def save(self, files: list[tuple[str, bytes]], gold: str | None = None) -> StoredUpload:
        """Store an upload (name, bytes) and say which file is the gold (by its given name).

        Raises
        ------
        UnanimityError
            No file, too many files, over a size limit, two files with one name, or a gold
            that is not one of the files.
        """
        lim = self.limits
        if not files:
            raise UnanimityError("no file uploaded")
        if len(files) > lim.files:
            raise UnanimityError(f"{len(files)} files uploaded; at most {lim.files}")
        size = sum(len(c) for _, c in files)
        if size > lim.upload_bytes:
            raise UnanimityError(f"the upload is {size / MIB:.1f} MiB; at most "
                                 f"{lim.upload_bytes / MIB:.0f} MiB")
        names = [safe_name(n, i) for i, (n, _) in enumerate(files)]
        seen: dict[str, str] = {}
        for (given, _), name in zip(files, names, strict=True):
            if name in seen:
                raise UnanimityError(f"two uploaded files are named {name!r} ({seen[name]!r} and "
                                     f"{given!r}): rename one")
            seen[name] = given
        gold_name = None
        if gold is not None:
            given_names = [n for n, _ in files]
            if gold not in given_names:
                raise UnanimityError(f"the gold {gold!r} is not one of the uploaded files")
            gold_name = names[given_names.index(gold)]
        key = upload_key(files, gold)
        target = self.folder / key
        if not target.is_dir():
            used = _folder_bytes(self.folder) if self.folder.exists() else 0
            if used + size > lim.session_bytes:
                raise UnanimityError(f"this session already stores {used / MIB:.1f} MiB of "
                                     f"uploads; at most {lim.session_bytes / MIB:.0f} MiB")
            self.folder.mkdir(mode=0o700, parents=True, exist_ok=True)
            tmp = Path(tempfile.mkdtemp(prefix=".partial-", dir=self.folder))
            for name, (_, content) in zip(names, files, strict=True):
                (tmp / name).write_bytes(content)
            try:
                tmp.rename(target)
            except OSError:  # the same upload was stored meanwhile: keep that one
                shutil.rmtree(tmp, ignore_errors=True)
        os.utime(self.folder)
        paths = tuple(target / n for n in names)
        gold_path = target / gold_name if gold_name else None
        runs = tuple(p for p in paths if p != gold_path) if gold_path else ()
        return StoredUpload(key, target, paths, gold_path, runs, size)

    def discard(self, key: str) -> None:
        """Delete one upload (e.g. one that could not be loaded)."""
        if not re.fullmatch(r"up-[0-9a-f]{16}", key):
            return
        shutil.rmtree(self.folder / key, ignore_errors=True)

    def close(self) -> None:
        """Delete every upload of the session."""
        shutil.rmtree(self.folder, ignore_errors=True)


def sweep(root: Path, max_age_s: float, now: float | None = None) -> int:
    """Delete the session folders under ``root`` untouched for ``max_age_s``; return how many."""
    now = time.time() if now is None else now
    removed = 0
    root = Path(root)
    if not root.is_dir():
        return 0
    for p in root.iterdir():
        try:
            old = now - p.stat().st_mtime > max_age_s
        except OSError:
            continue
        if old and p.is_dir() and not p.is_symlink() and p.name.startswith("session-"):
            shutil.rmtree(p, ignore_errors=True)
            removed += 1
    return removed


def upload_root() -> Path:
    """The private folder of this user's upload sessions (``$TMPDIR/unanimity-uploads-<uid>``)."""
    root = Path(tempfile.gettempdir()) / f"unanimity-uploads-{os.getuid()}"
    root.mkdir(mode=0o700, exist_ok=True)
    if root.is_symlink() or root.stat().st_uid != os.getuid():
        raise UnanimityError(f"{root} is not this user's own folder; remove it")
    return root


def user_text(text: str, root: Path | None = None) -> str:
    """``text`` with the storage folders of uploads removed from paths, so that an error names
    ``archive.zip: runs/a.csv`` as the user uploaded it."""
    root = Path(root) if root is not None else upload_root()
    return re.sub(re.escape(str(root)) + r"/session-[^/\s]+/up-[0-9a-f]{16}/", "", text)


@contextlib.contextmanager
def as_user_sees():
    """Re-raise a user-input error of an upload with the storage folders out of its message."""
    try:
        yield
    except UnanimityError as exc:
        raise UnanimityError(user_text(str(exc))) from None


@st.cache_resource(show_spinner=False, scope="session", on_release=UploadSpace.close)
def _session_space() -> UploadSpace:
    return UploadSpace(upload_root())


def session_space() -> UploadSpace:
    """This browser session's upload space: created on first use, deleted when the session ends.

    Each call also deletes session folders left behind longer than the age limit.
    """
    space = _session_space()
    sweep(space.root, space.limits.max_age_s)
    return space
