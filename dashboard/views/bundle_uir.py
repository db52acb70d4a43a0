"""Bundle UIR analysis: the stored UIR matrix (the pairs table laid out by rank), UIR-threshold
curve, Delta F vs UIR, weakest-metric analysis and cross-test-bed prediction; nothing
recomputed."""

from __future__ import annotations

import numpy as np
import streamlit as st

from dashboard import bundle_app, figures, ui

src, b = bundle_app.opened()
p = b.parameters
alpha, thr = float(p["alpha"]), float(p["threshold"])
summary = b.json.get("summary", {})
ui.header("UIR analysis", f"{bundle_app.title(src)}: which improvements are robust to the "
                          f"weighting of {p['precision']} and {p['recall']}, and how far does "
                          "F\u03b1 agree with UIR?")

with ui.guard("The stored UIR matrix"):
    order = b.systems.sort_values("rank", kind="stable")["system"].astype(str).tolist()
    top = len(order)
    if len(order) > 20:
        top = int(st.columns([1, 3])[0].number_input(
            "Systems in the matrix: the top", 2, len(order), min(40, len(order)), 5, key="bmtop"))
    shown = order[:top]
    # a layout of the stored UIR(a, b) column, not a computation: rows a, columns b
    U = (b.pairs.pivot(index="system_a", columns="system_b", values="uir")
         .reindex(index=shown, columns=shown).to_numpy(dtype=np.float64))
    ui.plot(figures.uir_heatmap_figure(shown, U, thr), key="bu_heatmap", filename="uir_matrix")
    st.caption(("" if top == len(order) else f"The top {top} of {len(order)} systems. ")
               + "UIR(row, column) from the bundle's pairs.csv, systems in F\u03b1 rank order.")

c1, c2 = st.columns(2, gap="medium")
with c1, ui.guard("The stored threshold curve"):
    series = {"pairs": "pairs with UIR \u2265 t (of all pairs)",
              "concordant": "significant, concordant improvement",
              "opposite": "significant, opposite metrics",
              "beats_all_alpha": "F\u03b1(a) > F\u03b1(b) for every \u03b1",
              "f_contradicts": f"F\u03b1(a) < F\u03b1(b) although UIR > 0 (\u03b1 = {alpha:.2f})"}
    ui.plot(figures.threshold_curve_figure(b.tables["threshold_curve"], thr, series),
            key="bu_threshold", filename="uir_threshold_curve")
with c2, ui.guard("The stored \u0394F vs UIR"):
    ui.plot(figures.delta_f_uir_figure(b.tables["delta_f_vs_uir"], thr, p["precision"],
                                       p["recall"], alpha,
                                       summary.get("delta_f_vs_uir_pearson_r")),
            key="bu_dfu", filename="delta_f_vs_uir")

c1, c2 = st.columns(2, gap="medium")
with c1, ui.guard("The stored weakest-metric analysis"):
    wp = b.tables["weakest_metric"].rename(columns={"weakest_delta": "weakest"})
    ui.plot(figures.weakest_metric_figure(wp, list(b.uir_metrics),
                                          summary.get("weakest_metric_pearson_r")),
            key="bu_weakest", filename="weakest_metric_vs_uir")
with c2:
    cross = b.tables.get("cross_testbed")
    st.markdown("**Cross-test-bed prediction**")
    if cross is None:
        st.caption("The campaign had fewer than two test beds: no cross-test-bed prediction "
                   "was stored.")
    else:
        st.dataframe(cross, hide_index=True, width="stretch", height=300, key="bu_cross")
        st.caption("How well UIR, parametric UIR and \u0394F on one test bed predict the pairs "
                   "that hold on all (the bundle's cross_testbed.csv). Rankings per test bed "
                   "need per-topic scores: open the campaign for them.")
