"""Warm start: load the default campaign and its default score table while the server starts.

``unanimity dashboard`` starts Streamlit through :mod:`dashboard.serve`, which calls
:func:`start` before handing over to ``streamlit run``: it imports the heavy modules and builds
one figure, then a background thread loads the campaign the dashboard opens on, scores it on
the sidebar's first metric pair and computes the alpha-free comparison core every page reads;
the same for the bundled UD English EWT campaign, which a child process loads. Child processes
at the lowest CPU priority compute the rest: its next two pairs (a ranking campaign's IR
measures in one table), whose comparison cores this process then computes; then UD's Type
level page. :mod:`dashboard.data.disk_cache` keeps the first pair's table and the two slow
tables between servers. What this process computes for later pages waits until a session has
drawn its first page (:func:`page_drawn`): it would hold the interpreter while that page's
script runs. The keys come from :mod:`dashboard.data.sources`. The first session finds the
results here (``dashboard.data.tables`` and ``dashboard.data.live`` ask :func:`take` before
computing), computed with the same ``metrics`` calls as the dashboard's own.
"""
from __future__ import annotations

import logging
import os
import pickle
import subprocess
import sys
import tempfile
import threading
import time
from concurrent.futures import Future
from pathlib import Path
from typing import Any

__all__ = ["start", "take", "submit", "page_drawn", "STARTED"]

_LOG = logging.getLogger("unanimity.dashboard")
_lock = threading.Lock()
_futures: dict[tuple, Future] = {}
_optional: set[tuple] = set()  # the keys of the child process (:func:`_later`)
#: when this module was imported: the server's start, for the notes of ``UNANIMITY_TIMING``
STARTED = time.perf_counter()
#: a job of a child process: ``(cache key, campaign path, what, arguments)``, ``what`` one of
#: ``campaign`` (the campaign itself), ``scores`` (``evaluate`` of the metric names), ``kept``
#: (the same through :mod:`dashboard.data.disk_cache`) and ``mapping`` (``type_mappings`` of
#: run, mapping, measure)
Job = tuple[tuple, str, str, list[str]]


#: set when a session's page has been drawn (:func:`page_drawn`): a server's warm-up
#: (:func:`start` clears it) leaves what the first page does not need until then, or at most
#: ``_REST_AFTER`` seconds
_page_drawn = threading.Event()
_page_drawn.set()
_REST_AFTER = 20.0


def page_drawn() -> None:
    """Called at the end of a script run that has drawn its whole page (``dashboard/app.py``):
    the first page is there, the warm-up may go on with what later pages need."""
    _page_drawn.set()


def _note(what: str) -> None:
    """With ``UNANIMITY_TIMING`` set, log when a warm-up result is ready (seconds since the
    server started), beside the page runs' times of ``dashboard/app.py``."""
    if os.environ.get("UNANIMITY_TIMING"):
        print(f"[unanimity] warm {what} at {time.perf_counter() - STARTED:.3f}s", file=sys.stderr,
              flush=True)


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
    _note(str(key[0]))
    return fut


def take(key: tuple):
    """The warm result for ``key`` (waiting for it if the warm-up thread is computing it), or
    None; a result of the low-priority child process only when it is there (on a busy machine
    the session computes it sooner itself)."""
    with _lock:
        fut = _futures.get(key)
        optional = key in _optional
    if fut is None or (optional and not fut.done()):
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

    _first_figure()


def _first_figure() -> None:
    """Build and serialise (as ``st.plotly_chart`` does) a small Fα-curves figure, the
    Leaderboard's first chart: a process's first figure loads Plotly's template and the modules
    of its traces, shapes and annotations (0.07 s of CPU the first run would spend)."""
    import pandas as pd  # noqa: PLC0415 - deferred: imported by the warm-up thread
    import plotly.io as pio  # noqa: PLC0415 - deferred: imported by the warm-up thread

    from dashboard.figures.campaign import f_curves_figure  # noqa: PLC0415 - deferred: imported by the warm-up thread

    curves = pd.DataFrame({"A": [0.2, 0.4], "B": [0.4, 0.2]}, index=[0.0, 1.0])
    pio.to_json(f_curves_figure(curves, "precision", "recall", alpha=0.5,
                                highlight={"A": "A"}), validate=False)


