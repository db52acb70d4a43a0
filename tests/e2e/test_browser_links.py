"""Link exactness over every control, in a real browser.

For each control of the sidebar (campaign, metric pair and a custom pair, A, B, alpha, UIR
threshold, test-bed filter, averaging, baselines, profile, paired test, correction) and of the
pages (the Leaderboard's second alpha and top N, the UIR matrix's top N, the Compare page's topic,
the Test beds page's reference bed): change it as a user does (click, type, keys), copy the URL,
open it in a fresh browser context, and check that the view is the same - the page, every
sidebar value, every pressed pill and switch, and the page's title, captions, verdict, metric
cards and own controls. The changes accumulate, so the last links carry a dozen settings at once.
Also: after an upload the sidebar shows the new campaign's A and B.

The server listens on ``$UNANIMITY_E2E_PORT`` or a free port.
"""

from __future__ import annotations

import os
import sys
from pathlib import Path

import pytest
from playwright.sync_api import TimeoutError as PlaywrightTimeout

sys.path.insert(0, str(Path(__file__).resolve().parent))
import numpy as np
import pandas as pd
from dashboard_server import BELOW, dashboard_server, free_port  # noqa: E402

CHROMIUM = "/usr/bin/chromium"
OUT = Path(os.environ.get("UNANIMITY_TEST_OUTPUT", "test-output")) / "screenshots"

pytestmark = [
    pytest.mark.e2e,
    pytest.mark.skipif(not Path(CHROMIUM).exists(), reason=f"no chromium at {CHROMIUM}"),
]

#: What a person sees of the selection: the page, the sidebar's values, pressed pills and
#: switches, and the main area's title, captions, verdict, cards and own controls.
VIEW = """() => {
  // a widget's text and the values of its inputs (a select box shows its value in an input)
  const t = e => (e.textContent || '').replace(/\\s+/g, ' ').trim() + ' = '
    + [...e.querySelectorAll('input')].map(i => i.value).join(', ');
  const sb = document.querySelector('[data-testid="stSidebar"]');
  const main = document.querySelector('[data-testid="stMain"]');
  return {
    path: location.pathname,
    sidebar: [...sb.querySelectorAll('[data-testid="stSelectbox"], [data-testid="stSlider"]')]
      .map(t),
    pressed: [...sb.querySelectorAll('button[data-selected="true"]')].map(t),
    switches: [...sb.querySelectorAll('input[type="checkbox"]')].map(i => i.checked),
    main: [...main.querySelectorAll('h1, [data-testid="stCaptionContainer"], .unanimity-verdict,'
      + ' [data-testid="stMetric"], [data-testid="stSelectbox"], [data-testid="stSlider"]')]
      .map(t),
    numbers: [...main.querySelectorAll('[data-testid="stNumberInput"] input')].map(i => i.value),
  };
}"""


@pytest.fixture(scope="module")
def server():
    with dashboard_server([], free_port(), OUT.parent / "dashboard-links-server.log") as url:
        yield url


def _ready(pg, title: str) -> None:
    pg.get_by_role("heading", name=title, level=1).first.wait_for()
    done = ("() => document.querySelector('[data-testid=\"stApp\"]')"
            ".getAttribute('data-test-script-state') === 'notRunning'"
            " && !document.querySelector('[data-testid=\"stMain\"] [data-testid=\"stSkeleton\"]')"
            f" && !document.querySelector('{BELOW}')"
            " && document.querySelectorAll('[data-testid=\"stSidebar\"] [data-testid=\"stSelectbox\"]')"
            ".length > 0")
    pg.wait_for_function(done, timeout=120_000)
    pg.wait_for_timeout(1000)
    pg.wait_for_function(done, timeout=120_000)  # not a rerun that started meanwhile
    assert pg.locator("[data-testid='stException']").count() == 0


def _wait_url(pg, needle: str, title: str) -> None:
    try:
        pg.wait_for_function(f"() => decodeURIComponent(location.href.replace(/\\+/g, ' '))"
                             f".includes({needle!r})", timeout=60_000)
    except PlaywrightTimeout:
        OUT.mkdir(parents=True, exist_ok=True)
        pg.screenshot(path=str(OUT / "link_url_timeout.png"))
        raise AssertionError(f"the URL never carried {needle!r}: {pg.url}") from None
    _ready(pg, title)


