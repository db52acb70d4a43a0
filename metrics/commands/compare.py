"""``unanimity compare PATH --metrics P,R --out DIR``: UIR, F_alpha and significance for every
pair of systems of a campaign (``docs/measures.md``, "The comparison report").

PATH is anything ``evaluate`` reads (campaign folder, zip, ``--gold``/``--run`` files) or a score
table (``system, topic, metric, value``). A campaign with clusterings is first scored with
:func:`metrics.measures.scoring.evaluate` on the requested metrics. The first two metrics are the
precision-like and recall-like pair of F_alpha; UIR and the tests use all of them.

Writes into ``--out``: ``pairs.csv`` (one row per ordered pair), ``systems.csv``,
``threshold_curve.csv``, ``tests.csv``, ``delta_f_vs_uir.csv``, ``weakest_metric.csv``,
``cross_testbed.csv`` (when the campaign has test beds), ``summary.json``, ``ranking.csv`` (ranking
with tie groups, docs/rankings.md), ``manifest.json`` (the bundle's manifest, reopened by
:func:`metrics.reports.bundle.open_bundle`) and, with ``--latex``, ``report.tex``. See
:class:`metrics.reports.comparison_report.CampaignComparison` for the columns.
"""

from __future__ import annotations

import argparse
from pathlib import Path
from typing import TYPE_CHECKING

from metrics.commands.campaign_args import add_campaign_args, campaign_from_args, metric_names
from metrics.comparison.profiles import (
    AVERAGES,
    CORRECTIONS,
    DEFAULT_CONFIDENCE,
    DEFAULT_THRESHOLD,
    DEFAULT_TOL,
    PROFILES,
    TESTS,
    get_profile,
)
from metrics.errors import UnanimityError
from metrics.reports.latex import LATEX_TOP

if TYPE_CHECKING:
    import pandas as pd

__all__ = ["add_parser", "run", "load_scores"]


def add_parser(sub: argparse._SubParsersAction) -> None:
    p = sub.add_parser(
        "compare",
        help="UIR, F_alpha and significance tests for every pair of systems",
        description="Compare every ordered pair of systems: UIR (with counts and parametric "
        "UIR), F_alpha differences, crossing points, paired tests, pair classes, reference "
        "systems and the UIR-threshold curve; definitions in docs/measures.md.",
    )
    add_campaign_args(p)
    p.add_argument("--metrics", required=True, metavar="P,R[,...]",
                   help="comma-separated metrics; the first two are F_alpha's precision and recall")
    p.add_argument("--alpha", type=float, default=0.5, help="F_alpha weight (default 0.5)")
    p.add_argument("--threshold", type=float, default=DEFAULT_THRESHOLD,
                   help="UIR threshold of reference / improved systems "
                        f"(default {DEFAULT_THRESHOLD:g})")
    p.add_argument("--tests", choices=[*TESTS, "none"], default=None,
                   help=f"paired test per metric (default: the profile's, {TESTS[0]})")
    p.add_argument("--correction", choices=list(CORRECTIONS), default=None,
                   help="multiple-comparison correction (default: the profile's; "
                        f"{CORRECTIONS[0]}, or none with --profile jair2011)")
    p.add_argument("--average", choices=list(AVERAGES), default=AVERAGES[0],
                   help="campaign F_alpha: mean of per-topic F (macro, default) or F of means")
    p.add_argument("--tol", type=float, default=DEFAULT_TOL,
                   help=f"tolerance of UIR and the paired tests: differences within it are ties "
                        f"(default {DEFAULT_TOL:g})")
    p.add_argument("--seed", type=int, default=0,
                   help="seed of the randomisation test and of the bootstrap")
    p.add_argument("--bootstrap", type=_top, default=0, metavar="N",
                   help="N resamples of a paired bootstrap over topics (stratified by test bed): "
                        "intervals of UIR, parametric UIR and Delta F in pairs.csv, simultaneous "
                        "rank confidence sets in ranking.csv (default 0 = none; "
                        "docs/uncertainty.md)")
    p.add_argument("--confidence", type=float, default=DEFAULT_CONFIDENCE,
                   help="confidence of the bootstrap intervals and, jointly, of the rank "
                        f"confidence sets (default {DEFAULT_CONFIDENCE:g})")
    p.add_argument("--no-parametric", dest="parametric", action="store_false",
                   help="leave parametric UIR out (uir_param empty), e.g. for more systems than "
                        "its all-pairs matrix allows (docs/measures.md, Parametric UIR)")
    p.add_argument("--out", required=True, metavar="DIR", help="output folder")
    p.add_argument("--latex", action="store_true", help="also write report.tex (booktabs)")
    p.add_argument("--latex-top", type=_top, default=LATEX_TOP, metavar="N",
                   help=f"rows of report.tex's systems and ranking tables (default {LATEX_TOP}, "
                        "what a page holds; 0 = every system); the full tables are the CSVs")
    # profiles and the papers' tables
    p.add_argument("--profile", choices=sorted(PROFILES), default="default",
                   help="conventions: default, or jair2011 = the papers' (Wilcoxon without "
                   "correction, improved systems UIR > 0.25, ten-pairs weakest-metric analysis, "
                   "the papers' tables); explicit --tests / --correction win (docs/rankings.md)")
    p.add_argument("--paper-tables", action="store_true",
                   help="also write the papers' tables: JAIR Tables 5-6, WePS Table 2, ten-pairs "
                   "weakest metric, improved systems")
    p.add_argument("--random-baselines", action="store_true",
                   help="with the papers' tables: random baselines over k = 2..20, 10 runs each, "
                   "F_0.9 (Moreno & Dias Table 2; needs clusterings; 380 extra runs to score: "
                   "slow)")
    p.set_defaults(run=run)


