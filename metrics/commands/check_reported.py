"""``unanimity check-reported FILE [--alpha A]``: is reported F consistent with reported P and R?

Reads per-system precision, recall and F (a small CSV / TSV, or a score table with system-level
rows) and prints, per system, whether F is F_alpha(P, R) at the stated alpha within reporting
rounding, which alphas fit, impossible rows (F outside [min(P, R), max(P, R)]), and whether the
reported ranking changes with alpha or under unanimity. See :mod:`metrics.reports.reported_checks`
and
docs/rankings.md.
"""

from __future__ import annotations

import argparse
import json

from metrics.errors import UnanimityError

__all__ = ["add_parser", "run"]


def add_parser(sub: argparse._SubParsersAction) -> None:
    p = sub.add_parser(
        "check-reported",
        help="check reported precision, recall and F per system (consistency, alpha, ranking)",
        description="For each system of a table of reported P, R and F: is F consistent with P "
        "and R at the stated alpha within the rounding of the reported decimals, which alphas "
        "make it consistent, is the row impossible (F above max(P, R) or below min(P, R)), and "
        "would the ranking change at another alpha or under unanimity (docs/rankings.md).",
    )
    p.add_argument("file", metavar="FILE",
                   help="CSV/TSV with columns system, precision, recall, f [, alpha]; or a score "
                   "table system[, topic], metric, value with system-level rows")
    weight = p.add_mutually_exclusive_group()
    weight.add_argument("--alpha", type=float, default=None,
                        help="the stated alpha, weight of precision (default 0.5; an alpha column "
                        "overrides it per row)")
    weight.add_argument("--beta", type=float, default=None,
                        help="the stated beta of F_beta instead (alpha = 1 / (1 + beta^2): "
                        "F0.5 in the beta convention is alpha = 0.8)")
    p.add_argument("--metrics", metavar="P,R,F", default="precision,recall,f",
                   help="metric names of a score table (default precision,recall,f)")
    p.add_argument("--json", action="store_true", help="print the rows as JSON")
    p.set_defaults(run=run)


def _fmt(v: float) -> str:
    return "-" if v != v else f"{v:.4f}"


def run(args: argparse.Namespace) -> int:
    from metrics.reports.reported_checks import alpha_of_beta, check_reported, read_reported  # noqa: PLC0415 - deferred: every sub-command's parser is built for --help

    names = tuple(n.strip() for n in args.metrics.split(","))
    if len(names) != 3 or not all(names):
        raise UnanimityError(f"--metrics needs three names P,R,F, got {args.metrics!r}")
    table = read_reported(args.file, names)
    table.attrs["source"] = args.file
    alpha = alpha_of_beta(args.beta) if args.beta is not None else (
        0.5 if args.alpha is None else args.alpha)
    res = check_reported(table, alpha)
    rows = res.rows
    if args.json:
        print(json.dumps({"percent": res.percent,
                          "ranking_changes_with_alpha": res.ranking_changes_with_alpha,
                          "unanimity_ties": res.unanimity_ties,
                          "rows": json.loads(rows.to_json(orient="records"))}, indent=2))
        return 0
    width = max(6, *(len(s) for s in rows["system"]))
    print(f"{'system':<{width}}  {'P':>7} {'R':>7} {'F':>7} {'F(P,R)':>7}  "
          f"{'status':<26} {'alphas that fit':<17} rank  by alpha  unanimity")
    for r in rows.itertuples(index=False):
        fits = ("none" if r.alpha_low != r.alpha_low
                else f"[{r.alpha_low:.3f}, {r.alpha_high:.3f}]")
        status = (r.status if not isinstance(r.side, str)
                  else f"impossible: F {r.side.replace('_', ' ')}")
        print(f"{r.system:<{width}}  {r.precision:7.4f} {r.recall:7.4f} {r.f:7.4f} "
              f"{r.f_at_alpha:7.4f}  {status:<26} {fits:<17} {r.rank_reported:>4}  "
              f"{r.rank_best_alpha:>3}-{r.rank_worst_alpha:<4} "
              f"{r.rank_low_unanimity:>3}-{r.rank_high_unanimity}")
    n_bad = int((rows["status"] != "consistent").sum())
    print(f"\n{len(rows) - n_bad} of {len(rows)} rows consistent at the stated alpha"
          f"{' (values read as percentages)' if res.percent else ''}; "
          f"{int((rows['status'] == 'impossible').sum())} impossible row(s).")
    print("The ranking " + ("changes" if res.ranking_changes_with_alpha else "does not change")
          + " with alpha; under unanimity (better on both P and R) "
          + (f"{res.unanimity_ties} system(s) have a rank interval, not a single rank."
             if res.unanimity_ties else "the order is total."))
    return 0
