"""The loader boundary: every byte a campaign load reads comes through here.

A campaign is read from a *root* - a folder on disk or a zip archive - and every file it names
(gold, runs, ``campaign.toml``, the test-bed file) is a :class:`Node` under that root. A node:

* stays inside its root: a name with ``..``, an absolute name, or a symbolic link that leads
  out of the folder is refused;
* is a regular file (or a folder): a FIFO, a device or a socket is refused before it is opened,
  so nothing hangs and ``/dev/zero`` is never read;
* is read within a :class:`Budget`: the bytes that come out of decompression (gzip, zip) are
  counted per file and per campaign, and so is their ratio to the bytes at rest, so a bomb is
  refused after a few megabytes instead of filling the memory;
* is named as the user knows it: ``runs/best.tsv`` in a folder, ``archive.zip: runs/best.tsv``
  in a zip (``str(node)``), which is what every error and note prints.

Zip members (:mod:`metrics.io.archive`) are read lazily, one at a time, straight from the
archive: nothing is extracted.

Readers call :func:`as_node` on what they are given (a :class:`Node`, or a path for a loose file)
and :meth:`Node.read_bytes` (or :func:`metrics.io.text.read_text`). The budget, its defaults and
how to change them are described in ``docs/input-safety.md``.
"""

from __future__ import annotations

import gzip
import io
import os
import stat
import zlib
from dataclasses import dataclass, field, replace
from pathlib import Path, PurePosixPath
from typing import Any

from metrics.errors import CampaignFormatError, UnanimityError

__all__ = ["Budget", "Meter", "Node", "FsNode", "as_node", "env_positive", "file_kind", "node_kind",
           "MIB"]

MIB = 1 << 20
_CHUNK = MIB
_ENV = {  # environment variable -> Budget field, in MiB (ratio: a plain number)
    "UNANIMITY_MAX_FILE_MB": "file_bytes",
    "UNANIMITY_MAX_CAMPAIGN_MB": "campaign_bytes",
    "UNANIMITY_MAX_RATIO": "ratio",
}


def env_positive(var: str) -> float | None:
    """The positive number an environment variable sets, None when unset or blank.

    Raises
    ------
    UnanimityError
        When it is set to something else than a positive number.
    """

    raw = os.environ.get(var, "").strip()
    if not raw:
        return None
    try:
        value = float(raw)
    except ValueError:
        raise UnanimityError(f"{var}={raw!r} is not a number") from None
    if not value > 0:
        raise UnanimityError(f"{var}={raw!r} must be positive")
    return value


@dataclass(frozen=True)
class Budget:
    """How much a campaign load may read (``docs/input-safety.md#the-budget``).

    Attributes
    ----------
    file_bytes : int
        Bytes one file may yield after decompression (default 1 GiB).
    campaign_bytes : int
        Bytes all the files of one load may yield together (default 4 GiB).
    ratio : float
        Largest decompressed/stored ratio (default 100; real campaign files are near 5).
    ratio_after : int
        The ratio is checked once this many bytes came out (default 16 MiB), so small, very
        repetitive files pass.
    members : int
        Entries a zip archive may list (default 100 000).
    nesting : int
        Zips inside zips (default 3 levels).
    """

    file_bytes: int = 1024 * MIB
    campaign_bytes: int = 4096 * MIB
    ratio: float = 100.0
    ratio_after: int = 16 * MIB
    members: int = 100_000
    nesting: int = 3

    @classmethod
    def from_env(cls) -> Budget:
        """The defaults, overridden by ``UNANIMITY_MAX_FILE_MB``, ``..._CAMPAIGN_MB``,
        ``..._RATIO``."""
        changes: dict[str, Any] = {}
        for var, name in _ENV.items():
            value = env_positive(var)
            if value is not None:
                changes[name] = value if name == "ratio" else int(value * MIB)
        return replace(cls(), **changes)


