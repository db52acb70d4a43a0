"""``unanimity compare PATH --metrics P,R --out DIR``: UIR, F_alpha and significance for every
pair of systems of a campaign (SPEC §4-6).

PATH is anything ``evaluate`` reads (campaign folder, zip, ``--gold``/``--run`` files) or a score
table (``system, topic, metric, value``). A campaign with clusterings is first scored with
:func:`metrics.evaluate.evaluate` on the requested metrics. The first two metrics are the
precision-like and recall-like pair of F_alpha; UIR and the tests use all of them.

Writes into ``--out``: ``pairs.csv`` (one row per ordered pair), ``systems.csv``,
``threshold_curve.csv``, ``tests.csv``, ``delta_f_vs_uir.csv``, ``weakest_metric.csv``,
``cross_testbed.csv`` (when the campaign has test beds), ``summary.json`` and, with ``--latex``,
``report.tex``. See :class:`metrics.analyses.CampaignComparison` for the columns.
"""

from __future__ import annotations

import argparse

import pandas as pd

from metrics.commands.common import add_campaign_args, campaign_from_args, metric_names
from metrics.errors import UnanimityError
from metrics.evaluate import evaluate
from metrics.scores import validate_score_table

__all__ = ["add_parser", "run", "load_scores"]

def add_parser(sub: argparse._SubParsersAction) -> None:
    p = sub.add_parser(
        "compare",
        help="UIR, F_alpha and significance tests for every pair of systems",
        description="Compare every ordered pair of systems: UIR (with counts and parametric "
        "UIR), F_alpha differences, crossing points, paired tests, pair classes, reference "
        "systems and the UIR-threshold curve (SPEC §4-6).",
    )
    add_campaign_args(p)
    p.add_argument("--metrics", required=True, metavar="P,R[,...]",
                   help="comma-separated metrics; the first two are F_alpha's precision and recall")
    p.add_argument("--alpha", type=float, default=0.5, help="F_alpha weight (default 0.5)")
    p.add_argument("--threshold", type=float, default=0.25,
                   help="UIR threshold of reference / improved systems (default 0.25)")
    p.add_argument("--tests", choices=["wilcoxon", "t", "sign", "randomization", "none"],
                   default="wilcoxon", help="paired test per metric (default wilcoxon)")
    p.add_argument("--correction", choices=["holm", "bh", "none"], default="holm",
                   help="multiple-comparison correction (default holm)")
    p.add_argument("--average", choices=["macro", "micro"], default="macro",
                   help="campaign F_alpha: mean of per-topic F (macro, default) or F of means")
    p.add_argument("--tol", type=float, default=1e-9, help="UIR tolerance (default 1e-9)")
    p.add_argument("--seed", type=int, default=0, help="seed of the randomisation test")
    p.add_argument("--out", required=True, metavar="DIR", help="output folder")
    p.add_argument("--latex", action="store_true", help="also write report.tex (booktabs)")
    p.set_defaults(run=run)


def load_scores(args: argparse.Namespace, metrics: list[str]) -> tuple[pd.DataFrame, dict | None]:
    """Score table and test beds (topic -> bed, or None) for ``args``.

    Everything goes through :mod:`metrics.io` (score tables included), so a test-bed rule
    (``--testbeds`` or the campaign's own) means the same for every kind of input.
    """
    campaign = campaign_from_args(args)
    if campaign.scores is not None:
        table = validate_score_table(campaign.scores, source=str(args.path))
    else:
        table = validate_score_table(evaluate(campaign, metrics, missing=args.missing))
    return table, campaign.topic_testbeds()


def _metric_names(text: str) -> list[str]:
    """The metrics of ``--metrics`` (:func:`metrics.commands.common.metric_names`), at least two."""
    names = metric_names(text)
    if len(names) < 2:
        raise UnanimityError(f"--metrics needs at least two comma-separated metrics, got {text!r}")
    return names


def run(args: argparse.Namespace) -> int:
    from metrics.analyses import compare  # noqa: PLC0415

    metrics = _metric_names(args.metrics)
    try:
        table, beds = load_scores(args, metrics)
        known = set(pd.unique(table["metric"]))
        missing = [m for m in metrics if m not in known]
        if missing:
            raise UnanimityError(
                f"metric(s) {', '.join(missing)} not in the scores; available: "
                f"{', '.join(sorted(map(str, known)))}"
            )
        if beds is not None and len(set(beds.values())) < 2:
            beds = None
        result = compare(
            table, metrics[0], metrics[1], alpha=args.alpha, threshold=args.threshold,
            test=args.tests, correction=args.correction, average=args.average, tol=args.tol,
            seed=args.seed, testbeds=beds, metrics=metrics,
        )
        written = result.write(args.out, latex=args.latex)
    except UnanimityError:
        raise
    except ValueError as exc:
        raise UnanimityError(str(exc)) from exc
    n_sys = len(result.systems)
    robust = int((result.pairs["uir"] >= args.threshold).sum())
    print(f"{n_sys} systems, {len(result.pairs)} ordered pairs, {robust} with UIR >= {args.threshold:g}"
          + (f", test beds {', '.join(result.parameters['testbeds'])}" if beds else ""))
    for path in written:
        print(f"wrote {path}")
    return 0
