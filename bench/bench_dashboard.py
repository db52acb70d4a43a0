"""Dashboard interactions in a real browser: cold open <= 3 s to the first chart, every other
interaction <= 1 s.

Starts ``unanimity dashboard`` (three servers in turn) and drives headless Chromium at 1400x900,
timing what a user waits for, from the action to the moment the script has finished, no chart or
table is still a placeholder and no part of the page waits to be drawn, counted only once the
action's rerun has begun (``open``: to the first chart; the next step starts once the whole page
is drawn):

- the bundled RepLab 2013 campaign: ``replab_open`` (a cold open of the Leaderboard, the server
  started 2 s earlier), ``replab_alpha`` (one step of the alpha slider), ``replab_custom`` (the
  "Custom pair" entry of the metric pair), ``ud_switch`` (the campaign switched to UD English
  EWT), ``type_level`` (its Type level page);
- TREC DL 2019 (``../shared/campaigns/trec-dl-2019`` beside the checkout or
  ``$UNANIMITY_TREC_DL``; skipped when absent: its runs are never copied into the repository):
  ``trec_open`` and ``trec_pair`` (the metric pair changed to P@10/R@10);
- a seeded 150-system x 200-topic score table: ``table_open``, ``table_alpha``, ``table_system_a``
  (another system A on Compare), ``table_page`` (Leaderboard to Compare) and ``table_uir`` (the
  first UIR analysis).

``UNANIMITY_BENCH_STEPS`` (comma-separated step names, e.g.
``replab_open,trec_open,table_open``) runs each walk only up to its last named step.
``UNANIMITY_BENCH_RUNS`` (default 1) repeats the whole walk with fresh servers; each line gives
the median of the runs and every run's seconds. Each ratio is target / median seconds (>= 1
meets the target). Skipped when Debian's chromium or Playwright is missing, and in the quick
mode. ``UNANIMITY_BENCH_PORT`` sets the port (default: a free one); ``UNANIMITY_BENCH_LOG``
names a folder for the servers' output, ``dashboard-<walk>.log`` (with ``UNANIMITY_TIMING=1``:
the server time of each script run; the rest of a step is the browser's). ``UNANIMITY_BENCH_WALKS``
(comma-separated, of ``replab``, ``trec``, ``table``; default all) runs only those walks. The
numbers of record are in docs/dashboard-in-use.md, "Timings".
"""

from __future__ import annotations

import contextlib
import os
import socket
import statistics
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT / "tests"))
sys.path.insert(0, str(ROOT / "tests" / "e2e"))
from dashboard_server import BELOW, dashboard_server  # noqa: E402
from score_examples import random_score_table  # noqa: E402
from timing import quick  # noqa: E402

CHROMIUM = "/usr/bin/chromium"
S, T = 150, 200
OPEN_TARGET = 3.0
TARGET = 1.0
TREC_DL = Path(os.environ.get("UNANIMITY_TREC_DL",
                              ROOT.parent / "shared" / "campaigns" / "trec-dl-2019"))
UD = "UD English EWT (bundled)"

DONE = """() => {
  const app = document.querySelector('[data-testid="stApp"]');
  return app && app.getAttribute('data-test-script-state') === 'notRunning'
    && !document.querySelector('[data-testid="stMain"] [data-testid="stSkeleton"]')
    && !document.querySelector('BELOW')
    && !!document.querySelector('.js-plotly-plot .main-svg');
}""".replace("BELOW", BELOW)

#: what each timed step is, for the report lines
STEPS = {
    "replab_open": "RepLab cold open to the first chart",
    "replab_alpha": "RepLab, one step of alpha (Leaderboard)",
    "replab_custom": "RepLab, metric pair set to Custom pair",
    "ud_switch": "campaign switched to UD English EWT (Leaderboard)",
    "type_level": "UD English EWT, the Type level page",
    "trec_open": "TREC DL 2019 cold open to the first chart",
    "trec_pair": "TREC DL 2019, metric pair changed to P@10/R@10",
    "table_open": f"{S}x{T} score table, cold open to the first chart",
    "table_alpha": f"{S}x{T}, one step of alpha (Leaderboard)",
    "table_system_a": f"{S}x{T}, another system A (Compare)",
    "table_page": f"{S}x{T}, Leaderboard to Compare",
    "table_uir": f"{S}x{T}, the first UIR analysis",
}


def score_table(path: Path, systems: int = S, topics: int = T, seed: int = 7) -> Path:
    """The seeded ``systems`` x ``topics`` BCubed score table the browser tests use too."""
    random_score_table(systems, topics, seed=seed).to_csv(path, index=False)
    return path


