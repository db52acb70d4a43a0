"""End to end in a real browser: a bundle written by ``unanimity compare --out`` in tmp_path and
opened with ``unanimity dashboard DIR`` shows its stored tables (a table value equals the CSV),
every bundle page renders, and screenshots at 1400x900 and 1024x768 go to
``$UNANIMITY_TEST_OUTPUT/screenshots`` (default ``test-output/screenshots``). The server listens
on ``$UNANIMITY_E2E_PORT`` or a free port.
"""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

import pandas as pd
import pytest

sys.path.insert(0, str(Path(__file__).resolve().parent))
import json
import shutil
import zipfile

from dashboard_server import OUT, SIDEWAYS, dashboard_server, free_port, unanimity  # noqa: E402
from dashboard_server import ready as _ready  # noqa: E402
from dashboard_server import screenshots as _shots  # noqa: E402

from metrics.reports.latex import latex_escape  # noqa: E402

CHROMIUM = "/usr/bin/chromium"
ROOT = Path(__file__).resolve().parents[2]

pytestmark = [
    pytest.mark.e2e,
    pytest.mark.skipif(not Path(CHROMIUM).exists(), reason=f"no chromium at {CHROMIUM}"),
]


@pytest.fixture(scope="module")
def bundle(tmp_path_factory) -> Path:
    out = tmp_path_factory.mktemp("bundle") / "results"
    subprocess.run([*unanimity(), "compare", str(ROOT / "demo_data" / "replab2013"), "--metrics",
                    "bcubed_precision,bcubed_recall", "--out", str(out), "--paper-tables"],
                   cwd=ROOT, check=True, capture_output=True)
    return out


@pytest.fixture(scope="module")
def server(bundle):
    with dashboard_server([str(bundle)], free_port(),
                          OUT.parent / "dashboard-bundle-server.log") as url:
        yield url


def test_bundle_leaderboard_equals_the_csv(page, server, bundle):
    page.goto(f"{server}/")
    _ready(page, "Leaderboard")
    systems = pd.read_csv(bundle / "systems.csv").sort_values("rank", kind="stable")
    best = systems.iloc[0]
    cards = page.locator("[data-testid='stMetric']")
    best_card = cards.filter(has_text="Best F").first
    assert best_card.locator("[data-testid='stMetricValue']").inner_text().strip() == \
        f"{best['f_alpha']:.3f}"
    assert best["system"] in best_card.inner_text()
    assert cards.filter(has_text="Systems").first.locator(
        "[data-testid='stMetricValue']").inner_text().strip() == str(len(systems))
    assert "bundle=cli-bundle" in page.url
    assert page.get_by_text("nothing is recomputed").first.is_visible()
    _shots(page, "bundle_leaderboard")
    page.get_by_text("Ranking with tie groups").first.scroll_into_view_if_needed()
    hasse = page.locator(".js-plotly-plot").filter(has_text="Order of robust improvements")
    hasse.first.wait_for()
    hasse.first.scroll_into_view_if_needed()
    _shots(page, "bundle_hasse")


@pytest.mark.parametrize("path, title", [("compare", "Compare two systems"),
                                         ("uir", "UIR analysis"), ("papers", "Papers' tables"),
                                         ("export", "Export"), ("data", "Data")])
def test_bundle_pages(page, server, bundle, path, title):
    page.goto(f"{server}/{path}?bundle=cli-bundle")
    _ready(page, title)
    main = page.locator("[data-testid='stMain']").inner_text()
    if path == "compare":  # the default pair (the two best systems): its stored UIR
        systems = pd.read_csv(bundle / "systems.csv").sort_values("rank", kind="stable")
        a, b = systems["system"].iloc[0], systems["system"].iloc[1]
        pairs = pd.read_csv(bundle / "pairs.csv")
        uir = pairs[(pairs["system_a"] == a) & (pairs["system_b"] == b)]["uir"].iloc[0]
        assert f"UIR of {uir:+.2f} over B" in main or f"UIR = {abs(uir):+.2f}" in main
        assert "per-topic scores" in main
    if path == "data":

        m = json.loads((bundle / "manifest.json").read_text())
        assert m["package_version"] in main
    _shots(page, f"bundle_{path}")


