"""Streamlit's chart module evaluated while the server runs the first page.

Streamlit loads its chart module (plotly.js, 4.7 MB of JavaScript) only when the first chart's
data reaches the browser, and the browser then evaluates it in one task of 0.5-1 s on the
2-core machine before it can draw the chart: on a cold open that task comes after the server's
first run, on the critical path. :class:`ChartModuleEarly` adds a small script to the page that
Streamlit serves (its ``index.html``, the answer to every page's address): once the app reports
that its script is running (the attribute ``data-test-script-state`` of its root element turns
``running``, which happens when the server starts the first run), the script imports the chart
module, so that the browser fetches and evaluates it while it waits for the server. The import
names the same file as Streamlit's own (the installed Streamlit's ``PlotlyChart.<hash>.js``,
relative like the page's scripts), so the browser keeps one instance of the module and
Streamlit's later import finds it evaluated. Nothing a user sent reaches the page: the file name
is the installed Streamlit's. docs/dashboard-in-use.md, "Cold open", has the measurements (and
why not earlier: evaluated before the app has connected, the module delays Streamlit's own
scripts).
"""

from __future__ import annotations

from pathlib import Path

from dashboard.static_gzip import PREFIX, ASGIApp, Message, Receive, Scope, Send, static_dir

__all__ = ["ChartModuleEarly", "chart_module", "early_script", "MARK"]

#: the attribute that marks the added script (the browser test looks for it)
MARK = "data-unanimity-chart-early"
#: paths whose answers are never the page: Streamlit's files, its endpoints, media, components
_NOT_PAGES = (PREFIX, "/_stcore", "/media", "/component", "/app/static")


def chart_module(root: Path | None = None) -> str | None:
    """The file name of the installed Streamlit's chart module (``PlotlyChart.<hash>.js``
    under ``root/static/js``, default :func:`dashboard.static_gzip.static_dir`), or None."""
    folder = (static_dir() if root is None else root) / "static" / "js"
    names = sorted(p.name for p in folder.glob("PlotlyChart.*.js"))
    return names[0] if names else None


def early_script(name: str) -> bytes:
    """The script added before ``</head>``: import ``./static/js/<name>`` once the app's script
    state turns ``running`` (watched with a MutationObserver, which it then disconnects)."""
    return f"""<script type="module" {MARK}>
const app = () => document.querySelector('[data-testid="stApp"]');
const watch = new MutationObserver(() => {{
  const a = app();
  if (a && a.getAttribute('data-test-script-state') === 'running') {{
    watch.disconnect();
    setTimeout(() => import("./static/js/{name}"), 0);
  }}
}});
watch.observe(document, {{subtree: true, childList: true, attributes: true,
                          attributeFilter: ['data-test-script-state']}});
</script>
""".encode()


class ChartModuleEarly:
    """ASGI middleware: adds :func:`early_script` before ``</head>`` of every successful HTML
    answer to a page's address (not Streamlit's files or endpoints), with the length corrected,
    asking Streamlit for those answers uncompressed; passes everything else through unchanged,
    and everything when the installed Streamlit has no chart module.

    Parameters
    ----------
    app : the ASGI application it wraps (Streamlit's).
    root : Streamlit's static folder (default :func:`dashboard.static_gzip.static_dir`).
    """

    def __init__(self, app: ASGIApp, root: Path | None = None) -> None:
        self.app = app
        name = chart_module(root)
        self.script = early_script(name) if name else None

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if (self.script is None or scope["type"] != "http" or scope.get("method") != "GET"
                or scope.get("path", "").startswith(_NOT_PAGES)):
            await self.app(scope, receive, send)
            return
        # the page uncompressed (Streamlit's own gzip layer would compress it, about 8 KB, and
        # the script could not be added): the request's Accept-Encoding is not passed on
        plain = dict(scope, headers=[(k, v) for k, v in scope.get("headers") or ()
                                     if k.lower() != b"accept-encoding"])
        await self.app(plain, receive, _Inject(send, self.script))


class _Inject:
    """The ``send`` of one answer: an HTML page (status 200) is held until its last piece, then
    sent with the script added; any other answer goes through as it comes."""

    def __init__(self, send: Send, script: bytes) -> None:
        self.send = send
        self.script = script
        self.start: Message | None = None
        self.body = bytearray()

    async def __call__(self, message: Message) -> None:
        if message["type"] == "http.response.start":
            headers = {k.lower(): v for k, v in message.get("headers") or ()}
            if (message.get("status") == 200
                    and headers.get(b"content-type", b"").startswith(b"text/html")
                    and b"content-encoding" not in headers):
                self.start = message
                return
        elif message["type"] == "http.response.body" and self.start is not None:
            self.body += message.get("body", b"")
            if message.get("more_body"):
                return
            body = bytes(self.body)
            if b"</head>" in body:
                body = body.replace(b"</head>", self.script + b"</head>", 1)
            start, self.start = self.start, None
            start["headers"] = [(k, v) for k, v in start.get("headers") or ()
                                if k.lower() not in (b"content-length", b"etag")]
            start["headers"].append((b"content-length", str(len(body)).encode()))
            await self.send(start)
            await self.send({"type": "http.response.body", "body": body})
            return
        await self.send(message)
