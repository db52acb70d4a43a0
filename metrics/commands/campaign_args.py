"""Arguments shared by the sub-commands that read a campaign."""

from __future__ import annotations

import argparse
from typing import TYPE_CHECKING

from metrics.errors import UnanimityError
from metrics.model.formats import FORMATS, format_help
from metrics.model.missing import MISSING_POLICIES

if TYPE_CHECKING:
    from metrics.model.campaign import Campaign

__all__ = ["add_campaign_args", "campaign_from_args", "metric_names"]


def add_campaign_args(parser: argparse.ArgumentParser, path_required: bool = False) -> None:
    """``PATH`` or ``--gold FILE --run FILE ...``, plus ``--format`` and ``--missing``."""
    parser.add_argument("path", nargs=None if path_required else "?", metavar="PATH",
                        help="campaign folder, score-table file or zip")
    parser.add_argument("--gold", metavar="FILE", help="gold clustering file (with --run)")
    # dest "runs": "run" is the sub-command callback every parser sets (set_defaults(run=...))
    parser.add_argument("--run", metavar="FILE", action="append", default=[], dest="runs",
                        help="run file; repeat for several systems")
    parser.add_argument("--format", choices=FORMATS, metavar="FORMAT", help=format_help())
    parser.add_argument("--testbeds", metavar="REGEX|FILE",
                        help="test bed of each topic: a topic<TAB>test bed file, or the first "
                             "group of this regex on the topic id")
    parser.add_argument("--missing", choices=MISSING_POLICIES, default="penalize",
                        help="missing gold items in a run (default: penalize, docs/measures.md §2)")
    # token tagging campaigns (format conllu, docs/type-level.md)
    parser.add_argument("--tagset", choices=("upos", "xpos"),
                        help="conllu: gold tag column (default: the campaign's, else upos)")
    parser.add_argument("--lowercase", action="store_true", default=None,
                        help="conllu: word types are the lower-cased token forms")


def campaign_from_args(args: argparse.Namespace) -> Campaign:
    """Load the campaign named by ``PATH`` or by ``--gold``/``--run``."""
    from metrics.io import load, load_files  # noqa: PLC0415 - deferred: every sub-command's parser is built for --help
    from metrics.io.testbeds import testbeds_option  # noqa: PLC0415 - deferred: every sub-command's parser is built for --help

    if args.gold or args.runs:
        if args.path:
            raise UnanimityError("give either PATH or --gold/--run, not both")
        if not (args.gold and args.runs):
            raise UnanimityError("--gold and --run go together")
        return load_files(args.gold, args.runs, format=args.format,
                          testbeds=testbeds_option(args.testbeds),
                          reader_options=_reader_options(args))
    if not args.path:
        raise UnanimityError("give a campaign PATH or --gold FILE --run FILE")
    return load(args.path, format=args.format, testbeds=testbeds_option(args.testbeds),
                reader_options=_reader_options(args))


def _reader_options(args: argparse.Namespace) -> dict[str, object]:
    """The conllu reader options given on the command line (None = not given)."""
    return {"tagset": getattr(args, "tagset", None), "lowercase": getattr(args, "lowercase", None)}


def metric_names(text: str, option: str = "--metrics") -> list[str]:
    """The measures of a comma-separated option: registered names in canonical spelling
    (``v_measure(beta=2.0)`` -> ``v_measure(beta=2)``, as ``evaluate`` writes them), other names
    (a score table's labels, IR measures) as given (:func:`metrics.measures.registry.label_name`); a
    repeated measure is an error."""
    from metrics.measures.registry import label_name, split_metric_list  # noqa: PLC0415 - deferred: every sub-command's parser is built for --help

    names = [label_name(spec) for spec in split_metric_list(str(text))]
    if len(set(names)) != len(names):
        raise UnanimityError(f"{option} repeats a metric: {text!r}")
    return names
