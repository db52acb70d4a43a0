"""A self-contained HTML report of the current selection: interactive figures, no server.

The first figure embeds plotly.js inline (``include_plotlyjs=True``); the others reuse it, so the
file opens offline in any browser and can be mailed or dropped into a meeting's folder.
"""

from __future__ import annotations

import datetime as _dt
import html
from collections.abc import Sequence

import pandas as pd
import plotly.graph_objects as go

from metrics.comparison.reference import robust_pairs
from metrics.reports.numbers import format_p

__all__ = ["build_report", "tie_groups_frame", "tie_groups_note", "robust_pairs_frame"]

_CSS = """
body{font-family:Inter,'Source Sans Pro',Arial,sans-serif;margin:0;color:#222;background:#fafafa}
main{max-width:1180px;margin:0 auto;padding:24px 32px 48px;background:#fff}
h1{font-size:26px;margin:8px 0 4px}
h2{font-size:19px;margin:32px 0 6px;border-bottom:1px solid #ddd;padding-bottom:4px}
.sub{color:#555;margin:0 0 12px} .note{color:#666;font-size:13px;margin:4px 0 10px}
table{border-collapse:collapse;font-size:13px;margin:8px 0 16px;width:100%}
th,td{border-bottom:1px solid #e6e6e6;padding:4px 8px;text-align:right}
th{background:#f3f3f3;text-align:right} td:first-child,th:first-child{text-align:left}
td:nth-child(2),th:nth-child(2){text-align:left} td:has(> .t){text-align:left}
.verdict{font-size:18px;font-weight:600;margin:10px 0 14px;padding:8px 12px;background:#f3f7fb;
border-left:4px solid #0072B2}
.params{display:grid;grid-template-columns:repeat(auto-fill,minmax(220px,1fr));gap:4px 16px;
font-size:14px;margin:10px 0} .params b{color:#333}
footer{color:#888;font-size:12px;margin-top:30px}
"""


def _is_p_column(name: object) -> bool:
    """p-value columns (``p``, ``p (holm)``, ``p_raw``...): the only ones printed in scientific
    notation when small; a small difference stays fixed-point (0.001)."""
    s = str(name).strip().lower()
    return s == "p" or s.startswith(("p ", "p_", "p-", "p(")) or "p-value" in s


def _table_html(df: pd.DataFrame, max_rows: int = 60, floatfmt: str = "{:.3f}") -> str:
    """The table as HTML, every name and header escaped; text columns (names) left-aligned,
    numbers right-aligned, p-values in the one p format (:func:`format_p`)."""
    shown = df.head(max_rows)
    more = len(df) - len(shown)

    def _text(v) -> str:
        return f'<span class="t">{html.escape(str(v))}</span>'

    fmts = {c: (format_p if _is_p_column(c) else (lambda v: floatfmt.format(v)))
            for c in shown.columns if pd.api.types.is_float_dtype(shown[c])}
    fmts.update({c: _text for c in shown.columns
                 if not pd.api.types.is_numeric_dtype(shown[c])})
    # escape=False for the spans above: the headers are escaped here and every cell by its
    # formatter (numbers are printed by format strings)
    out = shown.rename(columns=lambda c: html.escape(str(c))).to_html(
        index=False, border=0, escape=False, na_rep="\u2013",
        formatters={html.escape(str(c)): f for c, f in fmts.items()})
    if more > 0:
        out += f'<p class="note">\u2026 and {more} more rows (see the CSV export).</p>'
    return out


def _span(lo, hi, fmt: str = "{}") -> str:
    """``3`` or ``1\u20135``; ``[-0.10, +0.20]`` with a sign format."""
    if fmt == "{}":
        return f"{lo}" if lo == hi else f"{lo}\u2013{hi}"
    return f"[{fmt.format(lo)}, {fmt.format(hi)}]"


def tie_groups_frame(groups: pd.DataFrame, top: int | None = None,
                     rank_sets: pd.DataFrame | None = None) -> pd.DataFrame:
    """The ranking with tie groups (:meth:`metrics.comparison.tie_ranking.TieRanking.to_dataframe`)
    with
    readable headers: group, system, rank interval ("3" or "1\u20135"), F, systems above / below;
    its first ``top`` rows. ``rank_sets`` (``system, rank_ci_low, rank_ci_high``: the bootstrap's
    rank confidence sets, docs/uncertainty.md) adds a column after the rank interval."""
    g = groups if top is None else groups.head(top)
    out = _tie_groups(g)
    if rank_sets is not None:
        ci = rank_sets.set_index("system").reindex(g["system"])
        out.insert(4, "Rank set (95 %)", [_span(lo, hi) for lo, hi in
                                          zip(ci["rank_ci_low"], ci["rank_ci_high"], strict=True)])
    return out