def _first_pair(campaign) -> tuple[str, str]:
    """The metric pair the sidebar opens a campaign on
    (:func:`dashboard.data.tables.metric_pairs`)."""
    from metrics.measures.registry import default_metric_pairs  # noqa: PLC0415 - deferred: imported by the warm-up thread

    return tuple(next(iter(default_metric_pairs(campaign).values())))  # type: ignore[return-value]


def _pair_and_core(src, campaign) -> None:
    """Score ``campaign`` on its first pair (kept between servers by
    :mod:`dashboard.data.disk_cache`) and compute the comparison core (as the session); of a
    score-table campaign, the core of the first pair its table offers, on the table's rows of
    that pair."""
    from dashboard.data import disk_cache  # noqa: PLC0415 - deferred: imported by the warm-up thread
    from dashboard.data.sources import scores_key, table_pairs, table_rows  # noqa: PLC0415 - deferred: imported by the warm-up thread
    from metrics.measures.scoring import evaluate  # noqa: PLC0415 - deferred: imported by the warm-up thread

    if not campaign.has_clusterings:
        pairs = table_pairs(campaign.scores)
        if pairs:
            pair = next(iter(pairs.values()))
            _core(src, campaign, table_rows(campaign.scores, pair), pair)
        return
    pair = _first_pair(campaign)
    if src.testbeds is None:  # kept between servers (TREC DL 2019's: 2 s of CPU to compute)
        scores = submit(scores_key(src, False, pair), disk_cache.scores, campaign, pair,
                        "penalize").result()
    else:
        scores = submit(scores_key(src, False, pair), evaluate, campaign, list(pair),
                        "penalize").result()
    _core(src, campaign, scores, pair)


def _later_cores(src, campaign) -> None:
    """The comparison cores of the pairs :func:`_pair_jobs` scored (read from the published
    tables; of a ranking campaign, the pairs' rows of its IR measures' table)."""
    from dashboard.data.sources import ir_group, rows_of, scores_key  # noqa: PLC0415 - deferred: imported by the warm-up thread
    from metrics.measures.registry import default_metric_pairs  # noqa: PLC0415 - deferred: imported by the warm-up thread

    pairs = default_metric_pairs(campaign)
    for pair in list(pairs.values())[1:3]:
        group = ir_group(pairs, pair) if campaign.tail else None
        scores = take(scores_key(src, False, group or pair))
        if scores is not None:
            _core(src, campaign, rows_of(scores, pair) if group else scores, pair)


def _core(src, campaign, scores, pair: tuple[str, str]) -> None:
    """The alpha-free comparison core of ``pair`` on ``scores``, under the key and with the
    defaults of the session's first comparison (:func:`dashboard.data.live.comparison`)."""
    from dashboard.data.sources import comparison_key, comparison_testbeds, table_key  # noqa: PLC0415 - deferred: imported by the warm-up thread
    from metrics.analyses import comparison_core  # noqa: PLC0415 - deferred: imported by the warm-up thread
    from metrics.comparison.profiles import DEFAULT_CORRECTION, DEFAULT_TEST  # noqa: PLC0415 - deferred: imported by the warm-up thread

    beds = comparison_testbeds(campaign.topic_testbeds())
    p, r = pair
    submit(comparison_key(table_key(src, False, p, r), DEFAULT_TEST, DEFAULT_CORRECTION,
                          "macro"),
           lambda: comparison_core(scores, p, r, test=DEFAULT_TEST,
                                   correction=DEFAULT_CORRECTION, average="macro",
                                   testbeds=beds))


