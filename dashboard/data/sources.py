"""Where campaigns come from, and the cache keys that name them.

The one owner of campaign sources (the command-line path, the bundled campaign, uploads) and of
the keys their cached results are stored under: :mod:`dashboard.data.tables` and
:mod:`dashboard.data.live` cache with them and :mod:`dashboard.data.warm` publishes its warm-up
results under them, so they cannot drift apart.
Upload handling is grouped in the "Uploads" section below.
"""

from __future__ import annotations

import os
import sys
from dataclasses import dataclass
from pathlib import Path

import streamlit as st
from streamlit.runtime.scriptrunner import get_script_run_ctx

from dashboard.data import uploads
from metrics.bundled import campaign_path
from metrics.comparison.profiles import DEFAULT_PROFILE
from metrics.reports.bundle import is_bundle

__all__ = ["DEMO_PATH", "DEMO_KEY", "UD_PATH", "UD_KEY", "CLI_KEY", "Source", "sources", "cli_path",
           "mtime_id",
           "register_upload", "forget_upload", "campaign_key", "scores_key", "table_key",
           "comparison_key", "typelevel_key", "ud_source", "demo_source", "cli_testbeds",
           "path_source", "ir_group", "rows_of", "mapping_key", "table_pairs", "table_rows"]

DEMO_PATH = campaign_path("replab2013")  # demo_data/, in a checkout or in the installed package
DEMO_KEY = "replab2013"
#: The bundled token tagging campaign (part-of-speech induction on UD English EWT).
UD_PATH = campaign_path("ud-ewt")
UD_KEY = "ud-ewt"
CLI_KEY = "cli"


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
    testbeds : str, optional
        The test-bed rule given on the command line (``unanimity dashboard PATH --testbeds
        REGEX|FILE``), read by ``metrics.io.load.testbeds_option``; part of ``cid``.
    """

    key: str
    label: str
    path: str
    cid: str
    runs: tuple[str, ...] = ()
    testbeds: str | None = None


def mtime_id(path: Path) -> str:
    """Cache id of a file or folder: its path and latest modification time."""
    try:
        if path.is_dir():
            stamps = [p.stat().st_mtime_ns for p in sorted(path.rglob("*")) if p.is_file()]
            stamp = max(stamps) if stamps else path.stat().st_mtime_ns
        else:
            stamp = path.stat().st_mtime_ns
    except OSError:
        stamp = 0
    return f"{path}@{stamp}"


def _app_args() -> list[str] | None:
    """The arguments after ``app.py`` when run as ``streamlit run app.py -- ARGS``."""
    app = Path(__file__).resolve().parents[1] / "app.py"
    if sys.argv and Path(sys.argv[0]).resolve() == app:
        return sys.argv[1:]
    return None


def cli_path() -> Path | None:
    """The campaign path given on the command line (``unanimity dashboard PATH``), if any.

    ``streamlit run app.py -- PATH [--testbeds RULE]`` sets ``sys.argv = [app.py, PATH, ...]``;
    the environment variable ``UNANIMITY_CAMPAIGN`` gives one too (e.g. under ``AppTest``).
    """
    args = _app_args()
    if args is not None:
        skip = False
        for arg in args:
            if skip:
                skip = False
            elif arg == "--testbeds":
                skip = True
            elif arg and not arg.startswith("-"):
                return Path(arg).expanduser().resolve()
    env = os.environ.get("UNANIMITY_CAMPAIGN")
    return Path(env).expanduser().resolve() if env else None


def cli_testbeds() -> str | None:
    """The test-bed rule given with the command-line campaign (``--testbeds REGEX|FILE``, or
    ``UNANIMITY_TESTBEDS``), if any."""
    args = _app_args() or []
    if "--testbeds" in args[:-1]:
        return args[args.index("--testbeds") + 1]
    return os.environ.get("UNANIMITY_TESTBEDS") or None


def path_source(path: Path, key: str, label: str, testbeds: str | None = None) -> Source:
    """The source of a campaign on disk, with its test-bed rule (if any) in its cache id."""
    cid = mtime_id(path)
    if testbeds:
        rule = Path(testbeds).expanduser()
        cid += f"|testbeds={mtime_id(rule.resolve()) if rule.is_file() else testbeds}"
    return Source(key, label, str(path), cid, (), testbeds or None)


def short_label(text: str, n: int = 40) -> str:
    return text if len(text) <= n else text[: n - 1] + "\u2026"


def sources() -> dict[str, Source]:
    """Campaigns the selector offers: the command-line one first, the bundled one, uploads."""
    out: dict[str, Source] = {}
    cli = cli_path()
    if cli is not None and cli.resolve() != DEMO_PATH.resolve() and not _is_bundle(cli):
        # the demo is listed below; a comparison bundle is shown by dashboard/bundle_app.py
        out[CLI_KEY] = path_source(cli, CLI_KEY, cli.name, cli_testbeds())
    out[DEMO_KEY] = Source(DEMO_KEY, "RepLab 2013 (bundled)", str(DEMO_PATH), mtime_id(DEMO_PATH))
    if UD_PATH.is_dir() and (cli is None or cli.resolve() != UD_PATH.resolve()):
        out[UD_KEY] = ud_source()
    if get_script_run_ctx(suppress_warning=True) is not None:  # uploads belong to a session
        out.update(_uploads())
    return out


def ud_source() -> Source:
    """The bundled token tagging campaign's source (UD English EWT)."""
    return Source(UD_KEY, "UD English EWT (bundled)", str(UD_PATH),
                  mtime_id(UD_PATH))


