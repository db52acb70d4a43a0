"""The R&S paper's Table 8 on TREC DL 2019: Robustness and Strictness of ranking measures.

Amigó, Gonzalo and Verdejo (SIGIR 2013, §4.4, Table 8) meta-evaluate R*S (the F of Reliability
and Sensitivity) with n = 30 and n = 800 (W_n = 0.8) against MAP, DCG, P@10, MRR, RBP(0.8) and
RBP(0.95) on TREC 2004 Terabyte. This script runs the same experiment on TREC DL 2019 passage
ranking (``../shared/campaigns/trec-dl-2019``): the IR measures through ``ir_measures`` (the
numbers of trec_eval; binary measures count grade >= 2 as relevant, as the track does), R and
S through the project's organisation measures, and
:func:`metrics.meta.meta_evaluation.meta_evaluate`.
See ``docs/meta-evaluation.md`` for what the paper found.

Usage::

    python scripts/table8_trec_dl.py [--campaign DIR] [--out DIR] [--min-depth 1000] [--ir-only]

As in the paper, only systems returning long rankings are kept (discriminating systems that
return short rankings is easy): those whose median number of documents per topic is at least
``--min-depth`` (default 900: the paper's 1,000, with the slack of TREC DL runs that returned
995-997; several full-depth runs return only 5 passages on one topic). ``--ir-only`` meta-evaluates
the
IR measures alone; without it the script needs the measures ``reliability(n=..., w=...)`` and
``sensitivity(n=..., w=...)`` in the metric registry and a reader for TREC campaigns, and stops
with a message saying so when they are absent.
"""

from __future__ import annotations

import argparse
import sys
from pathlib import Path

import numpy as np
import pandas as pd

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from metrics.comparison.combine import f_alpha  # noqa: E402
from metrics.errors import UnanimityError  # noqa: E402
from metrics.meta.meta_evaluation import meta_evaluate  # noqa: E402

DEFAULT_CAMPAIGN = ROOT.parent / "shared" / "campaigns" / "trec-dl-2019"

#: label in the table -> ir_measures name (grade >= 2 relevant for the binary measures).
IR_MEASURES: dict[str, str] = {
    "MAP": "AP(rel=2)",
    "nDCG@10": "nDCG@10",
    "P@10": "P(rel=2)@10",
    "MRR": "RR(rel=2)",
    "RBP(0.8)": "RBP(p=0.8,rel=2)",
    "RBP(0.95)": "RBP(p=0.95,rel=2)",
}
#: R*S settings of the paper: (label, n, W_n).
RS_SETTINGS: tuple[tuple[str, int, float], ...] = (("R*S(n=30)", 30, 0.8),
                                                    ("R*S(n=800)", 800, 0.8))
#: Strictness values the paper's text reports for its Table 8 (TREC 2004 Terabyte).
PAPER_STRICTNESS: dict[str, float] = {"R*S(n=30)": -0.58, "MRR": -0.63, "MAP": -0.74,
                                      "P@10": -0.75}


def _runs(campaign: Path) -> dict[str, Path]:
    runs = sorted((campaign / "runs").glob("*.run*"))
    if not runs:
        raise SystemExit(f"table8: no runs/*.run[.gz] under {campaign}")
    return {p.name.split(".run")[0]: p for p in runs}


def _qrels_path(campaign: Path) -> Path:
    for name in ("qrels.txt.gz", "qrels.txt"):
        if (campaign / name).exists():
            return campaign / name
    raise SystemExit(f"table8: no qrels.txt[.gz] under {campaign}")


def ir_scores(campaign: Path, systems: list[str] | None = None) -> tuple[pd.DataFrame, pd.Series]:
    """Per-topic IR measures of every run (or of ``systems``) as a score table, and each run's
    median ranking depth."""
    import ir_measures  # noqa: PLC0415

    qrels = list(ir_measures.read_trec_qrels(str(_qrels_path(campaign))))
    judged = sorted({q.query_id for q in qrels})
    parsed = {label: ir_measures.parse_measure(name) for label, name in IR_MEASURES.items()}
    label_of = {str(m): label for label, m in parsed.items()}
    evaluator = ir_measures.evaluator(list(parsed.values()), qrels)
    frames, depth = [], {}
    for system, path in _runs(campaign).items():
        if systems is not None and system not in systems:
            continue
        run = pd.DataFrame(ir_measures.read_trec_run(str(path)))
        counts = run.groupby("query_id").size().reindex(judged, fill_value=0)
        depth[system] = float(counts.median())
        rows = [(system, m.query_id, label_of[str(m.measure)], float(m.value))
                for m in evaluator.iter_calc(run.itertuples(index=False))]
        frames.append(pd.DataFrame(rows, columns=["system", "topic", "metric", "value"]))
    return pd.concat(frames, ignore_index=True), pd.Series(depth, name="depth")


