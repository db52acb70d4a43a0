"""The files of a bundle folder, read as regular files inside it and nowhere else
(``docs/rankings.md`` "Bundles", ``docs/output-safety.md``).

:func:`read_member` opens ``root/name`` with ``O_NOFOLLOW`` (a symbolic link is refused, even one
whose target has the expected SHA-256) and ``O_NONBLOCK`` (a FIFO never blocks the reader), then
checks with ``fstat`` on the open descriptor that it is a regular file within the loader's
budget; the bytes are read once, and the same bytes are fingerprinted and parsed.
"""

from __future__ import annotations

import errno
import os
import stat
from pathlib import Path

from metrics.errors import UnanimityError
from metrics.io.source import Budget, Meter, Node, file_kind

__all__ = ["read_member", "MemberNode"]

_FLAGS = (os.O_RDONLY | getattr(os, "O_NOFOLLOW", 0) | getattr(os, "O_NONBLOCK", 0)
          | getattr(os, "O_CLOEXEC", 0) | getattr(os, "O_BINARY", 0))


def read_member(root: str | Path, name: str, label: str, budget: Budget | None = None) -> bytes:
    """The bytes of the bundle file ``name`` (a plain name) in the folder ``root``.

    Raises
    ------
    UnanimityError
        Missing, a symbolic link, not a regular file, a name too long for the file system,
        larger than the budget's file size, or unreadable.
    """
    budget = budget or Budget.from_env()
    try:
        fd = os.open(Path(root) / name, _FLAGS)
    except OSError as exc:
        if exc.errno == errno.ELOOP:
            raise UnanimityError(f"{label}: is a symbolic link; a bundle's files are read from "
                                 "inside its folder only, never through a link") from None
        if exc.errno == errno.ENOENT:
            raise UnanimityError(f"{label}: listed in the manifest but missing") from None
        if exc.errno == errno.ENAMETOOLONG:
            raise UnanimityError(f"{label}: name longer than the file system allows") from None
        raise UnanimityError(f"{label}: cannot read ({exc.strerror or exc})") from None
    try:
        st = os.fstat(fd)
        if not stat.S_ISREG(st.st_mode):
            raise UnanimityError(f"{label}: is {file_kind(st.st_mode)}, not a regular file")
        if st.st_size > budget.file_bytes:
            raise UnanimityError(f"{label}: {st.st_size} bytes, larger than the "
                                 f"{budget.file_bytes // (1 << 20)} MiB a file may hold "
                                 "(docs/input-safety.md)")
        os.set_blocking(fd, True)
        with os.fdopen(fd, "rb", closefd=True) as fh:
            fd = -1
            data = fh.read(budget.file_bytes + 1)
    except OSError as exc:
        raise UnanimityError(f"{label}: cannot read ({exc.strerror or exc})") from None
    finally:
        if fd >= 0:
            os.close(fd)
    if len(data) > budget.file_bytes:
        raise UnanimityError(f"{label}: grew past {budget.file_bytes} bytes while read")
    return data


class MemberNode(Node):
    """Bytes already read from a bundle, as a :class:`~metrics.io.source.Node`, so that the
    loader's Parquet reader checks the decoded size of a bundle's Parquet file as it does a
    campaign's."""

    def __init__(self, data: bytes, label: str, meter: Meter | None = None) -> None:
        self.data, self.name, self.label = data, label.rsplit("/", 1)[-1], label
        self.meter = meter or Meter()

    def is_dir(self) -> bool:
        return False

    def iterdir(self) -> list[Node]:
        return []

    def read_bytes(self) -> bytes:
        return self.data

    def head(self, size: int = 65536) -> bytes:
        return self.data[:size]
