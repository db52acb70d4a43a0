"""Check reported: is a paper's F consistent with its own P and R?

Paste a small table of reported precision, recall and F per system; the page reads and checks it
through :func:`dashboard.data.reported.check_pasted`
(``metrics.reports.reported_checks.read_reported`` and ``check_reported``, the same check
as ``unanimity check-reported``, docs/rankings.md): per system whether F is F_alpha(P, R) at the
stated alpha within the rounding of the reported decimals, which alphas fit, which rows are
impossible, and whether the ranking changes with alpha or under unanimity. Nothing is computed
here."""

from __future__ import annotations

import streamlit as st

from dashboard import ui
from dashboard.data.reported import STATUS_WORDS, alpha_of_beta, check_pasted

EXAMPLE = """system,precision,recall,f
ours,0.81,0.62,0.70
baseline,0.70,0.70,0.70
prior work,0.55,0.90,0.79
broken,0.60,0.65,0.70
"""

ui.header("Check reported scores",
          "Is each reported F consistent with the reported precision and recall, at which "
          "\u03b1, and would the ranking change with \u03b1 or under unanimity?")

c1, c2 = st.columns([3, 1])
text = c1.text_area("Reported scores (CSV or tab-separated, with a header)", EXAMPLE, height=180,
                    key="reported_text",
                    help="Columns system, precision, recall, f (also P, R, F1, ...) and "
                         "optionally alpha per row; or a score table system, metric, value "
                         "with rows for precision, recall and f.")
weight = c2.radio("Stated weight", ["\u03b1", "\u03b2 (F\u03b2)"], key="reported_weight",
                  horizontal=True)
if weight == "\u03b1":
    alpha = c2.number_input("\u03b1, weight of precision", 0.0, 1.0, 0.5, 0.05,
                            key="reported_alpha", help="0.5: the harmonic mean, F1.")
else:
    beta = c2.number_input("\u03b2", 0.0, 100.0, 1.0, 0.5, key="reported_beta",
                           help="F\u03b2 is F\u03b1 with \u03b1 = 1 / (1 + \u03b2\u00b2).")
    alpha = alpha_of_beta(beta)
    c2.caption(f"\u03b1 = {alpha:.4f}")


if not text.strip():
    st.info("Paste a table above.")
    st.stop()
with ui.guard("The check"):
    res = check_pasted(text, float(alpha))
    rows = res.rows
    n_ok = int((rows["status"] == "consistent").sum())
    n_imp = int((rows["status"] == "impossible").sum())
    m1, m2, m3 = st.columns(3)
    m1.metric("Consistent at the stated \u03b1", f"{n_ok} of {len(rows)}")
    m2.metric("Impossible rows", n_imp,
              help="F outside [min(P, R), max(P, R)]: no \u03b1 gives it.")
    m3.metric("Ranking changes with \u03b1", "yes" if res.ranking_changes_with_alpha else "no")
    st.markdown(
        ("Values read as percentages. " if res.percent else "")
        + "Under unanimity (better on both P and R) "
        + (f"**{res.unanimity_ties}** system(s) have a rank interval, not a single rank."
           if res.unanimity_ties else "the order is total."))
    view = rows.assign(
        status=[STATUS_WORDS.get(s, s) if not isinstance(side, str)
                else f"impossible: F {side.replace('_', ' ')}"
                for s, side in zip(rows["status"], rows["side"], strict=True)],
        fits=["none" if lo != lo else f"{lo:.3f}\u2013{hi:.3f}"
              for lo, hi in zip(rows["alpha_low"], rows["alpha_high"], strict=True)],
        by_alpha=[f"{lo}" if lo == hi else f"{lo}\u2013{hi}"
                  for lo, hi in zip(rows["rank_best_alpha"], rows["rank_worst_alpha"],
                                    strict=True)],
        unanimity=[f"{lo}" if lo == hi else f"{lo}\u2013{hi}"
                   for lo, hi in zip(rows["rank_low_unanimity"], rows["rank_high_unanimity"],
                                     strict=True)],
    )
    # two tables whose columns add up to less than the page at 1024 px (no sideways scroll)
    st.dataframe(view[["system", "precision", "recall", "f", "alpha", "f_at_alpha", "status",
                       "fits"]], key="reported_rows", hide_index=True, width="stretch",
                 column_config={
        "system": st.column_config.TextColumn("System", width=150),
        "precision": st.column_config.NumberColumn("P", format="%.4f", width=60),
        "recall": st.column_config.NumberColumn("R", format="%.4f", width=60),
        "f": st.column_config.NumberColumn("F reported", format="%.4f", width=75),
        "alpha": st.column_config.NumberColumn("\u03b1", format="%.3f", width=50),
        "f_at_alpha": st.column_config.NumberColumn("F\u03b1(P, R)", format="%.4f", width=75,
                                                    help="F at the stated \u03b1"),
        "status": st.column_config.TextColumn("Status", width=140),
        "fits": st.column_config.TextColumn("\u03b1 that fit", width=95,
                                            help="every \u03b1 whose F\u03b1(P, R) rounds to the "
                                                 "reported F"),
    })
    st.dataframe(view[["system", "rank_reported", "by_alpha", "unanimity"]],
                 key="reported_ranks", hide_index=True, width="stretch", column_config={
        "system": st.column_config.TextColumn("System", width=200),
        "rank_reported": st.column_config.NumberColumn("Rank", help="by the reported F",
                                                       width=60),
        "by_alpha": st.column_config.TextColumn("Ranks over \u03b1", width=120,
                                                help="best\u2013worst rank by F\u03b1 over "
                                                     "\u03b1 in [0, 1]"),
        "unanimity": st.column_config.TextColumn("Ranks under unanimity", width=170),
    })
    st.caption("Within the rounding of the reported decimals (docs/rankings.md, "
               "\u201cChecking reported scores\u201d); the same check as "
               "`unanimity check-reported`.")
