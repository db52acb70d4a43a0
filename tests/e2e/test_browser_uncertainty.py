"""End to end in a real browser on a published leaderboard (the bundled RepLab 2013 official
scores, a ``wide`` table of three metrics): the three-metric UIR views, the bootstrap intervals
on Compare and the rank confidence sets and aggregation rules on the Leaderboard, with
screenshots at 1400x900 and 1024x768 under ``$UNANIMITY_TEST_OUTPUT/screenshots``."""

from __future__ import annotations

import sys
from pathlib import Path

import pytest

sys.path.insert(0, str(Path(__file__).resolve().parent))
from dashboard_server import OUT, dashboard_server, free_port  # noqa: E402
from dashboard_server import ready as _ready  # noqa: E402
from dashboard_server import screenshots as _shots  # noqa: E402

CHROMIUM = "/usr/bin/chromium"
ROOT = Path(__file__).resolve().parents[2]
LEADERBOARD = ROOT / "demo_data" / "leaderboards" / "replab2013_official.csv"

pytestmark = [
    pytest.mark.e2e,
    pytest.mark.skipif(not Path(CHROMIUM).exists(), reason=f"no chromium at {CHROMIUM}"),
]


@pytest.fixture(scope="module")
def server():
    with dashboard_server([str(LEADERBOARD)], free_port(),
                          OUT.parent / "dashboard-uncertainty-server.log") as url:
        yield url


def _scroll_to(pg, text: str) -> None:
    loc = pg.get_by_text(text).first
    loc.wait_for()
    loc.scroll_into_view_if_needed()
    pg.wait_for_timeout(1500)


def test_three_metric_uir_views_on_the_wide_leaderboard(page, server):
    page.goto(f"{server}/uir?more=F")
    _ready(page, "UIR analysis")
    sidebar = page.locator("[data-testid='stSidebar']")
    assert "More metrics for UIR" in sidebar.inner_text()
    chips = sidebar.locator("[data-testid='stMultiSelect']").inner_text().split("\n")
    assert "F" in [c.strip() for c in chips], chips
    # a cold open: the script has finished, the charts wait for the chart code (4.7 MB) to load
    page.locator(".js-plotly-plot").nth(1).wait_for(state="attached", timeout=60_000)
    assert page.locator(".js-plotly-plot").count() >= 2
    _shots(page, "uncertainty_uir_three_metrics")


def test_compare_shows_the_intervals(page, server):
    page.goto(f"{server}/compare?boot=true&boot_n=200&more=F")
    _ready(page, "Compare two systems")
    _scroll_to(page, "95 % percentile intervals over 200 paired resamples")
    main = page.locator("[data-testid='stMain']").inner_text()
    assert "parametric UIR" in main and "\u0394F\u03b1 (A \u2212 B)" in main
    _shots(page, "uncertainty_compare_intervals")


def test_leaderboard_rank_sets_and_aggregation_rules(page, server):
    page.goto(f"{server}/?boot=true&boot_n=200")
    _ready(page, "Leaderboard")
    _scroll_to(page, "Rank confidence sets (95 %, all systems at once)")
    _shots(page, "uncertainty_leaderboard_rank_sets")
    _scroll_to(page, "Rank under each aggregation rule")
    main = page.locator("[data-testid='stMain']").inner_text()
    assert "Least agreement" in main and "Kendall" in main
    _shots(page, "uncertainty_leaderboard_aggregation")
