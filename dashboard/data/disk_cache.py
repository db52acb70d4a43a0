"""A score table that takes long to compute, kept on disk between runs of the dashboard.

The Type level page of a token tagging campaign reads a table whose type-level measures under
the many-to-one mapping solve one integer program per run and topic (docs/type-level.md): about
half a minute of CPU for the bundled UD English EWT campaign; a ranking campaign's IR measures
take a second or more (``ir_measures`` on every run). Such a table is computed by
:func:`metrics.measures.scoring.evaluate`, as always, then stored as Parquet in the user's cache
folder, and the next server that asks for the same table reads it instead.

The file's name is a fingerprint of everything the table depends on:

* the campaign's files: the name and content of every file under the campaign folder (so an
  edited gold or run, an added run or a changed ``campaign.toml`` makes a new fingerprint);
* the metric names and the missing-item policy;
* the code's version: the content of every source file of the ``metrics`` package and the
  versions of numpy, scipy and pandas (any change to the code that computes the numbers makes a
  new fingerprint).

Only campaigns read from a folder are kept (a loose upload's runs are not under its gold's
path, so its files cannot be fingerprinted from the campaign). The folder is
``$UNANIMITY_CACHE_DIR``, else ``$XDG_CACHE_HOME/unanimity``, else ``~/.cache/unanimity``;
``UNANIMITY_CACHE_DIR=off`` turns the cache off. A file that cannot be read or has other
columns is ignored and the table computed again; a folder that cannot be written only costs
the time. Nothing is pickled: a cached table is Parquet, read back into the four columns of a
score table.

The folder does not grow without end: each write keeps the :data:`KEEP_FILES` tables used most
recently (reading a table counts as a use) and removes tables unused for :data:`KEEP_DAYS` days
and temporary files a stopped writer left behind.
"""

from __future__ import annotations

import hashlib
import os
import tempfile
import time
from collections.abc import Callable, Sequence
from functools import lru_cache
from pathlib import Path

import pandas as pd

from metrics.model.score_table import SCORE_COLUMNS

__all__ = ["cache_dir", "code_version", "campaign_files", "fingerprint", "stored", "scores",
           "prune", "KEEP_FILES", "KEEP_DAYS"]

_METRICS = Path(__file__).resolve().parents[2] / "metrics"
#: tables kept in the folder: the most recently used ones
KEEP_FILES = 32
#: a table unused for this many days is removed at the next write
KEEP_DAYS = 30


def cache_dir() -> Path | None:
    """The folder of the cached tables, or None when ``UNANIMITY_CACHE_DIR=off``."""
    env = os.environ.get("UNANIMITY_CACHE_DIR")
    if env:
        return None if env.lower() == "off" else Path(env).expanduser()
    xdg = os.environ.get("XDG_CACHE_HOME")
    return (Path(xdg).expanduser() if xdg else Path.home() / ".cache") / "unanimity"


@lru_cache(maxsize=1)
def code_version() -> str:
    """Digest of the code behind every number: the ``metrics`` package's version and source
    files (path and content) and the versions of numpy, scipy and pandas."""
    import numpy  # noqa: PLC0415 - deferred: only its version
    import scipy  # noqa: PLC0415 - deferred: only its version

    import metrics  # noqa: PLC0415 - deferred: only its version

    h = hashlib.blake2b(digest_size=16)
    h.update(f"metrics {metrics.__version__} numpy {numpy.__version__} "
             f"scipy {scipy.__version__} pandas {pd.__version__}\n".encode())
    for p in sorted(_METRICS.rglob("*.py")):
        h.update(p.relative_to(_METRICS).as_posix().encode() + b"\0")
        h.update(p.read_bytes() + b"\0")
    return h.hexdigest()


def campaign_files(campaign) -> Path | None:
    """The folder the campaign was read from, or None (not a folder: no cache)."""
    src = getattr(campaign, "source", None)
    if not src:
        return None
    path = Path(src).expanduser().resolve()
    return path if path.is_dir() else None


