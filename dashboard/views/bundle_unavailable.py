"""A campaign page opened on a bundle (a link such as ``/testbeds?bundle=...``): it says plainly
what a bundle lacks and how to open the campaign instead."""

from __future__ import annotations

import streamlit as st

from dashboard import bundle_app, ui
from dashboard.data import view

src, b = bundle_app.current()
path = st.session_state.get("_bundle_page", "")
what = {"testbeds": "The rankings per test bed", "type-level": "The type-level views",
        "metrics": "The metric reference of a campaign",
        "meta": "The meta-evaluation of the measures"}.get(path, "This page")
ui.header(bundle_app.NEEDS_CAMPAIGN.get(path, "Unavailable").strip(), view.bundle_title(src))
inputs = b.inputs if b is not None else []
first = inputs[0]["path"] if inputs else "PATH"
ui.unavailable(what, "A comparison bundle holds the comparison's stored tables, not the per-topic "
               "scores or the clusterings these views are computed from. Open the campaign "
               f"itself: `unanimity dashboard {first}`, or pick it with **Back to the campaigns** "
               "in the sidebar. The bundle's own files are on its **Data** page.")
st.page_link("views/leaderboard.py", label="The bundle's Leaderboard",
             icon=":material/leaderboard:")
