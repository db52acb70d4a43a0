"""``unanimity meta-evaluate PATH --metrics M1,M2 --reference R1,R2 --out DIR``: Robustness and
Strictness of measures on a campaign (Amigó, Gonzalo, Verdejo, SIGIR 2013, §4.1; see
``docs/meta-evaluation.md``).

PATH is anything ``evaluate`` reads, or a score table. A campaign with clusterings is first
scored with :func:`metrics.measures.scoring.evaluate` on every measure named; a score table must
hold
them. Writes into ``--out``:

- ``meta_evaluation.csv``: ``metric,robustness,strictness,strictness_per_topic,
  strictness_all_outputs``, one row per measure of ``--metrics`` then of ``--reference`` (a
  reference is judged against the other references); ``strictness`` is under the reading of
  ``--strictness`` (``per-topic``: systems ranked within each topic; ``all-outputs``: every
  (system, topic) output ranked at once), each reading has its column, and
  ``--strictness-top K`` averages the K largest rank differences instead of taking the largest;
- ``meta_evaluation_topics.csv``: ``metric,topic,systems,robustness,strictness`` per topic
  (the topic's mean Spearman correlation with the others; -max rank difference on it);
- ``meta_evaluation_ranks.csv``: ``system,topic,metric,scaled_rank`` (1 = best on the topic),
  for rank-versus-rank figures.

With ``--constraints`` also the ranking and filtering formal constraints (the paper's Table 6,
``docs/meta-evaluation.md`` §3), which do not depend on the campaign:

- ``constraints.csv``: ``metric,constraint,better,worse,agrees`` for the IR measures, the
  filtering measures and R*S, R, S (n = 30, W_n = 0.8);
- ``constraint_verdicts.csv``: measures x constraints, empty where a measure does not apply.
"""

from __future__ import annotations

import argparse
from pathlib import Path
from typing import TYPE_CHECKING

from metrics.commands.campaign_args import add_campaign_args, campaign_from_args, metric_names
from metrics.commands.compare import load_scores
from metrics.errors import UnanimityError
from metrics.meta.readings import (
    DEFAULT_ACCEPT_TOP,
    DEFAULT_MIN_DEPTH,
    DEFAULT_RELEVANT_GRADE,
    DEFAULT_TOPS,
    STRICTNESS_READINGS,
)

if TYPE_CHECKING:
    import pandas as pd

__all__ = ["add_parser", "run", "OUTPUT_FILES"]

OUTPUT_FILES: tuple[str, ...] = ("meta_evaluation.csv", "meta_evaluation_topics.csv",
                                 "meta_evaluation_ranks.csv")
CONSTRAINT_FILES: tuple[str, ...] = ("constraints.csv", "constraint_verdicts.csv")
#: the R&S paper's meta-evaluation tables ``--table`` reproduces.
PAPER_TABLES: tuple[int, ...] = (7, 8)
#: the R&S paper's figures ``--figure`` reproduces.
PAPER_FIGURES: tuple[int, ...] = (1,)


