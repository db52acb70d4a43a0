"""The R&S paper's Table 8 on a ranking campaign: Robustness and Strictness of ranking measures.

Amigó, Gonzalo and Verdejo (SIGIR 2013, §4.4, Table 8) meta-evaluate R*S (the F of Reliability
and Sensitivity, alpha = 0.5) with n = 30 and n = 800 (W_n = 0.8) against MAP, DCG, P@10, MRR,
RBP(0.8) and RBP(0.95) on TREC 2004 Terabyte, keeping only the systems that return long
rankings. :func:`ranking_table` runs the same experiment on any ranking campaign (a qrels file
and TREC runs, ``docs/meta-evaluation.md`` §4):

* the IR measures of :data:`IR_MEASURES` through :func:`metrics.measures.scoring.evaluate`
  (``ir_measures``, trec_eval's numbers; binary measures count grade >= 2 as relevant, as TREC DL
  does; nDCG@10 stands for the paper's DCG);
* R*S = 1 / (0.5 / R + 0.5 / S) of the project's ``reliability(n=..,w=..)`` and
  ``sensitivity(n=..,w=..)``: the composite metric ``rs_f(n=..,w=..)`` of the same
  :func:`~metrics.measures.scoring.evaluate` call;
* only the systems whose median number of ranked documents per judged topic is at least
  ``min_depth`` (:func:`run_depths`);
* Robustness and Strictness of :func:`metrics.meta.meta_evaluation.meta_evaluate`, each measure
  against the IR measures other than itself, Strictness under both readings of §4.1
  (``per-topic@K``, ``all-outputs@K``) from the mean of the K largest rank differences for each
  K of ``tops``.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

import numpy as np
import pandas as pd

from metrics.errors import UnanimityError
from metrics.measures.organisation.ranked_lists import RankedMemberships
from metrics.measures.registry import parse_metric
from metrics.measures.scoring import evaluate
from metrics.meta.meta_evaluation import MetaEvaluation, meta_evaluate
from metrics.meta.readings import DEFAULT_MIN_DEPTH, DEFAULT_TOPS
from metrics.model.campaign import Campaign

__all__ = ["IR_MEASURES", "RS_SETTINGS", "PAPER_STRICTNESS",
           "RankingTable", "run_depths", "rs_label", "paper_order", "ranking_table"]

#: label in the table -> IR measure (grade >= 2 relevant for the binary measures).
IR_MEASURES: dict[str, str] = {
    "MAP": "AP(rel=2)",
    "nDCG@10": "nDCG@10",
    "P@10": "P(rel=2)@10",
    "MRR": "RR(rel=2)",
    "RBP(0.8)": "RBP(p=0.8,rel=2)",
    "RBP(0.95)": "RBP(p=0.95,rel=2)",
}
#: R*S settings of the paper's Table 8: (n, W_n).
RS_SETTINGS: tuple[tuple[int, float], ...] = ((30, 0.8), (800, 0.8))
#: Strictness values the paper's text reports for its Table 8 (TREC 2004 Terabyte).
PAPER_STRICTNESS: dict[str, float] = {"R*S(n=30)": -0.58, "MRR": -0.63, "MAP": -0.74,
                                      "P@10": -0.75}


def rs_label(n: int) -> str:
    """The table's name of R*S with ``n`` levels: ``R*S(n=30)``."""
    return f"R*S(n={n})"


@dataclass(frozen=True)
class RankingTable:
    """The paper's Table 8 on one campaign.

    Attributes
    ----------
    table : DataFrame
        ``metric, robustness, per-topic@K, all-outputs@K, ..., paper_strictness``: one row per
        measure (R*S settings first, then :data:`IR_MEASURES`), ``paper_strictness`` the value
        the paper reports (NaN where it reports none).
    systems : list of str
        The systems kept (median depth >= ``min_depth``).
    depth : Series
        Median ranking depth of every system over the judged topics.
    n_topics : int
        Topics of the score table.
    min_depth : int
    tops : tuple of int
    paper_order : dict of str -> bool
        For each Strictness column: does it order R*S(n=30), MRR, MAP, P@10 as the paper does?
    meta : MetaEvaluation
        The meta-evaluation at the first K (its per-topic table and ranks).
    """

    table: pd.DataFrame
    systems: list[str]
    depth: pd.Series
    n_topics: int
    min_depth: int
    tops: tuple[int, ...]
    paper_order: dict[str, bool]
    meta: MetaEvaluation

    def lines(self, name: str = "") -> list[str]:
        """The printed table: a header line, the table, one line per Strictness column on the
        paper's order."""
        head = f"{name}: " if name else ""
        out = [f"{head}{len(self.systems)} of {len(self.depth)} systems (median depth >= "
               f"{self.min_depth}), {self.n_topics} topics"]
        out += self.table.to_string(index=False, float_format=lambda v: f"{v:.3f}",
                                    na_rep="-").splitlines()
        want = ", ".join(sorted(PAPER_STRICTNESS, key=PAPER_STRICTNESS.__getitem__, reverse=True))
        out += [f"{col}: {'the paper' if same else 'not the paper'}'s order of {want}"
                for col, same in self.paper_order.items()]
        return out


