"""Start ``unanimity dashboard`` for the browser tests and wait until it listens; wait for a page
to be drawn and take its screenshots at the two sizes every page is looked at."""

from __future__ import annotations

import contextlib
import os
import socket
import subprocess
import sys
import time
from pathlib import Path

import pytest

from dashboard.ui import BELOW_KEY

ROOT = Path(__file__).resolve().parents[2]
OUT = Path(os.environ.get("UNANIMITY_TEST_OUTPUT", "test-output")) / "screenshots"
#: The two screen sizes of every screenshot: a laptop and a projector.
SIZES = [(1400, 900), (1024, 768)]

#: what a reader would scroll sideways: an element of the main area that scrolls and is wider
#: than its box, and a data grid (its scroller) or HTML table wider than its box
SIDEWAYS = """() => {
  const main = document.querySelector('[data-testid="stMain"]');
  const say = (e, sc) => `${e.getAttribute('data-testid') || e.tagName}: ${sc.scrollWidth} px `
    + `in ${sc.clientWidth} px (${(e.innerText || '').slice(0, 40)})`;
  const out = Array.from(main.querySelectorAll('*'))
    .filter(e => e.scrollWidth > e.clientWidth + 2
            && ['auto', 'scroll'].includes(getComputedStyle(e).overflowX)
            && e.getBoundingClientRect().width > 0)
    .map(e => say(e, e));
  main.querySelectorAll('[data-testid="stDataFrame"], [data-testid="stTable"], table')
    .forEach((el) => {
      if (el.closest('[data-testid="stDataFrame"]') && el.tagName === 'TABLE') return;
      const box = el.getBoundingClientRect();
      if (box.width === 0 || box.height === 0) return;
      const sc = el.querySelector('.dvn-scroller') || el.parentElement;
      if (sc.scrollWidth > sc.clientWidth + 1) out.push(say(el, sc));
    });
  return Array.from(new Set(out));
}"""


def free_port() -> int:
    """``$UNANIMITY_E2E_PORT`` when set, else a free localhost port."""
    if os.environ.get("UNANIMITY_E2E_PORT"):
        return int(os.environ["UNANIMITY_E2E_PORT"])
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


def unanimity() -> list[str]:
    exe = Path(sys.executable).with_name("unanimity")
    return [str(exe)] if exe.exists() else [sys.executable, "-m", "metrics"]


@contextlib.contextmanager
def dashboard_server(args: list[str], port: int, log: Path, env: dict | None = None):
    """``unanimity dashboard ARGS --port PORT`` (output to ``log``); yields its URL and stops it
    at the end (fails the test when it exits or does not listen within 60 s)."""
    log.parent.mkdir(parents=True, exist_ok=True)
    with open(log, "w") as fh:
        proc = subprocess.Popen([*unanimity(), "dashboard", *args, "--port", str(port)],
                                cwd=ROOT, stdout=fh, stderr=subprocess.STDOUT,
                                env=dict(os.environ, **(env or {})), start_new_session=True)
        try:
            deadline = time.time() + 60
            while time.time() < deadline:
                if proc.poll() is not None:
                    fh.flush()
                    pytest.fail(f"dashboard exited with {proc.returncode}: "
                                f"{log.read_text()[-2000:]}")
                try:
                    socket.create_connection(("localhost", port), timeout=0.5).close()
                    break
                except OSError:
                    time.sleep(0.2)
            else:
                pytest.fail("dashboard did not open its port within 60 s")
            yield f"http://localhost:{port}"
        finally:
            proc.terminate()
            try:
                proc.wait(timeout=15)
            except subprocess.TimeoutExpired:
                proc.kill()


#: the hidden element of a cold-open page whose part below the first chart is still to be drawn
#: (:func:`dashboard.ui.below_first_chart`)
BELOW = f".st-key-{BELOW_KEY}"


def ready(pg, title: str, level: int = 1) -> None:
    """Wait for the page whose heading is ``title`` to finish its script run (and, on a cold
    open, the run that draws the part below the first chart) and every element's code to have
    come; fail on an exception or a traceback in the main area."""
    pg.get_by_role("heading", name=title, level=level).first.wait_for()
    pg.wait_for_function(
        "() => !document.querySelector('[data-testid=\"stStatusWidget\"]')"
        " || !document.querySelector('[data-testid=\"stStatusWidget\"]').innerText"
        ".includes('Running')", timeout=120_000)
    # the script's state, not its status widget (shown late), and the rest of a cold-open page;
    # twice, for the run that draws that rest
    done = ("() => document.querySelector('[data-testid=\"stApp\"]')"
            ".getAttribute('data-test-script-state') === 'notRunning'"
            f" && !document.querySelector('{BELOW}')"
            # no element still waiting for its lazily loaded code (Streamlit's placeholder): a CI
            # run read a sidebar whose widgets had not come yet
            " && !document.querySelector('[data-testid=\"stSkeleton\"]')")
    pg.wait_for_function(done, timeout=120_000)
    pg.wait_for_timeout(1500)
    pg.wait_for_function(done, timeout=120_000)
    assert pg.locator("[data-testid='stException']").count() == 0
    assert "Traceback" not in pg.locator("[data-testid='stMain']").inner_text()


def screenshots(pg, name: str) -> None:
    """``OUT/<name>_<w>x<h>.png`` at every size of ``SIZES``; the viewport is restored after."""
    OUT.mkdir(parents=True, exist_ok=True)
    for w, h in SIZES:
        pg.set_viewport_size({"width": w, "height": h})
        pg.wait_for_timeout(1200)
        pg.screenshot(path=str(OUT / f"{name}_{w}x{h}.png"))
    pg.set_viewport_size({"width": SIZES[0][0], "height": SIZES[0][1]})
