"""The Check reported page's call into :mod:`metrics.reports.reported_checks`: a pasted table of
reported precision, recall and F read as a file and checked at an alpha (the same check as
``unanimity check-reported``, docs/rankings.md). Nothing is computed here."""

from __future__ import annotations

import tempfile
from pathlib import Path

from metrics.errors import UnanimityError
from metrics.reports.reported_checks import (
    STATUS_WORDS,
    ReportedCheck,
    alpha_of_beta,
    check_reported,
    read_reported,
)

__all__ = ["PASTED", "STATUS_WORDS", "alpha_of_beta", "check_pasted"]

#: how errors name the pasted table (instead of the temporary file it is read from)
PASTED = "the pasted table"


def check_pasted(pasted: str, alpha: float) -> ReportedCheck:
    """Read ``pasted`` (CSV, or TSV when its first line holds a tab) with ``read_reported`` and
    check it at ``alpha`` with ``check_reported``; errors name the pasted table."""
    sep_tsv = "\t" in pasted.splitlines()[0] if pasted.strip() else False
    with tempfile.TemporaryDirectory() as tmp:
        path = Path(tmp) / ("pasted.tsv" if sep_tsv else "pasted.csv")
        path.write_text(pasted.strip() + "\n", encoding="utf-8")
        try:
            table = read_reported(path)
        except UnanimityError as exc:
            raise UnanimityError(str(exc).replace(str(path), PASTED)) from None
    return check_reported(table, float(alpha))
