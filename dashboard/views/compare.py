"""Compare two systems: F_alpha curves, UIR with its counts, per-topic view, tests, topics, and
every pair of the comparison.

Every pairwise number is the comparison's row of the pair, of a live campaign or a reopened
bundle (:meth:`dashboard.data.view.ComparisonView.pair`), worded by
:mod:`dashboard.render.pair_view`; the views computed from per-topic scores say when the source
cannot serve them (a bundle)."""

from __future__ import annotations

import html

import pandas as pd
import streamlit as st

from dashboard import figures, ui
from dashboard.data import live, meta, per_topic, view
from dashboard.data.pairs import pairs_table
from dashboard.render import pair_view
from metrics.reports.numbers import signed
from metrics.reports.pair_report import verdict_sentence

v = view.current()
sel, cfg = v.sel, v.settings
a, b = cfg.a, cfg.b
ui.header(
    "Compare two systems",
    "Does A improve B whatever the weighting of the two metrics? UIR counts the topics where "
    "one system is at least as good on both metrics; the F\u03b1 curves show where the order "
    "flips.",
)
st.markdown(ui.pair_caption(cfg))

if a == b:
    st.warning("System A and system B are the same: pick two different systems in the sidebar.")
    st.stop()

rep = None
with ui.guard("The pair summary"):
    rep = v.pair(a, b)
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

with ui.guard("The bootstrap intervals of the pair"):
    boot = v.bootstrap()
    if boot is None:
        st.caption("How sure are these numbers? Turn on **Bootstrap intervals** in the sidebar "
                   "for 95 % intervals of UIR, parametric UIR and ΔF over resampled topics "
                   "(docs/uncertainty.md)." if sel is not None else
                   "The bundle was written without `--bootstrap N`: it holds no intervals of "
                   "UIR, parametric UIR and ΔF (docs/uncertainty.md).")
    else:
        row = boot.pairs[(boot.pairs["system_a"] == a) & (boot.pairs["system_b"] == b)].iloc[0]
        bcards = st.container(horizontal=True, wrap=True, gap="small", key="cmp_intervals")
        for label, col, digits in (("UIR(A, B)", "uir", 2), ("parametric UIR", "uir_param", 2),
                                   ("ΔFα (A − B)", "delta_f", 3)):
            lo, hi = row[f"{col}_low"], row[f"{col}_high"]
            if row[col] != row[col]:
                continue
            bcards.metric(label, signed(row[col], digits),
                          f"[{signed(lo, digits)}, {signed(hi, digits)}]", delta_color="off",
                          delta_arrow="off", width=figures.CARD_WIDTH + 40,
                          help="Point value and its 95 % bootstrap interval.")
        bp = boot.parameters["bootstrap"]
        st.caption(f"95 % percentile intervals over {bp['n_resamples']} paired resamples of the "
                   "topics" + (f", drawn within each of {bp['n_strata']} test beds"
                               if bp["stratified"] else "")
                   + f" (seed {bp['seed']}). An interval that excludes 0 is a difference the "
                   "topics support.")

topics = pd.DataFrame()
picked = None
if v.cannot("per_topic"):
    st.subheader("Per topic", anchor=False)
    st.caption(str(v.cannot("per_topic")))
else:
    assert sel is not None  # a live campaign serves the per-topic views
    with ui.guard("The F\u03b1 curves of the pair"):
        curves = live.curves(v.table, cfg.average)
        crossings = list(rep.crossings) if rep is not None else []
        ui.plot(figures.pair_curves_figure(curves[[a, b]], a, b, crossings, cfg.precision,
                                           cfg.recall, cfg.alpha, cfg.average),
                key="cmp_curves", sel=sel, filename="pair_f_alpha")

    st.subheader("Per topic", anchor=False)
    with ui.guard("The per-topic view"):
        topics = live.pair_topic_frame(v.table, a, b)
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
            diffs = per_topic.differences(v.table, a, b, (cfg.precision, cfg.recall))
            fig = figures.pair_differences_figure(diffs, a, b, [cfg.precision, cfg.recall],
                                                  selected_topic=current)
            note = ("Each topic is a lollipop per metric (> 0: A better), its shape and colour the "
                    "unanimous winner: ▲ A ≥∀ B, ▼ B ≥∀ A, ✖ "
                    "mixed, ● tied. UIR = (▲ topics − ▼ topics) / topics.")
        else:
            words = meta.pair_words(sel)
            fig = figures.pair_scatter_figure(topics, a, b, cfg.precision, cfg.recall,
                                              selected_topic=current,
                                              roles=(words.first, words.second))
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
                           if live.campaign_info(sel.source)["has_clusterings"]
                           and not live.campaign_info(sel.source)["organisation"] else ""))