def _port() -> int:
    if os.environ.get("UNANIMITY_BENCH_PORT"):
        return int(os.environ["UNANIMITY_BENCH_PORT"])
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        return sock.getsockname()[1]


@contextlib.contextmanager
def _server(args: list[str], name: str):
    """``unanimity dashboard ARGS`` on a free port (the browser tests' launcher); yields its URL
    2 s after it listens (the warm-up loads the campaign while the user opens the browser)."""
    logs = Path(os.environ.get("UNANIMITY_BENCH_LOG") or tempfile.mkdtemp(prefix="bench-"))
    with dashboard_server(args, _port(), logs / f"dashboard-{name}.log") as url:
        time.sleep(2)
        yield url


#: before an action: watch for the rerun it starts (the script state turning "running", or the
#: app's element replaced), so that a step is never timed before its run has begun
ARM = """() => {
  const app = document.querySelector('[data-testid="stApp"]');
  window.__unanimityRan = false;
  window.__unanimityApp = app;
  if (window.__unanimityWatch) window.__unanimityWatch.disconnect();
  window.__unanimityWatch = new MutationObserver(() => {
    if (app.getAttribute('data-test-script-state') === 'running') window.__unanimityRan = true;
  });
  window.__unanimityWatch.observe(app, {attributes: true,
                                        attributeFilter: ['data-test-script-state']});
}"""
RAN = """() => window.__unanimityRan
  || document.querySelector('[data-testid="stApp"]') !== window.__unanimityApp"""


def _wait_done(pg, t0: float, armed: bool = True) -> float:
    """Seconds from ``t0`` until the page is done (:data:`DONE`). ``armed``: :data:`ARM` ran
    before the action, and the page counts as done only once the action's rerun has begun (a
    run too short for the page to show it running, under 3 s, counts as begun)."""
    if armed:
        with contextlib.suppress(Exception):  # Playwright's TimeoutError
            pg.wait_for_function(RAN, polling="raf", timeout=3_000)
    else:
        pg.wait_for_timeout(150)  # the cold open's second run starts
    pg.wait_for_function(DONE, polling=50, timeout=120_000)
    return time.perf_counter() - t0


def _open(pg, url: str) -> float:
    """Seconds from the navigation to the first chart (then waits for the run to finish)."""
    t0 = time.perf_counter()
    pg.goto(url, wait_until="commit")
    pg.locator(".js-plotly-plot .main-svg").first.wait_for()
    seconds = time.perf_counter() - t0
    _wait_done(pg, t0, armed=False)
    return seconds


def _alpha(pg) -> float:
    thumb = pg.locator("[data-testid='stSidebar'] [data-testid='stSlider'] "
                       "input[type='range']").first
    thumb.focus()
    pg.evaluate(ARM)
    t0 = time.perf_counter()
    pg.keyboard.press("ArrowRight")
    return _wait_done(pg, t0)


def _pick(pg, box: str, option: str) -> float:
    """Pick ``option`` in the sidebar's select box labelled ``box``; seconds to done."""
    sel = pg.locator("[data-testid='stSidebar'] [data-testid='stSelectbox']").filter(
        has_text=box).first
    sel.click()
    pg.keyboard.type(option)
    pg.evaluate(ARM)
    t0 = time.perf_counter()
    pg.get_by_role("option", name=option, exact=True).first.click()
    return _wait_done(pg, t0)


def _page(pg, link: str) -> float:
    pg.evaluate(ARM)
    t0 = time.perf_counter()
    pg.get_by_role("link", name=link, exact=True).click()
    return _wait_done(pg, t0)


def _walk(browser, args: list[str], name: str, steps, out: dict, wanted: set[str]) -> None:
    """Open a fresh server on ``args`` and run ``steps`` (``(key, action)`` pairs, the first the
    cold open) in order, up to the last one in ``wanted``; nothing when none is wanted."""
    keys = [key for key, _ in steps]
    last = max((keys.index(k) for k in wanted if k in keys), default=-1)
    if last < 0:
        return
    with _server(args, name) as url:
        pg = browser.new_page(viewport={"width": 1400, "height": 900})
        pg.set_default_timeout(120_000)
        out[keys[0]] = _open(pg, url + "/")
        for key, action in steps[1:last + 1]:
            out[key] = action(pg)
        pg.close()


