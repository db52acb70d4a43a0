"""What the page carries before the server's first run (dashboard/page_additions.py): the
spinner and the early import of Streamlit's chart module are added to the page's HTML and
nowhere else, the length stays right, the import names the installed Streamlit's chart
module."""

from __future__ import annotations

import asyncio
import gzip
import re
from pathlib import Path

import pytest

from dashboard import page_additions
from dashboard.page_additions import (
    BOOT_CLASS,
    MARK,
    SPINNER_TEXT,
    PageAdditions,
    boot_markup,
    chart_module,
    early_script,
)
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
    status, headers, body = _ask(PageAdditions(_app(pieces=pieces), static), path)
    script = early_script("PlotlyChart.abc123.js")
    style, element = boot_markup()
    assert status == 200
    assert body == PAGE.replace(b"</head>", style + script + b"</head>").replace(
        b"</body>", element + b"</body>")
    assert int(headers[b"content-length"]) == len(body)
    assert body.count(MARK.encode()) == 1
    assert body.count(f'class="{BOOT_CLASS}"'.encode()) == 1


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
    status, headers, body = _ask(PageAdditions(_app(**kind), static), path)
    if body[:2] == b"\x1f\x8b":
        body = gzip.decompress(body)  # Streamlit's files keep their compression
    assert body == kind.get("body", PAGE)
    assert status == kind.get("status", 200)
    assert MARK.encode() not in body
    assert BOOT_CLASS.encode() not in body


def test_no_chart_module_no_script_but_the_spinner(tmp_path):
    """A Streamlit without the chart module: the page still gets its spinner, and no import."""
    (tmp_path / "static" / "js").mkdir(parents=True)
    assert chart_module(tmp_path) is None
    style, element = boot_markup()
    body = _ask(PageAdditions(_app(), tmp_path), headers=())[2]
    assert body == PAGE.replace(b"</head>", style + b"</head>").replace(b"</body>",
                                                                          element + b"</body>")
    assert MARK.encode() not in body


def test_the_spinner_goes_once_the_app_shows_or_the_server_is_gone():
    """The spinner's script removes it once the app's own spinner is seen, a chart is drawn or
    the app's run has ended; its style hides it at an exception or once the page has lost its
    server for good; its animation is the style's own (the app's style comes later), and its
    text is the app's."""
    style, element = boot_markup()
    css, html = style.decode(), element.decode()
    assert html.startswith(f'<div class="{BOOT_CLASS}"')
    script = html[html.index("<script>"):]
    assert "document.currentScript.previousElementSibling" in script and "boot.remove()" in script
    for sign in (".unanimity-loading", ".js-plotly-plot .main-svg", "'notRunning'"):
        assert sign in script
    hide = css[css.index("body:has"):]
    assert '[data-testid="stException"]' in hide
    assert '[data-test-connection-state="DISCONNECTED_FOREVER"]' in hide
    assert hide.rstrip().endswith("{display: none;}\n</style>")
    assert f"@keyframes {BOOT_CLASS}-spin" in css
    assert "Computing the view\u2026" in html
    app = (Path(__file__).resolve().parents[1] / "dashboard" / "app.py").read_text()
    # one look and one text across the hand-over: the app's spinner takes them from here (the
    # app's rendered spinner is checked in tests/test_dashboard_app.py)
    assert SPINNER_TEXT == "Computing the view\u2026"
    assert "{SPINNER_TEXT}" in app and "SPINNER_BOX" in app and "SPINNER_RING" in app
    assert "unanimity-loading" in app


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
    assert page_additions.PageAdditions in added
