"""What the Compare page shows about a pair, built from the report's row only.

Pure functions (no Streamlit): they turn a :class:`metrics.reports.pair_report.PairReport` into the
page's summary cards, counts caption and per-metric table. The page renders their output
as is, so a test can check, for every ordered pair, that the page says what the report says.
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Literal

import pandas as pd

from metrics.comparison.effect_size import PairedEffect
from metrics.comparison.profiles import improves_symbol
from metrics.reports.numbers import format_p, n_of, signed, signed_uir
from metrics.reports.pair_report import PairReport

__all__ = ["Card", "summary_cards", "counts_caption", "tests_frame", "tests_display",
           "tests_caption",
           "VERDICT_LABELS", "DELTA_COLUMN", "CI_COLUMN"]

#: How the page words the report's per-metric verdicts (A is the first system of the pair).
VERDICT_LABELS = {"improves": "A better", "worsens": "B better",
                  "no significant difference": "not significant"}
DELTA_COLUMN = "mean oriented \u0394 (A\u2212B)"
CI_COLUMN = "95% t interval"



#: The colours ``st.metric`` takes for its delta.
DeltaColor = Literal["normal", "inverse", "off", "red", "orange", "yellow", "green", "blue",
                     "violet", "gray", "grey", "primary"]


@dataclass(frozen=True)
class Card:
    """One ``st.metric`` of the summary row."""

    label: str
    value: str
    delta: str | None = None
    color: DeltaColor = "off"
    help: str | None = None


def summary_cards(rep: PairReport) -> list[Card]:
    """F_alpha and rank of A and B, UIR with its verdict, parametric UIR, better for every alpha."""
    verdict = {"a": "A improves B", "b": "B improves A"}.get(rep.uir_verdict or "", "not robust")
    colors: dict[str, DeltaColor] = {"a": "blue", "b": "orange"}
    color = colors.get(rep.uir_verdict or "", "gray")
    return [
        Card(f"F\u03b1(A) at \u03b1 = {rep.alpha:.2f}", f"{rep.f_a:.3f}", f"rank {rep.rank_a}",
             help=rep.system_a),
        Card(f"F\u03b1(B) at \u03b1 = {rep.alpha:.2f}", f"{rep.f_b:.3f}", f"rank {rep.rank_b}",
             help=rep.system_b),
        Card("UIR(A, B)", signed_uir(rep.uir, rep.threshold),
             f"{verdict} (t = {rep.threshold:.2f})", color,
             help="(|A \u2265\u2200 B| \u2212 |B \u2265\u2200 A|) / |topics|, in [-1, 1]. "
                  f"Robust when |UIR| {improves_symbol(rep.strict)} the threshold "
                  "(docs/measures.md, \u201cUIR\u201d)."),
        Card("Parametric UIR", signed(rep.uir_param, 2),
             help="P(all \u0394 \u2265 0) \u2212 P(all \u0394 \u2264 0) under a normal fit "
                  "of the per-topic differences (JAIR 2011 \u00a78)."),
        Card("Better for every \u03b1",
             {"a": "A", "b": "B"}.get(rep.better_for_every_alpha or "", "neither"),
             help="F\u03b1(A) > F\u03b1(B) for every \u03b1 in [0, 1] (exact), or the reverse."),
    ]


def counts_caption(rep: PairReport) -> str:
    """The sentence under the counts chart."""
    return (f"**A \u2265\u2200 B** on {n_of(rep.n_a_better, 'topic')}, **B \u2265\u2200 A** on "
            f"{rep.n_b_better}, tied on every metric on {rep.n_tied}, metric-biased (the metrics "
            f"disagree) on {rep.n_biased}.")


def corrected_column(rep: PairReport) -> str:
    """The header of the corrected p-values: ``p (holm)``, ``p (bh)``, ``p (bonferroni)``, or
    ``p (no correction)``."""
    return f"p ({'no correction' if rep.correction == 'none' else rep.correction})"


def tests_frame(rep: PairReport) -> pd.DataFrame:
    """One row per metric: oriented mean difference, raw and corrected p-values, topics used and
    the report's verdict (empty without a test)."""
    rows = [{
        "metric": m.metric,
        DELTA_COLUMN: m.delta,
        "p": m.p_raw,
        corrected_column(rep): m.p_corrected,
        "topics": m.n,
        "verdict": VERDICT_LABELS.get(m.verdict, "") if m.verdict is not None else "",
    } for m in rep.metrics]
    return pd.DataFrame(rows, columns=["metric", DELTA_COLUMN, "p", corrected_column(rep),
                                       "topics", "verdict"])


def tests_display(rep: PairReport, effects: Sequence[PairedEffect] = ()) -> pd.DataFrame:
    """:func:`tests_frame` with its p-values printed as every table prints them
    (:func:`metrics.reports.numbers.format_p`) and, given the pair's ``effects``
    (:func:`metrics.comparison.effect_size.pair_effects`, same metrics), the t interval of each
    mean difference and Cohen's d_z next to it."""
    tv = tests_frame(rep)
    # at the four decimals shown, a negative zero made positive (as
    # metrics.reports.numbers.signed prints differences): a tie reads "+0.0000", not "-0.0000"
    tv[DELTA_COLUMN] = tv[DELTA_COLUMN].round(4) + 0.0
    for col in ("p", corrected_column(rep)):
        tv[col] = tv[col].map(format_p)
    if effects:
        by = {e.metric: e for e in effects}
        ci = [by.get(m) for m in tv["metric"]]
        tv.insert(2, CI_COLUMN, ["" if e is None or math.isnan(e.low)
                                 else f"[{signed(e.low)}, {signed(e.high)}]" for e in ci])
        tv.insert(3, "d_z", [math.nan if e is None else round(e.dz, 2) + 0.0 for e in ci])
    return tv


#: What each pair class means, said under the tests of a pair of that class only.
_CLASS_NOTES = {
    "concordant": "A improves B significantly on some metric and is significantly worse on "
                  "none: a concordant improvement.",
    "opposite": "A significant gain on one metric with a significant loss on another is what "
                "UIR flags as not robust.",
    "none": "No metric differs significantly: the tie groups do not separate A and B on this "
            "pair alone.",
    "worsening": "A is significantly worse on some metric and significantly better on none: a "
                 "concordant worsening (B improves A).",
}


def tests_caption(rep: PairReport) -> str:
    """The sentence under the per-metric tests: the test, how many metrics differ, the pair
    class and what that class (and only that one) means."""
    sig = {"improves", "worsens"}
    n_sig = sum(m.verdict in sig for m in rep.metrics)
    n = len(rep.metrics)
    metrics = "1 metric differs" if n_sig == 1 else f"{n_sig} metrics differ"
    return (f"Paired {rep.test} test over topics (change it under \u201cSignificance tests\u201d "
            f"in the sidebar), p < {rep.level:g} "
            + ("without correction" if rep.correction == "none"
               else f"after {rep.correction} correction across all pairs")
            + f": {metrics} significantly (of {n}); pair class: "
            f"**{rep.pair_class or 'n/a'}**. " + _CLASS_NOTES.get(rep.pair_class or "", ""))