def add_parser(sub: argparse._SubParsersAction) -> None:
    p = sub.add_parser(
        "meta-evaluate",
        help="Robustness and Strictness of measures against reference measures",
        description="Meta-evaluate measures on a campaign: Robustness (mean Spearman "
        "correlation of the system scores across pairs of topics) and Strictness (minus the "
        "largest amount by which a measure ranks a system above where a reference measure "
        "ranks it), after Amigó, Gonzalo and Verdejo (SIGIR 2013), docs/meta-evaluation.md.",
    )
    add_campaign_args(p)
    p.add_argument("--metrics", metavar="LIST",
                   help="comma-separated measures to meta-evaluate (required without --table)")
    p.add_argument("--reference", metavar="LIST",
                   help="comma-separated reference measures (each also judged against the "
                        "others; required without --table)")
    p.add_argument("--table", type=int, choices=PAPER_TABLES,
                   help="the R&S paper's layout on this campaign: 8 = ranking measures (a qrels "
                        "file and TREC runs), 7 = filtering measures (each run's top K "
                        "accepted); docs/meta-evaluation.md sections 4-5")
    p.add_argument("--figure", type=int, choices=PAPER_FIGURES,
                   help="the R&S paper's Figure 1 on this campaign: R*S against each standard "
                        "filtering measure, one point per (system, topic); writes "
                        "figure1.csv into --out")
    p.add_argument("--accept-top", type=int, default=DEFAULT_ACCEPT_TOP, metavar="K",
                   help="--table 7 / --figure 1 on a ranking campaign: each run accepts its top "
                        f"K documents (default {DEFAULT_ACCEPT_TOP})")
    p.add_argument("--relevant-grade", type=int, default=DEFAULT_RELEVANT_GRADE, metavar="G",
                   help="--table 7 / --figure 1 on a ranking campaign: grades >= G are relevant "
                        f"(default {DEFAULT_RELEVANT_GRADE})")
    p.add_argument("--min-depth", type=int, default=DEFAULT_MIN_DEPTH, metavar="N",
                   help=f"--table 8: keep the runs whose median ranking depth is at least N "
                        f"(default {DEFAULT_MIN_DEPTH})")
    p.add_argument("--tops", default=",".join(map(str, DEFAULT_TOPS)), metavar="K,K",
                   help="--table 7/8: Strictness from the mean of the K largest rank "
                        "differences, one column pair per K (default "
                        f"{','.join(map(str, DEFAULT_TOPS))})")
    p.add_argument("--systems", metavar="LIST", help="only these systems (comma-separated)")
    p.add_argument("--lower-is-better", metavar="LIST", default="",
                   help="measures of a score table where lower is better (registered measures "
                        "know their direction)")
    p.add_argument("--strictness", choices=STRICTNESS_READINGS, default="per-topic",
                   help="reading of the strictness column: rank the systems within each topic "
                        "(per-topic, default) or every (system, topic) output at once "
                        "(all-outputs); both are printed and written")
    p.add_argument("--strictness-top", type=int, default=1, metavar="K",
                   help="Strictness from the mean of the K largest rank differences instead of "
                        "the largest (default 1; the paper also tried 10)")
    p.add_argument("--out", metavar="DIR",
                   help="output folder (required without --table)")
    p.add_argument("--constraints", action="store_true",
                   help="also write the ranking and filtering formal-constraint verdicts of the "
                        "IR measures, the filtering measures and R*S, R, S (n=30, W_n=0.8), "
                        "docs/meta-evaluation.md section 3")
    p.set_defaults(run=run)


def run(args: argparse.Namespace) -> int:
    import pandas as pd  # noqa: PLC0415 - deferred: every sub-command's parser is built for --help

    from metrics.meta.meta_evaluation import meta_evaluate  # noqa: PLC0415 - deferred: every sub-command's parser is built for --help
    from metrics.reports.table_output import write_table  # noqa: PLC0415 - deferred: every sub-command's parser is built for --help

    if args.table is not None or args.figure is not None:
        return _paper_table(args)
    if not args.out:
        raise UnanimityError("--out DIR is required (the folder the tables are written to)")
    if args.strictness_top < 1:
        raise UnanimityError(f"--strictness-top must be a whole number >= 1, got "
                             f"{args.strictness_top}")
    metrics = metric_names(args.metrics or "", "--metrics")
    reference = metric_names(args.reference or "", "--reference")
    if not metrics or not reference:
        raise UnanimityError("--metrics and --reference each need at least one measure")
    lower = {m: -1 for m in metric_names(args.lower_is_better, "--lower-is-better")}
    everything = list(dict.fromkeys(metrics + reference))
    systems = [s.strip() for s in args.systems.split(",") if s.strip()] if args.systems else None
    try:
        table, _ = load_scores(args, everything)
        known = set(pd.unique(table["metric"]))
        absent = [m for m in everything if m not in known]
        if absent:
            raise UnanimityError(f"measure(s) {', '.join(absent)} not in the scores; available: "
                                 f"{', '.join(sorted(map(str, known)))}")
        result = meta_evaluate(table, metrics, reference, directions=lower, systems=systems,
                               strictness_reading=args.strictness,
                               strictness_top=args.strictness_top)
    except UnanimityError:
        raise
    except ValueError as exc:
        raise UnanimityError(str(exc)) from exc
    out = Path(args.out)
    files = list(OUTPUT_FILES)
    frames = [result.to_dataframe(), result.per_topic, result.ranks]
    if args.constraints:
        from metrics.meta.constraints_rs import (  # noqa: PLC0415 - deferred: every sub-command's parser is built for --help
            organisation_constraint_results,
            organisation_verdicts,
        )

        checks = organisation_constraint_results()
        verdicts = organisation_verdicts(results=checks)
        files += CONSTRAINT_FILES
        frames += [checks, verdicts.rename_axis(columns=None).reset_index()]
    try:
        out.mkdir(parents=True, exist_ok=True)
        for name, frame in zip(files, frames, strict=True):
            write_table(frame, out / name)
    except OSError as exc:
        raise UnanimityError(f"cannot write into {out}: {exc.strerror or exc}") from None
    n_sys = int(result.ranks["system"].nunique())
    n_top = int(result.ranks["topic"].nunique())
    print(f"{n_sys} systems, {n_top} topics; reference: {', '.join(result.reference)}")
    top = (f", mean of the {result.strictness_top} largest rank differences"
           if result.strictness_top > 1 else "")
    print(f"strictness: the {result.strictness_reading} reading{top}; both readings in the "
          "last two columns (docs/meta-evaluation.md)")
    print(result.to_dataframe().to_string(index=False, float_format=lambda v: f"{v:.3f}",
                                          na_rep="n/a"))
    for r in result.results:
        if r.strictness_note:
            print(f"n/a: {r.strictness_note}")
    if args.constraints:
        marks = verdicts.astype(object).map(lambda v: "" if pd.isna(v) else "yes" if v else "no")
        print("formal constraints (yes = satisfied):")
        print(marks.rename_axis(index=None, columns=None).to_string())
    for name in files:
        print(f"wrote {out / name}")
    return 0


