"""HTML tables of the Meta-evaluation and Data pages: numbers as ``metrics`` computed them,
every name escaped, the table as wide as the page (headers wrap, so nothing scrolls sideways
at 1024 px). Pure functions: nothing is computed here."""

from __future__ import annotations

import html
from collections.abc import Mapping

import numpy as np
import pandas as pd

from dashboard.figures.style import short

__all__ = ["html_table", "verdict_table"]

_TABLE = ("border-collapse: collapse; width: 100%; font-size: 0.88rem; "
          "font-variant-numeric: tabular-nums;")
_TH = ("text-align: right; font-weight: 600; padding: 0.3rem 0.4rem; vertical-align: bottom; "
       "background: #F6F7F9; position: sticky; top: 0;")
_TD = "text-align: right; padding: 0.22rem 0.4rem; border-top: 1px solid #E6E9EF;"


def _cell(v: object, fmt: str, width: int = 30) -> str:
    if isinstance(v, (bool, np.bool_)):
        return "yes" if v else "no"
    if v is None or v is pd.NA or (isinstance(v, float) and np.isnan(v)):
        return "\u2013"
    if isinstance(v, (int, np.integer)):
        return f"{int(v):,}"
    if isinstance(v, (float, np.floating)):
        return format(float(v) + 0.0, fmt)
    return html.escape(short(str(v), width))


def html_table(df: pd.DataFrame, formats: Mapping[str, str] | None = None,
               height_px: int | None = None, fmt: str = ".3f", name_width: int = 30) -> str:
    """``df`` as an HTML table: first column left-aligned (names longer than ``name_width`` cut
    in the middle, the full name on hover), numbers right-aligned with ``fmt`` (or
    ``formats[column]``), booleans as yes / no, missing values as a dash; underscores of the
    headers become spaces."""
    formats = dict(formats or {})
    cols = list(df.columns)
    head = "".join(f'<th style="{_TH}{"text-align: left;" if i == 0 else ""}">'
                   f'{html.escape(str(c).replace("_", " "))}</th>' for i, c in enumerate(cols))
    body = []
    for row in df.itertuples(index=False):
        cells = []
        for i, (c, v) in enumerate(zip(cols, row, strict=True)):
            title = f' title="{html.escape(str(v))}"' if i == 0 else ""
            align = "text-align: left; white-space: nowrap;" if i == 0 else ""
            text = _cell(v, formats.get(c, fmt), name_width)
            cells.append(f'<td style="{_TD}{align}"{title}>{text}</td>')
        body.append("<tr>" + "".join(cells) + "</tr>")
    box = (f"max-height: {int(height_px)}px; overflow-y: auto; " if height_px else "")
    return (f'<div style="{box}border: 1px solid #E6E9EF; border-radius: 0.5rem;">'
            f'<table style="{_TABLE}"><thead><tr>{head}</tr></thead>'
            f'<tbody>{"".join(body)}</tbody></table></div>')


def verdict_table(verdicts: pd.DataFrame) -> pd.DataFrame:
    """Measures x constraints (yes / no) of a ``metric, constraint, holds`` table, the
    measures and the constraints in their order of appearance."""
    order = list(dict.fromkeys(verdicts["metric"]))
    cons = list(dict.fromkeys(verdicts["constraint"]))
    wide = verdicts.pivot(index="metric", columns="constraint", values="holds")
    wide = wide.reindex(index=order, columns=cons)
    wide.columns = [str(c).replace("_", " ") for c in wide.columns]
    return wide.rename_axis(index="measure", columns=None).reset_index()
