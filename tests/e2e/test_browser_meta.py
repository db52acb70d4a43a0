"""End to end in a real browser on TREC DL 2019 given on the command line: the Meta-evaluation
page, the Data page's coverage of a ranking campaign and the metric pair's words and one-signal
verdict, with screenshots at 1400x900 and 1024x768 under ``$UNANIMITY_TEST_OUTPUT/screenshots``.
Skipped when ``../shared`` (the TREC DL runs are never in the repository) or chromium is absent.
"""

from __future__ import annotations

import sys
from pathlib import Path
from urllib.parse import quote

import pytest

sys.path.insert(0, str(Path(__file__).resolve().parent))
from dashboard_server import OUT, SIZES, dashboard_server, free_port  # noqa: E402
from dashboard_server import ready as _ready  # noqa: E402
from dashboard_server import screenshots as _shots  # noqa: E402

CHROMIUM = "/usr/bin/chromium"
ROOT = Path(__file__).resolve().parents[2]
SHARED_DL = ROOT.parent / "shared" / "campaigns" / "trec-dl-2019"

pytestmark = [
    pytest.mark.e2e,
    pytest.mark.skipif(not Path(CHROMIUM).exists(), reason=f"no chromium at {CHROMIUM}"),
    pytest.mark.skipif(not SHARED_DL.exists(), reason=f"TREC DL 2019 not found at {SHARED_DL}"),
]

#: elements of the main area that scroll sideways (a table wider than the page)
_SIDEWAYS = ("() => Array.from(document.querySelectorAll('[data-testid=\"stMain\"] *'))"
             ".filter(e => e.scrollWidth > e.clientWidth + 2 && "
             "['auto', 'scroll'].includes(getComputedStyle(e).overflowX)).length")


@pytest.fixture(scope="module")
def server():
    with dashboard_server([str(SHARED_DL)], free_port(),
                          OUT.parent / "dashboard-meta-server.log") as url:
        yield url


def _no_sideways_scroll(pg) -> None:
    for w, h in SIZES:
        pg.set_viewport_size({"width": w, "height": h})
        pg.wait_for_timeout(1000)
        assert pg.evaluate(_SIDEWAYS) == 0, f"a table scrolls sideways at {w} px"
    pg.set_viewport_size({"width": SIZES[0][0], "height": SIZES[0][1]})


def _sidebar_text(pg, *words: str) -> str:
    """The sidebar's text once each of ``words`` is in it (up to 60 s each; fails if one never
    comes)."""
    sidebar = pg.locator("[data-testid='stSidebar']")
    for w in words:
        sidebar.get_by_text(w).first.wait_for(timeout=60_000)
    return sidebar.inner_text()


def test_meta_evaluation_page(page, server):
    page.goto(f"{server}/meta")
    _ready(page, "Meta-evaluation")
    main = page.locator("[data-testid='stMain']")
    page.get_by_text("The smallest failing case of each failure").wait_for(timeout=300_000)
    _ready(page, "Meta-evaluation")
    text = main.inner_text()
    assert "33 of 37 systems" in text and "R*S(n=30)" in text and "RBP(0.95)" in text
    assert "Table 7 and Figure 1" in text and "each run's top 10 accepted" in text
    assert "Q-measure" in text and "ERR" in text and "confidence" in text
    page.locator(".js-plotly-plot").nth(2).wait_for(state="attached", timeout=60_000)  # drawn after the run
    assert page.locator(".js-plotly-plot").count() >= 3  # two Strictness charts, Figure 1
    _no_sideways_scroll(page)
    _shots(page, "meta_evaluation_trec_dl")


def test_data_page_tells_the_ranking_story(page, server):
    page.goto(f"{server}/data")
    _ready(page, "Data")
    page.get_by_text("Judged topics").wait_for(timeout=120_000)
    text = page.locator("[data-testid='stMain']").inner_text()
    assert "9,260" in text and "43 of 43" in text and "191,406" in text
    assert "ICT-BERT2" in text and "860" in text
    for clustering_word in ("penalize", "empty cluster", "gold item"):
        assert clustering_word not in text
    _no_sideways_scroll(page)
    _shots(page, "data_trec_dl")


def test_pair_words_and_one_signal(page, server):
    page.goto(f"{server}/compare?metrics={quote('nDCG@10/AP')}")
    _ready(page, "Compare two systems")
    # the sidebar's words, once its widgets are drawn (a CI run read it with its expanders only)
    sidebar = _sidebar_text(page, "weight of the first metric")
    assert "precision-like" not in sidebar
    assert "rank the systems identically" not in sidebar
    page.goto(f"{server}/compare?metrics={quote('P@10/R@10')}")
    _ready(page, "Compare two systems")
    _sidebar_text(page, "weight of the precision-like metric",
                  "P@10 and R@10 rank the systems identically on 43 of 43 topics")
    _shots(page, "compare_trec_dl_one_signal")
