"""Small Streamlit helpers shared by the pages: headers, charts, error boundaries."""

from __future__ import annotations

import contextlib
import logging
import re
import threading
from typing import TYPE_CHECKING

import plotly.graph_objects as go
import streamlit as st

from dashboard import figures
from dashboard.data.uploads import user_text
from dashboard.render.downloads import figures_zip
from dashboard.state import Selection
from metrics.errors import UnanimityError
from metrics.reports.numbers import n_of

if TYPE_CHECKING:  # the data layer loads after the page's first paint
    from dashboard.data.view import Settings

__all__ = ["header", "plot", "guard", "unavailable", "pair_caption", "fmt_system",
           "page_figures_start", "page_figures_download", "table_height", "below_first_chart",
           "BELOW_KEY", "run_start", "say_once", "page_complete"]

_LOG = logging.getLogger("unanimity.dashboard")
#: the figures the current script run has drawn and the sidebar slot of their download (each
#: run has its own thread)
_RUN = threading.local()


#: the key (and so the CSS class ``st-key-<key>``) of the element that stands for the part of a
#: cold-open page still to be drawn; the loading spinner and the browser tests wait for it to go
BELOW_KEY = "unanimity_below"
_DRAWN = "_first_chart_drawn"
#: tells the server once the browser shows a chart (polled every 50 ms; after 8 s it tells
#: anyway, so that a page whose chart fails to draw is still completed)
_FIRST_CHART = st.components.v2.component(
    "unanimity_first_chart",
    js="""export default function (component) {
  const { setTriggerValue } = component;
  let told = false;
  const tell = () => { if (!told) { told = true; setTriggerValue('drawn', true); } };
  const t0 = performance.now();
  const poll = () => {
    if (told) return;
    if (document.querySelector('.js-plotly-plot .main-svg')) {
      requestAnimationFrame(() => setTimeout(tell, 0));  // after the chart's frame is painted
    } else if (performance.now() - t0 > 8000) { tell(); } else { setTimeout(poll, 50); }
  };
  poll();
}""",
)


def run_start() -> None:
    """Called first by every run (dashboard/app.py): forgets the last run's notices
    (:func:`say_once`)."""
    _RUN.said = False
    _RUN.partial = False


def page_complete() -> bool:
    """Whether this run has drawn its whole page (not only down to the first chart,
    :func:`below_first_chart`)."""
    return not getattr(_RUN, "partial", False)


def say_once(key: str, token: str) -> bool:
    """True the first time a run meets ``token`` under ``key`` (a notice said once a session,
    such as a link to a gone upload). Such a run draws its whole page at once
    (:func:`below_first_chart`): the run that would complete the page would not repeat it."""
    if st.session_state.get(key) == token:
        return False
    st.session_state[key] = token
    _RUN.said = True
    return True


def _drawn() -> None:
    st.session_state[_DRAWN] = True


def below_first_chart(after_chart: bool) -> bool:
    """Whether this run draws the part of the page below its first chart.

    The browser draws all the charts that reach it together in one long task, so on a cold
    open the first chart would be seen only with the last. On the session's first run of a
    page that has drawn a chart above (``after_chart``), this returns False and leaves a
    hidden element that reruns the script as soon as the browser shows that chart; every
    later run returns True, and so does a page without a chart above, a run that says a
    notice once (:func:`say_once`) and a run without a browser (a script test, whose session
    has no request headers).
    """
    if (not after_chart or st.session_state.get(_DRAWN) or not st.context.headers
            or getattr(_RUN, "said", False)):
        return True
    _FIRST_CHART(key=BELOW_KEY, height=0, on_drawn_change=_drawn)
    _RUN.partial = not st.session_state.get(_DRAWN)
    return not _RUN.partial


#: a data grid's row and header height in pixels, and its borders
ROW_PX, BORDER_PX = 35, 3


def name_chars(width: int) -> int:
    """How many characters of a system name a data grid column ``width`` px wide shows whole
    (14 px text, some 7.4 px a character with digits and "%", 16 px of cell padding): names
    longer are cut in the middle to it (:func:`dashboard.figures.short`), as the grid would cut
    them at the right. 173 px: 21 characters."""
    return (width - 16) * 10 // 74


def table_height(n_rows: int, cap: int) -> int:
    """Height of an ``st.dataframe`` that shows ``n_rows`` rows without a scroll bar, at most
    ``cap`` pixels: the header and one row per data row (one for an empty table, where the grid
    writes "empty"; shorter, it would draw over the text below it)."""
    return min(ROW_PX * (max(n_rows, 1) + 1) + BORDER_PX, cap)