def _warm(path: str | None, testbeds: str | None = None, later: bool = False) -> None:
    """Load the campaign at ``path`` (None: the bundled one), score its first pair and compute
    its comparison core; then the bundled UD English EWT campaign the same way (when the
    selector offers it); with ``later``, the slow rest in low-priority child processes
    (:func:`_later`): the served campaign's as soon as it is loaded (on a second core it is
    ready before the user changes the pair), then UD's Type level page's."""
    try:
        from dashboard.data.sources import UD_PATH, campaign_key, demo_source, ud_source  # noqa: PLC0415 - deferred: imported by the warm-up thread
        from metrics.io import load  # noqa: PLC0415 - deferred: imported by the warm-up thread
        from metrics.io.testbeds import testbeds_option  # noqa: PLC0415 - deferred: imported by the warm-up thread

        src = demo_source(Path(path) if path else None, testbeds)
        campaign = submit(campaign_key(src), lambda: load(
            src.path, testbeds=testbeds_option(src.testbeds))).result()
        pairs = threading.Thread(target=_later_or_log, args=(src, campaign),
                                 name="unanimity-warm-later", daemon=True)
        if later:
            pairs.start()
        _pair_and_core(src, campaign)
        offers_ud = UD_PATH.is_dir() and Path(src.path).resolve() != UD_PATH.resolve()
        if offers_ud:
            ud = ud_source()
            # loaded by a child (0.5 s of CPU, 0.01 s to read back); its first pair and core
            # (from disk after the first server: a few hundredths of a second) only once the
            # first page is drawn: this process's work would hold the interpreter while that
            # page's script runs (a campaign is rarely switched before)
            _later([(campaign_key(ud), ud.path, "campaign", [])])
            _page_drawn.wait(_REST_AFTER)
            ud_campaign = take(campaign_key(ud))
            if ud_campaign is not None:
                _pair_and_core(ud, ud_campaign)
            if later:
                pairs.join()  # one child at a time: the served campaign's first
                _later(_ud_jobs())
    except Exception:  # noqa: BLE001 - a warm-up failure only costs time
        _LOG.debug("warm-up failed", exc_info=True)


def _pair_jobs(src, campaign) -> list[Job]:
    """The jobs (:data:`Job`) of the slow warm-up of the served campaign: its next two metric
    pairs (of a ranking campaign: the IR measures of all its pairs in one table,
    :func:`dashboard.data.sources.ir_group`, kept between servers by
    :mod:`dashboard.data.disk_cache`)."""
    from dashboard.data import disk_cache  # noqa: PLC0415 - deferred: imported by the warm-up thread
    from dashboard.data.sources import ir_group, scores_key  # noqa: PLC0415 - deferred: imported by the warm-up thread
    from metrics.measures.registry import default_metric_pairs  # noqa: PLC0415 - deferred: imported by the warm-up thread

    if not campaign.has_clusterings or src.testbeds is not None:
        return []
    pairs = default_metric_pairs(campaign)
    rest = [tuple(p) for p in list(pairs.values())[1:3]]
    # a ranking campaign's IR measures: one table of all (dashboard.data.tables.score_table), kept
    # between servers (dashboard.data.disk_cache): when it is there, published at once
    group = ir_group(pairs, rest[0]) if rest and campaign.tail else None
    if group is None:
        return [(scores_key(src, False, names), src.path, "scores", list(names)) for names in rest]
    kept = disk_cache.stored(campaign, group, "penalize")
    if kept is not None:
        submit(scores_key(src, False, group), lambda: kept)
        return []
    return [(scores_key(src, False, group), src.path, "kept", list(group))]


def _ud_jobs() -> list[Job]:
    """The jobs of the Type level page of the bundled UD campaign: every run's mappings the
    page's mapping section opens on, then its score table, kept between servers by
    :mod:`dashboard.data.disk_cache` (when it is there, it is published at once)."""
    from dashboard.data import disk_cache  # noqa: PLC0415 - deferred: imported by the warm-up thread
    from dashboard.data.sources import UD_PATH, campaign_key, mapping_key, typelevel_key, ud_source  # noqa: PLC0415 - deferred: imported by the warm-up thread
    from dashboard.data.typelevel_metrics import MAPPINGS, MEASURES, TOKEN_METRICS, TYPE_METRICS  # noqa: PLC0415 - deferred: imported by the warm-up thread

    ud = take(campaign_key(ud_source()))
    if ud is None:
        return []
    mapping, measure = next(iter(MAPPINGS.values())), next(iter(MEASURES.values()))
    jobs: list[Job] = [(mapping_key(ud.source, ud.name, len(ud.systems), system, mapping,
                                    measure, "penalize"), str(UD_PATH), "mapping",
                        [system, mapping, measure]) for system in ud.systems]
    key = typelevel_key(ud.source, ud.name, len(ud.systems), "penalize")
    names = list(TOKEN_METRICS + TYPE_METRICS)
    kept = disk_cache.stored(ud, names, "penalize")
    if kept is not None:
        submit(key, lambda: kept)
    else:
        jobs.append((key, str(UD_PATH), "kept", names))
    return jobs


