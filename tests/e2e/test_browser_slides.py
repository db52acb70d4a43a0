"""Every page of the navigation on a 1024x768 projector, for the campaigns a meeting brings:
RepLab 2013 (bundled, clusterings), UD English EWT (bundled, token tagging), TREC DL 2019
(rankings, read from ``../shared``), a three-system clustering campaign (three RepLab 2013 runs)
and a 150-system x 200-topic score table.

For each page: it draws without an exception, no table scrolls sideways, and a full-page
screenshot is written to ``$UNANIMITY_TEST_OUTPUT/screenshots/slides_<campaign>_<page>.png`` to be
looked at (docs/dashboard-in-use.md). The pages are the ones the top navigation offers for the
campaign's kind, so a kind's extra page (Type level, Meta) is walked too.
"""

from __future__ import annotations

import sys
from pathlib import Path
from urllib.parse import quote

import pandas as pd
import pytest

sys.path.insert(0, str(Path(__file__).resolve().parent))
sys.path.insert(0, str(Path(__file__).resolve().parents[1]))  # tests/: shared score tables
from dashboard_server import OUT, SIDEWAYS, dashboard_server, free_port  # noqa: E402
from score_examples import random_score_table  # noqa: E402

CHROMIUM = "/usr/bin/chromium"
ROOT = Path(__file__).resolve().parents[2]
SHARED_DL = ROOT.parent / "shared" / "campaigns" / "trec-dl-2019"
UD = "UD English EWT (bundled)"
#: the three RepLab 2013 runs of the small campaign: two HAC cut-offs and a baseline-like run
THREE = ("SVM_allfeatures_HAC_0%", "SVM_allfeatures_HAC_50%", "terms_jaccard_HAC_90%")

pytestmark = [
    pytest.mark.e2e,
    pytest.mark.skipif(not Path(CHROMIUM).exists(), reason=f"no chromium at {CHROMIUM}"),
]

#: the addresses (path and query) of the pages in the top navigation
_NAV = """() => Array.from(document.querySelectorAll('[data-testid="stTopNavLink"]'))
  .map(e => new URL(e.href).pathname.replace(/^\\//, ''))"""


def _three_runs(folder: Path) -> Path:
    src = ROOT / "demo_data" / "replab2013"
    out = folder / "three"
    out.mkdir()
    runs = pd.read_parquet(src / "runs.parquet")
    runs = runs[runs["system"].astype(str).isin(THREE)].astype({"system": str})
    runs.to_parquet(out / "runs.parquet", index=False)
    (out / "gold.parquet").write_bytes((src / "gold.parquet").read_bytes())
    (out / "campaign.toml").write_text('name = "Three RepLab 2013 runs"\nformat = "long"\n')
    return out


def _args(name: str, folder: Path) -> list[str]:
    if name == "three":
        return [str(_three_runs(folder))]
    if name == "s150":
        random_score_table(150, 200).to_csv(folder / "s150.csv", index=False)
        return [str(folder / "s150.csv")]
    return [str(SHARED_DL)] if name == "trec" else []


@pytest.fixture(scope="module", params=["replab", "ud", "three", "s150", "trec"])
def server(request, tmp_path_factory):
    if request.param == "trec" and not SHARED_DL.exists():
        pytest.skip(f"TREC DL 2019 not found at {SHARED_DL}")
    args = _args(request.param, tmp_path_factory.mktemp("slides"))
    query = f"?campaign={quote(UD)}" if request.param == "ud" else ""
    with dashboard_server(args, free_port(),
                          OUT.parent / f"dashboard-slides-{request.param}.log") as url:
        yield {"url": url, "query": query, "name": request.param}


@pytest.fixture
def projector(browser):
    ctx = browser.new_context(viewport={"width": 1024, "height": 768})
    pg = ctx.new_page()
    pg.set_default_timeout(300_000)
    yield pg
    ctx.close()


#: true while the script runs or the page still shows a spinner or a placeholder
_BUSY = """() => {
  const st = document.querySelector('[data-testid="stStatusWidget"]');
  return (st && st.innerText.includes('Running'))
    || !!document.querySelector('[data-testid="stMain"] [data-testid="stSpinner"]')
    || !!document.querySelector('[data-testid="stMain"] [data-testid="stSkeleton"]')
    || !!document.querySelector('.st-key-unanimity_below');
}"""


def _drawn(pg) -> None:
    """Wait for the page's heading, then until it has been idle (no script run, spinner or
    placeholder) for two checks a second apart: some sections draw after a slow computation."""
    pg.locator("[data-testid='stMain'] h1").first.wait_for()
    idle = 0
    for _ in range(300):
        pg.wait_for_timeout(1000)
        idle = 0 if pg.evaluate(_BUSY) else idle + 1
        if idle >= 2:
            break
    pg.wait_for_timeout(1000)


def _tall_screenshot(pg, path: Path) -> None:
    """The whole page at 1024 px wide: the main area scrolls inside the window, so the window is
    made as tall as its content (at most 16,000 px) for the picture, then set back."""
    tall = pg.evaluate("() => document.querySelector('[data-testid=\"stMain\"]').scrollHeight")
    pg.set_viewport_size({"width": 1024, "height": max(768, min(int(tall), 16_000))})
    pg.wait_for_timeout(1500)
    pg.screenshot(path=str(path))
    pg.set_viewport_size({"width": 1024, "height": 768})


def test_every_page_on_a_1024_slide(projector, server):
    pg = projector
    pg.goto(server["url"] + "/" + server["query"])
    _drawn(pg)
    paths = list(dict.fromkeys(pg.evaluate(_NAV)))
    assert len(paths) >= 9, paths
    if server["name"] == "ud":
        assert "type-level" in paths
    problems: dict[str, list[str]] = {}
    OUT.mkdir(parents=True, exist_ok=True)
    for path in paths:
        pg.goto(f"{server['url']}/{path}{server['query']}")
        _drawn(pg)
        pg.evaluate("() => document.querySelectorAll('[data-testid=\"stMain\"] "
                    "[data-testid=\"stExpander\"] details:not([open]) > summary')"
                    ".forEach((s) => s.click())")
        pg.wait_for_timeout(1500)
        main = pg.locator("[data-testid='stMain']")
        found = []
        if pg.locator("[data-testid='stException']").count():
            found.append("exception: " + main.inner_text()[:300])
        found += pg.evaluate(SIDEWAYS)
        if found:
            problems[path or "leaderboard"] = found
        _tall_screenshot(pg, OUT / f"slides_{server['name']}_{path or 'leaderboard'}.png")
    assert not problems, problems
