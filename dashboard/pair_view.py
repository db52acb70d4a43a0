"""What the Compare page shows about a pair, built from the report's row only.

Pure functions (no Streamlit): they turn a :class:`metrics.reports.pair_report.PairReport` into the
page's summary cards, counts caption and per-metric table. The page renders their output
as is, so a test can check, for every ordered pair, that the page says what the report says.
"""

from __future__ import annotations

import math
from dataclasses import dataclass
from typing import Literal

import pandas as pd

from metrics.reports.pair_report import PairReport

__all__ = ["Card", "summary_cards", "counts_caption", "tests_frame", "VERDICT_LABELS",
           "DELTA_COLUMN"]

#: How the page words the report's per-metric verdicts (A is the first system of the pair).
VERDICT_LABELS = {"improves": "A better", "worsens": "B better",
                  "no significant difference": "not significant"}
DELTA_COLUMN = "mean oriented \u0394 (A\u2212B)"



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


def _signed(v: float, digits: int = 2) -> str:
    return "n/a" if v is None or math.isnan(v) else f"{v:+.{digits}f}"


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
        Card("UIR(A, B)", _signed(rep.uir), f"{verdict} (t = {rep.threshold:.2f})", color,
             help="(|A \u2265\u2200 B| \u2212 |B \u2265\u2200 A|) / |topics|, in [-1, 1]. "
                  f"Robust when |UIR| {'>' if rep.strict else chr(0x2265)} the threshold "
                  "(docs/measures.md, \u201cUIR\u201d)."),
        Card("Parametric UIR", _signed(rep.uir_param),
             help="P(all \u0394 \u2265 0) \u2212 P(all \u0394 \u2264 0) under a normal fit "
                  "of the per-topic differences (JAIR 2011 \u00a78)."),
        Card("Better for every \u03b1",
             {"a": "A", "b": "B"}.get(rep.better_for_every_alpha or "", "neither"),
             help="F\u03b1(A) > F\u03b1(B) for every \u03b1 in [0, 1] (exact), or the reverse."),
    ]


def counts_caption(rep: PairReport) -> str:
    """The sentence under the counts chart."""
    return (f"**A \u2265\u2200 B** on {rep.n_a_better} topics, **B \u2265\u2200 A** on "
            f"{rep.n_b_better}, tied on every metric on {rep.n_tied}, metric-biased (the metrics "
            f"disagree) on {rep.n_biased}.")


def tests_frame(rep: PairReport) -> pd.DataFrame:
    """One row per metric: oriented mean difference, raw and corrected p-values, topics used and
    the report's verdict (empty without a test)."""
    rows = [{
        "metric": m.metric,
        DELTA_COLUMN: m.delta,
        "p": m.p_raw,
        f"p ({rep.correction})": m.p_corrected,
        "topics": m.n,
        "verdict": VERDICT_LABELS.get(m.verdict, "") if m.verdict is not None else "",
    } for m in rep.metrics]
    return pd.DataFrame(rows, columns=["metric", DELTA_COLUMN, "p", f"p ({rep.correction})",
                                       "topics", "verdict"])
