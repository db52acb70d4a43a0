"""UIR analysis: the UIR matrix, the threshold study, Delta F vs UIR, the weakest metric,
reference systems and the cross-test-bed prediction, of a live campaign or a reopened bundle
(:class:`dashboard.data.view.ComparisonView`)."""

from __future__ import annotations

import pandas as pd
import streamlit as st

from dashboard import figures, ui
from dashboard.data import view

v = view.current()
sel, cfg = v.sel, v.settings
ui.header(
    "UIR analysis",
    f"{cfg.title}, across all pairs of systems: which improvements are robust to the weighting of "
    f"{cfg.precision} and {cfg.recall}, and how far does F\u03b1 agree with UIR?",
)

highlight = {cfg.a: "A", cfg.b: "B"}

comp = None
with ui.guard("The comparison"):
    comp = v.comparison()

with ui.guard("The UIR matrix"):
    order = v.leaderboard()["system"].astype(str).tolist()
    n_all = len(order)
    top = n_all
    if n_all > 20:
        top = int(st.columns([1, 3])[0].number_input(
            "Systems in the matrix: the top", 2, n_all, min(40, n_all), 5, key="mtop",
            bind="query-params", help=f"The best N of the {n_all} systems at \u03b1 = "
                                      f"{cfg.alpha:.2f}, plus A and B; every row keeps its "
                                      f"label and dots up to {figures.MATRIX_LABELLED}."))
    shown = [s for k, s in enumerate(order) if k < top or s in highlight]
    U = v.uir_matrix(shown)
    ui.plot(figures.uir_heatmap_figure(shown, U, cfg.threshold, highlight,
                                       strict=cfg.strict_improved), key="uir_heatmap",
            sel=sel, filename="uir_matrix")
    st.caption(("" if len(shown) == n_all else f"{len(shown)} of {n_all} systems (the top "
                f"{top} and A, B). ") +
               "Rows and columns in F\u03b1 rank order (best first); blue: the row system "
               "improves the column system on more topics than the reverse. UIR is not "
               "transitive, so it is never used to sort systems.")

