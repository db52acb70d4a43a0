"""Leaderboard: the ranking at alpha, reference systems, tie groups, rank moves and F_alpha
curves, of a live campaign or a reopened bundle (:class:`dashboard.data.view.ComparisonView`;
the F_alpha curves and rank moves need per-topic scores, which a bundle says it cannot serve)."""

from __future__ import annotations

import re

import streamlit as st

from dashboard import figures, ui
from dashboard.data import live, meta, view
from dashboard.figures import short
from dashboard.figures.pr_plane import pr_plane_figure
from dashboard.figures.ranking import COLLAPSE_AT, MANY_SYSTEMS, hasse_figure
from dashboard.figures.uncertainty import (
    RULE_LABELS,
    aggregation_figure,
    chart_systems,
    rank_intervals_figure,
)
from metrics.analyses.baselines import BASELINES
from metrics.reports.numbers import n_of

#: a measure at a relevance level (ir_measures' ``P(rel=2)@10``): name, level, cut-off
_LEVEL = re.compile(r"(\w+)\(rel=(\d+)\)(@\d+)?")


def _head(name: str) -> str:
    """A metric's name as a narrow column header: a relevance level written after the rest
    (``P(rel=2)@10`` as ``P@10≥2``, which the caption explains), then its first six characters
    and an ellipsis."""
    level = _LEVEL.fullmatch(name)
    if level:
        name = f"{level[1]}{level[3] or ''}\u2265{level[2]}"
    return name if len(name) <= 7 else name[:6] + "\u2026"


def _level_note(heads: tuple[str, str], names: tuple[str, str]) -> str:
    """The caption's words for the headers of measures at a relevance level (:func:`_head`)."""
    got = [(h, n, m[2]) for h, n in zip(heads, names, strict=True)
           if (m := _LEVEL.fullmatch(n)) and "\u2265" in h]
    if not got:
        return ""
    levels = " or ".join(dict.fromkeys(g[2] for g in got))
    return (f" {' and '.join(g[0] for g in got)}: {' and '.join(g[1] for g in got)}, where "
            f"documents of grade {levels} or more count as relevant.")


v = view.current()
sel, cfg = v.sel, v.settings
ui.header(
    "Leaderboard",
    f"{cfg.title}: who leads at \u03b1 = {cfg.alpha:.2f} on {cfg.precision} / {cfg.recall}, "
    f"and which systems does each one improve for every weighting of the two metrics "
    f"(UIR {cfg.improved_sign} {cfg.threshold:.2f})?",
)

first_chart = False
with ui.guard("The leaderboard"):
    # filled once the report is there (the chart below comes first); fixed-width cards in a
    # wrapping row, so that no value or name is cut at 1024 px
    cards = st.container(horizontal=True, wrap=True, gap="small")
    highlight = {cfg.a: "A", cfg.b: "B"}
    first_chart = not v.cannot("curves")
    if not first_chart:
        st.caption(str(v.cannot("curves")))
    else:
        curves = live.curves(v.table, cfg.average)
        ui.plot(figures.f_curves_figure(curves, cfg.precision, cfg.recall, cfg.alpha, highlight,
                                        cfg.average), key="lb_curves", sel=sel,
                filename="f_alpha_curves")

    board = v.leaderboard()
    n_topics = v.n_topics()
    is_base = (board["system"].isin(BASELINES) if sel is not None and sel.baselines
               else board["system"].isna())
    n_base = int(is_base.sum())
    cards.metric("Systems", f"{len(board) - n_base} + {n_base} baselines" if n_base else len(board),
                 help="Baselines (all-in-one, one-in-one, combined, random, ultra-shaped) are "
                      "ranked with the systems and marked \u201cbaseline\u201d in the table.",
                 width=2 * figures.CARD_WIDTH if n_base else figures.CARD_WIDTH)
    cards.metric("Topics" + (" (filtered)" if sel is not None and sel.bed_filter else ""),
                 n_topics,
                 width=figures.CARD_WIDTH)
    best = board.iloc[0]
    cards.metric(f"Best F\u03b1 at \u03b1 = {cfg.alpha:.2f}, {cfg.average}", f"{best['f']:.3f}",
                 delta=short(best["system"], 28), delta_color="off", delta_arrow="off",
                 help=f"{best['system']}: the highest F\u03b1, {cfg.average} average over the "
                      "topics (docs/measures.md §4)", width=2 * figures.CARD_WIDTH)
    cards.metric("With a reference system", int(board["reference_system"].notna().sum()),
                 help=f"Systems that another system improves with UIR {cfg.improved_sign} "
                      "threshold: "
                      "they could be replaced without losing on either metric.",
                 width=figures.CARD_WIDTH)


