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


def _cell(text: object) -> str:
    """A markdown table cell: pipes escaped, no line breaks."""
    return str(text).replace("|", "\\|").replace("\n", " ")


with ui.guard("The metric definitions"):
    defs = reference.metric_infos()
    in_use = set(sel.metrics)
    # a markdown table wraps its cells: every definition and paper readable at 1024 px, no
    # horizontal scrolling
    lines = ["| Metric | Definition | Paper |", "|---|---|---|"]
    for r in defs.itertuples(index=False):
        name = f"**{r.metric}**" + (" \u2190 in use" if r.metric in in_use else "")
        lines.append(f"| {name}<br>{_cell(r.family)}, {_cell(r.direction)} | "
                     f"{_cell(r.description)}: `{_cell(r.formula)}` | {_cell(r.reference)} |")
    st.markdown("\n".join(lines), unsafe_allow_html=True)
    st.caption("n_ij = |L_i \u2229 C_j|: items in gold class L_i and system cluster C_j; "
               "n items per topic. Every metric is computed per topic, then averaged.")
    with st.expander("The same as a sortable table"):
        st.dataframe(defs, hide_index=True, width="stretch", key="met_defs")
