"""Streamlit's own scripts and styles, sent gzipped from memory.

Streamlit's server sends its frontend's files (``/static/js/*.js``, ``/static/css/*.css``; 23
MB, the chart module alone 4.7 MB) uncompressed, read from disk 64 KB at a time, each piece a
hop between the server's threads. On a cold open the browser asks for about 130 of them while
the same Python process starts the page's script run, so they come slowly: the chart module
took 0.7 s on the quiet 2-core machine and 0.6-1.9 s beside other work. These files never
change while the server runs (their names carry a hash of their content), so
:class:`StaticGzip` compresses each once, in a thread started with the server, and answers a
request for it that accepts gzip with the compressed bytes (1.4 MB for the chart module) in one
piece (a ``HEAD`` request the same headers without the body). Everything else, a file not
compressed yet, a ranged request and a browser that does not accept gzip, goes to Streamlit as
before. The answer carries the type, the length, Streamlit's one year of ``immutable`` caching,
the encoding and ``Vary: Accept-Encoding``; not Streamlit's ``ETag`` and ``Last-Modified``
(a browser that may keep the file a year does not ask again). docs/dashboard-in-use.md,
"Cold open", has the measurements.
"""

from __future__ import annotations

import gzip
import os
import threading
from collections.abc import Awaitable, Callable, MutableMapping
from pathlib import Path
from typing import Any

from streamlit.web.server.starlette.starlette_server_config import (
    STATIC_ASSET_CACHE_MAX_AGE_SECONDS,
)

__all__ = ["StaticGzip", "static_dir", "compressed_files", "accepts_gzip", "PREFIX", "LEVEL",
           "MAX_AGE"]

Scope = MutableMapping[str, Any]
Message = MutableMapping[str, Any]
Receive = Callable[[], Awaitable[Message]]
Send = Callable[[Message], Awaitable[None]]
ASGIApp = Callable[[Scope, Receive, Send], Awaitable[None]]

#: the path under which Streamlit serves its frontend's files
PREFIX = "/static/"
#: gzip level: 6 (zlib's default) makes the chart module 1.42 MB in 0.16 s of CPU; 9 saves
#: 3 KB more for 0.2 s, 1 leaves 1.66 MB
LEVEL = 6
#: seconds a browser may keep one of these files: Streamlit's own value for them (their names
#: change with their content)
MAX_AGE = STATIC_ASSET_CACHE_MAX_AGE_SECONDS
_TYPES = {".js": b"text/javascript; charset=utf-8", ".css": b"text/css; charset=utf-8"}


def static_dir() -> Path:
    """The folder Streamlit serves under ``/static/``: its installed frontend."""
    import streamlit  # noqa: PLC0415 - deferred: only the server needs it

    return Path(streamlit.__file__).resolve().parent / "static"


def compressed_files(root: Path) -> list[Path]:
    """The files served under :data:`PREFIX` from ``root`` worth compressing, in the order a
    cold open asks for them: the scripts and styles ``index.html`` names, then the largest
    first (the chart module)."""
    files = [p for p in (root / PREFIX.strip("/")).rglob("*")
             if p.suffix in _TYPES and p.is_file()]
    try:
        index = (root / "index.html").read_text(encoding="utf-8", errors="replace")
    except OSError:
        index = ""
    return sorted(files, key=lambda p: (p.name not in index, -p.stat().st_size, p.name))


class StaticGzip:
    """ASGI middleware: answers ``GET /static/<path>`` (the file ``root/static/<path>``; and
    ``HEAD``, without the body) with
    the gzipped file from memory when the browser accepts gzip and the file has been compressed
    (:func:`compressed_files`, in a thread started with the middleware); passes every other
    request to ``app``.

    Parameters
    ----------
    app : the ASGI application it wraps (Streamlit's).
    root : the folder served under :data:`PREFIX` (default :func:`static_dir`).
    """

    def __init__(self, app: ASGIApp, root: Path | None = None) -> None:
        self.app = app
        self.root = static_dir() if root is None else root
        #: ``/static/<relative path>`` -> gzipped content, filled by :meth:`fill`
        self.gzipped: dict[str, bytes] = {}
        self.filled = threading.Event()
        threading.Thread(target=self.fill, name="unanimity-static-gzip", daemon=True).start()

    def fill(self) -> None:
        """Compress every file of :func:`compressed_files` (zlib works outside the
        interpreter's lock, so the server goes on serving meanwhile)."""
        try:
            for path in compressed_files(self.root):
                key = "/" + path.relative_to(self.root).as_posix()
                try:
                    self.gzipped[key] = gzip.compress(path.read_bytes(), LEVEL, mtime=0)
                except OSError:  # unreadable: Streamlit serves it (and says what is wrong)
                    continue
        finally:
            self.filled.set()

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        body = self._gzipped(scope)
        if body is None:
            await self.app(scope, receive, send)
            return
        headers = [
            (b"content-type", _TYPES[os.path.splitext(scope["path"])[1]]),
            (b"content-encoding", b"gzip"),
            (b"content-length", str(len(body)).encode()),
            (b"cache-control", f"public, immutable, max-age={MAX_AGE}".encode()),
            (b"vary", b"Accept-Encoding"),
        ]
        await send({"type": "http.response.start", "status": 200, "headers": headers})
        await send({"type": "http.response.body",
                    "body": b"" if scope["method"] == "HEAD" else body})

    def _gzipped(self, scope: Scope) -> bytes | None:
        """The compressed body that answers this request, or None to let Streamlit answer."""
        if scope["type"] != "http" or scope.get("method") not in ("GET", "HEAD"):
            return None
        path = scope.get("path", "")
        if not path.startswith(PREFIX):
            return None
        headers = dict(scope.get("headers") or ())
        if b"range" in headers:
            return None
        if not accepts_gzip(headers.get(b"accept-encoding", b"")):
            return None
        return self.gzipped.get(path)


def accepts_gzip(header: bytes) -> bool:
    """Whether an ``Accept-Encoding`` header names gzip with a weight above 0 (RFC 9110
    §12.5.3: ``gzip;q=0`` refuses it)."""
    for part in header.lower().split(b","):
        coding, *params = (p.strip() for p in part.split(b";"))
        if coding != b"gzip":
            continue
        for param in params:
            name, _, value = param.partition(b"=")
            if name.strip() == b"q":
                try:
                    return float(value) > 0
                except ValueError:
                    return False
        return True
    return False
