"""Data-grid heights: every table shows its rows without a scroll bar up to its cap, and an empty
table keeps the height of one row, so that its "empty" line does not draw over the text below."""

import re
from pathlib import Path

from dashboard import ui

VIEWS = Path(__file__).resolve().parents[1] / "dashboard" / "views"


def test_rows_header_and_borders():
    assert ui.table_height(3, 1000) == 35 * 4 + 3
    assert ui.table_height(1, 1000) == 35 * 2 + 3


def test_empty_table_keeps_one_row():
    assert ui.table_height(0, 1000) == ui.table_height(1, 1000)


def test_cap():
    assert ui.table_height(500, 360) == 360


def test_pages_size_tables_through_the_helper():
    """No page computes a grid height from its row count by hand (the empty case was missed)."""
    hand = [f"{p.name}:{i}" for p in sorted(VIEWS.glob("*.py"))
            for i, line in enumerate(p.read_text().splitlines(), 1)
            if re.search(r"\d+ \* len\(", line)]
    assert hand == []