@dataclass
class Meter:
    """Bytes read so far in one load, checked against its :class:`Budget`."""

    budget: Budget = field(default_factory=Budget.from_env)
    stored: int = 0
    out: int = 0

    def check(self, label: str, out: int, stored: int, final: bool = False) -> None:
        """Refuse the file ``label`` when it, or the campaign with it, is over budget.

        ``out`` bytes have come out of ``stored`` bytes at rest so far; ``final`` adds them to
        the campaign's totals.
        """
        b = self.budget
        if out > b.file_bytes:
            raise CampaignFormatError(label, f"file is larger than {_size(b.file_bytes)} once "
                                      "decompressed (see docs/input-safety.md to raise the limit)")
        total, total_stored = self.out + out, self.stored + stored
        if total > b.campaign_bytes:
            raise CampaignFormatError(label, f"the campaign is larger than "
                                      f"{_size(b.campaign_bytes)} once decompressed "
                                      "(see docs/input-safety.md to raise the limit)")
        for o, s, what in ((out, stored, "file"), (total, total_stored, "campaign")):
            if o > b.ratio_after and o > b.ratio * max(s, 1):
                raise CampaignFormatError(
                    label, f"{what} decompresses more than {b.ratio:g} times its size "
                    f"({_size(s)} gave over {_size(o)}): refused as a decompression bomb "
                    "(see docs/input-safety.md)")
        if final:
            self.out, self.stored = total, total_stored


def _size(n: float) -> str:
    return f"{n / MIB:.0f} MiB" if n >= MIB else f"{int(n)} bytes"


def _read_stream(fh, label: str, meter: Meter, stored: int, head: int | None = None) -> bytes:
    """Read a binary stream in chunks, gunzipping it when it starts with the gzip magic."""
    first = fh.read(2)
    src: gzip.GzipFile | _Prefixed
    if first == b"\x1f\x8b":
        src = gzip.GzipFile(fileobj=_Prefixed(first, fh))
    else:
        src = _Prefixed(first, fh)
    parts, out = [], 0
    try:
        while True:
            want = _CHUNK if head is None else min(_CHUNK, head - out)
            if want <= 0:
                break
            chunk = src.read(want)
            if not chunk:
                break
            parts.append(chunk)
            out += len(chunk)
            if head is None:
                meter.check(label, out, stored)
    except (EOFError, gzip.BadGzipFile, zlib.error) as exc:
        if head is not None and parts:
            return b"".join(parts)  # the head of a damaged file: the full read says what is wrong
        raise CampaignFormatError(
            label, f"gzip file is truncated or corrupt ({exc}); re-download or re-compress it"
        ) from None
    if head is None:
        meter.check(label, out, stored, final=True)
    return b"".join(parts)


class _Prefixed(io.RawIOBase):
    """A stream with its first bytes (already read to sniff the format) put back in front."""

    def __init__(self, prefix: bytes, fh) -> None:
        self._prefix, self._fh = prefix, fh

    def readable(self) -> bool:
        return True

    def readinto(self, buf) -> int:
        if self._prefix:
            n = min(len(buf), len(self._prefix))
            buf[:n] = self._prefix[:n]
            self._prefix = self._prefix[n:]
            return n
        data = self._fh.read(len(buf))
        buf[: len(data)] = data
        return len(data)


class Node:
    """A file or folder of a campaign, under its root. ``str(node)`` is its name for the user."""

    name: str
    label: str
    meter: Meter

    def __str__(self) -> str:
        return self.label

    def __repr__(self) -> str:
        return f"{type(self).__name__}({self.label!r})"

    def is_dir(self) -> bool:
        raise NotImplementedError

    def is_file(self) -> bool:
        return not self.is_dir()

    def iterdir(self) -> list[Node]:
        """Children, sorted by name (a file has none)."""
        raise NotImplementedError

    def child(self, rel: str) -> Node | None:
        """The node at the relative path ``rel`` below this one, or None when there is none.

        Raises
        ------
        CampaignFormatError
            When ``rel`` is absolute or leaves the root (``..``).
        """
        parts = _relative_parts(self, rel)
        node: Node = self
        for part in parts:
            found = next((c for c in node.iterdir() if c.name == part), None)
            if found is None:
                return None
            node = found
        return node

    def read_bytes(self) -> bytes:
        """The whole file, gunzipped when it starts with the gzip magic, within the budget."""
        raise NotImplementedError

    def head(self, size: int = 65536) -> bytes:
        """The first ``size`` decompressed bytes (not counted in the budget)."""
        raise NotImplementedError


