"""The LaTeX tables of a comparison report, written from what a live comparison
(:class:`~metrics.reports.comparison_report.CampaignComparison`) and a reopened bundle
(:class:`~metrics.reports.bundle.Bundle`) both provide: one writer, one set of numbers."""

from __future__ import annotations

import math

import pandas as pd

from metrics.comparison.profiles import profile_of
from metrics.comparison.reference import robust_pairs
from metrics.reports.latex import LATEX_TOP, latex_escape, shown_note

__all__ = ["comparison_latex"]


def _fmt(v, digits: int = 3) -> str:
    if v is None or (isinstance(v, float) and math.isnan(v)):
        return "--"
    return f"{v:.{digits}f}"


def comparison_latex(view, max_pairs: int | None = 40, level: float = 0.05,
                     top: int | None = LATEX_TOP, ranking: bool = True,
                     files: tuple[str, str] = ("systems.csv", "ranking.csv")) -> str:
    """The LaTeX report of a comparison: ``view`` is a
    :class:`~metrics.reports.comparison_report.CampaignComparison` or a reopened
    :class:`~metrics.reports.bundle.Bundle` (both give ``parameters``, ``systems``, ``pairs``,
    ``uir_metrics`` and ``ranking()``), so a stored comparison is written by the same code.

    Booktabs tables: systems by rank (F, metric means, reference system), the pairs with
    UIR >= threshold (UIR, parametric UIR, Delta F and the per-metric mean differences marked
    ``*`` for p < ``level`` and ``**`` for p < ``level`` / 5, corrected p-values) and, with
    ``ranking``, the ranking with tie groups
    (:meth:`metrics.comparison.tie_ranking.TieRanking.to_latex`,
    docs/rankings.md). Needs ``\\usepackage{booktabs}``.

    ``top`` keeps the systems table and the ranking table to a page: their first ``top`` rows
    and the note "N of M systems shown; full table in systems.csv" (``ranking.csv``); None
    writes every row. ``files`` names the full systems and ranking tables in those notes
    (the dashboard's downloads carry the campaign, the metric pair and alpha in their names).
    """
    p = view.parameters
    alpha = p["alpha"]
    thr = p["threshold"]
    sign = ">" if profile_of(p).strict_improved else r"\geq"  # the profile's rule
    board = view.systems.sort_values("rank", kind="stable")
    shown_sys = board if top is None else board.head(int(top))
    lines = [
        "% Unanimity comparison: " + latex_escape(f"{p['precision']} / {p['recall']}"),
        r"\begin{table}[ht]", r"\centering", r"\small",
        r"\begin{tabular}{rlrrrlr}", r"\toprule",
        rf"Rank & System & $F_{{{alpha:g}}}$ & {latex_escape(p['precision'])} & "
        rf"{latex_escape(p['recall'])} & Reference system & UIR \\",
        r"\midrule",
    ]
    for r in shown_sys.itertuples(index=False):
        ref = "--" if pd.isna(r.reference_system) else latex_escape(r.reference_system)
        lines.append(
            f"{r.rank} & {latex_escape(r.system)} & {_fmt(r.f_alpha)} & {_fmt(r.precision)} & "
            f"{_fmt(r.recall)} & {ref} & {_fmt(r.reference_uir, 2)} \\\\"
        )
    cut = len(shown_sys) < len(board)
    lines += [r"\bottomrule", r"\end{tabular}",
              rf"\caption{{Systems ranked by $F_{{{alpha:g}}}$; reference system: the system "
              r"with the "
              rf"highest UIR over it, when that UIR ${sign} {thr:g}$."
              + (" " + latex_escape(shown_note(len(shown_sys), len(board), files[0]))
                 if cut else "")
              + "}", r"\end{table}", ""]
    metrics = list(view.uir_metrics)
    robust = robust_pairs(view.pairs, float(p["threshold"]), profile_of(p).strict_improved)
    shown = robust if max_pairs is None else robust.head(max_pairs)
    cols = "ll" + "r" * (3 + len(metrics)) + "c"
    head = [r"$a$", r"$b$", "UIR", r"UIR$_{\mathrm{param}}$", r"$\Delta F$"]
    head += [r"$\Delta$ " + latex_escape(m) for m in metrics] + [r"$\forall\alpha$"]
    lines += [r"\begin{table}[ht]", r"\centering", r"\small", rf"\begin{{tabular}}{{{cols}}}",
              r"\toprule", " & ".join(head) + r" \\", r"\midrule"]
    for r in shown.to_dict(orient="records"):
        cells = [latex_escape(r["system_a"]), latex_escape(r["system_b"]), _fmt(r["uir"], 2),
                 _fmt(r["uir_param"], 2), _fmt(r["delta_f"])]
        for m in metrics:
            pv = r.get(f"p_{m}")
            mark = ""
            if pv is not None and not (isinstance(pv, float) and math.isnan(pv)):
                mark = "**" if pv < level / 5 else ("*" if pv < level else "")
            d = r.get(f"delta_{m}")
            cells.append(_fmt(d) + (f"$^{{{mark}}}$" if mark else ""))
        cells.append(r"\checkmark" if r["beats_all_alpha"] else "")
        lines.append(" & ".join(cells) + r" \\")
    if len(shown) == 0:
        lines.append(rf"\multicolumn{{{len(head)}}}{{c}}"
                     rf"{{no pair with UIR ${sign} {thr:g}$}} \\")
    test = p.get("test", "none")
    corr = p.get("correction", "none")
    note = (f"{test} test, {corr} correction: $^{{*}}$ $p<{level:g}$, "
            f"$^{{**}}$ $p<{level / 5:g}$"
            if test != "none" else "no significance test")
    more = ("" if max_pairs is None or len(robust) <= max_pairs
            else f" (first {max_pairs} of {len(robust)})")
    lines += [r"\bottomrule", r"\end{tabular}",
              rf"\caption{{Pairs with UIR ${sign} {thr:g}${latex_escape(more)}; {note}; "
              r"$\forall\alpha$: $F_\alpha(a) > F_\alpha(b)$ for every $\alpha$.}",
              r"\end{table}", ""]
    if ranking:
        lines.append(view.ranking().to_latex(top=top, csv_name=files[1]))
    return "\n".join(lines)
