"""``python -m dashboard.serve run dashboard/app.py [streamlit options] [-- PATH [--testbeds
RULE]]``.

Exactly ``streamlit run`` (same arguments, same process), after starting the warm-up of
:mod:`dashboard.data.warm` so that the first session opens fast, with Streamlit's own scripts
and styles sent gzipped from memory (:mod:`dashboard.static_gzip`), a spinner in the page from
its first paint and the chart module evaluated while the first page runs
(:mod:`dashboard.page_additions`).
"""

from __future__ import annotations

import sys
from typing import Any

from dashboard.data import warm
from dashboard.page_additions import PageAdditions
from dashboard.static_gzip import StaticGzip

__all__ = ["main", "serve_static_gzipped"]


def serve_static_gzipped() -> bool:
    """Wrap the web application Streamlit's server builds in :class:`StaticGzip` and
    :class:`PageAdditions`; False (and Streamlit's own serving) when this Streamlit builds it
    elsewhere."""
    from streamlit.web.server.starlette import starlette_server  # noqa: PLC0415 - deferred: only when serving

    build = getattr(starlette_server, "create_starlette_app", None)
    if build is None or getattr(build, "static_gzip", False):
        return build is not None

    def create_starlette_app(runtime: Any) -> Any:
        app = build(runtime)
        app.add_middleware(PageAdditions)  # the page: its spinner and script added
        app.add_middleware(StaticGzip)  # the outermost layer: the files never reach the rest
        return app

    create_starlette_app.static_gzip = True  # type: ignore[attr-defined]
    starlette_server.create_starlette_app = create_starlette_app
    return True


def main(argv: list[str] | None = None) -> None:
    argv = list(sys.argv[1:] if argv is None else argv)
    path = testbeds = None
    if "--" in argv:
        rest = argv[argv.index("--") + 1:]
        if "--testbeds" in rest[:-1]:  # ``-- PATH --testbeds RULE``
            testbeds = rest.pop(rest.index("--testbeds") + 1)
            rest.remove("--testbeds")
        path = rest[0] if rest else None
    # two of the modules every page's run imports (dashboard/app.py): here, in the main thread
    # before the warm-up's thread starts, rather than in the first session's run (the others
    # declare Streamlit caches, which want the running server)
    from dashboard import state, ui  # noqa: F401, PLC0415 - deferred: only when serving

    warm.start(path, testbeds)
    from streamlit import delta_generator  # noqa: PLC0415 - deferred: only when serving
    from streamlit.web import cli  # noqa: PLC0415 - deferred: streamlit's CLI only when serving

    # Streamlit checks once, on the first element a session draws, whether it runs in a plain
    # Python shell (to print a hint): it reads the source of every frame of the stack, and so
    # resolves the file of every imported module (0.1-0.4 s of the first page). Served by
    # ``streamlit run`` it never does, so the check is marked as done.
    if hasattr(delta_generator, "_use_warning_has_been_displayed"):
        delta_generator._use_warning_has_been_displayed = True

    serve_static_gzipped()
    sys.argv = ["streamlit", *argv]
    cli.main()


if __name__ == "__main__":
    main()
