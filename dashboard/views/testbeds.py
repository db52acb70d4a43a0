"""Test beds: per-test-bed rankings and the cross-test-bed prediction curves."""

from __future__ import annotations

import streamlit as st

from dashboard import figures, state, ui
from dashboard.data import live

sel = state.selection()
info = live.campaign_info(sel.source)
ui.header(
    "Test beds",
    "Does a ranking hold on every test bed? Which predictor, UIR or \u0394F on one bed, best "
    "finds the pairs whose order holds on all of them?",
)

if len(sel.all_testbeds) < 2:
    ui.unavailable("The test-bed view",
                   "This campaign has fewer than two test beds (topics carry no test-bed label). "
                   "Give them with `testbed_regex` in campaign.toml, or a `topic<TAB>testbed` "
                   "file.")
    st.stop()

counts = info["testbed_counts"]
st.markdown(" \u00b7 ".join(f"**{b}**: {n} topic{'' if n == 1 else 's'}"
                            for b, n in counts.items()))
if sel.bed_filter:
    st.caption("The sidebar's test-bed filter does not apply here: this view compares the beds.")

with ui.guard("The per-test-bed rankings"):
    tbr = live.testbed_rankings(sel)
    ui.plot(figures.testbed_rank_figure(tbr.ranks, tbr.f, {sel.a: "A", sel.b: "B"},
                                        title=f"Rank by F\u03b1 (\u03b1 = {sel.alpha:.2f}) on "
                                              f"all topics and on each test bed"),
            key="tb_ranks", sel=sel, filename="testbed_ranks")

st.subheader("Cross-test-bed prediction", anchor=False)
st.caption("For a reference bed and a threshold t, the predicted robust pairs are those with "
           "UIR \u2265 t (or \u0394F \u2265 t) on that bed; a prediction is right when a has a "
           "higher F\u03b1 than b on every bed. Higher precision at equal recall is better.")
with ui.guard("The cross-test-bed prediction"):
    pred = live.cross_testbed(sel)
    assert pred is not None  # two test beds or more: the page stopped above otherwise
    beds = sorted(pred["reference_bed"].astype(str).unique().tolist())
    ref = st.selectbox("Reference test bed", beds, key="refbed", bind="query-params")
    sub = pred[pred["reference_bed"].astype(str) == ref].copy()
    sub["predictor"] = sub["predictor"].map(lambda p: live.PREDICTOR_LABELS.get(p, p))
    ui.plot(figures.cross_testbed_figure(
        sub, title=f"Predicting from {ref} the pairs that hold on every test bed"),
        key="tb_cross", sel=sel, filename="cross_testbed")
    ui.plot(figures.cross_testbed_threshold_figure(
        sub, title=f"Precision and recall against the threshold (reference bed {ref})"),
        key="tb_cross_t", sel=sel, filename="cross_testbed_threshold")
    n_true = int(sub["n_true"].iloc[0]) if len(sub) else 0
    st.caption(f"{n_true} ordered pairs keep their order on every test bed.")