def _select(pg, label: str, option: str, where: str = "[data-testid='stSidebar']") -> None:
    """Pick ``option`` (its full text) in the select box labelled ``label``: click, type, click
    the option. A rerun that lands meanwhile closes the list or redraws it (no list opens, or
    the option is detached before the click): the whole sequence is then tried again."""
    box = pg.locator(f"{where} [data-testid='stSelectbox']").filter(has_text=label).first
    for attempt in range(5):
        try:
            box.scroll_into_view_if_needed()
            box.locator("input").click()
            pg.get_by_role("option").first.wait_for(timeout=8000)
            pg.keyboard.type(option)
            pg.get_by_role("option", name=option, exact=True).first.click(timeout=8000)
            return
        except PlaywrightTimeout:
            if attempt == 4:
                OUT.mkdir(parents=True, exist_ok=True)
                pg.screenshot(path=str(OUT / "link_select_timeout.png"))
                raise
            pg.keyboard.press("Escape")
            pg.wait_for_function("() => document.querySelector('[data-testid=\"stApp\"]')"
                                 ".getAttribute('data-test-script-state') !== 'running'",
                                 timeout=60_000)


def _slider(pg, label: str, key: str, title: str, presses: int = 3) -> None:
    """Press ArrowRight on a slider until the URL carries ``key=`` (a press that lands while the
    app is wiring its widgets is lost, so it is repeated)."""
    thumb = pg.locator("[data-testid='stSlider']").filter(has_text=label).first.locator(
        "input[type='range']")
    for _ in range(10):
        thumb.focus()
        for _ in range(presses):
            pg.keyboard.press("ArrowRight")
        try:
            pg.wait_for_function(f"() => /[?&]{key}=/.test(location.search)", timeout=3000)
            break
        except PlaywrightTimeout:
            _ready(pg, title)
    _ready(pg, title)


def _button(pg, text: str) -> None:
    pg.locator("[data-testid='stSidebar'] button").filter(has_text=text).first.click()


def _number(pg, label: str, value: int) -> None:
    box = pg.locator("[data-testid='stNumberInput']").filter(has_text=label).first.locator("input")
    box.fill(str(value))
    box.press("Enter")


def _same_in_a_fresh_browser(browser, pg, title: str, name: str) -> None:
    """The URL of ``pg`` opened in a new context shows the same view."""
    want = pg.evaluate(VIEW)
    url = pg.url
    ctx = browser.new_context(viewport={"width": 1400, "height": 1200})
    try:
        fresh = ctx.new_page()
        fresh.set_default_timeout(90_000)
        fresh.goto(url)
        _ready(fresh, title)
        got = fresh.evaluate(VIEW)
        if got != want:
            OUT.mkdir(parents=True, exist_ok=True)
            pg.screenshot(path=str(OUT / f"link_{name}_original.png"))
            fresh.screenshot(path=str(OUT / f"link_{name}_fresh.png"))
        for part in want:
            assert got[part] == want[part], (name, part, url)
    finally:
        ctx.close()


