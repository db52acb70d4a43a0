"""Papers' tables: JAIR Tables 5-6, WePS Table 2, the ten-pairs weakest-metric analysis next to
all pairs, improved systems and (on request) random baselines over k, of a live campaign's
selection or a reopened bundle (:meth:`dashboard.data.view.ComparisonView.paper_tables`)."""

from __future__ import annotations

import streamlit as st

from dashboard import ui
from dashboard.data import live, papers, view
from dashboard.views import papers_view

v = view.current()
sel, cfg = v.sel, v.settings
ui.header("Papers' tables",
          f"{cfg.title}: the analyses of Amig\u00f3 et al. (JAIR 2011; WePS) and Moreno & Dias "
          f"(2015) on {cfg.precision} / {cfg.recall} at \u03b1 = {cfg.alpha:.2f} "
          f"({cfg.profile} profile).")
if sel is not None:
    st.caption("The **jair2011** profile in the sidebar reproduces the papers' conventions at "
               "once: Wilcoxon without correction and improved systems with UIR > t "
               "(docs/rankings.md, \u201cProfiles\u201d).")

with ui.guard("The papers' tables"):
    pt = v.paper_tables()
    comp = v.comparison()
    if pt is None:
        ui.unavailable("The papers' tables", "The bundle was written without them: rerun "
                       "`unanimity compare --out DIR --paper-tables`.", plural=True)
    else:
        papers_view.render(pt[0], pt[1], comp.parameters,
                           all_pairs=comp.weakest_metric.points, key="pt")

st.subheader("Random baselines over k (Moreno & Dias 2015, Table 2)", anchor=False)
if v.cannot("random_baselines"):
    st.caption(str(v.cannot("random_baselines")))
elif sel is None or not live.campaign_info(sel.source)["has_clusterings"] \
        or live.campaign_info(sel.source).get("organisation"):
    ui.unavailable("The random baselines", "They cluster the gold items at random: this campaign "
                   "has no flat clusterings to draw them from.", plural=True)
else:
    c1, c2 = st.columns([1, 3])
    n_runs = c1.number_input("Seeds per k", 1, 10, 10, key="pt_runs",
                             help="The paper averages 10 runs per k; each run is scored like a "
                                  "system (19 values of k \u00d7 2 algorithms \u00d7 runs).")
    c2.caption("UniformRand and UltraShapedRand with k = 2..20 clusters per topic, scored by "
               "F\u03b1 at \u03b1 = 0.9 as in the paper. Scoring them takes a while, so they "
               "are computed on request.")
    if st.button("Score the random baselines", key="pt_rb", icon=":material/casino:"):
        st.session_state["_pt_rb"] = (sel.source.cid, sel.metrics, int(n_runs))
    asked = st.session_state.get("_pt_rb")
    if asked == (sel.source.cid, sel.metrics, int(n_runs)):
        with ui.guard("The random baselines"):
            papers_view.render_baselines(papers.random_baselines(sel, int(n_runs)), "pt")
