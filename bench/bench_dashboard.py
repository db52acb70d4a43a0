"""Dashboard interaction in a real browser at 150 systems x 200 topics (target <= 2 s each).

Starts ``unanimity dashboard TABLE`` on a 150-system x 200-topic score table (seeded), opens it in
headless Chromium at 1400x900 and times what a user waits for, from the action to the moment the
script has finished and no chart or table is still a placeholder:

- ``open``: a cold open of the Leaderboard, to its first chart (target 5 s);
- ``alpha``: one step of the alpha slider on the Leaderboard;
- ``system_a``: another system A picked on the Compare page;
- ``page``: a switch from the Leaderboard to the Compare page and to the UIR analysis page.

Each ratio is target / measured seconds (>= 1 meets the target). Skipped when Debian's chromium
or Playwright is missing, and in the quick mode. ``UNANIMITY_BENCH_PORT`` sets the port
(default: a free one). The
numbers of record are in docs/dashboard-in-use.md, "Timings".
"""

from __future__ import annotations

import os
import socket
import subprocess
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT / "tests"))
from score_examples import random_score_table  # noqa: E402
from timing import quick  # noqa: E402

CHROMIUM = "/usr/bin/chromium"
S, T = 150, 200
TARGET = 2.0

DONE = """() => {
  const app = document.querySelector('[data-testid="stApp"]');
  return app && app.getAttribute('data-test-script-state') === 'notRunning'
    && !document.querySelector('[data-testid="stMain"] [data-testid="stSkeleton"]')
    && !!document.querySelector('.js-plotly-plot .main-svg');
}"""


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


def _wait_done(pg, t0: float) -> float:
    pg.wait_for_timeout(150)  # the rerun starts
    pg.wait_for_function(DONE, polling=50, timeout=120_000)
    return time.perf_counter() - t0


def measure(url: str) -> dict[str, float]:
    """Seconds of each interaction on the dashboard at ``url`` (already serving the table)."""
    from playwright.sync_api import sync_playwright  # noqa: PLC0415

    out: dict[str, float] = {}
    with sync_playwright() as p:
        browser = p.chromium.launch(executable_path=CHROMIUM, headless=True,
                                    args=["--no-sandbox", "--disable-gpu"])
        pg = browser.new_page(viewport={"width": 1400, "height": 900})
        pg.set_default_timeout(120_000)
        t0 = time.perf_counter()
        pg.goto(url + "/", wait_until="commit")
        pg.locator(".js-plotly-plot .main-svg").first.wait_for()
        out["open"] = time.perf_counter() - t0
        _wait_done(pg, t0)
        thumb = pg.locator("[data-testid='stSidebar'] [data-testid='stSlider'] "
                           "input[type='range']").first
        steps = []
        for _ in range(3):
            thumb.focus()
            t0 = time.perf_counter()
            pg.keyboard.press("ArrowRight")
            steps.append(_wait_done(pg, t0))
        out["alpha"] = min(steps)
        t0 = time.perf_counter()
        pg.get_by_role("link", name="Compare", exact=True).click()
        out["page"] = _wait_done(pg, t0)
        picks = []
        for name in ("SVM_terms_jaccard_HAC_17%", "SVM_terms_jaccard_HAC_42%"):
            box = pg.locator("[data-testid='stSidebar'] [data-testid='stSelectbox']").filter(
                has_text="System A").first
            box.click()
            pg.keyboard.type(name)
            t0 = time.perf_counter()
            pg.get_by_role("option", name=name, exact=True).first.click()
            picks.append(_wait_done(pg, t0))
        out["system_a"] = min(picks)
        t0 = time.perf_counter()
        pg.get_by_role("link", name="UIR", exact=True).click()
        out["page"] = max(out["page"], _wait_done(pg, t0))
        browser.close()
    return out


def run():
    if quick():  # a browser and a server: not for the quick loop
        return []
    try:
        import playwright  # noqa: F401, PLC0415
    except ImportError:
        return []
    if not Path(CHROMIUM).exists():
        return []
    port = _port()
    with tempfile.TemporaryDirectory() as tmp:
        table = score_table(Path(tmp) / f"scores_{S}x{T}.csv")
        env = dict(os.environ, PYTHONPATH=str(ROOT))
        proc = subprocess.Popen([sys.executable, "-m", "metrics", "dashboard", str(table),
                                 "--port", str(port)], cwd=ROOT, env=env,
                                stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL,
                                start_new_session=True)
        try:
            deadline = time.time() + 60
            while time.time() < deadline:
                try:
                    socket.create_connection(("localhost", port), timeout=0.5).close()
                    break
                except OSError:
                    time.sleep(0.2)
            time.sleep(2)  # the warm-up loads the table while the user opens the browser
            t = measure(f"http://localhost:{port}")
        finally:
            proc.terminate()
            try:
                proc.wait(timeout=15)
            except subprocess.TimeoutExpired:
                proc.kill()
    detail = f"{S} systems x {T} topics, Chromium 1400x900"
    return [
        ("dashboard_open_150x200", 5.0 / t["open"], f"{t['open']:.2f} s to the first chart "
                                                    f"(target 5 s); {detail}"),
        ("dashboard_alpha_150x200", TARGET / t["alpha"], f"{t['alpha']:.2f} s (target 2 s)"),
        ("dashboard_system_a_150x200", TARGET / t["system_a"],
         f"{t['system_a']:.2f} s (target 2 s)"),
        ("dashboard_page_150x200", TARGET / t["page"], f"{t['page']:.2f} s, the slower of "
                                                        "Compare and UIR analysis (target 2 s)"),
    ]


if __name__ == "__main__":
    for name, ratio, detail in run():
        print(f"RATIO {name} {ratio:.2f}    # {detail}")
