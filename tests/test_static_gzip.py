"""The gzipped static files of the dashboard's server (dashboard/static_gzip.py) and the bytecode
its command writes (metrics/commands/dashboard.py): what is answered from memory, what is left to
Streamlit, byte for byte."""

from __future__ import annotations

import asyncio
import gzip
import os
import subprocess
import sys
from pathlib import Path

import pytest
from streamlit.web.server.starlette import starlette_server

from dashboard import serve
from dashboard.static_gzip import StaticGzip, accepts_gzip, compressed_files, static_dir
from metrics.commands.dashboard import write_bytecode

ROOT = Path(__file__).resolve().parents[1]


@pytest.fixture
def static(tmp_path):
    root = tmp_path / "static"
    (root / "static" / "js").mkdir(parents=True)
    (root / "static" / "css").mkdir()
    (root / "static" / "media").mkdir()
    (root / "index.html").write_text('<script src="./static/js/index.abc.js"></script>')
    (root / "static" / "js" / "index.abc.js").write_text("console.log('entry');\n" * 50)
    (root / "static" / "js" / "Chart.big.js").write_text("var x = 1;\n" * 5000)
    (root / "static" / "css" / "index.c.css").write_text("body {margin: 0}\n" * 40)
    (root / "static" / "media" / "font.woff2").write_bytes(bytes(range(256)) * 4)
    return root


class _Streamlit:
    """The application behind the middleware: records what reaches it."""

    def __init__(self):
        self.paths: list[str] = []

    async def __call__(self, scope, receive, send):
        self.paths.append(scope["path"])
        await send({"type": "http.response.start", "status": 200, "headers": []})
        await send({"type": "http.response.body", "body": b"from streamlit"})


def _ask(app, path, method="GET", headers=()):
    sent = []

    async def receive():
        return {"type": "http.request", "body": b""}

    async def send(message):
        sent.append(message)

    scope = {"type": "http", "method": method, "path": path, "headers": list(headers)}
    asyncio.run(app(scope, receive, send))
    start, body = sent[0], b"".join(m.get("body", b"") for m in sent[1:])
    return start["status"], dict(start["headers"]), body


def _middleware(root):
    inner = _Streamlit()
    app = StaticGzip(inner, root)
    assert app.filled.wait(30)
    return app, inner


def test_a_script_is_answered_gzipped_byte_for_byte(static):
    app, inner = _middleware(static)
    for rel, ctype in (("static/js/Chart.big.js", b"text/javascript; charset=utf-8"),
                       ("static/css/index.c.css", b"text/css; charset=utf-8")):
        status, headers, body = _ask(app, "/" + rel,
                                     headers=[(b"accept-encoding", b"deflate, gzip;q=0.9, br")])
        assert status == 200 and headers[b"content-encoding"] == b"gzip"
        assert headers[b"content-type"] == ctype
        assert headers[b"content-length"] == str(len(body)).encode()
        assert b"immutable" in headers[b"cache-control"]
        assert headers[b"vary"] == b"Accept-Encoding"
        assert gzip.decompress(body) == (static / rel).read_bytes()
    big = (static / "static/js/Chart.big.js").stat().st_size
    assert len(app.gzipped["/static/js/Chart.big.js"]) < big / 10
    assert inner.paths == []


@pytest.mark.parametrize("method, path, headers", [
    ("GET", "/static/js/Chart.big.js", []),                                  # no gzip accepted
    ("GET", "/static/js/Chart.big.js", [(b"accept-encoding", b"br, gzipx")]),
    ("GET", "/static/js/Chart.big.js", [(b"accept-encoding", b"br, gzip;q=0")]),
    ("GET", "/static/js/Chart.big.js", [(b"accept-encoding", b"identity")]),
    ("POST", "/static/js/Chart.big.js", [(b"accept-encoding", b"gzip")]),
    ("GET", "/static/js/Chart.big.js", [(b"accept-encoding", b"gzip"), (b"range", b"bytes=0-9")]),
    ("GET", "/static/media/font.woff2", [(b"accept-encoding", b"gzip")]),    # not compressed
    ("GET", "/static/js/missing.js", [(b"accept-encoding", b"gzip")]),
    ("GET", "/static/js/../../index.html", [(b"accept-encoding", b"gzip")]),
    ("GET", "/_stcore/health", [(b"accept-encoding", b"gzip")]),
    ("GET", "/", [(b"accept-encoding", b"gzip")]),
])
def test_everything_else_goes_to_streamlit(static, method, path, headers):
    app, inner = _middleware(static)
    status, sent_headers, body = _ask(app, path, method, headers)
    assert body == b"from streamlit" and b"content-encoding" not in sent_headers
    assert inner.paths == [path]