def rs_scores(campaign: Path) -> pd.DataFrame:
    """Per-topic R*S (F_0.5 of Reliability and Sensitivity) at the paper's two settings."""
    from metrics.io import load  # noqa: PLC0415
    from metrics.measures.registry import parse_metric  # noqa: PLC0415
    from metrics.measures.scoring import evaluate  # noqa: PLC0415

    try:
        for _, n, w in RS_SETTINGS:
            parse_metric(f"reliability(n={n},w={w})")
            parse_metric(f"sensitivity(n={n},w={w})")
        camp = load(campaign)
    except UnanimityError as exc:
        raise SystemExit(
            "table8: R*S needs the document-organisation measures reliability(n=..,w=..) and "
            "sensitivity(n=..,w=..) and the `trec` campaign reader, which this installation "
            f"does not have yet ({exc}); run with --ir-only for the IR measures alone"
        ) from None
    frames = []
    for label, n, w in RS_SETTINGS:
        r, s = f"reliability(n={n},w={w})", f"sensitivity(n={n},w={w})"
        table = evaluate(camp, [r, s])
        wide = table.pivot_table(index=["system", "topic"], columns="metric", values="value",
                                 sort=False)
        r_col = next(c for c in wide.columns if c.startswith("reliability"))
        s_col = next(c for c in wide.columns if c.startswith("sensitivity"))
        f = f_alpha(wide[r_col].to_numpy(), wide[s_col].to_numpy(), 0.5)
        frames.append(pd.DataFrame({"system": wide.index.get_level_values(0),
                                    "topic": wide.index.get_level_values(1),
                                    "metric": label, "value": np.asarray(f, dtype=np.float64)}))
    return pd.concat(frames, ignore_index=True)


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--campaign", type=Path, default=DEFAULT_CAMPAIGN)
    ap.add_argument("--out", type=Path, help="folder for table8.csv and the per-topic table")
    ap.add_argument("--min-depth", type=int, default=900,
                    help="keep systems whose median ranking depth is at least this (default 900)")
    ap.add_argument("--ir-only", action="store_true", help="meta-evaluate the IR measures alone")
    args = ap.parse_args(argv)
    if not args.campaign.exists():
        raise SystemExit(f"table8: campaign not found at {args.campaign}")
    table, depth = ir_scores(args.campaign)
    metrics = []
    if not args.ir_only:
        rs = rs_scores(args.campaign)
        table = pd.concat([table, rs], ignore_index=True)
        metrics = [label for label, _, _ in RS_SETTINGS]
    kept = sorted(depth.index[depth >= args.min_depth])
    if not args.ir_only:
        kept = [s for s in kept if s in set(table.loc[table["metric"] == metrics[0], "system"])]
    if len(kept) < 3:
        raise SystemExit(f"table8: only {len(kept)} systems have a median depth >= "
                         f"{args.min_depth}")
    result = meta_evaluate(table, metrics, list(IR_MEASURES), systems=kept)
    out = result.to_dataframe()
    out["paper_strictness"] = out["metric"].map(PAPER_STRICTNESS)
    print(f"TREC DL 2019: {len(kept)} of {len(depth)} systems (median depth >= {args.min_depth}), "
          f"{table['topic'].nunique()} topics")
    print(out.to_string(index=False, float_format=lambda v: f"{v:.3f}", na_rep="-"))
    if args.out:
        args.out.mkdir(parents=True, exist_ok=True)
        out.to_csv(args.out / "table8.csv", index=False)
        result.per_topic.to_csv(args.out / "table8_topics.csv", index=False)
        print(f"wrote {args.out / 'table8.csv'} and {args.out / 'table8_topics.csv'}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
