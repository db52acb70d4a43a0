"""The page's early import of Streamlit's chart module (dashboard/chart_early.py): the script is
added to the page's HTML and nowhere else, the length stays right, the import names the
installed Streamlit's chart module."""

from __future__ import annotations

import asyncio
import gzip
import re

import pytest

from dashboard import chart_early
from dashboard.chart_early import MARK, ChartModuleEarly, chart_module, early_script
from dashboard.static_gzip import static_dir

PAGE = b"<html><head><title>t</title></head><body><div id='root'></div></body></html>"


@pytest.fixture
def static(tmp_path):
    (tmp_path / "static" / "js").mkdir(parents=True)
    (tmp_path / "static" / "js" / "PlotlyChart.abc123.js").write_text("export default 1;")
    return tmp_path


def _app(status=200, content_type=b"text/html; charset=utf-8", body=PAGE, pieces=1,
         extra=()):
    """Streamlit's answer: ``body`` in ``pieces`` parts, with a length header; gzipped (as
    Streamlit's own gzip layer does) when the request accepts gzip."""

    async def app(scope, receive, send):
        asked = dict(scope["headers"]).get(b"accept-encoding", b"")
        data = gzip.compress(body) if b"gzip" in asked else body
        headers = [(b"content-type", content_type), (b"content-length", str(len(data)).encode()),
                   *extra, *([(b"content-encoding", b"gzip")] if data is not body else [])]
        await send({"type": "http.response.start", "status": status, "headers": headers})
        step = -(-len(data) // pieces)
        for i in range(pieces):
            await send({"type": "http.response.body", "body": data[i * step:(i + 1) * step],
                        "more_body": i < pieces - 1})

    return app


def _ask(app, path="/", method="GET", headers=((b"accept-encoding", b"gzip, deflate, br"),)):
    sent = []

    async def receive():
        return {"type": "http.request", "body": b""}

    async def send(message):
        sent.append(message)

    asyncio.run(app({"type": "http", "method": method, "path": path, "headers": list(headers)},
                    receive, send))
    start, body = sent[0], b"".join(m.get("body", b"") for m in sent[1:])
    return start["status"], dict(start["headers"]), body


@pytest.mark.parametrize("path", ["/", "/compare", "/uir"])
@pytest.mark.parametrize("pieces", [1, 3])
def test_the_page_gets_the_script_before_its_head_ends(static, path, pieces):
    """Every page's address (Streamlit answers each with its index.html), asked by a browser
    that accepts gzip: the page comes uncompressed with the script, its length right."""
    status, headers, body = _ask(ChartModuleEarly(_app(pieces=pieces), static), path)
    script = early_script("PlotlyChart.abc123.js")
    assert status == 200
    assert body == PAGE.replace(b"</head>", script + b"</head>")
    assert int(headers[b"content-length"]) == len(body)
    assert body.count(MARK.encode()) == 1


@pytest.mark.parametrize(("path", "kind"), [
    ("/static/js/index.abc.js", {}),
    ("/_stcore/health", {}),
    ("/media/x.png", {}),
    ("/", {"status": 304, "body": b""}),
    ("/", {"content_type": b"application/json"}),
    ("/", {"extra": [(b"content-encoding", b"gzip")]}),
])
def test_anything_else_passes_unchanged(static, path, kind):
    """Streamlit's files, endpoints, other statuses and types, and an answer already encoded
    go through as they came (the files compressed as the browser asked)."""
    status, headers, body = _ask(ChartModuleEarly(_app(**kind), static), path)
    if body[:2] == b"\x1f\x8b":
        body = gzip.decompress(body)  # Streamlit's files keep their compression
    assert body == kind.get("body", PAGE)
    assert status == kind.get("status", 200)
    assert MARK.encode() not in body


def test_no_chart_module_no_script(tmp_path):
    (tmp_path / "static" / "js").mkdir(parents=True)
    assert chart_module(tmp_path) is None
    assert _ask(ChartModuleEarly(_app(), tmp_path), headers=())[2] == PAGE


def test_the_script_imports_the_installed_streamlits_chart_module():
    """The file the script imports exists in the installed Streamlit, under the name its own
    page would load it by (relative, like the page's scripts), and the script waits for the
    app's running state before importing."""
    name = chart_module()
    assert name and (static_dir() / "static" / "js" / name).is_file()
    script = early_script(name).decode()
    assert re.findall(r'import\("([^"]+)"\)', script) == [f"./static/js/{name}"]
    assert "data-test-script-state" in script and "'running'" in script
    # the page Streamlit serves has the head the script goes into
    assert b"</head>" in (static_dir() / "index.html").read_bytes()


def test_the_server_wraps_streamlits_application_with_both_layers(monkeypatch):
    """:func:`dashboard.serve.serve_static_gzipped` puts the early import around the app."""
    from streamlit.web.server.starlette import starlette_server  # noqa: PLC0415

    from dashboard import serve  # noqa: PLC0415

    added = []

    class _App:
        def add_middleware(self, cls):
            added.append(cls)

    monkeypatch.setattr(starlette_server, "create_starlette_app", lambda runtime: _App())
    assert serve.serve_static_gzipped()
    starlette_server.create_starlette_app(None)
    assert chart_early.ChartModuleEarly in added
