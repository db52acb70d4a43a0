"""``unanimity compare ARGV`` in the test process, through the sub-command's own parser: the
exit code, with the command's output on the captured stdout and stderr."""

from __future__ import annotations

import argparse

from metrics.commands import compare as compare_cmd

__all__ = ["run_compare"]


def run_compare(argv: list[str]) -> int:
    parser = argparse.ArgumentParser(prog="unanimity")
    sub = parser.add_subparsers(dest="command", required=True)
    compare_cmd.add_parser(sub)
    args = parser.parse_args(["compare", *argv])
    return args.run(args)
