"""The shared look of every chart: the Okabe-Ito palette (system A blue, system B vermillion on
every page), the layout, axis labels and the toolbar's export settings."""

from __future__ import annotations

import plotly.graph_objects as go
import plotly.io as pio

__all__ = [
    "OKABE_ITO",
    "COLOR_A",
    "COLOR_B",
    "COLOR_TIED",
    "COLOR_BIASED",
    "COLOR_OTHER",
    "COLOR_UP",
    "COLOR_DOWN",
    "WINNER_COLORS",
    "WINNER_SYMBOLS",
    "WINNER_DASHES",
    "WINNER_PATTERNS",
    "MIN_FONT",
    "LABEL_FONT",
    "CHAR_PX",
    "COLOR_UIR",
    "COLOR_PARAM_UIR",
    "COLOR_DELTA_F",
    "TEMPLATE",
    "FONT",
    "SEQUENTIAL",
    "DIVERGING",
    "short",
    "chart_config",
    "layout",
    "f_label",
    "alpha_label",
    "role_color",
    "ROLE_DASHES",
    "ROLE_SYMBOLS",
    "CARD_WIDTH",
]

#: Okabe & Ito (2008), "Color Universal Design": distinguishable with every common colour-vision
#: deficiency.
OKABE_ITO = {
    "black": "#000000", "orange": "#E69F00", "sky": "#56B4E9", "green": "#009E73",
    "yellow": "#F0E442", "blue": "#0072B2", "vermillion": "#D55E00", "purple": "#CC79A7",
}
COLOR_A = OKABE_ITO["blue"]
COLOR_B = OKABE_ITO["vermillion"]
COLOR_TIED = "#8C8C8C"
COLOR_BIASED = OKABE_ITO["purple"]
COLOR_OTHER = "#C8C8C8"
COLOR_UP = OKABE_ITO["green"]
COLOR_DOWN = OKABE_ITO["orange"]
WINNER_COLORS = {"a": COLOR_A, "b": COLOR_B, "tied": COLOR_TIED, "biased": COLOR_BIASED}
#: The unanimous winner of a topic is told by shape (markers), dash (lines) and pattern (bars)
#: as well as by colour, so that it survives grey-scale printing and every colour-vision
#: deficiency: A >=forall B points up, B >=forall A points down, mixed topics are crosses.
WINNER_SYMBOLS = {"a": "triangle-up", "b": "triangle-down", "tied": "circle", "biased": "x"}
WINNER_DASHES = {"a": "solid", "b": "dash", "tied": "dot", "biased": "dashdot"}
WINNER_PATTERNS = {"a": "", "b": "/", "tied": ".", "biased": "x"}
#: The cross-test-bed predictors: three hues far apart (blue, vermillion-orange, green), each
#: with its own marker too (see :data:`dashboard.figures.testbeds.PREDICTOR_STYLE`).
COLOR_UIR = OKABE_ITO["blue"]
COLOR_PARAM_UIR = OKABE_ITO["vermillion"]
COLOR_DELTA_F = OKABE_ITO["green"]
TEMPLATE = "plotly_white"
# New figures get the template at construction (cheap); setting it per figure with
# ``update_layout(template=...)`` would deep-copy and re-validate it every time (~10-40 ms).
pio.templates.default = TEMPLATE
FONT = dict(family="Inter, 'Source Sans Pro', Arial, sans-serif", size=13, color="#222")
#: The smallest text in any chart, in px (tick labels, legends, annotations, cell text; hover
#: labels excepted): readable on a projected slide. Every builder uses it or something larger
#: (tests/test_dashboard_figures_style.py walks every builder's figure).
MIN_FONT = 12
LABEL_FONT = dict(size=MIN_FONT)
#: Width of a summary card (``st.metric``) in px: the longest badge ("not robust (t = 0.25)")
#: and value ("neither") fit on one line; pages put cards in a wrapping row, so that they stand
#: abreast at 1400 px and in two rows at 1024 px instead of being truncated.
CARD_WIDTH = 150
#: Estimated width of one character of a MIN_FONT label, in px (0.6 em: a generous average for
#: the sans-serif above), for layouts that must keep labels apart (Hasse diagram).
CHAR_PX = 0.6 * MIN_FONT
#: Sequential and diverging colour scales that stay readable for colour-blind viewers.
SEQUENTIAL = "Blues"
DIVERGING = [[0.0, COLOR_B], [0.5, "#F7F7F7"], [1.0, COLOR_A]]


