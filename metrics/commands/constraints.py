"""``unanimity constraints --metrics M1,M2 [--out FILE]``: formal constraints of any measure.

Each measure is checked on the toy cases of its family (clustering, ranking, filtering; the
overlapping "size vs quantity" case; :mod:`metrics.meta.constraint_check`,
``docs/meta-evaluation.md`` §3) and every verdict is printed, a failing one with its smallest
failing case. ``--out`` writes ``metric, family, constraint, holds, better, worse, case``.
"""

from __future__ import annotations

import argparse
from pathlib import Path

from metrics.errors import UnanimityError

__all__ = ["add_parser", "run"]


def add_parser(sub: argparse._SubParsersAction) -> None:
    p = sub.add_parser(
        "constraints",
        help="check measures against the formal constraints of their family",
        description="Check measures against the formal constraints of clustering, ranking and "
        "filtering (Amigó et al. 2009; Amigó, Gonzalo, Verdejo, SIGIR 2013): each verdict, "
        "and for a failure the smallest case that fails. docs/meta-evaluation.md section 3.",
    )
    p.add_argument("--metrics", required=True, metavar="LIST",
                   help="comma-separated measures: registered metrics, IR measures (AP, "
                        "nDCG@10, ...), ERR, Q-measure, R*S, F(m1,m2[,alpha=a]), filtering "
                        "measures (accuracy, utility, lam, ...)")
    p.add_argument("--out", metavar="FILE", help="also write the verdicts to this .csv file")
    p.set_defaults(run=run)


def run(args: argparse.Namespace) -> int:
    from metrics.measures.registry import split_metric_list  # noqa: PLC0415 - deferred: every sub-command's parser is built for --help
    from metrics.meta.constraint_check import check_measures  # noqa: PLC0415 - deferred: as above
    from metrics.reports.table_output import write_table  # noqa: PLC0415 - deferred: as above

    names = split_metric_list(args.metrics)
    if not names:
        raise UnanimityError("--metrics needs at least one measure")
    report = check_measures(names)
    table = report.to_dataframe()
    width = max(len(c) for c in table["constraint"])
    current = None
    for v in report.verdicts:
        if (v.metric, v.family) != current:
            current = (v.metric, v.family)
            print(f"{v.metric} ({v.family} constraints)")
        mark = "yes" if v.holds else "no "
        line = f"  {v.constraint:<{width}}  {mark}  better {v.better:.4g}, worse {v.worse:.4g}"
        print(line if v.holds else f"{line}; fails on {v.case}")
    held = int(table["holds"].sum())
    print(f"{held} of {len(table)} verdicts hold (yes = the better output scores strictly "
          "better; docs/meta-evaluation.md section 3)")
    if args.out:
        out = Path(args.out)
        try:
            write_table(table, out)
        except OSError as exc:
            raise UnanimityError(f"cannot write {out}: {exc.strerror or exc}") from None
        print(f"wrote {out}")
    return 0
