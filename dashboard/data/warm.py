"""Warm start: load the default campaign and its default score table while the server starts.

``unanimity dashboard`` starts Streamlit through :mod:`dashboard.serve`, which calls
:func:`start` before handing over to ``streamlit run``. A background thread imports the heavy
modules (scipy, plotly, the ``metrics`` kernels), loads the campaign the dashboard opens on,
scores it on the default metric pair and computes the alpha-free comparison core every page reads.
The keys come from :mod:`dashboard.data.sources`, the one owner of the dashboard's cache keys.
The first session then finds them here instead of
computing them (``dashboard.data.live`` asks :func:`take` before computing), so the first chart
appears within a few seconds of opening the page. Nothing is computed here that the dashboard
would not compute itself, with the same ``metrics`` calls.
"""

from __future__ import annotations

import logging
import threading
from concurrent.futures import Future
from pathlib import Path

__all__ = ["start", "take", "submit"]

_LOG = logging.getLogger("unanimity.dashboard")
_lock = threading.Lock()
_futures: dict[tuple, Future] = {}


def submit(key: tuple, fn, *args) -> Future:
    """Run ``fn(*args)`` once for ``key`` (in the calling thread) and publish its result."""
    with _lock:
        fut = _futures.get(key)
        if fut is not None:
            return fut
        fut = Future()
        _futures[key] = fut
    try:
        fut.set_result(fn(*args))
    except BaseException as exc:  # noqa: BLE001 - the session recomputes and reports it
        fut.set_exception(exc)
    return fut


def take(key: tuple):
    """The warm result for ``key`` (waiting for it if the warm-up is computing it), or None."""
    with _lock:
        fut = _futures.get(key)
    if fut is None:
        return None
    try:
        return fut.result(timeout=120)
    except Exception:  # noqa: BLE001 - fall back to computing in the session
        return None


def preimport() -> None:
    """Import the heavy modules (call in the main thread, before any other thread imports:
    concurrent first imports of the same module can see it half-initialised)."""
    import plotly.graph_objects  # noqa: F401, PLC0415 - deferred: imported by the warm-up thread
    import scipy.optimize  # noqa: F401, PLC0415 - deferred: imported by the warm-up thread
    import scipy.stats  # noqa: F401, PLC0415 - deferred: imported by the warm-up thread
    import streamlit  # noqa: F401, PLC0415 - deferred: imported by the warm-up thread
    from streamlit.web import cli  # noqa: F401, PLC0415 - deferred: imported by the warm-up thread

    import metrics.analyses.baselines  # noqa: F401, PLC0415 - deferred: imported by the warm-up thread

    # the modules of the comparison every page reads (metrics.analyses exports lazily)
    import metrics.analyses.campaign_comparison  # noqa: F401, PLC0415 - deferred: imported by the warm-up thread
    import metrics.analyses.cross_testbed  # noqa: F401, PLC0415 - deferred: imported by the warm-up thread
    import metrics.analyses.per_topic  # noqa: F401, PLC0415 - deferred: imported by the warm-up thread
    import metrics.analyses.rankings  # noqa: F401, PLC0415 - deferred: imported by the warm-up thread
    import metrics.analyses.threshold  # noqa: F401, PLC0415 - deferred: imported by the warm-up thread
    import metrics.comparison.significance  # noqa: F401, PLC0415 - deferred: imported by the warm-up thread
    import metrics.comparison.tie_ranking  # noqa: F401, PLC0415 - deferred: imported by the warm-up thread
    import metrics.io  # noqa: F401, PLC0415 - deferred: imported by the warm-up thread
    import metrics.io.load  # noqa: F401, PLC0415 - deferred: imported by the warm-up thread
    import metrics.io.scoretable  # noqa: F401, PLC0415 - deferred: imported by the warm-up thread
    import metrics.io.semeval  # noqa: F401, PLC0415 - deferred: imported by the warm-up thread
    import metrics.measures.scoring  # noqa: F401, PLC0415 - deferred: imported by the warm-up thread
    import metrics.reports.comparison_report  # noqa: F401, PLC0415 - deferred: imported by the warm-up thread
    from dashboard import figures  # noqa: F401, PLC0415 - deferred: imported by the warm-up thread


def _warm(path: str | None, testbeds: str | None = None) -> None:
    try:
        from dashboard.data.sources import (  # noqa: PLC0415 - deferred: imported by the warm-up thread
            campaign_key,
            comparison_key,
            comparison_testbeds,
            demo_source,
            scores_key,
            table_key,
        )
        from metrics.analyses import comparison_core  # noqa: PLC0415 - deferred: imported by the warm-up thread
        from metrics.comparison.profiles import DEFAULT_CORRECTION, DEFAULT_TEST  # noqa: PLC0415 - deferred: imported by the warm-up thread
        from metrics.io import load  # noqa: PLC0415 - deferred: imported by the warm-up thread
        from metrics.io.testbeds import testbeds_option  # noqa: PLC0415 - deferred: imported by the warm-up thread
        from metrics.measures.registry import METRIC_PAIRS  # noqa: PLC0415 - deferred: imported by the warm-up thread
        from metrics.measures.scoring import evaluate  # noqa: PLC0415 - deferred: imported by the warm-up thread

        src = demo_source(Path(path) if path else None, testbeds)
        campaign = submit(campaign_key(src), lambda: load(
            src.path, testbeds=testbeds_option(src.testbeds))).result()
        if campaign.has_clusterings:
            metric_names = tuple(next(iter(METRIC_PAIRS.values())))
            scores = submit(scores_key(src, False, metric_names), evaluate, campaign,
                            list(metric_names), "penalize").result()
            beds = comparison_testbeds(campaign.topic_testbeds())
            p, r = metric_names
            submit(comparison_key(table_key(src, False, p, r), DEFAULT_TEST, DEFAULT_CORRECTION,
                                  "macro"),
                   lambda: comparison_core(scores, p, r, test=DEFAULT_TEST,
                                           correction=DEFAULT_CORRECTION, average="macro",
                                           testbeds=beds))
    except Exception:  # noqa: BLE001 - a warm-up failure only costs time
        _LOG.debug("warm-up failed", exc_info=True)


def start(path: str | None, testbeds: str | None = None) -> threading.Thread:
    """Import the heavy modules, then start the warm-up thread for the campaign at ``path``
    (None: the bundled one) with the command line's test-bed rule."""
    try:
        preimport()
    except Exception:  # noqa: BLE001
        _LOG.debug("pre-import failed", exc_info=True)
    th = threading.Thread(target=_warm, args=(path, testbeds), name="unanimity-warm",
                          daemon=True)
    th.start()
    return th