def _later(jobs: list[Job]) -> None:
    """Compute ``jobs`` (:func:`_pair_jobs`, :func:`_ud_jobs`) in a child process at the lowest
    CPU priority (it does not hold this server's interpreter while sessions run), publishing
    each result as it comes; a session that asks before it is there computes it itself
    (:func:`take`)."""
    if not jobs:
        return
    futures = []
    with _lock:
        for key, *_ in jobs:
            if key not in _futures:
                _futures[key] = Future()
                _optional.add(key)
            futures.append(_futures[key])
    with tempfile.TemporaryDirectory(prefix="unanimity-warm-") as tmp:
        spec = Path(tmp) / "jobs.pkl"
        spec.write_bytes(pickle.dumps([job[1:] for job in jobs]))
        proc = low_priority_child([sys.executable, "-m", "dashboard.data.warm", tmp])
        for i, fut in enumerate(futures):
            out = Path(tmp) / f"{i}.pkl"
            while not out.exists() and proc.poll() is None:
                time.sleep(0.2)
            if fut.done():
                continue
            if out.exists():
                fut.set_result(pickle.loads(out.read_bytes()))
                _note(f"{jobs[i][0][0]} (child)")
            else:
                fut.set_exception(RuntimeError("the warm-up process stopped"))
        proc.wait()


def low_priority_child(args: list[str]) -> subprocess.Popen:
    """Start ``args`` (output discarded) at the lowest priority at once, from the parent (the
    child's own ``os.nice`` comes after its imports, about 0.6 s of CPU beside a cold open)."""
    proc = subprocess.Popen(args, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    try:
        os.setpriority(os.PRIO_PROCESS, proc.pid, 19)
    except (OSError, AttributeError):  # not on this platform, or the child has already ended
        pass
    return proc


def _later_or_log(src, campaign) -> None:
    """:func:`_later` of :func:`_pair_jobs`, then :func:`_later_cores`, in their own thread: a
    failure only costs time."""
    try:
        _later(_pair_jobs(src, campaign))
        _page_drawn.wait(_REST_AFTER)  # as _warm: after the first page
        _later_cores(src, campaign)
    except Exception:  # noqa: BLE001 - the sessions compute what is missing
        _LOG.debug("warm-up child failed", exc_info=True)


def _child(tmp: str) -> None:
    """The child process of :func:`_later`: lowest priority, ends with its parent, writes
    ``<i>.pkl`` (atomically) for each job of ``jobs.pkl``."""
    import ctypes  # noqa: PLC0415 - deferred: the child process only
    import signal  # noqa: PLC0415 - deferred: the child process only

    from dashboard.data import disk_cache  # noqa: PLC0415 - deferred: the child process only
    from metrics.io import load  # noqa: PLC0415 - deferred: the child process only
    from metrics.measures.scoring import evaluate  # noqa: PLC0415 - deferred: the child process only
    from metrics.measures.typelevel.type_entries import type_mappings  # noqa: PLC0415 - deferred: the child process only

    try:
        ctypes.CDLL(None).prctl(1, signal.SIGTERM)  # PR_SET_PDEATHSIG: end with the server
    except (OSError, AttributeError):
        pass
    os.nice(19)
    campaigns: dict[str, Any] = {}
    for i, (path, what, args) in enumerate(pickle.loads((Path(tmp) / "jobs.pkl").read_bytes())):
        if path not in campaigns:
            campaigns[path] = load(path)
        out = Path(tmp) / f"{i}.pkl"
        if what == "campaign":
            frame = campaigns[path]
        elif what == "mapping":
            system, mapping, measure = args
            frame = type_mappings(campaigns[path], system, mapping=mapping, measure=measure,
                                  missing="penalize")
        elif what == "kept":
            frame = disk_cache.scores(campaigns[path], args, "penalize")
        else:
            frame = evaluate(campaigns[path], args, missing="penalize")
        out.with_suffix(".tmp").write_bytes(pickle.dumps(frame))
        out.with_suffix(".tmp").rename(out)


def start(path: str | None, testbeds: str | None = None) -> threading.Thread:
    """Import the heavy modules, then start the warm-up thread for the campaign at ``path``
    (None: the bundled one) with the command line's test-bed rule."""
    try:
        preimport()
    except Exception:  # noqa: BLE001
        _LOG.debug("pre-import failed", exc_info=True)
    _page_drawn.clear()
    th = threading.Thread(target=_warm, args=(path, testbeds, True), name="unanimity-warm",
                          daemon=True)
    th.start()
    return th


if __name__ == "__main__":
    _child(sys.argv[1])
