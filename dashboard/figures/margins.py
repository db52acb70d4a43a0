"""Chart margins computed in Python from the labels they hold, so that the browser lays a chart
out once.

Plotly grows a margin after its first layout when a tick label, a colour bar or a legend does not
fit in it, and then lays the whole chart out a second time (docs/dashboard-in-use.md, "Timings":
the UIR matrix took 106 ms instead of 47). The builders set each margin to the size its labels
need, estimated here from the widths of their characters at a given font size; the
estimate is generous (the widths of DejaVu Sans, wider than Arial or Inter), so that a label
never reaches the edge. Plotly's own growing of margins stays on as a safety net: it only acts
when a chart is narrower than the dashboard's at a 1024 px screen.
"""

from __future__ import annotations

import math
import re
from collections.abc import Iterable

import numpy as np

__all__ = [
    "text_px",
    "axis_margin",
    "colorbar_margin",
    "tilted_margin",
    "legend_rows",
    "below_legend_margin",
    "LEGEND_ROW_PX",
    "NARROW_PLOT_PX",
]

#: Width in em (of the font size) of each printable ASCII character, space to tilde, rounded up
#: from DejaVu Sans: the fallback font of a browser without the dashboard's fonts, and wider
#: than all of them (Inter, Source Sans Pro, Arial).
_EM_PRINTABLE = (
    "0.32 0.41 0.46 0.84 0.64 0.96 0.78 0.28 0.40 0.40 0.50 0.84 0.32 0.37 0.32 0.34 0.64 0.64 "
    "0.64 0.64 0.64 0.64 0.64 0.64 0.64 0.64 0.34 0.34 0.84 0.84 0.84 0.54 1.00 0.69 0.69 0.70 "
    "0.77 0.64 0.58 0.78 0.76 0.30 0.30 0.66 0.56 0.87 0.75 0.79 0.61 0.79 0.70 0.64 0.62 0.74 "
    "0.69 0.99 0.69 0.62 0.69 0.40 0.34 0.40 0.84 0.50 0.50 0.62 0.64 0.55 0.64 0.62 0.36 0.64 "
    "0.64 0.28 0.28 0.58 0.28 0.98 0.64 0.62 0.64 0.64 0.42 0.53 0.40 0.64 0.60 0.82 0.60 0.60 "
    "0.53 0.64 0.34 0.64 0.84")
_EM = np.full(128, 1.0)
_EM[32:127] = np.array(_EM_PRINTABLE.split(), dtype=float)
#: a character outside ASCII (an ellipsis, alpha, >=): the width of the widest letters
_EM_OTHER = 1.0
#: bold text is this much wider (DejaVu Sans Bold: 1.10 on a system name)
_BOLD = 1.12
_TAG = re.compile(r"<[^>]*>")

#: Height of one row of a horizontal legend at the chart font (13 px), in px.
LEGEND_ROW_PX = 26
#: Width of the plot area of a full-width chart at a 1024 px screen with the sidebar open, in px
#: (the narrowest the dashboard is looked at): a horizontal legend wraps into rows of this width.
NARROW_PLOT_PX = 620
#: Width of one horizontal legend entry besides its text: its symbol and the gap after it, in px.
_LEGEND_ENTRY_PX = 46


def text_px(labels: Iterable[object], size: float) -> float:
    """Width in px of the widest of ``labels`` (HTML tags dropped, ``<b>`` counted as bold) at
    font ``size`` px; 0 when there is none."""
    widest = 0.0
    for label in labels:
        s = str(label)
        bold = "<b" in s
        codes = np.frombuffer(_TAG.sub("", s).encode("utf-32-le"), dtype=np.uint32)
        ascii_ = codes < 128
        em = _EM[codes[ascii_]].sum() + _EM_OTHER * (~ascii_).sum()
        widest = max(widest, float(em) * size * (_BOLD if bold else 1.0))
    return widest


def axis_margin(labels: Iterable[object], size: float, title: bool = True,
                title_size: float = 13) -> int:
    """Margin in px beside a y axis whose tick labels are ``labels`` at ``size`` px, plus its
    title (rotated, ``title_size`` px) when ``title``."""
    px = text_px(labels, size) + 12  # the tick and the gap before the label
    if title:
        px += 1.5 * title_size + 14
    return math.ceil(px + 6)


def colorbar_margin(ticks: Iterable[object], thickness: float, title: bool | int = True,
                    size: float = 13) -> int:
    """Right margin in px that holds a colour bar ``thickness`` px thick, its tick labels
    ``ticks`` (the longest ones it may show) at ``size`` px and its title turned along it
    (``title``: that many lines, ``True`` one)."""
    px = 10 + thickness + 8 + text_px(ticks, size) + 14
    if title:
        lines = int(title)
        px += lines * 1.5 * size + 4 + 18 * (lines - 1)  # lines apart by more than their size
    return math.ceil(px)


def tilted_margin(labels: Iterable[object], size: float, angle: float = 60,
                  title: bool = True, title_size: float = 13) -> int:
    """Margin in px below an x axis whose tick labels ``labels`` (``size`` px) are turned by
    ``angle`` degrees, plus its title when ``title``."""
    rad = math.radians(angle)
    px = text_px(labels, size) * math.sin(rad) + size * math.cos(rad) + 12
    if title:
        px += 1.5 * title_size + 14
    return math.ceil(px + 6)


def legend_rows(names: Iterable[object], size: float = 13,
                width: float = NARROW_PLOT_PX) -> int:
    """Rows of a horizontal legend with entries ``names`` at ``size`` px in ``width`` px: one row
    when all fit in it, else a grid of as many columns as its widest entry allows (as Plotly
    wraps a legend)."""
    widths = [text_px([name], size) + _LEGEND_ENTRY_PX for name in names]
    if sum(widths) <= width:
        return 1
    columns = max(1, int(width // max(widths)))
    return math.ceil(len(widths) / columns)


def below_legend_margin(height: float, top: float, y: float, rows: int) -> int:
    """Bottom margin in px that holds a legend of ``rows`` rows hung at ``y`` (< 0, a fraction
    of the plot area's height, as Plotly places it) below the plot area of a chart ``height`` px
    high with top margin ``top``: the plot area shrinks as the margin grows, hence the solving
    for the margin."""
    depth = -y
    return math.ceil((depth * (height - top) + rows * LEGEND_ROW_PX + 26) / (1 + depth))