def run_depths(campaign: Campaign) -> pd.Series:
    """Median number of documents each run ranks per judged topic (0 where it ranks none).

    The judged topics are the gold's; rows of other topics were dropped on reading."""
    n_t = campaign.n_topics
    runs = campaign.runs
    depth = {}
    for system in runs:
        if isinstance(runs, RankedMemberships):
            topic = runs.ranked.runs[system].topic
        else:
            topic = campaign.item_topic[runs[system].item]
        depth[system] = float(np.median(np.bincount(topic, minlength=n_t)))
    return pd.Series(depth, name="depth", dtype=np.float64)


def _scores(campaign: Campaign, systems: list[str], settings: Sequence[tuple[int, float]]
            ) -> pd.DataFrame:
    """The IR measures and R*S of every setting (the composite metric ``rs_f(n=..,w=..)``),
    labelled as the table names them, R*S first."""
    rs = {str(parse_metric(f"rs_f(n={n},w={w})")): rs_label(n) for n, w in settings}
    ir = {str(parse_metric(m)): lab for lab, m in IR_MEASURES.items()}
    table = evaluate(campaign, list(IR_MEASURES.values()) + list(rs), systems=systems)
    frames = [table[table["metric"] == m].assign(metric=lab) for m, lab in rs.items()]
    part = table[table["metric"].isin(ir)]
    frames.append(part.assign(metric=part["metric"].map(ir)))
    return pd.concat(frames, ignore_index=True)


def paper_order(table: pd.DataFrame) -> dict[str, bool]:
    """For each Strictness column (``...@K``): does it order the paper's four measures as the
    paper does, R*S(n=30) strictest, then MRR, MAP, P@10 (closest to 0 first)?"""
    want = sorted(PAPER_STRICTNESS, key=PAPER_STRICTNESS.__getitem__, reverse=True)
    rows = table.set_index("metric")
    if not set(want) <= set(rows.index):
        return {}
    got = {}
    for col in [c for c in table.columns if "@" in c]:
        vals = rows.loc[want, col]
        got[col] = bool(vals.is_monotonic_decreasing and vals.is_unique)
    return got


def ranking_table(campaign: Campaign, min_depth: int = DEFAULT_MIN_DEPTH,
                  tops: Sequence[int] = DEFAULT_TOPS,
                  settings: Sequence[tuple[int, float]] = RS_SETTINGS) -> RankingTable:
    """The paper's Table 8 on a ranking campaign (module docstring; ``docs/meta-evaluation.md``
    §4).

    Raises
    ------
    UnanimityError
        When the campaign is not a ranking campaign, a K of ``tops`` is below 1, or fewer than
        three systems reach ``min_depth``.
    """
    if not campaign.has_clusterings or not campaign.tail:
        raise UnanimityError(f"--table 8 needs a ranking campaign (a qrels file and TREC runs); "
                             f"{campaign.name!r} is not one")
    tops = tuple(int(k) for k in tops)
    if not tops or min(tops) < 1:
        raise UnanimityError(f"the K of Strictness are whole numbers >= 1, got {list(tops)}")
    depth = run_depths(campaign)
    kept = [s for s in campaign.runs if depth[s] >= min_depth]
    if len(kept) < 3:
        raise UnanimityError(f"only {len(kept)} systems of {campaign.name!r} have a median "
                             f"ranking depth >= {min_depth}; Table 8 needs three")
    kept = sorted(kept)
    scores = _scores(campaign, kept, settings)
    metrics = [rs_label(n) for n, _ in settings]
    results = [meta_evaluate(scores, metrics, list(IR_MEASURES), systems=kept,
                             strictness_top=k) for k in tops]
    out = results[0].to_dataframe()[["metric", "robustness"]]
    for k, res in zip(tops, results, strict=True):
        frame = res.to_dataframe()
        out[f"per-topic@{k}"] = frame["strictness_per_topic"].to_numpy()
        out[f"all-outputs@{k}"] = frame["strictness_all_outputs"].to_numpy()
    out["paper_strictness"] = out["metric"].map(PAPER_STRICTNESS).astype(np.float64)
    return RankingTable(table=out, systems=kept, depth=depth,
                        n_topics=int(scores["topic"].nunique()), min_depth=int(min_depth),
                        tops=tops, paper_order=paper_order(out), meta=results[0])
