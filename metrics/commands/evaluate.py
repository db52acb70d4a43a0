"""``unanimity evaluate PATH --metrics a,b(k=2) [--baselines ...] --out FILE``: the score table.

Writes a CSV with exactly the columns ``system,topic,metric,value`` (full float precision), one
row per system, topic and metric (docs/measures.md §1 score table), through the output policy
(names a spreadsheet would evaluate are neutralised, docs/output-safety.md).
"""

from __future__ import annotations

import argparse
import sys

from metrics.commands.campaign_args import add_campaign_args, campaign_from_args
from metrics.errors import UnanimityError
from metrics.reports.terminal_text import data_stream

__all__ = ["add_parser", "run", "DEFAULT_METRICS"]

DEFAULT_METRICS = "bcubed_precision,bcubed_recall"


def add_parser(sub: argparse._SubParsersAction) -> None:
    p = sub.add_parser(
        "evaluate", help="per-topic scores of every system (CSV score table)",
        description="Score every system of a campaign on every topic with the given metrics and "
        "write the score table system,topic,metric,value (CSV; docs/measures.md §1).")
    add_campaign_args(p)
    p.add_argument("--metrics", default=DEFAULT_METRICS, metavar="LIST",
                   help="comma-separated metrics, with parameters as name(p=v) "
                        f"(default: {DEFAULT_METRICS}; `unanimity evaluate --list-metrics`)")
    p.add_argument("--baselines", metavar="LIST", default="",
                   help="add baselines: all-in-one,one-in-one,combined,random,ultra-shaped "
                        "or all (docs/measures.md §7)")
    p.add_argument("--baseline-k", type=int, metavar="K",
                   help="clusters of the random baselines (default: gold classes per topic)")
    p.add_argument("--seed", type=int, default=0, help="seed of the random baselines")
    p.add_argument("--systems", metavar="LIST", help="only these systems (comma-separated)")
    p.add_argument("--out", metavar="FILE", default="-",
                   help="CSV file to write; - for standard output (default)")
    p.add_argument("--list-metrics", action="store_true",
                   help="print the known metrics and exit")
    p.add_argument("--export-mapping", metavar="FILE",
                   help="token tagging campaigns: also write the cluster -> tag mapping of every "
                        "system and topic behind the type-level metrics asked for (MacroI under "
                        "both mappings when none is) as CSV, with whether each is exact or the "
                        "gap of its hill climbing (docs/type-level.md)")
    # --- the Dask engine (docs/dask.md) ---
    p.add_argument("--engine", choices=("numpy", "dask"), default="numpy",
                   help="numpy (default, in memory) or dask (Parquet long tables larger than "
                        "memory, or the IR measures of a TREC folder by groups of topics, on a "
                        "local or remote Dask cluster; docs/dask.md)")
    p.add_argument("--scheduler", metavar="ADDRESS",
                   help="with --engine dask: a running Dask scheduler (tcp://host:8786); "
                        "default: a local cluster sized to the machine")
    p.add_argument("--memory-limit", metavar="SIZE",
                   help="with --engine dask and no --scheduler: total memory of the local "
                        "cluster, e.g. 8GB (beyond it, workers spill to disk)")
    p.set_defaults(run=run)


def _list_metrics() -> int:
    from metrics.measures.registry import PROVIDERS  # noqa: PLC0415 - deferred: every sub-command's parser is built for --help

    rows = [("metric", "better", "family", "parameters", "description")]
    for provider in PROVIDERS:  # every family's metrics, then the names it parses itself
        for m in provider.infos:
            params = ", ".join(f"{k}={v}" for k, v in m.params.items())
            rows.append((m.name, "higher" if m.direction > 0 else "lower", m.family,
                         params or "-", m.description))
        for pattern, params, description in provider.patterns:
            rows.append((pattern, "higher", provider.family, params, description))
    widths = [max(len(r[i]) for r in rows) for i in range(4)]  # the description runs on
    for r in rows:
        print("  ".join(c.ljust(w) for c, w in zip(r[:4], widths, strict=True)) + "  " + r[4])
    return 0


def run(args: argparse.Namespace) -> int:
    if args.list_metrics:
        return _list_metrics()
    from metrics.analyses.baselines import add_baselines  # noqa: PLC0415 - deferred: every sub-command's parser is built for --help
    from metrics.measures.registry import parse_metrics  # noqa: PLC0415 - deferred: every sub-command's parser is built for --help
    from metrics.measures.scoring import evaluate  # noqa: PLC0415 - deferred: every sub-command's parser is built for --help
    from metrics.reports.table_output import write_table  # noqa: PLC0415 - deferred: every sub-command's parser is built for --help

    specs = parse_metrics(args.metrics)  # fail on a bad name before loading anything
    if args.engine == "dask":
        from metrics.engines.dask.command import evaluate_from_args  # noqa: PLC0415 - deferred: every sub-command's parser is built for --help

        return _write(evaluate_from_args(args, specs), args.out)
    campaign = campaign_from_args(args)
    if not campaign.has_clusterings:
        raise UnanimityError(f"{campaign.source}: a score table has no clusterings to evaluate")
    if args.baselines:
        campaign = add_baselines(campaign, args.baselines, k=args.baseline_k, seed=args.seed)
    systems = None
    if args.systems:
        systems = [s.strip() for s in args.systems.split(",") if s.strip()]
    mappings: list = []
    table = evaluate(campaign, specs, missing=args.missing, systems=systems,
                     mappings_out=mappings)
    if not (mappings or args.export_mapping):  # no type-level metric, no mapping asked for
        return _write(table, args.out)
    import pandas as pd  # noqa: PLC0415 - deferred: every sub-command's parser is built for --help

    from metrics.measures.typelevel.type_entries import (  # noqa: PLC0415 - deferred: every sub-command's parser is built for --help
        exactness_summary,
        mapping_table,
    )

    maps = pd.concat(mappings, ignore_index=True) if mappings else None
    for line in exactness_summary(maps):
        print(f"note: {line}", file=sys.stderr)
    if args.export_mapping:
        if maps is None:  # no type-level metric asked for: MacroI under both mappings
            maps = mapping_table(campaign, specs, systems=systems, missing=args.missing)
        try:
            write_table(maps, args.export_mapping)
        except OSError as exc:
            raise UnanimityError(
                f"cannot write {args.export_mapping}: {exc.strerror or exc}") from None
    return _write(table, args.out)


def _write(table, out: str) -> int:
    from metrics.reports.table_output import table_bytes, write_table  # noqa: PLC0415 - deferred: every sub-command's parser is built for --help

    if out == "-":  # escaped on a terminal, byte for byte to a pipe
        data_stream(sys.stdout).write(table_bytes(table).decode("utf-8"))
    else:
        try:
            write_table(table, out)
        except OSError as exc:
            raise UnanimityError(f"cannot write {out}: {exc.strerror or exc}") from None
        print(f"wrote {out}: {len(table)} rows ({table['system'].nunique()} systems, "
              f"{table['topic'].nunique()} topics, {table['metric'].nunique()} metrics)")
    return 0
