"""End to end in a real browser on the seeded 150-system x 200-topic score table (11,175 pairs):
the UIR analysis draws Delta F vs UIR and the weakest metric as a density with system A's pairs
as points, without WebGL, and a click on one of those points opens the pair in Compare;
screenshots at 1400x900 and 1024x768 under ``$UNANIMITY_TEST_OUTPUT/screenshots``."""

from __future__ import annotations

import sys
from pathlib import Path
from urllib.parse import parse_qs, urlparse

import pytest

sys.path.insert(0, str(Path(__file__).resolve().parent))
sys.path.insert(0, str(Path(__file__).resolve().parents[1]))
from dashboard_server import OUT, SIDEWAYS, dashboard_server, free_port  # noqa: E402
from dashboard_server import ready as _ready  # noqa: E402
from dashboard_server import screenshots as _shots  # noqa: E402
from score_examples import random_score_table  # noqa: E402

CHROMIUM = "/usr/bin/chromium"

pytestmark = [
    pytest.mark.e2e,
    pytest.mark.skipif(not Path(CHROMIUM).exists(), reason=f"no chromium at {CHROMIUM}"),
]


@pytest.fixture(scope="module")
def server(tmp_path_factory):
    csv = tmp_path_factory.mktemp("many") / "scores_150x200.csv"
    random_score_table(150, 200, seed=7).to_csv(csv, index=False)
    with dashboard_server([str(csv)], free_port(),
                          OUT.parent / "dashboard-many-pairs-server.log") as url:
        yield url


def test_many_pairs_are_a_density_and_a_point_opens_its_pair(page, server):
    page.goto(f"{server}/uir")
    _ready(page, "UIR analysis")
    dfu = page.locator(".st-key-uir_dfu")
    dfu.scroll_into_view_if_needed()
    dfu.locator(".main-svg").first.wait_for()
    assert "all 11,175 pairs" in dfu.inner_text()
    for key in ("uir_dfu", "uir_weakest"):  # drawn without WebGL
        assert page.locator(f".st-key-{key} canvas").count() == 0, key
    assert page.evaluate(SIDEWAYS) == []
    _shots(page, "many_pairs_uir")
    # the points' pairs, as the browser holds them: every one has A in it
    pairs = page.evaluate("""() => document.querySelector('.st-key-uir_dfu .js-plotly-plot')
      .data.filter(t => t.type === 'scatter' && t.customdata).flatMap(t => t.customdata)""")
    common = set(pairs[0]).intersection(*map(set, pairs))
    assert len(pairs) == 149 and len(common) == 1
    a = common.pop()
    points = dfu.locator(".scatterlayer .trace .point")
    assert points.count() >= 149  # A's pairs, and the selected pair's ring
    box = points.nth(len(points.all()) // 2).bounding_box()
    page.mouse.move(box["x"] + box["width"] / 2, box["y"] + box["height"] / 2)
    page.wait_for_timeout(300)
    page.mouse.click(box["x"] + box["width"] / 2, box["y"] + box["height"] / 2)
    page.wait_for_function("() => location.pathname.endsWith('/compare')", timeout=60_000)
    _ready(page, "Compare two systems")
    q = parse_qs(urlparse(page.url).query)
    assert a in (q["a"][0], q["b"][0])  # one of A's pairs
    assert page.locator("[data-testid='stAlertContentError']").count() == 0