def short(name: object, n: int = 26) -> str:
    """``name`` cut to ``n`` characters with an ellipsis in the middle, keeping both ends (names
    of a campaign often differ only at the end: ``..._HAC_10%`` vs ``..._HAC_100%``); tick
    labels use it, hovers show the full name."""
    s = str(name)
    if len(s) <= n:
        return s
    tail = max(1, (n - 1) // 2)
    return s[: n - 1 - tail] + "\u2026" + s[-tail:]


def chart_config(filename: str = "unanimity", fmt: str = "png") -> dict:
    """Plotly toolbar config: the camera button saves ``fmt`` (png or svg) at 2x scale."""
    return {
        "displaylogo": False,
        "toImageButtonOptions": {"format": fmt, "filename": filename, "scale": 2},
        "modeBarButtonsToRemove": ["lasso2d", "autoScale2d"],
    }


def layout(fig: go.Figure, title: str | None, height: int = 440, legend_below: bool = False,
            **kw) -> go.Figure:
    """Common layout: white template, left-aligned title, legend above the plot (or below the
    x-axis title with ``legend_below``, for figures whose top edge carries annotations)."""
    if legend_below:
        legend = dict(orientation="h", yanchor="top", y=-0.2, xanchor="left", x=0)
        margin = dict(l=70, r=30, t=60 if title else 30, b=110)
    else:
        legend = dict(orientation="h", yanchor="bottom", y=1.0, xanchor="right", x=1,
                      bgcolor="rgba(255,255,255,0.6)")
        margin = dict(l=70, r=30, t=70 if title else 30, b=60)
    fig.update_layout(
        font=FONT,
        # a margin on the left: the toolbar's PNG starts at the title's left edge
        title=dict(text=title, x=0, xanchor="left", pad=dict(l=12), font=dict(size=16))
        if title else None,
        height=height,
        margin=margin,
        legend=legend,
        hoverlabel=dict(font_size=MIN_FONT),
        **kw,
    )
    return fig


#: Longest y-axis title that fits beside a chart of ~300 px without reaching its title.
AXIS_TITLE_CHARS = 34


def _f_full(precision: str, recall: str, average: str) -> str:
    return f"F\u03b1({precision}, {recall}), {average}"


def f_label(precision: str, recall: str, average: str = "macro") -> str:
    """The F_alpha axis title: both metric names when they fit in ``AXIS_TITLE_CHARS``, else
    only the averaging (:func:`alpha_label` then names both metrics on the alpha axis)."""
    full = _f_full(precision, recall, average)
    return full if len(full) <= AXIS_TITLE_CHARS else f"F\u03b1 ({average} average)"


def alpha_label(precision: str, recall: str | None = None, average: str = "macro") -> str:
    """The alpha axis title; given ``recall``, it names that metric too when :func:`f_label`
    is too long to."""
    if recall is not None and len(_f_full(precision, recall, average)) > AXIS_TITLE_CHARS:
        return f"\u03b1 (weight of {precision}; {recall} weighs 1 \u2212 \u03b1)"
    return f"\u03b1 (weight of {precision})"


#: System A and system B are told apart by dash and marker as well as by colour.
ROLE_DASHES = {"A": "solid", "B": "dash"}
ROLE_SYMBOLS = {"A": "circle", "B": "diamond"}


def role_color(role: str) -> str:
    return {"A": COLOR_A, "B": COLOR_B}.get(role, OKABE_ITO["black"])


# ------------------------------------------------------------------------------------------------
# Leaderboard
# ------------------------------------------------------------------------------------------------
