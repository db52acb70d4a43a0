"""Export: CSV of scores and pairs, LaTeX tables, a self-contained HTML report and every figure,
of a live campaign or a reopened bundle (:class:`dashboard.data.view.ComparisonView`): the
tables, the LaTeX and the report are written by the writers the campaign uses
(:func:`metrics.reports.comparison_latex.comparison_latex`, :mod:`dashboard.render`) from the
comparison's own numbers; what needs per-topic scores is left out of a bundle's, with the
reason."""

from __future__ import annotations

import re

import plotly.graph_objects as go
import streamlit as st

from dashboard import figures, ui
from dashboard.data import live, meta, view
from dashboard.figures.ranking import hasse_figure
from dashboard.figures.uncertainty import rank_intervals_figure
from dashboard.render import downloads, pair_view, report_html
from metrics.reports.latex import LATEX_TOP
from metrics.reports.numbers import n_of
from metrics.reports.pair_report import verdict_sentence

REPORT_TOP = 40  # leaderboard rows and UIR-matrix systems in the HTML report (A, B always kept)
READABLE = {"rank": "Rank", "system": "System", "f": "F\u03b1", "precision": "P",
            "recall": "R", "reference_system": "Reference system",
            "reference_uir": "UIR of the reference", "n_improved": "Systems improved"}

v = view.current()
sel, cfg = v.sel, v.settings
ui.header(
    "Export",
    "Take the numbers and the figures into a paper or a meeting: CSV, LaTeX, and one HTML file "
    "with interactive figures that opens without a server.",
)
st.markdown(ui.pair_caption(cfg))
st.caption("Single figures: use the camera icon of any chart's toolbar (PNG, or SVG: see "
           "\u201cChart export\u201d in the sidebar).")

slug = re.sub(r"[^A-Za-z0-9]+", "_", cfg.title).strip("_").lower() or "campaign"
# file names stay ASCII (the metric names of a score table may not be)
tag = re.sub(r"[^A-Za-z0-9_.-]+", "_", f"{slug}_{cfg.precision}_{cfg.recall}")
at_alpha = f"{tag}_alpha{cfg.alpha:.2f}"
board_file, ties_file = f"{at_alpha}_leaderboard.csv", f"{at_alpha}_ranking.csv"

st.subheader("CSV", anchor=False)
c1, c2, c3 = st.columns(3)
with c1, ui.guard("The score table"):
    if v.cannot("scores"):
        st.caption(str(v.cannot("scores")))
    else:
        st.download_button("Per-topic scores", downloads.scores_csv(v.table.frame),
                           file_name=f"{tag}_scores.csv", mime="text/csv", key="dl_scores",
                           icon=":material/table:", width="stretch", on_click="ignore")
        st.caption(f"`system, topic, metric, value`: {len(v.table.frame):,} rows.")
comp = None
with ui.guard("The comparison"):
    comp = v.comparison()
with c2, ui.guard("The pairs table"):
    if comp is not None:
        # written on the click only: the pairs grow with the square of the systems (360,000
        # rows at 600 systems took 15 s at every rerun of this page)
        pairs_of = comp
        st.download_button("All pairs", lambda: downloads.pairs_csv(pairs_of),
                           file_name=f"{tag}_pairs.csv", mime="text/csv", key="dl_pairs",
                           icon=":material/compare_arrows:", width="stretch",
                           on_click="ignore")
        st.caption(f"UIR, counts, parametric UIR, \u0394F, crossings, tests: {len(comp.pairs):,} "
                   "ordered pairs.")
with c3, ui.guard("The leaderboard"):
    board = v.leaderboard()
    st.download_button("Leaderboard", downloads.leaderboard_csv(board),
                       file_name=board_file, mime="text/csv",
                       key="dl_board", icon=":material/leaderboard:", width="stretch",
                       on_click="ignore")
    st.caption(f"Ranking at \u03b1 = {cfg.alpha:.2f} with reference systems.")
    st.download_button("Tie groups",
                       downloads.ties_csv(v.ranking()),
                       file_name=ties_file, mime="text/csv", key="dl_ties",
                       icon=":material/account_tree:", width="stretch", on_click="ignore",
                       help="system, rank_low, rank_high, group: the ranking.csv of "
                            "`unanimity compare --out` (docs/rankings.md)")