def fingerprint(folder: Path, names: Sequence[str], missing: str) -> str:
    """The cache key of the table of ``names`` under ``missing`` for the campaign in ``folder``
    (its files' names and content, and :func:`code_version`)."""
    h = hashlib.blake2b(digest_size=20)
    h.update(f"{code_version()}\n{missing}\n{chr(31).join(names)}\n".encode())
    for p in sorted(q for q in folder.rglob("*") if q.is_file()):
        h.update(p.relative_to(folder).as_posix().encode() + b"\0")
        with p.open("rb") as fh:
            h.update(hashlib.file_digest(fh, "blake2b").digest())
    return h.hexdigest()


def _file(campaign, names: Sequence[str], missing: str) -> Path | None:
    folder, root = campaign_files(campaign), cache_dir()
    if folder is None or root is None:
        return None
    return root / f"scores-{fingerprint(folder, names, missing)}.parquet"


def _read(path: Path) -> pd.DataFrame | None:
    try:
        frame = pd.read_parquet(path)
    except (OSError, ValueError, ImportError):
        return None
    if list(frame.columns) != list(SCORE_COLUMNS) or frame["value"].dtype != "float64":
        return None
    try:
        os.utime(path)  # a use: :func:`prune` keeps the tables used most recently
    except OSError:
        pass
    return frame


def stored(campaign, names: Sequence[str], missing: str = "penalize") -> pd.DataFrame | None:
    """The stored table of ``campaign`` on ``names``, or None when there is none."""
    path = _file(campaign, names, missing)
    return None if path is None or not path.is_file() else _read(path)


def scores(campaign, names: Sequence[str], missing: str = "penalize",
           compute: Callable[..., pd.DataFrame] | None = None) -> pd.DataFrame:
    """``evaluate(campaign, names, missing=missing)`` (or ``compute``, called the same way),
    read from the cache when it holds it, else computed and stored (written to a temporary
    file, then renamed: a reader never sees half a file)."""
    if compute is None:
        from metrics.measures.scoring import evaluate  # noqa: PLC0415 - deferred: scipy, only on a miss

        compute = evaluate
    path = _file(campaign, names, missing)
    if path is not None and path.is_file():
        frame = _read(path)
        if frame is not None:
            return frame
    frame = compute(campaign, list(names), missing=missing)
    if path is not None:
        _write(frame, path)
    return frame


def _write(frame: pd.DataFrame, path: Path) -> None:
    tmp = None
    try:
        path.parent.mkdir(parents=True, exist_ok=True)
        fd, tmp = tempfile.mkstemp(dir=path.parent, prefix=".scores-", suffix=".tmp")
        os.close(fd)
        frame.to_parquet(tmp, index=False)
        os.replace(tmp, path)
    except (OSError, ValueError, ImportError):  # a read-only or full disk: only costs time
        if tmp is not None:
            Path(tmp).unlink(missing_ok=True)
        return
    prune(path.parent, KEEP_FILES, KEEP_DAYS)


def prune(folder: Path, keep: int = KEEP_FILES, days: float = KEEP_DAYS) -> list[Path]:
    """Remove from ``folder`` the cached tables beyond the ``keep`` used most recently (by
    modification time, which :func:`_read` renews), those unused for ``days`` days, and
    temporary files older than a day (a writer stopped half-way); return what was removed. A
    file that cannot be removed is left (another server may be reading it)."""
    now = time.time()
    tables = []
    for p in folder.glob("scores-*.parquet"):
        with_time = _mtime(p)
        if with_time is not None:
            tables.append((with_time, p))
    tables.sort(reverse=True)
    doomed = [p for i, (t, p) in enumerate(tables) if i >= keep or now - t > days * 86400]
    doomed += [p for p in folder.glob(".scores-*.tmp")
               if (t := _mtime(p)) is not None and now - t > 86400]
    removed = []
    for p in doomed:
        try:
            p.unlink()
            removed.append(p)
        except OSError:
            pass
    return removed


def _mtime(path: Path) -> float | None:
    try:
        return path.stat().st_mtime
    except OSError:  # removed meanwhile by another server
        return None
