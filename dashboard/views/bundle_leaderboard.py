"""Bundle Leaderboard: the stored systems table and ranking with tie groups (table and Hasse
diagram), read from the bundle (docs/rankings.md, "Bundles"); nothing recomputed."""

from __future__ import annotations

import streamlit as st

from dashboard import bundle_app, ui
from dashboard.figures.ranking import hasse_figure

src, b = bundle_app.opened()
p = b.parameters
alpha, thr = float(p["alpha"]), float(p["threshold"])
ui.header("Leaderboard",
          f"{bundle_app.title(src)}: who leads at \u03b1 = {alpha:.2f} on "
          f"{p['precision']} / {p['recall']}, and which systems does each one improve with "
          f"UIR \u2265 {thr:.2f}?")

with ui.guard("The stored systems table"):
    board = b.systems.sort_values("rank", kind="stable").reset_index(drop=True)
    c1, c2, c3 = st.columns(3)
    c1.metric("Systems", len(board))
    c2.metric("Topics", p.get("n_topics", "\u2013"))
    best = board.iloc[0]
    c3.metric(f"Best F\u03b1 at \u03b1 = {alpha:.2f}", f"{best['f_alpha']:.3f}",
              delta=str(best["system"]), delta_color="off", delta_arrow="off")
    view = board.assign(
        reference_system=board["reference_system"].map(lambda s: s if isinstance(s, str) else ""),
        reference_uir=board["reference_uir"].map(
            lambda v: "" if v is None or v != v else f"{v:.2f}"),
        improved=board["improved_systems"].map(
            lambda v: ", ".join(v[:3]) + (f" and {len(v) - 3} more" if len(v) > 3 else "")
            if isinstance(v, list) else ""),
    )[["rank", "system", "f_alpha", "precision", "recall", "reference_system", "reference_uir",
       "n_improved", "improved"]]
    st.subheader("Ranking", anchor=False)
    st.caption("From the bundle's systems.csv. Reference system: the system that improves this "
               f"one with the highest UIR (only when \u2265 {thr:.2f}).")
    st.dataframe(view, key="bl_table", hide_index=True, width="stretch",
                 height=min(36 * len(view) + 40, 460),
                 column_config={
                     "rank": st.column_config.NumberColumn("#", width=40),
                     "system": st.column_config.TextColumn("System", width=190),
                     "f_alpha": st.column_config.NumberColumn("F\u03b1", format="%.4f", width=70),
                     "precision": st.column_config.NumberColumn("P", format="%.3f", width=55),
                     "recall": st.column_config.NumberColumn("R", format="%.3f", width=55),
                     "reference_system": st.column_config.TextColumn("Reference system",
                                                                     width=190),
                     "reference_uir": st.column_config.TextColumn("its UIR", width=60),
                     "n_improved": st.column_config.NumberColumn("# impr.", width=60),
                     "improved": st.column_config.TextColumn("Improved systems", width="large"),
                 })

st.subheader("Ranking with tie groups", anchor=False)
with ui.guard("The stored ranking with tie groups"):
    order = b.tables["ranking_order"]
    n_groups = int(order["group"].max()) if len(order) else 0
    st.caption(f"From the bundle's ranking_order.csv and ranking_hasse.csv: {len(order)} systems "
               f"in {n_groups} tie group{'' if n_groups == 1 else 's'}. A system is above another "
               "only where it is a robust "
               f"improvement over it (UIR \u2265 {thr:.2f} and a concordant significant "
               f"improvement, {p.get('test')} test, {p.get('correction')} correction) or a chain "
               "of them leads down to it; cycles of UIR are merged into ties (docs/rankings.md).")
    # the table above the diagram, as on the campaign's Leaderboard: the diagram's labels are
    # laid out for the full width (dashboard/figures/ranking.py)
    gview = order.assign(row=range(1, len(order) + 1),
                         interval=[f"{lo}" if lo == hi else f"{lo}\u2013{hi}"
                                   for lo, hi in zip(order["rank_low"], order["rank_high"],
                                                     strict=True)])
    st.dataframe(gview[["row", "group", "system", "interval", "score", "n_above", "n_below"]],
                 key="bl_groups", hide_index=True, width="stretch",
                 height=min(36 * len(gview) + 40, 400),
                 column_config={
                     "row": st.column_config.NumberColumn("#", width=40),
                     "group": st.column_config.NumberColumn("Group", width=55),
                     "system": st.column_config.TextColumn("System", width=230),
                     "interval": st.column_config.TextColumn("Ranks", width=70),
                     "score": st.column_config.NumberColumn("F\u03b1", format="%.3f", width=60),
                     "n_above": st.column_config.NumberColumn("# above", width=65),
                     "n_below": st.column_config.NumberColumn("# below", width=65),
                 })
    ui.plot(hasse_figure(order, b.tables["ranking_hasse"], title="Order of robust improvements",
                         score_label=f"F\u03b1 ({alpha:.2f})"),
            key="bl_hasse", filename="hasse")
    st.caption("In a group too wide for names a number stands for the system (# in the table "
               "above); hover for the name.")
st.caption("The F\u03b1 curves and rank moves with \u03b1 need per-topic scores, which a bundle "
           "does not hold: open the campaign itself to see them (its path is on the **Data** "
           "page).")