def header(title: str, question: str) -> None:
    """Page title and the one-line question the view answers."""
    st.title(title)
    st.caption(question)


def plot(fig: go.Figure, key: str, sel: Selection | None = None, filename: str | None = None,
         **kw):
    """``st.plotly_chart`` with the project's template kept (``theme=None``) and a toolbar whose
    camera saves PNG or SVG (sidebar "Chart export")."""
    fmt = sel.image_format if sel is not None else "png"
    drawn = getattr(_RUN, "figures", None)
    if drawn is not None:
        drawn.append((filename or key, fig))
    return st.plotly_chart(fig, key=key, theme=None, width="stretch",
                           config=figures.chart_config(filename or key, fmt), **kw)


def page_figures_start(slot) -> None:
    """Start collecting the figures :func:`plot` draws in this run; ``slot`` (a container)
    receives their download (:func:`page_figures_download`)."""
    _RUN.figures = []
    _RUN.slot = slot


def page_figures_download(page: str) -> None:
    """The "all figures of this page" button in the slot of :func:`page_figures_start`: every
    figure the page drew, as PNG (twice the size) and SVG in one zip, drawn on the click
    (:func:`dashboard.render.downloads.figures_zip`). Nothing when the page drew none."""
    drawn = list(getattr(_RUN, "figures", None) or [])
    slot = getattr(_RUN, "slot", None)
    _RUN.figures = None
    if not drawn or slot is None:
        return
    stem = re.sub(r"[^A-Za-z0-9_-]+", "_", page).strip("_") or "page"
    slot.download_button(
        f"All {len(drawn)} figures of this page", lambda: figures_zip(drawn),
        file_name=f"unanimity_{stem}_figures.zip", mime="application/zip",
        key="dl_page_figures", icon=":material/photo_library:", width="stretch",
        on_click="ignore",
        help="Every chart of this page as PNG (twice the size) and SVG in one zip, drawn on "
             "the click.")


def unavailable(what: str, why: str, plural: bool = False) -> None:
    """Say why a view is unavailable (instead of failing); ``plural`` when ``what`` is."""
    verb = "are" if plural else "is"
    st.info(f"**{what} {verb} unavailable.** {why}", icon=":material/info:")


@contextlib.contextmanager
def guard(what: str):
    """Show a one-line message instead of a traceback for errors the user's data causes.

    ``UnanimityError`` / ``ValueError`` are shown as they are; a missing ``metrics`` module says
    which one; anything else is logged and summarised.
    """

    try:
        yield
    except ImportError as exc:
        unavailable(what, f"It needs `{getattr(exc, 'name', None) or exc}`, which this "
                          "installation of Unanimity does not provide yet.")
    except (UnanimityError, ValueError, KeyError) as exc:
        msg = user_text(str(exc).strip("'\""))  # uploads named as uploaded, not by storage path
        st.error(f"{what}: {msg}", icon=":material/error:")
    except Exception as exc:  # noqa: BLE001 - the dashboard must never show a traceback
        # (st.rerun / st.stop raise BaseException subclasses: not caught here)
        _LOG.exception("%s failed", what)
        st.error(f"{what} failed: {type(exc).__name__}: {user_text(str(exc))}",
                 icon=":material/error:")


def fmt_system(name: str, role: str | None = None) -> str:
    """Markdown for a system name in its role colour (A blue, B orange)."""
    tag = f"{role}: " if role else ""
    color = {"A": "blue", "B": "orange"}.get(role or "", "gray")
    return f":{color}[**{tag}{name}**]"


def pair_caption(sel: Selection | Settings) -> str:
    return (f"{fmt_system(sel.a, 'A')} vs {fmt_system(sel.b, 'B')} \u00b7 "
            f"{sel.precision} / {sel.recall} \u00b7 \u03b1 = {sel.alpha:.2f} \u00b7 "
            f"{sel.average} average \u00b7 UIR threshold {sel.threshold:.2f}")


def flips_sentence(n_flips: int, n_robust: int) -> str:
    """The Leaderboard's sentence on the pairs two aggregation rules order differently, and
    how many of them UIR calls a robust improvement (docs/rankings.md)."""
    if n_flips == 1:
        return ("1 pair is ordered one way by one rule and the other way by another; UIR "
                + ("calls it" if n_robust else "does not call it") + " a robust improvement.")
    return (f"{n_of(n_flips, 'pair')} are ordered one way by one rule and the other way by "
            f"another; UIR calls {n_robust:,} of them a robust improvement.")