def measure(wanted: set[str] | None = None) -> dict[str, float]:
    """Seconds of each step of :data:`STEPS` in ``wanted`` (default: all; TREC's missing without
    its campaign). A walk stops after its last wanted step; the steps before it are run (and
    reported) too, since each starts where the one before has left the page."""
    from playwright.sync_api import sync_playwright  # noqa: PLC0415 - deferred: optional

    wanted = set(STEPS) if wanted is None else wanted
    out: dict[str, float] = {}
    with sync_playwright() as p, tempfile.TemporaryDirectory() as tmp:
        browser = p.chromium.launch(executable_path=CHROMIUM, headless=True,
                                    args=["--no-sandbox", "--disable-gpu"])
        _walk(browser, [], "replab", [
            ("replab_open", None),
            ("replab_alpha", _alpha),
            ("replab_custom", lambda pg: _pick(pg, "Metric pair", "Custom pair\u2026")),
            ("ud_switch", lambda pg: _pick(pg, "Campaign", UD)),
            ("type_level", lambda pg: _page(pg, "Type level")),
        ], out, wanted)
        if (TREC_DL / "runs").is_dir():
            _walk(browser, [str(TREC_DL)], "trec", [
                ("trec_open", None),
                ("trec_pair", lambda pg: _pick(pg, "Metric pair", "P@10/R@10")),
            ], out, wanted)
        if wanted & {k for k in STEPS if k.startswith("table_")}:
            table = score_table(Path(tmp) / f"scores_{S}x{T}.csv")
            _walk(browser, [str(table)], "table", [
                ("table_open", None),
                ("table_alpha", _alpha),
                ("table_page", lambda pg: _page(pg, "Compare")),
                ("table_system_a", lambda pg: _pick(pg, "System A", "SVM_terms_jaccard_HAC_17%")),
                ("table_uir", lambda pg: _page(pg, "UIR")),
            ], out, wanted)
        browser.close()
    return out


#: the steps of each walk (``UNANIMITY_BENCH_WALKS``)
WALKS = {"replab": ["replab_open", "replab_alpha", "replab_custom", "ud_switch", "type_level"],
         "trec": ["trec_open", "trec_pair"],
         "table": [k for k in STEPS if k.startswith("table_")]}


def _walk_steps() -> set[str]:
    """The steps of the walks ``UNANIMITY_BENCH_WALKS`` names (default: every one)."""
    names = [w.strip() for w in os.environ.get("UNANIMITY_BENCH_WALKS", "").split(",")
             if w.strip()]
    unknown = [w for w in names if w not in WALKS]
    if unknown:
        raise SystemExit(f"UNANIMITY_BENCH_WALKS: unknown walk {unknown[0]!r} "
                         f"(choose from {', '.join(WALKS)})")
    return {k for w in (names or WALKS) for k in WALKS[w]}


def _wanted() -> set[str]:
    """The steps of ``UNANIMITY_BENCH_STEPS`` (comma-separated keys of :data:`STEPS`; default
    all) in the walks of ``UNANIMITY_BENCH_WALKS``; an unknown key is an error rather than a
    walk that silently measures nothing."""
    walks = _walk_steps()
    raw = os.environ.get("UNANIMITY_BENCH_STEPS", "").strip()
    if not raw:
        return walks
    keys = {k.strip() for k in raw.split(",") if k.strip()}
    unknown = sorted(keys - set(STEPS))
    if unknown:
        raise SystemExit(f"UNANIMITY_BENCH_STEPS: unknown step {', '.join(unknown)} "
                         f"(one of {', '.join(STEPS)})")
    return keys & walks


def run():
    if quick():  # a browser and a server: not for the quick loop
        return []
    try:
        import playwright  # noqa: F401, PLC0415
    except ImportError:
        return []
    if not Path(CHROMIUM).exists():
        return []
    wanted = _wanted()
    n_runs = max(1, int(os.environ.get("UNANIMITY_BENCH_RUNS", "1")))
    runs = [measure(wanted) for _ in range(n_runs)]
    lines = []
    for key, what in STEPS.items():
        seconds = [r[key] for r in runs if key in r]
        if not seconds:
            continue
        med = statistics.median(seconds)
        target = OPEN_TARGET if key.endswith("_open") else TARGET
        each = ", ".join(f"{s:.2f}" for s in seconds)
        lines.append((f"dashboard_{key}", target / med,
                      f"{med:.2f} s median of {len(seconds)} ({each}); {what}; "
                      f"target {target:g} s"))
    return lines


if __name__ == "__main__":
    for name, ratio, detail in run():
        print(f"RATIO {name} {ratio:.2f}    # {detail}")
