"""How a report, the CLI and the dashboard print a p-value, a count and a signed difference: one
format everywhere.

Fixed-point with three decimals down to 0.001 (``0.034``, ``1.000``), scientific notation with
two significant digits below it (``6.2e-08``), an en dash where there is no test (NaN).
"""

from __future__ import annotations

import math

__all__ = ["format_p", "n_of", "signed", "signed_uir", "P_FIXED_BELOW"]

#: Below this a p-value is printed in scientific notation (fixed-point would print 0.000).
P_FIXED_BELOW = 0.001


def format_p(p: float | None) -> str:
    """``p`` as every table of Unanimity prints it.

    Examples: ``format_p(0.0342) == "0.034"``, ``format_p(6.22e-08) == "6.2e-08"``,
    ``format_p(float("nan")) == "\u2013"``.
    """
    if p is None or (isinstance(p, float) and math.isnan(p)):
        return "\u2013"
    p = float(p)
    return f"{p:.1e}" if p < P_FIXED_BELOW else f"{p:.3f}"


def n_of(n: int, noun: str, plural: str | None = None) -> str:
    """``n`` with thousands separators and ``noun`` in the number it takes: "1 pair",
    "1,190 pairs" (``plural`` where adding an "s" is wrong)."""
    return f"{n:,} {noun if n == 1 else plural or noun + 's'}"


def signed(v: float | None, digits: int = 3) -> str:
    """A difference with its sign at ``digits`` decimals; one that rounds to zero prints
    ``+0.000``, never ``-0.000`` (a tie is not a loss), and NaN or None ``n/a``.

    Examples: ``signed(0.01234) == "+0.012"``, ``signed(-0.0001) == "+0.000"``,
    ``signed(-0.25, 2) == "-0.25"``.
    """
    if v is None or math.isnan(v):
        return "n/a"
    return f"{round(float(v), digits) + 0.0:+.{digits}f}"


def signed_uir(u: float | None, threshold: float) -> str:
    """A UIR with its sign at two decimals, or at as many more (up to four) as it takes not to
    print the threshold's value for a UIR that is not the threshold: 15/61 = 0.2459 against
    0.25 prints ``+0.246`` (``+0.25`` would read as robust), 0.25 itself ``+0.25``.

    Examples: ``signed_uir(0.4, 0.25) == "+0.40"``, ``signed_uir(15 / 61, 0.25) == "+0.246"``,
    ``signed_uir(-0.2541, 0.25) == "-0.254"``.
    """
    if u is None or math.isnan(u):
        return "n/a"
    digits = 2
    while digits < 4 and abs(u) != threshold and round(abs(u), digits) == round(threshold, digits):
        digits += 1
    return signed(u, digits)
