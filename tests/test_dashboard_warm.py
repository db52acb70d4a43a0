"""The dashboard's warm start (dashboard/data/warm.py): a score-table campaign's first comparison
is published under the key its first page reads, and a server's warm-up leaves the bundled UD
campaign until the first page is drawn."""

from __future__ import annotations

import os
import subprocess
import sys
import threading
import time
from pathlib import Path

import pandas as pd
import pytest
from score_examples import random_score_table

from dashboard.data import sources, warm
from dashboard.data.sources import (
    CLI_KEY,
    DEMO_KEY,
    campaign_key,
    comparison_key,
    path_source,
    table_key,
    table_pairs,
    table_rows,
    ud_source,
)
from metrics.analyses import comparison_core
from metrics.comparison.profiles import DEFAULT_CORRECTION, DEFAULT_TEST
from metrics.io import load
from metrics.measures.registry import METRIC_PAIRS


@pytest.fixture
def fresh(monkeypatch):
    """This test's own warm start: no results of another, its own "page drawn" signal."""
    monkeypatch.setattr(warm, "_futures", {})
    monkeypatch.setattr(warm, "_optional", set())
    monkeypatch.setattr(warm, "_page_drawn", threading.Event())
    warm._page_drawn.set()  # noqa: SLF001 - as outside a server


def _frame(metrics: list[str]) -> pd.DataFrame:
    return pd.DataFrame({"system": "s", "topic": "t", "metric": metrics, "value": 0.5})


def test_a_score_tables_pairs_are_the_standard_ones_it_has_else_its_first_two():
    bcubed = next(k for k, v in METRIC_PAIRS.items() if v == ("bcubed_precision", "bcubed_recall"))
    pairs = table_pairs(_frame(["bcubed_recall", "x", "bcubed_precision"]))
    assert pairs == {bcubed: ("bcubed_precision", "bcubed_recall")}
    assert table_pairs(_frame(["zeta", "alpha", "zeta", "mu"])) == {"zeta / alpha": ("zeta", "alpha")}
    assert table_pairs(_frame(["alone", "alone"])) == {}


def test_warm_start_publishes_a_score_tables_first_comparison(fresh, monkeypatch, tmp_path):
    monkeypatch.setattr(sources, "UD_PATH", tmp_path / "no-ud")  # the served table only
    path = tmp_path / "scores.csv"
    random_score_table(9, 7, seed=3).to_csv(path, index=False)
    warm._warm(str(path))  # noqa: SLF001 - the warm-up thread's work, in this thread
    src = path_source(path.resolve(), CLI_KEY, "scores.csv")  # the session's
    table = load(str(path)).scores
    (p, r), = table_pairs(table).values()
    assert (p, r) == ("bcubed_precision", "bcubed_recall")
    core = warm.take(comparison_key(table_key(src, False, p, r), DEFAULT_TEST,
                                    DEFAULT_CORRECTION, "macro"))
    assert core is not None
    # as the page would compute it (dashboard/data/live.py: the table's rows of the pair)
    fresh_core = comparison_core(table_rows(table, (p, r)), p, r, test=DEFAULT_TEST,
                                 correction=DEFAULT_CORRECTION, average="macro", metrics=[p, r])
    pd.testing.assert_frame_equal(core.pairs, fresh_core.pairs)
    assert core.parameters == fresh_core.parameters