if comp is not None:
    # one chart per row: each keeps its legend and axis titles whole at 1024 px
    with ui.guard("The threshold curve"):
        series = {
            "pairs": "pairs with UIR \u2265 t (of all pairs)",
            "concordant": "significant, concordant improvement",
            "opposite": "significant, opposite metrics",
            "beats_all_alpha": "F\u03b1(a) > F\u03b1(b) for every \u03b1",
            "f_contradicts": f"F\u03b1(a) < F\u03b1(b) although UIR > 0 (\u03b1 = {cfg.alpha:.2f})",
        }
        ui.plot(figures.threshold_curve_figure(comp.threshold_curve, cfg.threshold, series),
                key="uir_threshold", sel=sel, filename="uir_threshold_curve")
        row = comp.threshold_curve.iloc[
            (comp.threshold_curve["threshold"] - cfg.threshold).abs().argsort()[:1]].iloc[0]
        if row["pairs"] > 0:
            st.caption(
                f"At t = {cfg.threshold:.2f}: {row['pairs']:.0%} of the pairs pass; among them "
                f"{row['concordant']:.0%} are significant concordant improvements, "
                f"{row['opposite']:.0%} opposite, {row['beats_all_alpha']:.0%} win for every "
                f"\u03b1 and {row['f_contradicts']:.0%} have a lower F\u03b1.")
        else:
            st.caption(f"At t = {cfg.threshold:.2f} no pair passes: no system improves another "
                       "on enough topics for every weighting of the metrics.")
    with ui.guard("\u0394F vs UIR"):
        dfu = comp.delta_f_vs_uir
        pts = dfu.points
        ev = ui.plot(figures.delta_f_uir_figure(pts, cfg.threshold, cfg.precision, cfg.recall,
                                                cfg.alpha, dfu.pearson_r,
                                                highlight_pair=(cfg.a, cfg.b),
                                                strict=cfg.strict_improved,
                                                average=cfg.average),
                     key="uir_dfu", sel=sel, filename="delta_f_vs_uir", on_select="rerun",
                     selection_mode="points")
        st.caption("One point per pair, a = the system with the higher F\u03b1. "
                   "**Click a point to open that pair** in *Compare two systems*.")
        chosen = None
        for p in (ev.selection.points if ev is not None and ev.selection else []) or []:
            cd = p.get("customdata")
            if cd and len(cd) >= 2:
                chosen = (str(cd[0]), str(cd[1]))
                break
        if chosen and chosen != st.session_state.get("_uir_last_click"):
            st.session_state["_uir_last_click"] = chosen
            v.choose(chosen[0], chosen[1])
            # the sidebar's widgets are bound to the address and write it again on the next run;
            # a plain switch would clear the address, which Streamlit refuses for bound values
            st.switch_page("views/compare.py", query_params={})

    with ui.guard("The weakest-metric analysis"):
        wm = comp.weakest_metric
        wp = wm.points.rename(columns={"weakest_delta": "weakest"})
        names = list(comp.uir_metrics or (cfg.precision, cfg.recall))
        if wp.empty:
            st.caption("**Weakest-metric improvement vs UIR**: no pair's mean difference "
                       "improves every metric, so there is nothing to plot.")
        else:
            ui.plot(figures.weakest_metric_figure(wp, names, wm.pearson_r, system=cfg.a),
                    key="uir_weakest", sel=sel, filename="weakest_metric_vs_uir")
            st.caption("Pairs whose mean difference improves every metric: the smallest of "
                       "those improvements against UIR. UIR grows with the weakest improvement, "
                       "F\u03b1 need not.")
    with st.expander("How to read these figures"):
        st.markdown(
            "- **Threshold study**: a good UIR threshold accepts a fair share of pairs while "
            "almost all of them are significant, concordant improvements (the 0.25 of "
            "Amig\u00f3 et al.).\n"
            "- **\u0394F vs UIR**: a large \u0394F with a low UIR is an improvement that "
            "depends on the weighting of the metrics.\n"
            "- **Weakest metric**: UIR rewards pairs whose *smaller* improvement is large.")
    st.subheader("Reference systems", anchor=False)
    st.caption(f"UIR {cfg.improved_sign} {cfg.threshold:.2f} ({cfg.profile} profile), as in "
               "Table 5 of the WePS-2 UIR paper: the "
               "systems each one improves, and the system that improves it most (S1, S2, \u2026 "
               "number the systems by F\u03b1 rank).")
    with ui.guard("The reference-system table"):
        board = v.leaderboard()
        short_names = {s: f"S{i + 1}" for i, s in enumerate(board["system"])}
        imp_col = f"improved systems (UIR {cfg.improved_sign} t)"
        ref_view = pd.DataFrame({
            "id": board["system"].map(short_names),
            "system": board["system"],
            "F\u03b1": board["f"],
            imp_col: board["improved_systems"].map(
                lambda v: (" ".join(str(short_names.get(s, s)) for s in v) if isinstance(v, list)
                           else "")),
            "reference system": board["reference_system"].map(
                lambda s: short_names.get(s, "") if isinstance(s, str) else ""),
            "UIR of the reference": board["reference_uir"].map(
                lambda v: "" if v is None or v != v else f"{v:.2f}"),  # blank as on the Leaderboard
        })
        st.dataframe(ref_view, hide_index=True, width="stretch",
                     height=ui.table_height(len(ref_view), 520), key="uir_refs",
                     # widths that add up to the page's width at 1024 px (no hidden column)
                     column_config={
                         "id": st.column_config.TextColumn(width=45),
                         "system": st.column_config.TextColumn(width=190),
                         "F\u03b1": st.column_config.NumberColumn(format="%.3f", width=55),
                         imp_col: st.column_config.TextColumn(width=150),
                         "reference system": st.column_config.TextColumn(
                             "reference", width=75, help="the system that improves this one "
                                                         "with the highest UIR"),
                         "UIR of the reference": st.column_config.TextColumn(
                             "its UIR", width=55, help="UIR(reference, system)"),
                     })
    cross = comp.cross_testbed
    if cross is not None and v.sel is None:  # a live campaign has it on the Test beds page
        st.subheader("Cross-test-bed prediction", anchor=False)
        st.dataframe(cross, hide_index=True, width="stretch", height=300, key="uir_cross")
        st.caption("How well UIR, parametric UIR and \u0394F on one test bed predict the pairs "
                   "that hold on all (the bundle's cross_testbed.csv).")