def _tie_groups(g: pd.DataFrame) -> pd.DataFrame:
    return pd.DataFrame({
        "#": range(1, len(g) + 1),  # the number that labels a system in a crowded diagram
        "Group": g["group"].to_numpy(),
        "System": g["system"].to_numpy(),
        "Ranks": [f"{lo}" if lo == hi else f"{lo}\u2013{hi}"
                  for lo, hi in zip(g["rank_low"], g["rank_high"], strict=True)],
        "F\u03b1": g["score"].to_numpy(),
        "Systems above": g["n_above"].to_numpy(),
        "Systems below": g["n_below"].to_numpy(),
    })


def tie_groups_note(ranking, top: int | None = None) -> str:
    """The sentence above the tie-group table: the rule, the counts, merged cycles, the cut."""
    groups = ranking.to_dataframe()
    n_groups = int(groups["group"].max()) if len(groups) else 0
    rule = (f"UIR \u2265 {ranking.threshold:g} and a concordant significant improvement"
            if ranking.rule == "uir+concordant" else f"UIR \u2265 {ranking.threshold:g}")
    cut = (f" The first {top} of {len(groups)} systems; all in the ranking CSV."
           if top is not None and len(groups) > top else "")
    cyc = f" {len(ranking.cycles)} cycle(s) of UIR merged into ties." if ranking.cycles else ""
    plural = "" if n_groups == 1 else "s"
    return (f"{len(groups)} systems in {n_groups} tie group{plural}. A system is above another "
            f"only where it is a robust improvement over it ({rule}) or a chain of them leads "
            "down to it; the rank interval is every rank consistent with that order "
            f"(docs/rankings.md).{cyc}{cut}")


def robust_pairs_frame(pairs: pd.DataFrame, threshold: float, top: int | None = None,
                       strict: bool = False) -> pd.DataFrame:
    """The report's robust pairs (:func:`metrics.comparison.reference.robust_pairs`, the
    profile's rule: ``strict`` for jair2011), by UIR: a, b, UIR, parametric UIR, Delta F, pair
    class, and the bootstrap intervals of UIR and Delta F when ``pairs`` has them; the first
    ``top``."""
    rob = robust_pairs(pairs, threshold, strict)
    rob = rob if top is None else rob.head(top)
    out = pd.DataFrame({"a": rob["system_a"].to_numpy(), "b": rob["system_b"].to_numpy(),
                        "UIR(a, b)": rob["uir"].to_numpy(),
                        "parametric UIR": rob["uir_param"].to_numpy(),
                        "\u0394F\u03b1": rob["delta_f"].to_numpy(),
                        "pair class": rob["pair_class"].fillna("\u2013").to_numpy()})
    if "uir_low" in rob:  # the bootstrap's intervals (docs/uncertainty.md)
        out.insert(3, "UIR 95 %", [_span(lo, hi, "{:+.2f}") for lo, hi in
                                   zip(rob["uir_low"], rob["uir_high"], strict=True)])
        out.insert(6, "\u0394F 95 %", [_span(lo, hi, "{:+.3f}") for lo, hi in
                                        zip(rob["delta_f_low"], rob["delta_f_high"], strict=True)])
    return out


def build_report(
    title: str,
    subtitle: str,
    parameters: dict,
    sections: Sequence[tuple[str, str, go.Figure | pd.DataFrame]],
    verdict: str | None = None,
) -> str:
    """Render the report.

    Parameters
    ----------
    title, subtitle : str
    parameters : dict
        Shown as a grid at the top (campaign, metric pair, alpha, ...).
    sections : sequence of (heading, note, figure or DataFrame)
        In order. Figures stay interactive (zoom, hover, PNG download from their toolbar).
    verdict : str, optional
        The one-sentence verdict on the pair, shown first under the title.

    Returns
    -------
    str
        A complete HTML document.
    """
    parts = [
        "<!DOCTYPE html><html lang='en'><head><meta charset='utf-8'>",
        f"<title>{html.escape(title)}</title><style>{_CSS}</style></head><body><main>",
        f"<h1>{html.escape(title)}</h1><p class='sub'>{html.escape(subtitle)}</p>",
        f"<p class='verdict'>{html.escape(verdict)}</p>" if verdict else "",
        "<div class='params'>",
        *[f"<div><b>{html.escape(str(k))}</b>: {html.escape(str(v))}</div>"
          for k, v in parameters.items()],
        "</div>",
    ]
    js_done = False
    for heading, note, obj in sections:
        parts.append(f"<h2>{html.escape(heading)}</h2>")
        if note:
            parts.append(f"<p class='note'>{html.escape(note)}</p>")
        if isinstance(obj, go.Figure):
            parts.append(obj.to_html(
                full_html=False, include_plotlyjs=not js_done,
                config={"displaylogo": False, "responsive": True,
                        "toImageButtonOptions": {"format": "png", "scale": 2}},
                default_width="100%",
            ))
            js_done = True
        elif isinstance(obj, pd.DataFrame):
            parts.append(_table_html(obj))
    stamp = _dt.datetime.now().strftime("%Y-%m-%d %H:%M")
    parts.append(f"<footer>Generated by the Unanimity dashboard on {stamp}. Figures are "
                 "interactive: hover for values, drag to zoom, use the camera icon to save a "
                 "PNG.</footer></main></body></html>")
    return "\n".join(parts)