def _is_bundle(path: Path) -> bool:

    return path.is_dir() and is_bundle(path)


def demo_source(path: Path | None = None, testbeds: str | None = None) -> Source:
    """The source of a campaign folder given by path (default: the bundled campaign), with the
    command line's test-bed rule."""
    p = DEMO_PATH if path is None else Path(path).expanduser().resolve()
    return path_source(p, DEMO_KEY if path is None else CLI_KEY, p.name,
                       testbeds if path is not None else None)


# ------------------------------------------------------------------------------------------------
# Cache keys
# ------------------------------------------------------------------------------------------------


def campaign_key(src: Source) -> tuple:
    """Key of a loaded campaign."""
    return ("campaign", src.cid, src.path, tuple(src.runs), src.testbeds)


def scores_key(src: Source, baselines: bool, metric_names: tuple[str, ...]) -> tuple:
    """Key of a campaign's score table on ``metric_names``."""
    return ("scores", src.cid, src.path, tuple(src.runs), bool(baselines), tuple(metric_names))


def ir_group(pairs: dict[str, tuple[str, str]], names: tuple[str, ...]) -> tuple[str, ...] | None:
    """The IR measures (``ir_measures``') of every offered metric pair after the first, in the
    pairs' order, when ``names`` are all among them and the group has more: their score table is
    computed in one pass (one conversion of the runs, one ``ir_measures`` call) and each pair
    read from it, so that changing the pair only reads. None otherwise. The one rule of
    :mod:`dashboard.data.tables` and of the warm start."""
    from metrics.measures.registry import is_ir_measure, parse_metric  # noqa: PLC0415 - deferred: the registry loads after the page's first paint

    group: list[str] = []
    for pair in list(pairs.values())[1:]:
        group += [m for m in pair if m not in group and is_ir_measure(parse_metric(m))]
    if not names or not set(names) <= set(group) or len(names) >= len(group):
        return None
    return tuple(group)


def rows_of(frame, names: tuple[str, ...]):
    """The rows of ``names`` of a table of ``evaluate`` on more metrics (the :func:`ir_group`'s),
    exactly as ``evaluate`` on ``names`` gives them: ordered by system, topic, then metric in the
    order of ``names`` (``evaluate`` writes one block of rows per system and topic)."""
    import numpy as np  # noqa: PLC0415 - deferred: loads after the page's first paint

    keep = frame[frame["metric"].isin(names)]
    pos = keep["metric"].map({m: i for i, m in enumerate(names)}).to_numpy()
    block = np.arange(len(keep)) // len(names)
    return keep.iloc[np.lexsort((pos, block))].reset_index(drop=True)