st.subheader("Significance per metric", anchor=False)
with ui.guard("The significance tests"):
    effects = (() if v.cannot("effects") else
               per_topic.effects(v.table, a, b, tuple(m.metric for m in rep.metrics)))
    tv = pair_view.tests_display(rep, effects)
    corr_col = pair_view.corrected_column(rep)
    # widths that fit the page at 1024 px
    st.dataframe(tv, hide_index=True, width="stretch", key="cmp_tests", placeholder="\u2013",
                 column_config={
                     "metric": st.column_config.TextColumn("Metric", width=140),
                     pair_view.DELTA_COLUMN: st.column_config.NumberColumn(
                         "mean \u0394", format="%+.4f", width=75,
                         help="Mean per-topic difference A \u2212 B, negated for a "
                              "lower-is-better metric: > 0 means A is better."),
                     pair_view.CI_COLUMN: st.column_config.TextColumn(
                         "95% CI", width=125, help="Student t interval of the mean difference "
                                                   "(docs/measures.md \u00a76, \u201cEffect "
                                                   "size\u201d)"),
                     "d_z": st.column_config.NumberColumn(
                         "Cohen d", format="%+.2f", width=62,
                         help="Cohen's d_z: the mean difference over the standard deviation "
                              "of the per-topic differences (0.2 small, 0.5 medium, 0.8 large)"),
                     "p": st.column_config.TextColumn("p", width=65),
                     corr_col: st.column_config.TextColumn(corr_col, width=80),
                     "topics": st.column_config.NumberColumn("topics", width=55),
                     "verdict": st.column_config.TextColumn("verdict", width=110),
                 })
    st.caption(pair_view.tests_caption(rep))
    few = v.small_sample(rep.n_topics)
    if not few.can_be_significant:
        st.warning(few.sentence(), icon=":material/info:")

