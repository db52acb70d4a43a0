"""The one LaTeX escaping rule and the conventions every LaTeX table of a report shares."""

from __future__ import annotations

__all__ = ["latex_escape", "shown_note", "LATEX_TOP"]

#: Rows of the LaTeX systems and ranking tables by default: what one page holds.
LATEX_TOP = 20

_ESCAPES = {
    "\\": r"\textbackslash{}", "&": r"\&", "%": r"\%", "$": r"\$", "#": r"\#", "_": r"\_",
    "{": r"\{", "}": r"\}", "~": r"\textasciitilde{}", "^": r"\textasciicircum{}",
}


def latex_escape(text: object) -> str:
    """``text`` with LaTeX's special characters escaped: a user-chosen name (system, metric,
    topic) never reaches a ``.tex`` file as markup."""
    return "".join(_ESCAPES.get(ch, ch) for ch in str(text))


def shown_note(shown: int, total: int, csv_name: str) -> str:
    """The note under a table cut to its top rows: "N of M systems shown; full table in X"."""
    return f"{shown} of {total} systems shown; full table in {csv_name}."