st.subheader("LaTeX", anchor=False)
with ui.guard("The LaTeX tables"):
    if comp is not None:
        n_sys = len(comp.systems)
        c1, c2 = st.columns([1, 3])
        top = int(c1.number_input(
            "Systems per table (top N)", 0, max(n_sys, 1), min(LATEX_TOP, n_sys),
            5, key="latex_top", bind="query-params",
            help="Rows of the systems and ranking tables: what a page holds (20 by default); "
                 "0 = every system. A cut table says "
                 "\u201cN of M systems shown; full table in\u201d the leaderboard or "
                 "tie-group CSV above."))
        latex = comp.to_latex(top=top or None, files=(board_file, ties_file))
        c2.caption("Systems by F\u03b1, the pairs with UIR "
                   f"{cfg.improved_sign} {cfg.threshold:.2f} and the "
                   "ranking with tie groups (booktabs). "
                   + (f"{min(top, n_sys)} of {n_sys} systems shown." if 0 < top < n_sys else
                      f"All {n_sys} systems shown."))
        st.download_button("LaTeX tables (.tex)", latex.encode(), file_name=f"{at_alpha}.tex",
                           mime="text/x-tex", key="dl_latex", icon=":material/functions:",
                           on_click="ignore")
        with st.expander("Preview"):
            # plain text: the highlighter reads "\%" as the start of a comment
            st.code(latex[:12000] + ("\n% \u2026" if len(latex) > 12000 else ""), language="text")

st.subheader("HTML report", anchor=False)
st.caption("The leaderboard, the pair A vs B (curves, UIR counts, per-topic view, tests) and the "
           "UIR analysis of the current selection, in one file.")


def _sections(comp) -> list[tuple]:
    """The report's sections: (title, note, table or figure or None); the figures drawn from
    per-topic scores only where the source holds them (a bundle's report says so instead)."""
    highlight = {cfg.a: "A", cfg.b: "B"}
    per_topic = v.cannot("curves") is None
    res = comp.pair(cfg.a, cfg.b)
    pair_tests = pair_view.tests_frame(res)
    order = board["system"].astype(str).tolist()
    top = order[:REPORT_TOP] + [s for s in order[REPORT_TOP:] if s in highlight]
    lb = board.head(REPORT_TOP) if len(board) > REPORT_TOP else board
    ties = v.ranking()
    boot = v.bootstrap()  # None unless the sidebar asks for it (or the bundle holds them)
    sets = boot.systems[["system", "rank_ci_low", "rank_ci_high"]] if boot is not None else None
    sections = [
        ("Leaderboard", f"Ranking by F\u03b1 at \u03b1 = {cfg.alpha:.2f}" + (
            f" (the top {REPORT_TOP} of {len(board)} systems; all in the CSV export)."
            if len(board) > REPORT_TOP else "."),
         lb[["rank", "system", "f", "precision", "recall", "reference_system",
             "reference_uir", "n_improved"]].rename(columns=READABLE)),
        ("F\u03b1 curves", "" if per_topic else str(v.cannot("curves")),
         figures.f_curves_figure(live.curves(v.table, cfg.average), cfg.precision, cfg.recall,
                                 cfg.alpha, highlight, cfg.average) if per_topic else None),
        ("Ranking with tie groups", report_html.tie_groups_note(ties, REPORT_TOP),
         report_html.tie_groups_frame(ties.to_dataframe(), REPORT_TOP, sets)),
        ("Order of robust improvements", "", hasse_figure(
            ties.to_dataframe(), ties.hasse, score_label=f"F\u03b1 ({cfg.alpha:.2f})")),
        (f"A = {cfg.a} vs B = {cfg.b}",
         f"UIR(A, B) = {res.uir:+.3f}, parametric UIR = {res.uir_param:+.3f}; "
         f"A \u2265\u2200 B on {n_of(res.n_a_better, 'topic')}, "
         f"B \u2265\u2200 A on {res.n_b_better}, tied {res.n_tied}, biased {res.n_biased}.",
         figures.pair_curves_figure(live.curves(v.table, cfg.average)[[cfg.a, cfg.b]], cfg.a,
                                    cfg.b, list(res.crossings), cfg.precision, cfg.recall,
                                    cfg.alpha, cfg.average) if per_topic else None),
        ("Topics by unanimous winner", "", figures.uir_counts_figure(
            res.n_a_better, res.n_tied, res.n_biased, res.n_b_better, cfg.a, cfg.b)),
        ("Per-topic view", "" if sel is not None else str(v.cannot("per_topic")),
         figures.pair_scatter_figure(
             live.pair_topic_frame(v.table, cfg.a, cfg.b), cfg.a, cfg.b, cfg.precision,
             cfg.recall, roles=(meta.pair_words(sel).first, meta.pair_words(sel).second))
         if sel is not None else None),
        ("Significance tests of the pair", f"Paired {res.test} test per metric, "
         f"{res.correction}-corrected across all pairs; pair class: {res.pair_class}.",
         pair_tests),
        ("UIR matrix", "", figures.uir_heatmap_figure(top, v.uir_matrix(top), cfg.threshold,
                                                       highlight, strict=cfg.strict_improved)),
    ]
    sections.append(("Robust improvements: UIR and parametric UIR",
                     f"Pairs with UIR {cfg.improved_sign} {cfg.threshold:.2f}, by UIR (the first "
                     f"{REPORT_TOP}; every pair in the pairs CSV). Parametric UIR: the probability "
                     "that a improves every metric minus that of the reverse, under a normal fit "
                     "of the per-topic differences (JAIR 2011 \u00a78).",
                     report_html.robust_pairs_frame((boot or comp).pairs, cfg.threshold,
                                                    REPORT_TOP, cfg.strict_improved)))
    if boot is not None:
        bp = boot.parameters["bootstrap"]
        ci = boot.systems.merge(ties.to_dataframe()[["system", "rank_low", "rank_high"]],
                                on="system")
        sections.append(("Rank confidence sets",
                         f"95 % for all systems at once, from {bp['n_resamples']} paired "
                         f"resamples of the topics (seed {bp['seed']}; docs/uncertainty.md); "
                         "grey: the rank interval of the order of robust improvements.",
                         rank_intervals_figure(ci, top=REPORT_TOP, highlight=highlight)))
    sections.append(("UIR-threshold study", "", figures.threshold_curve_figure(
        comp.threshold_curve, cfg.threshold, {
            "pairs": "pairs with UIR \u2265 t", "concordant": "concordant",
            "opposite": "opposite", "beats_all_alpha": "F\u03b1(a) > F\u03b1(b) \u2200\u03b1",
            "f_contradicts": "F\u03b1(a) < F\u03b1(b) although UIR > 0"})))
    dfu = comp.delta_f_vs_uir
    sections.append(("\u0394F vs UIR", "", figures.delta_f_uir_figure(
        dfu.points, cfg.threshold, cfg.precision, cfg.recall, cfg.alpha,
        dfu.pearson_r, highlight_pair=(cfg.a, cfg.b), strict=cfg.strict_improved,
        average=cfg.average)))
    return sections


