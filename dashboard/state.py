"""Shared state of the dashboard: campaign sources, the sidebar controls and the URL.

Every control worth sharing is a widget with ``key=`` and ``bind="query-params"``: its value
lives in the URL (``?campaign=...&a=...&b=...&alpha=...&metrics=...&threshold=...``), so a pasted
link reproduces the view and the browser's back / forward buttons move between views. The page
itself is the URL path (``/compare``, ``/uir``, ...), set by ``st.navigation``.

Pages read the current :class:`Selection` with :func:`selection`; a page that wants to change a
sidebar control (a click on a pair of the UIR page opens that pair) calls :func:`request` and
reruns: pending values are applied before the widgets are drawn.
"""

from __future__ import annotations

import os
import sys
from dataclasses import dataclass, field
from pathlib import Path

import streamlit as st

import metrics
from dashboard import uploads

__all__ = [
    "DEMO_PATH", "Source", "Selection", "sources", "register_upload", "cli_path",
    "sidebar_ui", "selection", "request", "apply_requests", "CUSTOM_PAIR",
]

DEMO_PATH = Path(metrics.__file__).resolve().parents[1] / "demo_data" / "replab2013"
DEMO_KEY = "replab2013"
CLI_KEY = "cli"
CUSTOM_PAIR = "Custom pair\u2026"
DEFAULT_ALPHA = 0.5
DEFAULT_THRESHOLD = 0.25
_PENDING = "_pending_state"
_SELECTION = "_selection"


@dataclass(frozen=True)
class Source:
    """Where a campaign comes from.

    Attributes
    ----------
    key : str
        Short id used in the URL (``replab2013``, ``cli``, ``up-1a2b3c4d5e``).
    label : str
        What the campaign selector shows.
    path : str
        What :func:`metrics.io.load` reads (or the gold file with ``runs``).
    cid : str
        Cache id: the path plus its modification time, or the upload digest. Cached computations
        are keyed on it, never on the campaign's content.
    runs : tuple of str
        Run files, for a campaign uploaded as loose gold + run files.
    """

    key: str
    label: str
    path: str
    cid: str
    runs: tuple[str, ...] = ()


def _mtime_id(path: Path) -> str:
    try:
        if path.is_dir():
            stamps = [p.stat().st_mtime_ns for p in sorted(path.rglob("*")) if p.is_file()]
            stamp = max(stamps) if stamps else path.stat().st_mtime_ns
        else:
            stamp = path.stat().st_mtime_ns
    except OSError:
        stamp = 0
    return f"{path}@{stamp}"


def cli_path() -> Path | None:
    """The campaign path given on the command line (``unanimity dashboard PATH``), if any.

    ``streamlit run app.py -- PATH`` sets ``sys.argv = [app.py, PATH]``; the environment variable
    ``UNANIMITY_CAMPAIGN`` gives one too (e.g. under ``AppTest``).
    """
    app = Path(__file__).resolve().parent / "app.py"
    if sys.argv and Path(sys.argv[0]).resolve() == app:
        for arg in sys.argv[1:]:
            if arg and not arg.startswith("-"):
                return Path(arg).expanduser().resolve()
    env = os.environ.get("UNANIMITY_CAMPAIGN")
    return Path(env).expanduser().resolve() if env else None


@st.cache_resource(show_spinner=False, scope="session")
def _uploads() -> dict[str, Source]:
    """Uploaded campaigns of this browser session, by key (uploads are per session)."""
    return {}


def register_upload(files: list[tuple[str, bytes]], gold: str | None = None) -> Source:
    """Store uploaded files (:mod:`dashboard.uploads`) and register them as a source.

    Parameters
    ----------
    files : list of (name, content)
    gold : str, optional
        Name of the gold file when several loose files are uploaded.
    """
    up = uploads.session_space().save(files, gold if len(files) > 1 else None)
    names = ", ".join(p.name for p in up.paths)
    if len(up.paths) == 1:
        src = Source(up.key, f"{short_label(names)} (upload)", str(up.paths[0]), f"upload:{up.key}")
    else:
        src = Source(up.key, f"{short_label(names)} (upload)", str(up.gold or ""),
                     f"upload:{up.key}", tuple(str(p) for p in (up.runs or up.paths)))
    _uploads()[up.key] = src
    return src


def forget_upload(key: str) -> None:
    """Drop an upload that could not be loaded, and delete its files."""
    _uploads().pop(key, None)
    uploads.session_space().discard(key)


def short_label(text: str, n: int = 40) -> str:
    return text if len(text) <= n else text[: n - 1] + "\u2026"


def sources() -> dict[str, Source]:
    """Campaigns the selector offers: the command-line one first, the bundled one, uploads."""
    out: dict[str, Source] = {}
    cli = cli_path()
    if cli is not None and cli.resolve() != DEMO_PATH.resolve():  # the demo is listed below
        out[CLI_KEY] = Source(CLI_KEY, f"{cli.name} (command line)", str(cli), _mtime_id(cli))
    out[DEMO_KEY] = Source(DEMO_KEY, "RepLab 2013 (bundled)", str(DEMO_PATH), _mtime_id(DEMO_PATH))
    out.update(_uploads())
    return out


@dataclass(frozen=True)
class Selection:
    """Everything the sidebar selects; pages compute from this and nothing else global."""

    source: Source
    pair_label: str
    precision: str
    recall: str
    alpha: float
    threshold: float
    average: str
    testbeds: tuple[str, ...]
    all_testbeds: tuple[str, ...]
    baselines: bool
    a: str
    b: str
    systems: tuple[str, ...] = field(default=())
    image_format: str = "png"

    @property
    def metrics(self) -> tuple[str, str]:
        return (self.precision, self.recall)

    @property
    def bed_filter(self) -> tuple[str, ...]:
        """The selected test beds, or () when all are selected (no filter)."""
        if not self.testbeds or set(self.testbeds) == set(self.all_testbeds):
            return ()
        return tuple(sorted(self.testbeds))


