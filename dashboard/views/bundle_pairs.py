"""Bundle Pairs: the stored pairs table, a pair chooser and the chosen pair's stored row worded
as on the Compare page (:mod:`dashboard.render.pair_view`); nothing recomputed."""

from __future__ import annotations

import streamlit as st

from dashboard import bundle_app, ui
from dashboard.render import pair_view
from metrics.comparison.profiles import profile_of
from metrics.comparison.reference import improves
from metrics.reports.pair_report import verdict_sentence

_HEADERS = {"system_a": "a", "system_b": "b", "n_a_better": "# a \u2265\u2200 b",
            "n_b_better": "# b \u2265\u2200 a", "n_tied": "# tied", "n_biased": "# biased",
            "beats_all_alpha": "a above \u2200\u03b1", "pair_class": "class"}

src, b = bundle_app.opened()
p = b.parameters
ui.header("Pairs", f"{bundle_app.title(src)}: every ordered pair's UIR, F\u03b1 difference, "
                   "tests and verdicts, as written by `unanimity compare --out`.")

with ui.guard("The stored pair"):
    systems = b.systems.sort_values("rank", kind="stable")["system"].astype(str).tolist()
    c1, c2 = st.columns(2)
    for key, default in (("ba", 0), ("bb", min(1, len(systems) - 1))):
        if st.session_state.get(key) not in systems:
            st.session_state[key] = systems[default]
    a = c1.selectbox("System A", systems, key="ba", bind="query-params")
    bb = c2.selectbox("System B", systems, key="bb", bind="query-params")
    if a == bb:
        st.warning("A and B are the same system: pick two.")
    else:
        rep = b.pair(a, bb)
        st.markdown(f"<div class='unanimity-verdict'>{verdict_sentence(rep, ('A', 'B'))}</div>",
                    unsafe_allow_html=True)
        cards = pair_view.summary_cards(rep)
        # two rows of three: values such as "neither" stay whole at 1024 px
        cols = [*st.columns(3), *st.columns(3)]
        for col, card in zip(cols, cards, strict=False):
            col.metric(card.label, card.value, delta=card.delta, delta_color=card.color,
                       delta_arrow="off", help=card.help)
        st.markdown(pair_view.counts_caption(rep))
        tv = pair_view.tests_display(rep)
        st.dataframe(tv, hide_index=True, width="stretch", key="bp_tests",
                     column_config={
                         pair_view.DELTA_COLUMN: st.column_config.NumberColumn(format="%+.4f"),
                     })
        st.caption(f"Stored verdicts: paired {rep.test} test, p < {rep.level:g} after "
                   f"{rep.correction} correction across all pairs; pair class: "
                   f"**{rep.pair_class or 'n/a'}**. The per-topic scatter, the F\u03b1 curves "
                   "and the contingency tables need per-topic scores, which a bundle does not "
                   "hold: open the campaign itself for them (its path is on the **Data** page).")

st.subheader("All pairs", anchor=False)
with ui.guard("The stored pairs table"):
    pairs = b.pairs
    verdicts = [c for c in pairs.columns if c.startswith("verdict_")]
    columns = ["system_a", "system_b", "uir", "uir_param", "n_a_better", "n_b_better", "n_tied",
            "n_biased", "f_a", "f_b", "delta_f", "beats_all_alpha", "pair_class", *verdicts]
    strict = profile_of(p).strict_improved
    only = st.toggle(f"Only pairs with UIR {'>' if strict else chr(0x2265)} "
                     f"{float(p['threshold']):.2f}", value=True, key="bp_robust")
    shown = pairs[improves(pairs["uir"], float(p["threshold"]), strict)] if only else pairs
    st.dataframe(shown[[c for c in columns if c in shown.columns]], key="bp_pairs",
                 hide_index=True, width="stretch", height=420,
                 column_config={**{c: st.column_config.NumberColumn(label, format="%.3f")
                                   for c, label in (("uir", "UIR"), ("uir_param", "param. UIR"),
                                                    ("f_a", "F\u03b1(a)"), ("f_b", "F\u03b1(b)"),
                                                    ("delta_f", "\u0394F"))},
                                **{c: label for c, label in _HEADERS.items()},
                                **{c: c.replace("verdict_", "verdict ") for c in verdicts}})
    st.caption(f"{len(shown):,} of {len(pairs):,} ordered pairs (the bundle's pairs.csv: every "
               "column, with p-values and crossings, is in the file).")
