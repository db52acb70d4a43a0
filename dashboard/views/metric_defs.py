"""Metrics: the project's measure reference (``docs/measures.md``, rendered as is), the
formal-constraint table and the registry's one-line definitions."""

from __future__ import annotations

import streamlit as st

from dashboard import figures, state, ui
from dashboard.data import meta, reference

sel = state.selection()
ui.header(
    "Metrics",
    "What each metric measures, which formal constraints it satisfies (Amig\u00f3 et al. 2009; "
    "Moreno & Dias 2015), and where it comes from.",
)
_words = meta.pair_words(sel)
st.markdown(f"In use: **{sel.precision}** ({_words.first}) and **{sel.recall}** "
            f"({_words.second}), "
            f"combined by F\u03b1 = 1 / (\u03b1/P + (1\u2212\u03b1)/R) and compared by UIR.")

st.subheader("Measure reference", anchor=False)
with ui.guard("The measure reference"):
    sections = reference.measure_reference()
    if not sections:
        ui.unavailable("The measure reference", "docs/measures.md is not installed with this copy.")
    for _title, body in sections[:1]:
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


def _md(text: object) -> str:
    """Text for markdown: no line breaks, no stray emphasis."""
    return str(text).replace("\n", " ").replace("*", "\\*")


with ui.guard("The metric definitions"):
    defs = reference.metric_infos()
    in_use = set(sel.metrics)
    # one wrapping paragraph per metric: every definition and paper readable at 1024 px, no
    # horizontal scrolling (a table's paper column was off-screen)
    st.markdown("\n".join(
        f"- **{r.metric}**" + (" \u2190 *in use*" if r.metric in in_use else "")
        + f" ({_md(r.family)}, {_md(r.direction)}): {_md(r.description)}. "
        f"`{str(r.formula).replace('`', '')}` \u2014 {_md(r.reference)}"
        for r in defs.itertuples(index=False)))
    st.caption("n_ij = |L_i \u2229 C_j|: items in gold class L_i and system cluster C_j; "
               "n items per topic. Every metric is computed per topic, then averaged.")
    with st.expander("The same as a sortable table"):
        # fixed widths that fit the page at 1024 px (the list above has every text whole)
        st.dataframe(defs, hide_index=True, width="stretch", key="met_defs", column_config={
            c: st.column_config.TextColumn(c, width=w)
            for c, w in (("metric", 150), ("family", 85), ("direction", 75),
                         ("description", 140), ("formula", 115), ("reference", 110))})
