"""Compare two systems: F_alpha curves, UIR with its counts, per-topic view, tests, topics.

Every pairwise number is the comparison report's row of the pair
(:func:`dashboard.data.pair_report`),
worded by :mod:`dashboard.pair_view`."""

from __future__ import annotations

import html

import pandas as pd
import streamlit as st

from dashboard import data, data_meta, figures, pair_view, state, ui
from metrics.analyses import topic_differences
from metrics.reports.pair_report import verdict_sentence

sel = state.selection()
a, b = sel.a, sel.b
ui.header(
    "Compare two systems",
    "Does A improve B whatever the weighting of the two metrics? UIR counts the topics where "
    "one system is at least as good on both metrics; the F\u03b1 curves show where the order "
    "flips.",
)
st.markdown(ui.pair_caption(sel))

if a == b:
    st.warning("System A and system B are the same: pick two different systems in the sidebar.")
    st.stop()

t = data.table(sel)
rep = None
with ui.guard("The pair summary"):
    rep = data.pair_report(sel, t)
    st.markdown(f"<p class='unanimity-verdict'>{html.escape(verdict_sentence(rep, ('A', 'B')))}"
                "</p>", unsafe_allow_html=True)
    # fixed-width cards in a wrapping row: five abreast at 1400 px, two rows at 1024 px, and
    # never a truncated value or badge
    cards = st.container(horizontal=True, wrap=True, gap="small")
    for card in pair_view.summary_cards(rep):
        cards.metric(card.label, card.value, card.delta, delta_color=card.color,
                     delta_arrow="off", help=card.help, width=figures.CARD_WIDTH)
    ui.plot(figures.uir_counts_figure(rep.n_a_better, rep.n_tied, rep.n_biased, rep.n_b_better,
                                      a, b, title=f"Topics ({rep.n_topics}) by unanimous winner"),
            key="cmp_counts", sel=sel, filename="uir_counts")
    st.caption(pair_view.counts_caption(rep))

with ui.guard("The F\u03b1 curves of the pair"):
    curves = data.curves(t, sel.average)
    ui.plot(figures.pair_curves_figure(curves[[a, b]], a, b, list(rep.crossings), sel.precision,
                                       sel.recall, sel.alpha, sel.average), key="cmp_curves",
            sel=sel, filename="pair_f_alpha")

st.subheader("Per topic", anchor=False)
topics = pd.DataFrame()
with ui.guard("The per-topic view"):
    topics = data.pair_topic_frame(t, a, b)
picked = None
pts: list = []
with ui.guard("The per-topic chart"):
    current = st.session_state.get("topic")
    many = len(topics) > figures.SCATTER_MAX_TOPICS
    views = ["differences", "scatter"]
    kind = st.segmented_control(
        "Per-topic chart", views, default=views[0] if many else views[1], required=True,
        # one key per regime, so that each keeps its own default when the campaign changes
        key="topic_chart" if many else "topic_chart_few", bind="query-params",
        help="**differences**: each metric's A − B per topic, topics grouped by unanimous "
             "winner (readable with hundreds of topics); **scatter**: each topic's two points "
             f"in the precision-recall plane (the default up to {figures.SCATTER_MAX_TOPICS} "
             "topics).")
    if kind == "differences":
        diffs = topic_differences(data.pair_topics(t, a, b), [sel.precision, sel.recall])
        fig = figures.pair_differences_figure(diffs, a, b, [sel.precision, sel.recall],
                                              selected_topic=current)
        note = ("Each topic is a lollipop per metric (> 0: A better), its shape and colour the "
                "unanimous winner: ▲ A ≥∀ B, ▼ B ≥∀ A, ✖ "
                "mixed, ● tied. UIR = (▲ topics − ▼ topics) / topics.")
    else:
        words = data_meta.pair_words(sel)
        fig = figures.pair_scatter_figure(topics, a, b, sel.precision, sel.recall,
                                          selected_topic=current, roles=(words.first, words.second))
        note = ("Each topic is two points (A circle, B diamond) joined by a line whose colour "
                "and dash give the unanimous winner.")
    ev = ui.plot(fig, key=f"cmp_{kind}", sel=sel, filename=f"pair_topics_{kind}",
                 on_select="rerun", selection_mode="points")
    pts = (ev.selection.points if ev is not None and ev.selection else []) or []
    for p in pts:
        cd = p.get("customdata")
        if cd:
            picked = str(cd[0])
            break
    st.caption(note + (" **Click a point** to open that topic's contingency tables below."
                       if data.campaign_info(sel.source)["has_clusterings"]
                       and not data.campaign_info(sel.source)["organisation"] else ""))