def test_every_control_is_carried_by_the_link(browser, server):
    ctx = browser.new_context(viewport={"width": 1400, "height": 1200})
    pg = ctx.new_page()
    pg.set_default_timeout(90_000)
    try:
        pg.goto(server + "/")
        _ready(pg, "Leaderboard")

        def step(name: str, title: str, action, needle: str) -> None:
            action()
            _wait_url(pg, needle, title)
            _same_in_a_fresh_browser(browser, pg, title, name)

        lb = "Leaderboard"
        step("metric_pair", lb, lambda: _select(pg, "Metric pair", "Purity/Inverse Purity"),
             "metrics=Purity/Inverse Purity")
        step("alpha", lb, lambda: _slider(pg, "weight of the precision", "alpha", lb), "alpha=")
        step("threshold", lb, lambda: _slider(pg, "UIR threshold", "threshold", lb),
             "threshold=")
        step("testbeds", lb, lambda: _button(pg, "D03"), "beds=")
        step("average", lb, lambda: _button(pg, "micro"), "average=micro")
        step("profile", lb, lambda: _button(pg, "jair2011"), "profile=jair2011")

        def test_and_correction():
            exp = pg.locator("[data-testid='stSidebar'] [data-testid='stExpander']").filter(
                has_text="Significance tests").first
            if exp.locator("details").first.get_attribute("open") is None:
                exp.locator("summary").click()
            pg.locator("[data-testid='stSidebar'] [data-testid='stSelectbox']").filter(
                has_text="Paired test").first.locator("input").wait_for(state="visible")
            _select(pg, "Paired test", "sign")
        step("test", lb, test_and_correction, "test=sign")
        step("correction", lb, lambda: _select(pg, "Correction", "bh"), "correction=bh")
        systems = pg.evaluate("() => [...document.querySelectorAll('[data-testid=\"stSidebar\"] "
                              "[data-testid=\"stSelectbox\"]')].map(e => e.textContent)")
        assert any("System A" in s for s in systems)
        step("a", lb, lambda: _select(pg, "System A", "best_replab"), "a=best_replab")
        step("b", lb, lambda: _select(pg, "System B", "SVM_allfeatures_HAC_10%"),
             "b=SVM_allfeatures_HAC_10%")
        step("alpha2", lb, lambda: _slider(pg, "Compare with", "alpha2", lb), "alpha2=")
        step("top", lb, lambda: _number(pg, "Show the top", 7), "top=7")
        step("baselines", lb, lambda: pg.locator(
            "[data-testid='stSidebar'] [data-testid='stCheckbox']").filter(
            has_text="Add baselines").first.click(), "baselines=true")

        pg.get_by_role("link", name="UIR", exact=True).click()
        _ready(pg, "UIR analysis")
        step("matrix_top", "UIR analysis", lambda: _number(pg, "Systems in the matrix", 12),
             "mtop=12")
        pg.get_by_role("link", name="Compare", exact=True).click()
        _ready(pg, "Compare two systems")
        step("topic", "Compare two systems",
             lambda: _select(pg, "Topic", "RL2013D02E060", "[data-testid='stMain']"),
             "topic=RL2013D02E060")
        pg.get_by_role("link", name="Test beds").click()
        _ready(pg, "Test beds")
        step("reference_bed", "Test beds",
             lambda: _select(pg, "Reference test bed", "D04", "[data-testid='stMain']"),
             "refbed=D04")

        def custom_pair():
            _select(pg, "Metric pair", "Custom pair\u2026")
            _wait_url(pg, "metrics=Custom", "Test beds")
            _select(pg, "First metric", "bcubed_precision")
            _wait_url(pg, "p=bcubed_precision", "Test beds")
            _select(pg, "Second metric", "bcubed_recall")
        step("custom_pair", "Test beds", custom_pair, "r=bcubed_recall")
        step("campaign", "Test beds", lambda: _select(pg, "Campaign",
                                                          "UD English EWT (bundled)"),
             "campaign=UD English")
    finally:
        ctx.close()


def test_after_an_upload_the_sidebar_shows_the_new_pair(browser, server, tmp_path):

    ctx = browser.new_context(viewport={"width": 1400, "height": 1200})
    pg = ctx.new_page()
    pg.set_default_timeout(90_000)
    try:
        pg.goto(server + "/data?a=best_replab&b=SVM_allfeatures_HAC_0%25")
        _ready(pg, "Data")
        # a campaign with the old names and others that beat them: A and B must be its two best
        rng = np.random.default_rng(0)
        names = ["best_replab", "SVM_allfeatures_HAC_0%", "new_top", "new_second"]
        level = {"new_top": 0.9, "new_second": 0.8, "best_replab": 0.3,
                 "SVM_allfeatures_HAC_0%": 0.2}
        rows = [(s, f"t{t}", m, min(1.0, level[s] + rng.uniform(0, 0.05)))
                for s in names for t in range(6) for m in ("bcubed_precision", "bcubed_recall")]
        csv = tmp_path / "mixed.csv"
        pd.DataFrame(rows, columns=["system", "topic", "metric", "value"]).to_csv(csv,
                                                                                 index=False)
        pg.get_by_text("Load another campaign").click()
        pg.locator("input[type='file']").set_input_files(str(csv))
        pg.locator(".st-key-upload_load button").click()
        pg.wait_for_function("() => location.search.includes('campaign=mixed.csv')"
                             " && location.search.includes('a=new_top')"
                             " && location.search.includes('b=new_second')")
        _ready(pg, "Data")
        sb = pg.evaluate(VIEW)["sidebar"]
        assert "System A = new_top" in sb and "System B = new_second" in sb, sb
    finally:
        ctx.close()
