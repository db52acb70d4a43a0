"""Zip archives as campaign roots: members read in place, one at a time, within the budget.

A zip's members form a tree of :class:`ZipNode` (folders and files, from the member names, which
must be relative and free of ``..``); a member is inflated only when a reader asks for its bytes,
never extracted to disk. Encrypted members, symbolic links, unsupported compression methods and
damaged data are refused, naming ``archive.zip: member``, and so is a member listed twice
(``docs/input-safety.md``).
"""

from __future__ import annotations

import io
import lzma
import stat
import zipfile
import zlib
from pathlib import Path

from metrics.errors import CampaignFormatError
from metrics.io.source import FsNode, Meter, Node, _read_stream, _relative_parts

__all__ = ["ZipArchive", "ZipNode", "is_zip", "open_root"]


class ZipArchive:
    """An open zip archive: its member tree, read lazily; ``label`` names it for the user."""

    def __init__(self, data, label: str, meter: Meter, depth: int = 1) -> None:
        self.label, self.meter, self.depth = label, meter, depth
        if depth > meter.budget.nesting:
            raise CampaignFormatError(label, f"zips nested more than {meter.budget.nesting} deep")
        try:
            self.zf = zipfile.ZipFile(data)
        except (zipfile.BadZipFile, OSError, ValueError, EOFError, NotImplementedError):
            raise CampaignFormatError(label, "not a valid zip archive: truncated or corrupt zip "
                                      "(its table of contents cannot be read); make the zip "
                                      "again") from None
        infos = self.zf.infolist()
        if len(infos) > meter.budget.members:
            raise CampaignFormatError(label, f"zip lists {len(infos)} entries; at most "
                                      f"{meter.budget.members} are read")
        self.members: dict[tuple[str, ...], zipfile.ZipInfo | None] = {(): None}
        for info in infos:
            root = ZipNode(self, (), None)
            parts = tuple(_relative_parts(root, info.filename) if info.filename.strip("/") else [])
            if not parts:
                continue
            for i in range(1, len(parts)):
                self.members.setdefault(parts[:i], None)
            if not info.is_dir() and self.members.get(parts) is not None:
                raise CampaignFormatError(label, f"{'/'.join(parts)} is in the zip twice (which "
                                          "one is meant is ambiguous); make the zip again")
            self.members[parts] = None if info.is_dir() else info

    def root(self) -> ZipNode:
        return ZipNode(self, (), None)

    def close(self) -> None:
        self.zf.close()


class ZipNode(Node):
    """A member (or folder) of a zip archive, read straight from the archive."""

    def __init__(self, archive: ZipArchive, parts: tuple[str, ...], info) -> None:
        self.archive, self.parts, self.info, self.meter = archive, parts, info, archive.meter
        self.name = parts[-1] if parts else archive.label.rsplit("/", 1)[-1]
        self.label = f"{archive.label}: {'/'.join(parts)}" if parts else archive.label

    def is_dir(self) -> bool:
        return self.info is None

    def iterdir(self) -> list[Node]:
        if self.info is not None:
            return []
        n = len(self.parts)
        kids = sorted(p for p in self.archive.members if len(p) == n + 1 and p[:n] == self.parts)
        return [ZipNode(self.archive, p, self.archive.members[p]) for p in kids]

    def _read(self, head: int | None):
        info = self.info
        if info is None:
            raise CampaignFormatError(self, "cannot read: a folder")
        if info.flag_bits & 0x1:
            raise CampaignFormatError(self, "member is encrypted; zip it without a password")
        if stat.S_ISLNK(info.external_attr >> 16):
            raise CampaignFormatError(self, "member is a symbolic link; store the file itself")
        try:
            with self.archive.zf.open(info) as fh:
                return _read_stream(fh, self.label, self.meter, info.compress_size, head=head)
        except CampaignFormatError:
            raise
        except NotImplementedError as exc:
            raise CampaignFormatError(self, f"unsupported compression ({exc}); re-zip it with "
                                      "deflate") from None
        except (zipfile.BadZipFile, zlib.error, lzma.LZMAError, OSError, EOFError,
                RuntimeError, ValueError) as exc:
            raise CampaignFormatError(self, f"corrupt zip member ({exc})") from None

    def read_bytes(self) -> bytes:
        return self._read(None)

    def head(self, size: int = 65536) -> bytes:
        return self._read(size)

    def open_zip(self) -> ZipArchive:
        """This member, itself a zip, as an archive (read into memory, within the budget)."""
        return ZipArchive(io.BytesIO(self.read_bytes()), self.label, self.meter,
                          self.archive.depth + 1)


def is_zip(node: Node) -> bool:
    """True when a file starts with a zip signature (a truncated zip included)."""
    return node.is_file() and node.head(4)[:4] in (b"PK\x03\x04", b"PK\x05\x06")


def open_root(path: str | Path, meter: Meter | None = None) -> Node:
    """The root node of a campaign at ``path``: a folder, a single file, or a zip's top folder.

    A zip that holds only a zip is opened in turn (up to ``Budget.nesting`` levels).

    Raises
    ------
    CampaignFormatError
        When ``path`` does not exist, is not a regular file or folder, or is a damaged zip.
    """
    meter = meter or Meter()
    p = Path(path)
    if not p.exists():
        raise CampaignFormatError(p, "no such file or folder")
    node = FsNode(p, p if p.is_dir() else p.parent, meter)
    if node.is_dir():
        return node
    if not node.is_file():
        raise CampaignFormatError(p, "cannot read: not a regular file")
    if not is_zip(node):
        if p.name.lower().endswith(".zip"):
            raise CampaignFormatError(p, "not a valid zip archive: the file does not start like "
                                      "a zip (a damaged download, or another kind of file "
                                      "named .zip)")
        return node
    archive = ZipArchive(str(p), str(p), meter)
    while True:
        top = [c for c in archive.root().iterdir()
               if not c.name.startswith(("__MACOSX", "."))]
        if len(top) == 1 and isinstance(top[0], ZipNode) and top[0].is_file() and is_zip(top[0]):
            archive = top[0].open_zip()
            continue
        return archive.root()
