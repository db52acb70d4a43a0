"""The dashboard on a 1024x768 projector (headless Chromium): every page is in the top
navigation, a campaign too small for a significance test says so (that no table scrolls
sideways on any page is test_browser_slides.py's), and the 150-system table's UIR analysis
draws its 11,175 pairs as a density in which a click on one of A's points opens that pair. On RepLab 2013 (bundled), a 150-system x
200-topic score table and a 2-system x 3-topic one; screenshots under ``$UNANIMITY_TEST_OUTPUT/screenshots`` (default ``test-output/screenshots``).
"""

from __future__ import annotations

import sys
from pathlib import Path
from urllib.parse import parse_qs, quote, urlparse

import pytest

sys.path.insert(0, str(Path(__file__).resolve().parent))
sys.path.insert(0, str(Path(__file__).resolve().parents[1]))  # tests/: shared score tables
from dashboard_server import (  # noqa: E402
    OUT,
    SIDEWAYS,
    dashboard_server,
    free_port,
    ready,
    screenshots,
)
from score_examples import random_score_table  # noqa: E402

CHROMIUM = "/usr/bin/chromium"
UD = "UD English EWT (bundled)"
pytestmark = [
    pytest.mark.e2e,
    pytest.mark.skipif(not Path(CHROMIUM).exists(), reason=f"no chromium at {CHROMIUM}"),
]


@pytest.fixture(scope="module")
def tables(tmp_path_factory):
    folder = tmp_path_factory.mktemp("meeting")
    out = {}
    for name, (s, t) in {"s150": (150, 200), "two": (2, 3)}.items():
        out[name] = folder / f"{name}.csv"
        random_score_table(s, t).to_csv(out[name], index=False)
    return out


@pytest.fixture(scope="module", params=["replab", "s150"])
def server(request, tables):
    args = [] if request.param == "replab" else [str(tables[request.param])]
    with dashboard_server(args, free_port(),
                          OUT.parent / f"dashboard-meeting-{request.param}.log") as url:
        yield {"url": url, "name": request.param}


@pytest.fixture(scope="module")
def small(tables):
    with dashboard_server([str(tables["two"])], free_port(),
                          OUT.parent / "dashboard-meeting-two.log") as url:
        yield url


@pytest.fixture(scope="module")
def many(tables):
    """The 150-system table alone (11,175 pairs) for the UIR analysis' density view."""
    with dashboard_server([str(tables["s150"])], free_port(),
                          OUT.parent / "dashboard-meeting-many.log") as url:
        yield url


@pytest.fixture
def projector(browser):
    ctx = browser.new_context(viewport={"width": 1024, "height": 768}, accept_downloads=True)
    pg = ctx.new_page()
    pg.set_default_timeout(120_000)
    yield pg
    ctx.close()


def _nav_shown(pg) -> list[str]:
    return pg.evaluate("() => Array.from(document.querySelectorAll("
                       "'[data-testid=\"stTopNavLink\"]')).filter(e => e.offsetParent"
                       " && e.getBoundingClientRect().right <= window.innerWidth)"
                       ".map(e => e.innerText.trim())")


def test_every_page_in_the_navigation_at_1024(projector, server):
    pg = projector
    pg.goto(server["url"] + "/")
    ready(pg, "Leaderboard")
    shown = _nav_shown(pg)
    assert {"Data", "Export", "Check", "Papers"} <= set(shown), shown
    pg.locator("[data-testid='stTopNavLink']").filter(has_text="Export").first.click()
    ready(pg, "Export")
    if server["name"] == "replab":  # a token tagging campaign has one page more: Type level
        pg.goto(server["url"] + "/metrics?campaign=" + quote(UD))
        ready(pg, "Metrics")
        shown = _nav_shown(pg)
        assert {"Type level", "Data", "Export", "Check"} <= set(shown), shown


def test_small_sample_is_flagged(projector, small):
    pg = projector
    pg.goto(small + "/compare")
    ready(pg, "Compare two systems")
    main = pg.locator("[data-testid='stMain']").inner_text()
    assert "With 3 topics no paired wilcoxon test can reach p < 0.05" in main
    assert "select a row to open the topic" not in main  # a score table has no drill-down
    assert "None" not in main
    pg.goto(small + "/")
    ready(pg, "Leaderboard")
    main = pg.locator("[data-testid='stMain']").inner_text()
    assert "in 1 tie group;" in main and "1 tie groups" not in main
    assert "no paired wilcoxon test can reach p < 0.05" in main
    pg.goto(small + "/papers")
    ready(pg, "Papers' tables")
    assert "None" not in pg.locator("[data-testid='stMain']").inner_text()