def _tops(text: str) -> list[int]:
    try:
        tops = [int(k) for k in text.split(",") if k.strip()]
    except ValueError:
        raise UnanimityError(f"--tops takes whole numbers, got {text!r}") from None
    if not tops or min(tops) < 1:
        raise UnanimityError(f"--tops takes whole numbers >= 1, got {text!r}")
    return tops


def _paper_table(args: argparse.Namespace) -> int:
    """``--table 8`` (ranking), ``--table 7`` (filtering) and ``--figure 1`` on the campaign;
    with ``--out``, ``table8.csv`` and ``table8_topics.csv``, ``table7.csv`` and
    ``table7_topics.csv``, ``figure1.csv``."""
    from metrics.meta.filtering_table import (  # noqa: PLC0415 - deferred: every sub-command's parser is built for --help
        figure1,
        filtering_table,
        filtering_view,
    )
    from metrics.meta.ranking_table import ranking_table  # noqa: PLC0415 - deferred: as above

    if args.metrics or args.reference:
        raise UnanimityError("--table and --figure choose their own measures; drop --metrics "
                             "and --reference")
    if args.figure is not None and not args.out:
        raise UnanimityError("--figure 1 writes figure1.csv: give --out DIR")
    tops = _tops(args.tops)
    campaign = campaign_from_args(args)
    files: dict[str, pd.DataFrame] = {}
    if args.table == 8:
        ranked = ranking_table(campaign, min_depth=args.min_depth, tops=tops)
        print("\n".join(ranked.lines(campaign.name)))
        files |= {"table8.csv": ranked.table, "table8_topics.csv": ranked.meta.per_topic}
    if args.table == 7 or args.figure == 1:
        view = filtering_view(campaign, accept_top=args.accept_top,
                              relevant_grade=args.relevant_grade)
        if args.table == 7:
            filtered = filtering_table(view, tops=tops)
            print("\n".join(filtered.lines(campaign.name)))
            files |= {"table7.csv": filtered.table, "table7_topics.csv": filtered.meta.per_topic}
        if args.figure == 1:
            fig = figure1(view)
            print(f"figure 1: R*S against {', '.join(fig.measures)}, {len(fig.points)} points; "
                  f"{fig.description}")
            files["figure1.csv"] = fig.points
    if args.out:
        _write(Path(args.out), files)
    return 0


def _write(out: Path, files: dict[str, pd.DataFrame]) -> None:
    from metrics.reports.table_output import write_table  # noqa: PLC0415 - deferred: as above

    try:
        out.mkdir(parents=True, exist_ok=True)
        for name, frame in files.items():
            write_table(frame, out / name)
    except OSError as exc:
        raise UnanimityError(f"cannot write into {out}: {exc.strerror or exc}") from None
    for name in files:
        print(f"wrote {out / name}")
