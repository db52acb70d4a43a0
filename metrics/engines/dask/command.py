"""``unanimity evaluate PATH --engine dask [--scheduler ADDRESS] [--memory-limit SIZE]``.

The score table is the in-memory engine's; the log (dashboard link, partitions), Dask's
progress bar and what the validation found (missing and extra items, duplicates) go to
standard error, so that standard output holds the CSV only.
"""

from __future__ import annotations

import argparse
import sys

import pandas as pd

from metrics.engines.dask.engine import compute_all, dask_client, evaluate_dask
from metrics.engines.dask.trec_topics import evaluate_trec_dask
from metrics.errors import UnanimityError
from metrics.io.trec import is_trec_folder
from metrics.measures.registry import MetricSpec

__all__ = ["evaluate_from_args"]


def _say(message: str) -> None:
    print(message, file=sys.stderr, flush=True)


def evaluate_from_args(args: argparse.Namespace, specs: list[MetricSpec]) -> pd.DataFrame:
    """The score table for the ``evaluate`` arguments, computed by the Dask engine."""
    if args.gold or args.runs or not args.path:
        raise UnanimityError("--engine dask reads a campaign folder PATH of Parquet long "
                             "tables (gold.parquet, runs/ or runs.parquet), not --gold/--run")
    if args.baselines:
        raise UnanimityError("--baselines needs the in-memory engine (--engine numpy)")
    trec = args.format == "trec" or (args.format is None and is_trec_folder(args.path))
    if args.format not in (None, "long") and not trec:
        raise UnanimityError("--engine dask reads Parquet long tables (--format long) or a TREC "
                             "folder (--format trec)")
    try:
        import dask  # noqa: F401, PLC0415 - the optional extra is there
    except ImportError as exc:
        raise UnanimityError(f"--engine dask needs the dask extra (pip install "
                             f"'unanimity[dask]'): {exc}") from None
    systems = None
    if args.systems:
        systems = [s.strip() for s in args.systems.split(",") if s.strip()]
    if args.memory_limit and args.scheduler:
        raise UnanimityError("--memory-limit sizes the local cluster; a --scheduler has its own")
    if trec:  # IR measures by groups of topics (docs/dask.md, "TREC campaigns")
        with dask_client(None, args.scheduler, args.memory_limit, _say) as client:
            return evaluate_trec_dask(args.path, specs, client, systems=systems,
                                      compute=lambda cl, tasks: compute_all(cl, tasks, True))
    result = evaluate_dask(args.path, specs, missing=args.missing, systems=systems,
                           scheduler=args.scheduler, memory_limit=args.memory_limit,
                           progress=True, say=_say)
    for name, rep in result.report.systems.items():
        if rep.missing_items or rep.extra_items or rep.duplicate_rows:
            _say(f"{name}: {rep.missing_items} missing item(s) ({args.missing}), "
                 f"{rep.extra_items} extra item(s) ignored, {rep.duplicate_rows} duplicate "
                 "row(s) ignored")
        for note in rep.notes:
            _say(str(note))
    return result.scores
