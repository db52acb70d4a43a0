"""The dashboard on a comparison bundle: its own sidebar, the campaign's pages, every number read
from the bundle's stored tables (:mod:`dashboard.data.bundles`; docs/rankings.md, "Bundles").

:func:`show` is called by ``app.py`` before the campaign sidebar: when the URL names a bundle
(``?bundle=KEY``), or the command line gave one and the session has not gone back to the
campaigns, it draws the bundle's sidebar (which bundle, its fixed settings, systems A and B,
back to the campaigns), makes the bundle the source of the pages
(:func:`dashboard.data.view.show_bundle`: the Leaderboard, Compare, UIR, Papers and Export pages
render the bundle through :class:`dashboard.data.view.ComparisonView`) and runs the current
one. A bundle that :func:`metrics.reports.bundle.open_bundle` refuses (edited files, another
format version) shows its message and the Data page, never a traceback.
"""

from __future__ import annotations

import io
import zipfile
from pathlib import Path

import streamlit as st

from dashboard import ui
from dashboard.data import bundles, uploads, view
from dashboard.data.bundles import BundleSource, bundle_sources, cli_bundle, open_source
from dashboard.ui import guard
from metrics.reports.bundle import MANIFEST, Bundle

__all__ = ["show", "current", "open_ui", "just_opened", "zipped", "NEEDS_CAMPAIGN", "PARAM",
           "leave", "go"]

PARAM = "bundle"
_VIEW = "_bundle_view"
_LEFT = "_left_bundle"
_OPENED = "_bundle_opened"
_VIEWS = Path(__file__).resolve().parent / "views"
#: Campaign pages a bundle cannot show (they need per-topic scores or the campaign itself), by
#: address: a link to one of them opens a page that says so instead of "Page not found".
NEEDS_CAMPAIGN = {"testbeds": "Test beds", "type-level": "Type level", "metrics": "Metrics",
                  "meta": "Meta"}


def _requested() -> BundleSource | None:
    srcs = bundle_sources()
    key = st.query_params.get(PARAM)
    if key:
        if key in srcs:
            return srcs[key]
        if ui.say_once("_gone_bundle", key):
            st.sidebar.warning(
                f"The link names the bundle \u201c{key}\u201d, which is not open here: uploaded "
                "bundles belong to the browser session that opened them. Open it again on the "
                "**Data** page.", icon=":material/link_off:")
        del st.query_params[PARAM]
        return None
    cli = cli_bundle()
    if cli is not None and not st.session_state.get(_LEFT) and "campaign" not in st.query_params:
        st.query_params[PARAM] = cli.key
        return cli
    return None


def go(src: BundleSource) -> None:
    """Show the bundle ``src`` from the next run on."""
    st.session_state.pop(_LEFT, None)
    st.query_params[PARAM] = src.key


def leave() -> None:
    """Back to the campaigns from the next run on."""
    st.session_state[_LEFT] = True
    if PARAM in st.query_params:
        del st.query_params[PARAM]


def current() -> tuple[BundleSource, Bundle | None]:
    """The bundle source of this run and the opened bundle (None when it was refused)."""
    return st.session_state[_VIEW]


def _settings(sb, b: Bundle) -> None:
    p, o = b.parameters, b.options
    sb.markdown(f"**{p.get('precision')} / {p.get('recall')}**")
    corr = p.get("correction", "none")
    sb.caption(" \u00b7 ".join([
        f"\u03b1 = {p.get('alpha', float('nan')):.2f}",
        f"UIR threshold {p.get('threshold', float('nan')):.2f}",
        f"{p.get('average', 'macro')} average",
        f"{p.get('test', 'none')} test, " + ("no correction" if corr == "none"
                                              else f"{corr} correction"),
        f"{o.get('profile', 'default')} profile",
        f"{p.get('n_systems', '?')} systems, {p.get('n_topics', '?')} topics",
    ]))
    names = b.systems.sort_values("rank", kind="stable")["system"].astype(str).tolist()
    for key, default in ((view.BUNDLE_A, 0), (view.BUNDLE_B, min(1, len(names) - 1))):
        if st.session_state.get(key) not in names:
            st.session_state[key] = names[default]
    sb.selectbox("System A", names, key=view.BUNDLE_A, bind="query-params")
    sb.selectbox("System B", names, key=view.BUNDLE_B, bind="query-params")
    sb.caption(":material/inventory_2: Stored results: nothing is recomputed, so \u03b1, the "
               "threshold and the test are those the bundle was written with. To change them, "
               "open the campaign itself (its path is on the **Data** page).")