def _open_from_data_page(pg, server, path=None, zip_file=None) -> str:
    pg.goto(f"{server}/data?bundle=cli-bundle")
    _ready(pg, "Data")
    pg.get_by_text("Open a comparison bundle").first.click()
    if zip_file is not None:
        pg.get_by_text("Upload a zip of the folder instead").click()
        pg.locator("input[type='file']").set_input_files(str(zip_file))
        pg.wait_for_timeout(1500)
    else:
        pg.get_by_label("Bundle folder on the server").fill(str(path))
        pg.keyboard.press("Enter")
        pg.wait_for_timeout(1000)
    pg.get_by_role("button", name="Open the bundle").click()
    pg.wait_for_timeout(3000)
    pg.wait_for_function(
        "() => !document.querySelector('[data-testid=\"stStatusWidget\"]')"
        " || !document.querySelector('[data-testid=\"stStatusWidget\"]').innerText"
        ".includes('Running')", timeout=120_000)
    return pg.locator("[data-testid='stMain']").inner_text()


def test_tampered_bundle_refused_in_the_browser(page, server, bundle, tmp_path):

    bad = tmp_path / "edited"
    shutil.copytree(bundle, bad)
    with open(bad / "ranking.csv", "a") as fh:
        fh.write("x,1,1,1\n")
    main = _open_from_data_page(page, server, path=bad)
    assert "refusing a tampered bundle" in main and "Traceback" not in main
    assert page.locator("[data-testid='stException']").count() == 0
    _shots(page, "bundle_tampered")


def test_zipped_bundle_uploaded_in_the_browser(page, server, bundle, tmp_path):

    z = tmp_path / "results.zip"
    with zipfile.ZipFile(z, "w") as zf:
        for f in sorted(bundle.iterdir()):
            zf.write(f, f"results/{f.name}")
    main = _open_from_data_page(page, server, zip_file=z)
    assert "Opened results.zip" in main, main[:500]
    assert "bundle=bz-" in page.url
    page.get_by_text("Go to its Leaderboard").click()
    _ready(page, "Leaderboard")
    best = pd.read_csv(bundle / "systems.csv").sort_values("rank", kind="stable").iloc[0]
    card = page.locator("[data-testid='stMetric']").filter(has_text="Best F").first
    assert card.locator("[data-testid='stMetricValue']").inner_text().strip() == \
        f"{best['f_alpha']:.3f}"


#: (url path, heading) of every page a bundle serves.
BUNDLE_PAGES = [("", "Leaderboard"), ("compare", "Compare two systems"), ("uir", "UIR analysis"),
                ("papers", "Papers' tables"), ("check", "Check reported"), ("export", "Export"),
                ("data", "Data")]


def test_no_bundle_table_scrolls_sideways_at_1024(browser, server):
    ctx = browser.new_context(viewport={"width": 1024, "height": 768})
    pg = ctx.new_page()
    pg.set_default_timeout(120_000)
    wide = {}
    try:
        for path, title in BUNDLE_PAGES:
            pg.goto(f"{server}/{path}?bundle=cli-bundle")
            _ready(pg, title)
            over = pg.evaluate(SIDEWAYS)
            if over:
                wide[path or "leaderboard"] = over
    finally:
        ctx.close()
    assert not wide, wide


def test_bundle_export_downloads_the_report_and_latex(browser, server, bundle):
    ctx = browser.new_context(viewport={"width": 1400, "height": 900}, accept_downloads=True)
    pg = ctx.new_page()
    pg.set_default_timeout(120_000)
    try:
        pg.goto(f"{server}/export?bundle=cli-bundle")
        _ready(pg, "Export")
        _shots(pg, "bundle_export_page")
        with pg.expect_download() as dl:
            pg.get_by_role("button", name="LaTeX tables (.tex)").click()
        tex = Path(dl.value.path()).read_text(encoding="utf-8")
        systems = pd.read_csv(bundle / "systems.csv").sort_values("rank", kind="stable")
        assert r"\begin{tabular}" in tex and "Ranking with tie groups" in tex
        best = latex_escape(systems["system"].iloc[0])  # "HAC_60%": names stay escaped
        assert f"1 & {best} & {systems['f_alpha'].iloc[0]:.3f}" in tex
        pg.get_by_role("button", name="Build the HTML report").click()
        pg.get_by_role("button", name="Download the report (HTML)").wait_for()
        with pg.expect_download() as dl:
            pg.get_by_role("button", name="Download the report (HTML)").click()
        html = Path(dl.value.path()).read_text(encoding="utf-8")
        assert "<h2>Ranking with tie groups</h2>" in html and "plotly" in html
        assert "per-topic scores" in html
        assert pg.locator("[data-testid='stException']").count() == 0
    finally:
        ctx.close()