def _relative_parts(node: Node, rel: object) -> list[str]:
    if not isinstance(rel, str) or not rel.strip():
        raise CampaignFormatError(node, f"path {rel!r} is not a file name")
    pure = PurePosixPath(rel.replace("\\", "/"))
    if pure.is_absolute() or ":" in pure.parts[0] or ".." in pure.parts:
        raise CampaignFormatError(
            node, f"path {rel!r} leaves the campaign: give a path relative to it, without '..'")
    return [p for p in pure.parts if p not in ("", ".")]


class FsNode(Node):
    """A file or folder on disk, confined to ``root`` (symbolic links included)."""

    def __init__(self, path: Path, root: Path, meter: Meter) -> None:
        self.path, self.root, self.meter = Path(path), Path(root), meter
        self.name, self.label = self.path.name, str(self.path)

    def _stat(self) -> os.stat_result:
        try:
            real = self.path.resolve()
            st = os.stat(real)
        except (OSError, RuntimeError) as exc:
            why = getattr(exc, "strerror", None) or exc
            raise CampaignFormatError(self, f"cannot read file ({why})") from None
        root = self.root.resolve()
        if real != root and not real.is_relative_to(root):
            raise CampaignFormatError(self, "is a link to a file outside the campaign folder")
        return st

    def is_dir(self) -> bool:
        return stat.S_ISDIR(self._stat().st_mode)

    def is_file(self) -> bool:
        return stat.S_ISREG(self._stat().st_mode)

    def iterdir(self) -> list[Node]:
        if not self.is_dir():
            return []
        try:
            names = sorted(self.path.iterdir())
        except OSError as exc:
            raise CampaignFormatError(self, f"cannot list folder ({exc.strerror or exc})") from None
        return [FsNode(p, self.root, self.meter) for p in names]

    def _open(self):
        st = self._stat()
        if not stat.S_ISREG(st.st_mode):
            kind = file_kind(st.st_mode)
            raise CampaignFormatError(self, f"cannot read: {kind}" + (
                "" if stat.S_ISDIR(st.st_mode) else ", not a regular file"))
        try:
            return open(self.path, "rb"), st.st_size
        except OSError as exc:
            raise CampaignFormatError(self, f"cannot read file ({exc.strerror or exc})") from None

    def read_bytes(self) -> bytes:
        fh, size = self._open()
        with fh:
            return _read_stream(fh, self.label, self.meter, size)

    def head(self, size: int = 65536) -> bytes:
        fh, stored = self._open()
        with fh:
            return _read_stream(fh, self.label, self.meter, stored, head=size)


def as_node(path: object, meter: Meter | None = None) -> Node:
    """A node for what a reader was given: a node as is; a path confined to its own folder."""
    if isinstance(path, Node):
        return path
    p = Path(path)  # type: ignore[arg-type]
    return FsNode(p, p if p.is_dir() else p.parent, meter or Meter())


def file_kind(mode: int) -> str:
    """What a file that is not a regular file is, in words (``a folder``, ``a FIFO ...``), from
    its ``st_mode``."""
    for test, words in ((stat.S_ISDIR, "a folder"), (stat.S_ISFIFO, "a FIFO (named pipe)"),
                        (stat.S_ISSOCK, "a socket"), (stat.S_ISCHR, "a character device"),
                        (stat.S_ISBLK, "a block device"), (stat.S_ISLNK, "a symbolic link")):
        if test(mode):
            return words
    return "not a regular file"


def node_kind(node: Node) -> str:
    """What a node is, in words: ``a regular file``, ``a folder``, ``a FIFO (named pipe)``..."""
    if isinstance(node, FsNode):
        mode = node._stat().st_mode
        return "a regular file" if stat.S_ISREG(mode) else file_kind(mode)
    return "a folder" if node.is_dir() else "a regular file"