def show() -> bool:
    """Draw the bundle view when one is asked for; return whether it was drawn."""
    src = _requested()
    view.show_bundle(None, None)
    if src is None:
        return False
    sb = st.sidebar
    srcs = bundle_sources()
    keys = list(srcs)
    st.session_state["_bundle_pick"] = src.key
    pick = sb.selectbox("Comparison bundle", keys, key="_bundle_pick",
                        format_func=lambda k: srcs[k].label if k in srcs else k)
    if pick != src.key:
        go(srcs[pick])
        st.rerun()
    bundle = None
    with guard("This bundle cannot be opened"):
        bundle = open_source(src)
    if bundle is not None:
        _settings(sb, bundle)
    if sb.button("Back to the campaigns", key="_bundle_leave", icon=":material/arrow_back:"):
        leave()
        st.rerun()
    st.session_state[_VIEW] = (src, bundle)
    view.show_bundle(src, bundle)
    data_page = st.Page(str(_VIEWS / "bundle_data.py"), title="Data", url_path="data",
                        icon=":material/fact_check:", default=bundle is None)
    if bundle is None:
        pages = [data_page]
    else:
        # the campaign's pages, each rendering the bundle (dashboard/data/view.py)
        pages = [
            st.Page(str(_VIEWS / "leaderboard.py"), title="Leaderboard", url_path="ranking",
                    icon=":material/leaderboard:", default=True),
            st.Page(str(_VIEWS / "leaderboard.py"), title="Leaderboard ",
                    url_path="leaderboard", visibility="hidden"),  # as the campaign alias
            st.Page(str(_VIEWS / "compare.py"), title="Compare", url_path="compare",
                    icon=":material/compare_arrows:"),
            st.Page(str(_VIEWS / "uir_analysis.py"), title="UIR", url_path="uir",
                    icon=":material/grid_on:"),
            st.Page(str(_VIEWS / "papers.py"), title="Papers", url_path="papers",
                    icon=":material/menu_book:"),
            st.Page(str(_VIEWS / "check_reported.py"), title="Check", url_path="check",
                    icon=":material/rule:"),
            st.Page(str(_VIEWS / "export.py"), title="Export", url_path="export",
                    icon=":material/download:"),
        ]
        pages.append(data_page)
        # the campaign pages that need per-topic scores keep their addresses and say why
        pages += [st.Page(str(_VIEWS / "bundle_unavailable.py"), title=title, url_path=path,
                          visibility="hidden") for path, title in NEEDS_CAMPAIGN.items()]
    nav = st.navigation(pages, position="top")
    st.session_state["_bundle_page"] = nav.url_path
    ui.page_figures_start(sb.container())  # the page's "all figures" zip, once it has run
    nav.run()
    ui.page_figures_download("bundle_" + (nav.url_path or "ranking"))
    return True


def just_opened() -> bool:
    """True once after :func:`open_ui` opened a bundle (its Data page then says so)."""
    return bool(st.session_state.pop(_OPENED, False))


def open_ui(expanded: bool = False) -> None:
    """"Open a comparison bundle": a folder path on the server, or a zip upload (through
    :mod:`dashboard.data.uploads`); on success the dashboard shows the bundle."""

    with st.expander("Open a comparison bundle", expanded=expanded,
                     icon=":material/inventory_2:"):
        st.markdown("The folder `unanimity compare ... --out DIR` writes (or a zip of it) reopens "
                    "here without recomputing: every table is read back and checked against "
                    "the fingerprints of its manifest. From the command line: "
                    "`unanimity dashboard DIR`.")
        c1, c2 = st.columns(2)
        path = c1.text_input("Bundle folder on the server", key="_bundle_path",
                             placeholder="/path/to/results")
        zipped = None
        # the uploader only when asked for: the page's campaign uploader stays its only one
        if c2.toggle("Upload a zip of the folder instead", key="_bundle_zip_on"):
            zipped = c2.file_uploader("Zip of the bundle folder", type=["zip"], key="_bundle_zip")
        if st.button("Open the bundle", key="_bundle_open", icon=":material/folder_open:",
                     disabled=not (path or zipped)):
            src = None
            with guard("Could not open the bundle"), uploads.as_user_sees():
                if zipped is not None:
                    src = bundles.register_zip(zipped.name, zipped.getvalue())
                else:
                    src = bundles.register_path(path)
            if src is not None:
                go(src)
                st.session_state[_OPENED] = True
                st.rerun()


def zipped(src: BundleSource, b: Bundle) -> bytes:
    """The bundle's listed files and its manifest as a zip (in one folder named after it)."""


    folder = Path(src.path)
    top = (src.label.split(" (")[0] or "bundle").removesuffix(".zip")
    buf = io.BytesIO()
    with zipfile.ZipFile(buf, "w", zipfile.ZIP_DEFLATED) as z:
        for entry in [*b.manifest["files"].values(), {"file": MANIFEST}]:
            for name in [entry["file"], *([entry["parquet"]["file"]] if entry.get("parquet")
                                          else [])]:
                z.write(folder / name, f"{top}/{name}")
    return buf.getvalue()
