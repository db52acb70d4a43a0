"""``unanimity dashboard [PATH [--testbeds REGEX|FILE]] [--port N]``: open the dashboard.

Without ``PATH`` the dashboard opens on the bundled RepLab 2013 campaign; with one (a campaign
folder, a score-table file or a zip) it opens on that campaign; a comparison bundle (the folder
``unanimity compare --out DIR`` writes) opens without recomputing, after
:func:`metrics.reports.bundle.open_bundle` has checked it (an edited or older bundle is refused
here, with
its message and exit code 2). The command replaces itself with
``python -m dashboard.serve run dashboard/app.py --server.headless true ... -- PATH``
(:mod:`dashboard.serve` is ``streamlit run`` with a warm-up thread that loads the campaign while
the server starts).
"""

from __future__ import annotations

import argparse
import os
import subprocess
import sys
from pathlib import Path

from metrics.errors import UnanimityError

__all__ = ["add_parser", "run", "app_path", "streamlit_command", "write_bytecode"]


def app_path() -> Path:
    """The dashboard's entry script (``dashboard/app.py`` next to the ``metrics`` package)."""
    return Path(__file__).resolve().parents[2] / "dashboard" / "app.py"


def add_parser(sub: argparse._SubParsersAction) -> None:
    p = sub.add_parser(
        "dashboard", help="open the interactive dashboard in a browser",
        description="Start the Streamlit dashboard on a campaign (default: the bundled RepLab "
        "2013) or a comparison bundle: leaderboard, two-system comparison, UIR analysis, test "
        "beds, the papers' tables, exports (docs/guide.md §3).")
    p.add_argument("path", nargs="?", metavar="PATH",
                   help="campaign folder, score-table file or zip (default: bundled RepLab "
                        "2013), or a comparison bundle (compare --out DIR), shown as stored")
    p.add_argument("--testbeds", metavar="REGEX|FILE",
                   help="test bed of each topic of PATH: a topic<TAB>test bed file, or the first "
                        "group of this regex on the topic id (as for compare)")
    p.add_argument("--port", type=int, default=8501, help="port to serve on (default 8501)")
    p.add_argument("--address", default="localhost",
                   help="address to listen on (default localhost)")
    p.set_defaults(run=run)


def streamlit_command(args: argparse.Namespace) -> list[str]:
    """The command line that serves the dashboard for ``args``."""
    cmd = [
        # ``dashboard.serve`` is ``streamlit run`` plus a warm-up thread that loads the campaign
        # while the server starts (first chart within a few seconds of opening the page).
        sys.executable, "-m", "dashboard.serve", "run", str(app_path()),
        "--server.headless", "true",
        "--server.port", str(args.port),
        "--server.address", args.address,
        "--browser.gatherUsageStats", "false",
        "--server.fileWatcherType", "none",
        # the pages write every element with a call: no bare expression for Streamlit's
        # "magic" to show, so no rewriting of each page's code on its first run
        "--runner.magicEnabled", "false",
        # no full garbage collection after each run: with a campaign loaded it holds the
        # interpreter for about 0.1 s (190,000 objects) right after the run's last messages
        # were queued, so they reach the browser that much later; Python's own collector
        # still runs as objects are allocated
        "--runner.postScriptGC", "false",
        "--server.maxUploadSize", "1024",
        "--theme.base", "light",
        "--theme.primaryColor", "#0072B2",
        "--client.toolbarMode", "minimal",
        "--global.disableWidgetStateDuplicationWarning", "true",
    ]
    if args.path:
        cmd += ["--", str(Path(args.path).resolve())]
        testbeds = getattr(args, "testbeds", None)
        if testbeds:
            rule = Path(testbeds).expanduser()
            cmd += ["--testbeds", str(rule.resolve()) if rule.is_file() else testbeds]
    return cmd


def write_bytecode(root: Path) -> int:
    """Compile the ``dashboard`` and ``metrics`` packages under ``root`` to bytecode where it is
    missing or older than the source; the number of bytecode files it added.

    An environment that sets ``PYTHONDONTWRITEBYTECODE`` (many container images do) leaves an
    editable install without bytecode, and then every process of the dashboard (the server, its
    warm-up children) compiles every module it imports, each time it starts: 0.34 s of CPU for
    the two packages, part of it inside a cold open's first script run. Compiled once here, they
    are read back (the variable forbids writing, not reading). A package folder that cannot be
    written (an installed package, compiled by pip) is left alone.
    """
    import compileall  # noqa: PLC0415 - deferred: only when serving

    compiled = 0
    for package in ("dashboard", "metrics"):
        folder = root / package
        if folder.is_dir() and os.access(folder, os.W_OK):
            before = sum(1 for _ in folder.rglob("__pycache__/*.pyc"))
            compileall.compile_dir(folder, quiet=2)
            compiled += sum(1 for _ in folder.rglob("__pycache__/*.pyc")) - before
    return compiled


def run(args: argparse.Namespace) -> int:
    if args.path and not Path(args.path).exists():
        raise UnanimityError(f"{args.path}: no such file or folder")
    if args.path and Path(args.path).is_dir():
        from metrics.reports.bundle import is_bundle, open_bundle  # noqa: PLC0415 - deferred: every sub-command's parser is built for --help

        if is_bundle(args.path):
            open_bundle(args.path)  # refuses an edited or older bundle before serving it
    if getattr(args, "testbeds", None):
        if not args.path:
            raise UnanimityError("--testbeds needs a campaign PATH")
        from metrics.io.testbeds import testbeds_option  # noqa: PLC0415 - deferred: every sub-command's parser is built for --help

        testbeds_option(args.testbeds)  # a bad test-bed file: the error now, not in the browser
    if not app_path().is_file():  # pragma: no cover - broken install
        raise UnanimityError(f"dashboard not found at {app_path()}")
    root = app_path().parents[1]  # on the path, makes ``dashboard`` importable from any folder
    write_bytecode(root)
    cmd = streamlit_command(args)
    env = dict(os.environ)
    env["PYTHONPATH"] = str(root) + (os.pathsep + env["PYTHONPATH"] if env.get("PYTHONPATH")
                                     else "")
    print(f"Unanimity dashboard: http://{args.address}:{args.port}", file=sys.stderr, flush=True)
    if os.name == "posix":
        sys.stdout.flush()
        os.execve(cmd[0], cmd, env)  # replaces this process: signals reach streamlit directly
    return subprocess.call(cmd, env=env)  # pragma: no cover - non-posix