if sel is not None:  # the per-topic table and the drill-down: a live campaign's
    drill = (live.campaign_info(sel.source)["has_clusterings"]
             and not live.campaign_info(sel.source)["organisation"])
    st.markdown("**Per-topic deltas**"
                + (" \u2014 select a row to open the topic" if drill else ""))
    if not topics.empty:
        tab = topics.assign(
            winner=topics["winner"].map({"a": "A", "b": "B", "tied": "tied", "biased": "biased"}),
        )[["topic", "winner", "delta_precision", "delta_recall", "a_precision", "b_precision",
           "a_recall", "b_recall"]]
        # deltas at the three decimals shown, a negative zero made positive (as
        # metrics.reports.numbers.signed prints them): a tie reads "+0.000", not "−0.000"
        for c in ("delta_precision", "delta_recall"):
            tab[c] = tab[c].round(3) + 0.0
        # short headers, the metric names in their help: eight columns fit the page at 1024 px
        heads = {"delta_precision": ("\u0394 P", f"A \u2212 B on {cfg.precision}"),
                 "delta_recall": ("\u0394 R", f"A \u2212 B on {cfg.recall}"),
                 "a_precision": ("A P", f"{cfg.precision} of A"),
                 "b_precision": ("B P", f"{cfg.precision} of B"),
                 "a_recall": ("A R", f"{cfg.recall} of A"),
                 "b_recall": ("B R", f"{cfg.recall} of B")}
        colcfg = {c: st.column_config.NumberColumn(
            label, help=why, width=70, format="%+.3f" if c.startswith("delta") else "%.3f")
                  for c, (label, why) in heads.items()}
        colcfg["topic"] = st.column_config.TextColumn("Topic", width=150)
        colcfg["winner"] = st.column_config.TextColumn("Winner", width=65)
        height = ui.table_height(len(tab), 300)
        rows = []
        if drill:  # a row opens the topic's contingency tables below
            tev = st.dataframe(tab, hide_index=True, width="stretch", height=height,
                               key="cmp_topics", column_config=colcfg, on_select="rerun",
                               selection_mode="single-row")
            rows = tev.selection.rows if tev is not None else []
        else:
            st.dataframe(tab, hide_index=True, width="stretch", height=height, key="cmp_topics",
                         column_config=colcfg)
        st.caption(f"P: {cfg.precision}, R: {cfg.recall}; \u0394 = A \u2212 B.")
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
    if not live.campaign_info(sel.source)["has_clusterings"]:
        ui.unavailable("The topic drill-down",
                       "This campaign was loaded from a score table (precomputed per-topic "
                       "scores): "
                       "it has no clusterings, so there are no contingency tables to show.")
    elif live.campaign_info(sel.source)["organisation"]:
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
                ct = live.contingency(sel, who, topic)
                ui.plot(figures.contingency_figure(ct, who, topic, role=role),
                        key=f"cmp_ct_{role}", sel=sel, filename=f"contingency_{role}")
                with st.expander("Full table"):
                    # one row per non-empty cell: a table of hundreds of clusters would scroll
                    # sideways
                    cells = ct.stack().rename("items").reset_index()
                    cells.columns = ["gold class", "cluster", "items"]
                    cells = cells.astype({"gold class": str, "cluster": str})
                    st.dataframe(cells[cells["items"] > 0], hide_index=True, width="stretch",
                                 height=300, column_config={
                                     "gold class": st.column_config.TextColumn(width=320),
                                     "cluster": st.column_config.TextColumn(width=160),
                                     "items": st.column_config.NumberColumn(width=70)})

st.subheader("All pairs", anchor=False)
with ui.guard("The pairs table"):
    pairs = v.comparison().pairs
    only = st.toggle(f"Only pairs with UIR {cfg.improved_sign} {cfg.threshold:.2f}", value=True,
                     key="cmp_robust")
    shown = pairs_table(pairs, cfg.threshold, cfg.strict_improved, only)
    cols = [c for c in ("system_a", "system_b", "uir", "uir_param", "delta_f", "beats_all_alpha",
                        "pair_class") if c in shown.columns]
    # widths that fit the page at 1024 px, long names cut in the middle (their ends tell runs
    # apart); every column, with whole names, is in the pairs CSV (Export page)
    shown = shown.assign(**{c: shown[c].map(lambda s: figures.short(s, ui.name_chars(170)))
                            for c in ("system_a", "system_b")})
    st.dataframe(shown[cols], key="cmp_pairs", hide_index=True, width="stretch",
                 height=ui.table_height(len(shown), 420), column_config={
                     "system_a": st.column_config.TextColumn("a", width=170),
                     "system_b": st.column_config.TextColumn("b", width=170),
                     "uir": st.column_config.NumberColumn("UIR", format="%.3f", width=60),
                     "uir_param": st.column_config.NumberColumn("param. UIR", format="%.3f",
                                                                width=75),
                     "delta_f": st.column_config.NumberColumn("\u0394F\u03b1", format="%+.3f",
                                                              width=65),
                     "beats_all_alpha": st.column_config.CheckboxColumn(
                         "\u2200\u03b1", width=40, help="F\u03b1(a) > F\u03b1(b) for every \u03b1"),
                     "pair_class": st.column_config.TextColumn("class", width=90)})
    st.caption(f"{len(shown):,} of {len(pairs):,} ordered pairs; the pairs CSV on the Export "
               "page has every column (counts, p-values, crossings, verdicts).")