def table_pairs(frame) -> dict[str, tuple[str, str]]:
    """The metric pairs a score-table campaign offers: the standard pairs
    (``metrics.measures.registry.METRIC_PAIRS``) whose metrics are both in ``frame`` (its
    ``metric`` column), else its first two metrics in the table's order (a leaderboard's). The
    one rule of :mod:`dashboard.data.tables` and of the warm start."""
    import pandas as pd  # noqa: PLC0415 - deferred: loads after the page's first paint

    from metrics.measures.registry import METRIC_PAIRS  # noqa: PLC0415 - deferred: the registry loads after the page's first paint

    order = list(pd.unique(frame["metric"]))
    have = set(order)
    out = {k: v for k, v in METRIC_PAIRS.items() if v[0] in have and v[1] in have}
    if not out and len(order) >= 2:
        out[f"{order[0]} / {order[1]}"] = (order[0], order[1])
    return out


def table_rows(frame, names: tuple[str, ...]):
    """The rows of ``names`` of a score-table campaign's own table (the score table a session
    reads for them)."""
    return frame[frame["metric"].isin(names)].reset_index(drop=True)


def table_key(src: Source, baselines: bool, precision: str, recall: str,
              beds: tuple[str, ...] = ()) -> str:
    """Key of the score table of a metric pair restricted to test beds (() = all topics): the
    string every analysis of that table is cached under."""
    base = f"{src.cid}|bl={int(baselines)}|{precision}|{recall}"
    return base + "|beds=" + (",".join(beds) if beds else "*")


def typelevel_key(campaign_source: str, name: str, n_systems: int, missing: str) -> tuple:
    """Key of a token tagging campaign's token- and type-level score table (the Type level
    page's)."""
    return ("typelevel", str(campaign_source), str(name), int(n_systems), missing)


def mapping_key(campaign_source: str, name: str, n_systems: int, system: str, mapping: str,
                measure: str, missing: str) -> tuple:
    """Key of one run's cluster -> tag mappings on every topic (the Type level page's)."""
    return ("mapping", str(campaign_source), str(name), int(n_systems), str(system), mapping,
            measure, missing)


def comparison_testbeds(topic_beds: dict | None, n_beds: int | None = None) -> dict | None:
    """The topic -> test bed map a comparison takes, or None with fewer than two test beds
    (``n_beds``: how many the score table covers, default every one of the map's): the
    cross-test-bed prediction needs two. The one rule of :mod:`dashboard.data.live` and of the
    warm start."""
    if not topic_beds:
        return None
    n = len(set(topic_beds.values())) if n_beds is None else n_beds
    return topic_beds if n >= 2 else None


def comparison_key(tkey: str, test: str, correction: str, average: str,
                   profile: str = DEFAULT_PROFILE) -> tuple:
    """Key of the alpha-free comparison core of a table."""
    return ("comparison", tkey, test, correction, average, profile)


# ------------------------------------------------------------------------------------------------
# Uploads
# ------------------------------------------------------------------------------------------------


@st.cache_resource(show_spinner=False, scope="session")
def _uploads() -> dict[str, Source]:
    """Uploaded campaigns of this browser session, by key (uploads are per session)."""
    return {}


def register_upload(files: list[tuple[str, bytes]], gold: str | None = None) -> Source:
    """Store uploaded files (:mod:`dashboard.data.uploads`) and register them as a source.

    Parameters
    ----------
    files : list of (name, content)
    gold : str, optional
        Name of the gold file when several loose files are uploaded.
    """
    up = uploads.session_space().save(files, gold if len(files) > 1 else None)
    names = ", ".join(p.name for p in up.paths)
    # the content id tells apart two uploads with one name
    label = f"{short_label(names)} (upload {up.key.removeprefix('up-')[:6]})"
    if len(up.paths) == 1:
        src = Source(up.key, label, str(up.paths[0]), f"upload:{up.key}")
    else:
        src = Source(up.key, label, str(up.gold or ""),
                     f"upload:{up.key}", tuple(str(p) for p in (up.runs or up.paths)))
    _uploads()[up.key] = src
    return src


def forget_upload(key: str) -> None:
    """Drop an upload that could not be loaded, and delete its files."""
    _uploads().pop(key, None)
    uploads.session_space().discard(key)