def test_a_servers_warm_up_leaves_the_bundled_ud_campaign_until_the_first_page(fresh):
    if not sources.UD_PATH.is_dir():
        pytest.skip("the bundled UD campaign is not installed")
    warm._page_drawn.clear()  # noqa: SLF001 - as start() does
    th = threading.Thread(target=warm._warm, args=(None,), daemon=True)  # noqa: SLF001
    th.start()
    demo = sources.sources()[DEMO_KEY]
    first = next(iter(METRIC_PAIRS.values()))
    key = comparison_key(table_key(demo, False, *first), DEFAULT_TEST, DEFAULT_CORRECTION,
                         "macro")
    deadline = time.monotonic() + 120
    while key not in warm._futures and time.monotonic() < deadline:  # noqa: SLF001
        time.sleep(0.05)
    assert warm.take(key) is not None  # the served campaign's first page is ready
    ud = ud_source()
    while (campaign_key(ud) not in warm._futures  # noqa: SLF001 - loaded by the child
           or not warm._futures[campaign_key(ud)].done()) and time.monotonic() < deadline:  # noqa: SLF001
        time.sleep(0.05)
    assert warm.take(campaign_key(ud)) is not None

    def ud_results():
        return [k for k in warm._futures if k[0] != "campaign" and ud.cid in k[1]]  # noqa: SLF001

    time.sleep(0.3)
    assert ud_results() == []  # its first pair and core wait for the first page
    warm.page_drawn()
    th.join(120)
    assert [k[0] for k in ud_results()] == ["scores", "comparison"]
    assert all(warm.take(k) is not None for k in ud_results())


def test_the_first_pairs_table_is_kept_between_servers_as_evaluate_gives_it(fresh, monkeypatch,
                                                                            tmp_path):
    from metrics.measures.scoring import evaluate  # noqa: PLC0415 - only this test

    monkeypatch.setenv("UNANIMITY_CACHE_DIR", str(tmp_path))
    monkeypatch.setattr(sources, "UD_PATH", tmp_path / "no-ud")
    demo = sources.sources()[DEMO_KEY]
    pair = tuple(next(iter(METRIC_PAIRS.values())))
    key = sources.scores_key(demo, False, pair)
    warm._warm(None)  # noqa: SLF001 - computes it and stores it
    assert list(tmp_path.glob("scores-*.parquet"))
    fresh_table = evaluate(load(sources.DEMO_PATH), list(pair), missing="penalize")
    pd.testing.assert_frame_equal(warm.take(key), fresh_table)
    monkeypatch.setattr(warm, "_futures", {})  # the next server reads it
    warm._warm(None)  # noqa: SLF001
    pd.testing.assert_frame_equal(warm.take(key), fresh_table)


def test_the_servers_preimport_leaves_the_first_chart_nothing_to_import():
    """After :func:`warm.preimport` (a fresh interpreter, as the server's) the Leaderboard's
    first chart, built with the campaign's names and serialised as ``st.plotly_chart`` does,
    imports no module: plotly's template and the modules of its traces, shapes and annotations
    were loaded before the server listened (else the first run pays about 0.08 s for them)."""
    code = """
import logging, sys
logging.disable(logging.WARNING)
from dashboard.data import warm
warm.preimport()
import pandas as pd, plotly.io as pio
from dashboard.figures.campaign import f_curves_figure
curves = pd.DataFrame({s: [0.1 * i, 0.5, 0.9 - 0.1 * i] for i, s in enumerate("xyzw")},
                      index=pd.Index([0.0, 0.5, 1.0], name="alpha"))
before = set(sys.modules)
pio.to_json(f_curves_figure(curves, "bcubed_precision", "bcubed_recall", alpha=0.3,
                            highlight={"x": "A", "y": "B"}, average="micro"), validate=False)
print(sorted(set(sys.modules) - before))
"""
    root = Path(__file__).resolve().parents[1]
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True,
                         cwd=root, env={**os.environ, "PYTHONPATH": str(root)}, check=True)
    assert out.stdout.strip() == "[]", out.stdout


@pytest.mark.skipif(not hasattr(os, "getpriority"), reason="POSIX priorities")
def test_a_warm_up_child_starts_at_the_lowest_priority_before_its_imports():
    """The parent lowers the child's priority as it starts it: the child's imports, not only
    its work, yield to a cold open."""
    proc = warm.low_priority_child([sys.executable, "-c", "import time; time.sleep(3)"])
    try:
        assert os.getpriority(os.PRIO_PROCESS, proc.pid) == 19
    finally:
        proc.kill()
        proc.wait()