def _top(text: str) -> int:
    """``--latex-top N``: a count >= 0."""
    try:
        n = int(text)
    except ValueError:
        raise argparse.ArgumentTypeError(f"{text!r} is not a whole number") from None
    if n < 0:
        raise argparse.ArgumentTypeError(f"{n} is negative")
    return n


def load_scores(args: argparse.Namespace, metrics: list[str]) -> tuple[pd.DataFrame, dict | None]:
    """Score table and test beds (topic -> bed, or None) for ``args``.

    Everything goes through :mod:`metrics.io` (score tables included), so a test-bed rule
    (``--testbeds`` or the campaign's own) means the same for every kind of input.
    """
    return _scores_of(campaign_from_args(args), args, metrics)


def _scores_of(campaign, args: argparse.Namespace,
               metrics: list[str]) -> tuple[pd.DataFrame, dict | None]:
    """:func:`load_scores` of an already loaded campaign."""
    from metrics.measures.scoring import add_table_composites, evaluate  # noqa: PLC0415 - deferred: every sub-command's parser is built for --help
    from metrics.model.score_table import validate_score_table  # noqa: PLC0415 - deferred: every sub-command's parser is built for --help

    if campaign.scores is not None:  # composites of its own columns added (F(a,b), rs_f)
        table = add_table_composites(validate_score_table(campaign.scores, source=str(args.path)),
                                     metrics)
    else:
        table = validate_score_table(_as_requested(evaluate(campaign, metrics,
                                                            missing=args.missing), metrics))
    return table, campaign.topic_testbeds()


def _as_requested(table: pd.DataFrame, names: list[str]) -> pd.DataFrame:
    """``evaluate``'s table with each metric named as the user wrote it (``MAP`` stays ``MAP``
    where ``evaluate`` writes ``ir_measures``' canonical ``AP``)."""
    from metrics.measures.registry import parse_metric  # noqa: PLC0415 - deferred: every sub-command's parser is built for --help

    spelled: dict[str, str] = {}
    for name in names:
        canonical = str(parse_metric(name))
        if spelled.setdefault(canonical, name) != name:
            raise UnanimityError(f"--metrics names {canonical} twice: "
                                 f"{spelled[canonical]!r} and {name!r}")
    return table.assign(metric=table["metric"].map(lambda m: spelled.get(m, m)))


def _metric_names(text: str) -> list[str]:
    """The metrics of ``--metrics`` (:func:`metrics.commands.campaign_args.metric_names`), at least
    two."""
    names = metric_names(text)
    if len(names) < 2:
        raise UnanimityError(f"--metrics needs at least two comma-separated metrics, got {text!r}")
    return names


# Bundle inputs and options ---------------------------------------------------------------------
def _input_paths(args: argparse.Namespace) -> list[str]:
    """The files / folder the comparison read, fingerprinted in the bundle's manifest."""
    return [args.gold, *args.runs] if args.gold else [args.path]


def _options(args: argparse.Namespace) -> dict:
    """The command's options as given (the manifest's ``options``)."""
    return {k: v for k, v in vars(args).items() if k not in ("run", "command") and not callable(v)}


def _r(v) -> str:
    return "n/a" if v is None or v != v else f"{v:.2f}"