def request(**values) -> None:
    """Ask for sidebar values to change on the next run (e.g. a click on a pair)."""
    pending = dict(st.session_state.get(_PENDING, {}))
    pending.update(values)
    st.session_state[_PENDING] = pending


def apply_requests() -> None:
    """Apply requested values before the widgets are created (called first by the app)."""
    pending = st.session_state.pop(_PENDING, None)
    if pending:
        for k, v in pending.items():
            st.session_state[k] = v


def selection() -> Selection:
    """The current selection (set by the sidebar on this run)."""
    return st.session_state[_SELECTION]


def _valid(key: str, options: list, default):
    """Drop a session value no longer among the options (e.g. after a campaign switch)."""
    if key in st.session_state and st.session_state[key] not in options:
        del st.session_state[key]
    return options.index(default) if default in options else 0


def sidebar_ui() -> Selection:
    """Draw the global controls in the sidebar and return the selection.

    The sidebar shows: campaign, metric pair, alpha, UIR threshold, averaging, test beds,
    baselines, and the pair of systems (A, B).
    """
    from dashboard import data  # noqa: PLC0415 - avoids an import cycle

    srcs = sources()
    keys = list(srcs)
    sb = st.sidebar
    _valid("campaign", keys, keys[0])
    key = sb.selectbox("Campaign", keys, format_func=lambda k: srcs[k].label if k in srcs else k,
                       key="campaign", bind="query-params")
    src = srcs[key]
    try:
        info = data.campaign_info(src)
    except Exception as exc:  # noqa: BLE001 - a bad campaign must not break the app
        sb.error(f"Could not load {src.label}: {exc}")
        src = srcs[DEMO_KEY]
        info = data.campaign_info(src)
    pair_box = sb.container()

    # --- metric pair ---------------------------------------------------------------------------
    pairs = data.metric_pairs(src)
    labels = list(pairs) + [CUSTOM_PAIR]
    _valid("metrics", labels, labels[0])
    label = sb.selectbox("Metric pair", labels, key="metrics", bind="query-params",
                         help="A precision-like and a recall-like metric. F\u03b1 weighs them by "
                              "\u03b1; UIR needs no weight.")
    if label == CUSTOM_PAIR:
        names = data.metric_names(src)
        c1, c2 = sb.columns(2)
        _valid("p", names, names[0])
        _valid("r", names, names[min(1, len(names) - 1)])
        precision = c1.selectbox("Precision-like", names, index=0, key="p", bind="query-params")
        recall = c2.selectbox("Recall-like", names, index=min(1, len(names) - 1), key="r",
                              bind="query-params")
        if precision == recall:
            sb.warning("Pick two different metrics.")
            label = labels[0]
            precision, recall = pairs[label]
    else:
        precision, recall = pairs[label]
    if not info["has_clusterings"]:
        sb.caption("Score-table campaign: only the metrics of the table.")

    alpha = sb.slider("\u03b1, weight of the precision-like metric", 0.0, 1.0, DEFAULT_ALPHA,
                      0.01, key="alpha", bind="query-params",
                      help="F\u03b1 = 1 / (\u03b1/P + (1\u2212\u03b1)/R); 0.5 is the harmonic mean.")
    threshold = sb.slider("UIR threshold", 0.0, 1.0, DEFAULT_THRESHOLD, 0.01, key="threshold",
                          bind="query-params",
                          help="UIR(a, b) \u2265 threshold counts as a robust improvement "
                               "(0.25 in Amig\u00f3 et al.).")
    all_beds = tuple(info["testbeds"])
    beds: tuple[str, ...] = ()
    if all_beds:
        chosen = sb.pills("Test beds", list(all_beds), selection_mode="multi",
                          default=list(all_beds), key="beds", bind="query-params",
                          help="Restrict every view to the topics of these test beds.")
        beds = tuple(chosen) if chosen else all_beds
        if not chosen:
            sb.caption("No test bed selected: showing all.")
    average = sb.segmented_control(
        "Averaging over topics", ["macro", "micro"], default="macro", key="average",
        bind="query-params",
        help="macro: mean of per-topic F\u03b1; micro: F\u03b1 of the mean precision and "
             "recall.") or "macro"
    baselines = sb.toggle("Add baselines", value=False, key="baselines", bind="query-params",
                          disabled=not info["has_clusterings"],
                          help="all-in-one, one-in-one, combined, random and ultra-shaped "
                               "random baselines (clustering campaigns only).")
    baselines = bool(baselines and info["has_clusterings"])

    sel0 = Selection(src, label, precision, recall, float(alpha), float(threshold), average, beds,
                     all_beds, baselines, "", "")
    systems, default_a, default_b = data.default_pair(sel0)
    _valid("a", systems, default_a)
    _valid("b", systems, default_b)
    with pair_box:
        a = st.selectbox("System A", systems, index=systems.index(default_a), key="a",
                         bind="query-params")
        b = st.selectbox("System B", systems, index=systems.index(default_b), key="b",
                         bind="query-params")
        if a == b:
            st.warning("A and B are the same system: pick two.")
    with sb.expander("Chart export"):
        fmt = st.radio("Toolbar camera saves", ["png", "svg"], horizontal=True, key="imgfmt",
                       persist_state="session")
    sel = Selection(src, label, precision, recall, float(alpha), float(threshold), average, beds,
                    all_beds, baselines, a, b, tuple(systems), fmt)
    st.session_state[_SELECTION] = sel
    return sel
