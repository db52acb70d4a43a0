"""Entry point of the Unanimity dashboard: ``streamlit run dashboard/app.py [-- PATH]``.

Draws the global controls in the sidebar (bound to the URL, see :mod:`dashboard.state`) and
routes to one page per view with ``st.navigation``.
"""

from __future__ import annotations

import os
import sys
import time
from pathlib import Path

_T0 = time.perf_counter()

_ROOT = Path(__file__).resolve().parents[1]
if str(_ROOT) not in sys.path:  # run as a script: make ``dashboard`` and ``metrics`` importable
    sys.path.insert(0, str(_ROOT))

import streamlit as st  # noqa: E402

from dashboard.page_additions import SPINNER_BOX, SPINNER_RING, SPINNER_TEXT  # noqa: E402

_VIEWS = Path(__file__).resolve().parent / "views"


def _chart_code_preload() -> str:
    """A ``modulepreload`` link to Streamlit's chart module (plotly.js, about 4.7 MB): the
    browser fetches and compiles it while the server still computes the view, instead of after
    the first chart arrives (the larger part of a cold open on a busy machine). The file name
    is the installed Streamlit's; the link is relative like the page's own scripts."""
    js = Path(st.__file__).resolve().parent / "static" / "static" / "js"
    return "".join(f"<link rel='modulepreload' href='./static/js/{p.name}'>"
                   for p in sorted(js.glob("PlotlyChart.*.js"))[:1])


st.set_page_config(page_title="Unanimity", page_icon=":material/balance:", layout="wide",
                   initial_sidebar_state=330)  # px: names of ~26 characters fit the A/B boxes
#: set once a run of the session has drawn a whole page: from the next run on the spinner is
#: not a cold open's (it waits 0.3 s), and its element changes once, there
_DRAWN = "_page_drawn"
# The page style, and a spinner over the main area while the script runs (a cold open loads the
# campaign and compares every pair first) and while the browser still draws placeholders of
# charts and tables (their code loads lazily): shown by the CSS at once on an empty page (a cold
# open; it takes over from the spinner in the page's HTML, dashboard/page_additions.py), over
# placeholders and in a session's runs until one has drawn a whole page (class unanimity-cold:
# the title arrives while it shows, and the page below it after a rerun), else after 0.3 s, so
# that quick reruns never show it (one element: no gap above the page). "At once" is a fade-in
# already over (a negative delay), not a second animation: a restarted fade-in would hide it
# for 0.3 s where the cases switch while it shows.
st.markdown(
    """<style>
    [data-testid="stSidebar"] [data-testid="stVerticalBlock"] {gap: 0.45rem;}
    [data-testid="stSidebarHeader"] {padding-bottom: 0; height: 2.2rem; min-height: 2.2rem;}
    [data-testid="stSidebarUserContent"] {padding-top: 0;}
    [data-testid="stSidebar"] label p {font-size: 0.85rem;}
    .block-container {padding-top: 3.2rem; padding-bottom: 2rem;}
    h1 {font-size: 1.9rem !important; padding-bottom: 0.1rem !important;}
    [data-testid="stMain"] pre, [data-testid="stMain"] pre code {white-space: pre-wrap !important;
        overflow-wrap: anywhere;}
    .unanimity-verdict {font-size: 1.2rem; font-weight: 600; margin: 0.2rem 0 0.6rem 0;}
    [data-testid="stMetricLabel"] p, [data-testid="stMetricLabel"] div,
    [data-testid="stMetricDelta"] div {white-space: normal !important; overflow: visible !important;
        text-overflow: clip !important;}
    .unanimity-loading {""" + SPINNER_BOX + """ font-size: 1rem;
        opacity: 0; animation: unanimity-show 0.01s linear 0.3s forwards; display: none;}
    [data-testid="stApp"][data-test-script-state="running"] .unanimity-loading,
    [data-testid="stMain"]:has([data-testid="stSkeleton"]) .unanimity-loading,
    [data-testid="stMain"]:has(.st-key-unanimity_below) .unanimity-loading {display: flex;}
    /* the hidden element of dashboard/ui.py (BELOW_KEY) */
    .st-key-unanimity_below {display: none;}
    .unanimity-loading.unanimity-cold, [data-testid="stMain"]:not(:has(h1)) .unanimity-loading,
    [data-testid="stMain"]:has([data-testid="stSkeleton"]) .unanimity-loading,
    [data-testid="stMain"]:has(.st-key-unanimity_below) .unanimity-loading {
        animation-delay: -1s;}
    .unanimity-spinner {""" + SPINNER_RING + """ animation: unanimity-spin 0.8s linear infinite;}
    @keyframes unanimity-spin {to {transform: rotate(360deg);}}
    @keyframes unanimity-show {to {opacity: 1;}}
    @media (max-width: 1200px) {
        [data-testid="stSidebar"][data-collapsed="false"] {width: 250px !important;
            min-width: 250px !important;}
        .block-container {padding-left: 1.2rem !important; padding-right: 1.2rem !important;}
        [data-testid="stTopNavLink"] > span:has([data-testid="stIconMaterial"]) {display: none;}
        [data-testid="stTopNavLink"] {padding-left: 0.4rem !important;
            padding-right: 0.4rem !important;}
        [data-testid="stTopNavLink"] p {font-size: 0.92rem !important;}
    }
    </style>"""
    f"<div class='unanimity-loading{'' if st.session_state.get(_DRAWN) else ' unanimity-cold'}' "
    "role='status' aria-live='polite'><div "
    f"class='unanimity-spinner'></div>{SPINNER_TEXT}</div>" + _chart_code_preload(),
    unsafe_allow_html=True,
)

