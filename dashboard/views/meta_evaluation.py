"""Meta-evaluation: which measure to trust on this campaign (Amigó, Gonzalo, Verdejo, SIGIR 2013).

Robustness and Strictness of the campaign's measures (on a ranking campaign the paper's Table 8,
and Table 7 and Figure 1 of each run's top K read as a filtering), and the formal constraints of
the campaign's family. Every number comes from ``metrics`` through :mod:`dashboard.data.meta`.
"""

from __future__ import annotations

import streamlit as st

from dashboard import state, ui
from dashboard.data import live, meta
from dashboard.figures.meta import figure1_figure, robustness_strictness_figure
from dashboard.render.html_tables import html_table, verdict_table

sel = state.selection()
ui.header(
    "Meta-evaluation",
    "Which measure can be trusted here? Robustness: do the topics agree on the ranking of the "
    "systems? Strictness: can the measure rank a system above where the standard measures put "
    "it? And which formal constraints does each measure satisfy? (docs/meta-evaluation.md)",
)
info = live.campaign_info(sel.source)
family = meta.family_of(info)
_READING = {"per-topic@1": "systems ranked within each topic, largest difference",
            "all-outputs@1": "every (system, topic) output ranked at once, largest difference",
            "per-topic@10": "within each topic, mean of the 10 largest differences",
            "all-outputs@10": "every output at once, mean of the 10 largest differences"}


def _md(text: object) -> str:
    """A measure name in markdown (``R*S``, ``bcubed_precision``): no stray emphasis."""
    return str(text).replace("\\", "\\\\").replace("*", "\\*").replace("_", "\\_")


def _strictness_table(table, key: str, default: str = "per-topic@1") -> None:
    """The table and the Robustness-against-Strictness chart of one reading."""
    st.html(html_table(table))
    reading = st.segmented_control("Strictness reading", list(_READING), default=default,
                                   key=f"{key}_reading") or default
    st.caption(f"{reading}: {_READING[reading]}. Robustness: mean Spearman correlation of the "
               "systems' scores over pairs of topics; Strictness: minus the largest amount by "
               "which the measure ranks an output above where another measure ranks it.")
    ui.plot(robustness_strictness_figure(table, reading), key=f"{key}_chart", sel=sel,
            filename=f"{key}_robustness_strictness")


if info["ranking"]:
    st.subheader("Ranking measures: the paper's Table 8", anchor=False)
    with ui.guard("Table 8"):
        t8 = meta.ranking_table(sel.source)
        st.caption(f"{len(t8.systems)} of {len(t8.depth)} systems (median ranking depth "
                   f"\u2265 {t8.min_depth}), {t8.n_topics} topics; R*S = harmonic mean of "
                   "Reliability and Sensitivity (W_n = 0.8); each measure judged against the six "
                   "IR measures other than itself; `paper strictness`: TREC 2004 Terabyte.")
        _strictness_table(t8.table, "me_t8")
    st.subheader("Filtering measures: Table 7 and Figure 1 on each run's top K", anchor=False)
    k = st.select_slider("Each run accepts its top K documents", [5, 10, 20, 50, 100], value=10,
                         key="me_accept_top")
    with ui.guard("Table 7"):
        t7, fig1 = meta.filtering_results(sel.source, k)
        st.caption(t7.view.description() + ". With the same K for every run, every measure is a "
                   "function of the relevant documents accepted on a topic: per topic they rank "
                   "the systems alike (docs/meta-evaluation.md \u00a75).")
        _strictness_table(t7.table, "me_t7", default="all-outputs@1")
        ui.plot(figure1_figure(fig1.points, fig1.measures), key="me_fig1", sel=sel,
                filename="figure1")
elif info["organisation"]:
    st.subheader("Filtering measures: Table 7 and Figure 1", anchor=False)
    with ui.guard("Table 7"):
        t7, fig1 = meta.filtering_results(sel.source, 1)
        _strictness_table(t7.table, "me_t7")
        ui.plot(figure1_figure(fig1.points, fig1.measures), key="me_fig1", sel=sel,
                filename="figure1")
else:
    st.subheader("The campaign's metrics", anchor=False)
    with ui.guard("The meta-evaluation"):
        names = tuple(dict.fromkeys(m for pair in live.metric_pairs(sel.source).values()
                                    for m in pair))
        if len(names) < 3:
            ui.unavailable("The meta-evaluation", "It needs three measures or more (each is "
                           "judged against the others).")
        else:
            result = meta.campaign_meta(sel.source, names)
            frame = result.to_dataframe()[["metric", "robustness", "strictness_per_topic",
                                         "strictness_all_outputs"]]
            st.caption("The metrics of the campaign's standard pairs, each judged against all "
                       "the others.")
            st.html(html_table(frame.rename(columns={
                "strictness_per_topic": "per-topic@1", "strictness_all_outputs":
                "all-outputs@1"})))
            ui.plot(robustness_strictness_figure(
                frame.rename(columns={"strictness_per_topic": "per-topic@1"}), "per-topic@1"),
                key="me_meta_chart", sel=sel, filename="robustness_strictness")

st.subheader("Formal constraints", anchor=False)
if family is None:
    ui.unavailable("The formal constraints", "A score table or a token tagging campaign has no "
                   "family of formal constraints here.", plural=True)
else:
    with ui.guard("The formal constraints"):
        checks = meta.family_constraints(family)
        checks = checks[checks["family"] == family]
        st.caption(f"The {family} constraints (yes = the measure scores the better output of "
                   "the constraint's case strictly higher). `unanimity constraints --metrics "
                   "...` checks any measure.")
        st.html(html_table(verdict_table(checks)))
        with st.expander("The smallest failing case of each failure"):
            fails = checks[~checks["holds"]][["metric", "constraint", "better", "worse", "case"]]
            st.markdown("\n".join(
                f"- **{_md(r.metric)}**, {r.constraint.replace('_', ' ')}: better "
                f"{r.better:.4g}, worse {r.worse:.4g} \u2014 `{r.case}`"
                for r in fails.itertuples(index=False)) or "None.")