def test_slide_mode_from_the_address(projector, small):
    pg = projector
    pg.goto(small + "/?slide=1")
    ready(pg, "Leaderboard")
    pg.locator("[data-testid='stSidebar']").wait_for(state="hidden")
    pg.locator("[data-testid='stPlotlyChart']").first.wait_for()
    # one chart per screen (polled: a chart takes its height when plotly has drawn it)
    pg.wait_for_function("() => document.querySelector('[data-testid=\"stPlotlyChart\"]')"
                         ".getBoundingClientRect().height >= 0.9 * 768", timeout=60_000)
    size = pg.evaluate("() => parseFloat(getComputedStyle(document.querySelector("
                       "'[data-testid=\"stMain\"] h1')).fontSize)")
    assert size >= 40
    pg.locator("[data-testid='stTopNavLink']").filter(has_text="Compare").first.click()
    ready(pg, "Compare two systems")
    pg.wait_for_function("() => location.search.includes('slide=1')", timeout=30_000)
    pg.locator("[data-testid='stSidebar']").wait_for(state="hidden")
    OUT.mkdir(parents=True, exist_ok=True)
    pg.screenshot(path=str(OUT / "meeting_slide_compare.png"))


def test_all_figures_in_one_zip(projector, small, tmp_path):
    import zipfile  # noqa: PLC0415 - this test only

    pg = projector
    pg.goto(small + "/export")
    ready(pg, "Export")
    with pg.expect_download(timeout=180_000) as dl:
        pg.locator(".st-key-dl_figures button").click()
    assert "alpha0.50_figures.zip" in dl.value.suggested_filename
    path = tmp_path / "figures.zip"
    dl.value.save_as(path)
    with zipfile.ZipFile(path) as zf:
        names = zf.namelist()
        pngs = [n for n in names if n.endswith(".png")]
        svgs = [n for n in names if n.endswith(".svg")]
        assert len(pngs) == len(svgs) >= 6
        assert all(zf.read(n)[:8] == b"\x89PNG\r\n\x1a\n" for n in pngs)
        assert all(b"<svg" in zf.read(n)[:400] for n in svgs)
    assert all(n.isascii() for n in names)


@pytest.mark.parametrize("path, title", [("", "Leaderboard"), ("compare", "Compare two systems"),
                                         ("uir", "UIR analysis")])
def test_each_page_zips_its_own_figures(browser, small, tmp_path, path, title):
    """The sidebar's "All N figures of this page": N is the number of charts the page drew, the
    zip holds each of them as PNG and SVG (the page's own, named after it); a page without
    charts has no such button."""
    import zipfile  # noqa: PLC0415 - this test only

    ctx = browser.new_context(viewport={"width": 1400, "height": 900}, accept_downloads=True)
    pg = ctx.new_page()  # the sidebar open (at 1024 px it starts collapsed)
    pg.set_default_timeout(120_000)
    pg.goto(f"{small}/{path}")
    ready(pg, title)
    pg.wait_for_function("() => !document.querySelector('[data-testid=\"stMain\"] "
                         "[data-testid=\"stSkeleton\"]')", timeout=120_000)
    n_charts = pg.locator("[data-testid='stMain'] [data-testid='stPlotlyChart']").count()
    assert n_charts >= 1
    button = pg.locator("[data-testid='stSidebar'] .st-key-dl_page_figures").get_by_role(
        "button", name=f"All {n_charts} figures of this page")
    button.wait_for(timeout=30_000)  # the page may rerun once (its address is written back)
    with pg.expect_download(timeout=180_000) as dl:
        button.click()
    assert dl.value.suggested_filename == f"unanimity_{path or 'ranking'}_figures.zip"
    zpath = tmp_path / "page.zip"
    dl.value.save_as(zpath)
    with zipfile.ZipFile(zpath) as zf:
        names = zf.namelist()
        pngs = sorted(n for n in names if n.endswith(".png"))
        svgs = sorted(n for n in names if n.endswith(".svg"))
        assert len(pngs) == len(svgs) == n_charts == len(names) // 2
        assert [n[:-4] for n in pngs] == [n[:-4] for n in svgs]
        assert all(zf.read(n)[:8] == b"\x89PNG\r\n\x1a\n" for n in pngs)
        assert all(b"<svg" in zf.read(n)[:400] for n in svgs)
    pg.goto(f"{small}/data")
    ready(pg, "Data")
    assert pg.locator(".st-key-dl_page_figures").count() == 0
    ctx.close()


def test_many_pairs_are_a_density_and_a_point_opens_its_pair(browser, many):
    ctx = browser.new_context(viewport={"width": 1400, "height": 900})
    page = ctx.new_page()
    page.set_default_timeout(120_000)
    page.goto(f"{many}/uir")
    ready(page, "UIR analysis")
    dfu = page.locator(".st-key-uir_dfu")
    dfu.scroll_into_view_if_needed()
    dfu.locator(".main-svg").first.wait_for()
    assert "all 11,175 pairs" in dfu.inner_text()
    for key in ("uir_dfu", "uir_weakest"):  # drawn without WebGL
        assert page.locator(f".st-key-{key} canvas").count() == 0, key
    assert page.evaluate(SIDEWAYS) == []
    screenshots(page, "many_pairs_uir")
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
    ready(page, "Compare two systems")
    q = parse_qs(urlparse(page.url).query)
    assert a in (q["a"][0], q["b"][0])  # one of A's pairs
    assert page.locator("[data-testid='stAlertContentError']").count() == 0
    ctx.close()
