"""What the Data page says about a load: the messages of its validation report and the report's
table as HTML (names cut in the middle, the full name on hover, numbers with thousands
separators). Pure functions of ``metrics.model.validation`` results: nothing is counted here that
:meth:`metrics.model.validation.ValidationReport.coverage` does not count.

The level of each message follows the report (docs/dashboard-in-use.md, "Data page"): missing and
extra items are usual in real runs and handled by the stated policy, so they are *info*; the
loader's notes are the *warnings*, and the warning says as many as the Warnings section lists.
"""

from __future__ import annotations

import html

import pandas as pd

from dashboard.figures.style import short
from metrics.model.validation import Coverage

__all__ = ["messages", "report_html", "quiet_columns", "ICONS", "FLAG_COLUMNS", "QUIET_COLUMNS"]

#: Streamlit alert icon of each message level.
ICONS = {"success": ":material/check_circle:", "info": ":material/info:",
         "warning": ":material/warning:"}
#: Report columns whose non-zero cells are highlighted.
FLAG_COLUMNS = ("missing_items", "extra_items", "missing_topics", "duplicate_rows",
                "empty_clusters")
_HIGHLIGHT = "#FBE3D6"


def _n(count: int, one: str, many: str | None = None) -> str:
    return f"{count:,} {one if count == 1 else (many or one + 's')}"


def messages(cov: Coverage, has_clusterings: bool) -> list[tuple[str, str]]:
    """The Data page's messages about a load, as ``(level, markdown)`` with level ``success``,
    ``info`` or ``warning``.

    A warning appears exactly when the loader left notes, and gives their number (the count of
    the Warnings section). Coverage facts (missing or extra items, missing topics, duplicate
    rows, empty clusters) are one info message with the number of systems concerned and the
    largest counts; a complete clustering campaign without notes gets one success message.
    """
    out: list[tuple[str, str]] = []
    if cov.warnings:
        out.append(("warning", f"{_n(cov.warnings, 'warning')} from the loader: see "
                               "**Warnings** below."))
    facts = []
    if cov.with_missing_or_extra:
        facts.append(f"{cov.with_missing_or_extra:,} of {_n(cov.systems, 'system')} have missing "
                     f"or extra items (at most {cov.max_missing_items:,} missing and "
                     f"{cov.max_extra_items:,} extra in one system)")
    if cov.with_missing_topics:
        facts.append(f"{_n(cov.with_missing_topics, 'system')} "
                     f"{'has' if cov.with_missing_topics == 1 else 'have'} no output for some "
                     "topics" if has_clusterings else
                     f"{_n(cov.with_missing_topics, 'system')} "
                     f"{'has' if cov.with_missing_topics == 1 else 'have'} no score for some "
                     "topics")
    if cov.with_duplicate_rows:
        facts.append(f"{_n(cov.with_duplicate_rows, 'system')} repeat rows (the first is kept)")
    if cov.with_empty_clusters:
        facts.append(f"{_n(cov.with_empty_clusters, 'system')} declare empty clusters "
                     "(ignored)")
    if facts:
        text = "; ".join(facts)
        out.append(("info", text[0].upper() + text[1:] + ". Usual in real runs: missing items "
                    "are scored as stated below, extra items are ignored; the highlighted "
                    "cells show where."))
    elif has_clusterings and not cov.warnings:
        out.append(("success", f"All {_n(cov.systems, 'system')} cover every gold item of every "
                               "topic; no duplicates, no extra items."))
    elif not has_clusterings and not cov.warnings:
        out.append(("success", f"All {_n(cov.systems, 'system')} have a score on every topic."))
    return out


#: Report columns left out of the table when they are zero for every system (the page says so).
QUIET_COLUMNS = ("duplicate_rows", "empty_clusters", "overlapping_items", "notes")


def quiet_columns(rep: pd.DataFrame) -> list[str]:
    """The :data:`QUIET_COLUMNS` of ``rep`` that are zero for every system."""
    return [c for c in QUIET_COLUMNS if c in rep.columns and not (rep[c] > 0).any()]


def report_html(rep: pd.DataFrame, name_width: int = 34, height_px: int = 520) -> str:
    """The validation report table (``ValidationReport.to_dataframe``) as a scrollable HTML table.

    System names longer than ``name_width`` are cut in the middle
    (:func:`dashboard.figures.style.short`) with the full name as the cell's hover title;
    counts have thousands separators; non-zero counts of :data:`FLAG_COLUMNS` are highlighted;
    the :func:`quiet_columns` are left out (so that the table fits at 1024 px).
    """
    rep = rep.drop(columns=quiet_columns(rep))
    names = rep["system"].astype(str)
    shown = rep.assign(system=[short(n, name_width) for n in names])
    shown.columns = [c.replace("_", " ") for c in shown.columns]
    flags = [c.replace("_", " ") for c in FLAG_COLUMNS if c in rep.columns]
    numbers = [c for c in shown.columns if c != "system"]
    titles = pd.DataFrame("", index=shown.index, columns=shown.columns)
    titles["system"] = [n if s != n else "" for n, s in zip(names, shown["system"], strict=True)]
    sty = (shown.style.hide(axis="index")
           .format("{:,}", subset=numbers)
           .format(html.escape, subset=["system"])
           .map(lambda v: f"background-color: {_HIGHLIGHT}" if v > 0 else "", subset=flags)
           .set_tooltips(titles, as_title_attribute=True)
           .set_table_styles([
               {"selector": "", "props": "border-collapse: collapse; width: 100%; "
                                         "font-size: 0.9rem;"},
               {"selector": "th", "props": "position: sticky; top: 0; background: #F6F7F9; "
                                           "text-align: right; font-weight: 600; "
                                           "padding: 0.3rem 0.5rem; vertical-align: bottom;"},
               {"selector": "th.col0", "props": "text-align: left;"},
               {"selector": "td", "props": "text-align: right; padding: 0.25rem 0.5rem; "
                                           "border-top: 1px solid #E6E9EF; "
                                           "font-variant-numeric: tabular-nums;"},
               {"selector": "td.col0", "props": "text-align: left; white-space: nowrap;"},
           ]))
    table = sty.to_html()
    return (f'<div class="unanimity-report" style="max-height: {int(height_px)}px; '
            f'overflow: auto; border: 1px solid #E6E9EF; border-radius: 0.5rem;">{table}</div>')