def run(args: argparse.Namespace) -> int:
    import pandas as pd  # noqa: PLC0415 - deferred: every sub-command's parser is built for --help

    from metrics.analyses import compare  # noqa: PLC0415 - deferred: every sub-command's parser is built for --help
    from metrics.analyses.aggregation import aggregation_robustness  # noqa: PLC0415 - as above
    from metrics.analyses.paper_tables import paper_tables  # noqa: PLC0415 - deferred: every sub-command's parser is built for --help
    from metrics.analyses.uncertainty import (  # noqa: PLC0415 - as above
        bootstrap_comparison,
        with_bootstrap,
    )
    from metrics.comparison.bootstrap import check_confidence  # noqa: PLC0415 - as above
    from metrics.comparison.reference import improves  # noqa: PLC0415 - deferred: every sub-command's parser is built for --help
    from metrics.comparison.small_sample import small_sample  # noqa: PLC0415 - as above
    from metrics.reports.bundle import write_comparison_bundle  # noqa: PLC0415 - deferred: every sub-command's parser is built for --help

    metrics = _metric_names(args.metrics)
    try:
        check_confidence(args.confidence)
    except ValueError as exc:
        raise UnanimityError(f"--confidence: {exc}") from None
    out = Path(args.out)
    if out.exists() and not out.is_dir():  # checked before the work, not after it
        raise UnanimityError(f"--out {args.out}: exists and is not a folder")
    try:
        profile = get_profile(args.profile)
        campaign = campaign_from_args(args)
        if args.random_baselines and campaign.has_clusterings:  # refused before any scoring
            from metrics.analyses.baselines import check_campaign  # noqa: PLC0415 - as above

            check_campaign(campaign, "--random-baselines")
        table, beds = _scores_of(campaign, args, metrics)
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
            seed=args.seed, testbeds=beds, metrics=metrics, profile=profile.name,
            parametric=args.parametric,
        )
        args.tests, args.correction = result.parameters["test"], result.parameters["correction"]
        if args.bootstrap:
            boot = bootstrap_comparison(table, result, args.bootstrap, args.seed,
                                        args.confidence, beds)
            result = with_bootstrap(result, boot)
        # the output folder is a versioned bundle (metrics/reports/bundle.py) with ranking.csv
        agg = aggregation_robustness(table, result)
        extra, extra_tex, extra_json = {}, [], {}
        if args.paper_tables or profile.paper_tables or args.random_baselines:
            pt = paper_tables(result, table,
                              campaign=campaign if args.random_baselines else None)
            extra, extra_tex, extra_json = pt.tables, [pt.to_latex()], {"paper_tables": pt.summary}
        try:
            written = write_comparison_bundle(
                result, args.out, inputs=_input_paths(args), options=_options(args),
                latex=args.latex, extra_tables={**agg.tables(), **extra}, extra_latex=extra_tex,
                extra_json=extra_json, latex_top=args.latex_top or None,
                ranking_columns=agg.ranks[["system", "pareto_means", "pareto_topics"]])
        except OSError as exc:
            raise UnanimityError(
                f"--out {args.out}: cannot write ({exc.strerror or exc})") from None
    except UnanimityError:
        raise
    except ValueError as exc:
        raise UnanimityError(str(exc)) from exc
    n_sys = len(result.systems)
    robust = int(improves(result.pairs["uir"], args.threshold, profile.strict_improved).sum())
    sign = ">" if profile.strict_improved else ">="
    print(f"{n_sys} systems, {len(result.pairs)} ordered pairs, {robust} with UIR {sign} "
          f"{args.threshold:g}"
          + (f", test beds {', '.join(result.parameters['testbeds'])}" if beds else ""))
    if result.parameters["test"] != "none":  # --tests none: no test, nothing to flag
        few = small_sample(str(result.parameters["test"]), int(table["topic"].nunique()),
                           float(result.parameters["level"]))
        if not few.can_be_significant:  # said before anyone reads an empty list of tie groups
            print(few.sentence())
    if extra_json:  # the papers' tables in one line
        pts = extra_json["paper_tables"]
        w = pts["weps_table2"]
        every = pts["weakest_metric_all_pairs"]
        print(f"papers' tables ({args.profile} profile): improved systems by "
              f"{pts['improved_rule']}: {pts['n_improved']} pairs, "
              f"{pts['n_improving_systems']} systems improve another; weakest-metric r all pairs "
              f"{_r(every['pearson_r'])} (n={every['n']}), "
              f"ten pairs {_r(pts['weakest_metric_top']['pearson_r'])}; WePS Table 2: "
              f"{w['reversed']} of {w['n_pairs']} pairs reverse between the two alphas")
    n_flips = len(agg.flips)
    print(f"aggregation rules: {n_flips} pairs ordered differently by two rules, "
          f"{int(agg.flips['uir_robust'].sum())} of them robust by UIR; Pareto-optimal on the "
          f"means: {int(agg.ranks['pareto_means'].sum())} systems")
    if args.bootstrap:
        b = result.parameters["bootstrap"]
        print(f"bootstrap: {b['n_resamples']} resamples over topics"
              + (f" within {b['n_strata']} test beds" if b["stratified"] else "")
              + f", seed {b['seed']}, {b['confidence']:g} intervals; rank confidence sets in "
              f"{b['stepdown_steps']} stepdown steps")
    for path in written:
        print(f"wrote {path}")
    return 0
