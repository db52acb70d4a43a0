"""Metrics: the project's measure reference (``docs/measures.md``, rendered as is), the
formal-constraint table and the registry's one-line definitions."""

from __future__ import annotations

import streamlit as st

from dashboard import figures, reference, state, ui

sel = state.selection()
ui.header(
    "Metrics",
    "What each metric measures, which formal constraints it satisfies (Amig\u00f3 et al. 2009; "
    "Moreno & Dias 2015), and where it comes from.",
)
st.markdown(f"In use: **{sel.precision}** (precision-like) and **{sel.recall}** (recall-like), "
            f"combined by F\u03b1 = 1 / (\u03b1/P + (1\u2212\u03b1)/R) and compared by UIR.")

st.subheader("Measure reference", anchor=False)
with ui.guard("The measure reference"):
    sections = reference.measure_reference()
    if not sections:
        ui.unavailable("The measure reference", "docs/measures.md is not installed with this copy.")
    for title, body in sections[:1]:
        st.markdown(body)
    for title, body in sections[1:]:
        with st.expander(title, expanded=title.startswith("\u00a75")):
            st.markdown(body)

st.subheader("Formal constraints", anchor=False)
with ui.guard("The formal-constraint table"):
    cons = reference.constraints()
    ui.plot(figures.constraints_figure(cons), key="met_constraints", sel=sel,
            filename="formal_constraints")
    with st.expander("Every constraint case"):
        st.dataframe(cons, hide_index=True, width="stretch")

st.subheader("Definitions", anchor=False)
with ui.guard("The metric definitions"):
    defs = reference.metric_infos()
    in_use = set(sel.metrics)
    defs = defs.assign(used=defs["metric"].map(lambda m: "\u2190 in use" if m in in_use else ""))
    st.dataframe(defs[["metric", "used", "family", "direction", "description", "formula",
                       "reference"]],
                 hide_index=True, width="stretch", height=min(38 * len(defs) + 40, 720),
                 key="met_defs",
                 column_config={
                     "used": st.column_config.TextColumn("", width="small"),
                     "description": st.column_config.TextColumn(width="medium"),
                     "formula": st.column_config.TextColumn(width="large"),
                     "reference": st.column_config.TextColumn(width="large"),
                 })
    st.caption("n_ij = |L_i \u2229 C_j|: items in gold class L_i and system cluster C_j; "
               "n items per topic. Every metric is computed per topic, then averaged.")