st.subheader("Significance per metric", anchor=False)
with ui.guard("The significance tests"):
    tv = pair_view.tests_frame(rep)
    corr_col = f"p ({rep.correction})"
    st.dataframe(tv, hide_index=True, width="stretch", key="cmp_tests",
                 column_config={
                     pair_view.DELTA_COLUMN: st.column_config.NumberColumn(
                         format="%+.4f", help="Mean per-topic difference A \u2212 B, negated for "
                                              "a lower-is-better metric: > 0 means A is better."),
                     "p": st.column_config.NumberColumn(format="%.2g"),
                     corr_col: st.column_config.NumberColumn(format="%.2g"),
                 })
    n_sig = int((tv["verdict"].isin(["A better", "B better"])).sum())
    st.caption(f"Paired {rep.test} test over topics (change it under \u201cSignificance "
               f"tests\u201d in the sidebar), p < {rep.level:g} after {rep.correction} "
               f"correction across all pairs: {n_sig} of {len(tv)} metrics differ "
               f"significantly; pair class: **{rep.pair_class or 'n/a'}**. A significant gain on "
               "one metric with a significant loss on another is what UIR flags as not robust.")

st.markdown("**Per-topic deltas** \u2014 select a row to open the topic")
if not topics.empty:
    tab = topics.assign(
        winner=topics["winner"].map({"a": "A", "b": "B", "tied": "tied", "biased": "biased"}),
    )[["topic", "winner", "delta_precision", "delta_recall", "a_precision", "b_precision",
       "a_recall", "b_recall"]]
    tab = tab.rename(columns={
        "delta_precision": f"\u0394 {sel.precision}", "delta_recall": f"\u0394 {sel.recall}",
        "a_precision": f"A {sel.precision}", "b_precision": f"B {sel.precision}",
        "a_recall": f"A {sel.recall}", "b_recall": f"B {sel.recall}",
    })
    tev = st.dataframe(tab, hide_index=True, width="stretch", height=300, key="cmp_topics",
                       on_select="rerun", selection_mode="single-row",
                       column_config={c: st.column_config.NumberColumn(
                           format="%+.3f" if "\u0394" in c else "%.3f")
                                      for c in tab.columns if c not in ("topic", "winner")})
    rows = tev.selection.rows if tev is not None else []
    row_pick = str(tab.iloc[rows[0]]["topic"]) if rows else None
    new = None
    if picked is not None and picked != st.session_state.get("_cmp_scatter_pick"):
        new = picked
    if row_pick is not None and row_pick != st.session_state.get("_cmp_row_pick"):
        new = row_pick
    st.session_state["_cmp_scatter_pick"] = picked
    st.session_state["_cmp_row_pick"] = row_pick
    if new is not None:
        st.session_state["topic"] = new

st.subheader("Contingency tables of a topic", anchor=False)
topic_names = topics["topic"].tolist() if not topics.empty else []
if not data.campaign_info(sel.source)["has_clusterings"]:
    ui.unavailable("The topic drill-down",
                   "This campaign was loaded from a score table (precomputed per-topic scores): "
                   "it has no clusterings, so there are no contingency tables to show.")
elif data.campaign_info(sel.source)["organisation"]:
    ui.unavailable("The topic drill-down",
                   "This campaign holds document organisations (rankings or priority levels, "
                   "docs/organisation.md): a contingency table of gold classes and clusters "
                   "does not describe a ranking, so there is none to show. The per-topic table "
                   "above has both systems' scores on every topic.")
elif topic_names:
    if st.session_state.get("topic") not in topic_names:
        st.session_state.pop("topic", None)
    topic = st.selectbox("Topic", topic_names, key="topic", bind="query-params",
                         help="Or click a point of the scatter, or a row of the table.")
    w = topics.set_index("topic").loc[topic, "winner"]
    st.caption(f"Rows: gold classes; columns: the system's clusters; cells: items in both. "
               f"Winner on this topic: **{ {'a': 'A', 'b': 'B'}.get(w, w) }**.")
    for who, role in ((a, "A"), (b, "B")):
        with ui.guard(f"The contingency table of {who}"):
            ct = data.contingency(sel, who, topic)
            ui.plot(figures.contingency_figure(ct, who, topic, role=role),
                    key=f"cmp_ct_{role}", sel=sel, filename=f"contingency_{role}")
            with st.expander("Full table"):
                st.dataframe(ct, width="stretch")