# Slide mode (``?slide=1``, docs/dashboard-in-use.md): no sidebar, larger type, one chart per
# screen; kept in the address of every page until ``?slide=0``
if st.query_params.get("slide") in ("0", "1"):
    st.session_state["_slide"] = st.query_params.get("slide") == "1"
if st.session_state.get("_slide"):
    st.query_params["slide"] = "1"
    st.markdown(
        """<style>
        [data-testid="stSidebar"], [data-testid="stSidebarCollapsedControl"],
        [data-testid="stExpandSidebarButton"] {display: none !important;}
        .block-container {max-width: 100% !important; padding-left: 2.5rem !important;
            padding-right: 2.5rem !important;}
        [data-testid="stMain"] p, [data-testid="stMain"] li {font-size: 1.25rem !important;}
        [data-testid="stMain"] [data-testid="stCaptionContainer"] p {font-size: 1.1rem !important;}
        h1 {font-size: 2.6rem !important;}
        [data-testid="stMain"] h2, [data-testid="stMain"] h3 {font-size: 2rem !important;}
        .unanimity-verdict {font-size: 1.6rem !important;}
        [data-testid="stPlotlyChart"] {min-height: 96vh; display: flex; flex-direction: column;
            justify-content: center;}
        </style>""",
        unsafe_allow_html=True,
    )

# imported after the spinner is on the page: a cold server's first imports take seconds
from dashboard import sidebar, state, ui  # noqa: E402
from dashboard.data import warm  # noqa: E402
from dashboard.ui import guard  # noqa: E402

ui.run_start()


def _token_tagging() -> bool:
    from dashboard.data import live  # noqa: PLC0415 - deferred: imported after the spinner is on the page

    return bool(live.campaign_info(state.selection().source).get("token_tagging"))


state.apply_requests()
st.session_state.pop("_selection", None)
st.sidebar.markdown("### :material/balance: Unanimity")
# A comparison bundle (``unanimity dashboard DIR``, or opened on the Data page): its own sidebar
# and pages, every number read from the bundle (dashboard/bundle_app.py, docs/rankings.md)
from dashboard import bundle_app  # noqa: E402

if bundle_app.show():
    st.session_state[_DRAWN] = True  # a bundle's pages are drawn whole at once
    st.stop()
ok = False
with guard("Loading the campaign"):
    sidebar.sidebar_ui()
    ok = True

pages = [
    st.Page(str(_VIEWS / "leaderboard.py"), title="Leaderboard", url_path="ranking",
            icon=":material/leaderboard:", default=True),
    # /leaderboard: the default page lives at "/", this hidden alias keeps its own address
    st.Page(str(_VIEWS / "leaderboard.py"), title="Leaderboard ", url_path="leaderboard",
            visibility="hidden"),
    st.Page(str(_VIEWS / "compare.py"), title="Compare", url_path="compare",
            icon=":material/compare_arrows:"),
    st.Page(str(_VIEWS / "uir_analysis.py"), title="UIR", url_path="uir",
            icon=":material/grid_on:"),
    st.Page(str(_VIEWS / "testbeds.py"), title="Test beds", url_path="testbeds",
            icon=":material/lan:"),
    # the papers' tables (metrics/analyses/paper_tables.py) of the current selection
    st.Page(str(_VIEWS / "papers.py"), title="Papers", url_path="papers",
            icon=":material/menu_book:"),
    # Robustness, Strictness, Figure 1 and the formal constraints (metrics/meta)
    st.Page(str(_VIEWS / "meta_evaluation.py"), title="Meta", url_path="meta",
            icon=":material/fact_check:"),
]
if ok and state.selection().source is not None and _token_tagging():
    # token tagging campaigns (format conllu): token- vs type-level rankings, the mapping
    pages.append(st.Page(str(_VIEWS / "type_level_page.py"), title="Type level",
                         url_path="type-level", icon=":material/category:"))
pages += [
    st.Page(str(_VIEWS / "metric_defs.py"), title="Metrics", url_path="metrics",
            icon=":material/functions:"),
    st.Page(str(_VIEWS / "check_reported.py"), title="Check", url_path="check",
            icon=":material/rule:"),
    st.Page(str(_VIEWS / "export.py"), title="Export", url_path="export",
            icon=":material/download:"),
    st.Page(str(_VIEWS / "data_quality.py"), title="Data", url_path="data",
            icon=":material/fact_check:"),
]
page = st.navigation(pages, position="top")
if not ok and page.url_path != "data":
    st.info("Pick another campaign in the sidebar, or load one on the **Data** page.")
    st.stop()
page.run()
ui.page_figures_download(page.url_path or "ranking")
if ui.page_complete():  # the warm-up goes on with what later pages need (dashboard/data/warm.py)
    warm.page_drawn()
    st.session_state[_DRAWN] = True
if os.environ.get("UNANIMITY_TIMING"):  # server time of each run, for the performance checks
    # and when it started, in the seconds of the warm-up's notes (since the server started)
    print(f"[unanimity] {page.url_path or 'leaderboard'} run {time.perf_counter() - _T0:.3f}s, "
          f"started at {_T0 - warm.STARTED:.3f}s", file=sys.stderr, flush=True)