def _report(comp) -> str:
    res = comp.pair(cfg.a, cfg.b)
    sections = _sections(comp)
    params = {
        "campaign": cfg.title, "metric pair": f"{cfg.precision} / {cfg.recall}",
        "\u03b1": f"{cfg.alpha:.2f}", "UIR threshold": f"{cfg.threshold:.2f}",
        "averaging": cfg.average,
        "test": cfg.test, "correction": cfg.correction, "profile": cfg.profile,
        **({"test beds": ", ".join(sel.bed_filter) if sel.bed_filter else "all",
            "baselines": "yes" if sel.baselines else "no"} if sel is not None else {}),
        "system A": cfg.a, "system B": cfg.b,
    }
    return report_html.build_report(f"Unanimity report \u2014 {cfg.title}",
                                     f"{cfg.a} vs {cfg.b} on {cfg.precision} / {cfg.recall}",
                                     params, sections,
                                     verdict=verdict_sentence(res))


with ui.guard("The HTML report"):
    if comp is not None and st.button("Build the HTML report", key="build_report",
                                      icon=":material/description:"):
        with st.spinner("Rendering the figures\u2026"):
            st.session_state["_report_html"] = ((sel, cfg), _report(comp))
    built = st.session_state.get("_report_html")
    if built is not None and built[0] == (sel, cfg):
        html_text = built[1]
        st.download_button("Download the report (HTML)", html_text.encode(),
                           file_name=f"{tag}_report.html", mime="text/html", key="dl_report",
                           icon=":material/download:", type="primary", on_click="ignore")
        st.caption(f"{len(html_text) / 1e6:.1f} MB, plotly.js included: opens offline.")
    elif built is not None:
        st.caption("The selection changed since the report was built: build it again.")


st.subheader("All figures", anchor=False)
with ui.guard("The figures"):
    if comp is not None:
        figs_of = comp
        st.download_button(
            "All figures (PNG + SVG, zip)",
            lambda: downloads.figures_zip([(title, obj) for title, _, obj in _sections(figs_of)
                                           if isinstance(obj, go.Figure)]),
            file_name=f"{at_alpha}_figures.zip", mime="application/zip", key="dl_figures",
            icon=":material/photo_library:", on_click="ignore")
        st.caption("The figures of the HTML report (Leaderboard, the pair A vs B, UIR analysis), "
                   "each as PNG at twice the size and as SVG, drawn on the click.")
