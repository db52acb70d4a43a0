"""The ``unanimity`` command line: one sub-command per module in :mod:`metrics.commands`.

Every sub-command module exposes ``add_parser(subparsers)`` and ``run(args) -> int``. Errors
caused by the input print one line on standard error and exit with code 2. Everything printed
goes through :class:`metrics.reports.terminal_text.EscapingStream`: control characters in names
are shown escaped, never sent to the terminal raw (docs/output-safety.md).
"""

from __future__ import annotations

import argparse
import importlib
import sys
from collections.abc import Sequence

from metrics.errors import UnanimityError
from metrics.reports.terminal_text import EscapingStream
from metrics.version import package_version

__all__ = ["main", "COMMANDS"]

#: Sub-commands, in the order ``unanimity --help`` lists them.
COMMANDS: tuple[str, ...] = ("info", "evaluate", "compare", "meta-evaluate", "constraints",
                             "check-reported", "dashboard")


def build_parser() -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(
        prog="unanimity",
        description="Evaluate clustering campaigns and measure how robust system comparisons "
        "are to the weighting of metrics (Unanimous Improvement Ratio).",
    )
    parser.add_argument("--version", action="version", version=_version_line(),
                        help="print the version of Unanimity and exit")
    sub = parser.add_subparsers(dest="command", metavar="COMMAND", required=True)
    for name in COMMANDS:
        module = importlib.import_module(f"metrics.commands.{name.replace('-', '_')}")
        module.add_parser(sub)
    return parser


def _version_line() -> str:
    return f"unanimity {package_version()}"


def main(argv: Sequence[str] | None = None) -> int:
    """Run the command line; returns the exit code."""
    if list(sys.argv[1:] if argv is None else argv) == ["--version"]:
        print(_version_line())  # before the sub-commands (and numpy, pandas) are imported
        return 0
    out, err = sys.stdout, sys.stderr
    sys.stdout, sys.stderr = EscapingStream(out), EscapingStream(err)
    try:
        parser = build_parser()
        args = parser.parse_args(argv)
        try:
            return int(args.run(args) or 0)
        except UnanimityError as exc:
            print(f"unanimity {args.command}: error: {exc}", file=sys.stderr)
            return 2
        except BrokenPipeError:  # pragma: no cover - e.g. `unanimity info ... | head`
            return 0
        except OSError as exc:  # a path the system refuses (too long, no permission, ...)
            where = f"{exc.filename}: " if exc.filename else ""
            print(f"unanimity {args.command}: error: {where}{exc.strerror or exc}",
                  file=sys.stderr)
            return 2
    finally:
        try:
            sys.stdout.flush()
            sys.stderr.flush()
        except (BrokenPipeError, ValueError):  # pragma: no cover - a closed pipe
            pass
        sys.stdout, sys.stderr = out, err


if __name__ == "__main__":  # pragma: no cover
    sys.exit(main())
