"""What the page Streamlit serves carries before the server's first run: a spinner, and the
chart module evaluated while the server runs the first page.

**The spinner from the first paint.** Streamlit's page (its ``index.html``, the answer to every
page's address) is empty until the app's first element arrives, and a cold open's first run
starts with seconds of imports and loading; the app's own spinner (``dashboard/app.py``) comes
with that first element. :func:`boot_markup` adds a spinner of the same look to the HTML itself,
shown from the first paint until the app's main area holds an element (the app's spinner or
page then takes over), or until the page has lost its server for good (Streamlit's own message
then). It turns on the compositor, so it keeps turning while the browser evaluates the chart
module below.

**The chart module early.** Streamlit loads its chart module (plotly.js, 4.7 MB of JavaScript)
only when the first chart's data reaches the browser, and the browser then evaluates it in one
task of 0.5-1 s on the 2-core machine before it can draw the chart: on a cold open that task
comes after the server's first run, on the critical path. :func:`early_script` imports the
chart module once the app reports that its script is running (the attribute
``data-test-script-state`` of its root element turns ``running``, which happens when the server
starts the first run), so that the browser fetches and evaluates it while it waits for the
server. The import names the same file as Streamlit's own (the installed Streamlit's
``PlotlyChart.<hash>.js``, relative like the page's scripts), so the browser keeps one instance
of the module and Streamlit's later import finds it evaluated.

Nothing a user sent reaches the page: the file name is the installed Streamlit's, the rest is
fixed text. docs/dashboard-in-use.md, "Cold open", has the measurements (and why not earlier:
evaluated before the app has connected, the module delays Streamlit's own scripts).
"""

from __future__ import annotations

from pathlib import Path

from dashboard.static_gzip import PREFIX, ASGIApp, Message, Receive, Scope, Send, static_dir

__all__ = ["BOOT_CLASS", "MARK", "SPINNER_BOX", "SPINNER_RING", "SPINNER_TEXT", "PageAdditions",
           "boot_markup", "chart_module", "early_script"]

#: the attribute that marks the added script (the browser test looks for it)
MARK = "data-unanimity-chart-early"
#: the class of the spinner in the page's HTML (the browser test looks for it)
BOOT_CLASS = "unanimity-boot"
#: One look and one text for both spinners, this one and the app's (``dashboard/app.py``), so
#: that the hand-over between them is not seen: the box over the main area beside the sidebar,
#: the ring (its turning is each style's own), the words.
SPINNER_BOX = ("position: fixed; top: 42vh; left: calc(50% + 125px); z-index: 1000;"
               " transform: translateX(-50%); align-items: center; gap: 0.7rem;"
               " padding: 0.7rem 1.1rem; border-radius: 0.6rem; background: rgba(255,255,255,0.95);"
               " box-shadow: 0 2px 10px rgba(0,0,0,0.12); color: #31333F;")
SPINNER_RING = ("width: 1.3rem; height: 1.3rem; border-radius: 50%; border: 3px solid #D6E4F0;"
                " border-top-color: #0072B2;")
SPINNER_TEXT = "Computing the view\u2026"
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


def boot_markup() -> tuple[bytes, bytes]:
    """The spinner shown from the first paint: its style (added before ``</head>``), its element
    and the script that takes it away (before ``</body>``).

    Placed and drawn as the app's spinner (``dashboard/app.py``: over the main area beside the
    sidebar, "Computing the view…"). The script checks every frame the browser draws and removes
    the element once the app's spinner (``.unanimity-loading``) is seen, a chart is drawn, or the
    app's run has ended without a spinner to show, so that the page is never blank in between:
    the app's spinner can be on the page and not yet seen (it fades in after 0.3 s on a page
    that has its title), and Streamlit's own placeholders fill the main area before the app has
    connected. Removed, it stays away: later runs have the app's spinner only. The style hides
    it at an exception or once the page has lost its server for good.
    """
    style = f"""<style>
.{BOOT_CLASS} {{{SPINNER_BOX} display: flex;
  font: 1rem "Source Sans", "Source Sans Pro", sans-serif;}}
.{BOOT_CLASS} > div {{{SPINNER_RING} animation: {BOOT_CLASS}-spin 0.8s linear infinite;}}
@keyframes {BOOT_CLASS}-spin {{to {{transform: rotate(360deg);}}}}
body:has([data-testid="stException"]) .{BOOT_CLASS},
body:has([data-test-connection-state="DISCONNECTED_FOREVER"]) .{BOOT_CLASS} {{display: none;}}
</style>
"""
    element = f"""<div class="{BOOT_CLASS}" role="status" aria-live="polite"><div></div>\
{SPINNER_TEXT}</div>
<script>
(() => {{
  const boot = document.currentScript.previousElementSibling;
  const seen = (e) => {{
    const s = getComputedStyle(e);
    return s.display !== 'none' && parseFloat(s.opacity) > 0.5;
  }};
  const check = () => {{
    const app = document.querySelector('[data-testid="stApp"]');
    const spinner = document.querySelector('.unanimity-loading');
    if (document.querySelector('.js-plotly-plot .main-svg') || (spinner && seen(spinner))
        || (spinner && app && app.getAttribute('data-test-script-state') === 'notRunning')) {{
      boot.remove();
    }} else {{
      requestAnimationFrame(check);
    }}
  }};
  requestAnimationFrame(check);
}})();
</script>
"""
    return style.encode(), element.encode()


class PageAdditions:
    """ASGI middleware: adds :func:`boot_markup` and :func:`early_script` (the latter only when
    the installed Streamlit has a chart module) to every successful HTML answer to a page's
    address (not Streamlit's files or endpoints), with the length corrected, asking Streamlit
    for those answers uncompressed; passes everything else through unchanged.

    Parameters
    ----------
    app : the ASGI application it wraps (Streamlit's).
    root : Streamlit's static folder (default :func:`dashboard.static_gzip.static_dir`).
    """

    def __init__(self, app: ASGIApp, root: Path | None = None) -> None:
        self.app = app
        name = chart_module(root)
        style, self.element = boot_markup()
        self.head = style + (early_script(name) if name else b"")

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if (scope["type"] != "http" or scope.get("method") != "GET"
                or scope.get("path", "").startswith(_NOT_PAGES)):
            await self.app(scope, receive, send)
            return
        # the page uncompressed (Streamlit's own gzip layer would compress it, about 8 KB, and
        # nothing could be added): the request's Accept-Encoding is not passed on
        plain = dict(scope, headers=[(k, v) for k, v in scope.get("headers") or ()
                                     if k.lower() != b"accept-encoding"])
        await self.app(plain, receive, _Inject(send, self.head, self.element))


class _Inject:
    """The ``send`` of one answer: an HTML page (status 200) is held until its last piece, then
    sent with ``head`` added before ``</head>`` and ``element`` before ``</body>``; any other
    answer goes through as it comes."""

    def __init__(self, send: Send, head: bytes, element: bytes) -> None:
        self.send = send
        self.head = head
        self.element = element
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
                body = body.replace(b"</head>", self.head + b"</head>", 1)
            if b"</body>" in body:
                body = body.replace(b"</body>", self.element + b"</body>", 1)
            start, self.start = self.start, None
            start["headers"] = [(k, v) for k, v in start.get("headers") or ()
                                if k.lower() not in (b"content-length", b"etag")]
            start["headers"].append((b"content-length", str(len(body)).encode()))
            await self.send(start)
            await self.send({"type": "http.response.body", "body": body})
            return
        await self.send(message)