def _below() -> None:
    """The page below the F\u03b1 curves. The sections after the first read what it computes
    (the tie groups, the top N, the aggregation): when it fails, its error is the page's last
    word rather than the first of a cascade."""
    drawn = False
    with ui.guard("The leaderboard"):
        ui.plot(pr_plane_figure(board, cfg.precision, cfg.recall, cfg.alpha, highlight),
                key="lb_pr_plane", sel=sel, filename="precision_recall_plane")
        first, second = short(cfg.precision, 28), short(cfg.recall, 28)
        st.caption(f"Each system at its mean {first} and {second}; dotted: the points of "
                   f"equal F\u03b1 at \u03b1 = {cfg.alpha:.2f} (JAIR 2011 Figs 1 and 3). Where one "
                   f"system has the higher {first} and the other the higher {second}, the order "
                   "of their F\u03b1 depends on \u03b1: what UIR tests. "
                   + ("The curves are the F\u03b1 of the means; the macro F\u03b1 of the ranking "
                      "averages it per topic, so a point can sit off its curve."
                      if cfg.average == "macro" else ""))

        agg = v.aggregation()
        pareto = (set(agg.ranks.loc[agg.ranks["pareto_means"], "system"]) if agg is not None
                  else set())
        rows_shown = board.assign(
            role=[highlight.get(s, "") + (" baseline" if b else "") + (" \u25c6" if s in pareto
                                                                        else "")
                  for s, b in zip(board["system"], is_base, strict=True)],
            reference_system=board["reference_system"].map(
                lambda s: s if isinstance(s, str) else ""),
            # blank, not "None", where a system has no reference system
            reference_uir=board["reference_uir"].map(
                lambda v: "" if v is None or v != v else f"{v:.2f}"),
        )[["rank", "role", "system", "f", "precision", "recall", "reference_system",
           "reference_uir", "n_improved"]]
        # names cut in the middle to the width of their column (the grid would cut
        # "SVM_terms_jaccard_HAC_60%" at the right, losing the end that tells runs apart); the
        # whole names stay in the frame, in hidden columns, and in the Export page's CSV
        name_px, ref_px = (150 if n_base else 173), 160
        rows_shown = rows_shown.assign(
            name=rows_shown["system"].map(lambda s: short(s, ui.name_chars(name_px))),
            reference_name=rows_shown["reference_system"].map(
                lambda s: short(s, ui.name_chars(ref_px))))
        # the metrics' names cut to a narrow header; P / R where the cut names would be equal
        heads = (_head(cfg.precision), _head(cfg.recall))
        if heads[0] == heads[1]:
            pr_like = meta.words_of(cfg.precision, cfg.recall).pr_like
            heads = ("P", "R") if pr_like else ("1st", "2nd")
        st.subheader("Ranking", anchor=False)
        st.caption("\u25c6 Pareto-optimal on the means. "
                   "Reference system: the system that improves this one with the highest UIR "
                   f"(only when {cfg.improved_sign} the threshold). # impr.: how many systems "
                   f"this one improves with UIR {cfg.improved_sign} threshold ({cfg.profile} "
                   "profile; the UIR analysis page lists them). Select a row to make it system A."
                   + _level_note(heads, (cfg.precision, cfg.recall)))
        # column widths that add up to less than the page at 1024 px: no table scrolls sideways
        event = st.dataframe(
            rows_shown, key="lb_table", hide_index=True, width="stretch",
            height=ui.table_height(len(rows_shown), 460), on_select="rerun",
            selection_mode="single-row",
            column_order=["rank", "role", "name", "f", "precision", "recall", "reference_name",
                          "reference_uir", "n_improved"],
            column_config={
                "rank": st.column_config.NumberColumn("#", width=38),
                "role": st.column_config.TextColumn(
                    "", width=70 if n_base else 30,
                    help="A, B: the selected pair; \u25c6: Pareto-optimal on the metrics' means "
                         "(no system at least as good on every metric and better on one)"),
                "name": st.column_config.TextColumn("System", width=name_px),
                "f": st.column_config.NumberColumn("F\u03b1", format="%.3f", width=55,
                                                   help=f"F\u03b1 at \u03b1 = {cfg.alpha:.2f}, "
                                                        f"{cfg.average} average"),
                "precision": st.column_config.NumberColumn(
                    heads[0], format="%.3f", width=58,
                    help=f"mean {cfg.precision}"),
                "recall": st.column_config.NumberColumn(
                    heads[1], format="%.3f", width=58,
                    help=f"mean {cfg.recall}"),
                "reference_name": st.column_config.TextColumn("Reference system", width=ref_px),
                "reference_uir": st.column_config.TextColumn("its UIR", width=55,
                                                             help="UIR(reference, system)"),
                "n_improved": st.column_config.NumberColumn("# impr.", width=58,
                                                            help=(
                    "number of systems this one "
                    f"improves with UIR {cfg.improved_sign} threshold")),
            },
        )
        rows = event.selection.rows if event is not None else []
        if rows:
            chosen = str(rows_shown.iloc[rows[0]]["system"])
            if chosen != cfg.a and st.session_state.get("_lb_last") != chosen:
                st.session_state["_lb_last"] = chosen
                v.choose(chosen, cfg.a)
                st.rerun()

        st.subheader("Ranking with tie groups", anchor=False)
        tr = v.ranking()
        groups = tr.to_dataframe()
        n_groups = int(groups["group"].max()) if len(groups) else 0
        corr = "no correction" if cfg.correction == "none" else f"{cfg.correction} correction"
        rule = (f"a robust improvement: UIR {cfg.improved_sign} threshold and a concordant "
                f"significant improvement ({cfg.test}, {corr})" if tr.rule == "uir+concordant"
                else f"UIR {cfg.improved_sign} threshold (no significance classes for this table)")
        st.caption(
            f"A system is above another only where it is {rule}, or a chain of them leads down to "
            f"it; cycles of UIR are merged into ties (docs/rankings.md). {len(groups)} systems in "
            f"{n_groups} tie group{'' if n_groups == 1 else 's'}; the rank interval is every rank "
            "consistent with that order."
            + (f" Merged cycles: {len(tr.cycles)}." if tr.cycles else ""))
        if tr.rule == "uir+concordant":
            few = v.small_sample()
            if not few.can_be_significant:
                st.warning(few.sentence(), icon=":material/info:")
        # the table and the diagram one above the other: full names in the table and room for the
        # diagram's labels at 1024 px
        gview = groups.assign(
            row=range(1, len(groups) + 1),
            interval=[f"{lo}" if lo == hi else f"{lo}\u2013{hi}"
                      for lo, hi in zip(groups["rank_low"], groups["rank_high"], strict=True)],
        )[["row", "group", "system", "interval", "score", "n_above", "n_below"]]
        st.dataframe(gview, key="lb_groups", hide_index=True, width="stretch",
                     height=ui.table_height(len(gview), 400),
                     column_config={
                         "row": st.column_config.NumberColumn(
                             "#", width=40,
                             help="the number that labels this system in the diagram below "
                                  "when its group is too wide for names"),
                         "group": st.column_config.NumberColumn("Group", width=55),
                         "system": st.column_config.TextColumn("System", width=230),
                         "interval": st.column_config.TextColumn(
                             "Ranks", width=70, help="best\u2013worst rank consistent with the "
                                                     "order of robust improvements"),
                         "score": st.column_config.NumberColumn(
                             "F\u03b1", format="%.3f", width=60,
                             help="campaign F\u03b1, only to list systems within a group"),
                         "n_above": st.column_config.NumberColumn(
                             "# above", width=65, help="systems placed above this one"),
                         "n_below": st.column_config.NumberColumn(
                             "# below", width=65, help="systems placed below this one"),
                     })
        ui.plot(hasse_figure(groups, tr.hasse, title="Order of robust improvements",
                             score_label=f"F\u03b1 ({cfg.alpha:.2f})"),
                key="lb_hasse", sel=sel, filename="hasse")
        st.caption("One row per tie group, best on top; a line joins a system to one it "
                   "robustly improves with nothing between; diamonds: systems of a merged UIR "
                   "cycle. In a group too wide for names a number stands for the system (# in "
                   "the table above); "
                   f"a square stands for a whole group of more than {COLLAPSE_AT} systems (beyond "
                   f"{MANY_SYSTEMS} systems, of more than three), listed in the table above. Hover "
                   "for the names.")

        st.subheader("How ranks move with \u03b1", anchor=False)
        top = min(30, len(board))
        why = v.cannot("rank_moves")
        if why is not None:
            st.caption(why)
        else:
            # the controls above, the chart across the whole width: its labels need it at 1024 px
            c1, c2 = st.columns(2)
            alpha2 = c1.slider("Compare with \u03b1 =", 0.0, 1.0, 0.2 if cfg.alpha != 0.2 else 0.8,
                               0.01, key="alpha2", bind="query-params")
            top = c2.number_input("Show the top", 1, max(1, len(board)), min(30, len(board)),
                                  1 if len(board) < 10 else 5, key="top", bind="query-params",
                                  help="The top N systems at the first \u03b1, followed to their "
                                       "rank at the second (and A, B).")
            st.caption("Green solid lines climb at the second \u03b1, orange dashed lines fall. A "
                       "ranking that depends on \u03b1 is a comparison that depends on how the "
                       "metrics are weighed.")
            moves = live.rank_moves(v.table, cfg.alpha, alpha2, cfg.average)
            ui.plot(figures.rank_moves_figure(moves, cfg.alpha, alpha2, highlight, top=int(top)),
                    key="lb_moves", sel=sel, filename="rank_moves")
        drawn = True
    if not drawn:
        return

    st.subheader("How sure is the ranking?", anchor=False)
    with ui.guard("The rank confidence sets"):
        boot = v.bootstrap()
        if boot is None:
            st.caption("Turn on **Bootstrap intervals** in the sidebar for each system's rank "
                       "confidence set (docs/uncertainty.md)." if sel is not None else
                       "The bundle was written without `--bootstrap N`: it holds no rank "
                       "confidence sets (docs/uncertainty.md).")
        else:
            ci = boot.systems.merge(groups[["system", "rank_low", "rank_high"]], on="system")
            bp = boot.parameters["bootstrap"]
            ui.plot(rank_intervals_figure(ci, top=int(top), highlight=highlight,
                                          title="Rank confidence sets (95 %, all systems at once)"),
                    key="lb_rank_ci", sel=sel, filename="rank_confidence_sets")
            st.caption(f"Coloured bar: the ranks by F\u03b1 that {bp['n_resamples']} resamples of "
                       "the topics cannot exclude, for all systems together (studentized max-t "
                       "stepdown); the tick is the rank by F\u03b1; the thin grey bar is the rank "
                       "interval of the order of robust improvements above. Top "
                       f"{int(top)} systems and A, B.")

    st.subheader("Does the ranking depend on how the metrics are combined?", anchor=False)
    with ui.guard("The rankings under each aggregation rule"):
        if agg is None:
            ui.unavailable("The rankings under each aggregation rule", "This bundle was written "
                           "before they were part of it: rerun `unanimity compare --out`.",
                           plural=True)
            st.stop()
        n_top = min(int(top), 25)
        ui.plot(aggregation_figure(agg.ranks, top=n_top, highlight=highlight,
                                   title="Rank under each aggregation rule"),
                key="lb_aggregation", sel=sel, filename="aggregation_rules")
        tau = agg.tau
        valid = tau.dropna(subset=["kendall_tau"])
        worst = valid.loc[valid["kendall_tau"].idxmin()] if len(valid) else None
        n_robust = int(agg.flips["uir_robust"].sum())
        st.caption(
            f"One line per system (the top {n_top} by F\u03b1, and A, B; \u25c6 Pareto-optimal). "
            + ui.flips_sentence(len(agg.flips), n_robust)
            + (f" Least agreement: {RULE_LABELS.get(worst['rule_a'], worst['rule_a'])} vs "
               f"{RULE_LABELS.get(worst['rule_b'], worst['rule_b'])}, Kendall \u03c4 = "
               f"{worst['kendall_tau']:.2f}." if worst is not None else "")
            + (" \u03c4 is undefined (\u2013) where a rule ties every system shown."
               if tau["kendall_tau"].isna().any() else ""))
        labelled = tau.assign(rule_a=tau["rule_a"].map(RULE_LABELS),
                              rule_b=tau["rule_b"].map(RULE_LABELS))
        # an undefined tau (NaN) is drawn as the table's placeholder, a dash
        st.dataframe(labelled[["rule_a", "rule_b", "kendall_tau"]], key="lb_tau", hide_index=True,
                     width="stretch", height=ui.table_height(len(labelled), 220),
                     placeholder="\u2013",
                     column_config={"rule_a": st.column_config.TextColumn("Rule", width=120),
                                    "rule_b": st.column_config.TextColumn("vs rule", width=120),
                                    "kendall_tau": st.column_config.NumberColumn(
                                        "Kendall \u03c4", format="%.2f", width=90)})
        # the flips among the chart's systems: at 150 systems all of them are some 8,000 rows
        # (400 KB sent on every rerun) that nobody reads in a table this size
        shown = set(chart_systems(agg.ranks, n_top, highlight))
        flips = agg.flips[agg.flips["system_a"].astype(str).isin(shown)
                          & agg.flips["system_b"].astype(str).isin(shown)]
        st.dataframe(flips[["system_a", "system_b", "uir", "uir_robust"]], key="lb_flips",
                     hide_index=True, width="stretch",
                     height=ui.table_height(len(flips), 260),
                     column_config={
                         "system_a": st.column_config.TextColumn("A (first by F\u03b1)", width=170),
                         "system_b": st.column_config.TextColumn("B", width=170),
                         "uir": st.column_config.NumberColumn("UIR(A, B)", format="%.2f", width=70),
                         "uir_robust": st.column_config.CheckboxColumn(
                             "robust", width=60, help="UIR calls one of the two an improvement on "
                                                      "the other (threshold and profile above)")})
        st.caption(("The pairs that two rules order differently"
                    if len(flips) == len(agg.flips) else
                    f"Of the {n_of(len(agg.flips), 'pair')} that two rules order "
                    f"differently, the {len(flips):,} whose two systems are both on the chart")
                   + "; `unanimity compare` writes all of them with every rule's order to "
                   "`aggregation_flips.csv`.")


# a cold open draws the rest of the page once the browser shows the curves: drawn with them, all
# charts are drawn in one long task of the browser and the first is seen only with the last
if ui.below_first_chart(first_chart):
    _below()