def test_head_has_the_headers_of_get_without_the_body(static):
    app, inner = _middleware(static)
    accept = [(b"accept-encoding", b"gzip")]
    _, got, body = _ask(app, "/static/js/Chart.big.js", headers=accept)
    _, head, empty = _ask(app, "/static/js/Chart.big.js", "HEAD", accept)
    assert head == got and empty == b"" and len(body) > 0 and inner.paths == []


def test_a_file_not_compressed_yet_goes_to_streamlit(static):
    inner = _Streamlit()
    app = StaticGzip(inner, static)
    assert app.filled.wait(30)
    app.gzipped.clear()  # as before the thread reaches it
    assert _ask(app, "/static/js/Chart.big.js", headers=[(b"accept-encoding", b"gzip")])[2] \
        == b"from streamlit"


def test_websockets_pass_through(static):
    app, inner = _middleware(static)
    seen = []

    async def receive():
        return {}

    async def send(message):
        seen.append(message)

    asyncio.run(app({"type": "websocket", "path": "/_stcore/stream", "headers": []},
                    receive, send))
    assert inner.paths == ["/_stcore/stream"]


@pytest.mark.parametrize("header, yes", [
    (b"gzip, deflate, br, zstd", True), (b"GZIP", True), (b"br;q=1.0, gzip;q=0.8", True),
    (b"gzip; q=0.001", True), (b"gzip;q=0", False), (b"gzip;q=0.000", False),
    (b"gzip;q=x", False), (b"x-gzip", False), (b"", False), (b"*", False)])
def test_which_browsers_accept_gzip(header, yes):
    assert accepts_gzip(header) is yes


def test_the_entry_files_are_compressed_first(static):
    names = [p.name for p in compressed_files(static)]
    assert names == ["index.abc.js", "Chart.big.js", "index.c.css"]


def test_streamlits_own_files_are_found():
    files = compressed_files(static_dir())
    assert any(p.name.startswith("PlotlyChart") for p in files)
    assert files[0].name in (static_dir() / "index.html").read_text()


def test_the_server_builds_its_app_with_the_middleware():
    """This Streamlit builds its web application where :func:`serve_static_gzipped` wraps it
    (fails when a release moves it: the dashboard would then serve the files uncompressed)."""
    original = starlette_server.create_starlette_app
    try:
        assert serve.serve_static_gzipped()
        wrapped = starlette_server.create_starlette_app
        assert wrapped is not original and wrapped.static_gzip
        assert serve.serve_static_gzipped() and starlette_server.create_starlette_app is wrapped
    finally:
        starlette_server.create_starlette_app = original


def test_bytecode_is_written_where_it_is_missing(tmp_path):
    pkg = tmp_path / "metrics"
    (pkg / "sub").mkdir(parents=True)
    (pkg / "__init__.py").write_text("X = 1\n")
    (pkg / "sub" / "__init__.py").write_text("")
    (pkg / "sub" / "mod.py").write_text("def f():\n    return 2\n")
    assert write_bytecode(tmp_path) == 3
    assert write_bytecode(tmp_path) == 0  # up to date: nothing written again
    # a process that may not write bytecode reads it back
    env = dict(os.environ, PYTHONDONTWRITEBYTECODE="1", PYTHONPATH=str(tmp_path))
    out = subprocess.run([sys.executable, "-c", "import metrics.sub.mod as m; print(m.__cached__)"],
                         env=env, capture_output=True, text=True, check=True, cwd=tmp_path)
    assert Path(out.stdout.strip()).is_file()


def test_a_folder_that_cannot_be_written_is_left_alone(tmp_path, monkeypatch):
    pkg = tmp_path / "dashboard"
    pkg.mkdir()
    (pkg / "__init__.py").write_text("X = 1\n")
    monkeypatch.setattr(os, "access", lambda path, mode: False)
    assert write_bytecode(tmp_path) == 0
    assert not (pkg / "__pycache__").exists()
